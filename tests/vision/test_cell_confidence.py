"""The per-cell model's occupant and bare-terrain probabilities (``vision.cell_confidence``):
fitted logistics of the colour shares, in place of issue 13's rescaled margins."""

from __future__ import annotations

import numpy as np

from vision.cell_confidence import counter_probability, terrain_probability
from vision.config import ClassifyConfig

CFG = ClassifyConfig()


def _sides(*shares: tuple[float, float]) -> np.ndarray:
    return np.array(shares, np.float64)


def test_a_counter_read_far_past_the_threshold_is_surer_than_one_at_it() -> None:
    t = CFG.counter_share
    p = counter_probability(_sides((t, 0.0), (t + 0.3, 0.0), (0.9, 0.0)), t)
    assert p[0] < p[1] < p[2] < 1.0


def test_a_counter_well_ahead_of_the_other_side_is_surer() -> None:
    t = CFG.counter_share
    p = counter_probability(_sides((0.6, 0.5), (0.6, 0.0)), t)
    assert p[0] < p[1]


def test_a_bare_disc_is_read_as_no_counter_with_confidence() -> None:
    # no side's colour in the disc at all: as sure as the fit says the occupant model ever is
    p = counter_probability(_sides((0.0, 0.0)), CFG.counter_share)
    assert p[0] >= CFG.min_confidence


def test_few_terrain_pixels_leave_the_terrain_unsure() -> None:
    # the inner square all bare board, but nearly none of it terrain-coloured: something covers it
    tokens = np.zeros((2, 2))
    p = terrain_probability(tokens, CFG.token_share, np.array([1.0, 0.02]))
    assert p[0] >= CFG.min_confidence > p[1]


def test_a_token_share_near_its_threshold_is_less_sure_than_a_clear_one() -> None:
    t = CFG.token_share
    tokens = np.array([[t, 0.0], [1.0, 0.0], [0.0, 0.0]])
    p = terrain_probability(tokens, t, np.ones(3))
    assert p[0] < p[1] and p[0] < p[2]


def test_probabilities_stay_within_zero_and_one_on_extreme_shares() -> None:
    sides = np.array([[1.0, 1.0], [0.0, 1.0], [1e9, -1e9], [-1e9, 1e9]])
    p = counter_probability(sides, CFG.counter_share)
    assert np.isfinite(p).all() and ((p >= 0) & (p <= 1)).all()
    tokens = np.array([[1.0, 1.0], [0.0, 0.0], [1e9, -1e9], [-1e9, -1e9]])
    q = terrain_probability(tokens, CFG.token_share, np.array([1.0, 0.0, 5.0, 0.0]))
    assert np.isfinite(q).all() and ((q >= 0) & (q <= 1)).all()
