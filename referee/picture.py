"""Board pictures: the drawing of any view (:func:`view_scene`), written by ``show --png``
(:func:`write_png`, Pillow and a real font, no OpenCV) and shown inline on the table page; and
the OpenCV board art the vision package renders its synthetic photos from (:func:`draw_board`).

:func:`view_scene` lays out a :class:`~referee.game.BoardView` (square or hex) or a city map
(:class:`~referee.game.MapView`) as a neutral :class:`~referee.scene.Scene`: the same scene is
SVG on the page and a PNG on disk. :func:`draw_board` keeps the OpenCV drawing (Hershey
letters, no accents) because the vision package's calibrated figures were measured on its
pixels; it draws no status or key and no person reads its text (docs/decisions/board-drawing.md).
OpenCV itself (its lazy import, what its C libraries print) comes from :mod:`referee.images`.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee.game import BoardView, CellView, MapView
from referee.i18n import N_
from referee.images import opencv
from referee.mapscene import map_scene
from referee.raster import write_picture
from referee.scene import Scene, board_scene, key_entries

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

MARGIN_CELLS = 0.7
SQRT3 = 3**0.5
_LINE = (60, 60, 60)
_INK = (40, 40, 40)


def _bgr(rgb: tuple[int, int, int] | list[int]) -> tuple[int, int, int]:
    r, g, b = (int(x) for x in rgb[:3])
    return (b, g, r)


@dataclass(frozen=True)
class _Frame:
    """Where the board sits in the picture: pixels per layout unit and the board's top-left corner."""

    unit: float
    left: int
    top: int
    width: int
    height: int

    def point(self, centre: tuple[float, float]) -> tuple[int, int]:
        return round(self.left + centre[0] * self.unit), round(self.top + centre[1] * self.unit)


def _frame(view: BoardView, cell_px: int, margin: int, band: int) -> _Frame:
    """Returns the board's placement: a square cell is ``cell_px`` wide; a hex is ``cell_px``
    from flat side to flat side (its outer radius, the hex layout's unit, is ``cell_px / √3``)."""
    if view.layout == "hex":
        unit = cell_px / SQRT3
        width = round((1.5 * (view.cols - 1) + 2) * unit)
        height = round(SQRT3 * unit * (view.rows + 0.5))
        return _Frame(unit, margin + band, margin + band, width, height)
    return _Frame(float(cell_px), margin + band, margin + band, view.cols * cell_px, view.rows * cell_px)


def draw_board(
    view: BoardView, cell_px: int = 64, labels: bool = True, status: bool = True, legend: bool = True
) -> npt.NDArray[np.uint8]:
    """Returns a BGR picture of the board, ``cell_px`` pixels per cell plus a labelled margin.

    Square cells are ``cell_px`` wide; hexes are drawn as polygons round their ``centre``,
    ``cell_px`` from flat side to flat side. With ``legend``, a key under the board names the
    terrain, the marks, the sides and the links; the edges' labels are written outside the margin.
    """
    cv2 = opencv()
    import numpy as np  # lazy: numpy

    margin = int(cell_px * MARGIN_CELLS) if labels else 0
    band = int(cell_px * 0.45) if any(view.edges) else 0
    frame = _frame(view, cell_px, margin, band)
    key_rows = _key_entries(view) if legend else []
    key_height = _key_height(key_rows, frame.width + 2 * margin, cell_px)
    footer = int(cell_px * 0.45) * (len(view.status) + 1) if status and view.status else 0
    h = 2 * (margin + band) + frame.height + key_height + footer
    w = 2 * (margin + band) + frame.width
    img = np.full((h, w, 3), 245, np.uint8)
    scale = cell_px / 64
    for cell in view.cells:
        style = view.terrain.get(cell.terrain)
        colour = _bgr(style.colour if style else (200, 200, 200))
        x0, y0, size = _box(view, frame, cell)
        if view.layout == "hex":
            cv2.fillPoly(img, [_hexagon(frame, cell)], colour)
        else:
            cv2.rectangle(img, (x0, y0), (x0 + size, y0 + size), colour, -1)
        if style is not None and style.pattern:
            _pattern(img, style.pattern, x0, y0, size)
    if view.layout == "hex":
        for cell in view.cells:
            cv2.polylines(img, [_hexagon(frame, cell)], True, _LINE, 1, cv2.LINE_AA)
    else:
        _square_grid(img, view, frame)
    for link in view.links:
        _link(img, view, frame, link.a, link.b, link.colour, cell_px)
    for cell in view.cells:
        x0, y0, size = _box(view, frame, cell)
        if cell.tag and not cell.counters:
            _tag(img, view, frame, cell, scale)
        _counters(img, view, cell, x0, y0, size, scale)
        for k, key in enumerate(m for m in cell.marks if m in view.marks):
            _mark(img, view, frame, cell, _bgr(view.marks[key].colour), k, size)
    if labels:
        _coordinates(img, view, frame, margin, cell_px, scale)
    _edges(img, view, frame, margin, band, scale)
    y = 2 * (margin + band) + frame.height
    if key_rows:
        _draw_key(img, key_rows, margin, y, frame.width + 2 * margin, cell_px)
    if footer:
        y += key_height
        for line in view.status:
            ascii_line = line.encode("ascii", "replace").decode().replace("?", "-")
            cv2.putText(img, ascii_line, (margin, y), _FONT, 0.42 * scale, (20, 20, 20), 1, cv2.LINE_AA)
            y += int(cell_px * 0.45)
    return img


