"""The board's outline, the fallback when too few corner markers are seen: the largest bright
convex quadrilateral in the photo, oriented by the board's printed coordinates (ink in the top
and left margins). :func:`vision.register.register` turns it into a registration, which the
printed grid lines must then confirm."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import MARGIN_BAND, PAPER_PERCENTILE, BoardSpec
from vision.config import RegisterConfig


def board_homography(
    gray: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig
) -> npt.NDArray[np.float64] | None:
    """Returns the image → board homography the photo's outline gives, oriented by the printed
    coordinates (ink in the top and left margins), or None: no outline, or not exactly one of its
    four turns with the coordinates' margins inked ``outline_label_ratio`` times more than the
    blank ones (the grid is square: a second turn passing as well says the ink cannot tell them
    apart, and a board placed turned reads every cell wrong)."""
    quad = find_outline(gray, board, cfg)
    if quad is None:
        return None
    m = cfg.outline_margin
    corners = np.array(
        [[-m, -m], [board.cols + m, -m], [board.cols + m, board.rows + m], [-m, board.rows + m]],
        np.float64,
    )
    passing: list[npt.NDArray[np.float64]] = []
    for shift in range(4):
        rolled = np.roll(quad, -shift, axis=0).astype(np.float64)
        to_board = cv2.getPerspectiveTransform(rolled.astype(np.float32), corners.astype(np.float32))
        labelled, blank = _margin_ink(gray, to_board.astype(np.float64), board, m)
        if labelled / max(blank, 1e-3) >= cfg.outline_label_ratio:
            passing.append(to_board.astype(np.float64))
    return passing[0] if len(passing) == 1 else None


def find_outline(
    gray: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig
) -> npt.NDArray[np.float32] | None:
    """Returns the four corners (clockwise from the top-left-most) of the largest bright convex
    quadrilateral in the photo, or None. A smaller one than the smallest board the reader reads
    (``registration.min_cell_px`` per cell, its printed margin included) is not looked at."""
    h, w = gray.shape
    scale = min(1.0, 900 / max(h, w))
    small = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (_SMOOTH, _SMOOTH), 0)
    best: npt.NDArray[np.float32] | None = None
    m = cfg.outline_margin
    best_area = (board.cols + 2 * m) * (board.rows + 2 * m) * (cfg.min_cell_px * scale) ** 2
    level, otsu = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Canny's thresholds from the photo's own contrast: the upper one at the grey that splits
    # board from table (Otsu), the lower at half of it
    edges = cv2.dilate(cv2.Canny(small, level / 2, level), np.ones((3, 3), np.uint8))
    for mask in (otsu, edges):
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            hull = cv2.convexHull(contour)
            area = cv2.contourArea(hull)
            if area < best_area:
                continue
            approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
            if len(approx) != 4 or not cv2.isContourConvex(approx):
                continue
            best, best_area = approx.reshape(4, 2).astype(np.float32), area
    if best is None:
        return None
    return _clockwise(best / scale)


_SMOOTH = 5
"""Side of the Gaussian kernel the shrunk photo is smoothed with before its outline is looked for,
in pixels of the 900-px copy (provisional, set by hand)."""


INK = 0.8
"""A margin pixel darker than this share of its paper white (taken cell by cell along the band)
is printed ink: the coordinates' figures and letters. Fitted with ``outline_label_ratio`` by
``bench/registration_set.py`` on its ``outline`` ladder (48 photos of boards without markers,
both renderers), over 0.6-0.9: the value placing the most boards right once the ratio places
none turned (0.6, the value set by hand, found too little of the real box's thin grey print and
turned 7 of the 48 boards by 90° or 180°)."""


def _clockwise(quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]  # image y points down: increasing angle is clockwise
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0).astype(np.float32)


def _margin_ink(
    gray: npt.NDArray[np.uint8], to_board: npt.NDArray[np.float64], board: BoardSpec, m: float
) -> tuple[float, float]:
    """Returns the dark-ink fraction of the top+left margins and of the bottom+right margins
    (``m``: the printed margin, in cells)."""
    ppc = 16
    size = (round((board.cols + 2 * m) * ppc), round((board.rows + 2 * m) * ppc))
    place = np.array([[ppc, 0, m * ppc], [0, ppc, m * ppc], [0, 0, 1]], np.float64)
    top_down = np.asarray(cv2.warpPerspective(gray, place @ to_board, size), np.uint8)
    lo, hi = round(MARGIN_BAND[0] * ppc), round(MARGIN_BAND[1] * ppc)
    n0, n1 = round(m * ppc), round((m + board.cols) * ppc)
    r1 = round((m + board.rows) * ppc)

    def ink(band: npt.NDArray[np.uint8], cells: int) -> float:
        # the paper's white cell by cell along the band: a shadow across the margin darkens
        # its paper with its ink, and is not ink
        if band.size == 0:
            return 0.0
        per_cell = band.reshape(band.shape[0], cells, -1).transpose(1, 0, 2).reshape(cells, -1)
        white = np.percentile(per_cell, PAPER_PERCENTILE, axis=1)[:, None]
        return float((per_cell < INK * white).mean())

    top = ink(top_down[n0 - hi : n0 - lo, n0:n1], board.cols)
    left = ink(top_down[n0:r1, n0 - hi : n0 - lo].T, board.rows)
    bottom = ink(top_down[r1 + lo : r1 + hi, n0:n1], board.cols)
    right = ink(top_down[n0:r1, n1 + lo : n1 + hi].T, board.rows)
    return top + left, bottom + right
