"""Iliad position files (umpire mode) and set-up files, and their conversion to states.

A position gives the day, the hour, the side to move, every counter's square (or ``dead``; a
counter not listed is dead, a Thracian from day 3 gone), the wounded, the wall, Achilles, and
what was lost today; optionally the start squares that differ from ``deployment.yaml`` and the
moves, attacks and shots already declared in the current move. ``referee schema iliad`` prints
its JSON Schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.errors import NotationError, PositionError, RefereeError, UnknownNameError
from referee.game import validate_file
from referee.games.iliad import actions as act
from referee.games.iliad.board import Terrain
from referee.games.iliad.roster import CounterId, Side
from referee.games.iliad.sequence import available
from referee.games.iliad.state import IliadState, Phase
from referee.games.iliad.tables import IliadTables
from referee.geometry.search import Cell
from referee.i18n import _

DEAD = "dead"
GONE = "gone"


class IliadPosition(BaseModel):
    """A moment of an Iliad game, for umpire commands (``referee schema iliad``)."""

    model_config = ConfigDict(extra="forbid")

    game: Literal["iliad"] = "iliad"
    day: int = Field(default=1, ge=1, description="Day 1 to 4.")
    hour: int = Field(default=1, ge=1, description="Hour of the day (1 = dawn).")
    side: Side = Field(default=Side.GREEK, description="Side to move (the Greeks move first each hour).")
    phase: Literal["setup", "move", "duel", "night", "over"] | None = Field(
        default=None,
        description="Omitted: 'duel' when the calendar schedules a duel this hour that can be fought and "
        "nothing was declared yet, else 'move'.",
    )
    counters: dict[str, str] = Field(
        default_factory=dict,
        description="Counter -> square, 'dead' or 'gone' (Thracians from day 3). Unlisted counters are dead "
        "(gone for Thracians from day 3; not yet placed in the set-up phase).",
    )
    start: dict[str, str] = Field(default_factory=dict, description="Start squares differing from deployment.yaml.")
    wounded: list[str] = Field(default_factory=list, description="Wounded counters (halved dice, no move).")
    wall: bool | None = Field(default=None, description="Is the Greek wall built? Omitted: as the calendar says.")
    achilles: Literal["sulks", "in-play"] | None = Field(
        default=None, description="Omitted: he sulks until the calendar's hour, then is in play.")
    lost_today: dict[Side, list[str]] = Field(default_factory=dict, description="Counters each side lost today.")
    points_lost_today: dict[Side, int] = Field(
        default_factory=dict, description="Points each side lost today (omitted: the value of lost_today).")
    moved: list[str] = Field(default_factory=list, description="Counters that already moved in this move.")
    attacks: list[str] = Field(default_factory=list, description="Attacks declared in this move: 'Diomede x Ettore'.")
    shots: list[str] = Field(default_factory=list, description="Shots declared in this move: 'Teucro shoots Ettore'.")
    winner: Side | None = None


class SetupFile(BaseModel):
    """A complete deployment for ``referee new iliad --setup FILE``."""

    model_config = ConfigDict(extra="forbid")

    game: Literal["iliad"] = "iliad"
    greek: dict[str, str] = Field(description="Greek counter -> start square.")
    trojan: dict[str, str] = Field(description="Trojan counter -> start square.")


class _Reader:
    """Turns names and squares of a file into ids and cells, errors naming file and field."""

    def __init__(self, tables: IliadTables, state: IliadState, label: str) -> None:
        self.tables, self.state, self.label = tables, state, label

    def counter(self, name: str, where: str) -> CounterId:
        try:
            return self.tables.counter(name).id
        except RefereeError as exc:
            raise PositionError(self.label, where, str(exc)) from None

    def cell(self, text: str, where: str) -> Cell:
        grid = self.tables.board.grid
        try:
            cell = grid.parse(text)
        except UnknownNameError:
            raise PositionError(self.label, where, _("{text} is not a square of the map (A1 to {last})").format(
                text=repr(text), last=grid.name(grid.size - 1))) from None
        if self.tables.board.squares[cell].terrain is Terrain.SEA:
            raise PositionError(self.label, where, _("{square} is open sea").format(square=grid.name(cell)))
        return cell

    def action(self, text: str, where: str) -> act.IliadAction:
        try:
            return act.parse_action(self.state, text)
        except (NotationError, UnknownNameError) as exc:
            raise PositionError(self.label, where, str(exc)) from None


@dataclass(frozen=True)
class Declared:
    """What a position declares of the move under way, each with its field, still to be judged
    (:mod:`referee.games.iliad.declarations`)."""

    attacks: tuple[tuple[str, act.Attack], ...] = ()
    moved: tuple[tuple[str, CounterId], ...] = ()
    shots: tuple[tuple[str, act.Shoot], ...] = ()

    def any(self) -> bool:
        """True when the position declares anything of the move under way."""
        return bool(self.attacks or self.moved or self.shots)


def state_from_position(tables: IliadTables, data: object, label: str) -> tuple[IliadState, Declared]:
    """Returns the state a position file describes, without its declarations, and the
    declarations (judged by the engine before they are applied).

    Raises:
        PositionError: malformed or impossible position (names the file and field).
    """
    pos = validate_file(IliadPosition, data, label)
    assert isinstance(pos, IliadPosition)
    cal = tables.calendar
    if pos.day > cal.days or pos.hour > cal.hours:
        raise PositionError(label, "day" if pos.day > cal.days else "hour",
                            _("the calendar has {days} days of {hours} hours").format(days=cal.days, hours=cal.hours))
    blank = IliadState(tables=tables, phase=Phase.MOVE, day=pos.day, hour=pos.hour, side=pos.side)
    read = _Reader(tables, blank, label)
    gone_by_now = cal.reached(cal.thracians_leave, pos.day, pos.hour)
    where: dict[CounterId, Cell] = {}
    holder: dict[Cell, CounterId] = {}
    dead: list[CounterId] = []
    removed: list[CounterId] = []
    listed: set[CounterId] = set()
    for name, square in pos.counters.items():
        field = f"counters.{name}"
        ident = read.counter(name, field)
        if ident in listed:
            raise PositionError(label, field, _("{counter} is listed twice").format(counter=ident))
        listed.add(ident)
        value = square.strip().lower()
        if value == DEAD:
            dead.append(ident)
            continue
        if value == GONE:
            if not tables.of(ident).thracian:
                raise PositionError(label, field, _("only Thracians leave the game; {counter} is not one").format(
                    counter=ident))
            removed.append(ident)
            continue
        if tables.of(ident).thracian and gone_by_now:
            raise PositionError(label, field, _("{counter} left with the Thracians before day {day} hour "
                                                "{hour}").format(counter=ident, day=pos.day, hour=pos.hour))
        cell = read.cell(square, field)
        if cell in holder:
            raise PositionError(label, field, _("{counter} and {other} are both on {square}; counters never share a "
                                                "square").format(counter=ident, other=holder[cell],
                                                                 square=tables.board.name(cell)))
        holder[cell] = ident
        where[ident] = cell
    for c in tables.roster.counters:
        if c.id not in listed and pos.phase != "setup":
            (removed if c.thracian and gone_by_now else dead).append(c.id)
    start = dict(tables.deployment)
    for name, square in pos.start.items():
        start[read.counter(name, f"start.{name}")] = read.cell(square, f"start.{name}")
    taken: dict[Cell, CounterId] = {}
    for ident, cell in start.items():
        if cell in taken:
            raise PositionError(label, "start", _("{counter} and {other} would both start on {square}").format(
                counter=ident, other=taken[cell], square=tables.board.name(cell)))
        taken[cell] = ident
    wounded = []
    for name in pos.wounded:
        ident = read.counter(name, "wounded")
        if ident not in where:
            raise PositionError(label, "wounded", _("{counter} is not on the map").format(counter=ident))
        wounded.append(ident)
    lost: dict[Side, tuple[CounterId, ...]] = {}
    points: dict[Side, int] = {}
    for side in Side:
        names = [read.counter(n, f"lost_today.{side}") for n in pos.lost_today.get(side, [])]
        for ident in names:
            if ident not in dead and ident not in removed:
                raise PositionError(label, f"lost_today.{side}", _("{counter} is not dead").format(counter=ident))
            if tables.of(ident).side is not side:
                raise PositionError(label, f"lost_today.{side}", _("{counter} is not {adjective}").format(
                    counter=ident, adjective=_(side.adjective)))
        worth = sum(tables.of(i).value for i in names)
        given = pos.points_lost_today.get(side, worth)
        if given < worth:
            raise PositionError(label, f"points_lost_today.{side}", _("{given} is less than the {worth} points of "
                                                                     "lost_today").format(given=given, worth=worth))
        if names:
            lost[side] = tuple(names)
        if given:
            points[side] = given
    wall = pos.wall if pos.wall is not None else cal.reached(cal.wall, pos.day, pos.hour)
    sulks = pos.achilles == "sulks" if pos.achilles is not None else not cal.reached(cal.achilles_enters, pos.day,
                                                                                     pos.hour)
    state = blank.model_copy(update={
        "where": where, "start": start, "dead": tuple(dead), "removed": tuple(removed), "wounded": tuple(wounded),
        "wall": wall, "achilles_sulks": sulks, "lost": lost, "lost_points": points,
    })
    seen: dict[CounterId, str] = {}
    for i, name in enumerate(pos.moved):
        seen.setdefault(read.counter(name, f"moved[{i}]"), f"moved[{i}]")
    moved = tuple((field, ident) for ident, field in seen.items())
    attacks: list[tuple[str, act.Attack]] = []
    shots: list[tuple[str, act.Shoot]] = []
    for i, text in enumerate(pos.attacks):
        action = read.action(text, f"attacks[{i}]")
        if not isinstance(action, act.Attack):
            raise PositionError(label, f"attacks[{i}]", _("{text} is not an attack ('HERO x ENEMY')").format(
                text=repr(text)))
        attacks.append((f"attacks[{i}]", action))
    for i, text in enumerate(pos.shots):
        action = read.action(text, f"shots[{i}]")
        if not isinstance(action, act.Shoot):
            raise PositionError(label, f"shots[{i}]", _("{text} is not a shot ('ARCHER shoots ENEMY')").format(
                text=repr(text)))
        shots.append((f"shots[{i}]", action))
    declared = Declared(attacks=tuple(attacks), moved=moved, shots=tuple(shots))
    update: dict[str, object] = {"phase": _phase(state, pos, declared)}
    if pos.winner is not None:
        update.update(winner=pos.winner, win_reason=f"the {pos.winner.label} have won")
    return state.model_copy(update=update), declared


def _phase(state: IliadState, pos: IliadPosition, declared: Declared) -> Phase:
    if pos.phase is not None:
        return Phase(pos.phase)
    if pos.winner is not None:
        return Phase.OVER
    duel = state.tables.calendar.duel(pos.day, pos.hour)
    if (duel is not None and pos.side is Side.GREEK and not declared.any()
            and available(state, duel.greek) and available(state, duel.trojan)):
        return Phase.DUEL
    return Phase.MOVE


def position_of(state: IliadState) -> IliadPosition:
    """Returns the position-file model of a state."""
    tables = state.tables
    grid = tables.board.grid
    counters = {c.id: grid.name(state.where[c.id]) for c in tables.roster.counters if c.id in state.where}
    start = {k: grid.name(v) for k, v in state.start.items() if tables.deployment.get(k) != v}
    declared = {a.attacker for a in state.attacks} | {s.archer for s in state.shots}
    return IliadPosition(
        day=state.day, hour=state.hour, side=state.side, phase=state.phase.value, counters=counters,
        start=start, wounded=list(state.wounded), wall=state.wall,
        achilles="sulks" if state.achilles_sulks else "in-play",
        lost_today={side: list(v) for side, v in state.lost.items()},
        points_lost_today=dict(state.lost_points),
        moved=[m for m in state.moved if m not in declared],
        attacks=[f"{a.attacker} x {', '.join(a.targets)}" for a in state.attacks],
        shots=[f"{s.archer} shoots {s.target}" for s in state.shots],
        winner=state.winner,
    )
