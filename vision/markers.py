"""The printable corner tabs: ArUco markers with an L-shaped guide for the board corner.

Each tab is a white square holding one marker (its first ArUco corner at its smallest u and v,
upright in board coordinates) and reaching exactly to the corner of the playing grid nearest to
it; an L printed along the tab's two inner edges marks that corner. Laid with the L's vertex on
the grid corner and its arms along the grid's outer lines, the marker lands where
``board.yaml`` says. :func:`draw_tab` draws a tab into any board-aligned picture (the sheet and
the synthetic renderer share it); :func:`marker_sheet` lays the four tabs out for printing.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from referee.geometry.square import SquareGrid
from referee.i18n import _
from referee.markers import MarkerLayout, MarkerPlacement
from vision.errors import VisionError

TAB_MARGIN = 0.2
"""White quiet zone around each marker on its tab, in cells."""
GUIDE_LENGTH = 0.6
"""Length of each arm of the L guide, in cells."""
GUIDE_COLOUR = (40, 40, 190)
"""BGR colour of the L guide (a dark red, readable on white, ignored by the marker detector)."""
_A4_MM = (210.0, 297.0)
MIN_MARKER_PX = 10
"""A marker (4 × 4 modules and its border) narrower than this many pixels cannot be decoded."""


def smallest_cell_px(layout: MarkerLayout) -> float:
    """Returns the smallest board cell the reader reads, in photo pixels: one whose corner
    markers (``layout.size`` cells wide) are ``MIN_MARKER_PX`` wide, the least it decodes. A
    board that small is refused even when its outline places it. Measured: it never decides on
    ``bench/registration_set.py``'s ``small`` ladder (the markers are lost first; smallest board
    registered 15 px per cell), nor on ``bench/small_boards.py``'s 32 boards of 8-14 px per cell
    (every one refused for its markers, its outline or its blur at 10 px as at 14, the value
    this replaces: ``registration.min_cell_px``, set by hand)."""
    return MIN_MARKER_PX / layout.size


def dictionary(layout: MarkerLayout) -> cv2.aruco.Dictionary:
    """Returns the ArUco dictionary a layout names.

    Raises:
        VisionError: OpenCV has no such dictionary.
    """
    ident = getattr(cv2.aruco, layout.dictionary, None)
    if not isinstance(ident, int):
        raise VisionError(_("unknown ArUco dictionary {name} in board.yaml").format(name=repr(layout.dictionary)))
    return cv2.aruco.getPredefinedDictionary(ident)


def grid_corner(
    placement: MarkerPlacement, size: float, rows: int, cols: int
) -> tuple[float, float]:
    """Returns the (u, v) of the grid corner a marker sits next to."""
    cu, cv_ = placement.u + size / 2, placement.v + size / 2
    return (0.0 if cu < cols / 2 else float(cols), 0.0 if cv_ < rows / 2 else float(rows))


def tab_box(
    placement: MarkerPlacement, size: float, rows: int, cols: int
) -> tuple[float, float, float, float]:
    """Returns the tab's extent ``(u0, v0, u1, v1)`` in cells: the marker plus its quiet zone,
    stretched to reach the grid corner."""
    corner_u, corner_v = grid_corner(placement, size, rows, cols)
    u0, v0 = placement.u - TAB_MARGIN, placement.v - TAB_MARGIN
    u1, v1 = placement.u + size + TAB_MARGIN, placement.v + size + TAB_MARGIN
    return (min(u0, corner_u), min(v0, corner_v), max(u1, corner_u), max(v1, corner_v))


def draw_tab(
    canvas: npt.NDArray[np.uint8],
    layout: MarkerLayout,
    placement: MarkerPlacement,
    rows: int,
    cols: int,
    px_per_cell: float,
    origin: tuple[float, float],
) -> None:
    """Draws one tab into a BGR picture where board point (u, v) is at pixel
    ``((u - origin[0]) * px_per_cell, (v - origin[1]) * px_per_cell)``."""

    def px(u: float, v: float) -> tuple[int, int]:
        return (round((u - origin[0]) * px_per_cell), round((v - origin[1]) * px_per_cell))

    u0, v0, u1, v1 = tab_box(placement, layout.size, rows, cols)
    cv2.rectangle(canvas, px(u0, v0), px(u1, v1), (250, 250, 250), -1)
    x0, y0 = px(placement.u, placement.v)
    x1, _y1 = px(placement.u + layout.size, placement.v + layout.size)
    side = x1 - x0
    marker = cv2.aruco.generateImageMarker(dictionary(layout), placement.id, side)
    h, w = canvas.shape[:2]
    if x0 >= 0 and y0 >= 0 and x0 + side <= w and y0 + side <= h:
        canvas[y0 : y0 + side, x0 : x0 + side] = marker[:, :, None]
    corner_u, corner_v = grid_corner(placement, layout.size, rows, cols)
    du = -1.0 if placement.u < corner_u else 1.0
    dv = -1.0 if placement.v < corner_v else 1.0
    thick = max(1, round(px_per_cell * 0.06))
    half = thick / px_per_cell / 2
    cu, cv_ = corner_u + du * half, corner_v + dv * half
    cv2.line(canvas, px(cu, cv_), px(cu + du * GUIDE_LENGTH, cv_), GUIDE_COLOUR, thick)
    cv2.line(canvas, px(cu, cv_), px(cu, cv_ + dv * GUIDE_LENGTH), GUIDE_COLOUR, thick)


def corner_names(rows: int, cols: int) -> dict[tuple[float, float], str]:
    """Returns grid corner (u, v) → the name of the cell in that corner ("A1", "L12"...)."""
    grid = SquareGrid(rows, cols)
    return {
        (0.0, 0.0): grid.name(grid.cell(0, 0)),
        (float(cols), 0.0): grid.name(grid.cell(0, cols - 1)),
        (float(cols), float(rows)): grid.name(grid.cell(rows - 1, cols - 1)),
        (0.0, float(rows)): grid.name(grid.cell(rows - 1, 0)),
    }


def marker_sheet(
    layout: MarkerLayout, rows: int, cols: int, cell_mm: float = 40.0, dpi: int = 300
) -> npt.NDArray[np.uint8]:
    """Returns a printable page (A4 at ``dpi``, larger if the tabs need it) with the four tabs,
    dashed cutting lines and a caption naming each tab's corner.

    Raises:
        VisionError: a cell size or resolution that cannot be printed.
    """
    if not 5 <= cell_mm <= 200 or not 72 <= dpi <= 1200:
        raise VisionError(_("choose --cell-mm between 5 and 200 and --dpi between 72 and 1200"))
    ppc = cell_mm / 25.4 * dpi
    boxes = [tab_box(p, layout.size, rows, cols) for p in layout.placements]
    tab_w = max(b[2] - b[0] for b in boxes) * ppc
    tab_h = max(b[3] - b[1] for b in boxes) * ppc
    gap = 0.25 * dpi
    page_w = max(_A4_MM[0] / 25.4 * dpi, 2 * tab_w + 3 * gap)
    page_h = max(_A4_MM[1] / 25.4 * dpi, 2 * tab_h + 4 * gap + 0.6 * dpi)
    sheet = np.full((round(page_h), round(page_w), 3), 255, np.uint8)
    names = corner_names(rows, cols)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = dpi / 300
    title = f"referee corner markers ({layout.dictionary}): one board cell = {cell_mm:g} mm"
    cv2.putText(
        sheet,
        title,
        (round(gap), round(gap * 0.8)),
        font,
        0.9 * scale,
        (0, 0, 0),
        max(1, round(2 * scale)),
        cv2.LINE_AA,
    )
    for n, (placement, box) in enumerate(zip(layout.placements, boxes, strict=True)):
        col, row = n % 2, n // 2
        left = gap + col * (tab_w + gap)
        top = 1.2 * gap + row * (tab_h + gap + 0.3 * dpi)
        origin = (box[0] - left / ppc, box[1] - top / ppc)
        draw_tab(sheet, layout, placement, rows, cols, ppc, origin)
        x0, y0 = round(left), round(top)
        x1, y1 = round(left + (box[2] - box[0]) * ppc), round(top + (box[3] - box[1]) * ppc)
        _dashed_rectangle(sheet, (x0 - 2, y0 - 2), (x1 + 2, y1 + 2))
        corner = names[grid_corner(placement, layout.size, rows, cols)]
        caption = f"marker {placement.id}: outside corner {corner}; the L goes on the grid corner"
        cv2.putText(
            sheet,
            caption,
            (x0, y1 + round(0.12 * dpi)),
            font,
            0.55 * scale,
            (0, 0, 0),
            max(1, round(scale)),
            cv2.LINE_AA,
        )
    return sheet


def _dashed_rectangle(img: npt.NDArray[np.uint8], p0: tuple[int, int], p1: tuple[int, int]) -> None:
    (x0, y0), (x1, y1) = p0, p1
    dash = 12
    for x in range(x0, x1, 2 * dash):
        cv2.line(img, (x, y0), (min(x + dash, x1), y0), (150, 150, 150), 1)
        cv2.line(img, (x, y1), (min(x + dash, x1), y1), (150, 150, 150), 1)
    for y in range(y0, y1, 2 * dash):
        cv2.line(img, (x0, y), (x0, min(y + dash, y1)), (150, 150, 150), 1)
        cv2.line(img, (x1, y), (x1, min(y + dash, y1)), (150, 150, 150), 1)
