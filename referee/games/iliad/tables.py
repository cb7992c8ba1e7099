"""Iliad's data: the schema of its deployment file, and every table of a game once loaded and
checked (:class:`IliadTables`: the counters and calendar of :mod:`~referee.games.iliad.roster`,
the map of :mod:`~referee.games.iliad.board`, the deployment, the rule readings in force).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from pydantic import BaseModel, ConfigDict

from referee.errors import TableError, UnknownNameError
from referee.games.iliad.board import IliadMap, MapFile, parse_map
from referee.games.iliad.roster import (
    Calendar,
    CalendarFile,
    Counter,
    CounterId,
    DuelTableRow,
    Roster,
    RosterFile,
    Side,
    calendar_of,
    check_duel_table,
    counters_of,
)
from referee.geometry.search import Cell
from referee.i18n import N_, _
from referee.phrases import form
from referee.rulings import Provenance, RulesIndex
from referee.tables import TableSet, by_digest, parse_csv, parse_yaml

INTERPRETATIONS: tuple[str, ...] = (
    "achilles-entry", "battle-tie", "second-wound", "diagonal-movement", "archer-line", "wall-zones",
    "wall-doubling", "doubling-stack", "duel-hour", "duel-availability", "archer-value", "archer-zone",
    "arrow-wound", "wounded-in-battle", "wound-heals", "wounded-placement", "wounded-idle", "attack-in-place",
    "move-once", "battle-sides", "duel-half-points", "duel-equal-totals", "duel-large-difference",
    "achilles-zone", "night-rounding", "night-choice", "thracian-losses", "camp-start", "troy-ground", "victory-timing",
    "zone-stop", "doubled-movement", "arrow-target-zones",
)
"""Every interpretation the engine applies; rules.yaml must list each (a user may switch options)."""


SAMPLE_MAP = form(N_("map.yaml: sample map ({provenance})"))
"""A stand-in line stored in English, said again in the reader's language by phrases.say."""

class DeploymentFile(BaseModel):
    """Schema of ``deployment.yaml``: the start square of every counter."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provenance: Provenance
    greek: dict[str, str]
    trojan: dict[str, str]


@dataclass(frozen=True)
class IliadTables:
    """Every Iliad table, validated and indexed."""

    table_set: TableSet
    rules: RulesIndex
    board: IliadMap
    roster: Roster
    calendar: Calendar
    duel_table: tuple[DuelTableRow, ...]
    deployment: Mapping[CounterId, Cell]
    deployment_provenance: Provenance
    colours: Mapping[Side, tuple[int, int, int]]
    choices: Mapping[str, str] = field(default_factory=dict)

    def counter(self, name: str) -> Counter:
        """Returns a counter by any of its names.

        Raises:
            UnknownNameError: no such counter; suggests the closest names.
        """
        return self.roster.find(name)

    def of(self, ident: CounterId) -> Counter:
        """Returns a counter by its canonical id."""
        return self.roster.by_id[ident]

    def choice(self, ident: str) -> str:
        """Returns the reading applied for an interpretation."""
        return self.choices[ident]

    def interpretation(self, ident: str) -> str:
        """Returns the disclosure of an interpretation for verdicts and results."""
        return self.rules.interpretation(ident).label()

    def duel_result(self, throw: int, difference: int) -> DuelTableRow:
        """Combattimento: duello: the band of a throw for a rounded difference."""
        found = self._bands.get((throw, difference))
        if found is not None:
            return found
        for row in self.duel_table:
            if row.throw == throw and row.covers(difference):
                return row
        raise AssertionError(f"no duel band for throw {throw}, difference {difference}")

    @cached_property
    def _bands(self) -> dict[tuple[int, int], DuelTableRow]:
        return {(row.throw, d): row for row in self.duel_table for d in range(row.min_difference, 31)
                if row.covers(d)}

    def map_disclosure(self) -> str:
        """The disclosure of the map's provenance."""
        return SAMPLE_MAP.format(provenance=self.board.provenance)


@by_digest
def load_tables(table_set: TableSet) -> IliadTables:
    """Returns the validated tables of a table set (cached by content hash).

    Raises:
        TableError: a file is missing or malformed (file: field: problem).
    """
    ts = table_set
    rules = parse_yaml(ts.label("rules.yaml"), ts.text("rules.yaml"), RulesIndex)
    choices = rules.require(ts.label("rules.yaml"), INTERPRETATIONS)
    roster_file = parse_yaml(ts.label("roster.yaml"), ts.text("roster.yaml"), RosterFile)
    roster = Roster(counters_of(roster_file))
    calendar_file = parse_yaml(ts.label("calendar.yaml"), ts.text("calendar.yaml"), CalendarFile)
    try:
        calendar = calendar_of(calendar_file, roster)
    except ValueError as exc:
        raise TableError(ts.label("calendar.yaml"), "duels", str(exc)) from None
    board = parse_map(ts.label("map.yaml"), parse_yaml(ts.label("map.yaml"), ts.text("map.yaml"), MapFile))
    duel_rows = parse_csv(ts.label("duel.csv"), ts.text("duel.csv"), DuelTableRow)
    problem = check_duel_table(duel_rows)
    if problem:
        raise TableError(ts.label("duel.csv"), "difference", problem)
    for side in Side:
        need, have = len(roster.side(side)), len(board.starts(side))
        if have < need:
            raise TableError(ts.label("map.yaml"), "legend",
                             _("{have} start squares of the {side} for {need} counters").format(
                                 have=have, side=_(side.label), need=need))
    deploy_file = parse_yaml(ts.label("deployment.yaml"), ts.text("deployment.yaml"), DeploymentFile)
    deployment = _deployment(ts.label("deployment.yaml"), deploy_file, roster, board)
    return IliadTables(
        table_set=ts, rules=rules, board=board, roster=roster, calendar=calendar, duel_table=tuple(duel_rows),
        deployment=deployment, deployment_provenance=deploy_file.provenance,
        colours={side: row.colour for side, row in roster_file.sides.items()}, choices=choices,
    )


def _deployment(label: str, file: DeploymentFile, roster: Roster, board: IliadMap) -> dict[CounterId, Cell]:

    out: dict[CounterId, Cell] = {}
    used: dict[Cell, CounterId] = {}
    for side in Side:
        for name, square in getattr(file, side.value).items():
            where = f"{side.value}.{name}"
            try:
                counter = roster.find(name)
                cell = board.grid.parse(square)
            except UnknownNameError as exc:
                raise TableError(label, where, str(exc)) from None
            if counter.side is not side or counter.id in out:
                raise TableError(label, where, _("{counter} is listed twice or under the wrong side").format(
                    counter=counter.id))
            if board.squares[cell].start is not side:
                raise TableError(label, where, _("{square} is not a start square of the {side}").format(
                    square=board.name(cell), side=_(side.label)))
            if cell in used:
                raise TableError(label, where, _("{square} already holds {counter}").format(
                    square=board.name(cell), counter=used[cell]))
            out[counter.id] = cell
            used[cell] = counter.id
    missing = [c.id for c in roster.counters if c.id not in out]
    if missing:
        raise TableError(label, "", _("no start square for {counters}").format(counters=", ".join(missing[:4])))
    return out
