"""Zargo's Lords data: the schemas of its table files, the tables of a game once loaded, and
the readings a ruling relied on.

Every number the rulebook copy lacks is a reconstruction (``provisional`` in the files'
``provenance`` keys); the models only say what shape the data must have and check the few facts
that are certain (the rulebook's counter manifest, arrows read by distance against one die, a
retreat result in the combat table), so an owner's edit cannot break them unnoticed. Entry point:
:func:`load_tables`; a ruling records the interpretations it relies on in a :class:`Reads`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Literal

from pydantic import Field, model_validator

from referee.base import StrictModel
from referee.errors import TableError
from referee.games.zargo.world import Terrain, World, parse_world
from referee.geometry.search import Cell
from referee.rulings import RulesIndex, load_rules
from referee.tables import TableSet, by_digest, load_yaml_text, parse_yaml

__all__ = [
    "CombatTable", "CounterType", "People", "PeoplesFile", "Reads", "ShotTable", "TablesFile", "Unit", "VisionTable",
    "ZargoTables", "load_tables",
]

Kind = Literal["lord", "infantry", "archer", "sorcerer", "flyer", "flamer", "serpent", "knight", "illusionist"]
Result = Literal["AE", "AR", "-", "EX", "DR", "DE"]
RESULT_ORDER: tuple[Result, ...] = ("AE", "AR", "-", "EX", "DR", "DE")
"""Combat results from worst to best for the attacker."""




class CounterType(StrictModel):
    """One counter type of a people: names, label, manifest count and factors."""

    fr: str = Field(max_length=60)
    it: str = Field(max_length=60)
    en: str = Field(max_length=60)
    short: str = Field(min_length=2, max_length=3, description="Label drawn on the board.")
    kind: Kind
    count: int = Field(ge=1, le=99, description="Counters in the box (rulebook manifest).")
    move: int = Field(ge=1, le=20, description="Movement factor, hexes per turn (reconstruction).")
    combat: int = Field(ge=0, le=20, description="Combat factor (reconstruction).")
    powers: tuple[str, ...] = ()
    range: int | None = Field(default=None, ge=1, le=12, description="Reach of arrows, flames or visions.")
    lord: bool | None = Field(default=None, description="True for a people's lord when its kind is not 'lord'.")

    @property
    def is_lord(self) -> bool:
        """Whether this is the people's lord."""
        return self.kind == "lord" or bool(self.lord)


class Markers(StrictModel):
    """Markers a people uses (the Monks' vanished-monk markers)."""

    fr: str
    it: str
    en: str
    count: int = Field(ge=1, le=99)


class People(StrictModel):
    """One people: turn order, names, colour, city counters and counter types."""

    order: int = Field(ge=1, le=4, description="Place in the turn order (rulebook).")
    names: dict[Literal["fr", "it", "en"], str]
    colour: tuple[int, int, int]
    city_counters: int = Field(ge=1, le=9)
    counters: dict[str, CounterType] = Field(min_length=1, max_length=8)
    markers: Markers | None = None

    def manifest(self) -> int:
        """Returns the counters of this people in the box: types, cities and markers."""
        markers = self.markers.count if self.markers else 0
        return sum(c.count for c in self.counters.values()) + self.city_counters + markers


class PeoplesFile(StrictModel):
    """Schema of ``tables/zargo/peoples.yaml``."""

    peoples: dict[Literal["chevaliers", "ailes", "dragons", "moines"], People]
    provenance: dict[str, Literal["rulebook", "secondary", "interpretation", "provisional"]]

    @model_validator(mode="after")
    def _orders_are_distinct(self) -> PeoplesFile:
        orders = sorted(p.order for p in self.peoples.values())
        if orders != list(range(1, len(orders) + 1)):
            raise ValueError(f"peoples: turn orders must be 1..{len(orders)} once each, got {orders}")
        return self


class ShotTable(StrictModel):
    """Arrows or flames: a hit when die + modifiers reaches the number for the distance."""

    max_range: int = Field(ge=1, le=12)
    hit_on: dict[int, int]
    extra_flame_modifier: int | None = Field(default=None, ge=0, le=6)
    short_range: int | None = Field(
        default=None, ge=1, le=12, description="The other archers' range (rules.yaml archer-ranges).")

    @model_validator(mode="after")
    def _every_distance(self) -> ShotTable:
        if sorted(self.hit_on) != list(range(1, self.max_range + 1)):
            raise ValueError(f"hit_on: give a number for every distance 1..{self.max_range}")
        if any(self.hit_on[d] > self.hit_on[d + 1] for d in range(1, self.max_range)):
            raise ValueError("hit_on: a farther target cannot be easier to hit")
        return self


