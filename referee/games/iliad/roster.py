"""The counters, the calendar and the duel table of Iliad, as validated table data.

Files: ``roster.yaml`` (28 Greeks, 23 Trojans, a reconstruction), ``calendar.yaml`` (the four
days, a reconstruction) and ``duel.csv`` (the rulebook's three-row duel table). Names are
matched in Italian, French or English, ignoring case, accents and punctuation.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, NewType

from pydantic import Field, model_validator

from referee.base import StrictModel, TwoSides, fold_words
from referee.errors import AmbiguousActionError, UnknownNameError
from referee.i18n import N_, _
from referee.rulings import Provenance

CounterId = NewType("CounterId", str)
"""A counter's canonical name: its Italian name as printed (``"Aiace Telamonio"``)."""

GREEK_COUNT = 28  # I pezzi con cui si gioca: the box holds 28 Greek counters
TROJAN_COUNT = 23  # I pezzi con cui si gioca: and 23 Trojan ones
ARCHER_MARK = "A"  # I pezzi con cui si gioca: archers show A instead of a value


class Side(TwoSides):
    """The two players."""

    GREEK = "greek"
    TROJAN = "trojan"

    @property
    def label(self) -> str:
        """Plural name for messages: Greeks, Trojans (English; a message argument, translated
        when the message is shown)."""
        return _SIDE_WORDS[self.value][0]

    @property
    def adjective(self) -> str:
        """Greek, Trojan (English; translated when shown)."""
        return _SIDE_WORDS[self.value][1]


SIDE_NAMES = (N_("greek"), N_("trojan"))
"""The sides as a journal names them, said in the players' language (logs, prompts, legends)."""
_SIDE_WORDS = {"greek": (N_("Greeks"), N_("Greek")), "trojan": (N_("Trojans"), N_("Trojan"))}
RESULT_WORDS = (N_("nothing"), N_("wounded"), N_("killed"), N_("unhurt"))
"""Words of duel and shot results, translated when a message shows them."""


Result = Literal["nothing", "wounded", "killed"]




# ---------------------------------------------------------------------------------------------
# Schemas




class SideRow(StrictModel):
    label: str
    colour: tuple[int, int, int] = Field(description="RGB of the side's counters.")
    provenance: Provenance


class CounterRow(StrictModel):
    id: str = Field(description="Row id in this file (G01, T01...); not used in actions.")
    it: str = Field(description="Italian name, as printed on the counter; the referee's canonical name.")
    fr: str = Field(description="French name.")
    en: str = Field(description="English name.")
    aliases: tuple[str, ...] = Field(default=(), description="Other accepted spellings.")
    short: str = Field(min_length=2, max_length=3, description="Label drawn on the board.")
    city: str
    value: int | Literal["A"] = Field(description="1 to 9, or A for an archer.")
    thracian: bool = Field(default=False, description="Leaves the game from day 3 (Il calendario).")
    achilles: bool = Field(default=False, description="Sulks until day 4 (Il calendario).")
    provenance: Provenance

    @model_validator(mode="after")
    def _check(self) -> CounterRow:
        if isinstance(self.value, int) and not 1 <= self.value <= 9:
            raise ValueError(_("value {value} of {counter} is not 1 to 9 or A").format(
                value=self.value, counter=self.it))
        return self


class RosterFile(StrictModel):
    sides: dict[Side, SideRow]
    greek: tuple[CounterRow, ...]
    trojan: tuple[CounterRow, ...]

    @model_validator(mode="after")
    def _check(self) -> RosterFile:
        if set(self.sides) != set(Side):
            raise ValueError(_("sides: give both greek and trojan"))
        if not self.greek or not self.trojan:
            raise ValueError(_("each side needs at least one counter"))
        owners: dict[str, str] = {}
        shorts: dict[str, str] = {}
        for row in (*self.greek, *self.trojan):
            for alias in {fold_words(a) for a in (row.it, row.fr, row.en, *row.aliases)}:
                if not alias:
                    raise ValueError(_("{counter}: an empty name").format(counter=row.it))
                if owners.get(alias, row.it) != row.it:
                    raise ValueError(_("{counter} and {other} share the name {name}").format(
                        counter=row.it, other=owners[alias], name=repr(alias)))
                owners[alias] = row.it
            key = row.short.casefold()
            if key in shorts:
                raise ValueError(_("{counter} and {other} share the short label {label}").format(
                    counter=row.it, other=shorts[key], label=repr(row.short)))
            shorts[key] = row.it
        for row in self.trojan:
            if row.achilles:
                raise ValueError(_("{counter}: only a Greek counter can be Achilles").format(counter=row.it))
        for row in self.greek:
            if row.thracian:
                raise ValueError(_("{counter}: only Trojan counters are Thracians").format(counter=row.it))
        if sum(1 for r in self.greek if r.achilles) > 1:
            raise ValueError(_("greek: at most one counter is Achilles"))
        return self


