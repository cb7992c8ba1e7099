"""Square-grid geometry shared by the square-board games and the vision package.

Cells are ints (``row * cols + col``, zero-based) for speed; names are a row letter and a column
number, ``"H7"`` (rows past Z continue AA, AB, ...). Cyrus & Pyxis and the vision package put
the numbers along ``u`` (x in a picture) and the letters along ``v`` (y).

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
import heapq
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field

from referee.errors import UnknownNameError

Cell = int
"""A cell index: ``row * cols + col``."""

ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))
DIAGONAL: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 1), (1, 1), (1, -1))
_NAME = re.compile(r"^\s*([A-Za-z]{1,2})\s*-?\s*(\d{1,3})\s*$")


def row_label(row: int) -> str:
    """Returns the letters of a zero-based row: 0 → A, 25 → Z, 26 → AA."""
    if row < 26:
        return chr(ord("A") + row)
    return chr(ord("A") + row // 26 - 1) + chr(ord("A") + row % 26)


@dataclass(frozen=True)
class SearchResult:
    """Distances and parents found by :meth:`SquareGrid.search` from one start cell."""

    start: Cell
    distance: dict[Cell, int]
    parent: dict[Cell, Cell]

    def path(self, goal: Cell) -> list[Cell]:
        """Returns the cells from the start to ``goal`` inclusive (empty if unreached)."""
        if goal not in self.distance:
            return []
        cells = [goal]
        while cells[-1] != self.start:
            cells.append(self.parent[cells[-1]])
        return cells[::-1]


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
        err.hint = f"cells run from A1 to {last}"
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

    def flood(
        self, start: Cell, limit: int, closed: frozenset[Cell] | set[Cell], stops: frozenset[Cell] | set[Cell],
        diagonal: bool = False, parents: bool = True,
    ) -> SearchResult:
        """Returns :meth:`search` with unit costs where ``closed`` cells cannot be entered and
        ``stops`` cells can be entered but not crossed (a faster path for the common case).
        Without ``parents`` the result knows distances only (no paths)."""
        dist: dict[Cell, int] = {start: 0}
        parent: dict[Cell, Cell] = {}
        adjacency = self._all8 if diagonal else self._orth
        frontier = [start]
        for d in range(1, limit + 1):
            nxt_frontier: list[Cell] = []
            for here in frontier:
                for nxt in adjacency[here]:
                    if nxt in dist or nxt in closed:
                        continue
                    dist[nxt] = d
                    if parents:
                        parent[nxt] = here
                    if nxt not in stops:
                        nxt_frontier.append(nxt)
            if not nxt_frontier:
                break
            frontier = nxt_frontier
        return SearchResult(start, dist, parent)

    def search(
        self,
        start: Cell,
        limit: int,
        can_enter: Callable[[Cell], bool],
        can_continue: Callable[[Cell], bool],
        cost: Callable[[Cell], int] | None = None,
        diagonal: bool = False,
    ) -> SearchResult:
        """Returns the cells reachable from ``start`` within ``limit`` steps (or cost).

        A cell counts as reached when it may be entered; the search goes on from it only when
        ``can_continue`` allows (an enemy stops a move; a friend may be crossed). With ``cost``
        (the price of entering a cell, ≥ 1) the search is a Dijkstra; without it, a BFS.

        Args:
            start: the cell the search starts from (distance 0, always continued from).
            limit: the largest distance or total cost allowed.
            can_enter: whether a cell may be entered at all.
            can_continue: whether a move may go on after entering a cell.
            cost: entry cost per cell; None for 1 everywhere.
            diagonal: allow diagonal steps.
        """
        dist: dict[Cell, int] = {start: 0}
        parent: dict[Cell, Cell] = {}
        adjacency = self._all8 if diagonal else self._orth
        if cost is None:
            queue: deque[Cell] = deque([start])
            while queue:
                here = queue.popleft()
                d = dist[here] + 1
                if d > limit:
                    continue
                for nxt in adjacency[here]:
                    if nxt in dist or not can_enter(nxt):
                        continue
                    dist[nxt] = d
                    parent[nxt] = here
                    if can_continue(nxt):
                        queue.append(nxt)
            return SearchResult(start, dist, parent)
        heap: list[tuple[int, Cell]] = [(0, start)]
        done: set[Cell] = set()
        while heap:
            d0, here = heapq.heappop(heap)
            if here in done:
                continue
            done.add(here)
            if here != start and not can_continue(here):
                continue
            for nxt in adjacency[here]:
                if not can_enter(nxt):
                    continue
                d = d0 + cost(nxt)
                if d <= limit and d < dist.get(nxt, limit + 1):
                    dist[nxt] = d
                    parent[nxt] = here
                    heapq.heappush(heap, (d, nxt))
        return SearchResult(start, dist, parent)


# ---------------------------------------------------------------------------------------------
# Physical board geometry (printed markers), read by the vision package from board.yaml


class MarkerPlacement(BaseModel):
    """One printed ArUco marker: its id and its top-left corner in cell units."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: int = Field(ge=0, description="ArUco id.")
    u: float = Field(description="Smallest u (along the numbers, 1→12) of the marker square, in cells.")
    v: float = Field(description="Smallest v (along the letters, A→L) of the marker square, in cells.")


class MarkerLayout(BaseModel):
    """Where the corner markers sit around a board, in cell units (grid spans (0,0)-(cols,rows)).

    Each marker is upright in board coordinates: its first ArUco corner at its smallest u and v,
    then clockwise.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    dictionary: str = Field(default="DICT_4X4_50", description="OpenCV ArUco dictionary name.")
    size: float = Field(default=1.0, gt=0, description="Side of each marker square, in cells.")
    placements: tuple[MarkerPlacement, ...]
    provenance: str = Field(default="provisional", description="Where the layout comes from.")

    def corners(self, marker_id: int) -> list[tuple[float, float]]:
        """Returns the four (u, v) corners of a marker in ArUco order (TL, TR, BR, BL).

        Raises:
            KeyError: no marker has this id.
        """
        for p in self.placements:
            if p.id == marker_id:
                s = self.size
                return [(p.u, p.v), (p.u + s, p.v), (p.u + s, p.v + s), (p.u, p.v + s)]
        raise KeyError(marker_id)
