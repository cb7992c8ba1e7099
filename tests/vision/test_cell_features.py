"""The cells' features (``vision.cell_features``) computed for all cells at once give what the
cell-by-cell loops they replaced gave, to the bit (w58a: the reader made faster, every reading
identical): the median of the edges within two cells, and the summary of the eight neighbours."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from vision import cell_features


@dataclass
class _Grid:
    rows: int
    cols: int


@dataclass
class _Evidence:
    other_share: np.ndarray
    reached: np.ndarray | None
    on_counter: np.ndarray


def _medians_one_by_one(lines: np.ndarray, rows: int, cols: int) -> np.ndarray:
    grid = lines.reshape(rows, cols, -1)
    local = np.empty((rows, cols))
    for r in range(rows):
        for c in range(cols):
            local[r, c] = float(np.median(grid[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3]))
    return local


def _neighbours_one_by_one(ev: _Evidence, board: _Grid, washed: np.ndarray, ratio: np.ndarray) -> list[np.ndarray]:
    n = board.rows * board.cols
    reached = np.zeros(n) if ev.reached is None else ev.reached
    per_cell = np.column_stack([ev.other_share, reached, washed, ratio.mean(axis=1), ev.on_counter.astype(float)])
    grid = per_cell.reshape(board.rows, board.cols, -1)
    summary = []
    for r in range(board.rows):
        for c in range(board.cols):
            win = grid[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2]
            mask = np.ones(win.shape[:2], bool)
            mask[r - max(0, r - 1), c - max(0, c - 1)] = False
            near = win[mask]
            summary.append([near[:, 0].max(), near[:, 0].mean(), near[:, 1].max(), near[:, 2].max(),
                            near[:, 3].min(), near[:, 3].mean(), near[:, 4].sum()])
    flat = np.asarray(summary, np.float64)
    return [flat[:, k] for k in range(flat.shape[1])]


@pytest.mark.parametrize("seed", range(40))
def test_the_windows_median_is_each_cells_median(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = (int(v) for v in rng.integers(1, 14, 2))
    lines = rng.random((rows * cols, 4)) * float(rng.choice([1e-3, 1.0, 1e5]))
    if seed % 3 == 0:
        lines = np.round(lines, 1)  # ties
    if seed % 5 == 0:
        lines[rng.random(lines.shape) < 0.05] = np.nan
    if seed % 7 == 0:
        lines[rng.random(lines.shape) < 0.05] = np.inf
    got = cell_features._window_median(lines.reshape(rows, cols, -1), 2)
    np.testing.assert_array_equal(got, _medians_one_by_one(lines, rows, cols))


@pytest.mark.parametrize("seed", range(40))
def test_the_neighbours_summary_is_each_cells_own(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, cols = (int(v) for v in rng.integers(2, 14, 2))
    n = rows * cols
    scale = float(rng.choice([1e-3, 1.0, 1e7]))
    ev = _Evidence(rng.random(n) * scale, rng.random(n) if seed % 2 else None, rng.random(n) < 0.3)
    washed, ratio = rng.random(n) ** 3, rng.random((n, 4)) * scale
    if seed % 5 == 0:
        ratio[rng.random(ratio.shape) < 0.05] = np.nan
    board = _Grid(rows, cols)
    got = cell_features._neighbours(ev, board, washed, ratio)  # type: ignore[arg-type]
    for mine, theirs in zip(got, _neighbours_one_by_one(ev, board, washed, ratio), strict=True):
        np.testing.assert_array_equal(mine, theirs)
