"""Hard-edged shadows across a board: straight edges across which every material steps alike.

Under a small lamp, a ruler or a lamp's arm casts a shadow with a sharp, straight edge through
cells, counters and tokens alike. Across it every material's log colour steps by the same vector
(light multiplies channels), which a token's or a counter's outline never does. Straight edges
are proposed by a Hough transform of the board's brightness (lines painted over), screened in one
batch, refined (angle, then offset), and kept when enough samples along them agree on one step
(:func:`shadow_edges`); they split the board into regions (:func:`regions`), in each of which the
bare board's field is estimated on its own (:mod:`vision.normalise`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import BoardSpec
from vision.printed_lines import MARGIN, Q

F32 = npt.NDArray[np.float32]
BOOL = npt.NDArray[np.bool_]

EDGE_STEP = 2.0
"""Pixels either side of a shadow edge where its step is measured (past the blur of the edge)."""
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
