"""Zargo's Lords state: the peoples in play, the calendar, who stands where, cities and secrets.

Vocabulary: a *label* names a counter type of one people (``FCh`` Knight foot soldier, ``DRA``
Dragon; peoples.yaml ``short``); a *stack* is the counters on one hex, escort first (only an
infantry escort may share a hex, rulebook ESCORTES); a *city*'s garrison is either public (an
empty or revealed list of labels) or sealed (its commitment only: the counters themselves live
in the game file's private table, :mod:`referee.sealed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field

from referee.game import GameState
from referee.games.zargo.data import CounterType, PeoplesFile, TablesFile
from referee.games.zargo.display import DisplayFile
from referee.games.zargo.world import Terrain, World, parse_world
from referee.geometry.search import Cell
from referee.i18n import N_
from referee.rulings import RulesIndex
from referee.sealed import Commitment
from referee.tables import TableSet, by_digest, load_yaml_text, parse_yaml

__all__ = ["City", "Occupancy", "Phase", "Shot", "Unit", "ZargoState", "ZargoTables", "load_tables"]

PEOPLE_NAMES = (N_("chevaliers"), N_("dragons"), N_("ailes"), N_("moines"))
"""The peoples' keys, translated when a message shows them (Italian: cavalieri, draghi...)."""
PHASE_NAMES = (N_("players"), N_("setup"), N_("move"), N_("reveal"), N_("resolve"), N_("over"))

USED_READINGS = (
    "arrow-line",
    "archer-ranges",
    "bridge-adjacency",
    "city-terrain",
    "escort-move",
    "flames-add-up",
    "garrison-retreat",
    "most-cities-tie",
    "mountain-descent",
    "retreat-path",
    "sorcerer-bonus",
    "weak-attack",
    "wrap-letters",
    "peoples-in-play",
    "setup-order",
    "zone-entry",
    "paralysis-count",
    "shots-plane",
    "too-few-besiegers",
    "early-end",
    "city-zone",
    "serpent-line",
    "two-players",
)
"""Interpretations of rules.yaml the engine reads or discloses (a table override must keep them)."""

MONTHS = 25
GARRISON_MAX = 4


class Phase(StrEnum):
    """Where the game stands."""

    PLAYERS = "players"
    """Before set-up: how many players, which peoples, which continents."""
    SETUP = "setup"
    """Each people in turn places its cities and counters; garrisons are sealed."""
    MOVE = "move"
    """A people's turn: alliances, then moves, attacks and shots, then ``resolve``."""
    REVEAL = "reveal"
    """A city under attack waits for its owner to reveal the garrison."""
    RESOLVE = "resolve"
    """The garrison is shown: the resolution goes on at the next ``resolve`` (nothing else now)."""
    OVER = "over"


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
                out[c.short] = _unit(people, key, c)
        return out

    @cached_property
    def labels_of(self) -> dict[str, tuple[str, ...]]:
        """The labels of each people."""
        out: dict[str, list[str]] = {}
        for label, u in self.units.items():
            out.setdefault(u.people, []).append(label)
        return {p: tuple(v) for p, v in out.items()}

    def choice(self, ident: str) -> str:
        """Returns the reading chosen for an interpretation of rules.yaml."""
        return self.rules.interpretation(ident).choice

    def disclose(self, *idents: str) -> tuple[str, ...]:
        """Returns the disclosures of interpretations a ruling relies on."""
        return tuple(self.rules.interpretation(i).label() for i in idents)

    def grid_name(self, cell: Cell) -> str:
        """Returns a hex's name."""
        return self.world.grid.name(cell)


def _unit(people: str, key: str, c: CounterType) -> Unit:
    return Unit(
        label=c.short,
        people=people,
        key=key,
        kind=c.kind,
        move=c.move,
        combat=c.combat,
        powers=tuple(c.powers),
        range=c.range,
        count=c.count,
    )


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
    reading = next((i.choice for i in rules.interpretations if i.id == "wrap-letters"), "same-and-next")
    label = table_set.label("map.yaml")
    world = parse_world(label, load_yaml_text(label, table_set.text("map.yaml")), reading)
    labels = [c.short for p in peoples.peoples.values() for c in p.counters.values()]
    if len(set(labels)) != len(labels):
        from referee.errors import TableError

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
    from referee.rulings import load_rules

    packaged = load_rules("zargo").index
    extra = tuple(i for i in packaged.interpretations if i.id in missing)
    return rules.model_copy(update={"interpretations": (*rules.interpretations, *extra)})


