"""Renders training photos of the second renderer under a wide glare (the kind of photo whose
colours fit their classes badly as a whole, which the fitted trees must learn to doubt), for
``bench/dump_cell_features.py`` and ``bench/fit_trees_photo.py``.

Run from the repository root (a dev range of its own; the held-out caches' and the eval seeds
are refused):

    python bench/render_glared_set.py --cache /tmp/w51a/glared --base 5610000 --photos 80

Each photo is drawn as ``bench_reliability.tabletop_photos`` draws it (random scene, the boxes in
turn, a hard shadow in 60 %, a hand in 30 %), then its glare is replaced by a wider one: radius
1.5–3 cells (the renderer's own draw: 0.5–2), strength 1–2.5, stretch 1–3, centred anywhere on
the board, so that it washes out from a tenth to about a third of the board. The photos, their
calibration photos (clean, as the benchmark's) and an index go to ``--cache`` as
``bench_reliability --cache`` keeps them (``cached_readings(..., bases={"tabletop": BASE})``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import BOXES, Photo, cached  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from bench.dump_cell_features import training_photos_run  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec  # noqa: E402
from vision.render import random_scene  # noqa: E402

RADIUS = (1.5, 3.0)
"""The glare's radius, in cells (drawn uniformly)."""
STRENGTH = (1.0, 2.5)
"""The glare's strength (drawn uniformly; the renderer's own draw: 0.2–2.5)."""


def glared_photos(board: BoardSpec, base: int, count: int, tmp: Path) -> Iterator[Photo]:
    """The second renderer's photos, each under a wide glare (see the module)."""
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    for k in range(count):
        seed, box = base + k, k % BOXES
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels, 0.3)
        at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
        cond = tabletop.sample_conditions(rng, 1920, 1080, box=box, counters=at)
        wide = (float(rng.uniform(1, 11)), float(rng.uniform(1, 11)), float(rng.uniform(*RADIUS)),
                float(rng.uniform(*STRENGTH)), float(rng.uniform(1, 3)))
        shot = tabletop.render(board, scene, dataclasses.replace(cond, glare=wide), seed)
        yield shot.save(tmp / f"tabletop_{k}"), shot.cells, shot.occluded, box


def main() -> None:
    args, board = training_photos_run(__doc__, "tabletop")
    n = sum(1 for _ in cached("tabletop", glared_photos(board, args.base, args.photos, args.cache), args.base,
                              args.photos, args.cache))
    print(f"tabletop: {n} glared photos from seed {args.base} in {args.cache}")


if __name__ == "__main__":
    main()
