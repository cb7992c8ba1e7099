"""The per-cell model's terrain under a counter (``vision.cell_model``): a probability read
against the photo's own bands, not against one brightness fixed for every photo."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cell_model import PLAIN_BAND, band_features, relative_light, token_probability

PLAIN, TOKEN, SHARE = 0.9, 0.4, 0.15
"""Band brightness over bare board and over a token, and a token's root share of the cell
leaning toward it, about as the project's renders show them."""


def _bands(plain: int, tokens: int, light: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    return (np.r_[np.full(plain, PLAIN), np.full(tokens, TOKEN)] * light,
            np.r_[np.zeros(plain), np.full(tokens, SHARE)])


@pytest.mark.parametrize("light", [1.0, 0.8, 0.7])
def test_a_photo_darker_as_a_whole_reads_its_bands_alike(light: float) -> None:
    # a dim lamp, or counters casting their own shadows, darken every band of the photo alike
    chance = token_probability(*_bands(8, 4, light))
    assert (chance[:8] < 0.1).all() and (chance[8:] > 0.9).all()
    np.testing.assert_allclose(chance, token_probability(*_bands(8, 4)), atol=0.02)


def test_bare_board_bands_stay_the_reference_when_most_counters_stand_on_tokens() -> None:
    chance = token_probability(*_bands(3, 12, 0.8))
    assert (chance[:3] < 0.1).all() and (chance[3:] > 0.9).all()


def test_the_usual_band_is_the_weighted_median_of_the_bare_ones() -> None:
    bands = np.array([0.6, 0.6, 0.6, 0.6, 0.6, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3])
    rel = relative_light(bands, np.r_[np.ones(5), np.zeros(6)])
    # five bare bands and the prior's three at PLAIN_BAND: the usual band is 0.6, whatever the
    # six token bands below it
    assert rel[0] == pytest.approx(PLAIN_BAND)
    assert rel[5] == pytest.approx(0.3 / 0.6 * PLAIN_BAND)
    # two bare bands only: the prior's outweigh them
    assert relative_light(bands[3:], np.r_[np.ones(2), np.zeros(6)])[0] == pytest.approx(0.6)


def test_a_band_not_measured_is_even_odds() -> None:
    chance = token_probability(np.array([np.nan, PLAIN, TOKEN]), np.array([0.0, 0.0, SHARE]))
    assert chance[0] == 0.5 and chance[1] < 0.1 and chance[2] > 0.9


def test_a_share_of_the_cell_leaning_to_a_token_raises_its_probability() -> None:
    light = np.array([0.75, 0.75, PLAIN, PLAIN, PLAIN, PLAIN])
    chance = token_probability(light, np.array([0.0, 0.4, 0.0, 0.0, 0.0, 0.0]))
    assert chance[1] > chance[0]


def test_the_likeliest_token_weighs_its_share_of_the_cell() -> None:
    lean = np.array([[0.3, 0.1], [0.1, 0.3]])
    share = np.array([[0.0, 0.04], [0.0, 0.0]])
    best, lean_best, root_share = band_features(lean, share, 10.0)
    assert best.tolist() == [1, 1]
    assert lean_best.tolist() == [0.1, 0.3]
    assert root_share.tolist() == pytest.approx([0.2, 0.0])
