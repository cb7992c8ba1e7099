"""Where a Zargo counter may move this month (rulebook "MOUVEMENTS", "COMBAT — RÈGLES GÉNÉRALES").

One search over the world's hex grid (bridges and wrap letters are links of the grid) with the
terrain's costs and stops:

* plain 1; woods 2, so a last single point cannot enter a wood;
* sea never, except over a cloud bridge, which costs nothing and runs from coast to coast: a
  counter that lands off one bridge does not go straight onto another from that hex (rules.yaml
  ``bridge-chain``; the search tells apart a hex reached over a bridge from one reached by land);
* a mountain is entered only as the whole move, from a hex next to it (the approach stops at
  the foot the month before), and along a range one mountain hex a month; leaving a mountain is
  an ordinary move (rules.yaml ``mountain-descent``);
* a magic chasm stops the counter (the engine then holds it three months);
* enemies are never crossed or entered; friends and allies are crossed but not ended on, except
  where the engine allows a stack (an infantry escort, a city garrison);
* the hexes next to an enemy (its zone of influence, while it is not itself under attack) are
  entered only to attack it: entering one ends the move;
* Winged and Falcons fly: only seas (bridges aside) and chasms limit them; they pass over
  enemies and zones, and land at the end of the move.

The engine gathers who stands where into :class:`Surroundings`; :func:`reach` answers with the
hexes the counter may end on and the path to each, and :func:`why_not` says why one is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.zargo.world import Terrain, World
from referee.geometry.search import Cell, SearchResult, search
from referee.i18n import _, ngettext

__all__ = ["Mover", "Reach", "Surroundings", "reach", "why_not"]

_NEVER = 10_000


@dataclass(frozen=True)
class Mover:
    """The counter that moves: where it starts, its movement factor, whether it flies."""

    start: Cell
    points: int
    flies: bool = False


@dataclass(frozen=True)
class Surroundings:
    """Who stands where, as the moving counter sees it."""

    enemies: frozenset[Cell] = frozenset()
    """Hexes holding an enemy counter or an enemy city (never entered)."""
    friends: frozenset[Cell] = frozenset()
    """Hexes holding the mover's own or allied counters (crossed, not ended on)."""
    zones: frozenset[Cell] = frozenset()
    """Hexes next to an enemy whose zone of influence stands (entered only to attack)."""
    stack_ok: frozenset[Cell] = frozenset()
    """Friendly hexes this counter may end on (an escort joining, a city it may garrison)."""


@dataclass(frozen=True)
class Reach:
    """The result of :func:`reach`: every hex the counter may end on, with its cost and path.

    ``search`` holds, for each hex, the cheapest cost over both ways of standing on it (off a
    bridge, or by land); ``path`` walks the search of those two ways, so a path never takes two
    bridges in a row."""

    search: SearchResult
    ends: frozenset[Cell]
    states: SearchResult
    size: int

    def path(self, goal: Cell) -> list[Cell]:
        """Returns the hexes from the start to ``goal`` (empty when it cannot end there)."""
        if goal not in self.ends:
            return []
        ways = [s for s in (goal, goal + self.size) if s in self.states.distance]
        best = min(ways, key=lambda s: self.states.distance[s])
        return [s % self.size for s in self.states.path(best)]


def reach(world: World, mover: Mover, around: Surroundings) -> Reach:
    """Returns the hexes a counter may move to this month (its start excluded)."""
    return _reach(world, mover, around, chain_bridges=False)


_ADJACENCY: dict[tuple[int, bool], tuple[World, tuple[tuple[Cell, ...], ...]]] = {}


def _adjacency(world: World, chain_bridges: bool) -> tuple[tuple[Cell, ...], ...]:
    """The two-state adjacency of :func:`_reach` for a world, built once per world."""
    cached = _ADJACENCY.get((id(world), chain_bridges))
    if cached is not None and cached[0] is world:
        return cached[1]
    size = len(world.terrain)
    bridges = frozenset(world.bridges) | frozenset((b, a) for a, b in world.bridges)
    adjacency: list[list[Cell]] = [[] for _ in range(2 * size)]
    for c in range(size):
        for n in world.grid.neighbours(c):
            if (c, n) in bridges:
                adjacency[c].append(n + size)
                if chain_bridges:
                    adjacency[c + size].append(n + size)
            else:
                adjacency[c].append(n)
                adjacency[c + size].append(n)
    if len(_ADJACENCY) > 16:
        _ADJACENCY.clear()
    built = tuple(tuple(a) for a in adjacency)
    _ADJACENCY[(id(world), chain_bridges)] = (world, built)
    return built