_FONT = 0  # cv2.FONT_HERSHEY_SIMPLEX


def _box(view: BoardView, frame: _Frame, cell: CellView) -> tuple[int, int, int]:
    """Returns the top-left corner and side of the square a cell's drawings fit in."""
    if view.layout == "hex":
        size = int(frame.unit * SQRT3 * 0.8)
        cx, cy = frame.point(cell.centre)
        return cx - size // 2, cy - size // 2, size
    size = int(frame.unit)
    c, r = cell.at
    return frame.left + c * size, frame.top + r * size, size


def _centre_px(view: BoardView, frame: _Frame, cell: CellView) -> tuple[int, int]:
    """Returns the pixel of a cell's centre (a square cell's from its column and row)."""
    if view.layout == "hex":
        return frame.point(cell.centre)
    x0, y0, size = _box(view, frame, cell)
    return x0 + size // 2, y0 + size // 2


def _hexagon(frame: _Frame, cell: CellView, shrink: float = 1.0) -> npt.NDArray[np.int32]:
    import numpy as np  # lazy: numpy

    cx, cy = cell.centre
    corners = [(cx + shrink * math.cos(math.radians(60 * k)), cy + shrink * math.sin(math.radians(60 * k)))
               for k in range(6)]
    return np.array([frame.point(p) for p in corners], np.int32)


