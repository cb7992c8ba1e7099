"""vision.register and grid refinement: markers (4 or 3), outline fallback, and refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from referee.i18n import language
from vision import grid_overlay as go
from vision.config import VisionConfig
from vision.debug import NullSink
from vision.errors import BoardNotFoundError, VisionError
from vision.load import read_photo
from vision.pipeline import observe, read
from vision.register import Registration, register
from vision.render import Conditions, Rendered, render

from .helpers import board, grid_error, scene_of, setup_state, shoot
from .hostile import rectangles

CFG = VisionConfig()


def registered(path: Path) -> Registration:
    photo = read_photo(path, CFG.load)
    reg = register(photo.image, board(), CFG.registration, NullSink())
    return go.refine(photo.image, reg, board(), CFG.grid)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_four_markers_give_the_board_to_a_twentieth_of_a_cell(tmp_path: Path, seed: int) -> None:
    path, rendered = shoot(
        tmp_path, scene_of(setup_state()), seed, "moderate", (1280, 960), hands=0
    )
    reg = registered(path)
    assert reg.method == "markers" and reg.markers == (0, 1, 2, 3)
    assert grid_error(rendered, reg.to_board) < 0.05


def test_three_markers_are_enough(tmp_path: Path) -> None:
    path, rendered = shoot(
        tmp_path,
        scene_of(setup_state()),
        4,
        "moderate",
        (1280, 960),
        hands=0,
        missing_markers=(2,),
        tilt_deg=25.0,
    )
    reg = registered(path)
    assert reg.markers == (0, 1, 3)
    assert grid_error(rendered, reg.to_board) < 0.06


def test_without_markers_the_outline_and_its_printed_coordinates_place_the_board(
    tmp_path: Path,
) -> None:
    path, rendered = shoot(
        tmp_path, scene_of(setup_state(), markers=False), 5, "clean", rotation_deg=200.0
    )
    reg = registered(path)
    assert reg.method == "outline"
    assert grid_error(rendered, reg.to_board) < 0.06


# the real box's coordinates are thin grey print: a shadow across a margin, or ink lighter than
# the test asked, left the orientation to noise, and a square grid confirms a turned board
@pytest.mark.parametrize(("rotation", "shadow"), [(0.0, 0.45), (130.0, 0.25)])
def test_a_board_without_markers_in_thin_grey_print_is_placed_not_turned(
    tmp_path: Path, rotation: float, shadow: float
) -> None:
    cond = Conditions(
        width=1920, height=1080, rotation_deg=rotation, fill=0.84, light=(0.89, 1.15), light_dir_deg=138.0,
        vignette=0.05, shadow=shadow, blur=1.4, noise=1.3, jpeg=75, jitter=0.08, turn_deg=10.0, exposure=0.97,
        profile="real", style=2, colour_jitter=10.0,
    )
    rendered = render(board(), scene_of(setup_state(), markers=False), cond, 7)
    reg = registered(rendered.save(tmp_path / "no-markers"))
    assert reg.method == "outline"
    assert grid_error(rendered, reg.to_board) < 0.1


# a small board seen at a slant: its printed coordinates are a few pixels high, the margins'
# ink is noise, and more than one turn of the square grid passes the orientation test
@pytest.mark.parametrize(
    "slant",
    [
        {"tilt_deg": 14.0, "tilt_dir_deg": 188.0, "rotation_deg": 331.0, "fill": 0.52, "offset": (0.99, 0.19),
         "light": (0.89, 1.17), "light_dir_deg": 155.0, "vignette": 0.13, "blur": 1.5, "noise": 2.5, "jpeg": 81,
         "table": 0},
        {"tilt_deg": 30.0, "tilt_dir_deg": 57.0, "rotation_deg": 163.0, "fill": 0.48, "offset": (0.34, -0.26),
         "light": (0.68, 1.08), "light_dir_deg": 187.0, "vignette": 0.18, "blur": 0.94, "noise": 7.0, "jpeg": 78,
         "table": 1},
    ],
)
def test_a_board_without_markers_whose_orientation_is_unclear_is_never_placed_turned(
    tmp_path: Path, slant: dict[str, Any]
) -> None:
    cond = Conditions(width=1920, height=1080, shadow=0.0, profile="real", style=0, colour_jitter=10.0,
                      jitter=0.08, turn_deg=10.0, exposure=0.9, **slant)
    rendered = render(board(), scene_of(setup_state(), markers=False), cond, 1)
    assert never_turned(rendered, tmp_path / "slanted")


# a board tilted 27° on a table darker than its paper (both dark tables of the renderer): the
# outline takes in some table, its dark in a blank margin passed for the coordinates' ink, and
# that one wrong turn alone passed the ink test (both placed turned by 180°, every cell wrong,
# before the marks' test); the coordinates' marks, one per cell and apart, tell the turns apart
@pytest.mark.parametrize("table", [1, 3])
def test_a_tilted_board_without_markers_on_a_dark_table_is_never_placed_turned(tmp_path: Path, table: int) -> None:
    cond = Conditions(
        width=1920, height=1080, tilt_deg=27.04, tilt_dir_deg=91.04, rotation_deg=141.94, fill=0.4584,
        offset=(-0.2592, 0.0028), light=(0.71, 1.11), light_dir_deg=237.0, vignette=0.11, shadow=0.0,
        cast=(1.05, 0.94, 0.93), blur=0.39, noise=1.5, jpeg=72, jitter=0.08, turn_deg=10.0, exposure=0.96,
        table=table, profile="real", style=2, colour_jitter=10.0,
    )
    rendered = render(board(), scene_of(setup_state(), markers=False), cond, 3)
    assert never_turned(rendered, tmp_path / "dark-table")


# scattered rectangles leave marks of both signs in an outline's margins, as large as their
# scatter: a turn measured against blank margins floored at zero passed there, and the image
# reached the cells (refused for a glare); measured against chance, no turn passes
def test_an_outline_of_scattered_rectangles_is_never_taken_for_a_board(tmp_path: Path) -> None:
    path = tmp_path / "rectangles.jpg"
    cv2.imwrite(str(path), rectangles(1920, 1080, 1920))
    with pytest.raises(BoardNotFoundError):
        observe(path, board())


def never_turned(rendered: Rendered, stem: Path) -> bool:
    """Whether the reader's registration (the grid refit and its confirmation included) places
    the photo's board right, or refuses it (the players are asked for the markers)."""
    try:
        placed = read(rendered.save(stem), board(), strict=False).registration
    except BoardNotFoundError:
        return True
    return grid_error(rendered, placed.to_board) < 0.1


