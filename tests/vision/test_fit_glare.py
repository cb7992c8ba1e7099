"""The glare share's criterion in ``bench/fit_glare.py`` (issue 34): cells binned by washed share,
the share fitted at the lower edge of the first bin whose cells are right less often than the ask
floor. Reading photos is left to the script itself (seconds per photo)."""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from tests.scripts import load


def _script() -> ModuleType:
    return load("bench/fit_glare.py", "fit_glare")


FIT = _script()
FLOOR = 0.9


def test_cells_fall_in_the_bin_of_their_washed_share_and_a_wholly_washed_cell_in_the_last() -> None:
    right = np.array([1.0, 1.0, 0.0, 1.0, 0.0])
    washed = np.array([0.0, 0.07, 0.09, 0.5, 1.0])
    table = FIT.bins(right, washed, 0.25)
    assert [lo for lo, _, _ in table] == [0.0, 0.25, 0.5, 0.75]
    assert [cells for _, cells, _ in table] == [3, 0, 1, 1]
    assert math.isclose(table[0][2], 2 / 3)
    assert math.isnan(table[1][2])
    assert table[3][2] == 0.0


def test_the_share_is_the_first_bin_right_less_often_than_the_floor() -> None:
    table = [(0.0, 100, 0.99), (0.05, 0, math.nan), (0.1, 10, 0.8), (0.15, 5, 0.6)]
    assert math.isclose(FIT.fitted_share(table, FLOOR), 0.1)


def test_a_bin_right_as_often_as_the_floor_or_empty_fits_no_share() -> None:
    table = [(0.0, 100, 1.0), (0.5, 10, FLOOR), (0.75, 0, math.nan)]
    assert FIT.fitted_share(table, FLOOR) is None