class VisionTable(StrictModel):
    """Visions: a result by die + modifiers, ``none`` or a retreat ``R<n>``."""

    max_range: int = Field(ge=1, le=12)
    results: dict[int, str]
    distance_modifier: int = Field(le=0)

    @model_validator(mode="after")
    def _results(self) -> VisionTable:
        if sorted(self.results) != [1, 2, 3, 4, 5, 6]:
            raise ValueError("results: give a result for each die face 1..6")
        for face, result in self.results.items():
            if result != "none" and not (result.startswith("R") and result[1:].isdigit()):
                raise ValueError(f"results.{face}: 'none' or a retreat such as R2, not {result!r}")
        if all(r == "none" for r in self.results.values()):
            raise ValueError("results: visions must be able to force a retreat")
        return self


class CombatTable(StrictModel):
    """Combat, read by the difference of the factors or by their odds (rules.yaml
    ``combat-by-difference`` says which), and one die."""

    by: Literal["difference", "odds"] | None = Field(
        default=None, description="Older files only; the reading combat-by-difference of rules.yaml decides.")
    minimum_difference: int
    columns: tuple[int, ...] = Field(min_length=1, description="Lowest difference of each column.")
    odds_columns: tuple[str, ...] = Field(
        default=(), description="Lowest odds of each column (a:b), read instead of columns by odds.")
    results: dict[str, tuple[Result, Result, Result, Result, Result, Result]]
    retreat_hexes: int = Field(ge=1, le=6)

    @model_validator(mode="after")
    def _columns(self) -> CombatTable:
        if list(self.columns) != sorted(set(self.columns)):
            raise ValueError("columns: lowest bounds in increasing order, once each")
        if self.columns[0] != self.minimum_difference:
            raise ValueError("columns: the first column starts at minimum_difference")
        if sorted(self.results, key=int) != [str(c) for c in self.columns]:
            raise ValueError("results: one row per column")
        if self.odds_columns:
            if len(self.odds_columns) != len(self.columns):
                raise ValueError("odds_columns: one bound per column")
            ratios = [_ratio(t) for t in self.odds_columns]
            if ratios != sorted(set(ratios)):
                raise ValueError("odds_columns: lowest odds in increasing order, once each")
        for col in self.columns:
            row = self.results[str(col)]
            if any(RESULT_ORDER.index(a) > RESULT_ORDER.index(b) for a, b in itertools.pairwise(row)):
                raise ValueError(f"results.{col}: a higher die cannot give the attacker a worse result")
        return self

    def column(self, attack: int, defence: int, by: str = "difference") -> int | None:
        """Returns the column (its row key) a combat falls in, by difference or by odds (None
        below the first column: not allowed)."""
        if by == "odds" and self.odds_columns:
            ratio = Fraction(attack, defence) if defence > 0 else Fraction(10**6)
            found = None
            for col, bound in zip(self.columns, self.odds_columns, strict=True):
                if ratio >= _ratio(bound):
                    found = col
            return found
        found = None
        for col in self.columns:
            if attack - defence >= col:
                found = col
        return found


def _ratio(text: str) -> Fraction:
    """Returns the odds ``a:b`` as a fraction.

    Raises:
        ValueError: not two whole numbers joined by a colon.
    """
    a, sep, b = text.partition(":")
    if not sep or not a.isdigit() or not b.isdigit() or int(b) == 0:
        raise ValueError(f"{text!r} is not odds such as 3:2")
    return Fraction(int(a), int(b))


class TablesFile(StrictModel):
    """Schema of ``tables/zargo/tables.yaml``."""

    provenance: Literal["rulebook", "secondary", "interpretation", "provisional"]
    arrows: ShotTable
    flames: ShotTable
    visions: VisionTable
    combat: CombatTable


# ---- drawing styles (display.yaml) ----------------------------------------------------------

