"""Iliad game state (the tables it is played with are in :mod:`~referee.games.iliad.tables`).

Vocabulary: a *counter* is a hero with his followers; a *hero* has a value above 1 (duels are
between heroes); *value-1 counters* include the archers (A). The *zone* of a counter is its four
orthogonal neighbours (ZOC); an *attack* links a mover to the enemies it attacks this move; the
*camp* is the ground inside the Greek wall.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from referee.game import GameState
from referee.games.iliad.board import Terrain
from referee.games.iliad.roster import Counter, CounterId, Side
from referee.games.iliad.tables import IliadTables
from referee.geometry.search import Cell


class Phase(StrEnum):
    """Where the game stands."""

    SETUP = "setup"
    MOVE = "move"
    DUEL = "duel"
    NIGHT = "night"
    OVER = "over"


# ---------------------------------------------------------------------------------------------
# State


class Attack(BaseModel):
    """Combattimento: regole generali: a counter's attack this move on one or more enemies."""

    model_config = ConfigDict(frozen=True)

    attacker: CounterId
    targets: tuple[CounterId, ...]


class Shot(BaseModel):
    """Combattimento: arcieri: an archer's shot this move."""

    model_config = ConfigDict(frozen=True)

    archer: CounterId
    target: CounterId


class IliadState(GameState):
    """Everything the referee tracks. ``where`` holds the counters on the map."""

    tables: IliadTables = Field(exclude=True, repr=False)
    phase: Phase
    day: int = 1
    hour: int = 1
    side: Side = Side.GREEK
    where: dict[CounterId, Cell] = Field(default_factory=dict)
    start: dict[CounterId, Cell] = Field(default_factory=dict)
    dead: tuple[CounterId, ...] = ()
    removed: tuple[CounterId, ...] = Field(default=(), description="Thracians gone from day 3.")
    wounded: tuple[CounterId, ...] = ()
    moved: tuple[CounterId, ...] = Field(default=(), description="Counters that moved or attacked this move.")
    attacks: tuple[Attack, ...] = ()
    shots: tuple[Shot, ...] = ()
    wall: bool = False
    achilles_sulks: bool = True
    lost: dict[Side, tuple[CounterId, ...]] = Field(default_factory=dict, description="Counters lost today.")
    lost_points: dict[Side, int] = Field(default_factory=dict, description="Points lost today.")
    winner: Side | None = None
    win_reason: str | None = None

    @model_validator(mode="after")
    def _no_stacking(self) -> IliadState:
        if len(set(self.where.values())) != len(self.where):
            raise ValueError("two counters on one square")
        return self

    def counter(self, ident: CounterId) -> Counter:
        """The roster entry of a counter id."""
        return self.tables.roster.by_id[ident]

    def name(self, cell: Cell) -> str:
        """A square's printed name."""
        return self.tables.board.grid.name(cell)

    def terrain(self, cell: Cell) -> Terrain:
        """Movimento: regole particolari: the ground of a square (a wall not yet built is plain)."""
        terrain = self.tables.board.squares[cell].terrain
        if terrain is Terrain.WALL and not self.wall:
            return Terrain.PLAIN
        return terrain

    def favoured(self) -> Side | None:
        """Il calendario: the side the gods favour this hour."""
        return self.tables.calendar.favoured(self.day, self.hour)

    def sulking(self, ident: CounterId) -> bool:
        """Il calendario: True for Achilles while he sulks."""
        return self.achilles_sulks and self.counter(ident).achilles

    def points_lost(self, side: Side) -> int:
        """La notte: the points a side lost today."""
        return self.lost_points.get(side, 0)


def occupancy(state: IliadState) -> dict[Cell, CounterId]:
    """Returns who stands on each occupied square."""
    return {cell: ident for ident, cell in state.where.items()}