def _reach(world: World, mover: Mover, around: Surroundings, chain_bridges: bool) -> Reach:
    """The search of :func:`reach`; ``chain_bridges`` lifts the coast-to-coast rule, so that
    :func:`why_not` can tell when that rule alone refuses a hex.

    The search runs over two states per hex: ``c`` (stood on by land, or the start) and
    ``c + size`` (landed on off a cloud bridge, from where no bridge is taken)."""
    terrain = world.terrain
    size = len(terrain)
    bridges = frozenset(world.bridges) | frozenset((b, a) for a, b in world.bridges)
    adjacency = _adjacency(world, chain_bridges)

    def can_enter(state: Cell) -> bool:
        cell = state % size
        if terrain[cell] is Terrain.SEA:
            return False
        return mover.flies or cell not in around.enemies

    def can_continue(state: Cell) -> bool:
        cell = state % size
        if terrain[cell] is Terrain.CHASM:
            return False
        if mover.flies:
            return True
        return cell not in around.zones and terrain[cell] is not Terrain.MOUNTAINS

    def step_cost(here_state: Cell, nxt_state: Cell) -> int:
        here, nxt = here_state % size, nxt_state % size
        if nxt_state >= size and (here, nxt) in bridges:
            return 0
        if mover.flies:
            return 1
        kind = terrain[nxt]
        if kind is Terrain.MOUNTAINS:  # only as the whole move, from the hex next to it
            return mover.points if here == mover.start else _NEVER
        return 2 if kind is Terrain.WOODS else 1

    states = search(adjacency, mover.start, mover.points, can_enter, can_continue, step_cost=step_cost)
    distance: dict[Cell, int] = {}
    parent: dict[Cell, Cell] = {}
    for state, d in states.distance.items():
        cell = state % size
        if d < distance.get(cell, _NEVER):
            distance[cell] = d
            if state in states.parent:
                parent[cell] = states.parent[state] % size
    found = SearchResult(mover.start, distance, parent)
    ends = frozenset(
        c for c in distance
        if c != mover.start and c not in around.enemies and (c not in around.friends or c in around.stack_ok)
    )
    return Reach(found, ends, states, size)


def why_not(world: World, mover: Mover, around: Surroundings, goal: Cell) -> str | None:
    """Returns why a counter cannot end its move on ``goal`` (None when it can).

    The reasons are checked from the most basic (the hex itself) to the most circumstantial
    (the path), so a player learns first what no path could fix.
    """
    name = world.grid.name(goal)
    if goal == mover.start:
        return _("{hex} is where the counter already stands").format(hex=name)
    if world.terrain[goal] is Terrain.SEA:
        return _("{hex} is sea; only cloud bridges cross the sea").format(hex=name)
    if goal in around.enemies:
        return _("{hex} holds an enemy; attack it from a hex next to it").format(hex=name)
    if goal in around.friends and goal not in around.stack_ok:
        return _("{hex} already holds a counter; only an infantry escort or a city garrison may share a hex").format(
            hex=name
        )
    if goal in reach(world, mover, around).ends:
        return None
    mountain = world.terrain[goal] is Terrain.MOUNTAINS and not mover.flies
    if mountain and goal not in world.grid.neighbours(mover.start):
        return _("{hex} is a mountain: stop at its foot first, then climb it with a whole month's move").format(
            hex=name
        )
    no_zones = Surroundings(around.enemies, around.friends, frozenset(), around.stack_ok)
    if around.zones and goal in reach(world, mover, no_zones).ends:
        return _(
            "{hex} lies past a hex next to an enemy; such a hex is entered only to attack, and the move ends there"
        ).format(hex=name)
    if goal in reach(world, mover, Surroundings(friends=around.friends, stack_ok=around.stack_ok)).ends:
        return _("{hex} lies past an enemy; enemies are never crossed").format(hex=name)
    if goal in _reach(world, mover, around, chain_bridges=True).ends:
        return _(
            "{hex} is reached only by going from one cloud bridge straight onto another; "
            "a bridge is crossed from coast to coast"
        ).format(hex=name)
    return ngettext(
        "{hex} is out of reach: {n} movement point, woods cost 2, sea only by bridges",
        "{hex} is out of reach: {n} movement points, woods cost 2, sea only by bridges",
        mover.points,
    ).format(hex=name, n=mover.points)
