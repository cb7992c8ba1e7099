"""Zargo's Lords moves: one counter or an escorted stack, from hex to hex or along a stated route
(rulebook "MOUVEMENTS", "ESCORTES", "DÉTAIL DES CAPACITÉS — AILÉS", "— MOINES").

A move is written ``FROM TO`` (the referee finds a route) or as the route itself, the start then
every hex entered (``0904 0905 0906``), judged step by step by the step rules of
:mod:`~referee.games.zargo.paths`. A route matters where it can change an outcome: a Knight's
charge and a Serpent's line run straight. When a charger could reach a hex next to an enemy both
straight and by another route, ``FROM TO`` does not pick (rules.yaml ``route-default``): the
player states the path, and the legal actions list both. The Monks' vanishing and reappearance
are here too.
"""

from __future__ import annotations

from referee.games.zargo import actions as act
from referee.games.zargo.acting import Found, active_stack, engaged, own_turn, paralysed
from referee.games.zargo.paths import (
    Blocked,
    Mover,
    Reach,
    Surroundings,
    blocked,
    other_route,
    reach,
    straight_line,
    walk,
)
from referee.games.zargo.rules import COMBAT, ESCORTS, MONKS, MOVEMENT, TERRAIN, WINGED
from referee.games.zargo.state import PARALYSIS, Turn, ZargoState, cell, key, occ, unit
from referee.games.zargo.tables import UNRECORDED, Reads
from referee.games.zargo.world import Terrain
from referee.geometry.search import Cell
from referee.i18n import N_
from referee.rulings import RuleRef, Ruling

__all__ = [
    "appear_reach", "apply_appear", "apply_move", "apply_vanish", "check_appear", "check_move", "check_vanish",
    "destinations", "escort_fits", "moving", "route_choices",
]

REASONS = {
    "own-hex": N_("the counter already stands there"),
    "open-sea": N_("the sea is crossed only over a cloud bridge"),
    "enemy-hex": N_("an enemy stands there; attack it from a hex next to it"),
    "hex-taken": N_("a counter stands there; only an infantry escort may share a hex"),
    "mountain-foot": N_("a mountain is climbed only from its foot, as a whole month's move"),
    "mountain-descent": N_("leaving a mountain takes the whole month's move"),
    "zone": N_("a hex next to an enemy is entered only to attack it, and the move ends there"),
    "enemy-in-path": N_("enemies are never crossed"),
    "chasm": N_("a magic chasm stops whatever enters it"),
    "bridge-chain": N_("a cloud bridge runs from coast to coast, never straight onto another"),
    "not-a-step": N_("it is not next to the hex before it"),
}
"""Why a hex cannot be reached, by the code of :class:`~referee.games.zargo.paths.Blocked`."""
_ONE_BRIDGE = N_("a move crosses one cloud bridge only")
_TERRAIN_CODES = frozenset({"open-sea", "mountain-foot", "mountain-descent", "chasm", "bridge-chain"})


# ---- who moves --------------------------------------------------------------------------------


def escort_fits(state: ZargoState, label: str, stack: tuple[str, ...], reads: Reads = UNRECORDED) -> bool:
    """ESCORTES: a foot soldier may join a lone own counter that is not one; a foot archer
    (fantarcher) counts as a foot soldier when rules.yaml ``fantarcher-escort`` says yes."""
    if len(stack) != 1:
        return False
    u, other = unit(state, label), unit(state, stack[0])
    if other.people != u.people:
        return False
    if "archer" in (u.kind, other.kind):
        archers_escort = reads.choice(state.tables, "fantarcher-escort") == "yes"
    else:
        archers_escort = False

    def foot(kind: str) -> bool:
        return kind == "infantry" or (kind == "archer" and archers_escort)

    return foot(u.kind) and not foot(other.kind)


