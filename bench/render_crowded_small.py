"""Renders training photos of the project's renderer with a small, crowded board (cells of about
20-30 px at 1600 × 900, tokens on most cells, counters mostly on tokens), for
``bench/dump_cell_features.py``: the scenes where the fitted trees read a token's thin band
under a counter wrong or leave it asked (``docs/vision.md``, w51a and w53b).

Run from the repository root (a dev range of its own; the held-out caches' and the eval seeds
are refused):

    python bench/render_crowded_small.py --cache /tmp/w53b/crowded --base 1810000 --photos 80

Each photo: tokens on about two cells in three, as many counters as the labels allow (up to 20 a
side), three in four of them on a token, the board filling 45-65 % of the shorter side, the
``real`` styles in turn, a hand in one photo in three. The photos, their calibration photos and
an index go to ``--cache`` as ``bench_reliability --cache`` keeps them
(``cached_readings(..., bases={"render": BASE})``).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_reliability import Photo, cached  # noqa: E402
from bench.bench_vision import cyrus_labels, setup_state  # noqa: E402
from bench.dump_cell_features import training_photos_run  # noqa: E402
from vision.board import BoardSpec  # noqa: E402
from vision.render import STYLES, Counter, Scene, render, sample_real_conditions  # noqa: E402

SIZE = (1600, 900)


def crowded_scene(board: BoardSpec, rng: np.random.Generator, labels: dict[str, list[str]]) -> Scene:
    """Tokens on about two cells in three; every label placed, three in four on a token."""
    names = [str(n) for n in rng.permutation(board.cell_names())]
    terrain = {n: str(rng.choice(board.terrains[1:])) for n in names if rng.random() < 0.67}
    on_token = [n for n in names if n in terrain]
    bare = [n for n in names if n not in terrain]
    pieces = [(side, label) for side in board.sides for label in rng.permutation(labels[side])]
    order = [int(i) for i in rng.permutation(len(pieces))]
    counters: dict[str, Counter] = {}
    for i in order:
        pool = on_token if (rng.random() < 0.75 and on_token) or not bare else bare
        if pool:
            side, label = pieces[i]
            counters[pool.pop()] = Counter(side, str(label))
    return Scene(terrain=terrain, counters=counters)


def crowded_small(board: BoardSpec, base: int, count: int, tmp: Path) -> Iterator[Photo]:
    """The project renderer's photos of a small crowded board (see the module)."""
    labels = cyrus_labels(setup_state())
    for k in range(count):
        seed, style = base + k, k % len(STYLES)
        rng = np.random.default_rng(seed)
        scene = crowded_scene(board, rng, labels)
        hands = 1 if k % 3 == 0 else 0
        cond = sample_real_conditions(rng, *SIZE, style, hands=hands)
        cond = dataclasses.replace(cond, fill=float(rng.uniform(0.45, 0.65)))
        shot = render(board, scene, cond, seed)
        yield shot.save(tmp / f"render_{k}"), shot.cells, shot.occluded, style


def main() -> None:
    args, board = training_photos_run(__doc__, "render")
    photos = crowded_small(board, args.base, args.photos, args.cache)
    hidden = sum(len(occluded) for _p, _t, occluded, _g in cached("render", photos, args.base, args.photos, args.cache))
    print(f"render: {args.photos} small crowded boards from seed {args.base}, {hidden} cells under a hand")


if __name__ == "__main__":
    main()
