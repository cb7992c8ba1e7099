"""vision.render: synthetic photos are reproducible and come with a consistent ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.render import Conditions, Counter, Scene, render

from .helpers import board, scene_of, setup_state, shoot


def test_same_seed_same_photo(tmp_path: Path) -> None:
    a, ra = shoot(tmp_path, scene_of(setup_state()), 61, "moderate", name="a")
    b, rb = shoot(tmp_path, scene_of(setup_state()), 61, "moderate", name="b")
    assert np.array_equal(ra.image, rb.image)
    assert a.read_bytes() == b.read_bytes()


def test_truth_file_describes_every_cell(tmp_path: Path) -> None:
    path, rendered = shoot(tmp_path, scene_of(setup_state()), 62, "moderate", hands=1)
    truth = json.loads(path.with_suffix(".json").read_text())
    assert len(truth["cells"]) == 144
    assert truth["cells"]["F1"] == {"occupant": "greek", "terrain": "plain", "label": "Pyx"}
    assert truth["cells"]["A4"]["terrain"] == "forest"
    assert truth["occluded"] == rendered.occluded and truth["occluded"]
    assert 0 <= truth["conditions"]["tilt_deg"] <= 30
    assert len(truth["homography"]) == 3


def test_a_missing_marker_is_not_in_view(tmp_path: Path) -> None:
    _, rendered = shoot(tmp_path, scene_of(setup_state()), 63, "clean", missing_markers=(1,))
    assert rendered.markers_visible == [0, 2, 3]


def test_a_hand_is_drawn_where_the_scene_places_it(tmp_path: Path) -> None:
    # fingertips at F6's centre, the forearm across J10 (so from the photo's lower right), the
    # palest skin; the same scene with a drawn hand (the same draw) covers other cells
    placed = {"hands": 1, "hand_at": (5.5, 5.5), "hand_from": (9.5, 9.5), "hand_skin": 4}
    _, rendered = shoot(tmp_path, scene_of(setup_state()), 64, "clean", name="placed", **placed)
    assert {"F6", "J10"} <= set(rendered.occluded)
    assert not {"A1", "A12", "L1"} & set(rendered.occluded)
    # under the fingers, the pale skin reads far brighter than the darkest (SKIN[3]) there
    _, dark = shoot(tmp_path, scene_of(setup_state()), 64, "clean", name="dark", **{**placed, "hand_skin": 3})
    x, y = cv2.perspectiveTransform(np.array([[[5.5, 5.5]]], np.float64), rendered.homography)[0, 0].astype(int)
    assert rendered.image[y, x].astype(int).sum() > dark.image[y, x].astype(int).sum() + 200
    assert dark.occluded == rendered.occluded
    _, drawn = shoot(tmp_path, scene_of(setup_state()), 64, "clean", name="drawn", hands=1)
    assert set(drawn.occluded) != set(rendered.occluded)


def test_a_stated_counter_place_moves_that_counter_only() -> None:
    # the place is still drawn when stated: the counter drawn after it lies where it was
    cond = Conditions(640, 480, jitter=0.0, turn_deg=0.0)
    plain = {"C3": Counter("greek", "X"), "J9": Counter("persian", "X")}
    moved = {**plain, "C3": Counter("greek", "X", (0.12, 0.0, 20.0))}
    a, b = (render(board(), Scene(terrain={}, counters=c), cond, 5) for c in (plain, moved))
    differs = np.argwhere((a.image.astype(int) - b.image.astype(int)).any(axis=2))
    h = a.homography
    c3, j9 = (cv2.perspectiveTransform(np.array([[p]], np.float64), h)[0, 0] for p in ((2.5, 2.5), (8.5, 9.5)))
    cell = float(np.hypot(*(cv2.perspectiveTransform(np.array([[(3.5, 2.5)]], np.float64), h)[0, 0] - c3)))
    assert len(differs)
    assert np.hypot(*(differs[:, ::-1] - c3).T).max() < 1.2 * cell
    assert np.hypot(*(differs[:, ::-1] - j9).T).min() > 2 * cell
