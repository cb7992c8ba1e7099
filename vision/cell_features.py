"""The fixed feature vector of each cell that the fitted decision (:mod:`vision.trees`) reads:
a pure function of the cell's evidence (:class:`vision.evidence.CellEvidence`), its printed
edges, the glare's washed share and its share inside the photo, plus a short summary of its
eight neighbours' (a hand spans cells: the off-class colour, an occluder's reach and hidden
lines around a cell are its context) and of the photo's.

Never from a decision's output: the features are what was measured, so that the fitted model,
not a cascade of thresholds, decides what they mean. Missing measures (no band under a cell
without a counter, no pixels given back) are NaN, which the trees route as they were fitted.

The columns are named by :func:`feature_names` (for the board's sides and terrains); an exported
model names the columns it reads, and one naming a column not computed here is refused
(:func:`vision.trees.check_board`).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.evidence import CellEvidence, row_medians

Floats = npt.NDArray[np.float64]

PHOTO = ("photo_counter_purity", "photo_token_purity", "photo_terrain_pixels", "photo_washed", "photo_texture")
"""The photo's summary columns (:func:`photo_summary`)."""


def feature_names(board: BoardSpec) -> list[str]:
    """Returns the names of the feature columns for ``board``, in order."""
    sides = [f"side_share.{s}" for s in board.sides]
    terrains = [f"terrain_share.{t}" for t in board.terrains]
    tokens = board.terrains[1:]
    return [
        *sides, "side_lead", *terrains, "token_lead", "other_share", "terrain_pixels", "on_counter",
        "texture", "texture_rel", "reached", "reached_strict",
        "edge_light", "edge_light_rel", *[f"edge_lean.{t}" for t in tokens],
        *[f"lean_beyond.{t}" for t in tokens], *[f"terrain_beyond.{t}" for t in board.terrains],
        "seen_beyond", "washed", "inside",
        "line_min", "line_second", "line_mean", "line_max",
        "near_other_max", "near_other_mean", "near_reached_max", "near_washed_max",
        "near_line_min", "near_line_mean", "near_counters", "border",
        "photo_reached", "photo_other", "lines_gone_path", "suspect_path", *PHOTO,
    ]


def features(ev: CellEvidence, board: BoardSpec, lines: Floats, washed: Floats, inside: Floats) -> Floats:
    """Returns the (cells, features) array of :func:`feature_names` (see the module)."""
    n = ev.side_share.shape[0]
    cols: list[Floats] = []
    cols += [ev.side_share[:, k] for k in range(ev.side_share.shape[1])]
    cols.append(_lead(ev.side_share))
    cols += [ev.terrain_share[:, k] for k in range(ev.terrain_share.shape[1])]
    cols.append(_lead(ev.terrain_share[:, 1:]))
    cols += [ev.other_share, ev.terrain_pixels, ev.on_counter.astype(np.float64), ev.texture,
             _relative(ev.texture, ~ev.on_counter)]
    cols.append(_or_zero(ev.reached, n))
    cols.append(_or_zero(ev.reached_strict if ev.reached_strict is not None else ev.reached, n))
    light = np.where(ev.on_counter, ev.edge_light if ev.edge_light is not None else np.nan, np.nan)
    cols += [light, _relative(light, ev.on_counter)]
    tokens = len(board.terrains) - 1
    lean = ev.edge_lean if ev.edge_lean is not None else np.full((n, tokens + 1), np.nan)
    cols += [np.where(ev.on_counter, lean[:, 1 + k], np.nan) for k in range(tokens)]
    cols += _columns(ev.lean_beyond, n, tokens, start=1)
    cols += _columns(ev.terrain_beyond, n, tokens + 1, start=0)
    cols += [_or_nan(ev.seen_beyond, n), washed, inside]
    ratio = _line_ratio(lines, board)
    ordered = np.sort(ratio, axis=1)
    cols += [ordered[:, 0], ordered[:, 1], ratio.mean(axis=1), ordered[:, -1]]
    cols += _neighbours(ev, board, washed, ratio)
    cols.append(_border(board))
    cols.append(np.full(n, float(np.mean(_or_zero(ev.reached, n) > 0))))
    cols.append(np.full(n, float(np.mean(ev.other_share))))
    cols += _paths(ev, board, ordered[:, -1])
    cols += [np.full(n, np.nan) for _ in PHOTO]
    out: Floats = np.column_stack(cols).astype(np.float64)
    out[~np.isfinite(out)] = np.nan  # an infinite measure is as good as none
    names = feature_names(board)
    out[:, [names.index(p) for p in PHOTO]] = photo_summary(out, names)
    return out


