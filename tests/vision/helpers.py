"""Shared builders for the vision tests: the board, scenes from game states, rendered photos.

Tests render small photos (about 1 MP) from seeds below 1000; the benchmark uses seeds from
100000 on, so nothing here was tuned on the evaluation set.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from referee.dice import NoDice
from referee.games import find_game
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.state import CyrusState
from referee.tables import data_root
from vision.board import BoardSpec, load_board
from vision.render import Conditions, Counter, Rendered, Scene, render, sample_conditions

GAME = find_game("cyrus-pyxis")
assert isinstance(GAME, CyrusEngine)
ENGINE: CyrusEngine = GAME
SETUP = data_root("samples") / "cyrus-pyxis" / "setup.yaml"


@cache
def board() -> BoardSpec:
    """The Cyrus & Pyxis board as vision reads it."""
    return load_board("cyrus-pyxis")


@cache
def setup_state() -> CyrusState:
    """The sample set-up, played."""
    state = ENGINE.sample_start()
    assert isinstance(state, CyrusState)
    return state


def play(state: CyrusState, *texts: str) -> CyrusState:
    for text in texts:
        state = ENGINE.apply(state, ENGINE.parse(state, text), NoDice()).state  # type: ignore[assignment]
    return state


def scene_of(state: CyrusState, markers: bool = True) -> Scene:
    """The scene a Cyrus state puts on the table (one counter per cell)."""
    grid = state.tables.grid
    terrain = {grid.name(c): t.value for c, t in state.terrain.items()}
    counters = {
        grid.name(c): Counter(state.tables.by_id[lid].side.value, state.tables.by_id[lid].short)
        for lid, c in state.where.items()
    }
    return Scene(terrain=terrain, counters=counters, markers=markers)


def counters_on_tokens(bare_every: int = 0) -> Scene:
    """24 counters of both sides spread over the board, each on a token (hills under the Greek
    ones, forests under the Persian ones), or, with ``bare_every`` n, every n-th on the bare plain
    (k = 0, n, 2n, ...)."""
    setup = scene_of(setup_state())
    labels = {side: [c.label for c in setup.counters.values() if c.side == side] for side in ("greek", "persian")}
    names = board().cell_names()
    terrain: dict[str, str] = {}
    counters: dict[str, Counter] = {}
    for k in range(24):
        name = names[(k * 5 + 3) % len(names)]
        if not bare_every or k % bare_every:
            terrain[name] = ("hill", "forest")[k % 2]
        side = ("greek", "persian")[k % 2]
        counters[name] = Counter(side, labels[side][k // 2 % len(labels[side])])
    return Scene(terrain=terrain, counters=counters)


def shoot(
    tmp: Path,
    scene: Scene,
    seed: int,
    level: str = "clean",
    size: tuple[int, int] = (960, 720),
    name: str = "photo",
    **changes: Any,
) -> tuple[Path, Rendered]:
    """Renders a photo of a scene to a file (JPEG or PNG as the conditions say) and returns both."""
    rng = np.random.default_rng(seed)
    cond: Conditions = sample_conditions(rng, level, *size)  # type: ignore[arg-type]
    cond = dataclasses.replace(cond, **changes)
    rendered = render(board(), scene, cond, seed)
    return rendered.save(tmp / name), rendered


def grid_error(rendered: Rendered, to_board: np.ndarray) -> float:
    """Largest error, in cells, of a registration at the grid's corners and centre."""
    import cv2

    pts = np.array([[[0, 0], [12, 0], [12, 12], [0, 12], [6, 6]]], np.float64)
    img = cv2.perspectiveTransform(pts, rendered.homography)
    back = cv2.perspectiveTransform(img, to_board)[0]
    return float(np.linalg.norm(back - pts[0], axis=1).max())