def _pattern(img: npt.NDArray[np.uint8], pattern: str, x0: int, y0: int, size: int) -> None:
    """Draws a terrain's pattern over its colour, away from the cell's centre."""
    cv2 = opencv()
    import numpy as np  # lazy: numpy

    if pattern == "dots":
        for dx, dy in ((0.25, 0.3), (0.7, 0.25), (0.45, 0.7)):
            cv2.circle(img, (x0 + int(dx * size), y0 + int(dy * size)), max(2, size // 9), (30, 80, 30), -1)
    elif pattern == "peak":
        pts = np.array([[x0 + size * 0.15, y0 + size * 0.85], [x0 + size * 0.5, y0 + size * 0.2],
                        [x0 + size * 0.85, y0 + size * 0.85]], np.int32)
        cv2.polylines(img, [pts], True, (40, 80, 120), max(1, size // 20))
    elif pattern == "waves":
        for dy in (0.25, 0.8):
            y = y0 + int(dy * size)
            cv2.line(img, (x0 + size // 5, y), (x0 + size * 4 // 5, y), (255, 255, 255), max(1, size // 24))
    elif pattern == "cross":
        for a, b in (((0.2, 0.2), (0.35, 0.35)), ((0.8, 0.2), (0.65, 0.35)), ((0.2, 0.8), (0.35, 0.65)),
                     ((0.8, 0.8), (0.65, 0.65))):
            cv2.line(img, (x0 + int(a[0] * size), y0 + int(a[1] * size)),
                     (x0 + int(b[0] * size), y0 + int(b[1] * size)), (20, 20, 20), max(1, size // 16))


def _square_grid(img: npt.NDArray[np.uint8], view: BoardView, frame: _Frame) -> None:
    cv2 = opencv()
    px = int(frame.unit)
    for i in range(view.rows + 1):
        y = frame.top + i * px
        cv2.line(img, (frame.left, y), (frame.left + view.cols * px, y), _LINE, 1)
    for j in range(view.cols + 1):
        x = frame.left + j * px
        cv2.line(img, (x, frame.top), (x, frame.top + view.rows * px), _LINE, 1)


def _link(img: npt.NDArray[np.uint8], view: BoardView, frame: _Frame, a: str, b: str,
          colour: tuple[int, int, int], cell_px: int) -> None:
    """Draws a link as a line between the two cells' centres, a dot at each end."""
    cv2 = opencv()
    by_name = {c.name: c for c in view.cells}
    if a not in by_name or b not in by_name:
        return
    pa, pb = _centre_px(view, frame, by_name[a]), _centre_px(view, frame, by_name[b])
    thick = max(2, cell_px // 10)
    cv2.line(img, pa, pb, _bgr(colour), thick, cv2.LINE_AA)
    for p in (pa, pb):
        cv2.circle(img, p, thick + 1, _bgr(colour), -1, cv2.LINE_AA)


def _tag(img: npt.NDArray[np.uint8], view: BoardView, frame: _Frame, cell: CellView, scale: float) -> None:
    """Writes a cell's tag (a wrap letter) in its upper part, leaving the centre's colour showing."""
    cv2 = opencv()
    cx, cy = _centre_px(view, frame, cell)
    fs = 0.5 * scale
    (tw, _), _ = cv2.getTextSize(cell.tag, _FONT, fs, 1)
    thick = max(1, int(scale * 1.5))
    cv2.putText(img, cell.tag, (cx - tw // 2, cy - int(frame.unit * 0.35)), _FONT, fs, (0, 0, 0), thick, cv2.LINE_AA)


def _counters(img: npt.NDArray[np.uint8], view: BoardView, cell: CellView, x0: int, y0: int, cell_px: int,
              scale: float) -> None:
    """Draws a cell's stack: one counter large in the middle, several stepped across the cell."""
    cv2 = opencv()
    n = len(cell.counters)
    for i, counter in enumerate(cell.counters):
        size = int(cell_px * (0.74 if n == 1 else 0.5))
        step = i / (n - 1) if n > 1 else 0.0
        ox = x0 + (cell_px - size) // 2 if n == 1 else x0 + int(cell_px * (0.06 + 0.42 * step))
        oy = y0 + (cell_px - size) // 2 if n == 1 else y0 + int(cell_px * (0.06 + 0.38 * step))
        fill = _bgr(view.side_colours.get(counter.side, (90, 90, 90)))
        cv2.rectangle(img, (ox, oy), (ox + size, oy + size), fill, -1)
        cv2.rectangle(img, (ox, oy), (ox + size, oy + size), (255, 255, 255), max(1, cell_px // 32))
        if counter.hidden:  # face down: the side's back, no label
            cv2.line(img, (ox, oy), (ox + size, oy + size), (255, 255, 255), max(1, cell_px // 32))
            cv2.line(img, (ox + size, oy), (ox, oy + size), (255, 255, 255), max(1, cell_px // 32))
            continue
        if not counter.label:
            continue
        fs = scale * (0.5 if n == 1 else 0.36)
        (tw, th), _ = cv2.getTextSize(counter.label, _FONT, fs, 1)
        cv2.putText(img, counter.label, (ox + (size - tw) // 2, oy + (size + th) // 2), _FONT, fs,
                    (255, 255, 255), 1, cv2.LINE_AA)


def _mark(img: npt.NDArray[np.uint8], view: BoardView, frame: _Frame, cell: CellView, colour: tuple[int, int, int],
          k: int, cell_px: int) -> None:
    """Draws the k-th mark of a cell as a frame round it (later marks inside earlier ones)."""
    cv2 = opencv()
    thick = max(2, cell_px // 16)
    if view.layout == "hex":
        cv2.polylines(img, [_hexagon(frame, cell, 0.9 - 0.12 * k)], True, colour, thick, cv2.LINE_AA)
        return
    x0, y0, size = _box(view, frame, cell)
    inset = 2 + k * (thick + 1)
    cv2.rectangle(img, (x0 + inset, y0 + inset), (x0 + size - inset, y0 + size - inset), colour, thick)


def _coordinates(img: npt.NDArray[np.uint8], view: BoardView, frame: _Frame, margin: int, cell_px: int,
                 scale: float) -> None:
    """Writes the column labels above the board and the row labels left of it."""
    cv2 = opencv()
    if view.layout == "square":
        for j, lab in enumerate(view.col_labels):
            (tw, th), _ = cv2.getTextSize(lab, _FONT, 0.5 * scale, 1)
            x = frame.left + j * cell_px + (cell_px - tw) // 2
            cv2.putText(img, lab, (x, frame.top - int(cell_px * 0.2)), _FONT, 0.5 * scale, _INK, 1, cv2.LINE_AA)
        for i, lab in enumerate(view.row_labels):
            (tw, th), _ = cv2.getTextSize(lab, _FONT, 0.5 * scale, 1)
            y = frame.top + i * cell_px + (cell_px + th) // 2
            cv2.putText(img, lab, (frame.left - margin + (margin - tw) // 2, y), _FONT, 0.5 * scale, _INK, 1,
                        cv2.LINE_AA)
        return
    fs = 0.4 * scale
    by_place = view.cell_at()
    for j, lab in enumerate(view.col_labels):
        (tw, th), _ = cv2.getTextSize(lab, _FONT, fs, 1)
        if (j, 0) in by_place:
            x = _centre_px(view, frame, by_place[(j, 0)])[0] - tw // 2
            cv2.putText(img, lab, (x, frame.top - int(cell_px * 0.2)), _FONT, fs, _INK, 1, cv2.LINE_AA)
    for i, lab in enumerate(view.row_labels):
        (tw, th), _ = cv2.getTextSize(lab, _FONT, fs, 1)
        if (0, i) in by_place:
            y = _centre_px(view, frame, by_place[(0, i)])[1] + th // 2
            cv2.putText(img, lab, (frame.left - margin + (margin - tw) // 2, y), _FONT, fs, _INK, 1, cv2.LINE_AA)


def _edges(img: npt.NDArray[np.uint8], view: BoardView, frame: _Frame, margin: int, band: int, scale: float) -> None:
    """Writes the edges' labels (the compass of the board) outside the coordinates: top and bottom
    level, left and right turned to run along their edge."""
    cv2 = opencv()
    import numpy as np  # lazy: numpy

    if not band:
        return
    fs = 0.5 * scale
    top, right, bottom, left = view.edges
    cx = frame.left + frame.width // 2
    cy = frame.top + frame.height // 2
    for text, y in ((top, band - band // 4), (bottom, frame.top + frame.height + margin + band - band // 4)):
        if text:
            ascii_text = _ascii(text)
            (tw, _), _ = cv2.getTextSize(ascii_text, _FONT, fs, 1)
            cv2.putText(img, ascii_text, (cx - tw // 2, y), _FONT, fs, _INK, 1, cv2.LINE_AA)
    for text, x, turn in ((left, 0, 1), (right, frame.left + frame.width + margin, 3)):
        if not text:
            continue
        ascii_text = _ascii(text)
        (tw, _), _ = cv2.getTextSize(ascii_text, _FONT, fs, 1)
        strip = np.full((band, min(tw + 4, frame.height), 3), 245, np.uint8)
        cv2.putText(strip, ascii_text, (2, band - band // 4), _FONT, fs, _INK, 1, cv2.LINE_AA)
        turned = np.rot90(strip, turn)
        y0 = max(0, cy - turned.shape[0] // 2)
        img[y0 : y0 + turned.shape[0], x : x + turned.shape[1]] = turned


def _ascii(text: str) -> str:
    """Returns text the drawing font can show: accents dropped (``forêt`` → ``foret``), other
    characters outside ASCII as ``?``."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return folded.encode("ascii", "replace").decode()


def _key_entries(view: BoardView) -> list[tuple[str, str, tuple[int, int, int], str]]:
    """Returns the key's entries (:func:`referee.scene.key_entries`)."""
    return key_entries(view)


def _key_layout(rows: list[tuple[str, str, tuple[int, int, int], str]], width: int,
                cell_px: int) -> list[tuple[int, int]]:
    """Returns each key entry's (x, row) when they flow left to right in lines of ``width``."""
    cv2 = opencv()
    fs = 0.42 * cell_px / 64
    x, line, out = 0, 0, []
    swatch = int(cell_px * 0.4)
    for _kind, text, _colour, _pattern in rows:
        (tw, _), _ = cv2.getTextSize(_ascii(text), _FONT, fs, 1)
        need = swatch + 6 + tw + int(cell_px * 0.4)
        if x and x + need > width:
            x, line = 0, line + 1
        out.append((x, line))
        x += need
    return out


def _key_height(rows: list[tuple[str, str, tuple[int, int, int], str]], width: int, cell_px: int) -> int:
    if not rows:
        return 0
    lines = max(line for _, line in _key_layout(rows, width, cell_px)) + 1
    return lines * int(cell_px * 0.55) + int(cell_px * 0.2)


def _draw_key(img: npt.NDArray[np.uint8], rows: list[tuple[str, str, tuple[int, int, int], str]], left: int, top: int,
              width: int, cell_px: int) -> None:
    """Draws the key: a swatch per entry (terrain fill, mark frame, side counter, link line), then its name."""
    cv2 = opencv()
    fs = 0.42 * cell_px / 64
    swatch = int(cell_px * 0.4)
    pitch = int(cell_px * 0.55)
    for (kind, text, rgb, pattern), (x, line) in zip(rows, _key_layout(rows, width - left, cell_px), strict=True):
        x0, y0 = left + x, top + line * pitch
        colour = _bgr(rgb)
        if kind == "fill":
            cv2.rectangle(img, (x0, y0), (x0 + swatch, y0 + swatch), colour, -1)
            if pattern:
                _pattern(img, pattern, x0, y0, swatch)
            cv2.rectangle(img, (x0, y0), (x0 + swatch, y0 + swatch), _LINE, 1)
        elif kind == "frame":
            cv2.rectangle(img, (x0, y0), (x0 + swatch, y0 + swatch), colour, max(2, swatch // 8))
        elif kind == "counter":
            cv2.rectangle(img, (x0, y0), (x0 + swatch, y0 + swatch), colour, -1)
        else:
            cv2.line(img, (x0, y0 + swatch // 2), (x0 + swatch, y0 + swatch // 2), colour, max(2, swatch // 6))
        label = _ascii(text)
        cv2.putText(img, label, (x0 + swatch + 6, y0 + swatch - swatch // 4), _FONT, fs, (20, 20, 20), 1, cv2.LINE_AA)


def view_scene(view: BoardView | MapView, cell_px: int = 64, page: bool = False) -> Scene:
    """Returns the drawing of a board or a city map (the same for the page and the picture); for a
    page (``page``), without the status lines and a board's key, which the page shows as text."""
    if isinstance(view, BoardView):
        return board_scene(view, cell_px, status=not page, legend=not page)
    return map_scene(view, status=not page)


def write_png(view: BoardView | MapView, path: Path, cell_px: int = 64, force: bool = False) -> Path:
    """Draws the board and writes it in the format its extension names (PNG, or JPEG for .jpg),
    through a temporary beside it (an existing file is replaced only with ``force``, a game file never).

    Raises:
        RefereeError: another extension (the accepted ones listed), or the file cannot be written.
    """
    return write_picture(view_scene(view, cell_px), path, N_("picture"), force=force)
