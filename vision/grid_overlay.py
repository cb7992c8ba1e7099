"""The top-down board: warping the photo onto the board plane and cutting each cell's patches.

Warp frame: board point (u, v) lies at warp pixel ``((u + pad) * ppc, (v + pad) * ppc)``; the
grid cell at row r, column c spans ``[(pad + c) * ppc, (pad + c + 1) * ppc)`` across. A *white
reference* comes from the sheet around the grid and the marker tabs.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import MARGIN_BAND, PAPER_PERCENTILE, BoardSpec
from vision.config import GridConfig
from vision.register import DARKEST, PLACE_TOLERANCE, REACH, Registration


@dataclass(frozen=True)
class Warped:
    """A top-down picture of the board and which of its pixels the photo covered."""

    image: npt.NDArray[np.uint8]
    """BGR, shape ((rows + 2 pad) ppc, (cols + 2 pad) ppc, 3)."""
    inside: npt.NDArray[np.bool_]
    """True where the pixel came from inside the photo."""
    ppc: int
    pad_px: int
    photo_ppc: float = 0.0
    """Pixels per cell of the photo it was warped from (0: not known), to measure at its scale."""

    def grid(self, rows: int, cols: int) -> npt.NDArray[np.uint8]:
        """The grid area only, shape (rows ppc, cols ppc, 3)."""
        p = self.pad_px
        return self.image[p : p + rows * self.ppc, p : p + cols * self.ppc]


def warp_board(
    image: npt.NDArray[np.uint8],
    reg: Registration,
    board: BoardSpec,
    ppc: int,
    pad_cells: float,
    coverage: bool = True,
) -> Warped:
    """Returns the photo warped onto the board plane at ``ppc`` pixels per cell (``coverage``:
    also which warp pixels the photo covers; else all are taken as covered)."""
    pad_px = round(pad_cells * ppc)
    place = np.array([[ppc, 0, pad_px - 0.5], [0, ppc, pad_px - 0.5], [0, 0, 1]], np.float64)
    h_warp = place @ reg.to_board
    size = (board.cols * ppc + 2 * pad_px, board.rows * ppc + 2 * pad_px)
    top = np.asarray(
        cv2.warpPerspective(image, h_warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8
    )
    if not coverage:
        return Warped(image=top, inside=np.ones(top.shape[:2], bool), ppc=ppc, pad_px=pad_px,
                      photo_ppc=reg.cell_px)
    ones = np.full(image.shape[:2], 255, np.uint8)
    inside = cv2.warpPerspective(ones, h_warp, size, flags=cv2.INTER_NEAREST, borderValue=0) > 0
    return Warped(image=top, inside=inside, ppc=ppc, pad_px=pad_px, photo_ppc=reg.cell_px)


def cell_inside(warped: Warped, board: BoardSpec) -> npt.NDArray[np.float64]:
    """Returns, per cell, the fraction of its pixels the photo covers."""
    p, ppc = warped.pad_px, warped.ppc
    g = warped.inside[p : p + board.rows * ppc, p : p + board.cols * ppc]
    return np.asarray(g.reshape(board.rows, ppc, board.cols, ppc).mean(axis=(1, 3)).reshape(-1), np.float64)


LINE_CELLS = 1 / 12
"""The narrowest dark-line filter that finds the printed grid lines, in cells (a line of the
board art, blurred, spans about this): one setting for the grid refit and the cells' edges."""
PAPER_WHITE = (245.0, 245.0, 245.0)
"""The white reference (BGR) when no margin shows: the paper of the board tables' colours, as
``vision.colours.PAPER`` (not imported: the colour model sits beside the warp, not under it)."""

LINE_OUTLIER = 2.5
"""A grid line's sample further from the line fitted through the others than this many times their
median distance (at least a pixel) is dropped, and the line fitted again (provisional, set by
hand: ``bench/registration_numbers.py --fit`` picks 1.5 by its criterion, one board fewer placed
within two tolerances on the registration set, so not taken; without the cut four boards of the
set are refused)."""
WASHED = 250
"""A pixel whose three channels (0-255) all reach this is washed out to white by a glare: its
colour, whatever lies there, is lost (JPEG keeps a clipped channel a few levels below 255)."""