class HourMark(StrictModel):
    day: int = Field(ge=1)
    hour: int = Field(ge=1)
    note: str = ""
    provenance: Provenance


class Counted(StrictModel):
    value: int = Field(ge=1, le=24)
    provenance: Provenance


class AdvantageRow(StrictModel):
    day: int = Field(ge=1)
    from_: int = Field(ge=1, alias="from")
    to: int = Field(ge=1)
    side: Side
    note: str = ""
    provenance: Provenance


class DuelRow(StrictModel):
    day: int = Field(ge=1)
    hour: int = Field(ge=1)
    greek: str
    trojan: str
    enabled: bool = True
    note: str = ""
    provenance: Provenance


class CalendarFile(StrictModel):
    days: Counted
    hours_per_day: Counted
    wall: HourMark
    achilles_enters: HourMark
    thracians_leave: HourMark
    advantage: tuple[AdvantageRow, ...] = ()
    duels: tuple[DuelRow, ...] = ()

    @model_validator(mode="after")
    def _check(self) -> CalendarFile:
        days, hours = self.days.value, self.hours_per_day.value
        for name in ("wall", "achilles_enters", "thracians_leave"):
            mark: HourMark = getattr(self, name)
            if mark.day > days or mark.hour > hours:
                raise ValueError(_("{field}: day {day} hour {hour} is not in the calendar").format(
                    field=name, day=mark.day, hour=mark.hour))
        seen: dict[tuple[int, int], Side] = {}
        for row in self.advantage:
            if row.day > days or row.to > hours or row.from_ > row.to:
                raise ValueError(_("advantage: day {day} hours {first}-{last} are not in the calendar").format(
                    day=row.day, first=row.from_, last=row.to))
            for hour in range(row.from_, row.to + 1):
                if (row.day, hour) in seen:
                    raise ValueError(_("advantage: day {day} hour {hour} is listed twice").format(
                        day=row.day, hour=hour))
                seen[(row.day, hour)] = row.side
        slots: set[tuple[int, int]] = set()
        for duel in self.duels:
            if duel.day > days or duel.hour > hours:
                raise ValueError(_("duels: day {day} hour {hour} is not in the calendar").format(
                    day=duel.day, hour=duel.hour))
            if duel.enabled and (duel.day, duel.hour) in slots:
                raise ValueError(_("duels: two duels at day {day} hour {hour}").format(day=duel.day, hour=duel.hour))
            if duel.enabled:
                slots.add((duel.day, duel.hour))
        return self


class DuelTableRow(StrictModel):
    throw: int = Field(ge=1, le=3)
    min_difference: int = Field(ge=0)
    max_difference: int | None = None
    result: Result
    provenance: Provenance

    def covers(self, difference: int) -> bool:
        """True when a (rounded) difference falls in this band."""
        return self.min_difference <= difference and (self.max_difference is None or difference <= self.max_difference)


# ---------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class Counter:
    """One counter of the roster."""

    id: CounterId
    short: str
    side: Side
    printed: int | None
    """The printed value; None for an archer (A)."""
    archer: bool
    thracian: bool
    achilles: bool
    names: tuple[str, ...]
    city: str
    provenance: Provenance

    @property
    def value(self) -> int:
        """Its fighting value (an archer counts 1: interpretation archer-value)."""
        return 1 if self.printed is None else self.printed

    @property
    def hero(self) -> bool:
        """Combattimento: duello: a hero has a value above 1 (archers are not heroes)."""
        return self.value > 1

    @property
    def value_label(self) -> str:
        """'6' or 'A'."""
        return ARCHER_MARK if self.archer else str(self.value)

    @property
    def label(self) -> str:
        """'Menelao (4)' for messages."""
        return f"{self.id} ({self.value_label})"


@dataclass(frozen=True)
class Duel:
    """A duel the calendar schedules."""

    day: int
    hour: int
    greek: CounterId
    trojan: CounterId
    provenance: Provenance


@dataclass(frozen=True)
class Calendar:
    """The calendar as lookups."""

    days: int
    hours: int
    wall: tuple[int, int]
    achilles_enters: tuple[int, int]
    thracians_leave: tuple[int, int]
    advantage: Mapping[tuple[int, int], Side]
    duels: Mapping[tuple[int, int], Duel]
    provenance: Mapping[str, Provenance]

    def favoured(self, day: int, hour: int) -> Side | None:
        """Il calendario: the side the gods favour at this hour, if any."""
        return self.advantage.get((day, hour))

    def duel(self, day: int, hour: int) -> Duel | None:
        """Il calendario: the duel scheduled at this hour, if any."""
        return self.duels.get((day, hour))

    def reached(self, mark: tuple[int, int], day: int, hour: int) -> bool:
        """True when (day, hour) is at or after a calendar mark."""
        return (day, hour) >= mark