TERRAIN_KEYS: dict[Terrain, str] = {
    Terrain.SEA: "sea", Terrain.PLAIN: "plain", Terrain.WOODS: "woods", Terrain.MOUNTAINS: "mountains",
    Terrain.CHASM: "chasm",
}
"""The key of each terrain in display.yaml (the map file writes one character)."""


class TerrainRow(StrictModel):
    """How one terrain is drawn."""

    label: str = Field(max_length=40, description="Name in the key.")
    colour: tuple[int, int, int] = Field(description="RGB fill.")
    mark: str = Field(min_length=2, max_length=2, description="Two characters drawn in the terminal.")
    pattern: Literal["", "dots", "peak", "waves", "cross"] = Field(default="", description="Drawn over the fill.")


class LinkRow(StrictModel):
    """How the cloud bridges are drawn."""

    label: str = Field(max_length=40)
    colour: tuple[int, int, int]


class WrapRow(StrictModel):
    """How the lettered edge hexes are named in the key."""

    label: str = Field(max_length=60)


class DisplayFile(StrictModel):
    """Schema of ``tables/zargo/display.yaml``."""

    provenance: Literal["rulebook", "secondary", "interpretation", "provisional"] = "interpretation"
    terrain: dict[str, TerrainRow] = Field(description="sea, plain, woods, mountains and chasm, each once.")
    bridges: LinkRow
    wrap: WrapRow
    peoples: dict[Literal["chevaliers", "ailes", "dragons", "moines"], str] = Field(
        description="One character per people, before its counters' labels.")

    @model_validator(mode="after")
    def _complete(self) -> DisplayFile:
        missing = set(TERRAIN_KEYS.values()) - set(self.terrain)
        unknown = set(self.terrain) - set(TERRAIN_KEYS.values())
        if missing or unknown:
            raise ValueError(f"terrain: missing {sorted(missing)}, unknown {sorted(unknown)}")
        if any(len(m) != 1 for m in self.peoples.values()):
            raise ValueError("peoples: each mark is one character")
        return self


# ---- the tables of a game ---------------------------------------------------------------------

USED_READINGS = (
    "combat-by-difference",
    "archer-ranges",
    "arrow-line",
    "charge-front",
    "flames-add-up",
    "wrap-letters",
    "mountain-descent",
    "fantarcher-escort",
    "most-cities-tie",
    "sorcerer-bonus",
    "retreat-obstacles",
    "city-terrain",
    "peoples-in-play",
    "setup-order",
    "escort-move",
    "escorted-retreat",
    "bridge-adjacency",
    "bridge-chain",
    "city-zone",
    "zone-entry",
    "route-default",
    "weak-attack",
    "too-few-besiegers",
    "garrison-knowledge",
    "garrison-retreat",
    "garrison-moves",
    "sally",
    "sally-retreat",
    "city-shot-targets",
    "reseal",
    "retreat-path",
    "shots-plane",
    "paralysis-count",
    "monk-reappear",
    "early-end",
    "serpent-line",
    "two-players",
    "alliance-shape",
)
"""Interpretations of rules.yaml the engine reads or discloses (a table override must keep them)."""


@dataclass(frozen=True)
class Unit:
    """One counter type of one people, as the rules use it."""

    label: str
    people: str
    key: str
    kind: str
    move: int
    combat: int
    powers: tuple[str, ...]
    range: int | None
    count: int

    @property
    def infantry(self) -> bool:
        """Whether the counter is a foot soldier (it may escort, rulebook ESCORTES)."""
        return self.kind == "infantry"

    @property
    def flies(self) -> bool:
        """Whether the counter flies (Winged lords and Falcons)."""
        return "flight" in self.powers


