"""V: movement. Checks for one move, and the destinations a legion may reach.

A legion steps orthogonally, 1 to its allowance (king and cavalry 5, others 3); it may cross
friends but not stop on them; an enemy cell stops it (ending there attacks, VI); an enemy
already attacked cannot be attacked again; only a king leaves the board, by its winning edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from referee.games.cyrus_pyxis.rules import COMBAT, GAME_END, GOAL, MOVE_STEP, MOVEMENT, SETUP, SUPPORT_STEP
from referee.games.cyrus_pyxis.state import CyrusState, Occupancy
from referee.games.cyrus_pyxis.tables import PLURAL, SETUP_STEPS, Kind, Legion, Phase, Side, Terrain
from referee.geometry.search import Cell, SearchResult
from referee.i18n import N_, _
from referee.phrases import form, plural_form
from referee.rulings import Ruling

MAX_INFANTRY_MOVES = 5  # V: up to five infantry per turn
MAX_OTHER_MOVES_PER_KIND = 1  # V: one legion of each other type per turn
OFF = "off"


# stand-in lines a ruling stores in English, said again in the reader's language by phrases.say
EVERY_COST = plural_form("terrain.yaml: every terrain costs {n} square to enter ({provenance})",
                         "terrain.yaml: every terrain costs {n} squares to enter ({provenance})")
MOVEMENT_COST = form(N_("terrain.yaml: movement cost {costs} ({provenance})"))

def winning_col(state: CyrusState, side: Side) -> int:
    """I: the column a king leaves by (Greek: East, the last; Persian: West, the first)."""
    return state.tables.grid.cols - 1 if side is Side.GREEK else 0


def edge_name(side: Side) -> str:
    """I: the name of a side's winning edge."""
    return N_("East") if side is Side.GREEK else N_("West")


def _cost_fn(state: CyrusState) -> Callable[[Cell], int] | None:
    tables = state.tables
    if tables.uniform_cost:
        return None
    return lambda c: tables.cost(state.terrain_at(c))


def movement_disclosures(state: CyrusState) -> tuple[str, ...]:
    """The provisional movement values every move relies on (terrain cost)."""
    rows = state.tables.terrain
    shaky = [t for t in Terrain if rows[t].movement_cost.provenance != "rulebook"]
    if not shaky:
        return ()
    prov = rows[shaky[0]].movement_cost.provenance
    values = {rows[t].movement_cost.value for t in shaky}
    if len(values) == 1 and len(shaky) == len(Terrain):
        cost = values.pop()
        return (EVERY_COST[0 if cost == 1 else 1].format(n=cost, provenance=prov),)
    costs = ", ".join(f"{t.value} {rows[t].movement_cost.value}" for t in shaky)
    return (MOVEMENT_COST.format(costs=costs, provenance=prov),)


@dataclass
class MoveContext:
    """One move being judged: the state, who stands where, the legion and its target."""

    state: CyrusState
    occ: Occupancy
    legion: Legion
    target: Cell | None  # None: off the board

    @property
    def start(self) -> Cell | None:
        return self.state.where.get(self.legion.name)

    @property
    def limit(self) -> int:
        return self.state.tables.allowance(self.legion.kind).value

    def cell_name(self, cell: Cell | None) -> str:
        return OFF if cell is None else self.state.tables.grid.name(cell)

    @cached_property
    def route(self) -> tuple[int, list[Cell]] | None:
        """The cheapest legal route to the target: (squares, cells), or None."""
        start = self.start
        if start is None:
            return None
        search = reach_search(self.state, self.occ, self.legion, start, self.limit, extra=self.target)
        if self.target is None:
            return exit_route(self.state, self.occ, self.legion, search, self.limit)
        if self.target not in search.distance or self.target == start:
            return None
        return search.distance[self.target], search.path(self.target)


