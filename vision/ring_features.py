"""A fixed feature vector per cell for a learned cell reading (issue 34, an experiment).

Read from the relit, warped grid (:mod:`vision.shade`) and the calibration's colour classes
adapted to the photo (:func:`vision.colours.adapt`, once, before any occluder is looked for):
no finder, no threshold. Each cell is cut into concentric square rings given by the box's
printed geometry (Chebyshev distance from the cell's centre, in cells):

- ``core``: within half of the smallest counter's half side (any counter covers it);
- ``counter``: the rest of the smallest counter (``COUNTER_SIDE``);
- ``band``: from the counter's edge to the smallest token's (``TOKEN_SIDE``): a token under a
  counter shows there;

  these three measured from the centre of the pixels the sides' classes claim in the cell
  (a counter lies anywhere in its cell), or from the cell's where there are none;
- ``ring``: from the token's edge to the printed grid line (``grid_overlay.LINE_CELLS``), off
  the counter;
- ``line``: the printed line's half inside the cell.

Per ring: the share of its pixels each colour class claims (nearest class within
``classify.pixel_sigma`` of its spread), the share no class claims (bright and dark apart at
``classify.occluder_light``), the share not read (outside the photo or too dark), the share
washed out (``grid_overlay.WASHED``), the mean brightness over the bare board's around the cell
(its light normalised across the photo), the brightness spread, the median distance to the
nearest class (in its spreads) and the mean lean from the bare board's colour toward each
token's. Per cell: the share inside the photo, the washed share, the local board light over
the photo's, the distance to the grid's edge, how far the counter's centre lies from the
cell's, the share of the cell the sides' classes claim, and a summary of the neighbours (a hand spans
cells in colours no class claims, and enters from outside the grid). Per photo, given to each of
its cells: the mean and spread of a few of these over the photo's cells (``PHOTO``).

Nothing here is fitted or set: every boundary is the box's geometry or an existing setting.
What the features mean for a cell's content is learned by ``bench/fit_ring_model.py``.
"""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.colours import COUNTER_SIDE, TOKEN_SIDE, PixelModel, _assign, _geometry, adapt, class_names
from vision.config import ClassifyConfig
from vision.evidence import INSIDE, _samples
from vision.grid_overlay import WASHED, Warped, cell_inside, cell_washed

RINGS = ("core", "counter", "band", "ring", "line")
EDGES = (0.0, COUNTER_SIDE / 4, COUNTER_SIDE / 2, TOKEN_SIDE / 2, INSIDE, 0.5 + 1e-6)
"""Derived: the rings' inner and outer Chebyshev distances from the cell's centre (cells)."""
PER_RING = ("unclaimed_bright", "unclaimed_dark", "unread", "washed", "light", "spread", "distance")
PER_CELL = ("inside", "washed", "board_light", "edge_distance", "near_unclaimed_max", "near_unclaimed_mean",
            "near2_unclaimed_max", "near_washed_max", "near_dark_max", "counter_offset", "side_pixels")

PHOTO = ("core unclaimed_bright", "band unclaimed_bright", "core light", "band light", "board_light", "washed",
         "core distance", "band distance")
"""The columns whose mean and spread over the photo's cells every cell also gets
(:func:`photo_summary`): how well the classes fit the photo as a whole, how even its light is."""

F = npt.NDArray[np.float64]


def feature_names(board: BoardSpec) -> list[str]:
    """The names of :func:`features`' columns, in order."""
    names = class_names(board)
    tokens = board.terrains[1:]
    per = [*(f"share {k}" for k in names), *PER_RING, *(f"lean {t}" for t in tokens)]
    cells = [*(f"{ring} {p}" for ring in RINGS for p in per), *PER_CELL]
    return [*cells, *(f"photo mean {c}" for c in PHOTO), *(f"photo spread {c}" for c in PHOTO)]


def photo_summary(x: F, names: list[str]) -> F:
    """Returns one photo's cell features ``x`` (the columns of ``names``, the photo's summary
    left out) with the photo's mean and spread of the ``PHOTO`` columns added to every row: a
    photo whose classes fit badly everywhere, or whose light is uneven, makes each of its cells
    less sure."""
    cols = x[:, [names.index(c) for c in PHOTO]]
    with np.errstate(all="ignore"):
        summary = np.concatenate([np.nanmean(cols, axis=0), np.nanstd(cols, axis=0)])
    return np.hstack([x, np.broadcast_to(summary, (len(x), len(summary)))])


