"""Renders training photos of the project's renderer with a hand's fingertips at the edge of a
counter standing on the bare plain, for ``bench/dump_cell_features.py``: the scenes where the
fitted trees read the hand's pixels beside such a counter as a hill token's band (a hand of
nearly the hill's colour; ``docs/vision.md``, w51a and w53b).

Run from the repository root (a dev range of its own; the held-out caches' and the eval seeds
are refused):

    python bench/render_hand_by_counter.py --cache /tmp/w53b/bycounter --base 1814000 --photos 120

Each photo is drawn as ``bench/occlusion_set.py`` draws its photos (random scene with half the
cells holding a counter, the ``real`` styles in turn, one hand), except that the hand's skin
runs through every tone of the renderer in turn and its fingertips lie a third to two thirds of
a cell from the centre of a counter on a bare plain cell, toward a random side: over the
counter's band, or just past it. The photos, their calibration photos and an index go to
``--cache`` as ``bench_reliability --cache`` keeps them (``cached_readings(...,
bases={"render": BASE})``).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import Photo, cached  # noqa: E402
from bench.dump_cell_features import training_photos_run  # noqa: E402
from bench.render_dark_hands import hand_photos  # noqa: E402
from vision.board import BoardSpec  # noqa: E402
from vision.render import SKIN, STYLES, Scene  # noqa: E402


def _by_counter(board: BoardSpec, scene: Scene, rng: np.random.Generator) -> tuple[float, float]:
    """Fingertips beside a random counter on a bare plain cell (any counter if there is none)."""
    names = board.cell_names()
    plain = sorted(n for n in scene.counters if n not in scene.terrain) or sorted(scene.counters)
    i = names.index(plain[int(rng.integers(0, len(plain)))])
    angle, reach = rng.uniform(0, 2 * math.pi), rng.uniform(1 / 3, 2 / 3)
    return (float(i % board.cols + 0.5 + reach * math.cos(angle)),
            float(i // board.cols + 0.5 + reach * math.sin(angle)))


def hands_by_counters(board: BoardSpec, base: int, count: int, tmp: Path) -> Iterator[Photo]:
    """The project renderer's photos, a hand beside a counter on the plain in each (see the module)."""
    return hand_photos(board, base, count, tmp, lambda _k, scene, rng: _by_counter(board, scene, rng),
                       lambda k: (k // len(STYLES)) % len(SKIN))


def main() -> None:
    args, board = training_photos_run(__doc__, "render")
    photos = hands_by_counters(board, args.base, args.photos, args.cache)
    hidden = sum(len(occluded) for _p, _t, occluded, _g in cached("render", photos, args.base, args.photos, args.cache))
    print(f"render: {args.photos} photos from seed {args.base}, a hand beside a counter, {hidden} cells under a hand")


if __name__ == "__main__":
    main()