def photo_summary(x: Floats, names: list[str]) -> Floats:
    """Returns the :data:`PHOTO` columns of one photo's cells from its other columns (``x``: the
    photo's rows, columns ``names``): how well the photo's colours fit their classes as a whole
    (a box or a light the calibration does not match reads every cell less purely)."""
    col = {name: k for k, name in enumerate(names)}
    counter = x[:, col["on_counter"]] > 0
    sides = x[:, [k for name, k in col.items() if name.startswith("side_share.")]]
    terrains = x[:, [k for name, k in col.items() if name.startswith("terrain_share.")]]

    def median(values: Floats) -> float:
        values = values[np.isfinite(values)]
        return float(np.median(values)) if values.size else math.nan

    row = [median(sides.max(axis=1)[counter]), median(terrains.max(axis=1)[~counter]),
           median(x[~counter, col["terrain_pixels"]]), float(np.nanmean(x[:, col["washed"]])),
           median(x[~counter, col["texture"]])]
    out: Floats = np.tile(np.asarray(row, np.float64), (x.shape[0], 1))
    return out


def _lead(shares: Floats) -> Floats:
    """The largest share's lead over the second (the largest itself with one column)."""
    n = shares.shape[0]
    if shares.shape[1] == 0:
        return np.zeros(n)
    ordered = np.sort(shares, axis=1)
    second = ordered[:, -2] if shares.shape[1] > 1 else np.zeros(n)
    out: Floats = ordered[:, -1] - second
    return out


def _relative(values: Floats, among: npt.NDArray[np.bool_]) -> Floats:
    """Each value over the median of the finite values of the cells ``among`` (NaN if none)."""
    pool = values[among & np.isfinite(values)]
    typical = float(np.median(pool)) if pool.size else 0.0
    if typical <= 0:
        return np.full(len(values), np.nan)
    out: Floats = values / typical
    return out


def _or_zero(values: Floats | None, n: int) -> Floats:
    return np.zeros(n) if values is None else np.asarray(values, np.float64)


def _or_nan(values: Floats | None, n: int) -> Floats:
    return np.full(n, np.nan) if values is None else np.asarray(values, np.float64)


def _columns(values: Floats | None, n: int, count: int, start: int) -> list[Floats]:
    if values is None:
        return [np.full(n, np.nan) for _ in range(count)]
    return [np.asarray(values[:, start + k], np.float64) for k in range(count)]


def _line_ratio(lines: Floats, board: BoardSpec) -> Floats:
    """Each printed edge's response over the median of the cells' edges within two cells (focus,
    light and resolution change across a photo); 1 where nothing is measured."""
    n = board.rows * board.cols
    if lines.size == 0:
        return np.ones((n, 4))
    local = _window_median(lines.reshape(board.rows, board.cols, -1), 2)
    typical = np.maximum(local.reshape(-1, 1), 0.5 * float(np.median(lines)))
    out: Floats = np.where(typical > 0, lines / np.where(typical > 0, typical, 1.0), 1.0)
    return out


def _windows(grid: Floats, reach: int, fill: float) -> Floats:
    """Per cell of ``grid`` (rows, cols, k), the values of the cells within ``reach`` of it
    (king's moves; the grid's own edge cuts the window), row by row: (rows, cols, side, side, k)
    with ``side = 2 reach + 1``, ``fill`` where the window passes the grid's edge."""
    wide = np.pad(grid, ((reach, reach), (reach, reach), (0, 0)), constant_values=fill)
    side = 2 * reach + 1
    out: Floats = np.lib.stride_tricks.sliding_window_view(wide, (side, side), axis=(0, 1)).transpose(0, 1, 3, 4, 2)
    return out


def _window_median(grid: Floats, reach: int) -> Floats:
    """Per cell, ``np.median`` of every value of the cells within ``reach`` of it (as
    :func:`_windows`), computed for all cells at once (:func:`vision.evidence.row_medians` over
    the windows; NaN where a value is NaN, as ``np.median``)."""
    rows, cols = grid.shape[:2]
    out: Floats = row_medians(_windows(grid, reach, np.nan).reshape(rows * cols, -1)).astype(np.float64)
    out[np.isnan(_windows(grid, reach, 0.0)).reshape(rows * cols, -1).any(axis=1)] = np.nan  # as np.median
    return out.reshape(rows, cols)