class Roster:
    """The counters with name lookup in three languages."""

    def __init__(self, counters: Iterable[Counter]) -> None:
        self.counters = tuple(counters)
        self.by_id: dict[str, Counter] = {c.id: c for c in self.counters}
        self.by_alias: dict[str, Counter] = {}
        for c in self.counters:
            for name in c.names:
                self.by_alias[fold_words(name)] = c
            self.by_alias.setdefault(c.short.casefold(), c)

    def side(self, side: Side) -> tuple[Counter, ...]:
        """The counters of one side, in roster order."""
        return tuple(c for c in self.counters if c.side is side)

    def find(self, name: str) -> Counter:
        """Returns a counter by any of its names (or a unique beginning of one).

        Raises:
            UnknownNameError: no counter matches; suggests the closest names.
            AmbiguousActionError: the text begins several counters' names.
        """
        key = fold_words(name)
        found = self.by_alias.get(key)
        if found is not None:
            return found
        if key:
            starts = {c.id: c for alias, c in self.by_alias.items() if alias.startswith(key)}
            if len(starts) == 1:
                return next(iter(starts.values()))
            if starts:
                options = ", ".join(repr(n) for n in sorted(starts)[:4])
                raise AmbiguousActionError(_("{name} names several heroes: {options}").format(
                    name=repr(name), options=options))
        close = difflib.get_close_matches(key, list(self.by_alias), n=6, cutoff=0.6)
        names = list(dict.fromkeys(self.by_alias[c].id for c in close))[:3]
        raise UnknownNameError("hero", name, names)


def counters_of(file: RosterFile) -> list[Counter]:
    """Returns the roster's counters, Greeks first."""
    out: list[Counter] = []
    for side, rows in ((Side.GREEK, file.greek), (Side.TROJAN, file.trojan)):
        for row in rows:
            printed = None if row.value == ARCHER_MARK else int(row.value)
            out.append(Counter(
                id=CounterId(row.it), short=row.short, side=side, printed=printed, archer=printed is None,
                thracian=row.thracian, achilles=row.achilles, names=(row.it, row.fr, row.en, *row.aliases),
                city=row.city, provenance=row.provenance,
            ))
    return out


def calendar_of(file: CalendarFile, roster: Roster) -> Calendar:
    """Returns the calendar with its duellists resolved to counters.

    Raises:
        ValueError: a duellist is unknown or on the wrong side (reported as a table error).
    """
    advantage = {(row.day, h): row.side for row in file.advantage for h in range(row.from_, row.to + 1)}
    duels: dict[tuple[int, int], Duel] = {}
    for row in file.duels:
        if not row.enabled:
            continue
        pair: list[CounterId] = []
        for side, name in ((Side.GREEK, row.greek), (Side.TROJAN, row.trojan)):
            try:
                counter = roster.find(name)
            except UnknownNameError as exc:
                raise ValueError(_("duels: day {day} hour {hour}: {problem}").format(
                    day=row.day, hour=row.hour, problem=exc)) from None
            if counter.side is not side or not counter.hero:
                raise ValueError(_("duels: day {day} hour {hour}: {counter} is not a hero of the {side}").format(
                    day=row.day, hour=row.hour, counter=counter.id, side=_(side.label)))
            pair.append(counter.id)
        duels[(row.day, row.hour)] = Duel(row.day, row.hour, pair[0], pair[1], row.provenance)
    return Calendar(
        days=file.days.value, hours=file.hours_per_day.value,
        wall=(file.wall.day, file.wall.hour),
        achilles_enters=(file.achilles_enters.day, file.achilles_enters.hour),
        thracians_leave=(file.thracians_leave.day, file.thracians_leave.hour),
        advantage=advantage, duels=duels,
        provenance={"days": file.days.provenance, "hours": file.hours_per_day.provenance,
                    "wall": file.wall.provenance, "achilles": file.achilles_enters.provenance,
                    "thracians": file.thracians_leave.provenance,
                    "advantage": next((r.provenance for r in file.advantage), "reconstruction")},
    )


def check_duel_table(rows: list[DuelTableRow]) -> str | None:
    """Combattimento: duello: returns a problem if a throw's bands miss or overlap a difference."""
    for throw in (1, 2, 3):
        bands = [r for r in rows if r.throw == throw]
        if not any(r.max_difference is None for r in bands):
            return _("throw {throw}: the highest band must be open-ended (empty max_difference)").format(throw=throw)
        for d in range(0, 40):
            hits = [r for r in bands if r.covers(d)]
            if len(hits) != 1:
                if not hits:
                    return _("throw {throw}: no band covers a difference of {d}").format(throw=throw, d=d)
                return _("throw {throw}: {n} bands cover a difference of {d}").format(throw=throw, n=len(hits), d=d)
    return None
