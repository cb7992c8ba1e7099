"""Fits the glare's probability (``vision.pipeline.GLARE_RIGHT``) on dev photos of both renderers.

Run from the repository root, after ``bench/bench_reliability.py --seeds dev --cache DIR`` has
rendered the dev photos into DIR:

    python bench/fit_glare.py --cache DIR [--photos 40]

The cells it fits are those the reader caps for a glare: read as bare plain, with at least
``vision.pipeline.GLARE_SHARE`` of their pixels washed out (``grid_overlay.WASHED``), wholly
inside the photo and not under a hand. ``GLARE_RIGHT`` is the share of them whose reading is
right (cells of every photo read without refusal: a refusal counts only the cells below the
floor, which a probability under it leaves alike). It also prints that share on the even and on
the odd photos, in the photos the reader reads and in those it refuses, and by the washed share
of the cell's central disc: the evidence a glare leaves. Its own figures show why the cells stay
asked: a disc washed out wholly says nothing of a counter under it, and a disc not washed out
holds colour the reader already read as no counter, wrongly when a glare's haze pales it. Eval
seeds are never read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings  # noqa: E402
from bench.fit_cell_confidence import glare_features, readable  # noqa: E402
from vision import grid_overlay as go  # noqa: E402
from vision.board import load_board  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.decide import READ_INSIDE  # noqa: E402
from vision.pipeline import GLARE_SHARE  # noqa: E402


def samples(cache: Path, photos: int) -> np.ndarray:
    """Returns one row per capped cell: (right, photo index, photo read, disc washed share)."""
    board = load_board("cyrus-pyxis")
    cfg = VisionConfig().classify
    rows: list[list[float]] = []
    for k, (_kind, (path, cells, hidden, _group), cal, reading) in enumerate(cached_readings(board, cache, photos)):
        washed = go.cell_washed(reading.warped, board)
        glare = glare_features(reading.warped, board, cfg)
        capped = [
            n for n, (name, cell) in enumerate(reading.observation.cells.items())
            if name not in hidden and cell.occupant is None and cell.terrain == board.terrains[0]
            and washed[n] >= GLARE_SHARE and reading.inside[n] >= READ_INSIDE
        ]
        if not capped:
            continue
        read_ok = float(readable(path, cal))
        names = list(reading.observation.cells)
        for n in capped:
            held = cells[names[n]]
            right = held["occupant"] is None and held["terrain"] == board.terrains[0]
            rows.append([float(right), float(k), read_ok, float(glare[n, 0])])
    return np.array(rows, np.float64).reshape(-1, 4)


def share(label: str, right: np.ndarray) -> None:
    print(f"  {label}: {int(right.sum())} of {len(right)} right" + (f" ({right.mean():.3f})" if len(right) else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, default=40)
    args = parser.parse_args()
    data = samples(args.cache, args.photos)
    right, photo, read_ok, disc = data.T
    print(f"glared cells read as bare plain: {len(right)}; GLARE_RIGHT = {right.mean():.2f}")
    share("even photos", right[photo % 2 == 0])
    share("odd photos", right[photo % 2 == 1])
    share("photos read", right[read_ok == 1])
    share("photos refused", right[read_ok == 0])
    for lo, hi in ((0.0, 0.3), (0.3, 0.9), (0.9, 0.999), (0.999, 1.01)):
        share(f"disc washed {lo:.3f}-{min(hi, 1):.3f}", right[(disc >= lo) & (disc < hi)])


if __name__ == "__main__":
    main()
