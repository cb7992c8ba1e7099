"""Zargo's Lords state: the peoples in play, the calendar, who stands where, cities and secrets.

Vocabulary: a *label* names a counter type of one people (``FCh`` Knight foot soldier, ``DRA``
Dragon; peoples.yaml ``short``); a *stack* is the counters on one hex, escort first (only an
infantry escort may share a hex, rulebook ESCORTES); a *city*'s garrison is either open (an
empty or revealed list of labels) or sealed (its commitment only: the counters themselves live
in the game file's private table, :mod:`referee.sealed`). A counter acting this turn is named
``HEX:LABEL`` (:func:`key`); a garrison counter acting from its city is named the same way with
the city's hex.

:class:`Turn` is the mutable working copy every action's effects are made on, frozen again into
a new state by :meth:`Turn.state`.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from referee.game import GameState
from referee.games.zargo.rules import COMBAT
from referee.games.zargo.tables import Reads, Unit, ZargoTables
from referee.geometry.search import Cell
from referee.i18n import N_
from referee.rulings import Ruling
from referee.sealed import Commitment

__all__ = [
    "GARRISON_MAX", "MONTHS", "PARALYSIS", "City", "Occupancy", "Phase", "Shot", "Turn", "ZargoState", "adjacent",
    "cell", "key", "manifest_left", "occ", "split_key", "unit",
]

PEOPLE_NAMES = (N_("chevaliers"), N_("dragons"), N_("ailes"), N_("moines"))
"""The peoples' keys, translated when a message shows them (Italian: cavalieri, draghi...)."""
PHASE_NAMES = (N_("players"), N_("setup"), N_("move"), N_("reveal"), N_("resolve"), N_("over"))

MONTHS = 25  # LE CALENDRIER: twenty-five months
GARRISON_MAX = 4  # PRÉPARATION DU JEU, LA CONQUÊTE D'UNE VILLE: at most four counters
PARALYSIS = 3  # MOUVEMENTS — RÈGLES PARTICULIÈRES: a chasm holds a counter three turns


class Phase(StrEnum):
    """Where the game stands."""

    PLAYERS = "players"
    """Before set-up: how many players, which peoples, which continents."""
    SETUP = "setup"
    """Each people in turn places its cities, seals its garrisons and places its counters."""
    MOVE = "move"
    """A people's turn: alliances, then moves, attacks and shots, then ``resolve``."""
    REVEAL = "reveal"
    """A city under attack waits for its owner to reveal the garrison."""
    RESOLVE = "resolve"
    """The resolution is paused (a garrison shown, a Serpent's choice): it goes on at ``resolve``."""
    OVER = "over"


class City(BaseModel):
    """A city: its owner, its builder, and its garrison (open list, or sealed).

    A garrison that is neither open nor sealed (``garrison`` and ``seal`` both None) lost its
    secret: an umpire's override dropped the seal, and its owner seals it again."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    owner: str
    founder: str
    seal: Commitment | None = None
    garrison: tuple[str, ...] | None = Field(default=(), description="Labels; None while sealed and hidden.")

    @property
    def hidden(self) -> bool:
        """Whether the garrison is face down (sealed, or waiting to be sealed again)."""
        return self.garrison is None

    @property
    def lost(self) -> bool:
        """Whether the garrison waits for its owner to seal it again (its secret was lost)."""
        return self.garrison is None and self.seal is None


class Shot(BaseModel):
    """A declared shot: arrows, flames or a vision, from a counter's hex at a target hex
    (``label``: the garrison counter that shoots from its city)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    source: str
    target: str
    label: str | None = None


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
    attacks: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="target hex -> attackers ('hex', or 'city:label' for a sally)")
    shots: tuple[Shot, ...] = ()
    eliminated: dict[str, int] = Field(default_factory=dict)
    reveal_wait: str | None = None
    carry: tuple[str, int, int] | None = Field(
        default=None, description="A Serpent that may carry on: its hex, direction and points left.")

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


def key(hex_name: str, label: str) -> str:
    """The id of a counter during a turn: its hex and label."""
    return f"{hex_name}:{label}"


def split_key(ident: str) -> tuple[str, str | None]:
    """Returns the hex and the label of an attacker's id (``hex`` or ``hex:label``)."""
    hex_name, _sep, label = ident.partition(":")
    return hex_name, label or None


def unit(state: ZargoState, label: str) -> Unit:
    """Returns a counter type by label."""
    return state.tables.units[label]


def cell(state: ZargoState, name: str) -> Cell:
    """Returns a hex's cell."""
    return state.tables.world.grid.parse(name)


def adjacent(state: ZargoState, a: str, b: str, reads: Reads) -> bool:
    """Whether two hexes touch: side by side, or across a lettered edge; across a cloud bridge
    as rules.yaml ``bridge-adjacency`` reads it (disclosed when a bridge joins the two)."""
    world = state.tables.world
    ca, cb = cell(state, a), cell(state, b)
    if cb not in world.grid.neighbours(ca):
        return False
    if (ca, cb) in world.bridges or (cb, ca) in world.bridges:
        return reads.choice(state.tables, "bridge-adjacency") == "yes"
    return True