def adapted(warped: Warped, board: BoardSpec, white: F, seed: PixelModel, cfg: ClassifyConfig) -> PixelModel:
    """The colour classes adapted once to the photo's grid pixels (no occluder left out)."""
    feats, usable = _grid_samples(warped, board, white, cfg)
    return adapt(feats.reshape(-1, 3), usable.reshape(-1), seed, class_names(board), cfg)


def _grid_samples(
    warped: Warped, board: BoardSpec, white: F, cfg: ClassifyConfig
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
    p, ppc = warped.pad_px, warped.ppc
    grid = warped.grid(board.rows, board.cols)
    inside = warped.inside[p : p + board.rows * ppc, p : p + board.cols * ppc]
    return _samples(grid, inside, white, board, cfg)


def features(warped: Warped, board: BoardSpec, white: F, model: PixelModel, cfg: ClassifyConfig) -> F:
    """Returns the (cells, len(feature_names)) feature matrix of a relit, warped board."""
    feats, usable = _grid_samples(warped, board, white, cfg)
    n, m = feats.shape[0], feats.shape[1]
    names = class_names(board)
    means, sds = model.arrays(names)
    best, dist = _assign(feats.reshape(-1, 3)[:, :2], means, sds)
    best = best.reshape(n, m, m)
    dist = dist.reshape(n, m, m)
    fits = usable & (dist < cfg.pixel_sigma)
    light = feats[..., 2].astype(np.float64)
    washed = _washed_samples(warped, board, cfg.pixel_step, m)
    sides = len(board.sides)
    board_light = _board_light(light, fits & (best == sides), board, cfg.adapt_min_pixels)
    overall = float(np.median(board_light))
    _radius, cheb = _geometry(m)
    centred, offset, side_px = _counter_centred(fits & (best < sides), cheb, m, cfg.adapt_min_pixels)
    within = (cheb < INSIDE)[None]
    columns: list[F] = []
    for k, (lo, hi) in enumerate(itertools.pairwise(EDGES)):
        if k < RINGS.index("ring"):  # the counter's rings, from its centre, within the cell
            region = (centred >= lo) & (centred < hi) & within
        elif RINGS[k] == "ring":  # the printed ring, off the counter
            region = (cheb[None] >= lo) & (cheb[None] < hi) & (centred >= COUNTER_SIDE / 2)
        else:
            region = np.broadcast_to((cheb >= lo) & (cheb < hi), centred.shape)
        columns.extend(_ring(feats, usable, fits, best, dist, light, washed, region, board_light, means, board, cfg))
    unclaimed = ((usable & ~fits).sum(axis=(1, 2)) / np.maximum(usable.sum(axis=(1, 2)), 1)).astype(np.float64)
    dark = (~usable).mean(axis=(1, 2)).astype(np.float64)
    cell_wash = cell_washed(warped, board)
    rows, cols = board.rows, board.cols
    r, c = np.divmod(np.arange(n), cols)
    columns += [
        cell_inside(warped, board),
        cell_wash,
        board_light / max(overall, 1e-3),
        np.minimum(np.minimum(r, c), np.minimum(rows - 1 - r, cols - 1 - c)).astype(np.float64),
        *_near(unclaimed, board, 1),
        _near(unclaimed, board, 2)[0],
        _near(cell_wash, board, 1)[0],
        _near(dark, board, 1)[0],
        offset,
        side_px,
    ]
    return photo_summary(np.stack(columns, axis=1), feature_names(board))


def _ring(
    feats: npt.NDArray[np.float32],
    usable: npt.NDArray[np.bool_],
    fits: npt.NDArray[np.bool_],
    best: npt.NDArray[np.intp],
    dist: npt.NDArray[np.float32],
    light: F,
    washed: npt.NDArray[np.bool_],
    region: npt.NDArray[np.bool_],
    board_light: F,
    means: F,
    board: BoardSpec,
    cfg: ClassifyConfig,
) -> list[F]:
    """One ring's columns (see :func:`feature_names`)."""
    total = np.maximum(region.sum(axis=(1, 2)), 1).astype(np.float64)
    seen = usable & region
    count = np.maximum(seen.sum(axis=(1, 2)), 1).astype(np.float64)
    out: list[F] = [((fits & (best == k) & region).sum(axis=(1, 2)) / count) for k in range(len(means))]
    off = seen & ~fits
    bright = light > cfg.occluder_light
    out.append((off & bright).sum(axis=(1, 2)) / count)
    out.append((off & ~bright).sum(axis=(1, 2)) / count)
    out.append(1 - seen.sum(axis=(1, 2)) / total)
    out.append((washed & region).sum(axis=(1, 2)) / total)
    mean_l = (light * seen).sum(axis=(1, 2)) / count
    out.append(mean_l / board_light)
    spread = np.sqrt(((light - mean_l[:, None, None]) ** 2 * seen).sum(axis=(1, 2)) / count)
    out.append(spread / np.maximum(mean_l, 1e-3))
    d = np.where(seen, dist, np.nan).reshape(len(light), -1)
    has = seen.any(axis=(1, 2))
    med = np.full(len(light), np.nan)
    med[has] = np.nanmedian(d[has], axis=1)
    out.append(med)
    sides = len(board.sides)
    base = means[sides]
    x = feats[..., :2].astype(np.float64) - base
    for t in range(1, len(board.terrains)):
        toward = means[sides + t] - base
        proj = (x @ toward) / max(float(toward @ toward), 1e-9)
        out.append((proj * seen).sum(axis=(1, 2)) / count)
    return [np.asarray(col, np.float64) for col in out]


def _counter_centred(
    side: npt.NDArray[np.bool_], cheb: npt.NDArray[np.float32], m: int, fewest: int
) -> tuple[npt.NDArray[np.float64], F, F]:
    """Per cell sample (n, m, m), its Chebyshev distance (cells) from the centre of the pixels a
    side's class claims inside the cell (a counter lies anywhere within its cell: the rings
    follow it), from the cell's centre where fewer than ``fewest`` are; and per cell that
    centre's distance from the cell's, and the share of the cell's inside the sides claim."""
    c = (np.arange(m, dtype=np.float64) + 0.5) / m - 0.5
    dy, dx = np.meshgrid(c, c, indexing="ij")
    mine = side & (cheb < INSIDE)[None]
    count = mine.sum(axis=(1, 2)).astype(np.float64)
    some = count >= fewest
    cx = np.where(some, (mine * dx).sum(axis=(1, 2)) / np.maximum(count, 1), 0.0)
    cy = np.where(some, (mine * dy).sum(axis=(1, 2)) / np.maximum(count, 1), 0.0)
    centred = np.maximum(np.abs(dx[None] - cx[:, None, None]), np.abs(dy[None] - cy[:, None, None]))
    inside = float((cheb < INSIDE).sum())
    return centred, np.hypot(cx, cy), count / inside


def _washed_samples(warped: Warped, board: BoardSpec, step: int, m: int) -> npt.NDArray[np.bool_]:
    """Per cell sample (n, m, m), whether the pixel there is washed out to white."""
    ppc = warped.ppc
    grid = warped.grid(board.rows, board.cols)
    off = (ppc - m * step) // 2 + step // 2
    idx = off + step * np.arange(m)
    cells = (grid >= WASHED).all(axis=2).reshape(board.rows, ppc, board.cols, ppc)
    sub = cells[:, idx][:, :, :, idx]
    out: npt.NDArray[np.bool_] = sub.transpose(0, 2, 1, 3).reshape(-1, m, m)
    return out


def _board_light(light: F, plain: npt.NDArray[np.bool_], board: BoardSpec, fewest: int) -> F:
    """Per cell, the bare board's brightness around it: the median, over the cells within two
    of it, of each one's median bare-board pixel (on at least ``fewest``); the photo's where none is near."""
    n = len(light)
    own = np.full(n, np.nan)
    enough = plain.sum(axis=(1, 2)) >= fewest
    for k in np.nonzero(enough)[0]:
        own[k] = float(np.median(light[k][plain[k]]))
    known = np.isfinite(own)
    overall = float(np.median(own[known])) if known.any() else 1.0
    grid = own.reshape(board.rows, board.cols)
    out = np.full(n, overall)
    for i in range(n):
        r, c = divmod(i, board.cols)
        near = grid[max(0, r - 2) : r + 3, max(0, c - 2) : c + 3]
        near = near[np.isfinite(near)]
        if len(near):
            out[i] = float(np.median(near))
    return np.asarray(np.maximum(out, 1e-3), np.float64)


def _near(values: F, board: BoardSpec, reach: int) -> tuple[F, F]:
    """Per cell, the largest and the mean of ``values`` over the other cells within ``reach``."""
    grid = values.reshape(board.rows, board.cols)
    top = np.zeros(len(values))
    mean = np.zeros(len(values))
    for i in range(len(values)):
        r, c = divmod(i, board.cols)
        near = grid[max(0, r - reach) : r + reach + 1, max(0, c - reach) : c + reach + 1].reshape(-1)
        others = np.delete(near, int(np.argmax(near == grid[r, c]))) if near.size > 1 else near
        top[i] = float(others.max()) if others.size else 0.0
        mean[i] = float(others.mean()) if others.size else 0.0
    return top, mean
