"""Stage *normalise*: hard-edged shadows found on the top-down board and lit away.

Under a small lamp, a ruler, a lamp's arm or a player's sleeve casts a shadow with a sharp,
straight edge across cells, counters and tokens alike. Light multiplies a pixel's channels, so in
log colours a shadow adds one vector to every material inside it, and across its edge every
material steps alike (a token's or a counter's outline never does). A coloured room light makes
that vector coloured: a bare board in such a shadow can take a token's colour, which no colour
model of the set read against one white can tell apart.

The steps (:func:`relight`):

1. the board is shrunk to ``Q`` pixels per cell with ``MARGIN`` cells around the grid, in log
   colours, its printed lines painted over (what is left of a line looks like an edge);
2. straight edges are proposed by a Hough transform of its brightness edges and kept when at
   least ``SHADOW_AGREE`` of the samples along them step by one colour ratio
   (:func:`shadow_edges`);
3. the edges cut the board into regions; a region's light is the sum of the steps of the edges
   it lies past (each measured along its edge, where every material steps alike);
4. every pixel of the warped board is divided by its region's light relative to the brightest
   region's (the light the lamp gives), the step blurred like the shadow's own edge (one pixel
   of the shrunk board, the width ``HARD`` judges it on).

Without a hard edge the warped board is returned as it is: soft gradients are left to the colour
model's adaptation (:mod:`vision.colours`) and the bare board's local brightness
(:mod:`vision.evidence`). The edge search follows the first calibrated model of issue 34
(kept in the project's history), without its other stages.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import PAPER_PERCENTILE, BoardSpec
from vision.config import GridConfig
from vision.grid_overlay import LINE_CELLS, Warped
from vision.grid_overlay import WASHED as WASHED_LEVEL

F32 = npt.NDArray[np.float32]

Q = GridConfig().px_per_cell // 2
"""Derived: pixels per cell of the shrunk board the edges are looked for on, half the warp's
(``grid.px_per_cell``'s default, 48: 24), each pixel the mean of two by two of the warp's. The
edges are found, and ``HARD`` fitted, on this board: a settings file that changes the warp's
pixels per cell changes the warp the shrunk board is resized from, not this."""
MARGIN = 0.5
"""Cells of the printed border kept around the grid."""
SHADOW_AGREE = 0.25
"""Fitted (``bench/fit_shadow_edges.py``, dev photos of both renderers, 2026-11-29): a straight
edge across the board is a hard shadow's when at least this share of the samples along it step
by the same colour ratio (a token's or a counter's outline never does). Any value from 0.15 to
0.35 finds as many of the dev shadows; 0.25 is the middle."""
MIN_STEP = 0.15
"""Physical (the first model's, not fitted): smallest step (log units) of a hard shadow's edge.
A lamp giving 40 % of the light, hidden, steps by about 0.22; a printed line's blurred shoulder
by about 0.1. Measured (w58c, ``bench/fit_shadow_edges.py --measure --vary``, the 81 dev
boards): every value from 0.11 to 0.20 relights every board byte for byte as 0.15 does; 0.10
and 0.22 move an edge, 0.24 finds a false one, 0.30 loses a shadow. Not derived: the reader
keeps no number for a printed line's residue or the camera's noise."""
EDGE_STEP = Q * LINE_CELLS
"""Derived: pixels of the shrunk board either side of an edge where its step is measured, past
its blur: the span of a blurred printed line (``grid_overlay.LINE_CELLS``), 2 pixels at ``Q``
(the first model's 2.0, set by hand before)."""
CELL_SAMPLES = 2 * Q
"""Derived: the samples along one cell of a line, two a pixel (:func:`_line_points`): the fewest
a line is scored on and its step measured on past its penumbra (:func:`_full_step`), one cell,
the unit read; the Hough transform's votes are one cell's pixels too."""
REACH = 3 * EDGE_STEP
"""Derived: the farthest from an edge its step is measured, in pixels of the shrunk board (its
last pair of samples, three ``EDGE_STEP`` either side, :func:`_full_step`): 6 at ``Q``."""
HARD = 0.4
"""Fitted (``bench/fit_shadow_edges.py``, as ``SHADOW_AGREE``): a hard shadow's edge is sharp:
one pixel of the shrunk board (1/24 cell) either side of it, at least this share of its full
step is there (0.49-0.93 on most of the second renderer's shadows); an arm reaching over the
board has blurred straight sides (0.15-0.31 on the dev photos). 0.30 takes an arm for a strip
of shadow; the value kept is two grid steps (0.1) above it, and finds 16 of the 20 dev photos'
shadows."""
INSET = REACH / Q
"""Derived: cells either side of a printed line within which an edge's samples reach across it
(``REACH`` in cells, three ``grid_overlay.LINE_CELLS``: 0.25), so that what is left of the line
steps like an edge: the samples along a line stop this far inside the grid's outer edge (the
border and the markers' guides beyond it), and a line this near a grid line, along it, is not
tried."""
TURN = 3 / 2 * math.radians(1)
"""Derived: how far the refinement turns a Hough line (radians): the peak's bin of the
transform's one-degree bins (:func:`shadow_edges`) and its neighbour either side, whole (a bin
and a half either way of the peak's centre; its offset moves as far in the transform's offset
bins, :func:`_refine`). A line this near parallel to a printed line or to an edge found is
taken for it."""
REFINE_SPLIT = 2 * GridConfig().px_per_cell // Q
"""Derived: steps of the refinement per bin of the Hough transform, the warp's pixels in one
offset bin (a pixel of the half-size board the transform votes on, 2 of this board, 4 of the
warp the relit board is drawn on: ``grid.px_per_cell`` over ``Q``, twice). The offset is refined
in steps of one pixel of that warp (half a pixel of this board), the angle in the same share of
its one-degree bin (0.25 degree); the second pass halves both. Until w58c a count set by hand
(4; before w56b the setting REFINE_STEP, 0.25 degree and pixel). Measured on the 81 dev boards
(``docs/vision.md``, w58c): 2 finds the same shadows, 14 boards' edges moved; 3, 5 and 8, and an
angle step of 0.2 degree (a warp pixel at the grid's edge), each find a false edge."""
CANDIDATES = 20
"""Cap: the Hough transform's strongest lines tried as shadow edges, at most (a limit on work)."""
WASHED = math.log(WASHED_LEVEL)
"""A sample with a channel this bright (log of ``grid_overlay.WASHED``) is washed out by a
glare: its step says nothing."""
EDGE_TOLERANCE = 0.4
"""Physical (the first model's): a sample along an edge agrees when its step, along the median
step, is between half and twice its size, and strays across it by at most this share of it (a
shadow's colour changes little along its edge; a lamp's fall-off changes its depth). Measured
(w58c, as ``MIN_STEP``): 0.2 to 0.4 find the same 16 shadows (each value refines the shadowed
boards' edges a little otherwise), 0.15 loses one, 0.42 and more find a false edge: the value
sits at the top of its safe range."""


@dataclass(frozen=True)
class ShadowEdge:
    """A straight, hard-edged shadow boundary on the shrunk board: ``x cos θ + y sin θ = rho``."""

    rho: float
    theta: float
    share: float
    """Share of its samples whose step agrees with its median step."""
    step: tuple[float, float, float]
    """Median log step (B, G, R) from its negative to its positive side."""


@dataclass(frozen=True)
class Shade:
    """The warped board with its hard shadows lit away, and what was found."""

    warped: Warped
    """The relit warped board (the input itself when no hard shadow was found)."""
    edges: tuple[ShadowEdge, ...]


def relight(warped: Warped, board: BoardSpec) -> Shade:
    """Returns the warped board with each hard shadow's region brought to the light of the
    brightest region (see the module's steps)."""
    small, origin = _shrunk(warped, board)
    log = np.log(np.maximum(small, 1.0))
    clean = _without_lines(log, board)
    h, w = warped.image.shape[:2]
    edges = tuple(e for e in (_full_step(clean, board, e) for e in shadow_edges(clean, board)) if e is not None)
    if not edges:
        return Shade(warped, ())
    region = _regions(edges, *clean.shape[:2])
    offsets = _region_offsets(edges, region, _grid_mask(board, *clean.shape[:2]), clean)
    if not offsets:
        return Shade(warped, edges)
    # each warped pixel's region, from the edges mapped back to the warp's coordinates
    scale = Q / warped.ppc
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    big = _regions(edges, h, w, xx=(xx - origin) * scale, yy=(yy - origin) * scale)
    gain = np.zeros((h, w, 3), np.float32)
    for k, off in offsets.items():
        gain[big == k] = -off
    blur = max(1.0, warped.ppc / Q)
    gain = np.asarray(cv2.GaussianBlur(gain, (0, 0), blur), np.float32)
    relit = np.clip(warped.image.astype(np.float32) * np.exp(gain), 0, 255).astype(np.uint8)
    return Shade(replace(warped, image=relit), edges)


def _shrunk(warped: Warped, board: BoardSpec) -> tuple[F32, float]:
    """The grid and ``MARGIN`` around it at ``Q`` pixels per cell (float BGR), and where its
    origin lies in the warp's pixels."""
    origin = warped.pad_px - MARGIN * warped.ppc
    size = round((board.cols + 2 * MARGIN) * warped.ppc), round((board.rows + 2 * MARGIN) * warped.ppc)
    o = round(origin)
    crop = warped.image[o : o + size[1], o : o + size[0]].astype(np.float32)
    n_w, n_h = round((board.cols + 2 * MARGIN) * Q), round((board.rows + 2 * MARGIN) * Q)
    out: F32 = np.asarray(cv2.resize(crop, (n_w, n_h), interpolation=cv2.INTER_AREA), np.float32)
    return out, float(o)


def _grid_mask(board: BoardSpec, h: int, w: int) -> npt.NDArray[np.bool_]:
    """(h, w): the shrunk board's pixels inside the grid."""
    off = round(MARGIN * Q)
    y, x = np.arange(h), np.arange(w)
    rows = (y >= off) & (y < off + board.rows * Q)
    cols = (x >= off) & (x < off + board.cols * Q)
    out: npt.NDArray[np.bool_] = rows[:, None] & cols[None, :]
    return out


def _without_lines(log: F32, board: BoardSpec, half: int = 2) -> F32:
    """The log board with each printed grid line painted over by the interpolation of the pixels
    just beyond it on either side (rows first, then columns)."""
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


def shadow_edges(clean: F32, board: BoardSpec) -> tuple[ShadowEdge, ...]:
    """Returns the straight hard-edged shadow boundaries across the board: Hough lines of the
    half-size board's brightness edges, each refined (angle, then offset) and kept when at least
    ``SHADOW_AGREE`` of its samples agree on a step of at least ``MIN_STEP``."""
    small = cv2.resize(clean, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    bright = small.mean(axis=2)
    span = float(np.ptp(bright)) or 1.0
    grey = np.clip((bright - bright.min()) / span * 255, 0, 255).astype(np.uint8)
    # a line is voted for by the edge pixels along it: one cell at Q / 2 pixels per cell
    # Canny's upper threshold: a step of MIN_STEP on this grey scale, as Sobel's 3 × 3 aperture
    # measures it (four times the step); the lower one half of it
    high = 4 * MIN_STEP / span * 255
    lines = cv2.HoughLines(cv2.Canny(grey, high / 2, high), 1, math.pi / 180, Q // 2)
    if lines is None:
        return ()
    tried = [(float(r) * 2, float(t)) for r, t in lines[:CANDIDATES, 0]
             if not _along_grid(float(r) * 2, float(t), board)]
    found: list[ShadowEdge] = []
    for first in _scores(clean, board, tried) if tried else []:
        if any(_same_line(first.rho, first.theta, e) for e in found):
            continue
        if first.share < SHADOW_AGREE / 3 or math.hypot(*first.step) < MIN_STEP / 3:
            continue  # not even roughly an edge (refining costs fifty scorings)
        edge = _refine(clean, board, first)
        strong = edge.share >= SHADOW_AGREE and math.hypot(*edge.step) >= MIN_STEP
        if strong and not any(_same_line(edge.rho, edge.theta, e, edge.step) for e in found):
            found.append(edge)
    return tuple(found)


def _along_grid(rho: float, theta: float, board: BoardSpec) -> bool:
    """Whether a line runs along a printed grid line (within ``TURN`` of its direction,
    and within ``INSET`` of one where it crosses the middle of the board): what is left of a
    printed line looks like an edge there (a shadow's edge along a printed line is missed, and
    the cells it darkens asked about or read as before)."""
    c, s = math.cos(theta), math.sin(theta)
    if min(abs(s), abs(c)) > math.sin(TURN):
        return False
    mid_x, mid_y = (board.cols / 2 + MARGIN) * Q, (board.rows / 2 + MARGIN) * Q
    pos = (rho - mid_y * s) / c if abs(c) > abs(s) else (rho - mid_x * c) / s
    at = pos / Q - MARGIN
    return abs(at - round(at)) < INSET


def _same_line(rho: float, theta: float, edge: ShadowEdge, step: tuple[float, float, float] | None = None) -> bool:
    """Whether a line is an edge already found: within ``TURN`` of parallel (the
    refinement turns one into the other), within the reach its step is measured at (``REACH``),
    and (when its step is known) stepping the same way (a strip's two edges step opposite
    ways)."""
    turn = math.sin(theta - edge.theta)
    apart = rho - edge.rho * math.cos(theta - edge.theta)
    near = abs(turn) < math.sin(TURN) and abs(apart) < REACH
    if step is None or not near:
        return near
    return float(np.dot(step, edge.step)) * math.cos(theta - edge.theta) > 0


def _line_points(board: BoardSpec, rho: float, theta: float) -> F32:
    """Points every half pixel along a line, within the grid shrunk by ``INSET`` (the line's
    parameter runs from its point nearest the origin as far as the shrunk board's diagonal)."""
    off = MARGIN * Q
    n = math.ceil(math.hypot(board.rows + 2 * MARGIN, board.cols + 2 * MARGIN) * Q)
    c, s = math.cos(theta), math.sin(theta)
    t = np.arange(-n, n, 0.5)
    pts = np.stack([c * rho - s * t, s * rho + c * t], 1)
    u, v = (pts[:, 0] - off) / Q, (pts[:, 1] - off) / Q
    keep = (u > INSET) & (u < board.cols - INSET) & (v > INSET) & (v < board.rows - INSET)
    out: F32 = pts[keep].astype(np.float32)
    return out


def _sample(img: F32, pts: F32) -> F32:
    """Bilinear samples of ``img`` (h, w, 3) at (x, y) points (k, 2) → (k, 3); none for no point
    (every line tried may lie outside the grid: OpenCV refuses an empty map)."""
    if len(pts) == 0:
        return np.zeros((0, img.shape[2]), np.float32)
    m = pts.reshape(-1, 1, 2)
    got = cv2.remap(img, m[..., 0], m[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out: F32 = np.asarray(got, np.float32).reshape(len(pts), -1)
    return out


def _scores(clean: F32, board: BoardSpec, lines: list[tuple[float, float]]) -> list[ShadowEdge]:
    """Each line's agreeing share (see ``EDGE_TOLERANCE``) and median step, sampled at once."""
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
        if k < CELL_SAMPLES:  # shorter than a cell
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


def _full_step(clean: F32, board: BoardSpec, edge: ShadowEdge) -> ShadowEdge | None:
    """The edge with its step measured past its penumbra, or None when its step does not
    persist away from it (what is left of a printed line, a crease: thin, unlike a shadow) or
    is not sharp (``HARD``: the blurred side of an arm).

    Pairs of samples either side, two and three times ``EDGE_STEP`` away, washed-out ones (a
    glare) left out; at each distance where at least ``SHADOW_AGREE`` of them agree with the
    edge's step (direction within ``EDGE_TOLERANCE``), the median of those that do; the largest
    is kept (a soft edge measured too close and a glare's added light both shrink a step)."""
    pts = _line_points(board, edge.rho, edge.theta)
    normal = np.array([math.cos(edge.theta), math.sin(edge.theta)], np.float32)
    unit = np.asarray(edge.step, np.float32) / max(math.hypot(*edge.step), 1e-9)
    best: ShadowEdge | None = None
    size = 0.0
    for far in (2 * EDGE_STEP, REACH):
        plus, minus = _sample(clean, pts + normal * far), _sample(clean, pts - normal * far)
        ok = (plus.max(axis=1) < WASHED) & (minus.max(axis=1) < WASHED)
        part = (plus - minus)[ok]
        if len(part) < CELL_SAMPLES:
            continue
        along = part @ unit
        across = np.linalg.norm(part - along[:, None] * unit, axis=1)
        agree = (along >= 0.5 * math.hypot(*edge.step)) & (across <= EDGE_TOLERANCE * np.abs(along))
        if agree.sum() < SHADOW_AGREE * len(part):
            continue
        med = np.median(part[agree], axis=0)
        if float(np.linalg.norm(med)) > size:
            size = float(np.linalg.norm(med))
            best = replace(edge, step=(float(med[0]), float(med[1]), float(med[2])))
    if best is None:
        return None
    close = np.median(_sample(clean, pts + normal) - _sample(clean, pts - normal), axis=0)
    return best if float(close @ np.asarray(best.step)) >= HARD * size**2 else None


def _refine(clean: F32, board: BoardSpec, first: ShadowEdge) -> ShadowEdge:
    """The line near a candidate whose agreeing share times step (up to 1) is largest: its angle
    within ``TURN``, then its offset within its Hough bin and its neighbours, whole (a bin is a
    pixel of the half-size board, 2 of this one: 3 pixels either way), each in steps of
    ``1 / REFINE_SPLIT`` of its bin (0.25 degree, 0.5 pixel); then both within two such steps at
    half of it."""
    def value(e: ShadowEdge) -> float:
        return e.share * min(math.hypot(*e.step), 1.0)

    def span(reach: float, step: float) -> npt.NDArray[np.float64]:
        k = round(reach / step)
        out: npt.NDArray[np.float64] = np.arange(-k, k + 1, dtype=np.float64) * step
        return out

    # the transform's bins (shadow_edges): one degree; one pixel of the half-size board, 2 of this one
    turn, shift = 1.0 / REFINE_SPLIT, 2.0 / REFINE_SPLIT
    best = first
    for kind, steps in (("t", np.radians(span(math.degrees(TURN), turn))), ("r", span(3, shift)),
                        ("t", np.radians(span(2 * turn, turn / 2))), ("r", span(2 * shift, shift / 2))):
        tries = _scores(clean, board, [(best.rho + (float(s) if kind == "r" else 0.0),
                                        best.theta + (float(s) if kind == "t" else 0.0)) for s in steps])
        top = max(tries, key=value)
        if value(top) > value(best):
            best = top
    return best


def _regions(edges: tuple[ShadowEdge, ...], h: int, w: int, xx: F32 | None = None,
             yy: F32 | None = None) -> npt.NDArray[np.int32]:
    """Each pixel's region: which side of each edge it lies on, as bits (``xx``, ``yy``: the
    pixels' coordinates on the shrunk board; its own pixel grid when None)."""
    if xx is None or yy is None:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    region = np.zeros((h, w), np.int32)
    for k, e in enumerate(edges):
        side = xx * math.cos(e.theta) + yy * math.sin(e.theta) - e.rho
        region |= (side > 0).astype(np.int32) << k
    return region


def _region_offsets(edges: tuple[ShadowEdge, ...], region: npt.NDArray[np.int32], grid: npt.NDArray[np.bool_],
                    clean: F32) -> dict[int, npt.NDArray[np.float32]]:
    """Each shadowed region's light (log, per channel) less the brightest region's.

    A region's light is the sum of the steps of the edges it lies past (measured along each
    edge, where every material steps alike, so a glare or a cluster of tokens inside a region
    does not bias it); the brightest region of at least two cells is the reference. A region is
    lit up only when it is darker by at least ``MIN_STEP`` and its own bare board is darker than
    the reference's by at least half as much: a strip of shadow of which one edge was missed
    would otherwise light up the board beyond it too. A region's bare board is its paper's white,
    taken as the margin's is (:data:`vision.board.PAPER_PERCENTILE` of its brightness, above the
    pieces' and the print's ink, washed-out pixels left out; until w58c the median of its pixels
    above the 60th percentile, a number set by hand)."""
    levels: dict[int, npt.NDArray[np.float32]] = {}
    measured: dict[int, float] = {}
    bright = clean.mean(axis=2)
    usable = grid & (clean.max(axis=2) < WASHED)
    for k in (int(x) for x in np.unique(region)):
        level = np.zeros(3, np.float32)
        for bit, e in enumerate(edges):
            if k >> bit & 1:
                level += np.asarray(e.step, np.float32)
        levels[k] = level
        mine = (region == k) & usable
        if mine.sum() >= Q * Q:
            measured[k] = float(np.quantile(bright[mine], PAPER_PERCENTILE / 100))
    big = [k for k in levels if ((region == k) & grid).sum() >= 2 * Q * Q and k in measured]
    if not big:
        return {}
    ref = max(big, key=lambda k: float(levels[k].mean()))
    out: dict[int, npt.NDArray[np.float32]] = {}
    for k, v in levels.items():
        drop = float((levels[ref] - v).mean())
        seen = measured[ref] - measured[k] if k in measured else 0.0
        if drop >= MIN_STEP and seen >= 0.5 * drop:
            out[k] = v - levels[ref]
    return out