def moving(state: ZargoState, a: act.Move, reads: Reads = UNRECORDED) -> tuple[tuple[str, ...], Mover] | Found:
    """Returns the labels that move and their :class:`Mover`, or the violations."""
    out: Found = []
    stack = active_stack(state, a.source)
    if not isinstance(stack, tuple):
        return stack
    if a.label is not None:
        if a.label not in stack:
            return [
                Ruling.violation("not-there", "no {label} stands on {hex}", (MOVEMENT,), label=a.label, hex=a.source)
            ]
        if len(stack) == 1:
            return [
                Ruling.violation(
                    "lone-counter", "{label} stands alone on {hex}: move it as {hex} TO", (MOVEMENT,),
                    label=a.label, hex=a.source,
                )
            ]
        labels: tuple[str, ...] = (a.label,)
    else:
        labels = stack
    for label in labels:
        k = key(a.source, label)
        if k in state.moved:
            out.append(
                Ruling.violation(
                    "moved-twice", "{label} on {hex} has already moved this turn", (MOVEMENT,),
                    label=label, hex=a.source,
                )
            )
        elif k in state.acted and "flames" not in unit(state, label).powers:  # DRAGONS: burn, then move
            out.append(
                Ruling.violation(
                    "already-engaged", "{label} on {hex} has declared an attack or a shot and stays put", (COMBAT,),
                    label=label, hex=a.source,
                )
            )
    held = paralysed(state, a.source, reads)
    if held is not None:
        out.append(held)
    if out:
        return out
    if len(labels) > 1:
        reads.use("escort-move")
    units = [unit(state, lab) for lab in labels]
    start = cell(state, a.source)
    mountain = state.tables.world.terrain[start] is Terrain.MOUNTAINS
    descent = mountain and reads.choice(state.tables, "mountain-descent") == "whole-month"
    one_bridge = state.tables.choice("bridge-chain") == "one-per-move"
    flies = len(labels) == 1 and units[0].flies
    return labels, Mover(start, min(u.move for u in units), flies, descent=descent and not flies,
                         one_bridge=one_bridge)


def surroundings(state: ZargoState, labels: tuple[str, ...]) -> Surroundings:
    """What the moving counters meet: enemies, friends, zones, and where an escort may join."""
    o = occ(state)
    people = unit(state, labels[0]).people
    joins = len(labels) == 1 and (unit(state, labels[0]).infantry or unit(state, labels[0]).kind == "archer")
    memo_key = ("around", f"{people}:{labels[0] if joins else ''}")
    found = o.memo.get(memo_key)
    if isinstance(found, Surroundings):
        return found
    stack_ok: frozenset[Cell] = frozenset()
    if joins:
        stack_ok = frozenset(
            cell(state, h)
            for h, stack in state.board.items()
            if h not in state.paralysed and escort_fits(state, labels[0], stack)
        )
    o.memo[memo_key] = around = Surroundings(
        enemies=o.enemies_of(people), friends=o.friends_of(people), zones=o.zones_against(people), stack_ok=stack_ok
    )
    return around


def reach_of(state: ZargoState, source: str, labels: tuple[str, ...], mover: Mover) -> Reach:
    """The search of :func:`paths.reach` for these counters, done once per state."""
    memo = occ(state).memo
    memo_key = ("reach", f"{source}:{'+'.join(labels)}")
    found = memo.get(memo_key)
    if not isinstance(found, Reach):
        found = memo[memo_key] = reach(state.tables.world, mover, surroundings(state, labels))
    return found


# ---- which route ------------------------------------------------------------------------------


def _charger(state: ZargoState, labels: tuple[str, ...]) -> bool:
    """Whether the route of this move can change an outcome: a lone Knight (its charge) or a lone
    Serpent (its line), DÉTAIL DES CAPACITÉS — CHEVALIERS and — SERPENTS."""
    return len(labels) == 1 and bool({"charge", "line-charge"} & set(unit(state, labels[0]).powers))


def _faces_enemy(state: ZargoState, people: str, goal: Cell) -> bool:
    """Whether an enemy that may be attacked stands next to ``goal`` (a charge could follow)."""
    o = occ(state)
    grid = state.tables.world.grid
    enemies = o.enemies_of(people)
    return any(n in enemies and n not in o.paralysed for n in grid.neighbours(goal))


