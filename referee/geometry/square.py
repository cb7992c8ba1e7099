"""Square boards: rows named by letters, columns by numbers, ``"H7"``.

Cells are ints (``row * cols + col``, zero-based) for speed; names are a row letter and a column
number (rows past Z continue AA, AB, ...). Cyrus & Pyxis and the vision package put the numbers
along ``u`` (x in a picture) and the letters along ``v`` (y).

>>> g = SquareGrid(12, 12)
>>> g.name(g.parse("h7"))
'H7'
>>> sorted(g.name(c) for c in g.neighbours(g.parse("A1")))
['A2', 'B1']
>>> g.manhattan(g.parse("A1"), g.parse("C4"))
5
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from referee.errors import UnknownNameError
from referee.geometry import search as _search
from referee.geometry.search import Cell, SearchResult
from referee.i18n import _

__all__ = ["DIAGONAL", "ORTHOGONAL", "SquareGrid", "row_label"]

ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIAGONAL: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1), (1, 1), (1, -1))
_NAME = re.compile(r"^\s*([A-Za-z]{1,2})\s*-?\s*(\d{1,3})\s*$")


def row_label(row: int) -> str:
    """Returns the letters of a zero-based row: 0 → A, 25 → Z, 26 → AA."""
    if row < 26:
        return chr(ord("A") + row)
    return chr(ord("A") + row // 26 - 1) + chr(ord("A") + row % 26)


@dataclass(frozen=True)
class SquareGrid:
    """A rectangular board of ``rows`` × ``cols`` square cells."""

    rows: int
    cols: int
    size: int = field(init=False, repr=False, compare=False)
    """Number of cells."""
    _names: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", self.rows * self.cols)
        if self.rows < 1 or self.cols < 1:
            raise ValueError(f"a grid needs at least one row and column, got {self.rows}x{self.cols}")
        names = tuple(f"{row_label(r)}{c + 1}" for r in range(self.rows) for c in range(self.cols))
        object.__setattr__(self, "_names", names)


    def cells(self) -> range:
        """Returns every cell index."""
        return range(self.size)

    def cell(self, row: int, col: int) -> Cell:
        """Returns the cell at a zero-based row and column.

        Raises:
            ValueError: the row or column is off the board.
        """
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(f"({row}, {col}) is off a {self.rows}x{self.cols} board")
        return row * self.cols + col

    def rc(self, cell: Cell) -> tuple[int, int]:
        """Returns the zero-based (row, column) of a cell."""
        return divmod(cell, self.cols)

    def name(self, cell: Cell) -> str:
        """Returns a cell's printed name, e.g. ``H7``."""
        return self._names[cell]

    @cached_property
    def _by_name(self) -> dict[str, Cell]:
        return {n: i for i, n in enumerate(self._names)}

    def parse(self, text: str) -> Cell:
        """Returns the cell named by ``text`` (case-insensitive, ``h7``, ``H-7``).

        Raises:
            UnknownNameError: not a cell of this board; suggests close names.
        """
        exact = self._by_name.get(text)
        if exact is not None:
            return exact
        match = _NAME.match(text)
        if match:
            key = match.group(1).upper() + str(int(match.group(2)))
            if key in self._by_name:
                return self._by_name[key]
        close = difflib.get_close_matches(text.strip().upper(), self._names, n=3, cutoff=0.5)
        err = UnknownNameError("cell", text, close)
        last = self._names[-1]
        err.hint = _("cells run from A1 to {last}").format(last=last)
        raise err

    def is_cell_name(self, text: str) -> bool:
        """Returns True when ``text`` names a cell of this board."""
        match = _NAME.match(text)
        if match is None:
            return False
        return (match.group(1).upper() + str(int(match.group(2)))) in self._by_name

    def step(self, cell: Cell, drow: int, dcol: int) -> Cell | None:
        """Returns the cell offset by (drow, dcol), or None off the board."""
        r, c = divmod(cell, self.cols)
        r, c = r + drow, c + dcol
        if 0 <= r < self.rows and 0 <= c < self.cols:
            return r * self.cols + c
        return None

    @cached_property
    def _orth(self) -> tuple[tuple[Cell, ...], ...]:
        return tuple(self._around(c, ORTHOGONAL) for c in self.cells())

    @cached_property
    def _all8(self) -> tuple[tuple[Cell, ...], ...]:
        return tuple(self._around(c, ORTHOGONAL + DIAGONAL) for c in self.cells())

    def _around(self, cell: Cell, deltas: Iterable[tuple[int, int]]) -> tuple[Cell, ...]:
        found = (self.step(cell, dr, dc) for dr, dc in deltas)
        return tuple(c for c in found if c is not None)

    def neighbours(self, cell: Cell, diagonal: bool = False) -> tuple[Cell, ...]:
        """Returns the orthogonal neighbours of a cell (and diagonal ones if asked)."""
        return self._all8[cell] if diagonal else self._orth[cell]

    def manhattan(self, a: Cell, b: Cell) -> int:
        """Returns the number of orthogonal steps between two cells on an empty board."""
        (ra, ca), (rb, cb) = divmod(a, self.cols), divmod(b, self.cols)
        return abs(ra - rb) + abs(ca - cb)

    def chebyshev(self, a: Cell, b: Cell) -> int:
        """Returns the number of king steps (diagonals allowed) between two cells."""
        (ra, ca), (rb, cb) = divmod(a, self.cols), divmod(b, self.cols)
        return max(abs(ra - rb), abs(ca - cb))

    def ray(self, cell: Cell, drow: int, dcol: int, length: int | None = None) -> Iterator[Cell]:
        """Yields the cells in a straight line from ``cell`` (excluded), up to ``length`` cells."""
        current: Cell | None = cell
        count = 0
        while length is None or count < length:
            current = self.step(current, drow, dcol) if current is not None else None
            if current is None:
                return
            count += 1
            yield current

    def adjacency(self, diagonal: bool = False) -> tuple[tuple[Cell, ...], ...]:
        """Returns every cell's neighbours (orthogonal, or all eight with ``diagonal``)."""
        return self._all8 if diagonal else self._orth

    def distance(self, a: Cell, b: Cell) -> int:
        """Returns the orthogonal steps between two cells on an empty board (:meth:`manhattan`)."""
        return self.manhattan(a, b)

    def centre(self, cell: Cell) -> tuple[float, float]:
        """Returns a cell's centre in cell units: x along the columns, y down the rows."""
        r, c = divmod(cell, self.cols)
        return c + 0.5, r + 0.5

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """Returns the cells of the straight line from ``a`` to ``b``, both included
        (Bresenham's line: exact along rows, columns and diagonals)."""
        (r0, c0), (r1, c1) = divmod(a, self.cols), divmod(b, self.cols)
        dr, dc = abs(r1 - r0), abs(c1 - c0)
        sr, sc = (1 if r1 > r0 else -1), (1 if c1 > c0 else -1)
        err = dc - dr
        cells = [a]
        r, c = r0, c0
        while (r, c) != (r1, c1):
            twice = 2 * err
            if twice > -dr:
                err -= dr
                c += sc
            if twice < dc:
                err += dc
                r += sr
            cells.append(r * self.cols + c)
        return cells

    def flood(
        self, start: Cell, limit: int, closed: frozenset[Cell] | set[Cell], stops: frozenset[Cell] | set[Cell],
        diagonal: bool = False, parents: bool = True,
    ) -> SearchResult:
        """Returns :meth:`search` with unit costs where ``closed`` cells cannot be entered and
        ``stops`` cells can be entered but not crossed (a faster path for the common case).
        Without ``parents`` the result knows distances only (no paths)."""
        return _search.flood(self.adjacency(diagonal), start, limit, closed, stops, parents)

    def search(
        self,
        start: Cell,
        limit: int,
        can_enter: Callable[[Cell], bool],
        can_continue: Callable[[Cell], bool],
        cost: Callable[[Cell], int] | None = None,
        diagonal: bool = False,
    ) -> SearchResult:
        """Returns the cells reachable from ``start`` within ``limit`` steps (or cost); see
        :func:`referee.geometry.search.search`. ``diagonal`` allows diagonal steps."""
        return _search.search(self.adjacency(diagonal), start, limit, can_enter, can_continue, cost)