def reach_search(
    state: CyrusState, occ: Occupancy, legion: Legion, start: Cell, limit: int, extra: Cell | None = None,
    paths: bool = True,
) -> SearchResult:
    """V: the cells a legion's move may enter within its allowance.

    Friends are crossed; a lone enemy may be entered (an attack) but not crossed; a pending
    combat cannot be entered (its enemy is already attacked). ``extra`` is always enterable so a
    judge can measure the way to a forbidden destination.
    """
    stops, closed = occ.blocking(legion.side)  # enemies: entered, never crossed; combats: not entered
    if extra is not None and extra in closed:
        closed = closed - {extra}
    cost = _cost_fn(state)
    if cost is None:
        return state.tables.grid.flood(start, limit, closed, stops, parents=paths)
    return state.tables.grid.search(start, limit, lambda c: c not in closed, lambda c: c not in stops, cost)


def exit_route(
    state: CyrusState, occ: Occupancy, legion: Legion, search: SearchResult, limit: int
) -> tuple[int, list[Cell]] | None:
    """I, V: the cheapest way off the winning edge (one square beyond the edge cell)."""
    if legion.kind is not Kind.KING:
        return None
    col = winning_col(state, legion.side)
    grid = state.tables.grid
    best: tuple[int, list[Cell]] | None = None
    for cell, dist in search.distance.items():
        if grid.rc(cell)[1] != col or occ.has_enemy(cell, legion.side):
            continue
        if dist + 1 <= limit and (best is None or dist + 1 < best[0]):
            best = (dist + 1, search.path(cell))
    return best


def destination_cells(state: CyrusState, occ: Occupancy, legion: Legion) -> tuple[list[Cell], int | None]:
    """V: the cells a legion may end its move on, and the squares to leave the board (kings).

    Does not check the turn, the phase or the per-turn quota (see the checks).
    """
    start = state.where.get(legion.name)
    if start is None:
        return [], None
    limit = state.tables.allowance(legion.kind).value
    search = reach_search(state, occ, legion, start, limit, paths=legion.kind is Kind.KING)
    friends = occ.enemy_of[legion.side.other]  # cells holding a legion of this side
    cells = [c for c in search.distance if c != start and c not in friends]  # V: never stop on a friend
    exit_ = exit_route(state, occ, legion, search, limit) if legion.kind is Kind.KING else None
    return cells, exit_[0] if exit_ is not None else None


def destinations(state: CyrusState, occ: Occupancy, legion: Legion) -> list[str]:
    """V: the names of every cell (or ``off``) a legion may end its move on."""
    cells, exit_cost = destination_cells(state, occ, legion)
    name = state.tables.grid.name
    out = [name(c) for c in cells]
    if exit_cost is not None:
        out.append(OFF)
    return out


# ---------------------------------------------------------------------------------------------
# Checks: each names its rule and returns None or one Ruling.


def check_move_phase(ctx: MoveContext) -> Ruling | None:
    """III.1: legions move only during their side's movement step."""
    phase = ctx.state.phase
    if phase in (Phase.MOVE, Phase.ANY):
        return None
    if phase is Phase.SETUP:
        side, what, count = SETUP_STEPS[ctx.state.setup_step]
        return Ruling.violation(
            "wrong-phase", "the set-up is not finished: the {side} still lays {what} ({count} in all)",
            (SETUP,), side=side.label, what=PLURAL[what], count=count,
        )
    if phase is Phase.OVER:
        return game_over(ctx.state)
    if phase is Phase.SUPPORT:
        return Ruling.violation(
            "wrong-phase", "the {side} movement step is over: archer supports are being declared",
            (MOVE_STEP, SUPPORT_STEP), side=ctx.state.active.label)
    return Ruling.violation(
        "wrong-phase", "the {side} movement step is over: the combats wait to be resolved",
        (MOVE_STEP, SUPPORT_STEP), side=ctx.state.active.label)


def game_over(state: CyrusState) -> Ruling:
    """III.5: nothing more is played once a side has won (the winner named in any language)."""
    if state.winner is None:
        return Ruling.violation("game-over", "the game is over", (GAME_END,))
    return Ruling.violation("game-over", "the game is over: the {side} has won", (GAME_END,), side=state.winner.label)