def route_choices(
    state: ZargoState, source: str, labels: tuple[str, ...], mover: Mover, goal: Cell
) -> tuple[list[Cell], list[Cell]] | None:
    """Returns two legal routes to ``goal`` that differ in effect (the straight charge line and
    another), or None when every legal route has the same effect."""
    if not _charger(state, labels) or not _faces_enemy(state, unit(state, labels[0]).people, goal):
        return None
    world = state.tables.world
    line = straight_line(world.grid, mover.start, goal)
    if line is None or len(line) < 3:
        return None
    around = surroundings(state, labels)
    if walk(world, mover, around, line) is not None:
        return None
    other = other_route(world, mover, around, line)
    return None if other is None else (line, other)


def route_of(state: ZargoState, a: act.Move, labels: tuple[str, ...], mover: Mover) -> list[Cell]:
    """Returns the route a legal move takes: the stated one, the direct step, the straight line
    where rules.yaml ``route-default`` takes it, or a cheapest route."""
    grid = state.tables.world.grid
    if a.path is not None:
        return [cell(state, h) for h in a.path]
    goal = cell(state, a.target)
    if goal in grid.neighbours(mover.start):
        return [mover.start, goal]
    choices = route_choices(state, a.source, labels, mover, goal)
    if choices is not None:
        return choices[0]
    return reach_of(state, a.source, labels, mover).path(goal)


# ---- the move check ---------------------------------------------------------------------------


def _refusal(state: ZargoState, what: str, found: Blocked, mover: Mover, cites: tuple[RuleRef, ...],
             stated: bool) -> Ruling:
    hex_name = state.tables.world.grid.name(found.hex)
    section = TERRAIN if found.code in _TERRAIN_CODES else COMBAT if found.code == "zone" else MOVEMENT
    cites = (section, *cites)
    if found.code == "too-far":
        if stated:
            return Ruling.counted(
                "too-far", "{what} has {n} movement point, not enough for step {step} to {hex} (woods cost 2)",
                "{what} has {n} movement points, not enough for step {step} to {hex} (woods cost 2)",
                mover.points, cites, what=what, step=found.step or 0, hex=hex_name)
        return Ruling.counted(
            "too-far", "{what} cannot reach {hex} with {n} movement point (woods cost 2)",
            "{what} cannot reach {hex} with {n} movement points (woods cost 2)", mover.points, cites,
            what=what, hex=hex_name)
    reason = _ONE_BRIDGE if found.code == "bridge-chain" and mover.one_bridge else REASONS[found.code]
    if stated and found.step is not None:
        return Ruling.violation(found.code, "{what} cannot take step {step} to {hex}: {reason}", cites,
                                what=what, step=found.step, hex=hex_name, reason=reason)
    return Ruling.violation(found.code, "{what} cannot end on {hex}: {reason}", cites, what=what, hex=hex_name,
                            reason=reason)


def check_move(state: ZargoState, a: act.Move, reads: Reads = UNRECORDED) -> Found:
    """MOUVEMENTS (general and terrain), COMBAT (zones), ESCORTES, AILÉS: one move of a counter or
    an escorted stack, FROM TO or along a stated route, by the step rules of :mod:`paths`."""
    found = moving(state, a, reads)
    if isinstance(found, list):
        return found
    labels, mover = found
    world = state.tables.world
    grid = world.grid
    what = " + ".join(labels)
    cites = ((WINGED,) if mover.flies else ()) + ((ESCORTS,) if len(labels) > 1 else ())
    goal = cell(state, a.target)
    _disclose_move(state, a, labels, goal, reads)
    around = surroundings(state, labels)
    direct = a.path is None and goal in grid.neighbours(mover.start)
    if a.path is not None or direct:
        route = [cell(state, h) for h in a.path] if a.path is not None else [mover.start, goal]
        wrong = walk(world, mover, around, route)
        if wrong is not None:
            _disclose_block(state, wrong, reads)
            return [_refusal(state, what, wrong, mover, cites, stated=a.path is not None)]
        return []
    if goal not in reach_of(state, a.source, labels, mover).ends:
        found_block = blocked(world, mover, around, goal) or Blocked("too-far", goal)
        _disclose_block(state, found_block, reads)
        return [_refusal(state, what, found_block, mover, cites, stated=False)]
    choices = route_choices(state, a.source, labels, mover, goal)
    if choices is None:
        return []
    if reads.choice(state.tables, "route-default") == "straight-when-possible":
        return []
    line, other = (" ".join(grid.name(c) for c in r) for r in choices)
    return [
        Ruling.violation(
            "state-the-path",
            "{what} may reach {hex} straight ({line}: a charge's line) or by another route ({other}): "
            "state the path",
            (MOVEMENT, *cites), what=what, hex=a.target, line=line, other=other,
        )
    ]


