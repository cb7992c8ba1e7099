"""The printed grid lines of a warped board: where they really are, the board resampled so they lie
where the grid says, how wide they print, painted over, and how much of each is seen.

A registration a few hundredths of a cell off (lens distortion the homography does not model)
puts the printed lines where cells are read. Each line segment's dip (darker than both sides:
a token's edge beside a line is a one-sided step, not a dip) is measured, a quadratic
displacement in the board's coordinates fitted robustly to them, and the board resampled at
``Q`` pixels per cell with ``MARGIN`` cells around the grid (:func:`resample`). The lines are
then painted over with the colours on either side (:func:`without_lines`), and what is seen of
each cell's four lines is measured (:func:`lines_seen`): a shadow leaves them, a hand hides them.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.grid_overlay import Warped

F32 = npt.NDArray[np.float32]
BOOL = npt.NDArray[np.bool_]

Q = 24
"""Pixels per cell of the normalised board (about the photo's own resolution for a board filling
a 1080p photo; a counter's band over a token spans 1-4 of them)."""
MARGIN = 0.5
"""Cells of the printed border kept around the grid (the field there helps the outer cells)."""
MAX_LINE_HALF = 3
"""Most pixels painted over on each side of a grid line at ``Q`` (see :func:`line_half`)."""
LINE_REACH = 0.15
"""How far (cells) a printed line is looked for from where the registration puts it."""
LINE_SEEN = 0.3
"""A printed line's pixel is seen where it dips at least this share of the photo's median dip
(its blur and the print vary along a line; a hand or a glare leaves no dip)."""


def cut_cells(image: npt.NDArray[np.generic], rows: int, cols: int) -> npt.NDArray[np.generic]:
    """(n, n, ...) normalised image → (rows × cols, Q, Q, ...), row by row."""
    off = round(MARGIN * Q)
    grid = image[off : off + rows * Q, off : off + cols * Q]
    tail = grid.shape[2:]
    return grid.reshape(rows, Q, cols, Q, *tail).swapaxes(1, 2).reshape(rows * cols, Q, Q, *tail)


def cell_geometry() -> tuple[F32, F32]:
    """Per pixel of a cell at ``Q``: (Chebyshev distance from the centre, Euclidean distance), cells."""
    c = (np.arange(Q, dtype=np.float32) + 0.5) / Q - 0.5
    dy, dx = np.meshgrid(c, c, indexing="ij")
    return np.maximum(np.abs(dx), np.abs(dy)), np.hypot(dx, dy).astype(np.float32)


def on_lines(board: BoardSpec, n: int, half: int) -> BOOL:
    """Pixels of the normalised board within ``half`` pixels of a printed grid line (inside the
    grid) or outside the grid."""
    off = round(MARGIN * Q)
    idx = np.arange(n)
    near_x = np.zeros(n, bool)
    near_y = np.zeros(n, bool)
    for k in range(board.cols + 1):
        near_x |= np.abs(idx + 0.5 - (off + k * Q)) <= half + 0.5
    for k in range(board.rows + 1):
        near_y |= np.abs(idx + 0.5 - (off + k * Q)) <= half + 0.5
    outside_x = (idx < off) | (idx >= off + board.cols * Q)
    outside_y = (idx < off) | (idx >= off + board.rows * Q)
    out: BOOL = (near_y | outside_y)[:, None] | (near_x | outside_x)[None, :]
    return out


def cells_image(per_cell: BOOL, board: BoardSpec, n: int) -> BOOL:
    """An (n, n) mask of the normalised board set over the cells ``per_cell`` marks."""
    off = round(MARGIN * Q)
    out = np.zeros((n, n), bool)
    grid = np.kron(per_cell.reshape(board.rows, board.cols), np.ones((Q, Q), bool))
    out[off : off + grid.shape[0], off : off + grid.shape[1]] = grid
    return out


def inside_grid(board: BoardSpec, n: int) -> BOOL:
    off = round(MARGIN * Q)
    idx = np.arange(n)
    rows = (idx >= off) & (idx < off + board.rows * Q)
    cols = (idx >= off) & (idx < off + board.cols * Q)
    out: BOOL = rows[:, None] & cols[None, :]
    return out


def line_offsets(grey: npt.NDArray[np.uint8], warped: Warped, board: BoardSpec) -> tuple[F32, F32]:
    """Returns the measured offsets (cells) of the printed lines from where the registration puts
    them: (rows + 1, cols) for the horizontal lines, one per cell along them, and (cols + 1, rows)
    for the vertical ones; NaN where no thin dark dip shows (a token beside the line, a hand)."""
    g = grey.astype(np.float32)
    out = []
    for img, count, cells in ((g, board.rows, board.cols), (g.T, board.cols, board.rows)):
        out.append(_dips_across(img, count, cells, warped.ppc, warped.pad_px))
    return out[0], out[1]


def _dips_across(img: F32, count: int, cells: int, ppc: int, pad: int) -> F32:
    """Offsets of the horizontal lines of ``img`` (see :func:`line_offsets`)."""
    reach = round(LINE_REACH * ppc)
    off = np.full((count + 1, cells), np.nan, np.float32)
    q0, q1 = ppc // 4, ppc - ppc // 4
    cols = np.arange(cells)
    for k in range(count + 1):
        y = pad + k * ppc
        lo = y - reach - 6
        if lo < 0 or y + reach + 6 > img.shape[0]:
            continue
        band = img[lo : y + reach + 6, pad : pad + cells * ppc].reshape(-1, cells, ppc)[:, :, q0:q1].mean(axis=2)
        i = np.argmin(band[6:-6], axis=0) + 6
        win = np.stack([band[i + d, cols] for d in range(-5, 6)])  # (11, cells) around each minimum
        # a line is a dip (brighter on both sides), a token's edge only a step
        depth = np.minimum(win[:4].max(axis=0), win[7:].max(axis=0)) - win[5]
        den = win[4] - 2 * win[5] + win[6]
        sub = np.where(den > 1e-6, 0.5 * (win[4] - win[6]) / np.maximum(den, 1e-6), 0.0)
        good = depth >= 0.08 * band.max(axis=0)
        off[k] = np.where(good, (lo + i + sub - (y - 0.5)) / ppc, np.nan)
    return off


def _design(u: npt.NDArray[np.float64], v: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Quadratic terms of board coordinates scaled to 0-1."""
    return np.stack([np.ones_like(u), u, v, u * u, u * v, v * v], -1)


def fit_shift(offsets: F32, along_rows: bool, rows: int, cols: int) -> npt.NDArray[np.float64]:
    """Returns the coefficients of a quadratic displacement fitted to line offsets (robustly:
    offsets more than 0.05 cell from the median are left out at first, then those beyond 2.5
    robust spreads), or zeros with fewer than 12 measurements."""
    k, c = np.nonzero(~np.isnan(offsets))
    y = offsets[k, c].astype(np.float64)
    if len(y) < 12:
        return np.zeros(6)
    u, v = (c + 0.5, k.astype(np.float64)) if along_rows else (k.astype(np.float64), c + 0.5)
    a = _design(u / cols, v / rows)
    w = (np.abs(y - np.median(y)) < 0.05).astype(np.float64)
    coef = np.zeros(6)
    for _ in range(4):
        if w.sum() < 12:
            break
        coef = np.asarray(np.linalg.lstsq(a * w[:, None], y * w, rcond=None)[0], np.float64)
        res = y - a @ coef
        spread = 1.4826 * float(np.median(np.abs(res[w > 0]))) + 1e-3
        w = (np.abs(res) < 2.5 * spread).astype(np.float64)
    return coef


def resample(warped: Warped, board: BoardSpec) -> tuple[npt.NDArray[np.uint8], BOOL, float]:
    """Returns the grid and ``MARGIN`` around it at ``Q`` pixels per cell, moved so the printed
    lines lie where the grid says; which of its pixels the photo covered; the largest move inside
    the grid (cells)."""
    grey = np.asarray(cv2.cvtColor(warped.image, cv2.COLOR_BGR2GRAY), np.uint8)
    dy, dx = line_offsets(grey, warped, board)
    cy = fit_shift(dy, True, board.rows, board.cols)
    cx = fit_shift(dx, False, board.rows, board.cols)
    ppc, pad = warped.ppc, warped.pad_px
    n_x, n_y = round((board.cols + 2 * MARGIN) * Q), round((board.rows + 2 * MARGIN) * Q)
    u = (np.arange(n_x) + 0.5) / Q - MARGIN
    v = (np.arange(n_y) + 0.5) / Q - MARGIN
    uu, vv = np.meshgrid(u, v)
    cu, cv = np.meshgrid(u[::4], v[::4])  # the displacement is smooth: computed on every fourth pixel
    terms = _design(np.clip(cu, 0, board.cols) / board.cols, np.clip(cv, 0, board.rows) / board.rows)
    su = cv2.resize((terms @ cx).astype(np.float32), (n_x, n_y), interpolation=cv2.INTER_LINEAR)
    sv = cv2.resize((terms @ cy).astype(np.float32), (n_x, n_y), interpolation=cv2.INTER_LINEAR)
    map_x = ((uu + su) * ppc + pad - 0.5).astype(np.float32)
    map_y = ((vv + sv) * ppc + pad - 0.5).astype(np.float32)
    sigma = 0.4 * ppc / Q  # the area each output pixel stands for
    smooth = cv2.GaussianBlur(warped.image, (0, 0), sigma) if sigma > 0.3 else warped.image
    image = np.asarray(cv2.remap(smooth, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8)
    inside = cv2.remap(warped.inside.astype(np.uint8), map_x, map_y, cv2.INTER_NEAREST, borderValue=0) > 0
    grid = (uu >= 0) & (uu <= board.cols) & (vv >= 0) & (vv <= board.rows)
    shift = float(np.hypot(su, sv)[grid].max()) if grid.any() else 0.0
    return image, inside, shift


def line_half(log: F32, board: BoardSpec) -> int:
    """Returns how many pixels each side of a grid line its printed ink reaches at ``Q``: over the
    inner lines' segments (the middle half of each cell's edge) that dip between two sides of one
    colour (not a token's edge), the median profile; the pixels around the line darker than a
    tenth of its dip (1 to ``MAX_LINE_HALF``): what is left of a line's blurred shoulder looks
    like a shadow's edge along it."""
    grey = log.mean(axis=2)
    off = round(MARGIN * Q)
    reach = MAX_LINE_HALF + 3
    q0, q1 = Q // 4, Q - Q // 4
    profiles = []
    for img, count, cells in ((grey, board.rows, board.cols), (grey.T, board.cols, board.rows)):
        for k in range(1, count):
            y = off + k * Q
            band = img[y - reach : y + reach, off : off + cells * Q].reshape(2 * reach, cells, Q)[:, :, q0:q1]
            profiles.append(band.mean(axis=2).T)
    prof = np.concatenate(profiles)
    ends = np.stack([prof[:, :2].mean(axis=1), prof[:, -2:].mean(axis=1)], axis=1)
    depth = ends.min(axis=1) - prof.min(axis=1)
    clean = (depth > 0.1) & (np.abs(ends[:, 0] - ends[:, 1]) < 0.3 * depth)
    if clean.sum() < 10:
        return 1
    rel = (prof[clean] - ends[clean].mean(axis=1, keepdims=True)) / depth[clean, None]
    median = np.median(rel, axis=0)
    dark = np.nonzero(median < -0.1)[0]
    if len(dark) == 0:
        return 1
    half = max(reach - int(dark[0]), int(dark[-1]) + 1 - reach)
    return int(np.clip(half, 1, MAX_LINE_HALF))


def without_lines(log: F32, board: BoardSpec, half: int) -> F32:
    """Returns the log board with each printed grid line painted over by the interpolation of the
    pixels just beyond it on either side (rows first, then columns)."""
    out = log.copy()
    off = round(MARGIN * Q)
    for transpose, count in ((False, board.rows), (True, board.cols)):
        img = out.swapaxes(0, 1) if transpose else out
        for k in range(count + 1):
            y = off + k * Q
            a, b = y - half - 1, y + half
            if a < 0 or b >= img.shape[0]:
                continue
            for j, r in enumerate(range(y - half, y + half)):
                t = (j + 1) / (2 * half + 1)
                img[r] = (1 - t) * img[a] + t * img[b]
    return out


def lines_seen(log: F32, board: BoardSpec, half: int) -> npt.NDArray[np.float64]:
    """Returns (cells, 4): the share of each cell's top, bottom, left and right printed line
    (pixel by pixel along it, its ends left out) that dips below the lighter of its two sides by
    at least ``LINE_SEEN`` of the photo's median dip. Light and shadow leave a dip unchanged (a
    ratio); a token or a counter lying over the line hides part of it, a hand or a glare all of it."""
    grey = log.mean(axis=2)
    off = round(MARGIN * Q)
    end = Q // 8
    dips = []
    for img, count, cells in ((grey, board.rows, board.cols), (grey.T, board.cols, board.rows)):
        d = np.zeros((count + 1, cells, Q - 2 * end))
        for k in range(count + 1):
            y = off + k * Q
            if y - half - 3 < 0 or y + half + 3 > img.shape[0]:
                continue
            strip = img[:, off : off + cells * Q].reshape(img.shape[0], cells, Q)[:, :, end : Q - end]
            centre = strip[y - half : y + half].min(axis=0)
            side = np.maximum(strip[y - half - 3 : y - half - 1].mean(axis=0),
                              strip[y + half + 1 : y + half + 3].mean(axis=0))
            d[k] = side - centre
        dips.append(d)
    typical = float(np.median(np.concatenate([x[x > 0] for x in dips]))) if any((x > 0).any() for x in dips) else 0.0
    seen = [(x >= LINE_SEEN * typical).mean(axis=2) if typical > 0 else np.zeros(x.shape[:2]) for x in dips]
    h, v = seen
    top, bottom = h[:-1, :], h[1:, :]
    left, right = v[:-1, :].T, v[1:, :].T
    return np.stack([top, bottom, left, right], axis=-1).reshape(-1, 4).astype(np.float64)