def cell_washed(warped: Warped, board: BoardSpec) -> npt.NDArray[np.float64]:
    """Returns, per cell, the fraction of its pixels washed out to white (``WASHED``)."""
    g = warped.grid(board.rows, board.cols)
    ppc = warped.ppc
    white = np.minimum(np.minimum(g[..., 0], g[..., 1]), g[..., 2]) >= WASHED  # all three reach it
    return np.asarray(white.reshape(board.rows, ppc, board.cols, ppc).mean(axis=(1, 3)).reshape(-1), np.float64)


def white_reference(warped: Warped, board: BoardSpec) -> npt.NDArray[np.float64]:
    """Returns the BGR colour of the paper around the grid (board margin, marker tabs): the
    per-channel ``PAPER_PERCENTILE`` of the margin's band ``MARGIN_BAND`` just outside the grid,
    over pixels the photo covers (``PAPER_WHITE`` when fewer than a cell's side of them show)."""
    ppc, p = warped.ppc, warped.pad_px
    lo, hi = round(MARGIN_BAND[0] * ppc), round(MARGIN_BAND[1] * ppc)
    x0, y0 = p, p
    x1, y1 = p + board.cols * ppc, p + board.rows * ppc
    bands = [
        (slice(y0 - hi, y0 - lo), slice(x0, x1)),
        (slice(y1 + lo, y1 + hi), slice(x0, x1)),
        (slice(y0, y1), slice(x0 - hi, x0 - lo)),
        (slice(y0, y1), slice(x1 + lo, x1 + hi)),
    ]
    pixels = [warped.image[b][warped.inside[b]] for b in bands]
    stacked = np.concatenate([px for px in pixels if px.size], axis=0) if any(px.size for px in pixels) else None
    if stacked is None or len(stacked) < ppc:
        return np.array(PAPER_WHITE)
    return np.asarray(np.maximum(np.percentile(stacked, PAPER_PERCENTILE, axis=0), DARKEST), np.float64)


def sharpness(warped: Warped, board: BoardSpec) -> float:
    """Returns mean |Laplacian| over mean grey of the grid area, at the photo's own scale: the
    warp has a fixed number of pixels per cell, and a board photographed with fewer is brought
    back down to them first (enlarged, a sharp photo of a far board spreads every edge and
    looked blurred)."""
    gray = cv2.cvtColor(warped.grid(board.rows, board.cols), cv2.COLOR_BGR2GRAY)
    if 0 < warped.photo_ppc < warped.ppc:
        size = (max(1, round(board.cols * warped.photo_ppc)), max(1, round(board.rows * warped.photo_ppc)))
        gray = cv2.resize(gray, size, interpolation=cv2.INTER_AREA)
    lap = cv2.Laplacian(gray, cv2.CV_32F, ksize=3)
    return float(np.abs(lap).mean() / max(1.0, float(gray.mean())))


def draw_grid(warped: Warped, board: BoardSpec) -> npt.NDArray[np.uint8]:
    """Returns the warped board with the cell grid, patches and cell names drawn (debug)."""
    out = warped.image.copy()
    p, ppc = warped.pad_px, warped.ppc
    for r in range(board.rows + 1):
        cv2.line(out, (p, p + r * ppc), (p + board.cols * ppc, p + r * ppc), (0, 0, 255), 1)
    for c in range(board.cols + 1):
        cv2.line(out, (p + c * ppc, p), (p + c * ppc, p + board.rows * ppc), (0, 0, 255), 1)
    return out


# ---------------------------------------------------------------------------------------------
# Refinement on the printed grid


