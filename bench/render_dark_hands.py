"""Renders training photos of the project's renderer with a hand of the darker skins (nearly the
hill token's colour) reaching over a cell, for ``bench/dump_cell_features.py``: the scenes where
the fitted trees read cells under such a hand as a hill (``docs/vision.md``, w50a and w51a).

Run from the repository root (a dev range of its own; the held-out caches' and the eval seeds
are refused):

    python bench/render_dark_hands.py --cache /tmp/w51a/dark --base 1610000 --photos 80

Each photo is drawn as ``bench/occlusion_set.py`` draws its photos (random scene with half the
cells holding a counter, the ``real`` styles in turn, a hand in every photo, its fingertips
over a piece or just beside it), except that the hand's skin is one of :data:`SKINS` and, in
half of them, its fingertips are over a bare plain cell. The photos, their calibration photos
and an index go to ``--cache`` as ``bench_reliability --cache`` keeps them
(``cached_readings(..., bases={"render": BASE})``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import Photo, cached  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from bench.dump_cell_features import training_photos_run  # noqa: E402
from bench.occlusion_set import OCCUPIED, _fingertips  # noqa: E402
from vision.board import BoardSpec  # noqa: E402
from vision.render import STYLES, Scene, random_scene, render, sample_real_conditions  # noqa: E402

SKINS = (0, 4)
"""The renderer's skin tones nearest the hill token's colour (``vision.render.SKIN``), as the
described scenes of a hand of the hill's colour use them."""


def _over_plain(board: BoardSpec, rng: np.random.Generator) -> tuple[float, float]:
    """Fingertips at a random point of a random cell (most cells are bare plain)."""
    return float(rng.uniform(0.3, board.cols - 0.3)), float(rng.uniform(0.3, board.rows - 0.3))


def hand_photos(board: BoardSpec, base: int, count: int, tmp: Path,
                place: Callable[[int, Scene, np.random.Generator], tuple[float, float]],
                skin: Callable[[int], int]) -> Iterator[Photo]:
    """The project renderer's photos drawn as the occlusion set's are, one hand in each: photo
    ``k``'s fingertips at ``place(k, scene, rng)`` (a board point), its skin ``skin(k)``."""
    labels = cyrus_labels(setup_state())
    for k in range(count):
        seed, style = base + k, k % len(STYLES)
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels, OCCUPIED)
        cond = sample_real_conditions(rng, 1920, 1080, style, hands=1.0)
        cond = dataclasses.replace(cond, hands=1, hand_at=place(k, scene, rng), hand_skin=skin(k))
        shot = render(board, scene, cond, seed)
        yield shot.save(tmp / f"render_{k}"), shot.cells, shot.occluded, style


def dark_hands(board: BoardSpec, base: int, count: int, tmp: Path) -> Iterator[Photo]:
    """The project renderer's photos, a dark hand in each (see the module)."""

    def place(k: int, scene: Scene, rng: np.random.Generator) -> tuple[float, float]:
        return _fingertips(board, scene, rng) if k % 2 == 0 else _over_plain(board, rng)

    return hand_photos(board, base, count, tmp, place, lambda k: SKINS[(k // 2) % len(SKINS)])


def main() -> None:
    args, board = training_photos_run(__doc__, "render")
    photos = dark_hands(board, args.base, args.photos, args.cache)
    hidden = sum(len(occluded) for _p, _t, occluded, _g in cached("render", photos, args.base, args.photos, args.cache))
    print(f"render: {args.photos} photos from seed {args.base}, a dark hand in each, {hidden} cells under a hand")


if __name__ == "__main__":
    main()
