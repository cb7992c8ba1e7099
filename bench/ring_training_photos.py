"""Renders w50b's extra training photos: a hand aimed at a piece in every photo (issue 34).

Run from the repository root:

    python bench/ring_training_photos.py [--cache /tmp/w50b/aimed] [--photos 80]

The photos of ``bench/occlusion_set.py`` (half the cells holding a counter, the fingertips
near a cell holding a piece) drawn from w50b's own dev ranges, 1,600,000 (project renderer) and
5,600,000 (second renderer), calibration photos at ``+ 90_000 + k``: training data for
``bench/fit_ring_model.py``, so that cells under a hand are learnt over pieces as well as over
bare board (the random photos' hands mostly cover bare board). Never the held-out ranges.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached, calibrations, render_photos, tabletop_photos  # noqa: E402
from bench.occlusion_set import OCCUPIED, _fingertips  # noqa: E402
from vision.board import load_board  # noqa: E402

SEEDS = {"render": 1_600_000, "tabletop": 5_600_000}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w50b/aimed"))
    parser.add_argument("--photos", type=int, default=80, help="Photos per renderer.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    args.cache.mkdir(parents=True, exist_ok=True)
    for kind, source in (("render", render_photos), ("tabletop", tabletop_photos)):
        base = SEEDS[kind]
        calibrations(board, kind, base, args.cache)
        drawn = source(board, base, args.photos, args.cache, occupied=OCCUPIED, aim=_fingertips)
        hidden = sum(len(occluded) for _p, _t, occluded, _g in cached(kind, drawn, base, args.photos, args.cache))
        print(f"{kind}: {args.photos} photos from seed {base}, {hidden} cells under a hand", flush=True)


if __name__ == "__main__":
    main()
