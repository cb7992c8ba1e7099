"""Path search over any board: a breadth-first flood and a step-cost search on an adjacency table.

Both boards (:class:`~referee.geometry.square.SquareGrid`, :class:`~referee.geometry.hexes.HexGrid`)
hand their adjacency (a tuple of neighbour tuples, one per cell, portals included) to these two
functions, so every game moves counters with the same search whatever the cell shape.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

Cell = int
"""A cell index, ``0 .. size - 1``."""

Adjacency = Sequence[Sequence[Cell]]
"""For each cell, the cells one step away."""


@dataclass(frozen=True)
class SearchResult:
    """Distances and parents found by a search from one start cell."""

    start: Cell
    distance: dict[Cell, int]
    parent: dict[Cell, Cell]

    def path(self, goal: Cell) -> list[Cell]:
        """Returns the cells from the start to ``goal`` inclusive (empty if unreached)."""
        if goal not in self.distance:
            return []
        cells = [goal]
        while cells[-1] != self.start:
            cells.append(self.parent[cells[-1]])
        return cells[::-1]


def flood(
    adjacency: Adjacency, start: Cell, limit: int, closed: Collection[Cell], stops: Collection[Cell],
    parents: bool = True,
) -> SearchResult:
    """Returns unit-cost distances from ``start`` up to ``limit`` steps, where ``closed`` cells
    cannot be entered and ``stops`` cells can be entered but not crossed. Without ``parents``
    the result knows distances only (no paths)."""
    dist: dict[Cell, int] = {start: 0}
    parent: dict[Cell, Cell] = {}
    frontier = [start]
    for d in range(1, limit + 1):
        nxt_frontier: list[Cell] = []
        for here in frontier:
            for nxt in adjacency[here]:
                if nxt in dist or nxt in closed:
                    continue
                dist[nxt] = d
                if parents:
                    parent[nxt] = here
                if nxt not in stops:
                    nxt_frontier.append(nxt)
        if not nxt_frontier:
            break
        frontier = nxt_frontier
    return SearchResult(start, dist, parent)


def search(
    adjacency: Adjacency,
    start: Cell,
    limit: int,
    can_enter: Callable[[Cell], bool],
    can_continue: Callable[[Cell], bool],
    cost: Callable[[Cell], int] | None = None,
    step_cost: Callable[[Cell, Cell], int] | None = None,
) -> SearchResult:
    """Returns the cells reachable from ``start`` within ``limit`` steps (or total cost).

    A cell counts as reached when it may be entered; the search goes on from it only when
    ``can_continue`` allows (an enemy stops a move; a friend may be crossed). With ``cost``
    (the price of entering a cell, ≥ 1) or ``step_cost`` (the price of one step from a cell to
    the next, ≥ 0: a free bridge) the search is a Dijkstra; without either, a BFS.
    """
    dist: dict[Cell, int] = {start: 0}
    parent: dict[Cell, Cell] = {}
    if cost is not None and step_cost is None:
        enter = cost
        step_cost = lambda _here, nxt: enter(nxt)  # noqa: E731
    if step_cost is None:
        queue: deque[Cell] = deque([start])
        while queue:
            here = queue.popleft()
            d = dist[here] + 1
            if d > limit:
                continue
            for nxt in adjacency[here]:
                if nxt in dist or not can_enter(nxt):
                    continue
                dist[nxt] = d
                parent[nxt] = here
                if can_continue(nxt):
                    queue.append(nxt)
        return SearchResult(start, dist, parent)
    heap: list[tuple[int, Cell]] = [(0, start)]
    done: set[Cell] = set()
    while heap:
        d0, here = heapq.heappop(heap)
        if here in done:
            continue
        done.add(here)
        if here != start and not can_continue(here):
            continue
        for nxt in adjacency[here]:
            if not can_enter(nxt):
                continue
            d = d0 + step_cost(here, nxt)
            if d <= limit and d < dist.get(nxt, limit + 1):
                dist[nxt] = d
                parent[nxt] = here
                heapq.heappush(heap, (d, nxt))
    return SearchResult(start, dist, parent)
