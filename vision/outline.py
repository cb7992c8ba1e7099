"""The board's outline, the fallback when too few corner markers are seen: the largest bright
convex quadrilateral in the photo, oriented by the board's printed coordinates (their marks, one
per cell, in the top and left margins). :func:`vision.register.register` turns it into a
registration, which the printed grid lines must then confirm, and the marks again where the grid
refit puts it (:func:`marks_confirm`)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.board import MARGIN_BAND, PAPER_PERCENTILE, BoardSpec
from vision.config import RegisterConfig
from vision.markers import smallest_cell_px


def board_homography(
    gray: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig
) -> npt.NDArray[np.float64] | None:
    """Returns the image → board homography the photo's outline gives, oriented by the printed
    coordinates (their marks in the top and left margins, :func:`side_measures`), or None: no
    outline, or none of its four turns whose two coordinate margins each show ``outline_label_ratio``
    times the marks chance leaves (:func:`_turn`), or whose turn the margins' ink does not give as
    well (:func:`_inked_turn`). At most one turn can pass the marks (a turn passing makes its blank
    margins too faint for any other); none passing says the marks cannot tell the turns apart, and
    a board placed turned reads every cell wrong."""
    quad = find_outline(gray, board, cfg)
    if quad is None:
        return None
    m = cfg.outline_margin
    sides = side_measures(gray, turned(quad, 0, board, m), board, m)
    shift = _turn(sides, cfg)
    if shift is None or _inked_turn(sides, cfg) != shift:
        return None
    return turned(quad, shift, board, m)


def marks_confirm(image: npt.NDArray[np.uint8], to_board: npt.NDArray[np.float64], board: BoardSpec,
                  cfg: RegisterConfig) -> bool:
    """Whether the printed marks give a placement refitted on the grid lines (a BGR photo) as it
    stands: the outline may be a cell or more off, its margins' bands then take in the first row
    or column and their pieces, and the grid refit may move it that far onto a turned board's
    lines (the grid is square)."""
    gray = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    return _turn(side_measures(gray, to_board, board, cfg.outline_margin), cfg) == 0


def _turn(sides: list[dict[str, float]], cfg: RegisterConfig) -> int | None:
    """Returns the turn whose two coordinate margins each show marks ``outline_label_ratio`` times
    what chance leaves (the marks of either blank margin, of either sign, and the margin's own
    standard error across its cells: a noisy or patterned surface leaves marks of both signs,
    as large as their scatter), or None (at most one turn can pass)."""
    for shift in range(4):
        # this turn's top, right, bottom and left margins are the sides shift, shift + 1, ...
        top, right, bottom, left = (sides[(shift + k) % 4] for k in range(4))
        chance = max(abs(bottom["marks"]), abs(right["marks"]), 1e-3)
        if all(side["marks"] >= cfg.outline_label_ratio * max(chance, side["spread"]) for side in (top, left)):
            return shift
    return None


def _inked_turn(sides: list[dict[str, float]], cfg: RegisterConfig) -> int | None:
    """Returns the one turn whose two coordinate margins hold ``outline_label_ratio`` times the
    ink of its two blank ones (:data:`INK`), or None when no turn or several do. Kept beside the
    marks' test (:func:`_turn`), which must pick the same turn: the marks alone place boards this
    test leaves unplaced, and on the second renderer those were read with cells confidently wrong
    (``docs/decisions/vision-outline-marks.md``)."""
    passing = [
        shift for shift in range(4)
        if sides[shift]["ink"] + sides[(shift + 3) % 4]["ink"]
        >= cfg.outline_label_ratio * max(sides[(shift + 1) % 4]["ink"] + sides[(shift + 2) % 4]["ink"], 1e-3)
    ]
    return passing[0] if len(passing) == 1 else None


def turned(quad: npt.NDArray[np.float32], shift: int, board: BoardSpec, m: float) -> npt.NDArray[np.float64]:
    """Returns the image → board homography putting the outline's corner ``shift`` (clockwise
    from its top-left-most) at the top-left of the board's printed margin (``m`` cells wide)."""
    corners = np.array(
        [[-m, -m], [board.cols + m, -m], [board.cols + m, board.rows + m], [-m, board.rows + m]], np.float32
    )
    rolled = np.roll(quad, -shift, axis=0).astype(np.float32)
    return np.asarray(cv2.getPerspectiveTransform(rolled, corners), np.float64)


