"""The glare rule's probability (issue 34): a cell read as bare plain under a glare is given the
share of such cells the dev photos found right (``bench/fit_glare.py``), not a fixed "unsure";
it stays below the ask floor, so the cell is still asked about."""

from __future__ import annotations

import numpy as np

from vision.config import VisionConfig
from vision.pipeline import GLARE_SHARE, _readings

from .helpers import board

MIN = VisionConfig().classify.min_confidence


def _read(occupant: str | None, terrain: str, washed: float) -> float:
    b = board()
    n = b.rows * b.cols
    results: list[tuple[str | None, str, float]] = [(None, b.terrains[0], 0.99)] * n
    results[0] = (occupant, terrain, 0.99)
    shares = np.zeros(n)
    shares[0] = washed
    return _readings(results, np.ones(n), shares, b)[b.cell_names()[0]].confidence


def test_a_glared_bare_cell_is_asked_about_at_its_measured_probability() -> None:
    conf = _read(None, board().terrains[0], 0.6)
    # more often right than not on the dev photos, yet not sure enough to be read without asking
    assert 0.5 < conf < MIN


def test_a_glare_below_its_share_or_over_a_read_counter_leaves_the_cell_alone() -> None:
    b = board()
    assert _read(None, b.terrains[0], GLARE_SHARE / 2) == 0.99
    assert _read(b.sides[0], b.terrains[0], 0.6) == 0.99
