"""300-solo actions and their notation (city names in any accepted spelling, case-insensitive).

Greek player:

- preparation: ``buy 2 cards``, ``buy 1 army Athenai``, ``buy 1 fleet Sparta``, ``done``;
- operations: ``move 2 Athenai -> Thebai`` (a road route, optional middle cities), ``sail 2
  Athenai -> Eretria carry 1``, ``event Wrath of Poseidon`` (spend a card on its event; its
  effect is an ``adjust``), ``pass``;
- battles: ``fight`` (one round), ``resolve`` (to the end), ``retreat Thebai``; ``burn bridge``;
- supply: ``keep 3`` (cards kept), ``remove 1 Thebai`` (attrition), ``done``.

PERS.IA: ``persia prepare``, ``persia operate``, ``persia supply``. Start from a position:
``setup {JSON position}``. Overrides (``referee adjust``): ``set Athenai greek armies 2``,
``add Ephesos persian armies -1``, ``score -1``, ``bridge built|destroyed``, ``hand greece 3``,
``portraits greece 1``, ``campaign 4``, ``talents 5``, ``turn greece|persia``.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from referee.base import fold
from referee.errors import NotationError
from referee.game import Action
from referee.games.earth_water.movement import auto_path
from referee.games.earth_water.state import CityName, EarthWaterState, Side, many

_ARROWS = re.compile(r"\s*(?:->|→|=>|,)\s*")
Unit = Literal["armies", "fleets"]


class Setup(Action):
    """Start the game file from a position (before any other action)."""

    position: str

    def text(self) -> str:
        return f"setup {self.position}"


class Persia(Action):
    """PERS.IA runs a procedure: preparation (4), an operation (5) or supply (6)."""

    procedure: Literal["prepare", "operate", "supply"]

    def text(self) -> str:
        return f"persia {self.procedure}"


class Buy(Action):
    """base 5: buy cards, or raise armies or fleets in a city."""

    what: Literal["cards", "army", "fleet"]
    count: int
    city: CityName | None = None

    def text(self) -> str:
        if self.what == "cards":
            return f"buy {many(self.count, 'card')}"
        return f"buy {many(self.count, self.what)} {self.city}"


class Done(Action):
    """End the Greek preparation or supply."""

    def text(self) -> str:
        return "done"


class LandMove(Action):
    """base 6.4: move armies by road along a route."""

    count: int
    path: tuple[CityName, ...]

    def text(self) -> str:
        return f"move {self.count} {' -> '.join(self.path)}"


class NavalMove(Action):
    """base 6.5: sail fleets to another port, carrying armies."""

    fleets: int
    start: CityName
    goal: CityName
    armies: int = 0

    def text(self) -> str:
        return f"sail {self.fleets} {self.start} -> {self.goal}" + (f" carry {self.armies}" if self.armies else "")


class Event(Action):
    """base 6: spend a card on its event (the player applies the effect with adjust)."""

    name: str

    def text(self) -> str:
        return f"event {self.name}"


class Pass(Action):
    """base 6: pass the operation."""

    def text(self) -> str:
        return "pass"


class Fight(Action):
    """base 7: fight one round (``to_end``: until the battle is over)."""

    to_end: bool = False

    def text(self) -> str:
        return "resolve" if self.to_end else "fight"


class Retreat(Action):
    """base 7: the Greek units of the battle retreat."""

    city: CityName

    def text(self) -> str:
        return f"retreat {self.city}"


class BurnBridge(Action):
    """base 7 bridge: Greece destroys the bridge after taking Abydos."""

    def text(self) -> str:
        return "burn bridge"


class Keep(Action):
    """base 8.1: Greece keeps this many cards."""

    count: int

    def text(self) -> str:
        return f"keep {self.count}"


class Remove(Action):
    """base 8.2: Greece removes armies for attrition."""

    count: int
    city: CityName

    def text(self) -> str:
        return f"remove {self.count} {self.city}"


class Adjust(Action):
    """Base of every umpire override."""

    def is_adjust(self) -> bool:
        return True


class SetUnits(Adjust):
    """Override: set (or change by) a count of units in a city."""

    city: CityName
    side: Side
    unit: Unit
    count: int
    relative: bool = False

    def text(self) -> str:
        return f"{'add' if self.relative else 'set'} {self.city} {self.side} {self.unit} {self.count}"


class SetValue(Adjust):
    """Override: the score, campaign, Greek talents, a hand, portraits, bridge or turn."""

    field: Literal["score", "campaign", "talents", "hand", "portraits", "bridge", "turn"]
    value: int
    side: Side | None = None

    def text(self) -> str:
        if self.field == "bridge":
            return f"bridge {'built' if self.value else 'destroyed'}"
        if self.field == "turn":
            return f"turn {self.side}"
        if self.side is not None:
            return f"{self.field} {self.side} {self.value}"
        return f"{self.field} {self.value}"


EarthWaterAction = (Setup | Persia | Buy | Done | LandMove | NavalMove | Event | Pass | Fight | Retreat | BurnBridge
                    | Keep | Remove | SetUnits | SetValue)

USAGE = ("actions: buy N cards | buy N army|fleet CITY | done | move N CITY -> CITY | sail N PORT -> PORT "
         "[carry M] | event NAME | pass | fight | resolve | retreat CITY | burn bridge | keep N | remove N CITY "
         "| persia prepare|operate|supply")
ADJUST_USAGE = ("overrides: set CITY greek|persian armies|fleets N | add CITY greek|persian armies|fleets ±N | "
                "score N | bridge built|destroyed | hand greece|persia N | portraits greece|persia N | campaign N "
                "| talents N | turn greece|persia")


def _words(text: str) -> list[str]:
    return [w for w in _ARROWS.sub(" ", text.strip()).split() if w]


def _count(word: str, text: str, signed: bool = False) -> int:
    try:
        value = int(word)
    except ValueError:
        raise NotationError(f"{text!r}: {word!r} is not a whole number") from None
    if value < 1 and not signed:
        raise NotationError(f"{text!r}: a count is a whole number from 1, not {value}")
    return value


def _side(word: str) -> Side:
    key = fold(word)
    if key in ("greece", "greek", "greeks", "grece", "grec", "grecs"):
        return Side.GREECE
    if key in ("persia", "persian", "persians", "perse", "perses"):
        return Side.PERSIA
    raise NotationError(f"{word!r} is not a side: greece or persia")


def _unit(word: str) -> Unit:
    key = fold(word)
    if key in ("army", "armies", "armee", "armees"):
        return "armies"
    if key in ("fleet", "fleets", "flotte", "flottes"):
        return "fleets"
    raise NotationError(f"{word!r} is not a unit: armies or fleets")


def parse_action(state: EarthWaterState, text: str) -> EarthWaterAction:
    """Returns the action a text names.

    Raises:
        NotationError: not an action of 300-solo.
        UnknownNameError: an unknown city, with suggestions.
    """
    words = _words(text)
    if not words:
        raise NotationError(f"empty action; {USAGE}")
    head, rest = fold(words[0]), words[1:]
    city = state.tables.city
    if head == "setup" and rest:
        return Setup(position=text.strip()[len(words[0]):].strip())
    procedures = ("prepare", "operate", "supply")
    if head in ("persia", "pers.ia") and len(rest) == 1 and fold(rest[0]) in procedures:
        return Persia(procedure=fold(rest[0]))
    if head in ("done", "end") and not rest:
        return Done()
    if head == "pass" and not rest:
        return Pass()
    if head == "fight" and not rest:
        return Fight()
    if head == "resolve" and not rest:
        return Fight(to_end=True)
    if head == "burn" and [fold(w) for w in rest] in (["bridge"], ["the", "bridge"]):
        return BurnBridge()
    if head == "retreat" and len(rest) == 1:
        return Retreat(city=city(rest[0]))
    if head == "keep" and len(rest) == 1:
        kept = _count(rest[0], text, signed=True)
        if kept < 0:
            raise NotationError(f"{text!r}: a count is a whole number from 0, not {kept}")
        return Keep(count=kept)
    if head == "remove" and len(rest) == 2:
        return Remove(count=_count(rest[0], text), city=city(rest[1]))
    if head == "event" and rest:
        return Event(name=" ".join(rest))
    if head == "buy":
        return _parse_buy(state, rest, text)
    if head == "move" and len(rest) >= 3:
        count = _count(rest[0], text)
        path = tuple(city(w) for w in rest[1:])
        if len(path) == 2:
            path = auto_path(state, Side.GREECE, path[0], path[1])
        return LandMove(count=count, path=path)
    if head == "sail" and len(rest) in (3, 5):
        armies = 0
        if len(rest) == 5:
            if fold(rest[3]) not in ("carry", "with"):
                raise NotationError(f"{text!r}: write 'sail N PORT -> PORT carry M'")
            armies = _count(rest[4], text, signed=True)
            if armies < 0:
                raise NotationError(f"{text!r}: a count is a whole number from 0, not {armies}")
        return NavalMove(fleets=_count(rest[0], text), start=city(rest[1]), goal=city(rest[2]), armies=armies)
    raise NotationError(f"{text!r} is not a 300-solo action; {USAGE}")


def _parse_buy(state: EarthWaterState, rest: list[str], text: str) -> Buy:
    if len(rest) == 2 and fold(rest[1]) in ("card", "cards"):
        return Buy(what="cards", count=_count(rest[0], text))
    if len(rest) == 3 and fold(rest[1]) in ("army", "armies", "fleet", "fleets"):
        what: Literal["army", "fleet"] = "army" if fold(rest[1]).startswith("arm") else "fleet"
        return Buy(what=what, count=_count(rest[0], text), city=state.tables.city(rest[2]))
    if len(rest) == 2 and fold(rest[0]) in ("army", "fleet"):
        return Buy(what="army" if fold(rest[0]) == "army" else "fleet", count=1, city=state.tables.city(rest[1]))
    raise NotationError(f"{text!r}: write 'buy N cards', 'buy N army CITY' or 'buy N fleet CITY'")


def parse_adjust(state: EarthWaterState, text: str) -> EarthWaterAction:
    """Returns the override a text names.

    Raises:
        NotationError: not an override of 300-solo.
        UnknownNameError: an unknown city.
    """
    words = _words(text)
    if not words:
        raise NotationError(f"empty override; {ADJUST_USAGE}")
    head, rest = fold(words[0]), words[1:]
    if head in ("set", "add") and len(rest) == 4:
        return SetUnits(city=state.tables.city(rest[0]), side=_side(rest[1]), unit=_unit(rest[2]),
                        count=_count(rest[3], text, signed=True), relative=head == "add")
    if head in ("score", "campaign", "talents") and len(rest) == 1:
        return SetValue(field=head, value=_count(rest[0], text, signed=True))
    if head in ("hand", "portraits") and len(rest) == 2:
        return SetValue(field=head, side=_side(rest[0]), value=_count(rest[1], text, signed=True))
    if head == "bridge" and len(rest) == 1 and fold(rest[0]) in ("built", "destroyed", "on", "off"):
        return SetValue(field="bridge", value=int(fold(rest[0]) in ("built", "on")))
    if head == "turn" and len(rest) == 1:
        return SetValue(field="turn", side=_side(rest[0]), value=0)
    raise NotationError(f"{text!r} is not a 300-solo override; {ADJUST_USAGE}")


def setup_text(position: dict[str, object]) -> str:
    """Returns the ``setup`` action text of a position (compact JSON)."""
    return "setup " + json.dumps(position, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