class City(BaseModel):
    """A city: its owner, its builder, and its garrison (public list, or sealed)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str
    founder: str
    seal: Commitment | None = None
    garrison: tuple[str, ...] | None = Field(default=(), description="Labels; None while sealed and hidden.")

    @property
    def hidden(self) -> bool:
        """Whether the garrison is sealed and not yet revealed."""
        return self.garrison is None


class Shot(BaseModel):
    """A declared shot: arrows, flames or a vision, from a counter's hex at a target hex."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    source: str
    target: str


class ZargoState(GameState):
    """Everything the referee tracks. Hexes are keyed by their printed names (``0512``)."""

    tables: ZargoTables = Field(exclude=True, repr=False)
    phase: Phase = Phase.PLAYERS
    players: int = 0
    peoples: tuple[str, ...] = ()
    continents: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    ready: tuple[str, ...] = ()
    month: int = 1
    active: str | None = None
    board: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="hex -> labels, escort first")
    cities: dict[str, City] = Field(default_factory=dict)
    paralysed: dict[str, int] = Field(default_factory=dict, description="hex -> own turns still held")
    vanished: dict[str, tuple[str, int]] = Field(default_factory=dict, description="marker hex -> (label, month)")
    alliances: tuple[str, ...] = ()
    proposal: tuple[str, str] | None = None
    moved: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="'hex:label' -> path this turn")
    acted: tuple[str, ...] = Field(default=(), description="'hex:label' of counters that attacked or shot")
    attacks: dict[str, tuple[str, ...]] = Field(default_factory=dict, description="target hex -> attacker hexes")
    shots: tuple[Shot, ...] = ()
    eliminated: dict[str, int] = Field(default_factory=dict)
    reveal_wait: str | None = None

    def people_of(self, hex_name: str) -> str | None:
        """Returns the people whose counters stand on a hex (or whose city it is)."""
        stack = self.board.get(hex_name)
        if stack:
            return self.tables.units[stack[0]].people
        city = self.cities.get(hex_name)
        return city.owner if city else None

    def allied(self, a: str, b: str) -> bool:
        """Whether two peoples are the same or allied."""
        return a == b or "+".join(sorted((a, b))) in self.alliances

    def fighter(self, hex_name: str) -> str:
        """Returns the label of the counter that fights for a stack (the escort, rulebook ESCORTES)."""
        return self.board[hex_name][0]


class Occupancy:
    """Who stands where, as cells, computed once per state."""

    def __init__(self, state: ZargoState) -> None:
        grid = state.tables.world.grid
        self.state = state
        self.people: dict[Cell, str] = {}
        for name, stack in state.board.items():
            self.people[grid.parse(name)] = state.tables.units[stack[0]].people
        self.city: dict[Cell, str] = {grid.parse(n): c.owner for n, c in state.cities.items()}
        self.attacked = frozenset(grid.parse(t) for t in state.attacks)
        self.paralysed = frozenset(grid.parse(h) for h in state.paralysed)
        self.memo: dict[tuple[str, str], object] = {}
        """Answers computed once per state (zones, counters left in the box)."""

    def enemies_of(self, people: str) -> frozenset[Cell]:
        """Hexes holding a counter or city of a people neither ``people`` nor its ally."""
        found = self.memo.get(("enemies", people))
        if found is None:
            s = self.state
            found = self.memo[("enemies", people)] = frozenset(
                c for c, p in (*self.people.items(), *self.city.items()) if not s.allied(p, people)
            )
        assert isinstance(found, frozenset)
        return found

    def friends_of(self, people: str) -> frozenset[Cell]:
        """Hexes holding its own or allied counters or cities."""
        found = self.memo.get(("friends", people))
        if found is None:
            s = self.state
            found = self.memo[("friends", people)] = frozenset(
                c for c, p in (*self.people.items(), *self.city.items()) if s.allied(p, people)
            )
        assert isinstance(found, frozenset)
        return found

    def zones_against(self, people: str) -> frozenset[Cell]:
        """Hexes next to an enemy counter whose zone of influence stands (not under attack, not
        held in a chasm; cities have none: rules.yaml ``city-zone``)."""
        found = self.memo.get(("zones", people))
        if isinstance(found, frozenset):
            return found
        s = self.state
        grid = s.tables.world.grid
        out: set[Cell] = set()
        for c, p in self.people.items():
            if s.allied(p, people) or c in self.attacked or c in self.paralysed:
                continue
            out.update(grid.neighbours(c))
        self.memo[("zones", people)] = frozen = frozenset(out)
        return frozen

    def land_free(self, cell: Cell) -> bool:
        """Whether a land hex holds no counter and no city."""
        return cell not in self.people and cell not in self.city


def terrain_of(state: ZargoState, hex_name: str) -> Terrain:
    """Returns the terrain of a hex."""
    world = state.tables.world
    return world.terrain[world.grid.parse(hex_name)]
