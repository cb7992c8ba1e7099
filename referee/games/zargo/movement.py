"""Where a Zargo counter may move this month (rulebook "MOUVEMENTS", "COMBAT — RÈGLES GÉNÉRALES").

One search over the world's hex grid (bridges and wrap letters are links of the grid) with the
terrain's costs and stops:

* plain 1; woods 2, so a last single point cannot enter a wood;
* sea never, except over a cloud bridge, which costs nothing;
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
from referee.geometry.search import Cell, SearchResult
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
    """The result of :func:`reach`: every hex the counter may end on, with its cost and path."""

    search: SearchResult
    ends: frozenset[Cell]

    def path(self, goal: Cell) -> list[Cell]:
        """Returns the hexes from the start to ``goal`` (empty when it cannot end there)."""
        return self.search.path(goal) if goal in self.ends else []


def reach(world: World, mover: Mover, around: Surroundings) -> Reach:
    """Returns the hexes a counter may move to this month (its start excluded)."""
    terrain = world.terrain
    bridges = frozenset(world.bridges) | frozenset((b, a) for a, b in world.bridges)

    def can_enter(cell: Cell) -> bool:
        if terrain[cell] is Terrain.SEA:
            return False
        return mover.flies or cell not in around.enemies

    def can_continue(cell: Cell) -> bool:
        if terrain[cell] is Terrain.CHASM:
            return False
        if mover.flies:
            return True
        return cell not in around.zones and terrain[cell] is not Terrain.MOUNTAINS

    def step_cost(here: Cell, nxt: Cell) -> int:
        if (here, nxt) in bridges:
            return 0
        if mover.flies:
            return 1
        kind = terrain[nxt]
        if kind is Terrain.MOUNTAINS:  # only as the whole move, from the hex next to it
            return mover.points if here == mover.start else _NEVER
        return 2 if kind is Terrain.WOODS else 1

    found = world.grid.search(mover.start, mover.points, can_enter, can_continue, step_cost=step_cost)
    ends = frozenset(
        c for c in found.distance
        if c != mover.start and c not in around.enemies and (c not in around.friends or c in around.stack_ok)
    )
    return Reach(found, ends)


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
    return ngettext(
        "{hex} is out of reach: {n} movement point, woods cost 2, sea only by bridges",
        "{hex} is out of reach: {n} movement points, woods cost 2, sea only by bridges",
        mover.points,
    ).format(hex=name, n=mover.points)
