"""Board geometry behind one protocol: square grids and hex maps.

A game's rules ask its board for names, neighbours, distances, straight lines and searches and
never care which shape answers. :class:`Topology` is that contract; :class:`SquareGrid` and
:class:`HexGrid` implement it, and ``tests/test_geometry.py`` runs the same contract tests on both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from referee.geometry.hexes import HexGrid
from referee.geometry.search import Cell, SearchResult
from referee.geometry.square import SquareGrid, row_label

__all__ = ["Cell", "HexGrid", "SearchResult", "SquareGrid", "Topology", "row_label"]


@runtime_checkable
class Topology(Protocol):
    """What every board offers the rules (cells are ints ``0 .. size - 1``)."""

    size: int

    def cells(self) -> range:
        """Every cell index."""
        ...

    def name(self, cell: Cell) -> str:
        """The cell's printed name."""
        ...

    def parse(self, text: str) -> Cell:
        """The cell a name denotes; raises UnknownNameError with suggestions."""
        ...

    def is_cell_name(self, text: str) -> bool:
        """Whether a text names a cell."""
        ...

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """Cells one step away (portals and bridges included where the map has them)."""
        ...

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps between two cells across the printed board."""
        ...

    def line(self, a: Cell, b: Cell) -> list[Cell]:
        """The straight line from ``a`` to ``b``, both included."""
        ...

    def centre(self, cell: Cell) -> tuple[float, float]:
        """Where the cell's centre is drawn, in the board's own units (x right, y down)."""
        ...

    def search(
        self,
        start: Cell,
        limit: int,
        can_enter: Callable[[Cell], bool],
        can_continue: Callable[[Cell], bool],
        cost: Callable[[Cell], int] | None = None,
    ) -> SearchResult:
        """Cells reachable within a step or cost limit."""
        ...