def check_own_legion(ctx: MoveContext) -> Ruling | None:
    """III.1: a side moves only its own legions, in its own turn."""
    if ctx.legion.side is ctx.state.active:
        return None
    return Ruling.violation(
        "not-your-legion", "{legion} is {side}; it is the {active} turn", (MOVE_STEP,),
        legion=ctx.legion.name, side=ctx.legion.side.label, active=ctx.state.active.label,
    )


def check_in_play(ctx: MoveContext) -> Ruling | None:
    """VI: an eliminated legion is out of the game."""
    if ctx.start is not None:
        return None
    return Ruling.violation(
        "legion-eliminated", "{legion} was eliminated and is out of the game", (COMBAT,), legion=ctx.legion.name)


def check_moves_once(ctx: MoveContext) -> Ruling | None:
    """V: each legion moves at most once per turn."""
    if ctx.legion.name not in ctx.state.moved:
        return None
    return Ruling.violation(
        "already-moved", "{legion} has already moved this turn", (MOVEMENT,), legion=ctx.legion.name)


def check_quota(ctx: MoveContext) -> Ruling | None:
    """V: at most five infantry and one legion of each other type move per turn."""
    if ctx.legion.name in ctx.state.moved:
        return None  # reported by check_moves_once
    tables = ctx.state.tables
    same = [n for n in ctx.state.moved if tables.by_id[n].kind is ctx.legion.kind]
    if ctx.legion.kind is Kind.INFANTRY:
        if len(same) < MAX_INFANTRY_MOVES:
            return None
        return Ruling.violation(
            "move-quota", "{legion} would be infantry move {count} this turn; the limit is {limit} ({moved} moved)",
            (MOVEMENT,), legion=ctx.legion.name, count=len(same) + 1, limit=MAX_INFANTRY_MOVES, moved=", ".join(same))
    if len(same) < MAX_OTHER_MOVES_PER_KIND:
        return None
    return Ruling.violation(
        "move-quota", "{legion} would be a second {kind} move this turn ({moved} moved); one per type", (MOVEMENT,),
        legion=ctx.legion.name, kind=kind_word(ctx.state, ctx.legion.kind), moved=same[0])


def kind_word(state: CyrusState, kind: Kind) -> str:
    """Matériel II.3: a legion type as messages name it ("royal guard"), translated at render."""
    return state.tables.kinds[kind].label.lower()


def check_destination(ctx: MoveContext) -> Ruling | None:
    """V, VI: the end cell is not the start, holds no friend and no enemy already attacked."""
    lg = ctx.legion
    if ctx.target is None:
        if lg.kind is Kind.KING:
            return None
        return Ruling.violation(
            "only-king-leaves", "{legion} is not a king; only a king leaves the board", (GOAL, MOVEMENT),
            legion=lg.name)
    name = ctx.cell_name(ctx.target)
    if ctx.target == ctx.start:
        return Ruling.violation(
            "no-move", "{legion} is already on {cell}; a move covers 1 to {limit} squares", (MOVEMENT,),
            legion=lg.name, cell=name, limit=ctx.limit)
    enemy = ctx.occ.side_at(ctx.target, lg.side.other)
    friend = ctx.occ.side_at(ctx.target, lg.side)
    if enemy is not None and friend is not None:
        return Ruling.violation(
            "already-attacked", "{enemy} on {cell} is already attacked by {friend}; one attacker per enemy",
            (COMBAT,), enemy=enemy.name, cell=name, friend=friend.name)
    if friend is not None and friend.name != lg.name:
        return Ruling.violation(
            "friend-on-destination", "{friend} already stands on {cell}; friends may be crossed, not shared",
            (MOVEMENT,), friend=friend.name, cell=name)
    return None