def manifest_left(state: ZargoState, label: str) -> int:
    """LES PIONS DU JEU: counters of a type not on the board, lost, vanished or in an open
    garrison (sealed garrisons are counted by the game file, which holds them)."""
    memo = occ(state).memo
    found = memo.get(("left", label))
    if isinstance(found, int):
        return found
    used = sum(stack.count(label) for stack in state.board.values())
    used += state.eliminated.get(label, 0)
    used += sum((c.garrison or ()).count(label) for c in state.cities.values())
    used += sum(1 for lab, _ in state.vanished.values() if lab == label)
    memo[("left", label)] = left = unit(state, label).count - used
    return left


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
        """Answers computed once per state (zones, counters left in the box, searches)."""

    def enemies_of(self, people: str) -> frozenset[Cell]:
        """Hexes holding a counter or city of a people neither ``people`` nor its ally."""
        found = self.memo.get(("enemies", people))
        if not isinstance(found, frozenset):
            s = self.state
            found = self.memo[("enemies", people)] = frozenset(
                c for c, p in (*self.people.items(), *self.city.items()) if not s.allied(p, people)
            )
        return found

    def friends_of(self, people: str) -> frozenset[Cell]:
        """Hexes holding its own or allied counters or cities."""
        found = self.memo.get(("friends", people))
        if not isinstance(found, frozenset):
            s = self.state
            found = self.memo[("friends", people)] = frozenset(
                c for c, p in (*self.people.items(), *self.city.items()) if s.allied(p, people)
            )
        return found

    def zones_against(self, people: str) -> frozenset[Cell]:
        """Hexes next to an enemy counter whose zone of influence stands (not under attack, not
        held in a chasm), and next to an enemy city when rules.yaml ``city-zone`` says yes."""
        found = self.memo.get(("zones", people))
        if isinstance(found, frozenset):
            return found
        s = self.state
        grid = s.tables.world.grid
        sources = list(self.people.items())
        if s.tables.choice("city-zone") == "yes":
            sources += list(self.city.items())
        out: set[Cell] = set()
        for c, p in sources:
            if s.allied(p, people) or c in self.attacked or c in self.paralysed:
                continue
            out.update(grid.neighbours(c))
        self.memo[("zones", people)] = frozen = frozenset(out)
        return frozen

    def land_free(self, c: Cell) -> bool:
        """Whether a land hex holds no counter and no city."""
        return c not in self.people and c not in self.city


def occ(state: ZargoState) -> Occupancy:
    """Returns the occupancy of a state (cached while that state object is in use)."""
    if _LAST and _LAST[0][0] is state:
        return _LAST[0][1]
    found = Occupancy(state)
    _LAST[:] = [(state, found)]
    return found


_LAST: list[tuple[ZargoState, Occupancy]] = []
"""The last state's occupancy (states are frozen, so it stays right while that state is used)."""


class Turn:
    """A mutable working copy of a state's changing parts, frozen again by :meth:`state`; it
    gathers the events and the readings relied on as the effects are made."""

    def __init__(self, state: ZargoState, reads: Reads | None = None) -> None:
        self.base = state
        self.board = dict(state.board)
        self.cities = dict(state.cities)
        self.paralysed = dict(state.paralysed)
        self.eliminated = dict(state.eliminated)
        self.events: list[Ruling] = []
        self.notes: list[str] = []
        """Provisional values relied on, beyond the interpretations of ``reads``."""
        self.reads = reads if reads is not None else Reads()
        self.update: dict[str, object] = {}

    def remove(self, hex_name: str, label: str) -> None:
        """Takes one counter off a hex."""
        stack = list(self.board[hex_name])
        stack.remove(label)
        if stack:
            self.board[hex_name] = tuple(stack)
        else:
            del self.board[hex_name]
            self.paralysed.pop(hex_name, None)

    def lose(self, label: str) -> None:
        """Counts one counter of a type as eliminated."""
        self.eliminated[label] = self.eliminated.get(label, 0) + 1

    def eliminate(self, hex_name: str, label: str, why: str) -> None:
        """Takes one counter off a hex for good, with its event."""
        self.remove(hex_name, label)
        self.lose(label)
        self.events.append(
            Ruling.event(
                "eliminated", "{label} on {hex} is eliminated ({why})", (COMBAT,), label=label, hex=hex_name, why=why
            )
        )

    def provisional(self) -> list[str]:
        """Returns every disclosure: the readings relied on, then the provisional values."""
        return list(dict.fromkeys([*self.reads.labels(self.base.tables), *self.notes]))

    def state(self) -> ZargoState:
        """Returns the new state."""
        return self.base.model_copy(
            update={
                "board": self.board,
                "cities": self.cities,
                "paralysed": self.paralysed,
                "eliminated": self.eliminated,
                **self.update,
            }
        )