def _disclose_move(state: ZargoState, a: act.Move, labels: tuple[str, ...], goal: Cell, reads: Reads) -> None:
    """Records the readings a move's ruling relies on, where they can decide it."""
    t = state.tables
    grid = t.world.grid
    hexes = [cell(state, h) for h in (a.path or (a.source, a.target))]
    if t.lettered & set(hexes):
        reads.use("wrap-letters")
    people = unit(state, labels[0]).people
    if goal in occ(state).zones_against(people) or (goal in occ(state).enemies_of(people)):
        reads.use("zone-entry")
    if any(grid.name(n) in state.cities for h in hexes for n in grid.neighbours(h)):
        reads.use("city-zone")
    if t.world.terrain[goal] is Terrain.CHASM:
        reads.use("paralysis-count")
    if t.bridge_ends & set(hexes):
        reads.use("bridge-chain")
    target_stack = state.board.get(a.target)
    if len(labels) == 1 and target_stack is not None:
        escort_fits(state, labels[0], target_stack, reads)


def _disclose_block(state: ZargoState, found: Blocked, reads: Reads) -> None:
    if found.code == "bridge-chain":
        reads.use("bridge-chain")
    elif found.code == "mountain-descent":
        reads.use("mountain-descent")


def destinations(state: ZargoState, source: str, label: str | None) -> tuple[list[str], list[list[str]]]:
    """Returns every hex a move from ``source`` may end on with ``FROM TO``, and the stated routes
    of the hexes where ``FROM TO`` must name one (the same search as :func:`check_move`)."""
    found = moving(state, act.Move(source=source, target=source, label=label))
    if isinstance(found, list):
        return [], []
    labels, mover = found
    grid = state.tables.world.grid
    plain: list[str] = []
    stated: list[list[str]] = []
    ask = state.tables.choice("route-default") == "ask"
    for c in sorted(reach_of(state, source, labels, mover).ends):
        choices = route_choices(state, source, labels, mover, c) if ask else None
        if choices is None:
            plain.append(grid.name(c))
        else:
            stated += [[grid.name(x) for x in route] for route in choices]
    return sorted(plain), stated


def apply_move(state: ZargoState, a: act.Move, w: Turn) -> None:
    """Moves the counters along their route; a chasm holds them (MOUVEMENTS — RÈGLES PARTICULIÈRES)."""
    found = moving(state, a)
    assert not isinstance(found, list)
    labels, mover = found
    grid = state.tables.world.grid
    path = tuple(grid.name(c) for c in route_of(state, a, labels, mover))
    for label in labels:
        w.remove(a.source, label)
    w.board[a.target] = (*labels, *w.board[a.target]) if a.target in w.board else labels  # a joining escort first
    moved = dict(state.moved)
    acted = list(state.acted)
    for label in labels:
        moved[key(a.target, label)] = path
        old = key(a.source, label)
        if old in acted:  # a Dragon lord that burned first, then moved
            acted[acted.index(old)] = key(a.target, label)
    w.update = {"moved": moved, "acted": tuple(acted)}
    if state.tables.world.terrain[cell(state, a.target)] is Terrain.CHASM:
        w.reads.use("paralysis-count")
        w.paralysed[a.target] = PARALYSIS
        w.events.append(
            Ruling.counted(
                "paralysed", "{hex} is a magic chasm: held for {n} turn, safe from attack",
                "{hex} is a magic chasm: held for {n} turns, safe from attack",
                PARALYSIS, (TERRAIN, WINGED) if mover.flies else (TERRAIN,), hex=a.target,
            )
        )


