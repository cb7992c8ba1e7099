"""300: Earth & Water solo: sides, phases, the schemas of the table files and the validated tables.

Vocabulary: a *Major* is one of the four Major cities (Abydos and Ephesos for Persia, Athenai
and Sparta for Greece); *control* follows "base control".
"""

from __future__ import annotations

import difflib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, NewType

from pydantic import Field, model_validator

from referee.base import Sourced, StrictModel, TwoSides, fold
from referee.errors import TableError, UnknownNameError
from referee.games.earth_water.cards import CardsFile
from referee.i18n import N_
from referee.rulings import Interpretation, Provenance, RulesIndex
from referee.tables import TableSet, by_digest, packaged_table_set, parse_yaml

CityName = NewType("CityName", str)


class Side(TwoSides):
    """The two players; PERS.IA plays Persia."""

    GREECE = "greece"
    PERSIA = "persia"

    @property
    def label(self) -> str:
        """Capitalised English name (a ruling argument: the catalogs translate it when shown)."""
        return N_("Greece") if self is Side.GREECE else N_("Persia")

    @property
    def adjective(self) -> str:
        """'Greek' or 'Persian' (English; translated as a ruling argument)."""
        return N_("Greek") if self is Side.GREECE else N_("Persian")


class Phase(StrEnum):
    """Where the campaign stands. ``any`` is an umpire position naming no phase."""

    PERSIAN_PREPARATION = "persian-preparation"
    GREEK_PREPARATION = "greek-preparation"
    OPERATIONS = "operations"
    PERSIAN_SUPPLY = "persian-supply"
    GREEK_SUPPLY = "greek-supply"
    OVER = "over"
    ANY = "any"




# ---------------------------------------------------------------------------------------------
# Table schemas




class CityRow(StrictModel):
    major: Side | None = Field(default=None, description="The side whose Major city this is.")
    amphorae: int = Field(ge=0, le=9, description="Food for attrition (base 8.2).")
    value: int = Field(ge=0, le=9, description="Points when controlled (base 9).")
    port: bool = Field(description="Whether the city has a port (base map).")
    aliases: tuple[str, ...] = Field(default=(), description="Other spellings accepted in input.")
    provenance: Provenance


class Road(StrictModel):
    between: tuple[str, str]
    provenance: Provenance


class MapFile(StrictModel):
    cities: dict[str, CityRow]
    roads: tuple[Road, ...]
    bridge: Road

    @model_validator(mode="after")
    def _check(self) -> MapFile:
        for road in (*self.roads, self.bridge):
            for end in road.between:
                if end not in self.cities:
                    raise ValueError(f"road {road.between}: no city {end!r}")
        for side in Side:
            if sum(1 for c in self.cities.values() if c.major is side) != 2:
                raise ValueError(f"{side} needs exactly two Major cities")
        seen: dict[str, str] = {}
        for name, row in self.cities.items():
            for alias in (name, *row.aliases):
                key = fold(alias)
                if key in seen and seen[key] != name:
                    raise ValueError(f"{alias!r} names both {seen[key]} and {name}")
                seen[key] = name
        return self


Valued = Sourced[int]


class ValuedCities(StrictModel):
    value: int
    cities: tuple[str, ...]
    provenance: Provenance


class Named(StrictModel):
    value: str
    provenance: Provenance


class Flag(StrictModel):
    value: bool
    provenance: Provenance


class Ordered(StrictModel):
    order: dict[str, int] = Field(min_length=1, description="City -> rank (1 = first).")
    provenance: Provenance

    @model_validator(mode="after")
    def _check(self) -> Ordered:
        if sorted(self.order.values()) != list(range(1, len(self.order) + 1)):
            raise ValueError("ranks must run 1, 2, 3... without gaps or repeats")
        return self

    @property
    def cities(self) -> tuple[str, ...]:
        """The cities from first to last."""
        return tuple(sorted(self.order, key=self.order.__getitem__))


