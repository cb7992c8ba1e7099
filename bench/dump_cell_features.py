"""Dumps every cell's features (``vision.cell_features``) and true content from the training
photos, for ``bench/fit_cell_trees.py``.

Run from the repository root, once the training photos are rendered (the lead's training set,
never the held-out dev caches nor the eval seeds):

    python bench/dump_cell_features.py --cache /tmp/w50train/cache --photos 300 \
        --only render --base 1500000 --out /tmp/w50a/render.npz

Each photo is read with its calibration and without refusal (``bench_reliability
.cached_readings``); every cell of every photo read gives a row: its features, its true content
as a class index (:func:`content_index`), whether the renderer hid it under a hand, the photo's
number, and what the reader read there (class and confidence, for comparison only; the arrays
keep their names ``cascade`` and ``cascade_conf``: until 30 November the reader was the hand-set
cascade, and ``bench/fit_trees_photo.py`` matches its refusal to the count the cascade's
confidences refuse. The dumps it was last fitted on, the w53b ones included, were made with the
cascade; a dump made since holds the fitted trees' readings there, and that match then needs the
cascade's count recorded from an older dump).
Photos the reader cannot read at all are left out, as the benchmark leaves them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached_readings, calibrations  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.cell_features import feature_names, features  # noqa: E402

HELD_OUT = (1_000_000, 5_000_000, 1_200_000, 5_200_000, 2_500_000, 2_600_000, 3_000_000, 6_000_000,
            3_200_000, 6_200_000)
"""Seed ranges never dumped for fitting: the held-out caches' and the eval seeds'."""


def held_out(base: int) -> bool:
    """Whether a seed range starting at ``base`` shares its hundred thousand with a held-out one."""
    return any(base // 100_000 == held // 100_000 for held in HELD_OUT)


def training_photos_run(doc: str, kind: str | None, photos: int = 80) -> tuple[argparse.Namespace, BoardSpec]:
    """The start of a script rendering training photos of one renderer (``kind``; None: the
    script's ``--kind`` says which, kept as ``args.kind``): parses its ``--cache``, ``--base`` and
    ``--photos`` (default ``photos``), refuses a held-out seed range, and renders (or finds) the
    calibration photos of that range in the cache. Returns the arguments and board."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    if kind is None:
        parser.add_argument("--kind", choices=("render", "tabletop"), required=True)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--base", type=int, required=True)
    parser.add_argument("--photos", type=int, default=photos)
    args = parser.parse_args()
    if kind is not None:
        args.kind = kind
    if held_out(args.base):
        parser.error(f"seed range {args.base} is held out: never fitted on")
    board = load_board("cyrus-pyxis")
    args.cache.mkdir(parents=True, exist_ok=True)
    calibrations(board, args.kind, args.base, args.cache)
    return args, board


def content_index(board: BoardSpec, occupant: str | None, terrain: str) -> int:
    """The class of a content: occupant (none first, then the board's sides) by terrain."""
    occ = 0 if occupant is None else 1 + board.sides.index(occupant)
    return occ * len(board.terrains) + board.terrains.index(terrain)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--photos", type=int, required=True)
    parser.add_argument("--only", choices=("render", "tabletop"), required=True)
    parser.add_argument("--base", type=int, required=True, help="First seed of the cache's index.")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if held_out(args.base):
        parser.error(f"seed range {args.base} is held out: never fitted on")
    board = load_board("cyrus-pyxis")
    names = board.cell_names()
    rows, labels, hidden, photo, cascade, conf = [], [], [], [], [], []
    for k, (_kind, (path, truth, occluded, _group), _cal, reading) in enumerate(
            cached_readings(board, args.cache, args.photos, only=args.only, bases={args.only: args.base})):
        x = features(reading.evidence, board, reading.lines, reading.washed, reading.inside)
        rows.append(x)
        labels += [content_index(board, truth[n]["occupant"], str(truth[n]["terrain"])) for n in names]
        hidden += [n in occluded for n in names]
        photo += [int(path.stem.rsplit("_", 1)[1])] * len(names)
        cells = reading.observation.cells
        cascade += [content_index(board, cells[n].occupant, cells[n].terrain) for n in names]
        conf += [cells[n].confidence for n in names]
        if k % 25 == 0:
            print(f"{k} photos", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, x=np.vstack(rows), y=np.array(labels), hidden=np.array(hidden),
                        photo=np.array(photo), cascade=np.array(cascade), cascade_conf=np.array(conf),
                        names=np.array(feature_names(board)))
    print(f"{len(labels)} cells of {len(rows)} photos -> {args.out}")


if __name__ == "__main__":
    main()