@dataclass(frozen=True)
class ZargoTables:
    """The validated tables of a game: world, peoples, the four tables, the rules index."""

    world: World
    peoples: PeoplesFile
    tables: TablesFile
    rules: RulesIndex
    display: DisplayFile

    @cached_property
    def order(self) -> tuple[str, ...]:
        """The peoples in turn order (rulebook COMMENT ON JOUE)."""
        return tuple(sorted(self.peoples.peoples, key=lambda p: self.peoples.peoples[p].order))

    @cached_property
    def units(self) -> dict[str, Unit]:
        """Every counter type by label."""
        out: dict[str, Unit] = {}
        for people, spec in self.peoples.peoples.items():
            for key, c in spec.counters.items():
                out[c.short] = Unit(label=c.short, people=people, key=key, kind=c.kind, move=c.move,
                                    combat=c.combat, powers=tuple(c.powers), range=c.range, count=c.count)
        return out

    @cached_property
    def labels_of(self) -> dict[str, tuple[str, ...]]:
        """The labels of each people."""
        out: dict[str, list[str]] = {}
        for label, u in self.units.items():
            out.setdefault(u.people, []).append(label)
        return {p: tuple(v) for p, v in out.items()}

    @cached_property
    def lettered(self) -> frozenset[Cell]:
        """The hexes of the lettered edges (LA CARTE)."""
        return frozenset(c for pair in self.world.wrap.values() for c in pair)

    @cached_property
    def bridge_ends(self) -> frozenset[Cell]:
        """The coast hexes a cloud bridge starts from."""
        return frozenset(c for pair in self.world.bridges for c in pair)

    def choice(self, ident: str) -> str:
        """Returns the reading chosen for an interpretation of rules.yaml."""
        return self.rules.interpretation(ident).choice

    def disclose(self, *idents: str) -> tuple[str, ...]:
        """Returns the disclosures of interpretations a ruling relies on."""
        return tuple(self.rules.interpretation(i).label() for i in idents)


class Reads:
    """The interpretations a ruling relied on, in the order they decided, each once.

    A check calls :meth:`use` (or reads a choice through :meth:`choice`) where the reading
    decides, so the ruling discloses it there and nowhere else (rules.yaml ``interpretations``).
    """

    def __init__(self) -> None:
        self.ids: list[str] = []

    def use(self, *idents: str) -> None:
        """Records that the ruling relies on these interpretations."""
        for ident in idents:
            if ident not in self.ids:
                self.ids.append(ident)

    def choice(self, tables: ZargoTables, ident: str) -> str:
        """Returns the reading chosen for an interpretation, recording that the ruling relies on it."""
        self.use(ident)
        return tables.choice(ident)

    def labels(self, tables: ZargoTables) -> tuple[str, ...]:
        """Returns the disclosures of the recorded interpretations."""
        return tables.disclose(*self.ids)


class _Unrecorded(Reads):
    """A :class:`Reads` that keeps nothing: for checks asked only whether an action is legal."""

    def use(self, *idents: str) -> None:
        return None


UNRECORDED: Reads = _Unrecorded()
"""Pass where no ruling is shown (legal action lists, the bot's candidates)."""


@by_digest
def load_tables(table_set: TableSet) -> ZargoTables:
    """Returns the validated Zargo tables of a table set.

    Raises:
        TableError: a file is missing or does not match its schema.
    """
    peoples = parse_yaml(table_set.label("peoples.yaml"), table_set.text("peoples.yaml"), PeoplesFile)
    tables = parse_yaml(table_set.label("tables.yaml"), table_set.text("tables.yaml"), TablesFile)
    rules = parse_yaml(table_set.label("rules.yaml"), table_set.text("rules.yaml"), RulesIndex)
    rules = _with_packaged_readings(rules)
    rules.require(table_set.label("rules.yaml"), USED_READINGS)
    reading = rules.interpretation("wrap-letters").choice
    label = table_set.label("map.yaml")
    world = parse_world(label, load_yaml_text(label, table_set.text("map.yaml")), reading)
    labels = [c.short for p in peoples.peoples.values() for c in p.counters.values()]
    if len(set(labels)) != len(labels):
        raise TableError(table_set.label("peoples.yaml"), "short", "each counter label must be unique")
    display = parse_yaml(table_set.label("display.yaml"), table_set.text("display.yaml"), DisplayFile)
    return ZargoTables(world=world, peoples=peoples, tables=tables, rules=rules, display=display)


def _with_packaged_readings(rules: RulesIndex) -> RulesIndex:
    """Adds the packaged reading of each interpretation a rules file lacks (a game file made
    before an interpretation was added keeps its own choices and gains only the new ones)."""
    have = {i.id for i in rules.interpretations}
    missing = [i for i in USED_READINGS if i not in have]
    if not missing:
        return rules
    packaged = load_rules("zargo").index
    extra = tuple(i for i in packaged.interpretations if i.id in missing)
    return rules.model_copy(update={"interpretations": (*rules.interpretations, *extra)})