# ---- the Monks --------------------------------------------------------------------------------


def check_vanish(state: ZargoState, a: act.Vanish, reads: Reads = UNRECORDED) -> Found:
    """MOINES: a Monk lord that has not moved vanishes; that is its whole turn."""
    out: Found = []
    stack = active_stack(state, a.hex)
    if not isinstance(stack, tuple):
        return stack
    if len(stack) != 1 or "vanish" not in unit(state, stack[0]).powers:
        return [Ruling.violation("cannot-vanish", "only a lone Monk lord may vanish", (MONKS,))]
    if key(a.hex, stack[0]) in state.moved:
        out.append(Ruling.violation("moved-then-vanish", "a Monk that moved cannot vanish in the same turn", (MONKS,)))
    out += engaged(state, a.hex, reads)
    return out


def apply_vanish(state: ZargoState, a: act.Vanish, w: Turn) -> None:
    """MOINES: the Monk leaves the board; its marker stays."""
    label = state.board[a.hex][0]
    w.remove(a.hex, label)
    w.update = {"vanished": {**state.vanished, a.hex: (label, state.month)}}
    w.events.append(Ruling.event("vanished", "the Monk on {hex} vanishes; its marker stays", (MONKS,), hex=a.hex))


def appear_reach(state: ZargoState, marker: str, reads: Reads = UNRECORDED) -> list[str]:
    """MOINES: where a vanished Monk may reappear: within its move, over anything but open sea
    and chasms, on a free hex; a cloud bridge counts one hex of the move, or none (rules.yaml
    ``monk-reappear``)."""
    label, _month = state.vanished[marker]
    world = state.tables.world
    grid = world.grid
    o = occ(state)
    start = cell(state, marker)
    free_bridges = state.tables.choice("monk-reappear") == "bridge-free"
    bridges = frozenset(world.bridges) | frozenset((b, a) for a, b in world.bridges)
    points = unit(state, label).move
    best = {start: 0}
    frontier = [start]
    while frontier:
        nxt_frontier = []
        for here in frontier:
            for n in grid.neighbours(here):
                if world.terrain[n] in (Terrain.SEA, Terrain.CHASM):
                    continue
                crossing = (here, n) in bridges
                if crossing:
                    reads.use("monk-reappear")
                d = best[here] + (0 if crossing and free_bridges else 1)
                if d <= points and d < best.get(n, points + 1):
                    best[n] = d
                    nxt_frontier.append(n)
        frontier = nxt_frontier
    return sorted(
        grid.name(c) for c in best if o.land_free(c) and (grid.name(c) not in state.vanished or c == start)
    )


def check_appear(state: ZargoState, a: act.Appear, reads: Reads = UNRECORDED) -> Found:
    """MOINES: a Monk vanished in an earlier month reappears within its move."""
    out = own_turn(state)
    if out:
        return out
    found = state.vanished.get(a.marker)
    if found is None:
        return [Ruling.violation("no-marker", "no vanished Monk's marker lies on {hex}", (MONKS,), hex=a.marker)]
    label, month = found
    if unit(state, label).people != state.active:
        return [
            Ruling.violation(
                "not-yours", "the marker on {hex} belongs to the {owner}", (MONKS,),
                hex=a.marker, owner=unit(state, label).people,
            )
        ]
    if month >= state.month:
        out.append(Ruling.violation("vanished-now", "a Monk reappears the month after it vanished", (MONKS,)))
    elif a.target not in appear_reach(state, a.marker, reads):
        out.append(
            Ruling.violation(
                "appear-far", "{hex} is out of the Monk's reach, or not a free land hex", (MONKS,), hex=a.target
            )
        )
    return out


def apply_appear(state: ZargoState, a: act.Appear, w: Turn) -> None:
    """MOINES: the Monk is back on the board, free to move and attack this turn."""
    label, _month = state.vanished[a.marker]
    w.board[a.target] = (label,)
    w.update = {"vanished": {k: v for k, v in state.vanished.items() if k != a.marker}}
    w.events.append(Ruling.event("appeared", "the Monk reappears on {hex}", (MONKS,), hex=a.target))
