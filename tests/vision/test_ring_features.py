"""The per-cell ring features of the learned reading's experiment (``vision.ring_features``, issue
34, w50b): on a clean photo of the sample set-up, each ring's colour-class shares say what the
box's geometry puts there."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision import ring_features
from vision.calibration import default_model
from vision.colours import COUNTER_SIDE, TOKEN_SIDE, class_names
from vision.config import VisionConfig
from vision.pipeline import read

from .helpers import board, scene_of, setup_state, shoot


def test_the_rings_follow_the_box_geometry() -> None:
    edges = ring_features.EDGES
    assert list(edges) == sorted(edges) and len(edges) == len(ring_features.RINGS) + 1
    assert edges[2] == COUNTER_SIDE / 2 and edges[3] == TOKEN_SIDE / 2 and edges[-1] > 0.5


def test_a_clean_photo_shows_each_piece_in_its_ring(tmp_path: Path) -> None:
    scene = scene_of(setup_state())
    path, _shot = shoot(tmp_path, scene, 7)
    cfg = VisionConfig()
    reading = read(path, board(), cfg, strict=False)
    model = ring_features.adapted(reading.warped, board(), reading.white, default_model(board(), cfg), cfg.classify)
    x = ring_features.features(reading.warped, board(), reading.white, model, cfg.classify)
    names = ring_features.feature_names(board())
    assert x.shape == (board().rows * board().cols, len(names)) and np.isfinite(x[:, names.index("inside")]).all()
    col = {name: k for k, name in enumerate(names)}
    plain = board().terrains[0]
    for n, cell in enumerate(board().cell_names()):
        counter = scene.counters.get(cell)
        terrain = scene.terrain.get(cell, plain)
        if counter is not None:
            shares = {k: x[n, col[f"core share {k}"]] for k in class_names(board())}
            assert max(shares, key=shares.__getitem__) == f"side:{counter.side}", (cell, shares)
        elif terrain != plain:
            assert x[n, col[f"band share {terrain}"]] >= 0.5, cell
        else:
            assert x[n, col[f"core share {plain}"]] >= 0.5, cell
        assert x[n, col["ring share " + plain]] >= 0.5 or counter is not None or terrain != plain, cell
