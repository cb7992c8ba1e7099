"""Registration on ``real``-profile renders (issue 13): small blurred markers, heavy blur.

Every photo is a scene described here (the set-up, or its terrain alone, under conditions
written out, a hand placed where it is said to be); the seeded development renders these tests
once took (a hand's edge taken for a marker's border was dev seed 1000075) are no longer read.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import grid_overlay as go
from vision.config import VisionConfig
from vision.debug import NullSink
from vision.errors import VisionError
from vision.load import read_photo
from vision.pipeline import observe
from vision.register import (
    REACH,
    Registration,
    edge_blur,
    find_markers,
    module_cells,
    out_of_square,
    register,
    search_crop,
)
from vision.render import Conditions, Rendered, render

from .helpers import board, grid_error, scene_of, setup_state

CFG = VisionConfig()


def registered(path: Path, cfg: VisionConfig = CFG) -> Registration:
    photo = read_photo(path, cfg.load)
    reg = register(photo.image, board(), cfg.registration, NullSink())
    return go.refine(photo.image, reg, board(), cfg.grid)


REAL = {"width": 1920, "height": 1080, "profile": "real", "jitter": 0.08, "turn_deg": 10.0, "colour_jitter": 10.0}
SMALL_MARKERS = {"tilt_deg": 22.0, "tilt_dir_deg": 41.0, "rotation_deg": 210.0, "fill": 0.5, "offset": (0.72, -0.13),
                 "light": (0.77, 1.19), "light_dir_deg": 116.0, "vignette": 0.18, "shadow": 0.21,
                 "cast": (1.01, 0.98, 1.07), "blur": 1.35, "noise": 6.3, "jpeg": 83, "exposure": 0.86, "table": 2,
                 "style": 2}
"""The set-up, the board filling half the photo's height and tilted 22°, blurred by σ 1.35 px:
markers of 15-25 px, whose lone white modules the blur loses first."""
STEEP_SMALL = {"tilt_deg": 29.3, "tilt_dir_deg": 221.0, "rotation_deg": 222.0, "fill": 0.5, "offset": (0.34, -0.02),
               "light": (0.66, 1.08), "light_dir_deg": 348.0, "vignette": 0.15, "cast": (0.97, 0.97, 0.9),
               "blur": 1.6, "noise": 4.7, "jpeg": 85, "exposure": 0.87, "table": 2, "style": 0}
"""The set-up tilted 29° (the far markers smallest), blurred by σ 1.6 px."""
THREE_SMALL = {"tilt_deg": 28.3, "tilt_dir_deg": 134.5, "rotation_deg": 255.0, "fill": 0.46, "offset": (0.2, 0.006),
               "light": (0.82, 1.17), "light_dir_deg": 18.0, "vignette": 0.15, "cast": (1.04, 0.97, 1.1),
               "blur": 1.49, "noise": 7.3, "jpeg": 85, "exposure": 0.9, "table": 0, "style": 2,
               "missing_markers": (0,)}
HEAVY_BLUR = {"tilt_deg": 25.0, "tilt_dir_deg": 176.0, "rotation_deg": 111.0, "fill": 0.78, "offset": (0.99, 0.15),
              "light": (0.84, 1.18), "light_dir_deg": 100.0, "vignette": 0.05, "cast": (1.02, 0.92, 0.99),
              "noise": 3.9, "jpeg": 91, "exposure": 0.94, "table": 4, "style": 2}


def described(tmp: Path, name: str, draw: int, **scene: Any) -> tuple[Path, Rendered]:
    """Renders the set-up under the conditions described (``draw``: the noise and jitter draw)."""
    rendered = render(board(), scene_of(setup_state()), Conditions(**{**REAL, **scene}), draw)
    return rendered.save(tmp / name), rendered


# small blurred markers: the whole-photo search misses some, and the photo was refused before
# the crop search looked where the others put them
@pytest.mark.parametrize(("draw", "missed"), [(1, {0, 3}), (2, {0}), (3, {0, 3})])
def test_small_blurred_markers_are_found_where_the_others_put_them(
    tmp_path: Path, draw: int, missed: set[int]
) -> None:
    path, rendered = described(tmp_path, "small", draw, **SMALL_MARKERS)
    gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    without = CFG.registration.model_copy(update={"search_missing": False})
    assert not missed & set(find_markers(gray, board(), without))
    reg = registered(path)
    assert reg.method == "markers" and reg.markers == (0, 1, 2, 3)
    assert grid_error(rendered, reg.to_board) < 0.05


# only one marker passes the whole-photo search: nothing to predict the others from, so the
# sharpened search runs over the whole photo (in draws 4-7 of this scene it finds two more, not
# the fourth, and three markers place the board 0.12-0.36 cell off: docs/vision.md says so)
@pytest.mark.parametrize("draw", [2, 8])
def test_with_one_marker_found_the_whole_photo_is_searched_again(tmp_path: Path, draw: int) -> None:
    path, rendered = described(tmp_path, "steep", draw, **STEEP_SMALL)
    gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    without = CFG.registration.model_copy(update={"search_missing": False})
    assert len(find_markers(gray, board(), without)) < 2
    reg = registered(path)
    assert reg.method == "markers" and reg.markers == (0, 1, 2, 3)
    assert grid_error(rendered, reg.to_board) < 0.05


HAND_OVER_MARKER = {"tilt_deg": 6.2, "tilt_dir_deg": 110.0, "rotation_deg": 25.0, "fill": 0.65,
                    "offset": (0.51, -0.68), "light": (0.78, 1.17), "light_dir_deg": 258.0, "vignette": 0.04,
                    "cast": (1.07, 1.04, 1.03), "blur": 0.07, "noise": 4.0, "jpeg": 90, "exposure": 0.87,
                    "table": 3, "style": 0, "hands": 1, "hand_at": (2.4, 4.1), "hand_from": (-2.13, 0.15)}
"""The set-up, nearly flat, 33 px per cell, and a hand reaching in from the photo's top edge to
E3 (board point 2.4, 4.1), its forearm passing just outside the board's corner (through board
point -2.13, 0.15), so that the arm's soft edge runs over one side of marker 0 (centred at
-0.75, -0.75)."""


def test_a_marker_half_under_a_hand_is_not_taken(tmp_path: Path) -> None:
    # the hand's edge reads as the border of marker 0 (one bit corrected): its corners are bent
    # out of square by more than one module, so the square test refuses it and the three others
    # place the board
    path, rendered = described(tmp_path, "hand", 1, **HAND_OVER_MARKER)
    assert 0 not in rendered.markers_visible
    gray = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    found = find_markers(gray, board(), CFG.registration)
    assert sorted(found) == [1, 2, 3]
    # where the crop search looks for it: as the three others, first found, put it
    first = find_markers(gray, board(), CFG.registration.model_copy(update={"search_missing": False,
                                                                            "refine_corners": False}))
    layout = board().markers
    others = np.concatenate([first[i] for i in (1, 2, 3)]).astype(np.float64)
    places = np.array([pt for i in (1, 2, 3) for pt in layout.corners(i)], np.float64)
    to_image = np.asarray(cv2.findHomography(places, others, 0)[0], np.float64)
    bent = search_crop(gray, to_image, board(), 0, REACH, CFG.registration)
    assert bent is not None
    assert out_of_square(bent, np.array(layout.corners(0), np.float64), to_image) > module_cells(layout)
    assert grid_error(rendered, registered(path).to_board) < 0.06


# three small markers (marker 0 left off the table), tilted 28° and blurred by σ 1.5 px, put
# the far corner 0.4-0.6 cell off, and the faint grid lines of a 23-px cell must correct it: on
# the set-up's terrain without counters (with the set-up's counters over the lines, the refit
# does not take in two draws of three, and the reader asks rather than misreads: docs/vision.md)
@pytest.mark.parametrize("draw", [1, 3])
def test_three_small_markers_are_corrected_by_the_grid_lines(tmp_path: Path, draw: int) -> None:
    scene = dataclasses.replace(scene_of(setup_state()), counters={})
    rendered = render(board(), scene, Conditions(**{**REAL, **THREE_SMALL}), draw)
    photo = read_photo(rendered.save(tmp_path / "three"), CFG.load)
    reg = register(photo.image, board(), CFG.registration, NullSink())
    assert reg.markers == (1, 2, 3) and grid_error(rendered, reg.to_board) > 0.4
    assert grid_error(rendered, go.refine(photo.image, reg, board(), CFG.grid).to_board) < 0.06


# heavy blur (σ 5-9 px): refused as blurred, never read, nor refused for its cells
@pytest.mark.parametrize("sigma", [5.0, 6.0, 7.5, 9.0])
def test_heavy_blur_is_refused_as_blurred(tmp_path: Path, sigma: float) -> None:
    path, _ = described(tmp_path, "blurred", 1, **HEAVY_BLUR, blur=sigma)
    with pytest.raises(VisionError, match="too blurred"):
        observe(path, board())


@pytest.mark.parametrize(("sigma", "lo", "hi"), [(0.0, 0.0, 1.6), (1.5, 1.0, 2.4), (6.0, 4.5, 7.5)])
def test_edge_blur_measures_the_blur_whatever_the_noise(sigma: float, lo: float, hi: float) -> None:
    rng = np.random.default_rng(3)
    squares = (np.indices((1080, 1920)) // 60).sum(axis=0) % 2
    image = (60 + 150 * squares).astype(np.float32)
    if sigma:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    noisy = np.clip(image + rng.normal(0, 8, image.shape), 0, 255).astype(np.uint8)
    assert lo <= edge_blur(noisy, CFG.registration.max_blur_px) <= hi


def test_an_outline_counts_only_once_the_grid_lines_confirm_it(tmp_path: Path) -> None:
    # a table without a board, with a sheet of paper written along its top and left edges: the
    # sheet passed for a board outline and the photo was refused for its cells, not for having
    # no board
    rng = np.random.default_rng(1)
    image = np.full((1080, 1920, 3), (90, 120, 150), np.uint8)
    cv2.rectangle(image, (500, 200), (1400, 1000), (235, 235, 235), -1)
    for k in range(12):
        cv2.putText(image, str(k + 1), (560 + 70 * k, 235), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (30, 30, 30), 2)
        cv2.putText(image, "ABCDEFGHIJKL"[k], (512, 290 + 58 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (30, 30, 30), 2)
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    photo = read_photo(path, CFG.load)
    assert register(photo.image, board(), CFG.registration, NullSink()).method == "outline"
    with pytest.raises(VisionError, match="do not confirm the outline"):
        observe(path, board())
    # a board without markers: its printed grid confirms the outline
    from .helpers import scene_of, shoot

    path, _ = shoot(tmp_path, scene_of(setup_state(), markers=False), 5, "clean", rotation_deg=200.0)
    assert observe(path, board()).registration.method == "outline"