class Share(StrictModel):
    divide_by: int = Field(ge=1)
    rounding: Literal["up", "down"]
    provenance: Provenance

    def of(self, count: int) -> int:
        """Returns the share of a number of armies, rounded as the rule says."""
        if self.rounding == "up":
            return -(-count // self.divide_by)
        return count // self.divide_by


class Situation(StrictModel):
    cards: int = Field(ge=0)
    armies: int | None = Field(default=None, ge=0)
    provenance: Provenance


Operation = Literal["pass", "march", "destroy-army", "destroy-fleet", "place"]


class Face(StrictModel):
    operation: Operation
    provenance: Provenance


class Fallback(StrictModel):
    then: Operation
    provenance: Provenance


class Costs(StrictModel):
    card: Valued
    army: Valued
    fleet: Valued
    bridge: Valued | None = None


class PersiaFile(StrictModel):
    talents: Valued
    costs: Costs
    situations: dict[Literal["A", "B", "C", "D"], Situation]
    army_order_b: Ordered
    army_order_c: Ordered
    fleet_order_b: Ordered
    minor_city_cap: Valued
    activation_order: Ordered
    activation_unlisted: Ordered
    defence_share: Share
    march_share: Share
    march_goal: Named
    keep_in_majors: ValuedCities
    destroy_army_order: Ordered
    destroy_fleet_order: Ordered
    place_order: Ordered
    attrition_order: Ordered
    faces: dict[int, Face]
    fallbacks: dict[str, Fallback]

    @model_validator(mode="after")
    def _check(self) -> PersiaFile:
        if set(self.faces) != {1, 2, 3, 4, 5, 6}:
            raise ValueError("faces: give an operation for each face 1 to 6")
        if set("ABCD") - set(self.situations):
            raise ValueError("situations: A, B, C and D are all needed")
        if self.costs.bridge is None:
            raise ValueError("costs.bridge: PERS.IA's bridge cost is needed (3.D)")
        return self


class BaseFile(StrictModel):
    greek_talents: Valued
    greek_costs: Costs
    cards_per_preparation: Valued
    fleets_per_preparation: Valued
    deck: Valued
    greek_armies: Valued
    greek_fleets: Valued
    greek_heroes: Valued
    greek_hand_kept: Valued
    battle_dice: Valued
    persian_die_cap: Valued
    persian_die_cap_at_home: ValuedCities
    naval_carry: Valued
    score_track: Valued
    last_campaign: Valued


class SetupGarrison(StrictModel):
    greek_armies: int = Field(default=0, ge=0)
    greek_fleets: int = Field(default=0, ge=0)
    persian_armies: int = Field(default=0, ge=0)
    persian_fleets: int = Field(default=0, ge=0)
    provenance: Provenance


class Portraits(StrictModel):
    persia: int = Field(default=2, ge=0, description="Persian armies on the king portraits.")
    greece: int = Field(default=0, ge=0, description="Greek armies on hero portraits.")


class SetupPortraits(Portraits):
    provenance: Provenance


class SetupFile(StrictModel):
    campaign: Valued
    score: Valued
    bridge: Flag
    portraits: SetupPortraits
    cities: dict[str, SetupGarrison]




# ---------------------------------------------------------------------------------------------
# Validated tables


@dataclass(frozen=True)
class EarthWaterTables:
    """Every 300-solo table, validated and indexed for fast queries."""

    table_set: TableSet
    rules: RulesIndex
    map: MapFile
    persia: PersiaFile
    base: BaseFile
    setup: SetupFile
    cards: CardsFile
    cities: tuple[CityName, ...] = field(init=False)
    by_fold: Mapping[str, CityName] = field(init=False)
    roads: Mapping[CityName, tuple[CityName, ...]] = field(init=False)
    bridge_ends: tuple[CityName, CityName] = field(init=False)
    sparta_steps: Mapping[bool, Mapping[CityName, int]] = field(init=False)
    activation_rank: Mapping[CityName, int] = field(init=False)

    def __post_init__(self) -> None:
        cities = tuple(CityName(c) for c in self.map.cities)
        object.__setattr__(self, "cities", cities)
        names: dict[str, CityName] = {}
        for name, row in self.map.cities.items():
            for alias in (name, *row.aliases):
                names[fold(alias)] = CityName(name)
        object.__setattr__(self, "by_fold", names)
        adjacent: dict[CityName, list[CityName]] = {c: [] for c in cities}
        for road in self.map.roads:
            a, b = (CityName(x) for x in road.between)
            adjacent[a].append(b)
            adjacent[b].append(a)
        object.__setattr__(self, "roads", {c: tuple(v) for c, v in adjacent.items()})
        ends = self.map.bridge.between
        object.__setattr__(self, "bridge_ends", (CityName(ends[0]), CityName(ends[1])))
        goal = CityName(self.persia.march_goal.value)
        steps = {built: self._steps_from(goal, built) for built in (True, False)}
        object.__setattr__(self, "sparta_steps", steps)
        order = (*self.persia.activation_order.cities, *self.persia.activation_unlisted.cities)
        object.__setattr__(self, "activation_rank", {CityName(c): i for i, c in enumerate(order)})

    def _steps_from(self, start: CityName, bridge: bool) -> dict[CityName, int]:
        steps = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.adjacent(here, bridge):
                if there not in steps:
                    steps[there] = steps[here] + 1
                    queue.append(there)
        return steps

    def adjacent(self, city: CityName, bridge: bool) -> tuple[CityName, ...]:
        """base map: the cities one road away (the Abydos–Pella bridge only while built)."""
        near = self.roads[city]
        if bridge and city in self.bridge_ends:
            other = self.bridge_ends[1] if city == self.bridge_ends[0] else self.bridge_ends[0]
            return (*near, other)
        return near

    def city(self, text: str) -> CityName:
        """Returns a city by any accepted spelling, case- and accent-insensitively.

        Raises:
            UnknownNameError: no city has this name; suggests the closest.
        """
        found = self.by_fold.get(fold(text))
        if found is not None:
            return found
        close = difflib.get_close_matches(fold(text), list(self.by_fold), n=3, cutoff=0.5)
        suggestions = list(dict.fromkeys(self.by_fold[c] for c in close))
        raise UnknownNameError("city", text, suggestions or list(self.cities))

    def row(self, city: CityName) -> CityRow:
        """Returns a city's map row."""
        return self.map.cities[city]

    def majors(self, side: Side) -> tuple[CityName, ...]:
        """base map: the two Major cities of a side."""
        return tuple(c for c in self.cities if self.map.cities[c].major is side)

    def ports(self) -> tuple[CityName, ...]:
        """base map: the cities with a port."""
        return tuple(c for c in self.cities if self.map.cities[c].port)

    def is_minor(self, city: CityName) -> bool:
        """Interpretation minor-city: any city that is not one of the four Majors."""
        return self.map.cities[city].major is None

    def order(self, ordered: Ordered) -> tuple[CityName, ...]:
        """Returns a city list of a table as city names."""
        return tuple(CityName(c) for c in ordered.cities)

    def interpretation(self, ident: str) -> Interpretation:
        """Returns an interpretation of rules.yaml (its id is checked at load time)."""
        return self.rules.interpretation(ident)


INTERPRETATIONS = (
    "bridge-needs-army", "situations-continue", "persia-purchase-caps", "occupied-port-city",
    "fleet-order", "minor-city", "activation-reachable", "defence-target", "defence-keeps-none",
    "march-toward-sparta", "march-count", "isolated-army", "fallback-discard",
    "naval-battle-attacker", "minor-fleet-city", "fallback-loop", "die-pass", "unsupplied-first",
    "no-points-armies", "attrition-once", "persian-attrition-majors", "sea-supply",
    "supply-lines", "attacker-retreat", "sea-retreat", "bridge-burning", "greek-supply-order",
)
@by_digest
def load_tables(table_set: TableSet) -> EarthWaterTables:
    """Returns the validated tables of a table set (cached by content hash).

    Raises:
        TableError: a file is missing or malformed (file: field: problem).
    """
    ts = table_set
    rules = parse_yaml(ts.label("rules.yaml"), ts.text("rules.yaml"), RulesIndex)
    map_file = parse_yaml(ts.label("map.yaml"), ts.text("map.yaml"), MapFile)
    persia = parse_yaml(ts.label("persia.yaml"), ts.text("persia.yaml"), PersiaFile)
    base = parse_yaml(ts.label("base.yaml"), ts.text("base.yaml"), BaseFile)
    setup = parse_yaml(ts.label("setup.yaml"), ts.text("setup.yaml"), SetupFile)
    # game files made before the cards were data carry no cards.yaml: they get the packaged deck
    cards_set = ts if "cards.yaml" in ts.files else packaged_table_set("300-solo")
    cards = parse_yaml(cards_set.label("cards.yaml"), cards_set.text("cards.yaml"), CardsFile)
    rules.require(ts.label("rules.yaml"), INTERPRETATIONS)
    known = set(map_file.cities)
    lists = {
        "army_order_b": persia.army_order_b, "army_order_c": persia.army_order_c,
        "fleet_order_b": persia.fleet_order_b, "activation_order": persia.activation_order,
        "activation_unlisted": persia.activation_unlisted,
        "destroy_army_order": persia.destroy_army_order,
        "destroy_fleet_order": persia.destroy_fleet_order, "place_order": persia.place_order,
        "attrition_order": persia.attrition_order,
    }
    for name, ordered in lists.items():
        for city in ordered.order:
            if city not in known:
                raise TableError(ts.label("persia.yaml"), f"{name}.order", f"no city {city!r} on the map")
    for number, card in cards.cards.items():
        for city in card.effect.cities if isinstance(card.effect.cities, tuple) else ():
            if city not in known:
                raise TableError(cards_set.label("cards.yaml"), f"cards.{number}.effect.cities",
                                 f"no city {city!r} on the map")
    for label, cities in (("persia.yaml", (persia.march_goal.value, *persia.keep_in_majors.cities)),
                          ("base.yaml", base.persian_die_cap_at_home.cities), ("setup.yaml", setup.cities)):
        for city in cities:
            if city not in known:
                raise TableError(ts.label(label), "cities", f"no city {city!r} on the map")
    return EarthWaterTables(table_set=ts, rules=rules, map=map_file, persia=persia, base=base, setup=setup,
                            cards=cards)
