"""The photo reader under what a table puts over a board (issue 34), each generated here, on both
renderers: a hard-edged shadow across counters on plain and on hill cells, a hand, a glare. A cell
is read right or asked about (listed as unreadable), never read wrong with confidence."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.games.cyrus_pyxis.capture import cell_contents
from vision import tabletop
from vision.calibrate import calibrate
from vision.calibration import Calibration
from vision.pipeline import Observation, observe
from vision.render import Counter, Rendered, Scene, render, sample_real_conditions

from .helpers import board, scene_of, setup_state

SIZE = (1280, 960)
SHADED_ROWS = "GHI"
"""The rows the shadows below lie across."""
EDGE = (0.0, 6.4, 3.0)
"""The shadows' first edge: through board point (0, 6.4) at 3 degrees, across the counters of row
G and off the printed lines (an edge lying along a printed line is not looked for: see
docs/decisions/vision-board-field.md)."""
STRIP = 2.4
"""The shadows' width (cells): their second edge runs across rows I and J."""


def _scene() -> Scene:
    """The sample set-up, with counters of both sides moved onto plain and hill cells of the
    shaded rows."""
    scene = scene_of(setup_state())
    terrain = dict(scene.terrain)
    counters = dict(scene.counters)
    for n, (row, col) in enumerate((r, c) for r in SHADED_ROWS for c in (2, 4, 6, 8, 10, 12)):
        cell = f"{row}{col}"
        terrain.pop(cell, None)
        if n % 2:
            terrain[cell] = "hill"
        counters[cell] = Counter("greek" if n % 3 else "persian", f"S{n:02d}")
    return Scene(terrain=terrain, counters=counters)


