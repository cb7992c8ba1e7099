"""A board as a neutral drawing: shapes and text in pixels, written as SVG or rasterised to PNG.

:func:`board_scene` lays a :class:`~referee.game.BoardView` (square or hex) out as a
:class:`Scene`; :func:`referee.mapscene.map_scene` does the same for a city map
(:class:`~referee.game.MapView`). The table page (``referee serve``) writes the scene as inline
SVG (:mod:`referee.svg`) and ``show --png`` rasterises the very same scene with a real font
(:mod:`referee.raster`), so the screen and the picture cannot disagree and accented names
(Athéna, forêt, Ailés) read right in both. Nothing here imports a drawing library.

Shapes that belong to a cell carry its name (``ref``), so a page can tell which cell was tapped.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from referee.game import RGB, BoardView, CellView, Counter
from referee.i18n import _

SQRT3 = 3**0.5
MARGIN_CELLS = 0.7
"""Room for the coordinates round the board, in cells."""
LINE: RGB = (60, 60, 60)
INK: RGB = (40, 40, 40)
PAPER: RGB = (245, 245, 245)
WHITE: RGB = (255, 255, 255)

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Shape:
    """A filled and/or outlined shape: a polygon (``closed``), a polyline, or a circle (``radius``)."""

    points: tuple[tuple[float, float], ...]
    fill: RGB | None = None
    stroke: RGB | None = None
    width: float = 1.0
    closed: bool = True
    radius: float = 0.0
    """A circle of this radius round ``points[0]`` when above zero."""
    dashed: bool = False
    ref: str = ""
    """The cell this shape draws (a page's tap target), or empty."""


@dataclass(frozen=True)
class Label:
    """A line of text: ``at`` is where its anchor sits, vertically at the middle of the letters."""

    at: tuple[float, float]
    text: str
    size: float
    colour: RGB = INK
    anchor: Anchor = "middle"
    bold: bool = False
    turn: Literal[0, 90, -90] = 0
    """Degrees the text is turned (90: reading downwards, -90: upwards), round ``at``."""
    ref: str = ""


Item = Shape | Label


@dataclass(frozen=True)
class Scene:
    """A drawing: its size in pixels, a background and items painted in order."""

    width: float
    height: float
    items: tuple[Item, ...]
    title: str = ""
    background: RGB = PAPER


def rect(x: float, y: float, w: float, h: float, **style: object) -> Shape:
    """Returns an axis-aligned rectangle."""
    return Shape(((x, y), (x + w, y), (x + w, y + h), (x, y + h)), **style)  # type: ignore[arg-type]


def line(a: tuple[float, float], b: tuple[float, float], colour: RGB, width: float, **style: object) -> Shape:
    """Returns a straight line from ``a`` to ``b``."""
    return Shape((a, b), stroke=colour, width=width, closed=False, **style)  # type: ignore[arg-type]


def circle(centre: tuple[float, float], radius: float, **style: object) -> Shape:
    """Returns a circle."""
    return Shape((centre,), radius=radius, **style)  # type: ignore[arg-type]


def text_width(text: str, size: float) -> float:
    """Returns an estimate of a line's width (the font's average letter is about 0.6 of its size),
    used only to lay out the key; both writers measure nothing."""
    return 0.6 * size * len(text)


@dataclass
class _Board:
    """Where the board sits: pixels per layout unit and its top-left corner."""

    view: BoardView
    unit: float
    left: float
    top: float
    width: float
    height: float
    items: list[Item] = field(default_factory=list)

    def point(self, centre: tuple[float, float]) -> tuple[float, float]:
        return self.left + centre[0] * self.unit, self.top + centre[1] * self.unit

    def box(self, cell: CellView) -> tuple[float, float, float]:
        """Returns the top-left corner and side of the square a cell's drawings fit in."""
        if self.view.layout == "hex":
            size = self.unit * SQRT3 * 0.8
            cx, cy = self.point(cell.centre)
            return cx - size / 2, cy - size / 2, size
        c, r = cell.at
        return self.left + c * self.unit, self.top + r * self.unit, self.unit

    def centre(self, cell: CellView) -> tuple[float, float]:
        if self.view.layout == "hex":
            return self.point(cell.centre)
        x0, y0, size = self.box(cell)
        return x0 + size / 2, y0 + size / 2

    def hexagon(self, cell: CellView, shrink: float = 1.0) -> tuple[tuple[float, float], ...]:
        cx, cy = cell.centre
        angles = [math.radians(60 * k) for k in range(6)]
        return tuple(self.point((cx + shrink * math.cos(a), cy + shrink * math.sin(a))) for a in angles)


def board_scene(view: BoardView, cell_px: float = 64, labels: bool = True, status: bool = True,
                legend: bool = True) -> Scene:
    """Returns the drawing of a board: terrain and its patterns, grid, links, counters with their
    labels (a face-down counter as a crossed back), marks as frames, coordinates, the edges' names,
    a key under the board (``legend``) and the status lines (``status``).

    A square cell is ``cell_px`` wide; a hex is ``cell_px`` from flat side to flat side.
    """
    margin = float(int(cell_px * MARGIN_CELLS)) if labels else 0.0  # whole pixels, as vision's art
    band = float(int(cell_px * 0.45)) if any(view.edges) else 0.0
    board = _place(view, cell_px, margin + band)
    full_width = board.width + 2 * (margin + band)
    _terrain(board)
    for link in view.links:
        _link(board, link.a, link.b, link.colour, cell_px)
    for cell in view.cells:
        if cell.tag and not cell.counters:
            cx, cy = board.centre(cell)
            board.items.append(Label((cx, cy - board.unit * 0.5), cell.tag, cell_px * 0.26, (0, 0, 0), bold=True,
                                     ref=cell.name))
        _counters(board, cell)
        marks = [m for m in cell.marks if m in view.marks]
        for k, key in enumerate(marks):
            _mark(board, cell, view.marks[key].colour, k, cell_px)
    if labels:
        _coordinates(board, margin, cell_px)
    _edges(board, margin, band, cell_px)
    y = board.top + board.height + margin + band
    if legend:
        y = _key(board, key_entries(view), margin, y + cell_px * 0.1, full_width - 2 * margin, cell_px)
    if status and view.status:
        for text in view.status:
            y += cell_px * 0.45
            board.items.append(Label((margin, y - cell_px * 0.2), text, cell_px * 0.24, (20, 20, 20), "start"))
        y += cell_px * 0.2
    return Scene(full_width, y + (0 if status and view.status else cell_px * 0.1), tuple(board.items), view.title)


def _place(view: BoardView, cell_px: float, offset: float) -> _Board:
    if view.layout == "hex":
        unit = cell_px / SQRT3
        return _Board(view, unit, offset, offset, round((1.5 * (view.cols - 1) + 2) * unit),
                      round(SQRT3 * unit * (view.rows + 0.5)))
    return _Board(view, cell_px, offset, offset, view.cols * cell_px, view.rows * cell_px)


def _terrain(board: _Board) -> None:
    """Paints each cell's terrain and pattern, then the grid."""
    view = board.view
    for cell in view.cells:
        style = view.terrain.get(cell.terrain)
        colour = style.colour if style else (200, 200, 200)
        if view.layout == "hex":
            board.items.append(Shape(board.hexagon(cell), fill=colour, stroke=LINE, width=1, ref=cell.name))
        else:
            x0, y0, size = board.box(cell)
            board.items.append(rect(x0, y0, size, size, fill=colour, stroke=LINE, width=1, ref=cell.name))
        if style is not None and style.pattern:
            board.items += pattern(style.pattern, *board.box(cell), ref=cell.name)


def pattern(kind: str, x0: float, y0: float, size: float, ref: str = "") -> list[Item]:
    """Returns a terrain's pattern drawn over its colour, away from the cell's centre (trees as dots,
    a peak, waves, crosses), so terrains differ without colour."""
    if kind == "dots":
        return [circle((x0 + dx * size, y0 + dy * size), max(2.0, size / 9), fill=(30, 80, 30), ref=ref)
                for dx, dy in ((0.25, 0.3), (0.7, 0.25), (0.45, 0.7))]
    if kind == "peak":
        pts = ((x0 + size * 0.15, y0 + size * 0.85), (x0 + size * 0.5, y0 + size * 0.2),
               (x0 + size * 0.85, y0 + size * 0.85))
        return [Shape(pts, stroke=(120, 80, 40), width=max(1.0, size / 20), ref=ref)]
    if kind == "waves":
        return [line((x0 + size / 5, y0 + dy * size), (x0 + size * 4 / 5, y0 + dy * size), WHITE, max(1.0, size / 24),
                     ref=ref) for dy in (0.25, 0.8)]
    if kind == "cross":
        pairs = (((0.2, 0.2), (0.35, 0.35)), ((0.8, 0.2), (0.65, 0.35)), ((0.2, 0.8), (0.35, 0.65)),
                 ((0.8, 0.8), (0.65, 0.65)))
        return [line((x0 + a[0] * size, y0 + a[1] * size), (x0 + b[0] * size, y0 + b[1] * size), (20, 20, 20),
                     max(1.0, size / 16), ref=ref) for a, b in pairs]
    return []


def _link(board: _Board, a: str, b: str, colour: RGB, cell_px: float) -> None:
    """Draws a link as a line between two cells' centres, a dot at each end."""
    by_name = {c.name: c for c in board.view.cells}
    if a not in by_name or b not in by_name:
        return
    pa, pb = board.centre(by_name[a]), board.centre(by_name[b])
    thick = max(2.0, cell_px / 10)
    board.items.append(line(pa, pb, colour, thick))
    board.items += [circle(p, thick + 1, fill=colour) for p in (pa, pb)]


def _counters(board: _Board, cell: CellView) -> None:
    """Draws a cell's stack: one counter large in the middle, several stepped across the cell; the
    side's mark before the label, so sides differ without colour."""
    view = board.view
    x0, y0, cell_px = board.box(cell)
    n = len(cell.counters)
    for i, counter in enumerate(cell.counters):
        size = cell_px * (0.74 if n == 1 else 0.5)
        step = i / (n - 1) if n > 1 else 0.0
        ox = x0 + (cell_px - size) / 2 if n == 1 else x0 + cell_px * (0.06 + 0.42 * step)
        oy = y0 + (cell_px - size) / 2 if n == 1 else y0 + cell_px * (0.06 + 0.38 * step)
        fill = view.side_colours.get(counter.side, (90, 90, 90))
        border = max(1.0, cell_px / 32)
        board.items.append(rect(ox, oy, size, size, fill=fill, stroke=WHITE, width=border, ref=cell.name))
        if counter.hidden:  # face down: the side's back, no label
            board.items += [line((ox, oy), (ox + size, oy + size), WHITE, border, ref=cell.name),
                            line((ox + size, oy), (ox, oy + size), WHITE, border, ref=cell.name)]
            continue
        text = counter_text(view, counter)
        if text:
            fs = cell_px * (0.3 if n == 1 else 0.22)
            fs = min(fs, size * 0.9 / max(1, 0.7 * len(text)))  # the bold letters fit the counter
            board.items.append(Label((ox + size / 2, oy + size / 2), text, fs, WHITE, bold=True, ref=cell.name))


def counter_text(view: BoardView, counter: Counter) -> str:
    """Returns what a counter shows: its side's mark (if the game gives one) and its label."""
    return (view.side_marks.get(counter.side, "") + counter.label) if counter.label else ""


def _mark(board: _Board, cell: CellView, colour: RGB, k: int, cell_px: float) -> None:
    """Draws the k-th mark of a cell as a frame round it (later marks inside earlier ones)."""
    thick = max(2.0, cell_px / 16)
    if board.view.layout == "hex":
        board.items.append(Shape(board.hexagon(cell, 0.9 - 0.12 * k), stroke=colour, width=thick, ref=cell.name))
        return
    x0, y0, size = board.box(cell)
    inset = 2 + k * (thick + 1) + thick / 2
    board.items.append(rect(x0 + inset, y0 + inset, size - 2 * inset, size - 2 * inset, stroke=colour, width=thick,
                            ref=cell.name))


def _coordinates(board: _Board, margin: float, cell_px: float) -> None:
    """Writes the column labels above the board and the row labels left of it."""
    view = board.view
    fs = cell_px * (0.26 if view.layout == "square" else 0.22)
    by_place = view.cell_at()
    for j, lab in enumerate(view.col_labels):
        if view.layout == "square":
            x = board.left + (j + 0.5) * cell_px
        elif (j, 0) in by_place:
            x = board.centre(by_place[(j, 0)])[0]
        else:
            continue
        board.items.append(Label((x, board.top - margin * 0.45), lab, fs))
    for i, lab in enumerate(view.row_labels):
        if view.layout == "square":
            y = board.top + (i + 0.5) * cell_px
        elif (0, i) in by_place:
            y = board.centre(by_place[(0, i)])[1]
        else:
            continue
        board.items.append(Label((board.left - margin / 2, y), lab, fs))


def _edges(board: _Board, margin: float, band: float, cell_px: float) -> None:
    """Writes the edges' names outside the coordinates: top and bottom level, left and right
    turned to run along their edge."""
    if not band:
        return
    top, right, bottom, left = board.view.edges
    cx, cy = board.left + board.width / 2, board.top + board.height / 2
    fs = cell_px * 0.26
    if top:
        board.items.append(Label((cx, band / 2), top, fs))
    if bottom:
        board.items.append(Label((cx, board.top + board.height + margin + band / 2), bottom, fs))
    if left:
        board.items.append(Label((band / 2, cy), left, fs, turn=-90))
    if right:
        board.items.append(Label((board.left + board.width + margin + band / 2, cy), right, fs, turn=90))


KeyEntry = tuple[str, str, RGB, str]
"""(kind, text, colour, pattern): kind is fill, frame, line or counter."""


def key_entries(view: BoardView) -> list[KeyEntry]:
    """Returns the key's entries: each terrain, mark, side and link named once, then which counter
    is which (its label, then its name)."""
    rows: list[KeyEntry] = []
    rows += [("fill", _(style.label or name), style.colour, style.pattern) for name, style in view.terrain.items()]
    rows += [("frame", _(m.label), m.colour, "") for m in view.marks.values()]
    rows += [("counter", f"{view.side_marks.get(side, '')} {_(side)}".strip(), rgb, "")
             for side, rgb in view.side_colours.items()]
    seen: set[str] = set()
    for link in view.links:
        if link.label not in seen:
            seen.add(link.label)
            rows.append(("line", _(link.label), link.colour, ""))
    for short, name, side in view.legend:
        rows.append(("counter", f"{short} {name}", view.side_colours.get(side, (90, 90, 90)), ""))
    return rows


def _key(board: _Board, rows: list[KeyEntry], left: float, top: float, width: float, cell_px: float) -> float:
    """Draws the key in lines of ``width``: a swatch per entry, then its name. Returns the y below it."""
    if not rows:
        return top
    fs = cell_px * 0.24
    swatch = cell_px * 0.4
    pitch = cell_px * 0.55
    x, y = 0.0, top
    for kind, text, colour, kind_pattern in rows:
        need = swatch + 6 + text_width(text, fs) + cell_px * 0.4
        if x and x + need > width:
            x, y = 0.0, y + pitch
        x0 = left + x
        if kind == "fill":
            board.items.append(rect(x0, y, swatch, swatch, fill=colour, stroke=LINE, width=1))
            board.items += pattern(kind_pattern, x0, y, swatch)
        elif kind == "frame":
            board.items.append(rect(x0, y, swatch, swatch, stroke=colour, width=max(2.0, swatch / 8)))
        elif kind == "counter":
            board.items.append(rect(x0, y, swatch, swatch, fill=colour))
        else:
            board.items.append(line((x0, y + swatch / 2), (x0 + swatch, y + swatch / 2), colour, max(2.0, swatch / 6)))
        board.items.append(Label((x0 + swatch + 6, y + swatch / 2), text, fs, (20, 20, 20), "start"))
        x += need
    return y + pitch