def test_a_photo_without_a_board_is_refused(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    table = cv2.GaussianBlur(rng.integers(60, 200, (720, 960, 3)).astype(np.uint8), (0, 0), 3)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), table)
    with pytest.raises(BoardNotFoundError, match="markers"):
        observe(path, board())


def test_a_dark_photo_is_refused(tmp_path: Path) -> None:
    path, _ = shoot(tmp_path, scene_of(setup_state()), 6, "clean", exposure=0.12)
    with pytest.raises(VisionError, match="too dark"):
        observe(path, board())
    # in the players' language too
    with language("fr"), pytest.raises(VisionError, match=r"trop sombre .* ajoutez de la lumière"):
        observe(path, board())
    with language("it"), pytest.raises(VisionError, match=r"troppo scura .* aggiungete luce"):
        observe(path, board())


@pytest.mark.parametrize("seed", [7, 8])
def test_heavy_blur_is_refused_never_misread(tmp_path: Path, seed: int) -> None:
    path, _ = shoot(tmp_path, scene_of(setup_state()), seed, "heavy-blur", hands=0)
    with pytest.raises(VisionError, match="blur"):
        observe(path, board())


def test_a_board_too_small_in_the_photo_is_refused(tmp_path: Path) -> None:
    path, _ = shoot(tmp_path, scene_of(setup_state()), 9, "clean", size=(1600, 1200), fill=0.16)
    with pytest.raises(VisionError, match=r"too small|not found"):
        observe(path, board())


def test_two_markers_count_only_once_the_grid_lines_confirm_them(tmp_path: Path) -> None:
    path, _ = shoot(
        tmp_path,
        scene_of(setup_state()),
        10,
        "clean",
        (1280, 960),
        missing_markers=(1, 2),
        tilt_deg=10.0,
    )
    obs = observe(path, board())
    assert obs.registration.method == "two-markers" and obs.registration.markers == (0, 3)
    assert obs.unreadable == ()
    assert obs.cells["F1"].occupant == "greek" and obs.cells["G12"].occupant == "persian"


def _blur_in_floats(gray: np.ndarray, limit: float) -> float:
    """register.edge_blur as it was before w58a: the gradients converted to float32 first."""
    from vision import register as reg

    h, w = gray.shape
    step = -(-max(h, w) // 1000)
    small = cv2.resize(gray, (w // step, h // step), interpolation=cv2.INTER_AREA) if step > 1 else gray

    def gradient(sigma: float) -> np.ndarray:
        smooth = cv2.GaussianBlur(small, (0, 0), sigma)
        gx = cv2.Sobel(smooth, cv2.CV_16S, 1, 0, ksize=3)
        gy = cv2.Sobel(smooth, cv2.CV_16S, 0, 1, ksize=3)
        return np.abs(gx.astype(np.float32)) + np.abs(gy.astype(np.float32))

    fine, coarse = gradient(reg._S_FINE), gradient(limit)
    coarse = np.asarray(cv2.dilate(coarse, np.ones((3, 3), np.uint8)), np.float32)
    flat = fine.ravel()
    k = max(1, round(flat.size * reg._EDGE_SHARE))
    strongest = fine >= np.partition(flat, flat.size - k)[flat.size - k]
    ratio = float(np.median(fine[strongest] / np.maximum(coarse[strongest], 1e-3)))
    if ratio * ratio <= 1.0 + 1e-6:
        return float("inf")
    return float(np.sqrt(max((limit**2 - ratio * ratio * reg._S_FINE**2) / (ratio * ratio - 1), 0.0)) * step)


def test_the_edge_blur_in_whole_numbers_is_the_blur_in_floats(tmp_path: Path) -> None:
    # w58a: the gradients are kept as Sobel gives them (int16) until the strongest are taken
    from vision.register import edge_blur

    path, _rendered = shoot(tmp_path, scene_of(setup_state()), 58, "moderate", (1920, 1080))
    photo = cv2.cvtColor(cv2.imread(str(path)), cv2.COLOR_BGR2GRAY)
    for sigma in (0.0, 1.0, 2.5, 6.0):
        gray = cv2.GaussianBlur(photo, (0, 0), sigma) if sigma else photo
        for limit in (1.5, 3.0):
            assert edge_blur(gray, limit) == _blur_in_floats(gray, limit)
