"""vision.render: synthetic photos are reproducible and come with a consistent ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .helpers import scene_of, setup_state, shoot


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