def check_route(ctx: MoveContext) -> Ruling | None:
    """V: a route of orthogonal steps within the allowance that crosses no enemy."""
    start = ctx.start
    if start is None or ctx.target == start or (ctx.target is None and ctx.legion.kind is not Kind.KING):
        return None
    if ctx.route is not None:
        return None
    state, lg, limit = ctx.state, ctx.legion, ctx.limit
    grid = state.tables.grid
    measure = _Measure(state)
    target = ctx.target
    if target is None:
        col = winning_col(state, lg.side)
        needed = measure.to_edge(start, col) + 1
    else:
        needed = measure(start, target)
    args: dict[str, str | int] = {"legion": lg.name, "start": grid.name(start), "edge": edge_name(lg.side),
                                  "needed": needed, "kind": kind_word(state, lg.kind)}
    if needed > limit:
        if target is None:
            return Ruling.counted(
                "too-far", "{legion} needs {needed} squares from {start} to leave by the {edge} edge; the {kind} "
                "allowance is {n} square", "{legion} needs {needed} squares from {start} to leave by the {edge} "
                "edge; the {kind} allowance is {n} squares", limit, (MOVEMENT,), **args)
        return Ruling.counted(
            "too-far", "{legion} needs {needed} squares from {start} to reach {cell}; the {kind} allowance is {n} "
            "square", "{legion} needs {needed} squares from {start} to reach {cell}; the {kind} allowance is {n} "
            "squares", limit, (MOVEMENT,), cell=grid.name(target), **args)
    blockers = []
    for cell in sorted(ctx.occ.enemy_of[lg.side]):
        if cell == target:
            continue
        rest = measure.to_edge(cell, winning_col(state, lg.side)) + 1 if target is None else measure(cell, target)
        if measure(start, cell) + rest <= limit:
            enemy = ctx.occ.side_at(cell, lg.side.other)
            assert enemy is not None
            blockers.append(_("{legion} on {cell}").format(legion=enemy.name, cell=grid.name(cell)))
    args["enemies"] = ", ".join(blockers) or "?"
    if target is None:
        return Ruling.counted(
            "enemy-in-path", "every route of at most {n} square from {start} off the {edge} edge crosses an enemy: "
            "{enemies}", "every route of at most {n} squares from {start} off the {edge} edge crosses an enemy: "
            "{enemies}", limit, (MOVEMENT,), **args)
    return Ruling.counted(
        "enemy-in-path", "every route of at most {n} square from {start} to {cell} crosses an enemy: {enemies}",
        "every route of at most {n} squares from {start} to {cell} crosses an enemy: {enemies}", limit, (MOVEMENT,),
        cell=grid.name(target), **args)


class _Measure:
    """Squares between cells on an empty board (Manhattan when every terrain costs 1)."""

    def __init__(self, state: CyrusState) -> None:
        self.grid = state.tables.grid
        self.cost = _cost_fn(state)
        self.big = 4 * (self.grid.rows + self.grid.cols) * max(state.tables.cost(t) for t in Terrain)
        self.searches: dict[Cell, SearchResult] = {}

    def __call__(self, a: Cell, b: Cell) -> int:
        if self.cost is None:
            return self.grid.manhattan(a, b)
        found = self.searches.get(a)
        if found is None:
            found = self.searches[a] = self.grid.search(a, self.big, lambda c: True, lambda c: True, self.cost)
        return found.distance[b]

    def to_edge(self, a: Cell, col: int) -> int:
        return min(self(a, self.grid.cell(r, col)) for r in range(self.grid.rows))


LEGION_CHECKS: tuple[Callable[[MoveContext], Ruling | None], ...] = (
    check_move_phase,
    check_own_legion,
    check_in_play,
    check_moves_once,
    check_quota,
)
"""May this legion move now at all (``referee legal`` asks these before listing cells)."""
MOVE_CHECKS: tuple[Callable[[MoveContext], Ruling | None], ...] = (*LEGION_CHECKS, check_destination, check_route)
"""Every check of a move, in the order a ruling reports them (V)."""