def refine(image: npt.NDArray[np.uint8], reg: Registration, board: BoardSpec, cfg: GridConfig) -> Registration:
    """Returns a registration from three markers or from the outline refitted on the grid's
    line crossings (kept as is if too few are found, if the refit moves a grid corner by more
    than ``REACH`` cells, or strays from the markers by more than
    ``PLACE_TOLERANCE``). Four markers frame the board well enough: kept as they are.

    A homography from three small markers extrapolates poorly to the far corner, and an outline
    is rough; the (rows + 1) × (cols + 1) crossings of the printed grid lines are visible
    between counters and span the whole board. Three passes, each around the last refitted
    prediction: ``refine_radius`` around each predicted line, half as far, then within twice
    ``PLACE_TOLERANCE`` (the narrowest search that still holds a line placed that precisely).
    """
    current = reg
    if (reg.method == "markers" and len(reg.markers) >= 4) or cfg.refine_radius <= 0:
        return reg  # four markers frame the board: the line fit would only add its own bias
    # two or three small markers extrapolate poorly, an outline is rough: a wide search, then
    # narrower ones, down to the registration's own precision (the refit must still put the
    # markers where they are, so a grid taken one line off is refused)
    radii = (cfg.refine_radius, cfg.refine_radius / 2, 2 * PLACE_TOLERANCE)
    for radius in radii:
        found = _crossings(image, current, board, cfg, radius)
        if found is None:
            return current
        img_pts, board_pts = found
        to_board, inliers = cv2.findHomography(img_pts, board_pts, cv2.RANSAC, PLACE_TOLERANCE)
        if to_board is None or inliers is None:
            return current
        keep = inliers.ravel().astype(bool)
        if keep.sum() < cfg.refine_min_points:
            continue
        back = cv2.perspectiveTransform(img_pts[keep][None], to_board)[0]
        error = float(np.linalg.norm(back - board_pts[keep], axis=1).mean())
        probe = np.array([[[0, 0], [board.cols, 0], [board.cols, board.rows], [0, board.rows]]], np.float64)
        moved = cv2.perspectiveTransform(cv2.perspectiveTransform(probe, reg.to_image), to_board)[0] - probe[0]
        if float(np.linalg.norm(moved, axis=1).max()) > REACH:
            continue  # this pass is rejected; a narrower one around the last accepted may do
        if reg.anchors is not None:  # the refit must still agree with the markers it started from
            anchor_img, anchor_board = reg.anchors
            back = cv2.perspectiveTransform(anchor_img[None], to_board)[0]
            drift = float(np.linalg.norm(back - anchor_board, axis=1).mean())
            k = cfg.refine_drift_per_error
            allowed = float(np.clip(k * reg.error, PLACE_TOLERANCE, k * PLACE_TOLERANCE))
            if drift > allowed:
                continue
        current = Registration(to_board.astype(np.float64), reg.method, reg.markers, error, reg.cell_px, reg.anchors)
    return current


