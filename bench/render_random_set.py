"""Renders a set of random dev scenes of one renderer, drawn as the benchmark draws its photos
(``bench/bench_reliability.py``: random scenes, a hand in a quarter of the project renderer's
and in 30 % of the second renderer's, its boxes in turn, hard shadows and glares), from a seed
range of its own: training photos for ``bench/dump_cell_features.py``.

Run from the repository root (held-out and eval ranges are refused):

    python bench/render_random_set.py --kind tabletop --cache /tmp/w50train/cache --base 5500000 --photos 300

The photos, their calibration photos (clean, one per style or box, at ``base + 90_000 + k``) and
an index go to ``--cache`` as ``bench_reliability --cache`` keeps them, so that
``dump_cell_features.py --cache … --only KIND --base BASE --photos N`` reads them. The training
set of the shipped trees holds two such sets (``/tmp/w50train/cache``: 300 per renderer, seeds
1,500,000 and 5,500,000).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import cached, render_photos, tabletop_photos  # noqa: E402
from bench.dump_cell_features import training_photos_run  # noqa: E402


def main() -> None:
    args, board = training_photos_run(__doc__, None, photos=300)
    source = render_photos if args.kind == "render" else tabletop_photos
    photos = cached(args.kind, source(board, args.base, args.photos, args.cache), args.base, args.photos, args.cache)
    hidden = sum(len(occluded) for _p, _t, occluded, _g in photos)
    print(f"{args.kind}: {args.photos} random photos from seed {args.base}, {hidden} cells under a hand")


if __name__ == "__main__":
    main()