def find_outline(
    gray: npt.NDArray[np.uint8], board: BoardSpec, cfg: RegisterConfig
) -> npt.NDArray[np.float32] | None:
    """Returns the four corners (clockwise from the top-left-most) of the largest bright convex
    quadrilateral in the photo, or None. A smaller one than the smallest board the reader reads
    (:func:`vision.markers.smallest_cell_px` per cell, its printed margin included) is not looked at."""
    h, w = gray.shape
    scale = min(1.0, 900 / max(h, w))
    small = cv2.resize(gray, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (_SMOOTH, _SMOOTH), 0)
    best: npt.NDArray[np.float32] | None = None
    m = cfg.outline_margin
    best_area = (board.cols + 2 * m) * (board.rows + 2 * m) * (smallest_cell_px(board.markers) * scale) ** 2
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
            approx = cv2.approxPolyDP(hull, APPROX * cv2.arcLength(hull, True), True)
            if len(approx) != 4 or not cv2.isContourConvex(approx):
                continue
            best, best_area = approx.reshape(4, 2).astype(np.float32), area
    if best is None:
        return None
    return _clockwise(best / scale)


_SMOOTH = 5
"""Side of the Gaussian kernel the shrunk photo is smoothed with before its outline is looked for,
in pixels of the 900-px copy. Fitted by ``bench/registration_numbers.py --fit`` on the registration
set's 214 fitting photos (no board over half a cell off, then the most placed close, then the least
error): 3, 5, 7, 9 px place 132, 133, 130, 128 close; 5 kept, the held-out photos alike."""
APPROX = 0.02
"""How far the outline's polygon may stray from its hull, as a share of the hull's perimeter
(``cv2.approxPolyDP``): a board's corners rounded by blur or cut by a counter still give four
(provisional, set by hand: 0.01 to 0.05 register the registration set's fitting photos alike; 0.05
gave two of the refuse set's board-less photos another refusal)."""


INK = 0.8
"""A margin pixel darker than this share of its paper white (taken cell by cell along the band)
is printed ink: the coordinates' figures and letters (:func:`_inked_turn`). Fitted with
``outline_label_ratio`` by ``bench/registration_set.py`` on its ``outline`` ladder (48 photos of
boards without markers, both renderers), over 0.6-0.9: the value placing the most boards right
once the ratio places none turned."""


def _clockwise(quad: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    ordered = quad[np.argsort(angles)]  # image y points down: increasing angle is clockwise
    start = int(np.argmin(ordered.sum(axis=1)))
    return np.roll(ordered, -start, axis=0).astype(np.float32)


def side_measures(
    gray: npt.NDArray[np.uint8], to_board: npt.NDArray[np.float64], board: BoardSpec, m: float
) -> list[dict[str, float]]:
    """Returns, for the top, right, bottom and left margins of a placement (``m``: the printed
    margin, in cells), the band's mean darkness under its paper's white (``dark``), its printed
    marks (``marks``): that darkness in the middle half of each cell's stretch of the band less
    in the half across the cells' edges, averaged over the cells, and their standard error
    (``spread``). The coordinates print one figure or letter in the middle of each cell's stretch,
    apart from the next; a dark table or a shadow taken into the band darkens it along its
    length, across the cells' edges as much as between them."""
    ppc = 16
    size = (round((board.cols + 2 * m) * ppc), round((board.rows + 2 * m) * ppc))
    place = np.array([[ppc, 0, m * ppc], [0, ppc, m * ppc], [0, 0, 1]], np.float64)
    top_down = np.asarray(cv2.warpPerspective(gray, place @ to_board, size), np.uint8)
    lo, hi = round(MARGIN_BAND[0] * ppc), round(MARGIN_BAND[1] * ppc)
    n0, n1 = round(m * ppc), round((m + board.cols) * ppc)
    r1 = round((m + board.rows) * ppc)
    middle = np.zeros(ppc, bool)
    middle[ppc // 4 : ppc - ppc // 4] = True

    def measure(band: npt.NDArray[np.uint8], cells: int) -> dict[str, float]:
        if band.size == 0:
            return {"dark": 0.0, "marks": 0.0, "spread": 0.0, "ink": 0.0}
        per_cell = band.reshape(band.shape[0], cells, ppc).transpose(1, 0, 2)  # cell, depth, along
        # the paper's white cell by cell along the band: a shadow across the margin darkens
        # its paper with its ink, and is not ink
        white = np.percentile(per_cell.reshape(cells, -1), PAPER_PERCENTILE, axis=1)[:, None, None]
        dark = np.clip(1 - per_cell / np.maximum(white, 1.0), 0, 1)
        each = dark[:, :, middle].mean(axis=(1, 2)) - dark[:, :, ~middle].mean(axis=(1, 2))
        return {"dark": float(dark.mean()), "marks": float(each.mean()),
                "spread": float(each.std() / np.sqrt(cells)), "ink": float((per_cell < INK * white).mean())}

    return [
        measure(top_down[n0 - hi : n0 - lo, n0:n1], board.cols),
        measure(top_down[n0:r1, n1 + lo : n1 + hi].T, board.rows),
        measure(top_down[r1 + lo : r1 + hi, n0:n1], board.cols),
        measure(top_down[n0:r1, n0 - hi : n0 - lo].T, board.rows),
    ]
