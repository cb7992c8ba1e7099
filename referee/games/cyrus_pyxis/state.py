"""Cyrus & Pyxis state: what the referee tracks, and who stands where (occupancy).

The vocabulary and tables are in :mod:`~referee.games.cyrus_pyxis.tables`, position files in
:mod:`~referee.games.cyrus_pyxis.position`. Vocabulary: a *legion* is a counter; *line N* is
every cell numbered N (numbers run West 1 to East 12, letters A-L run across); a *pending
combat* is a cell holding a legion of each side.
"""

from __future__ import annotations

from pydantic import Field

from referee.game import GameState
from referee.games.cyrus_pyxis.tables import (
    CellName,
    CyrusTables,
    Legion,
    LegionId,
    Phase,
    Side,
    Terrain,
)
from referee.geometry.search import Cell
from referee.i18n import _
from referee.rulings import Ruling

# ---------------------------------------------------------------------------------------------
# State


class CyrusState(GameState):
    """Everything the referee tracks. ``where`` holds legions still in play."""

    tables: CyrusTables = Field(exclude=True, repr=False)
    phase: Phase
    setup_step: int = 0
    active: Side = Side.GREEK
    turn: int = 1
    terrain: dict[Cell, Terrain] = Field(default_factory=dict)
    where: dict[LegionId, Cell] = Field(default_factory=dict)
    moved: tuple[LegionId, ...] = ()
    supports: dict[LegionId, LegionId] = Field(default_factory=dict, description="archer -> legion")
    declaring: Side | None = None
    winner: Side | None = None
    win_reason: str | None = None
    win: Ruling | None = Field(default=None, exclude=True, description="The victory ruling (said in any language).")

    def terrain_at(self, cell: Cell) -> Terrain:
        """Returns the terrain of a cell (plain unless a token lies there)."""
        return self.terrain.get(cell, Terrain.PLAIN)

    def name(self, cell: Cell) -> CellName:
        """Returns a cell's printed name."""
        return CellName(self.tables.grid.name(cell))


def english(ruling: Ruling) -> str:
    """Returns a ruling's sentence in English, whatever the active language: what the state keeps
    (``win_reason``) must hash alike in every language, so a journal replays in any of them."""
    if ruling.template is None:
        return ruling.message
    return ruling.template.format(**dict(ruling.args))


def win_text(state: CyrusState) -> str:
    """I, III.5: why the game is over, in the active language."""
    if state.win is not None:
        return state.win.text()
    return _(state.win_reason or "the game is over")


class Occupancy:
    """Who stands where, computed once per state from ``state.where`` (see :func:`occupancy`)."""

    __slots__ = ("cells", "enemy_of", "pending", "state")

    def __init__(self, state: CyrusState) -> None:
        self.state = state
        cells: dict[Cell, list[Legion]] = {}
        by_id = state.tables.by_id
        greek: set[Cell] = set()
        persian: set[Cell] = set()
        for name, cell in state.where.items():
            lg = by_id[name]
            here = cells.get(cell)
            if here is None:
                cells[cell] = [lg]
            else:
                here.append(lg)
            (greek if lg.side is Side.GREEK else persian).add(cell)
        self.cells = cells
        self.pending: frozenset[Cell] = frozenset(greek & persian)
        self.enemy_of: dict[Side, frozenset[Cell]] = {Side.GREEK: frozenset(persian), Side.PERSIAN: frozenset(greek)}

    def after_move(self, state: CyrusState, legion: Legion, start: Cell, end: Cell) -> Occupancy:
        """Returns the occupancy of ``state``, which is this one with ``legion`` moved (fast path)."""
        new = Occupancy.__new__(Occupancy)
        new.state = state
        cells = dict(self.cells)
        left = [lg for lg in cells[start] if lg is not legion]
        if left:
            cells[start] = left
        else:
            del cells[start]
        cells[end] = [*cells.get(end, ()), legion]
        new.cells = cells
        own = set(self.enemy_of[legion.side.other])
        own.discard(start)
        own.add(end)
        new.enemy_of = {legion.side.other: frozenset(own), legion.side: self.enemy_of[legion.side]}
        new.pending = frozenset(own & self.enemy_of[legion.side])
        return new

    def blocking(self, side: Side) -> tuple[frozenset[Cell], frozenset[Cell]]:
        """V: for a side's move, the cells holding an enemy and those holding a pending combat."""
        return self.enemy_of[side], self.pending

    def at(self, cell: Cell) -> list[Legion]:
        """Returns the legions on a cell."""
        return self.cells.get(cell, [])

    def side_at(self, cell: Cell, side: Side) -> Legion | None:
        """Returns the legion of a side on a cell, if any."""
        for lg in self.cells.get(cell, ()):
            if lg.side is side:
                return lg
        return None

    def has_enemy(self, cell: Cell, side: Side) -> bool:
        """True when a legion of the other side stands on the cell."""
        return cell in self.enemy_of[side]

    def combats(self) -> list[Cell]:
        """Returns the cells holding a pending combat."""
        return sorted(self.pending)

    def combat_of(self, legion: Legion) -> Cell | None:
        """Returns the combat cell a legion is engaged in, if any."""
        cell = self.state.where.get(legion.name)
        if cell is not None and cell in self.pending:
            return cell
        return None


_LAST: list[tuple[CyrusState, Occupancy]] = []


def occupancy(state: CyrusState) -> Occupancy:
    """Returns the occupancy of a state, reusing the last one computed for the same object."""
    if _LAST and _LAST[0][0] is state:
        return _LAST[0][1]
    occ = Occupancy(state)
    _LAST[:] = [(state, occ)]
    return occ


def remember(occ: Occupancy) -> None:
    """Makes ``occ`` the cached occupancy of its state (``apply`` knows it without recounting)."""
    _LAST[:] = [(occ.state, occ)]
