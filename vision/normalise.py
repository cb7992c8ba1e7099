"""Stage 2, *normalise*: the top-down board as log colours, and the colour its bare board has at
every point (the *field*), so that each cell can be read relative to it.

Light multiplies a pixel's channels; in log values (:mod:`vision.colours`) a shadow, a lamp's
fall-off, vignetting or a white-balance error add the same vector to every material at a point.
The field is that vector for the bare board: where the board is bare, it is the pixels' own
colour; under a token or a counter, it is what the bare board around it shows *under the same
light*. Three things make that hard, and each has its step here:

1. **The printed grid lines** are ink, not board, and a registration that is a few hundredths of
   a cell off puts them where cells are read. The lines' actual positions are measured (a thin
   dark dip across each line segment), a smooth displacement (quadratic in the board's
   coordinates, fitted robustly: tokens' edges beside a line are not dips) is fitted to them, and
   the board is resampled so that every line lies where the grid says (:func:`resample`). The
   lines are then painted over with the colours on either side (:func:`without_lines`).
2. **Hard-edged shadows** (a ruler, a lamp's arm under a small lamp) cut across cells, counters
   and tokens alike. Across such an edge every material changes by the *same* vector, which a
   token's or a counter's outline never does; straight edges are proposed by a Hough transform
   and kept when that holds along their length (:func:`shadow_edges`). They split the board into
   regions, and the field is estimated in each region separately, so it is not smeared across
   the edge.
3. **Which pixels are bare board** is itself a reading: in each region the brightest pixels start
   as board (the bare board is the lightest material of the set), then, three times, the field
   is the weighted blur of the board pixels (normalised convolution, filled from wider blurs
   where a token leaves no board near) and each pixel is board again when its colour relative to
   the field is nearer the board's than any other material's (:func:`board_field`).

Everything is read-only once made (:class:`Normalised`); the next stage,
:mod:`vision.evidence`, reads each cell relative to ``field``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.colours import ColourModel, to_log
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
EDGE_STEP = 2.0
"""Pixels either side of a shadow edge where its step is measured (past the blur of the edge)."""
SATURATED = 250
"""A pixel whose three channels (0-255) all reach this is washed out to white (JPEG rounding keeps
a clipped channel a few levels below 255; a light board clips one channel, not all three)."""
CELL_HUE = 0.12
"""A cell's rough board level whose hue (log colour less its mean) strays more than this (log
units, per channel) from its region's commonest is not the board's (the tokens' and counters'
differ from the board's by 0.3 and more; a lamp's fall-off moves a board's hue by a few
hundredths)."""
FIELD_STEP = 2
"""The field is estimated on the board shrunk this many times (6 pixels per cell): it is smooth
within a shadow region, and its finest blur is half a cell."""
COVERED_LINES = 0.25
"""A cell of whose four printed lines less than this share is seen is taken as covered (a hand
or a sleeve): its pixels do not count for the bare board's field, so something of the board's
colour lying over cells is not taken for the board in another light."""
LINE_SEEN = 0.3
"""A printed line's pixel is seen where it dips at least this share of the photo's median dip
(its blur and the print vary along a line; a hand or a glare leaves no dip)."""
MIN_STEP = 0.15
"""Smallest step (log units) of a hard shadow's edge: a lamp giving 40 % of the light, hidden,
steps by about 0.22; a printed line's blurred shoulder by about 0.1."""
EDGE_TOLERANCE = 0.4
"""A sample along a shadow edge agrees when its step, along the direction of the edge's median
step, is between half and twice the median's size (a lamp's fall-off and a glare change a
shadow's depth along its edge), and strays across that direction by at most this share of it
(the shadow's colour changes little)."""


@dataclass(frozen=True)
class ShadowEdge:
    """A straight, hard-edged shadow boundary, in pixels of the normalised board."""

    rho: float
    theta: float
    """The line ``x cos(theta) + y sin(theta) = rho``."""
    share: float
    """Share of its samples whose step agrees with its median step."""
    step: tuple[float, float, float]
    """Median log step (B, G, R) from its negative to its positive side."""


