"""Hexagonal boards named the wargame way: four digits, column then row (``0512``).

Hexes are flat-topped and stand in columns; every other column sits half a hex lower. On most
printed wargame maps hex ``0101`` is the top-left one and column ``02`` is the first lowered
column (``down="even"``, the default); ``down="odd"`` lowers ``01``, ``03``...

Cells are ints (``row * cols + col``, zero-based, as on square boards); distances and
straight lines are computed in cube coordinates (Amit Patel's "Hexagonal Grids", Red Blob
Games). Extra adjacencies — a map edge that wraps round, a bridge across a sea — are *links*
given by the map data; they join the neighbour table (so every search crosses them) but not
:meth:`HexGrid.distance` or :meth:`HexGrid.line`, which measure the printed plane.

>>> g = HexGrid(cols=10, rows=8)
>>> [g.name(c) for c in g.neighbours(g.parse("0202"))]
['0201', '0302', '0303', '0203', '0103', '0102']
>>> g.distance(g.parse("0101"), g.parse("0801"))
7
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from referee.errors import UnknownNameError
from referee.geometry import search as _search
from referee.geometry.search import Cell, SearchResult
from referee.i18n import _

__all__ = ["DIRECTIONS", "HexGrid"]

Cube = tuple[int, int, int]
_NAME = re.compile(r"^\s*(\d{2})\s*[-./]?\s*(\d{2})\s*$")
DIRECTIONS: tuple[Cube, ...] = ((0, 1, -1), (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0))
"""The six cube steps, clockwise from straight up: N, NE, SE, S, SW, NW."""
SQRT3 = 3**0.5


@dataclass(frozen=True)
class HexGrid:
    """A map of ``cols`` × ``rows`` flat-topped hexes, with optional extra links between hexes.

    Args:
        cols, rows: size of the map (at most 99 × 99, as four-digit names allow).
        down: which printed columns (1-based, ``"even"`` or ``"odd"``) sit half a hex lower.
        links: pairs of hex names joined as if adjacent (wrap-around edges, bridges), both ways.
    """

    cols: int
    rows: int
    down: Literal["even", "odd"] = "even"
    links: tuple[tuple[str, str], ...] = ()
    size: int = field(init=False, repr=False, compare=False)
    """Number of cells."""
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (1 <= self.cols <= 99 and 1 <= self.rows <= 99):
            raise ValueError(f"a hex map is 1..99 columns and rows, got {self.cols}x{self.rows}")
        if self.down not in ("even", "odd"):
            raise ValueError(f"down must be 'even' or 'odd', got {self.down!r}")
        object.__setattr__(self, "size", self.rows * self.cols)
        names = tuple(f"{c + 1:02d}{r + 1:02d}" for r in range(self.rows) for c in range(self.cols))
        object.__setattr__(self, "_names", names)
        for a, b in self.links:  # fail early on a link to nowhere
            self.parse(a), self.parse(b)

    # ---- names ---------------------------------------------------------------------------

    def cells(self) -> range:
        """Returns every cell index."""
        return range(self.size)

    def cell(self, col: int, row: int) -> Cell:
        """Returns the cell at a zero-based column and row.

        Raises:
            ValueError: off the map.
        """
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"({col}, {row}) is off a {self.cols}x{self.rows} map")
        return row * self.cols + col

    def cr(self, cell: Cell) -> tuple[int, int]:
        """Returns the zero-based (column, row) of a cell."""
        row, col = divmod(cell, self.cols)
        return col, row

    def name(self, cell: Cell) -> str:
        """Returns a cell's printed name, e.g. ``0512`` (column 05, row 12)."""
        return self._names[cell]

    @cached_property
    def _by_name(self) -> dict[str, Cell]:
        return {n: i for i, n in enumerate(self._names)}

    def parse(self, text: str) -> Cell:
        """Returns the hex named by ``text`` (``0512``, ``05-12``, ``05.12``).

        Raises:
            UnknownNameError: not a hex of this map; suggests close names.
        """
        match = _NAME.match(text)
        if match:
            key = match.group(1) + match.group(2)
            if key in self._by_name:
                return self._by_name[key]
        close = difflib.get_close_matches(text.strip(), self._names, n=3, cutoff=0.6)
        err = UnknownNameError("hex", text, close)
        err.hint = _("hexes are named column then row, from 0101 to {last}").format(last=self._names[-1])
        raise err

    def is_cell_name(self, text: str) -> bool:
        """Returns True when ``text`` names a hex of this map."""
        match = _NAME.match(text)
        return match is not None and (match.group(1) + match.group(2)) in self._by_name

    # ---- coordinates ---------------------------------------------------------------------

    @property
    def _p(self) -> int:
        """0 when zero-based odd columns sit lower (printed even ones), 1 when zero-based even ones do."""
        return 0 if self.down == "even" else 1

    def _lowered(self, col: int) -> int:
        """1 when a zero-based column sits half a hex lower, else 0."""
        return (col + self._p) % 2

    def cube(self, cell: Cell) -> Cube:
        """Returns a cell's cube coordinates (x along the columns, z down, x + y + z = 0)."""
        col, row = self.cr(cell)
        z = row - (col + self._p) // 2
        return col, -col - z, z

    def from_cube(self, cube: Cube) -> Cell | None:
        """Returns the cell at cube coordinates, or None off the map."""
        x, _, z = cube
        row = z + (x + self._p) // 2
        if not (0 <= x < self.cols and 0 <= row < self.rows):
            return None
        return row * self.cols + x

    def centre(self, cell: Cell) -> tuple[float, float]:
        """Returns a hex's centre, in units of the hex's outer radius (x right, y down; the first
        hex's centre at (1, √3/2) so the map starts at 0)."""
        col, row = self.cr(cell)
        return 1.0 + 1.5 * col, SQRT3 * (row + 0.5 + 0.5 * self._lowered(col))

    # ---- neighbours, distance, lines -----------------------------------------------------

    def step(self, cell: Cell, direction: int) -> Cell | None:
        """Returns the hex one step away in a direction (0 = N, then clockwise), or None off the map."""
        x, y, z = self.cube(cell)
        dx, dy, dz = DIRECTIONS[direction % 6]
        return self.from_cube((x + dx, y + dy, z + dz))

    @cached_property
    def _plane(self) -> tuple[tuple[Cell, ...], ...]:
        table = []
        for cell in self.cells():
            around = (self.step(cell, d) for d in range(6))
            table.append(tuple(c for c in around if c is not None))
        return tuple(table)

    @cached_property
    def _adjacency(self) -> tuple[tuple[Cell, ...], ...]:
        table = [list(n) for n in self._plane]
        for a_name, b_name in self.links:
            a, b = self.parse(a_name), self.parse(b_name)
            if b not in table[a]:
                table[a].append(b)
            if a not in table[b]:
                table[b].append(a)
        return tuple(tuple(n) for n in table)

    def adjacency(self) -> tuple[tuple[Cell, ...], ...]:
        """Returns every hex's neighbours, links included."""
        return self._adjacency

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """Returns the hexes next to a cell, clockwise from north, then its linked hexes."""
        return self._adjacency[cell]

    def distance(self, a: Cell, b: Cell) -> int:
        """Returns the hex steps between two hexes across the printed plane (links not used)."""
        (ax, ay, az), (bx, by, bz) = self.cube(a), self.cube(b)
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def steps(self, a: Cell, b: Cell) -> int | None:
        """Returns the fewest steps from ``a`` to ``b`` through neighbours and links (None if none)."""
        found = _search.flood(self._adjacency, a, self.size, (), ())
        return found.distance.get(b)

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Returns the hexes of the straight line from ``a`` to ``b``, both included.

        Where the line runs exactly along the edge between two hexes, it takes the one on the
        same side each time (a tiny nudge), or the other side where the first is off the map, so
        the line is always one hex wide.
        """
        n = self.distance(a, b)
        if n == 0:
            return [a]
        (ax, ay, az), (bx, by, bz) = self.cube(a), self.cube(b)
        cells: list[Cell] = []
        for i in range(n + 1):
            t = i / n
            exact = (ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t)
            for sign in (1.0, -1.0):  # on an edge, prefer one side; off the map, take the other
                nudged = (exact[0] + sign * 1e-6, exact[1] + sign * 2e-6, exact[2] - sign * 3e-6)
                cell = self.from_cube(_round(nudged))
                if cell is not None:
                    break
            else:  # pragma: no cover - both sides of an edge between two hexes of a rectangle exist
                raise AssertionError("a straight line left the map")
            cells.append(cell)
        return cells

    def ring(self, cell: Cell, radius: int) -> list[Cell]:
        """Returns the hexes at exactly ``radius`` steps on the plane (those on the map)."""
        return [c for c in self.within(cell, radius) if self.distance(cell, c) == radius]

    def within(self, cell: Cell, radius: int) -> list[Cell]:
        """Returns the hexes at most ``radius`` steps away on the plane, the cell included."""
        x, y, z = self.cube(cell)
        found: list[Cell] = []
        for dx in range(-radius, radius + 1):
            for dy in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
                c = self.from_cube((x + dx, y + dy, z - dx - dy))
                if c is not None:
                    found.append(c)
        return sorted(found)

    # ---- search --------------------------------------------------------------------------

    def flood(
        self, start: Cell, limit: int, closed: Iterable[Cell] = (), stops: Iterable[Cell] = (),
        parents: bool = True,
    ) -> SearchResult:
        """Returns unit-step distances from ``start`` (links included); see :func:`referee.geometry.search.flood`."""
        return _search.flood(self._adjacency, start, limit, frozenset(closed), frozenset(stops), parents)

    def search(
        self,
        start: Cell,
        limit: int,
        can_enter: Callable[[Cell], bool],
        can_continue: Callable[[Cell], bool],
        cost: Callable[[Cell], int] | None = None,
        step_cost: Callable[[Cell, Cell], int] | None = None,
    ) -> SearchResult:
        """Returns the hexes reachable within ``limit`` steps or cost; see :func:`referee.geometry.search.search`."""
        return _search.search(self._adjacency, start, limit, can_enter, can_continue, cost, step_cost)


def _round(point: tuple[float, float, float]) -> Cube:
    """Returns the cube hex a fractional cube point lies in."""
    x, y, z = point
    rx, ry, rz = round(x), round(y), round(z)
    ex, ey, ez = abs(rx - x), abs(ry - y), abs(rz - z)
    if ex > ey and ex > ez:
        rx = -ry - rz
    elif ey > ez:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz
