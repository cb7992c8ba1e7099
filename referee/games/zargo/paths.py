"""Where a Zargo counter may go, and by which route (rulebook "MOUVEMENTS", "COMBAT — RÈGLES
GÉNÉRALES").

One set of step rules over the world's hex grid (bridges and wrap letters are links of the grid),
used three ways: :func:`reach` (every hex a counter may end on, and a cheapest route to each),
:func:`walk` (a route the player states, judged step by step, the first bad step named) and
:func:`blocked` (why no route ends on a hex, naming the rule that blocks). The rules:

* plain 1; woods 2, so a last single point cannot enter a wood;
* sea never, except over a cloud bridge, which costs nothing and runs from coast to coast: a
  counter that lands off one bridge takes a land step before the next bridge (rules.yaml
  ``bridge-chain``: or takes one bridge a move);
* a mountain is entered only as the whole move, from a hex next to it (the approach stops at
  the foot the month before); leaving it is an ordinary move, or one hex (rules.yaml
  ``mountain-descent``);
* a magic chasm stops the counter;
* enemies are never crossed or entered; friends and allies are crossed but not ended on, except
  where a stack is allowed (an infantry escort);
* the hexes next to an enemy (its zone of influence) are entered only to attack it: entering
  one ends the move;
* Winged and Falcons fly: only seas (bridges aside) and chasms limit them; they pass over
  enemies and zones and land at the end of the move.

Everything here is geometry on a :class:`~referee.games.zargo.world.World`; the rules module
(:mod:`referee.games.zargo.movement`) gathers who stands where into :class:`Surroundings`.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field, replace

from referee.games.zargo.world import Terrain, World
from referee.geometry import HexGrid
from referee.geometry.hexes import DIRECTIONS
from referee.geometry.search import Cell, SearchResult, search

__all__ = ["Blocked", "Mover", "Reach", "Surroundings", "blocked", "hex_direction", "other_route", "reach",
           "straight_line", "walk"]

_NEVER = 10_000
RELAXATIONS = ("mountains", "zones", "enemies", "chasms", "chain", "descent", "sea")
"""Rules :func:`blocked` lifts one at a time to find which one keeps a counter from a hex."""
_CODE = {"mountains": "mountain-foot", "zones": "zone", "enemies": "enemy-in-path", "chasms": "chasm",
         "chain": "bridge-chain", "descent": "mountain-descent", "sea": "open-sea"}


@dataclass(frozen=True)
class Mover:
    """The counter that moves: where it starts, its movement factor, whether it flies, whether a
    step off its mountain ends the move (``mountain-descent``), whether a move takes one bridge
    only (``bridge-chain``)."""

    start: Cell
    points: int
    flies: bool = False
    descent: bool = False
    one_bridge: bool = False
    relax: frozenset[str] = field(default=frozenset())
    """Rules lifted (only :func:`blocked` lifts any, to name the one that blocks)."""


@dataclass(frozen=True)
class Surroundings:
    """Who stands where, as the moving counter sees it."""

    enemies: frozenset[Cell] = frozenset()
    """Hexes holding an enemy counter or an enemy city (never entered)."""
    friends: frozenset[Cell] = frozenset()
    """Hexes holding the mover's own or allied counters or cities (crossed, not ended on)."""
    zones: frozenset[Cell] = frozenset()
    """Hexes next to an enemy whose zone of influence stands (entered only to attack)."""
    stack_ok: frozenset[Cell] = frozenset()
    """Friendly hexes this counter may end on (an escort joining)."""


@dataclass(frozen=True)
class Blocked:
    """Why a route (or every route) fails: a stable code, the hex where, the step's number."""

    code: str
    hex: Cell
    step: int | None = None


@dataclass(frozen=True)
class Reach:
    """The result of :func:`reach`: every hex the counter may end on, with its cost and route.

    ``states`` holds the search over both ways of standing on a hex (off a bridge, or by land);
    :meth:`path` walks it, so a route never breaks the bridge rule."""

    ends: frozenset[Cell]
    states: SearchResult
    size: int

    def path(self, goal: Cell) -> list[Cell]:
        """Returns a cheapest route from the start to ``goal`` (empty when it cannot end there)."""
        if goal not in self.ends:
            return []
        ways = [s for s in (goal, goal + self.size) if s in self.states.distance]
        best = min(ways, key=lambda s: self.states.distance[s])
        return [s % self.size for s in self.states.path(best)]


class _Steps:
    """The step rules of one move: what may be entered, where the move must stop, what a step costs."""

    def __init__(self, world: World, mover: Mover, around: Surroundings) -> None:
        self.world = world
        self.terrain = world.terrain
        self.mover = mover
        self.around = around
        self.bridges = frozenset(world.bridges) | frozenset((b, a) for a, b in world.bridges)
        relax = mover.relax
        self.zones = frozenset() if "zones" in relax else around.zones
        self.enemies = frozenset() if "enemies" in relax else around.enemies
        self.start_mountain = self.terrain[mover.start] is Terrain.MOUNTAINS

    def enter(self, c: Cell) -> str | None:
        """Returns why a hex cannot be entered (None: it can)."""
        if self.terrain[c] is Terrain.SEA and "sea" not in self.mover.relax:
            return "open-sea"
        if not self.mover.flies and c in self.enemies:
            return "enemy-in-path"
        return None

    def go_on(self, c: Cell) -> str | None:
        """Returns why the move cannot go on past a hex it entered (None: it can)."""
        relax = self.mover.relax
        if self.terrain[c] is Terrain.CHASM and "chasms" not in relax:
            return "chasm"
        if self.mover.flies:
            return None
        if c in self.zones:
            return "zone"
        if self.terrain[c] is Terrain.MOUNTAINS and "mountains" not in relax:
            return "mountain-foot"
        if self.mover.descent and self.start_mountain and "descent" not in relax:
            return "mountain-descent"
        return None

    def cost(self, here: Cell, nxt: Cell) -> int:
        """Returns the movement points a step costs (a mountain: the whole move, from its foot)."""
        if (here, nxt) in self.bridges:
            return 0
        if self.mover.flies:
            return 1
        kind = self.terrain[nxt]
        if kind is Terrain.MOUNTAINS and "mountains" not in self.mover.relax:
            return self.mover.points if here == self.mover.start else _NEVER
        return 2 if kind is Terrain.WOODS else 1

    def layer_after(self, layer: int, here: Cell, nxt: Cell) -> int | None:
        """Returns the bridge layer after a step (1: a bridge was just taken, or one was taken
        this move), or None when the bridge rule forbids the step."""
        if (here, nxt) in self.bridges:
            if layer and "chain" not in self.mover.relax:
                return None
            return 1
        return layer if self.mover.one_bridge else 0


_ADJACENCY: dict[tuple[int, str], tuple[World, tuple[tuple[Cell, ...], ...]]] = {}


def _adjacency(world: World, mode: str) -> tuple[tuple[Cell, ...], ...]:
    """The two-layer adjacency of a world (layer 1 = after a bridge), built once per world and
    bridge mode: ``step-first``, ``one-per-move`` or ``chain`` (no bridge rule)."""
    cached = _ADJACENCY.get((id(world), mode))
    if cached is not None and cached[0] is world:
        return cached[1]
    size = len(world.terrain)
    bridges = frozenset(world.bridges) | frozenset((b, a) for a, b in world.bridges)
    adjacency: list[list[Cell]] = [[] for _ in range(2 * size)]
    for c in range(size):
        for n in world.grid.neighbours(c):
            if (c, n) in bridges:
                adjacency[c].append(n + size)
                if mode == "chain":
                    adjacency[c + size].append(n + size)
            else:
                adjacency[c].append(n)
                adjacency[c + size].append(n + size if mode == "one-per-move" else n)
    if len(_ADJACENCY) > 16:
        _ADJACENCY.clear()
    built = tuple(tuple(a) for a in adjacency)
    _ADJACENCY[(id(world), mode)] = (world, built)
    return built


def reach(world: World, mover: Mover, around: Surroundings) -> Reach:
    """Returns the hexes a counter may move to this month (its start excluded), each with a
    cheapest route."""
    steps = _Steps(world, mover, around)
    size = len(world.terrain)
    mode = "chain" if "chain" in mover.relax else ("one-per-move" if mover.one_bridge else "step-first")
    adjacency = _adjacency(world, mode)

    def can_enter(state: Cell) -> bool:
        return steps.enter(state % size) is None

    def can_continue(state: Cell) -> bool:
        return steps.go_on(state % size) is None

    def step_cost(here_state: Cell, nxt_state: Cell) -> int:
        return steps.cost(here_state % size, nxt_state % size)

    states = search(adjacency, mover.start, mover.points, can_enter, can_continue, step_cost=step_cost)
    ends = frozenset(
        s % size for s in states.distance
        if s % size != mover.start and _may_end(around, steps.enemies, s % size)
    )
    return Reach(ends, states, size)


def _may_end(around: Surroundings, enemies: frozenset[Cell], c: Cell) -> bool:
    return c not in enemies and (c not in around.friends or c in around.stack_ok)


def walk(world: World, mover: Mover, around: Surroundings, path: list[Cell]) -> Blocked | None:
    """Returns the first bad step of a stated route (start first), or None when every step may
    be taken and the counter may end on its last hex."""
    steps = _Steps(world, mover, around)
    grid = world.grid
    layer, spent = 0, 0
    for i, (here, nxt) in enumerate(itertools.pairwise(path), start=1):
        if nxt not in grid.neighbours(here):
            return Blocked("not-a-step", nxt, i)
        if i > 1 and (stop := steps.go_on(here)) is not None:
            return Blocked(stop, nxt, i)  # the move had to end on ``here``
        after = steps.layer_after(layer, here, nxt)
        if after is None:
            return Blocked("bridge-chain", nxt, i)
        last = i == len(path) - 1
        if last and nxt in steps.enemies and world.terrain[nxt] is not Terrain.SEA:
            return Blocked("enemy-hex", nxt, i)
        if (wrong := steps.enter(nxt)) is not None:
            return Blocked(wrong, nxt, i)
        cost = steps.cost(here, nxt)
        if cost >= _NEVER:
            return Blocked("mountain-foot", nxt, i)
        spent += cost
        if spent > mover.points:
            return Blocked("too-far", nxt, i)
        layer = after
    goal = path[-1]
    if len(path) < 2:
        return Blocked("own-hex", goal)
    if goal in around.friends and goal not in around.stack_ok:
        return Blocked("hex-taken", goal, len(path) - 1)
    return None


def blocked(world: World, mover: Mover, around: Surroundings, goal: Cell) -> Blocked | None:
    """Returns why a counter cannot end its move on ``goal`` by any route (None when it can).

    The hex itself first (what no route could fix), then each rule lifted alone, then all of
    them together in turn, naming the first rule whose lifting opens a route; else the points."""
    if goal == mover.start:
        return Blocked("own-hex", goal)
    if world.terrain[goal] is Terrain.SEA:
        return Blocked("open-sea", goal)
    if goal in around.enemies:
        return Blocked("enemy-hex", goal)
    if goal in around.friends and goal not in around.stack_ok:
        return Blocked("hex-taken", goal)
    if goal in reach(world, mover, around).ends:
        return None
    mountain = world.terrain[goal] is Terrain.MOUNTAINS and not mover.flies
    if mountain and goal not in world.grid.neighbours(mover.start):
        return Blocked("mountain-foot", goal)
    for rule in RELAXATIONS:
        if goal in reach(world, replace(mover, relax=frozenset({rule})), around).ends:
            return Blocked(_CODE[rule], goal)
    lifted: set[str] = set()
    for rule in RELAXATIONS:
        lifted.add(rule)
        if goal in reach(world, replace(mover, relax=frozenset(lifted)), around).ends:
            break
    else:
        return Blocked("too-far", goal)
    for rule in RELAXATIONS:  # the first rule the route cannot do without
        if rule in lifted and goal not in reach(world, replace(mover, relax=frozenset(lifted - {rule})), around).ends:
            return Blocked(_CODE[rule], goal)
    return Blocked(_CODE[max(lifted, key=RELAXATIONS.index)], goal)


def hex_direction(grid: HexGrid, a: Cell, b: Cell) -> int | None:
    """Returns the hex direction (0 = N, clockwise) from ``a`` to ``b`` when they lie on one
    straight hex row of the printed map, else None."""
    (ax, ay, az), (bx, by, bz) = grid.cube(a), grid.cube(b)
    n = grid.distance(a, b)
    if n == 0:
        return None
    delta = (bx - ax, by - ay, bz - az)
    if any(d % n for d in delta):
        return None
    unit = (delta[0] // n, delta[1] // n, delta[2] // n)
    return DIRECTIONS.index(unit) if unit in DIRECTIONS else None


def straight_line(grid: HexGrid, start: Cell, goal: Cell) -> list[Cell] | None:
    """Returns the hexes of the straight row from ``start`` to ``goal`` (both included), or
    None when they are not on one row of the printed map."""
    direction = hex_direction(grid, start, goal)
    if direction is None:
        return None
    line = [start]
    while line[-1] != goal:
        nxt = grid.step(line[-1], direction)
        if nxt is None:
            return None
        line.append(nxt)
    return line


def other_route(world: World, mover: Mover, around: Surroundings, line: list[Cell]) -> list[Cell] | None:
    """Returns a legal route to the end of ``line`` that is not ``line`` itself (None when the
    stated line is the only one): the same step rules, searched with a mark of whether the
    route so far follows the line."""
    steps = _Steps(world, mover, around)
    grid = world.grid
    goal = line[-1]
    # a node: (cell, bridge layer, index along the line, or -1 once off it)
    start = (mover.start, 0, 0)
    best: dict[tuple[int, int, int], int] = {start: 0}
    parent: dict[tuple[int, int, int], tuple[int, int, int]] = {}
    heap: list[tuple[int, tuple[int, int, int]]] = [(0, start)]
    while heap:
        spent, node = heapq.heappop(heap)
        here, layer, k = node
        if spent > best.get(node, _NEVER):
            continue
        if here == goal and k == -1:
            route = [node]
            while route[-1] in parent:
                route.append(parent[route[-1]])
            return [n[0] for n in reversed(route)]
        if here != mover.start and steps.go_on(here) is not None:
            continue
        for nxt in grid.neighbours(here):
            after = steps.layer_after(layer, here, nxt)
            if after is None or steps.enter(nxt) is not None:
                continue
            cost = spent + steps.cost(here, nxt)
            if cost > mover.points:
                continue
            on = k + 1 if k >= 0 and k + 1 < len(line) and line[k + 1] == nxt else -1
            new = (nxt, after, on)
            if nxt == goal and not _may_end(around, steps.enemies, nxt):
                continue
            if cost < best.get(new, _NEVER):
                best[new] = cost
                parent[new] = node
                heapq.heappush(heap, (cost, new))
    return None