@dataclass(frozen=True)
class Normalised:
    """The board as the next stages read it; every array is read-only."""

    log: F32
    """(n, n, 3) log colours of the grid and ``MARGIN`` around it, ``Q`` pixels per cell, grid
    lines where the grid says (after :func:`resample`)."""
    field: F32
    """(n, n, 3) the bare board's log colour at each pixel."""
    usable: BOOL
    """(n, n) pixels to read: inside the photo, off the printed lines and shadow edges, and not
    washed out to white (a glare: their colour is lost; whatever lies under it, they say nothing)."""
    lines: npt.NDArray[np.float64]
    """(cells, 4) the share of each cell's top, bottom, left and right printed line seen
    (:func:`lines_seen`)."""
    edges: tuple[ShadowEdge, ...]
    covered: npt.NDArray[np.float64]
    """(cells,) share of each cell inside the photo."""
    saturated: npt.NDArray[np.float64]
    """(cells,) share of each cell's pixels washed out to white, every channel at the top of the
    photo's range (a glare: their colours are lost)."""
    shift: float
    """The largest displacement :func:`resample` applied inside the grid, in cells."""
    rows: int
    cols: int

    def cells(self, image: npt.NDArray[np.generic]) -> npt.NDArray[np.generic]:
        """Returns an (n, n, ...) image of this board cut into cells: (cells, Q, Q, ...)."""
        return cut_cells(image, self.rows, self.cols)


def normalise(warped: Warped, board: BoardSpec, colours: ColourModel, edge_share: float, field_sd: float) -> Normalised:
    """Returns the normalised board of a warped photo.

    Args:
        warped: the top-down board (:func:`vision.grid_overlay.warp_board`).
        board: its geometry.
        colours: the set's materials (to tell bare board from pieces).
        edge_share: a straight edge is a shadow's when at least this share of its samples agree.
        field_sd: spread of the field's own error (log units), added to the board's.
    """
    image, inside, shift = resample(warped, board)
    log = to_log(image)
    half = line_half(log, board)
    clean = without_lines(log, board, half)
    lines = lines_seen(log, board, half)
    edges = shadow_edges(clean, board, edge_share)
    region, near_edge = regions(edges, log.shape[0])
    washed = (image >= SATURATED).all(axis=2)
    covered = _cells_image(lines.mean(axis=1) < COVERED_LINES, board, log.shape[0])
    field = board_field(clean, board, colours, region, near_edge | on_lines(board, log.shape[0], half) | covered,
                        field_sd)
    usable = inside & ~on_lines(board, log.shape[0], half) & ~near_edge & ~washed
    glare = cut_cells(washed & inside, board.rows, board.cols).mean(axis=(1, 2))
    share = cut_cells(inside, board.rows, board.cols).mean(axis=(1, 2)).astype(np.float64)
    for a in (log, field, usable, lines, share, glare):
        a.setflags(write=False)
    return Normalised(log=log, field=field, usable=usable, lines=lines, edges=edges, covered=share, shift=shift,
                      saturated=glare.astype(np.float64), rows=board.rows, cols=board.cols)


def _cells_image(per_cell: BOOL, board: BoardSpec, n: int) -> BOOL:
    """An (n, n) mask of the normalised board set over the cells ``per_cell`` marks."""
    off = round(MARGIN * Q)
    out = np.zeros((n, n), bool)
    grid = np.kron(per_cell.reshape(board.rows, board.cols), np.ones((Q, Q), bool))
    out[off : off + grid.shape[0], off : off + grid.shape[1]] = grid
    return out


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


# ---------------------------------------------------------------------------------------------
# 1. where the printed lines really are


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


# ---------------------------------------------------------------------------------------------
# 2. hard-edged shadows


