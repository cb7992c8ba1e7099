"""Renders a dev set drawn for the occlusion question: in every photo a hand reaches over a cell
holding a counter or a token, its fingertips placed at a random point of that cell or just
beyond it, so that the cells around the fingertips (pieces on them more often than on the
ordinary dev photos) are covered from a sliver to most of their area.

Run from the repository root:

    python bench/occlusion_set.py [--cache /tmp/w46a/cache] [--photos 40]

Both renderers, as ``bench/bench_reliability.py`` draws their photos (same conditions, same
calibrations per style or box, from a clean photo of the set-up), except: more counters on the
board (:data:`OCCUPIED` of the cells instead of 0.3), a hand in every photo, its fingertips over
a piece. Seeds: :data:`SEEDS`, a dev range of its own (the ordinary dev photos start at 1000000
and 5000000, the eval ones at 3000000 and 6000000: never read here). The photos and their index
go to ``--cache`` as ``--cache`` of ``bench/bench_reliability.py`` keeps them, so
``bench/decide_replay.py`` and ``bench/fit_occlusion.py --set`` read them with ``bases=SEEDS``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import BOXES, Photo, cached, calibrations  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from vision import tabletop  # noqa: E402
from vision.board import BoardSpec, load_board  # noqa: E402
from vision.render import STYLES, random_scene, render, sample_real_conditions  # noqa: E402
from vision.render_scene import Scene  # noqa: E402

SEEDS = {"render": 2_500_000, "tabletop": 2_600_000}
"""This set's dev seed range per renderer (calibration photos at ``+ 90_000 + k``, as for the
ordinary dev photos)."""
OCCUPIED = 0.5
"""Share of the cells holding a counter (the ordinary dev photos: 0.3)."""
REACH = 0.75
"""The fingertips lie up to this many cells from the piece cell's centre, along each axis: inside
the cell or just past its edge, so the cover of that cell and its neighbours spreads."""


def _fingertips(board: BoardSpec, scene: Scene, rng: np.random.Generator) -> tuple[float, float]:
    """A board point (u, v) near the centre of a random cell holding a counter or a token."""
    names = board.cell_names()
    pieces = sorted(set(scene.counters) | set(scene.terrain))
    i = names.index(pieces[int(rng.integers(0, len(pieces)))])
    du, dv = rng.uniform(-REACH, REACH, 2)
    return float(i % board.cols + 0.5 + du), float(i // board.cols + 0.5 + dv)


def render_photos(board: BoardSpec, base: int, count: int, tmp: Path) -> Iterator[Photo]:
    """The project's renderer, ``real`` profile, styles in turn, a hand over a piece."""
    labels = cyrus_labels(setup_state())
    for k in range(count):
        seed, style = base + k, k % len(STYLES)
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels, occupied=OCCUPIED)
        cond = sample_real_conditions(rng, 1920, 1080, style, hands=1.0)
        cond = dataclasses.replace(cond, hands=1, hand_at=_fingertips(board, scene, rng))
        shot = render(board, scene, cond, seed)
        yield shot.save(tmp / f"render_{k}"), shot.cells, shot.occluded, style


def tabletop_photos(board: BoardSpec, base: int, count: int, tmp: Path) -> Iterator[Photo]:
    """The second renderer, boxes in turn, a hand over a piece."""
    labels = cyrus_labels(setup_state())
    names = board.cell_names()
    for k in range(count):
        seed, box = base + k, k % BOXES
        rng = np.random.default_rng(seed)
        scene = random_scene(board, rng, labels, occupied=OCCUPIED)
        at = [(names.index(n) % board.cols + 0.5, names.index(n) // board.cols + 0.5) for n in scene.counters]
        cond = tabletop.sample_conditions(rng, 1920, 1080, box=box, hand=1.0, counters=at)
        cond = dataclasses.replace(cond, hand_cell=_fingertips(board, scene, rng))
        shot = tabletop.render(board, scene, cond, seed)
        yield shot.save(tmp / f"tabletop_{k}"), shot.cells, shot.occluded, box


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=Path("/tmp/w46a/cache"))
    parser.add_argument("--photos", type=int, default=40, help="Photos per renderer.")
    args = parser.parse_args()
    board = load_board("cyrus-pyxis")
    args.cache.mkdir(parents=True, exist_ok=True)
    for kind, source in (("render", render_photos), ("tabletop", tabletop_photos)):
        base = SEEDS[kind]
        calibrations(board, kind, base, args.cache)
        hidden = pieces = 0
        for _path, truth, occluded, _group in cached(kind, source(board, base, args.photos, args.cache), base,
                                                     args.photos, args.cache):
            hidden += len(occluded)
            pieces += sum(1 for n in occluded if truth[n]["occupant"] or truth[n]["terrain"] != board.terrains[0])
        print(f"{kind}: {args.photos} photos from seed {base}, {hidden} cells under a hand, {pieces} of them "
              f"holding a piece", flush=True)


if __name__ == "__main__":
    main()