def _wrong(obs: Observation, truth: dict[str, dict[str, str | None]], skip: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """Cells read with confidence as something they do not hold."""
    return sorted(n for n, c in obs.cells.items()
                  if n not in obs.unreadable and n not in skip
                  and (c.occupant, c.terrain) != (truth[n]["occupant"], truth[n]["terrain"]))


def _shaded(cells: dict[str, dict[str, str | None]]) -> set[tuple[str | None, str]]:
    """What the shaded rows hold: (occupant, terrain) pairs."""
    return {(c["occupant"], str(c["terrain"])) for n, c in cells.items() if n[0] in SHADED_ROWS}


# --- the second renderer (vision.tabletop)


@pytest.fixture(scope="module")
def tabletop_cal(tmp_path_factory: pytest.TempPathFactory) -> Calibration:
    """A clean photo of the set-up of box 1, learned from."""
    rng = np.random.default_rng(71)
    cond = tabletop.sample_conditions(rng, *SIZE, box=1, clean=True)
    path = tabletop.render(board(), scene_of(setup_state()), cond, 71).save(tmp_path_factory.mktemp("cal") / "cal")
    return calibrate(path, board(), cell_contents(setup_state()))


def _tabletop(tmp_path: Path, seed: int, **changes: object) -> tuple[Path, tabletop.Shot]:
    rng = np.random.default_rng(seed)
    cond = tabletop.sample_conditions(rng, *SIZE, box=1, hand=0.0, shadow=0.0, glare=0.0)
    # framed as a player frames a photo to be read: the board filling it, not in a corner
    cond = dataclasses.replace(cond, tilt_deg=min(cond.tilt_deg, 20.0), fill=0.85, offset=(0.0, 0.0),  # type: ignore[arg-type]
                               rotation_deg=cond.rotation_deg % 20 - 10, **changes)
    shot = tabletop.render(board(), _scene(), cond, seed)
    return shot.save(tmp_path / f"tabletop_{seed}"), shot


@pytest.mark.parametrize(("seed", "lamp_kelvin", "room_kelvin"), [(72, 6200.0, 3000.0), (73, 3000.0, 7500.0)])
def test_a_hard_shadow_across_counters_on_plain_and_hill_is_read_or_asked_tabletop(
    tmp_path: Path, tabletop_cal: Calibration, seed: int, lamp_kelvin: float, room_kelvin: float
) -> None:
    # a strip of shadow two and a half rows wide, nearly sharp, from a lamp giving 80 % of the light and of
    # another colour than the room's: the shadowed board takes the hills' look
    path, shot = _tabletop(tmp_path, seed, shadow_edge=EDGE, shadow_strip=STRIP, penumbra=0.01,
                           lamp_share=0.8, lamp_kelvin=lamp_kelvin, ambient_kelvin=room_kelvin)
    assert {("greek", "plain"), ("greek", "hill"), ("persian", "plain"), ("persian", "hill"), (None, "plain"),
            (None, "hill")} <= _shaded(shot.cells)
    obs = observe(path, board(), calibration=tabletop_cal)  # strict: refused past 20 % of the cells asked
    assert _wrong(obs, shot.cells) == []


def test_a_hand_over_the_board_is_asked_about_not_misread_tabletop(tmp_path: Path, tabletop_cal: Calibration) -> None:
    hand = tabletop.hands.Hand(tip=(0, 0), base=(0, 0), width=0, tone=0.35, redness=0.3, lift=0.8, spread=0.5)
    path, shot = _tabletop(tmp_path, 74, hand=hand, hand_cell=(6.5, 5.5))
    assert len(shot.occluded) >= 4
    obs = observe(path, board(), calibration=tabletop_cal, strict=False)
    assert _wrong(obs, shot.cells) == []  # hidden cells included: asked about, never read wrong
    grid = board().grid
    near = {grid.name(c) for h in shot.occluded for c in grid.cells()
            if max(abs(a - b) for a, b in zip(grid.rc(grid.parse(h)), grid.rc(c), strict=True)) <= 1}
    away = [n for n in obs.unreadable if n not in near]
    assert len(away) <= 3, away  # cells away from the hand are read (the model's caution asks about one)


def test_a_glare_is_asked_about_not_misread_tabletop(tmp_path: Path, tabletop_cal: Calibration) -> None:
    # the lamp mirrored in the board: a blob washed out to white over two cells and more
    path, shot = _tabletop(tmp_path, 75, glare=(6.5, 7.5, 1.2, 2.5, 1.5))
    obs = observe(path, board(), calibration=tabletop_cal, strict=False)
    assert _wrong(obs, shot.cells) == []
    washed = {"G6", "G7", "H7", "H8", "I7", "I8"}  # the glare's centre, most of each cell white
    assert washed <= set(obs.unreadable)
    # the model asks about 41 cells of this photo (the glare's neighbours, and its general caution
    # far from it): more than 20 %, so `capture` refuses it; docs/vision.md reports it
    assert len(obs.unreadable) < 144 // 2


# --- the project's renderer (vision.render), the shadow laid over its photo here


def _shade(rendered: Rendered, path: Path, edge: tuple[float, float, float], strip: float,
           ratio: tuple[float, float, float]) -> Path:
    """Darkens the photo by ``ratio`` (per channel, R G B, in linear light) in a strip ``strip``
    cells wide to the left of a line through board point (u, v) at ``angle`` degrees, with a
    nearly sharp edge (a third of a photo pixel)."""
    image = cv2.imread(str(path)).astype(np.float32) / 255
    linear = np.where(image <= 0.04045, image / 12.92, ((image + 0.055) / 1.055) ** 2.4)
    u0, v0, angle = edge
    to_board = np.linalg.inv(rendered.homography)
    h, w = image.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    pts = cv2.perspectiveTransform(np.stack([xx, yy], -1).reshape(1, -1, 2), to_board)[0].reshape(h, w, 2)
    a = math.radians(angle)
    side = -(pts[..., 0] - u0) * math.sin(a) + (pts[..., 1] - v0) * math.cos(a)
    inside = ((side > 0) & (side < strip)).astype(np.float32)
    inside = cv2.GaussianBlur(inside, (0, 0), 0.33)
    bgr_ratio = np.array(ratio[::-1], np.float32)
    linear *= 1 - inside[..., None] * (1 - bgr_ratio)
    out = np.where(linear <= 0.0031308, linear * 12.92, 1.055 * np.power(linear, 1 / 2.4) - 0.055)
    target = path.with_name(path.stem + "_shaded.png")
    cv2.imwrite(str(target), np.clip(out * 255, 0, 255).astype(np.uint8))
    return target


@pytest.fixture(scope="module")
def render_cal(tmp_path_factory: pytest.TempPathFactory) -> Calibration:
    """A clean photo of the set-up in colour style 1, learned from."""
    rng = np.random.default_rng(81)
    path = render(board(), scene_of(setup_state()), sample_real_conditions(rng, *SIZE, style=1, clean=True),
                  81).save(tmp_path_factory.mktemp("cal") / "cal")
    return calibrate(path, board(), cell_contents(setup_state()))


@pytest.mark.parametrize(("seed", "ratio"), [(82, (0.45, 0.33, 0.2)), (83, (0.2, 0.25, 0.35))])
def test_a_hard_shadow_across_counters_on_plain_and_hill_is_read_or_asked_render(
    tmp_path: Path, render_cal: Calibration, seed: int, ratio: tuple[float, float, float]
) -> None:
    # a warm shadow (the room's light is a warm lamp's) and a cool one, 55-80 % darker
    rng = np.random.default_rng(seed)
    cond = dataclasses.replace(sample_real_conditions(rng, *SIZE, style=1, hands=0.0), shadow=0.0,
                               tilt_deg=15.0)
    rendered = render(board(), _scene(), cond, seed)
    path = _shade(rendered, rendered.save(tmp_path / f"render_{seed}"), EDGE, STRIP, ratio)
    assert {("greek", "hill"), ("persian", "plain"), (None, "plain"), (None, "hill")} <= _shaded(rendered.cells)
    # strict: refused past 20 % of the cells asked (the model asks about 11 and 26 cells of these
    # two photos, most of them away from the shadow: its general caution, docs/vision.md)
    obs = observe(path, board(), calibration=render_cal)
    assert _wrong(obs, rendered.cells) == []