def shadow_edges(clean: F32, board: BoardSpec, min_share: float) -> tuple[ShadowEdge, ...]:
    """Returns the straight hard-edged shadow boundaries across the board: Hough lines of the
    half-size board's brightness edges, each refined (angle, then offset) to the largest agreeing
    step and kept when at least ``min_share`` of its samples agree on a step of at least
    ``MIN_STEP``."""
    small = cv2.resize(clean, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    bright = small.mean(axis=2)
    span = float(np.ptp(bright)) or 1.0
    grey = np.clip((bright - bright.min()) / span * 255, 0, 255).astype(np.uint8)
    lines = cv2.HoughLines(cv2.Canny(grey, 20, 50), 1, math.pi / 180, 40)
    found: list[ShadowEdge] = []
    if lines is None:
        return ()
    tried = [(float(r) * 2, float(t)) for r, t in lines[:20, 0] if not _along_grid(float(r) * 2, float(t))]
    for first in _scores(clean, board, tried) if tried else []:
        if any(_same_line(first.rho, first.theta, e) for e in found):
            continue
        if first.share < min_share / 3 or math.hypot(*first.step) < 0.05:
            continue  # not even roughly an edge (refining costs fifty scorings)
        edge = _refine(clean, board, first)
        strong = edge.share >= min_share and math.hypot(*edge.step) >= MIN_STEP
        if strong and not any(_same_line(edge.rho, edge.theta, e, edge.step) for e in found):
            found.append(edge)
    return tuple(found)


def _along_grid(rho: float, theta: float) -> bool:
    """Whether a line runs along a printed grid line (within 3 degrees and 0.15 cell): what
    is left of a thick printed line looks like an edge there (within about 3 pixels), and a shadow's edge falls there
    rarely (its smooth part of the field then follows it)."""
    c, s = math.cos(theta), math.sin(theta)
    if min(abs(s), abs(c)) > math.sin(math.radians(3)):
        return False
    pos = abs(rho) / Q - MARGIN  # the line's x (vertical) or y (horizontal), in cells
    return abs(pos - round(pos)) < 0.15


def _same_line(rho: float, theta: float, edge: ShadowEdge, step: tuple[float, float, float] | None = None) -> bool:
    """Whether a line is an edge already found: nearly parallel, within 0.4 cell, and (when its
    step is known) stepping the same way (a strip's two edges step opposite ways)."""
    near = abs(math.sin(theta - edge.theta)) < 0.03 and abs(rho - edge.rho * math.cos(theta - edge.theta)) < 0.4 * Q
    if step is None or not near:
        return near
    return float(np.dot(step, edge.step)) * math.cos(theta - edge.theta) > 0


def _line_points(board: BoardSpec, rho: float, theta: float) -> F32:
    """Points every half pixel along a line, within the grid shrunk by a quarter cell."""
    off = MARGIN * Q
    n = (max(board.rows, board.cols) + 2 * MARGIN) * Q
    c, s = math.cos(theta), math.sin(theta)
    t = np.arange(-1.5 * n, 1.5 * n, 0.5)
    pts = np.stack([c * rho - s * t, s * rho + c * t], 1)
    u, v = (pts[:, 0] - off) / Q, (pts[:, 1] - off) / Q
    keep = (u > 0.25) & (u < board.cols - 0.25) & (v > 0.25) & (v < board.rows - 0.25)
    out: F32 = pts[keep].astype(np.float32)
    return out


def _sample(img: F32, pts: F32) -> F32:
    """Bilinear samples of ``img`` (h, w, 3) at (x, y) points (k, 2) → (k, 3)."""
    m = pts.reshape(-1, 1, 2)
    got = cv2.remap(img, m[..., 0], m[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out: F32 = np.asarray(got, np.float32).reshape(len(pts), -1)
    return out


def _score(clean: F32, board: BoardSpec, rho: float, theta: float) -> ShadowEdge:
    """An edge's agreeing share and median step (see :func:`_scores`)."""
    return _scores(clean, board, [(rho, theta)])[0]


def _scores(clean: F32, board: BoardSpec, lines: list[tuple[float, float]]) -> list[ShadowEdge]:
    """Each line's agreeing share (samples whose step, measured ``EDGE_STEP`` pixels either side,
    agrees with the median step: see ``EDGE_TOLERANCE``) and that median step, all sampled at once."""
    pts, normals, sizes = [], [], []
    for rho, theta in lines:
        p = _line_points(board, rho, theta)
        pts.append(p)
        normals.append(np.broadcast_to(np.array([math.cos(theta), math.sin(theta)], np.float32) * EDGE_STEP, p.shape))
        sizes.append(len(p))
    allp, alln = np.concatenate(pts), np.concatenate(normals)
    step = _sample(clean, allp + alln) - _sample(clean, allp - alln)
    out = []
    start = 0
    for (rho, theta), k in zip(lines, sizes, strict=True):
        part = step[start : start + k]
        start += k
        if k < 4 * Q:  # shorter than two cells
            out.append(ShadowEdge(rho, theta, 0.0, (0.0, 0.0, 0.0)))
            continue
        med = np.median(part, axis=0)
        size = float(np.linalg.norm(med))
        unit = med / max(size, 1e-9)
        along = part @ unit
        across = np.linalg.norm(part - along[:, None] * unit, axis=1)
        agree = (along >= 0.5 * size) & (along <= 2 * size) & (across <= EDGE_TOLERANCE * size)
        out.append(ShadowEdge(rho, theta, float(agree.mean()) if size > 0 else 0.0,
                              (float(med[0]), float(med[1]), float(med[2]))))
    return out


def _refine(clean: F32, board: BoardSpec, first: ShadowEdge) -> ShadowEdge:
    """The line near a candidate whose agreeing share times step (up to 1) is largest: its angle
    within 1.5 degrees, then its offset within 2 pixels, then both more finely."""
    def value(e: ShadowEdge) -> float:
        return e.share * min(math.hypot(*e.step), 1.0)

    best = first
    for kind, steps in (("t", np.radians(np.arange(-1.5, 1.51, 0.25))), ("r", np.arange(-2.0, 2.01, 0.25)),
                        ("t", np.radians(np.arange(-0.5, 0.51, 0.125))), ("r", np.arange(-0.5, 0.51, 0.125))):
        tries = _scores(clean, board, [(best.rho + (float(s) if kind == "r" else 0.0),
                                        best.theta + (float(s) if kind == "t" else 0.0)) for s in steps])
        top = max(tries, key=value)
        if value(top) > value(best):
            best = top
    return best


def regions(edges: tuple[ShadowEdge, ...], n: int) -> tuple[npt.NDArray[np.int32], BOOL]:
    """Returns each pixel's region (which side of each edge it lies on, as bits) and whether it
    lies within 1.5 pixels of an edge (its blurred step)."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    region = np.zeros((n, n), np.int32)
    near = np.zeros((n, n), bool)
    for k, e in enumerate(edges):
        side = xx * math.cos(e.theta) + yy * math.sin(e.theta) - e.rho
        region |= (side > 0).astype(np.int32) << k
        near |= np.abs(side) < 1.5
    return region, near


# ---------------------------------------------------------------------------------------------
# 3. the bare board's colour


def board_field(clean: F32, board: BoardSpec, colours: ColourModel, region: npt.NDArray[np.int32], skip: BOOL,
                field_sd: float, rounds: int = 3) -> F32:
    """Returns the bare board's log colour at every pixel (see the module's step 3): a smooth
    field plus one constant offset per shadow region (a shadow divides the light by one ratio),
    on the board shrunk ``FIELD_STEP`` times. The bare board is first the pixels nearer it than
    any other material relative to a rough field (:func:`_cell_levels`, in each region), and
    the offsets those of :func:`_region_levels`; then each round the board's pixels give the
    smooth field (their colours less their region's offset) and each region's offset (their
    median difference from it), and the bare board is found again relative to them."""
    n = clean.shape[0]
    half: F32 = np.asarray(cv2.resize(clean, None, fx=1 / FIELD_STEP, fy=1 / FIELD_STEP,
                                      interpolation=cv2.INTER_AREA), np.float32)
    sub = slice(FIELD_STEP // 2, None, FIELD_STEP)
    reg_half = region[sub, sub][: half.shape[0], : half.shape[1]]
    # a pixel of the smaller board is usable when most of the pixels it stands for are
    keep = cv2.resize((~skip).astype(np.float32), half.shape[1::-1], interpolation=cv2.INTER_AREA) > 0.5
    grid = keep & _inside_grid(board, n)[sub, sub][: half.shape[0], : half.shape[1]]
    # the printed border around the grid counts once its colour says it is the board's (a white
    # sheet is not)
    offline = grid | ~_inside_grid(board, n)[sub, sub][: half.shape[0], : half.shape[1]]
    ids = [int(k) for k in np.unique(region)]
    offsets = _region_levels(half, reg_half, grid, ids)
    names = list(colours.materials)
    means, covs = colours.stacked(names)
    whiten = [np.linalg.inv(np.linalg.cholesky(c + np.eye(3) * field_sd**2)).astype(np.float32) for c in covs]
    means32 = means.astype(np.float32)
    rough = np.zeros_like(half)
    for k in ids:
        mine = reg_half == k
        rough[mine] = _cell_levels(half, grid & mine, board)[mine]
    board_px = _nearest_board(half - rough, means32, whiten) & offline
    flat = half - _offset_map(offsets, reg_half)
    smooth = flat
    for _ in range(rounds):
        smooth = _fill(flat, board_px)
        r = half - smooth - _offset_map(offsets, reg_half)
        board_px = _nearest_board(r, means32, whiten) & offline
        if len(ids) > 1:
            for k in ids:  # each region's own offset, where it shows enough bare board
                mine = board_px & (reg_half == k)
                if mine.sum() > (Q / FIELD_STEP) ** 2 / 2:
                    offsets[k] = np.median((half - smooth)[mine], axis=0).astype(np.float32)
        flat = half - _offset_map(offsets, reg_half)
    big: F32 = cv2.resize(smooth, (n, n), interpolation=cv2.INTER_LINEAR) + _offset_map(offsets, region)
    return big


def _nearest_board(r: F32, means: F32, whiten: list[F32]) -> BOOL:
    """Pixels (colours ``r`` relative to the field) within 4 spreads of the bare board and nearer
    it than any other material (Mahalanobis distances; the board is the first material)."""
    board = (((r - means[0]) @ whiten[0].T) ** 2).sum(axis=-1)
    near = board < 16
    x = r[near]
    best = board[near]
    for k in range(1, len(means)):
        best = np.minimum(best, (((x - means[k]) @ whiten[k].T) ** 2).sum(axis=-1))
    out = np.zeros(near.shape, bool)
    out[near] = best >= board[near]
    return out


def _region_levels(half: F32, region: npt.NDArray[np.int32], usable: BOOL,
                   ids: list[int]) -> dict[int, npt.NDArray[np.float32]]:
    """Each shadow region's first offset from the largest region: the difference of the median
    colours of their pixels between the 60th and 95th percentile of brightness (the bare board is
    the lightest material and most of a board is bare; the brightest few are a glare or a
    counter's label). A shadow's depth changes along its edge (a lamp's fall-off, a glare), so
    its level is read over the region, not on the edge."""
    levels: dict[int, npt.NDArray[np.float32]] = {}
    bright = half.mean(axis=2)
    for k in ids:
        mine = (region == k) & usable
        if mine.sum() < 4:
            continue
        low, high = np.quantile(bright[mine], [0.6, 0.95])
        levels[k] = np.median(half[mine & (bright >= low) & (bright <= high)], axis=0).astype(np.float32)
    if not levels:
        return {k: np.zeros(3, np.float32) for k in ids}
    main = max(levels, key=lambda k: int(((region == k) & usable).sum()))
    return {k: (levels[k] - levels[main]) if k in levels else np.zeros(3, np.float32) for k in ids}


def _offset_map(offsets: dict[int, npt.NDArray[np.float32]], region: npt.NDArray[np.int32]) -> F32:
    """(h, w, 3) each pixel's region offset."""
    if len(offsets) == 1:
        return np.broadcast_to(next(iter(offsets.values())), (*region.shape, 3)).astype(np.float32)
    keys = sorted(offsets)
    table = np.stack([offsets[k] for k in keys]).astype(np.float32)
    out: F32 = table[np.searchsorted(keys, region)]
    return out


def _blur(img: F32, sigma: float) -> F32:
    """Gaussian blur; wide ones on a smaller copy (a wide blur keeps no detail to lose)."""
    k = int(sigma // 3)
    if k < 2:
        out: F32 = np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32)
        return out
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / k)
    big: F32 = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    return big


def _inside_grid(board: BoardSpec, n: int) -> BOOL:
    off = round(MARGIN * Q)
    idx = np.arange(n)
    rows = (idx >= off) & (idx < off + board.rows * Q)
    cols = (idx >= off) & (idx < off + board.cols * Q)
    out: BOOL = rows[:, None] & cols[None, :]
    return out


def _cell_levels(half: F32, usable: BOOL, board: BoardSpec) -> F32:
    """A rough field: in each cell, the median colour of its usable pixels at least as bright as
    their 70th percentile (the bare board is the set's lightest material; a token leaves a margin
    of it), then the median of each cell's and its eight neighbours' (a cluster of tokens takes
    its neighbours'), bilinear between cell centres."""
    side = Q // FIELD_STEP
    off = round(MARGIN * side)
    cells = half[off : off + board.rows * side, off : off + board.cols * side]
    use = usable[off : off + board.rows * side, off : off + board.cols * side]
    px = cells.reshape(board.rows, side, board.cols, side, 3).swapaxes(1, 2).reshape(board.rows, board.cols, -1, 3)
    ok = use.reshape(board.rows, side, board.cols, side).swapaxes(1, 2).reshape(board.rows, board.cols, -1)
    enough = ok.sum(axis=-1) >= side * side // 8
    level = np.full((board.rows, board.cols, 3), np.nan, np.float32)
    bright = np.where(ok, px.mean(axis=-1), -np.inf)
    order = np.argsort(-bright, axis=-1)  # brightest first
    counts = ok.sum(axis=-1)
    for r, c in zip(*np.nonzero(enough), strict=True):
        top = order[r, c, : max(1, int(0.3 * counts[r, c]))]
        level[r, c] = np.median(px[r, c, top], axis=0)
    if np.isnan(level).all():
        fallback = np.median(half[usable], axis=0) if usable.any() else np.zeros(3)
        return np.broadcast_to(fallback, half.shape).astype(np.float32)
    # a cell a token or counter fills shows their colour, not the board's: light changes a
    # level's brightness across a region, much less its hue, so cells whose hue strays from the
    # region's commonest are left out (a cluster of tokens is then not taken for the board)
    hue = level - level.mean(axis=-1, keepdims=True)
    common = np.nanmedian(hue.reshape(-1, 3), axis=0)
    level[np.abs(hue - common).max(axis=-1) > CELL_HUE] = np.nan
    pad = np.pad(level, ((1, 1), (1, 1), (0, 0)), constant_values=np.nan)
    stack = np.stack([pad[i : i + board.rows, j : j + board.cols] for i in range(3) for j in range(3)])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        smooth = np.nanmedian(stack, axis=0)
        smooth = np.where(np.isnan(smooth), np.nanmedian(level.reshape(-1, 3), axis=0), smooth).astype(np.float32)
    grid = cv2.resize(smooth, (board.cols * side, board.rows * side), interpolation=cv2.INTER_LINEAR)
    out: F32 = np.asarray(cv2.copyMakeBorder(grid, off, half.shape[0] - off - grid.shape[0], off,
                                             half.shape[1] - off - grid.shape[1], cv2.BORDER_REPLICATE), np.float32)
    return out


def _fill(half: F32, board_px: BOOL) -> F32:
    """Normalised convolution of the board pixels (half a cell; where too few are near, one cell,
    then three)."""
    w = board_px.astype(np.float32)
    est = np.zeros_like(half)
    trust = np.zeros(w.shape, np.float32)
    for sigma in (0.5 * Q / FIELD_STEP, Q / FIELD_STEP, 3 * Q / FIELD_STEP):
        den = _blur(w, sigma)
        value = _blur(half * w[..., None], sigma) / np.maximum(den, 1e-6)[..., None]
        est = (trust[..., None] * est + (1 - trust[..., None]) * value).astype(np.float32)  # finer kept where trusted
        trust = np.maximum(trust, np.clip(den / 0.15, 0, 1))
    out: F32 = est.astype(np.float32)
    return out