def _crossings(
    image: npt.NDArray[np.uint8],
    reg: Registration,
    board: BoardSpec,
    cfg: GridConfig,
    radius: float,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """Returns the grid crossings found, as (image points, board points), or None if too few.

    Each printed line is sampled cell by cell: across a strip of half a cell, the mean profile of
    the thin-dark-line filter (black top-hat) peaks on the line. A robust straight-line fit per
    grid line, then the intersections of the fitted lines, give the crossings.
    """
    ppc = cfg.px_per_cell
    warped = warp_board(image, reg, board, ppc, max(cfg.refine_radius, 2 * PLACE_TOLERANCE))
    gray = cv2.cvtColor(warped.image, cv2.COLOR_BGR2GRAY)
    # the filter must be wider than the printed line as the warp shows it: a small board's line,
    # blurred over a pixel or two of the photo, is enlarged with it
    size = max(3, round(ppc * LINE_CELLS), round(cfg.refine_line_px * ppc / max(reg.cell_px, 1.0))) | 1
    lines = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    strength = lines.astype(np.float32)
    strength[~warped.inside] = 0
    reach = max(2, round(radius * ppc))
    p = warped.pad_px - 0.5
    rows_fit = [_fit_line(strength, p + i * ppc, p, ppc, board.cols, reach, cfg) for i in range(board.rows + 1)]
    cols_fit = [_fit_line(strength.T, p + j * ppc, p, ppc, board.rows, reach, cfg) for j in range(board.cols + 1)]
    warp_pts: list[tuple[float, float]] = []
    board_pts: list[tuple[float, float]] = []
    for i, hline in enumerate(rows_fit):
        for j, vline in enumerate(cols_fit):
            if hline is None or vline is None:
                continue
            a, b = hline  # y = a x + b
            c, d = vline  # x = c y + d
            denom = 1 - a * c
            if abs(denom) < 1e-6:
                continue
            y = (a * d + b) / denom
            warp_pts.append((c * y + d, y))
            board_pts.append((float(j), float(i)))
    if len(warp_pts) < cfg.refine_min_points:
        return None
    place = np.array([[ppc, 0, p], [0, ppc, p], [0, 0, 1]], np.float64)
    to_image = np.linalg.inv(place @ reg.to_board)
    img_pts = cv2.perspectiveTransform(np.array([warp_pts], np.float64), to_image)[0]
    return img_pts, np.array(board_pts, np.float64)


def _fit_line(
    strength: npt.NDArray[np.float32],
    at: float,
    start: float,
    ppc: int,
    cells: int,
    reach: int,
    cfg: GridConfig,
) -> tuple[float, float] | None:
    """Fits ``y = a x + b`` to a nearly horizontal printed line expected at row ``at``: one
    sample per cell (the peak of the mean profile over the middle half of the cell), then least
    squares with the worst samples dropped."""
    y_lo, y_hi = round(at) - reach, round(at) + reach + 1
    x_lo = round(start)
    if y_lo < 0 or y_hi > strength.shape[0] or x_lo < 0 or x_lo + cells * ppc > strength.shape[1]:
        return None
    strip = strength[y_lo:y_hi, x_lo : x_lo + cells * ppc].reshape(y_hi - y_lo, cells, ppc)
    q0, q1 = ppc // 4, ppc - ppc // 4
    profiles = strip[:, :, q0:q1].mean(axis=2)  # (positions, cells)
    peaks = profiles.argmax(axis=0)
    cols = np.arange(cells)
    best = profiles[peaks, cols]
    contrast = best - np.median(profiles, axis=0)
    left = profiles[np.clip(peaks - 1, 0, None), cols]
    right = profiles[np.clip(peaks + 1, None, len(profiles) - 1), cols]
    denom = left - 2 * best + right
    shift = np.where(np.abs(denom) > 1e-6, 0.5 * (left - right) / np.where(denom == 0, 1, denom), 0.0)
    ok = (contrast >= cfg.refine_min_contrast) & (peaks > 0) & (peaks < len(profiles) - 1)
    if ok.sum() < max(3, cells // 3):
        return None
    x = (x_lo + (cols + 0.5) * ppc - 0.5)[ok]
    y = (y_lo + peaks + np.clip(shift, -0.5, 0.5))[ok]
    keep = np.ones(len(x), bool)
    a, b = np.polyfit(x, y, 1)
    for _ in range(3):
        resid = np.abs(y - (a * x + b))
        new = resid <= max(1.0, LINE_OUTLIER * float(np.median(resid[keep])))
        if new.sum() < 3 or (new == keep).all():
            break
        keep = new
        a, b = np.polyfit(x[keep], y[keep], 1)
    return float(a), float(b)


def edge_evidence(warped: Warped, board: BoardSpec) -> npt.NDArray[np.float64]:
    """Returns, per cell, (n, 4) dark-line responses of its top, bottom, left and right edges
    (black top-hat peak within ``PLACE_TOLERANCE`` of the edge, over the middle half of the edge, minus
    the strip's median), over the mean grey around the edge (a line between two dark tokens
    counts as much as one on bare board)."""
    ppc, p = warped.ppc, warped.pad_px
    gray = cv2.cvtColor(warped.image, cv2.COLOR_BGR2GRAY)
    size = max(3, round(ppc * LINE_CELLS)) | 1
    lines = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    strength = lines.astype(np.float32)
    reach = max(2, round(PLACE_TOLERANCE * ppc))
    q0, q1 = ppc // 4, ppc - ppc // 4

    def edges(img: npt.NDArray[np.float32], count: int, cells: int) -> npt.NDArray[np.float64]:
        out = np.zeros((count + 1, cells))
        for i in range(count + 1):
            y = p + i * ppc
            strip = img[y - reach - 1 : y + reach, p : p + cells * ppc].reshape(-1, cells, ppc)[:, :, q0:q1]
            profile = strip.mean(axis=2)
            out[i] = profile.max(axis=0) - np.median(strip.reshape(strip.shape[0], cells, -1).mean(axis=0), axis=1)
        return out

    def level(img: npt.NDArray[np.float32], count: int, cells: int) -> npt.NDArray[np.float64]:
        out = np.zeros((count + 1, cells))
        for i in range(count + 1):
            y = p + i * ppc
            strip = img[max(0, y - ppc // 4) : y + ppc // 4, p : p + cells * ppc]
            out[i] = strip.reshape(strip.shape[0], cells, ppc).mean(axis=(0, 2))
        return out

    grey = gray.astype(np.float32)
    # relative to the local grey: a line between two dark tokens shows less than on bare board
    h = edges(strength, board.rows, board.cols) / np.maximum(level(grey, board.rows, board.cols), DARKEST)
    v = edges(strength.T, board.cols, board.rows) / np.maximum(level(grey.T, board.cols, board.rows), DARKEST)
    top, bottom = h[:-1, :], h[1:, :]  # (rows, cols)
    left, right = v[:-1, :].T, v[1:, :].T  # (rows, cols)
    return np.stack([top, bottom, left, right], axis=-1).reshape(-1, 4).astype(np.float64)
