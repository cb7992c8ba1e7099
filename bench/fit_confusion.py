"""Fits how the photo reader's mistakes split between a cell's occupant and its terrain: the
likelihood :mod:`vision.prior` gives the contents other than the one read.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/fit_confusion.py --cache DIR [--photos 40]

Every visible cell (not under a hand), wholly inside the photo, of every dev photo of both
renderers, read without refusal and without priors, whose reading is wrong at any confidence,
is counted by what it got wrong: the terrain only, the occupant only, or both. The three shares
(each with one added count, so none is zero) are ``vision.prior.MISTAKES``; the script prints
them over all photos, the even and the odd ones. Eval seeds are never read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from vision.board import load_board  # noqa: E402

KINDS = ("terrain", "occupant", "both")


def mistakes(cache: Path, photos: int) -> list[tuple[int, str]]:
    """Returns (photo index, what was wrong) for every visible cell read wrong."""
    board = load_board("cyrus-pyxis")
    out: list[tuple[int, str]] = []
    for _kind, (path, truth, hidden, _group), _cal, reading in cached_readings(board, cache, photos):
        index = int(path.stem.rsplit("_", 1)[1])
        for name, cell in reading.observation.cells.items():
            if name in hidden or cell.confidence <= 0:
                continue
            true = truth[name]
            occupant, terrain = cell.occupant != true["occupant"], cell.terrain != true["terrain"]
            if occupant or terrain:
                out.append((index, "both" if occupant and terrain else "occupant" if occupant else "terrain"))
    return out


def shares(kinds: Iterable[str]) -> tuple[float, ...]:
    """The three shares, one count added to each."""
    counted = list(kinds)
    return tuple(round((counted.count(k) + 1) / (len(counted) + len(KINDS)), 3) for k in KINDS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    found = mistakes(args.cache, args.photos)
    index = np.array([i for i, _ in found])
    kinds = [k for _, k in found]
    print(f"cells read wrong: {len(kinds)}; " + ", ".join(f"{k} {kinds.count(k)}" for k in KINDS))
    print(f"MISTAKES (terrain, occupant, both) = {shares(kinds)}")
    for name, keep in (("even photos", index % 2 == 0), ("odd photos", index % 2 == 1)):
        print(f"  {name}: {shares(k for k, kept in zip(kinds, keep, strict=True) if kept)}")


if __name__ == "__main__":
    main()
