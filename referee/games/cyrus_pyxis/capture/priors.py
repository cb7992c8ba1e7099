"""The priors from the rules: what each cell may hold in the photo taken after one turn.

Entry point: :func:`cell_priors`. No turn is enumerated (a turn combines up to eleven legions'
moves, so the turns number in the millions); each cell's possible contents are built from what
one legion, one attack or one retreat may do, which over-includes but never leaves out:

- a legion of the side to play that may still move may leave its cell (nobody there, V) and end
  on any cell it could reach were its movable friends out of the way (its side there, V);
- a cell it may attack, and a combat already pending, ends with the winner on it: either side
  (VI); a combat never leaves its cell empty (the winner stays);
- a loser that retreats runs along its row toward its own side, over cells a friend may hold,
  and stops on a cell that may be free (VI, retreat); every such cell may end with its side;
- terrain never changes during a turn (tokens are laid at the set-up only, II).

The weights over a cell's possible contents are a modelling choice, not a rules reading: the
present content keeps :data:`PRESENT_WEIGHT` and the others share the rest equally; a pending
combat's cell, which shows both sides now, shares equally between them (see the decision record
``docs/decisions/capture-priors.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.capture import CellContent
from referee.games.cyrus_pyxis.capture.search import ENGINE, sides_on, value_of
from referee.games.cyrus_pyxis.movement import destination_cells
from referee.games.cyrus_pyxis.state import CyrusState, Occupancy
from referee.games.cyrus_pyxis.tables import LegionId, Phase, Side
from referee.geometry.search import Cell

PRESENT_WEIGHT = 0.9
"""Share of a cell's prior kept by its present content when a legal turn may change it (the
other possible contents share the rest equally): a modelling choice, not a rules reading. In
seeded random games about 90 % of such cells keep their content over a turn, and 0.9 has the
lowest log-loss of the weights tried (``bench/bench_cell_priors.py``; decision record
``docs/decisions/capture-priors.md``)."""

Possible = dict[Cell, set[Side | None]]
"""Cell → the sides (None: nobody) some legal turn may leave standing there."""


def cell_priors(state: CyrusState) -> dict[str, dict[CellContent, float]]:
    """III, V, VI: each cell's probability of each content in the photo after one turn of the
    side to play, from the rules alone (1 on the present content where no turn changes the cell).

    Outside a turn in play (the set-up, a game over) nothing a photo capture explains can change
    a cell (``infer_turn`` reports such photos unexplained): every cell keeps its present content.
    """
    grid = state.tables.grid
    present = sides_on(state)
    pending = Occupancy(state).pending
    possible = possible_sides(state)
    out: dict[str, dict[CellContent, float]] = {}
    for cell in grid.cells():
        terrain = state.terrain_at(cell).value
        sides = sorted(possible[cell], key=lambda s: value_of(s) or "")
        # a pending combat shows both counters now: neither side is "what stays"
        now = None if cell in pending else present.get(cell)
        weights = weigh(sides, now, keeps=cell not in pending)
        out[grid.name(cell)] = {(value_of(s), terrain): w for s, w in weights.items()}
    return out


def weigh(sides: Sequence[Side | None], now: Side | None, *, keeps: bool) -> dict[Side | None, float]:
    """The modelling choice: the present side keeps :data:`PRESENT_WEIGHT` when it may stay and
    something else may come, the others share the rest; without a present side, equal shares."""
    if len(sides) == 1:
        return {sides[0]: 1.0}
    if not keeps or now not in sides:
        return dict.fromkeys(sides, 1.0 / len(sides))
    share = (1.0 - PRESENT_WEIGHT) / (len(sides) - 1)
    return {s: PRESENT_WEIGHT if s is now else share for s in sides}


def possible_sides(state: CyrusState) -> Possible:
    """III, V, VI: cell → every side (None: nobody) some legal turn of the side to play may leave
    there, the present one included (over-includes, never leaves out)."""
    present = sides_on(state)
    possible: Possible = {c: {present.get(c)} for c in state.tables.grid.cells()}
    if state.phase in (Phase.SETUP, Phase.OVER):
        return possible
    side = state.active
    occ = Occupancy(state)
    movable = ENGINE.movable(state) if state.phase in (Phase.MOVE, Phase.ANY) else []
    combats = set(occ.combats())
    free = {c for c in possible if c not in occ.cells}
    for lid in movable:
        cells, leaves = reach(state, movable, lid)
        if cells or leaves:  # V: moves are optional; a king may leave the board
            possible[state.where[lid]].add(None)
            free.add(state.where[lid])
        for cell in cells:
            possible[cell].add(side)
            if occ.has_enemy(cell, side):
                combats.add(cell)
    for cell in combats:
        possible[cell] |= {side, side.other}  # VI: the winner stays on the combat's cell
    add_retreats(state, possible, combats, free)
    return possible


def reach(state: CyrusState, movable: Sequence[LegionId], lid: LegionId) -> tuple[list[Cell], bool]:
    """V: the cells a legion may end its move on in some order of the turn's moves (its friends
    that may move are taken off first: a friend is crossed anyway, and its cell may be left), and
    whether it may leave the board (I: a king, by its winning edge)."""
    kept = {n: c for n, c in state.where.items() if n == lid or n not in movable}
    alone = state.model_copy(update={"where": kept})
    cells, exit_cost = destination_cells(alone, Occupancy(alone), state.tables.by_id[lid])
    return cells, exit_cost is not None


def add_retreats(state: CyrusState, possible: Possible, combats: set[Cell], free: set[Cell]) -> None:
    """VI: adds each side where a loser's retreat from a combat may end. A retreat may run over a
    cell where another combat's retreat ended before it (each combat is resolved once), so the
    walks are repeated until no new end is found."""
    side = state.active
    base = {cell: set(sides) for cell, sides in possible.items()}
    ends: dict[tuple[Cell, Side], set[Cell]] = {}  # (cell, side) → combats whose retreat may end there
    changed = True
    while changed:
        changed = False
        for combat in sorted(combats):
            for loser in (side, side.other):
                for end in retreat_ends(state, base, ends, free, combat, loser):
                    sources = ends.setdefault((end, loser), set())
                    if combat not in sources:
                        sources.add(combat)
                        changed = True
    for cell, loser in ends:
        possible[cell].add(loser)


def retreat_ends(state: CyrusState, base: Mapping[Cell, set[Side | None]],
                 ends: Mapping[tuple[Cell, Side], set[Cell]], free: set[Cell],
                 combat: Cell, loser: Side) -> list[Cell]:
    """VI, retreat: the cells a loser's retreat from a combat may stop on. It runs along the
    combat's row toward its side's edge over cells a friend may hold (after the moves, or after
    another combat's retreat), and stops on the first free one; a cell that may be either is
    both a stop and a way on; a cell no friend may hold ends the walk."""
    grid = state.tables.grid
    out: list[Cell] = []
    cell: Cell | None = grid.step(combat, 0, loser.retreat_step)
    while cell is not None:
        if cell in free:
            out.append(cell)
        if loser not in base[cell] and not ends.get((cell, loser), set()) - {combat}:
            break
        cell = grid.step(cell, 0, loser.retreat_step)
    return out