def _neighbours(ev: CellEvidence, board: BoardSpec, washed: Floats, ratio: Floats) -> list[Floats]:
    """The summary of each cell's eight neighbours (see :func:`feature_names`)."""
    n = board.rows * board.cols
    reached = _or_zero(ev.reached, n)
    per_cell = np.column_stack([ev.other_share, reached, washed, ratio.mean(axis=1),
                                ev.on_counter.astype(np.float64)])
    grid = per_cell.reshape(board.rows, board.cols, -1)
    # the eight neighbours (king's moves), the cell itself left out, row by row
    window = 3 * 3
    ring = [k for k in range(window) if k != window // 2]
    low = _windows(grid, 1, -np.inf).reshape(n, window, -1)[:, ring]
    high = _windows(grid, 1, np.inf).reshape(n, window, -1)[:, ring]
    near = _windows(grid, 1, np.nan).reshape(n, window, -1)[:, ring]
    mean0, mean3, total4 = np.empty(n), np.empty(n), np.empty(n)
    # each cell's sums over its own neighbours in their order, as numpy sums them one cell at a
    # time: the cells with the same neighbours on the grid together
    for cells, shape in _neighbour_groups(board.rows, board.cols):
        values = np.ascontiguousarray(near[cells][:, shape].transpose(2, 0, 1))
        mean0[cells], mean3[cells] = values[0].mean(axis=1), values[3].mean(axis=1)
        total4[cells] = values[4].sum(axis=1)
    return [low[:, :, 0].max(axis=1), mean0, low[:, :, 1].max(axis=1), low[:, :, 2].max(axis=1),
            high[:, :, 3].min(axis=1), mean3, total4]


@cache
def _neighbour_groups(rows: int, cols: int) -> tuple[tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]], ...]:
    """The cells of a rows × cols grid grouped by which of their eight neighbours (row by row,
    as :func:`_neighbours` orders them) lie on the grid: (cells, those neighbours) per group."""
    window = 3 * 3
    ring = [k for k in range(window) if k != window // 2]
    on_grid = ~np.isnan(_windows(np.zeros((rows, cols, 1)), 1, np.nan).reshape(rows * cols, window)[:, ring])
    return tuple((np.nonzero((on_grid == shape).all(axis=1))[0], shape) for shape in np.unique(on_grid, axis=0))


def _paths(ev: CellEvidence, board: BoardSpec, line_max: Floats) -> list[Floats]:
    """Two measures of how a cell is joined to an occluder, without a threshold: the widest path
    (king's moves) from the grid's border through cells whose printed edges are hidden (a cell's
    hiddenness: 1 less its clearest edge's ratio; the path's width: its least hidden cell), and
    the widest path from an occluder's reach through cells with off-class colour (width: the
    least off-class share on it, the start counting its reach)."""
    hidden = np.clip(1.0 - line_max, 0.0, 1.0)
    border = _border(board) == 0
    reached = _or_zero(ev.reached, len(hidden))
    other = np.asarray(ev.other_share, np.float64)
    return [_widest(np.where(border, hidden, 0.0), hidden, board),
            _widest(np.maximum(reached, other), np.maximum(other, 0.0), board)]


def _widest(start: Floats, through: Floats, board: BoardSpec) -> Floats:
    """Per cell, the widest path's width from the cells of ``start`` (their own width) through
    cells each at most ``through`` wide (king's moves)."""
    shape = (board.rows, board.cols)
    width = start.reshape(shape).copy()
    limit = through.reshape(shape)
    for _step in range(width.size):  # a path is at most as long as there are cells
        padded = np.pad(width, 1)
        near = np.max([padded[1 + dr : 1 + dr + shape[0], 1 + dc : 1 + dc + shape[1]]
                       for dr in (-1, 0, 1) for dc in (-1, 0, 1)], axis=0)
        grown = np.maximum(width, np.minimum(limit, near))
        if (grown == width).all():
            break
        width = grown
    out: Floats = width.reshape(-1)
    return out


def _border(board: BoardSpec) -> Floats:
    """Each cell's distance, in cells, from the grid's border (0 on it): an arm reaches in from
    there."""
    r, c = np.divmod(np.arange(board.rows * board.cols), board.cols)
    out: Floats = np.minimum(np.minimum(r, board.rows - 1 - r), np.minimum(c, board.cols - 1 - c)).astype(np.float64)
    return out
