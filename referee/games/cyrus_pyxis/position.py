"""Cyrus & Pyxis position files: their schema (``referee schema cyrus-pyxis``), set-up files,
and the conversions between a file and a state. What a position *declares* is judged afterwards,
through the engine's own checks (:mod:`referee.games.cyrus_pyxis.declarations`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.errors import PositionError, UnknownNameError
from referee.game import validate_file
from referee.games.cyrus_pyxis.rules import GAME_END, GOAL
from referee.games.cyrus_pyxis.state import CyrusState, english
from referee.games.cyrus_pyxis.tables import CyrusTables, LegionId, Phase, Side, Terrain
from referee.geometry.search import Cell
from referee.i18n import _
from referee.rulings import Ruling

__all__ = ["CyrusPosition", "SetupFile", "TerrainSpec", "cell_key", "read_position", "write_position"]


class TerrainSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    forest: list[str] = Field(default_factory=list, description="Cells holding a forest token.")
    hill: list[str] = Field(default_factory=list, description="Cells holding a hill token.")


class CyrusPosition(BaseModel):
    """A moment of a Cyrus & Pyxis game, for umpire commands (``referee schema cyrus-pyxis``).

    A cell holding one Greek and one Persian legion is a pending combat whose attacker belongs
    to ``active``. Legions not listed are eliminated.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    game: Literal["cyrus-pyxis"] = "cyrus-pyxis"
    active: Side = Field(default=Side.GREEK, description="Side to play; its legions are the attackers.")
    phase: Literal["move", "support", "combat", "over"] | None = Field(
        default=None,
        description="Step of the turn; omitted, moves and supports are each judged in their own step.",
    )
    declaring: Side | None = Field(default=None, description="In the support step: who declares now.")
    turn: int = Field(default=1, ge=1, description="Turn number (a Greek and a Persian turn each).")
    terrain: TerrainSpec = Field(default_factory=TerrainSpec)
    greek: dict[str, str] = Field(default_factory=dict, description="Greek legion -> cell.")
    persian: dict[str, str] = Field(default_factory=dict, description="Persian legion -> cell.")
    moved: list[str] = Field(default_factory=list, description="Legions of the active side already moved.")
    supports: dict[str, str] = Field(default_factory=dict, description="Archer -> supported legion.")
    winner: Side | None = None


class SetupFile(BaseModel):
    """A complete set-up for ``referee new cyrus-pyxis --setup FILE``, played in rule order."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    game: Literal["cyrus-pyxis"] = "cyrus-pyxis"
    terrain: dict[Side, TerrainSpec] = Field(description="Tokens each side lays (II.1, II.2).")
    greek: dict[str, str] = Field(description="Greek legion -> cell on lines 1-2 (II.3).")
    persian: dict[str, str] = Field(description="Persian legion -> cell on lines 11-12 (II.4).")


def read_position(tables: CyrusTables, data: object, label: str) -> tuple[CyrusState, CyrusPosition]:
    """Returns the state a position file describes (names and cells checked, declarations not yet
    judged) and the file's model.

    Raises:
        PositionError: malformed file, unknown name or cell, two legions of a side on a cell.
    """
    pos = validate_file(CyrusPosition, data, label)
    grid = tables.grid

    def cell_of(text: str, field: str) -> Cell:
        try:
            return grid.parse(text)
        except UnknownNameError as exc:
            raise PositionError(label, field, _("{problem}; cells run A1 to {last}").format(
                problem=exc, last=grid.name(grid.size - 1))) from None

    def legion_of(name: str, field: str) -> LegionId:
        try:
            return tables.legion(name).name
        except UnknownNameError as exc:
            raise PositionError(label, field, str(exc)) from None

    terrain: dict[Cell, Terrain] = {}
    for kind in ("forest", "hill"):
        for text in getattr(pos.terrain, kind):
            cell = cell_of(text, f"terrain.{kind}")
            if cell in terrain and terrain[cell].value != kind:
                raise PositionError(label, f"terrain.{kind}", _("{cell} is both forest and hill").format(
                    cell=grid.name(cell)))
            terrain[cell] = Terrain(kind)
    where: dict[LegionId, Cell] = {}
    for side in Side:
        seen: dict[Cell, LegionId] = {}
        for name, text in getattr(pos, side.value).items():
            lid = legion_of(name, f"{side}.{name}")
            if tables.by_id[lid].side is not side:
                raise PositionError(label, f"{side}.{name}", _("{legion} is a {side} legion").format(
                    legion=lid, side=_(tables.by_id[lid].side.value)))
            if lid in where:
                raise PositionError(label, f"{side}.{name}", _("{legion} is listed twice").format(legion=lid))
            cell = cell_of(text, f"{side}.{name}")
            if cell in seen:
                raise PositionError(
                    label, f"{side}.{name}", _("{legion} and {other} are both on {cell}; one legion per side per "
                                               "cell").format(legion=lid, other=seen[cell], cell=grid.name(cell)),
                )
            seen[cell] = lid
            where[lid] = cell
    moved = [legion_of(name, "moved") for name in pos.moved]
    supports: dict[LegionId, LegionId] = {}
    for archer, legion in pos.supports.items():
        aid = legion_of(archer, f"supports.{archer}")
        supports[aid] = legion_of(legion, f"supports.{archer}")
    phase = Phase(pos.phase) if pos.phase else Phase.ANY
    declaring = pos.declaring
    if declaring is None and phase is Phase.SUPPORT:  # VI.1: the defender declares once the attacker is done
        defending = any(tables.by_id[a].side is not pos.active for a in supports)
        declaring = pos.active.other if defending else pos.active
    won: Ruling | None = None
    if pos.winner is not None:
        phase = Phase.OVER
        won = Ruling.event("victory", "the {side} side won", (GOAL, GAME_END), side=pos.winner.value)
    state = CyrusState(
        tables=tables, phase=phase, active=pos.active, turn=pos.turn, terrain=terrain, where=where,
        moved=tuple(moved), supports=supports, declaring=declaring if phase is Phase.SUPPORT else None,
        winner=pos.winner, win_reason=english(won) if won else None, win=won,
    )
    return state, pos


def write_position(state: CyrusState) -> CyrusPosition:
    """Returns the position-file model of a state."""
    s = state
    grid = s.tables.grid
    order = {lg.name: i for i, lg in enumerate(s.tables.legions)}
    by_side: dict[Side, dict[str, str]] = {Side.GREEK: {}, Side.PERSIAN: {}}
    for name in sorted(s.where, key=order.__getitem__):
        by_side[s.tables.by_id[name].side][name] = grid.name(s.where[name])
    phase: str | None
    phase = None if s.phase in (Phase.ANY, Phase.SETUP) else s.phase.value
    return CyrusPosition(
        active=s.active,
        phase=phase,
        declaring=s.declaring,
        turn=s.turn,
        terrain=TerrainSpec(
            forest=sorted((grid.name(c) for c, t in s.terrain.items() if t is Terrain.FOREST), key=cell_key),
            hill=sorted((grid.name(c) for c, t in s.terrain.items() if t is Terrain.HILL), key=cell_key),
        ),
        greek=by_side[Side.GREEK],
        persian=by_side[Side.PERSIAN],
        moved=list(s.moved),
        supports=dict(s.supports),
        winner=s.winner,
    )


def cell_key(name: str) -> tuple[int, int]:
    """Sort key of a cell name: row letter, then column number."""
    return (ord(name[0]), int(name[1:])) if name[1:].isdigit() else (999, 0)
