"""Movimento, Combattimento (regole generali), arcieri: the checks of moves, attacks and shots.

A counter moves up to 6 squares (value 1, archers included) or 10 (heroes), in any direction
(diagonal steps count one square, interpretation diagonal-movement), never through or onto
another counter nor onto the sea except land-and-sea squares; a mountain square costs 2; entering
a river or a built wall square ends the move. Each counter controls its four orthogonal
neighbours (its zone; wall squares are nobody's zone once built): entering the zone of an enemy
not yet attacked ends the move and attacks that enemy; the zone of an enemy already attacked may
be crossed, and a counter that stops in it joins that attack (interpretation zone-stop). Entry
points: :data:`MOVE_CHECKS`, :func:`destinations`, :class:`Situation`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import compress
from typing import cast

from referee.games.iliad.board import Terrain
from referee.games.iliad.roster import Counter, CounterId, Side
from referee.games.iliad.rules import (
    ALLOWANCE,
    ARCHERY,
    BATTLE,
    CALENDAR,
    COUNTERS,
    DUEL,
    MAP,
    MOVEMENT,
    NIGHT,
    SETUP,
    TERRAIN,
    TURN,
    VICTORY,
    ZONES,
)
from referee.games.iliad.sequence import outcome_ruling
from referee.games.iliad.state import Attack, IliadState, Phase, occupancy
from referee.geometry.search import Cell, SearchResult
from referee.i18n import N_
from referee.rulings import Arg, Ruling

RESOLVE_WORD = N_("resolve")
"""The word that resolves a move, as messages show it (translated with them)."""


def outcome_text(state: IliadState) -> str:
    """How a finished game ended, in the active language."""
    return outcome_ruling(state).message

ALLOWANCE_VALUE_ONE = 6  # Movimento: counters of value 1 move 6 squares
ALLOWANCE_HERO = 10  # Movimento: the others move 10
MOUNTAIN_COST = 2  # Movimento: regole particolari
ARCHER_RANGE = 3  # Combattimento: arcieri
_STOPS = (Terrain.RIVER, Terrain.WALL)


def god_doubled(state: IliadState, counter: Counter) -> bool:
    """Il calendario: a value-1 counter of the side the gods favour this hour (its value doubles)."""
    return counter.value == 1 and state.favoured() is counter.side


def allowance(counter: Counter, state: IliadState | None = None) -> int:
    """Movimento: the squares a counter may cover in one move (a value-1 counter doubled by the
    gods moves 6, or 10 under interpretation doubled-movement moves-ten)."""
    if counter.value != 1:
        return ALLOWANCE_HERO
    if state is not None and god_doubled(state, counter) and state.tables.choice("doubled-movement") == "moves-ten":
        return ALLOWANCE_HERO
    return ALLOWANCE_VALUE_ONE


def joins_attacked(state: IliadState) -> bool:
    """Interpretation zone-stop: True when stopping beside an enemy already attacked joins that attack."""
    return state.tables.choice("zone-stop") == "attack-or-join"


def diagonal(state: IliadState) -> bool:
    """Interpretation diagonal-movement: whether a diagonal step is one square."""
    return state.tables.choice("diagonal-movement") == "orthogonal-and-diagonal"


@dataclass
class Situation:
    """Who stands where and whose zones stop the mover's side this move."""

    state: IliadState
    occ: dict[Cell, CounterId] = field(init=False)
    engaged: frozenset[CounterId] = field(init=False)
    control: dict[Cell, tuple[CounterId, ...]] = field(init=False)
    """Squares in the zone of an enemy of the side to move (wall squares excluded)."""

    def __post_init__(self) -> None:
        state = self.state
        self.occ = occupancy(state)
        engaged = {t for a in state.attacks for t in a.targets}
        if state.tables.choice("arrow-target-zones") == "engaged":
            engaged |= {s.target for s in state.shots}
        self.engaged = frozenset(engaged)
        board = state.tables.board
        walls = board.walls if state.wall else None
        neighbours = board.grid.neighbours
        control: dict[Cell, list[CounterId]] = {}
        roster = state.tables.roster.by_id
        for ident, cell in state.where.items():
            if roster[ident].side is state.side:
                continue
            for n in neighbours(cell):
                if walls is None or not walls[n]:
                    control.setdefault(n, []).append(ident)
        self.control = {c: tuple(v) for c, v in control.items()}

    def wall_square(self, cell: Cell) -> bool:
        """Interpretation wall-zones: a built wall's squares are in nobody's zone."""
        return self.state.wall and self.state.tables.board.squares[cell].terrain is Terrain.WALL

    @cached_property
    def _stop(self) -> bytearray:
        """1 where entering a square ends a move: an unengaged enemy's zone, a river, a built wall."""
        stop = bytearray(self.state.tables.board.stoppers(self.state.wall))
        for cell, enemies in self.control.items():
            if any(e not in self.engaged for e in enemies):
                stop[cell] = 1
        return stop

    @cached_property
    def _open(self) -> bytearray:
        """Squares a move may enter: free of counters and not open sea."""
        free = bytearray(self.state.tables.board.land)
        for cell in self.occ:
            free[cell] = 0
        return free

    @cached_property
    def _cost(self) -> list[int]:
        return [1 + (MOUNTAIN_COST - 1) * m for m in self.state.tables.board.mountains]

    def zone_of(self, cell: Cell) -> tuple[CounterId, ...]:
        """The enemies in whose zone a square lies."""
        return self.control.get(cell, ())

    def required(self, cell: Cell) -> tuple[CounterId, ...]:
        """Combattimento: regole generali: the enemies not yet attacked whose zone holds a square
        (a counter stopping there must attack each of them)."""
        return tuple(e for e in self.control.get(cell, ()) if e not in self.engaged)

    def arrival(self, cell: Cell) -> tuple[CounterId, ...]:
        """The enemies a counter stopping on a square attacks when it names none: those not yet
        attacked, or, beside enemies that all are (interpretation zone-stop attack-or-join),
        every one of them: it joins their attacks."""
        required = self.required(cell)
        if required or not joins_attacked(self.state):
            return required
        return self.control.get(cell, ())

    @cached_property
    def _closed(self) -> frozenset[Cell]:
        """Squares no move may enter: the sea and every counter's square."""
        return self.state.tables.board.sea | frozenset(self.occ)

    @cached_property
    def _stops(self) -> frozenset[Cell]:
        return frozenset(compress(range(len(self._stop)), self._stop))

    def reach(self, counter: Counter, start: Cell) -> SearchResult:
        """Movimento: every square the counter's move may enter within its allowance (a
        unit-cost flood when no mountain lies within reach, else a costed search)."""
        state = self.state
        board = state.tables.board
        limit = allowance(counter, state)
        if board.mountain_reach[start] > limit:
            return board.grid.flood(start, limit, self._closed, self._stops, diagonal(state))
        stop = self._stop
        return board.grid.search(
            start, limit, cast(Callable[[Cell], bool], self._open.__getitem__), lambda c: not stop[c],
            self._cost.__getitem__, diagonal(state),
        )


def combat_groups(attacks: Iterable[Attack]) -> list[tuple[list[CounterId], list[CounterId]]]:
    """Combattimento (interpretation battle-sides): the combats the attacks form.

    Returns (attackers, defenders) per combat, in order of the first attack declared.
    """
    parent: dict[CounterId, CounterId] = {}

    def root(x: CounterId) -> CounterId:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    order: list[CounterId] = []
    for a in attacks:
        order.append(a.attacker)
        for t in a.targets:
            parent[root(t)] = root(a.attacker)
        root(a.attacker)
    groups: dict[CounterId, tuple[list[CounterId], list[CounterId]]] = {}
    for a in attacks:
        g = groups.setdefault(root(a.attacker), ([], []))
        if a.attacker not in g[0]:
            g[0].append(a.attacker)
        for t in a.targets:
            if t not in g[1]:
                g[1].append(t)
    return list(groups.values())


def composition_problem(state: IliadState, attacks: Iterable[Attack], new: Attack) -> Ruling | None:
    """Combattimento: duello, campo aperto: heroes fight heroes only by duel, one on one;
    an open battle has at most one hero a side (interpretation battle-sides)."""
    for attackers, defenders in combat_groups((*attacks, new)):
        if new.attacker not in attackers:
            continue
        a_heroes = [x for x in attackers if state.counter(x).hero]
        d_heroes = [x for x in defenders if state.counter(x).hero]
        if a_heroes and d_heroes and (len(attackers) > 1 or len(defenders) > 1):
            return Ruling.violation(
                "duel-one-on-one",
                "{heroes} and {enemies} are heroes on both sides of one combat ({attackers} against {defenders}); "
                "heroes fight heroes only in a duel, one against one",
                (DUEL,), heroes=", ".join(a_heroes), enemies=", ".join(d_heroes), attackers=", ".join(attackers),
                defenders=", ".join(defenders),
            )
        for side_heroes in (a_heroes, d_heroes):
            if len(side_heroes) > 1:
                return Ruling.violation(
                    "one-hero-per-side",
                    "{heroes} would stand on one side of the same open battle; a hero may be joined only by "
                    "value-1 counters",
                    (BATTLE,), heroes=", ".join(side_heroes),
                )
    return None


# ---------------------------------------------------------------------------------------------
# Checks: each names its rule and returns None or one Ruling.


@dataclass
class MoveContext:
    """One move, attack in place or shot being judged."""

    state: IliadState
    sit: Situation
    counter: Counter
    target: Cell | None
    """Destination square; None when the counter stays (attack in place or a shot)."""
    named: tuple[CounterId, ...] | None = None
    """Enemies named as attacked; None: those the move must attack."""
    shoot: CounterId | None = None

    @property
    def start(self) -> Cell | None:
        return self.state.where.get(self.counter.id)

    @property
    def end(self) -> Cell | None:
        return self.start if self.target is None else self.target

    def name(self, cell: Cell | None) -> str:
        return "-" if cell is None else self.state.name(cell)

    @cached_property
    def search(self) -> SearchResult | None:
        start = self.start
        return None if start is None else self.sit.reach(self.counter, start)

    @cached_property
    def required(self) -> tuple[CounterId, ...]:
        """Combattimento: regole generali: enemies not yet attacked whose zone holds the end square."""
        if self.target is None:
            return ()
        return self.sit.required(self.target)

    @cached_property
    def targets(self) -> tuple[CounterId, ...]:
        """The enemies this action attacks (named, or those its end square makes it attack)."""
        if self.named is not None:
            return self.named
        return () if self.target is None else self.sit.arrival(self.target)

    def attack(self) -> Attack | None:
        return Attack(attacker=self.counter.id, targets=self.targets) if self.targets else None


def check_phase(ctx: MoveContext) -> Ruling | None:
    """Come si gioca: counters move and attack during their side's move."""
    phase = ctx.state.phase
    if phase is Phase.MOVE:
        return None
    if phase is Phase.SETUP:
        return Ruling.violation("setup-not-finished", "the set-up is not finished: every counter needs its start "
                                "square first", (SETUP,))
    if phase is Phase.DUEL:
        duel = ctx.state.tables.calendar.duel(ctx.state.day, ctx.state.hour)
        return Ruling.violation("duel-hour", "day {day} hour {hour} opens with the duel of {greek} and {trojan}; "
                                "type {resolve} to fight it", (CALENDAR,), day=ctx.state.day, hour=ctx.state.hour,
                                greek=duel.greek if duel else "?", trojan=duel.trojan if duel else "?",
                                resolve=RESOLVE_WORD)
    if phase is Phase.NIGHT:
        return Ruling.violation("night", "day {day} is over; play the night first (referee night)",
                                (NIGHT,), day=ctx.state.day)
    return Ruling.violation("game-over", "the game is over: {reason}", (VICTORY,), reason=outcome_text(ctx.state))


def check_side(ctx: MoveContext) -> Ruling | None:
    """Come si gioca: during a side's move the other side's counters stay put."""
    if ctx.counter.side is ctx.state.side:
        return None
    return Ruling.violation(
        "not-your-move", "{counter} is {adjective}; it is the {side}' move", (TURN,),
        counter=ctx.counter.id, adjective=ctx.counter.side.adjective, side=ctx.state.side.label,
    )


def check_on_map(ctx: MoveContext) -> Ruling | None:
    """Combattimento, Il calendario: the dead and the departed Thracians no longer act."""
    if ctx.start is not None:
        return None
    if ctx.counter.id in ctx.state.removed:
        return Ruling.violation("thracian-gone", "{counter} left with the Thracians", (CALENDAR,),
                                counter=ctx.counter.id)
    return Ruling.violation("counter-dead", "{counter} is dead", (DUEL, BATTLE), counter=ctx.counter.id)


def check_once(ctx: MoveContext) -> Ruling | None:
    """Movimento: regole generali (interpretation move-once): one move per counter per move."""
    if ctx.counter.id not in ctx.state.moved:
        return None
    return Ruling.violation("already-moved", "{counter} has already moved or attacked in this move",
                            (MOVEMENT,), counter=ctx.counter.id)


def check_fit(ctx: MoveContext) -> Ruling | None:
    """Combattimento: duello, Il calendario: the wounded wait for morning; Achilles sulks."""
    if ctx.counter.id in ctx.state.wounded:
        return Ruling.violation("wounded", "{counter} is wounded and stays put until the next morning",
                                (DUEL,), counter=ctx.counter.id)
    if ctx.state.sulking(ctx.counter.id):
        return Ruling.violation(
            "achilles-sulks", "{counter} sulks in his tent until the first move of day {day} unless the Trojans "
            "attack him", (CALENDAR,), counter=ctx.counter.id, day=ctx.state.tables.calendar.achilles_enters[0])
    return None


def check_square(ctx: MoveContext) -> Ruling | None:
    """Movimento: regole generali, particolari: the end square is free land (or land-and-sea)."""
    target = ctx.target
    if target is None:
        return None
    name = ctx.name(target)
    if target == ctx.start:
        return Ruling.violation("no-move", "{counter} already stands on {square}", (MOVEMENT,),
                                counter=ctx.counter.id, square=name)
    other = ctx.sit.occ.get(target)
    if other is not None:
        return Ruling.violation("square-occupied", "{counter} already stands on {square}; counters never share a "
                                "square", (MOVEMENT,), counter=other, square=name)
    if ctx.state.terrain(target) is Terrain.SEA:
        return Ruling.violation("sea", "{square} is open sea; only land-and-sea squares may be entered",
                                (MAP, TERRAIN), square=name)
    return None


def check_route(ctx: MoveContext) -> Ruling | None:
    """Movimento: a route within the allowance that crosses no counter and stops where it must."""
    target, start, search = ctx.target, ctx.start, ctx.search
    if target is None or start is None or search is None or target == start or target in search.distance:
        return None
    if check_square(ctx) is not None:
        return None  # an occupied or sea square is reported once, by check_square
    state = ctx.state
    limit = allowance(ctx.counter, state)
    grid = state.tables.board.grid
    terrain, occ = state.terrain, ctx.sit.occ
    diag = diagonal(state)

    def cost(c: Cell) -> int:
        return MOUNTAIN_COST if terrain(c) is Terrain.MOUNTAIN else 1

    def open_(c: Cell) -> bool:
        return terrain(c) is not Terrain.SEA

    tiers: tuple[tuple[str, Callable[[Cell], bool], Callable[[Cell], bool]], ...] = (
        ("too-far", open_, lambda c: True),
        ("counters-in-the-way", lambda c: open_(c) and c not in occ, lambda c: True),
        ("must-stop", lambda c: open_(c) and c not in occ, lambda c: terrain(c) not in _STOPS),
    )
    moves: dict[str, Arg] = {"counter": ctx.counter.id, "limit": limit, "start": ctx.name(start),
                             "end": ctx.name(target)}
    for code, enter, go_on in tiers:
        found = grid.search(start, limit, enter, go_on, cost, diag)
        if target in found.distance:
            continue
        if code == "too-far":
            free = grid.search(start, 4 * (grid.rows + grid.cols), enter, go_on, cost, diag)
            need = free.distance.get(target)
            cites = (ALLOWANCE, TERRAIN)
            if need is None:
                return Ruling.violation("too-far", "{counter} ({limit} squares) from {start} to {end} has no way "
                                        "over land", cites, **moves)
            if any(terrain(c) is Terrain.MOUNTAIN for c in free.path(target)):
                return Ruling.violation("too-far", "{counter} ({limit} squares) from {start} to {end} needs {need} "
                                        "movement points (a mountain square costs {cost})", cites, need=need,
                                        cost=MOUNTAIN_COST, **moves)
            return Ruling.violation("too-far", "{counter} ({limit} squares) from {start} to {end} needs {need} "
                                    "movement points", cites, need=need, **moves)
        if code == "counters-in-the-way":
            return Ruling.violation(code, "{counter} ({limit} squares) from {start} to {end}: other counters stand "
                                    "on every such route; no counter passes through another", (MOVEMENT,), **moves)
        return Ruling.violation(code, "{counter} ({limit} squares) from {start} to {end}: every such route enters "
                                "a river or wall square first, which ends the move", (TERRAIN,), **moves)
    stoppers = sorted({e for c in search.distance for e in ctx.sit.zone_of(c) if e not in ctx.sit.engaged})
    return Ruling.violation(
        "zone-of-control",
        "{counter} ({limit} squares) from {start} to {end}: every such route enters the zone of an enemy not yet "
        "attacked ({enemies}), where the move must stop",
        (ZONES,), enemies=", ".join(stoppers) or "?", **moves,
    )


def check_targets(ctx: MoveContext) -> Ruling | None:
    """Combattimento: regole generali: attack every enemy not yet attacked whose zone you enter,
    and only enemies whose zone you stand in (no attack across a wall)."""
    end = ctx.end
    if end is None:
        return None
    state = ctx.state
    for ident in ctx.targets:
        enemy = state.counter(ident)
        if enemy.side is ctx.counter.side:
            return Ruling.violation("not-an-enemy", "{enemy} is {adjective} like {counter}", (ZONES,),
                                    enemy=ident, adjective=enemy.side.adjective, counter=ctx.counter.id)
        if ident not in state.where:
            return Ruling.violation("target-gone", "{enemy} is not on the map", (ZONES,), enemy=ident)
        if ident not in ctx.sit.zone_of(end):
            where = {"square": ctx.name(end), "enemy": ident, "at": state.name(state.where[ident])}
            if ctx.sit.wall_square(end):
                return Ruling.violation(
                    "not-in-zone", "{square} is not in {enemy}'s zone (its four orthogonal neighbours on {at}); a "
                    "wall square is in nobody's zone", (ZONES,), **where)
            return Ruling.violation(
                "not-in-zone", "{square} is not in {enemy}'s zone (its four orthogonal neighbours on {at})",
                (ZONES,), **where)
    missing = [e for e in ctx.required if e not in ctx.targets]
    if missing:
        return Ruling.violation(
            "must-attack",
            "{counter} on {square} stands in the zone of {enemies}, not yet attacked; a counter may not end beside "
            "an enemy without attacking it",
            (ZONES,), counter=ctx.counter.id, square=ctx.name(end), enemies=", ".join(missing),
        )
    zone = ctx.sit.zone_of(end) if ctx.target is not None else ()
    if zone and not ctx.targets and joins_attacked(state):
        return Ruling.violation(
            "must-attack",
            "{counter} on {square} stands in the zone of {enemies}, already attacked; the zone of an attacked "
            "enemy may be crossed, but a counter that stops there joins the attack (interpretation zone-stop)",
            (ZONES,), counter=ctx.counter.id, square=ctx.name(end), enemies=", ".join(zone),
        )
    if ctx.target is None and not ctx.shoot and not ctx.targets:
        return Ruling.violation("no-target", "{counter} attacks nobody", (ZONES,), counter=ctx.counter.id)
    return None


def check_composition(ctx: MoveContext) -> Ruling | None:
    """Combattimento: duello, campo aperto: duels one on one, battles with one hero a side."""
    attack = ctx.attack()
    if attack is None:
        return None
    return composition_problem(ctx.state, ctx.state.attacks, attack)


def check_shot(ctx: MoveContext) -> Ruling | None:
    """Combattimento: arcieri: an archer not otherwise fighting shoots an enemy within three
    squares in a straight line, once per move (interpretations archer-zone, archer-line)."""
    target = ctx.shoot
    if target is None:
        return None
    state, archer = ctx.state, ctx.counter
    if not archer.archer:
        return Ruling.violation("not-an-archer", "{counter} is not an archer (no A on the counter)",
                                (COUNTERS, ARCHERY), counter=archer.id)
    enemy = state.counter(target)
    if enemy.side is archer.side:
        return Ruling.violation("not-an-enemy", "{enemy} is {adjective} like {counter}", (ARCHERY,),
                                enemy=target, adjective=enemy.side.adjective, counter=archer.id)
    where, at = ctx.end, state.where.get(target)
    if at is None:
        return Ruling.violation("target-gone", "{enemy} is not on the map", (ARCHERY,), enemy=target)
    assert where is not None
    line = shot_line(state, where, at)
    if line is None:
        args: dict[str, Arg] = {"enemy": target, "at": state.name(at), "range": ARCHER_RANGE, "archer": archer.id,
                "square": state.name(where)}
        if state.tables.choice("archer-line") != "orthogonal-only":
            return Ruling.violation(
                "out-of-range", "{enemy} on {at} is not within {range} squares of {archer} on {square} along one "
                "row, column or diagonal", (ARCHERY,), **args)
        return Ruling.violation(
            "out-of-range", "{enemy} on {at} is not within {range} squares of {archer} on {square} along one "
            "row or column", (ARCHERY,), **args)
    return None


def check_shot_once(ctx: MoveContext) -> Ruling | None:
    """Combattimento: arcieri (interpretation archer-zone): one shot per move, and none by an
    archer that attacks in this move."""
    state, archer = ctx.state, ctx.counter
    if ctx.shoot is None or not archer.archer:
        return None
    if any(s.archer == archer.id for s in state.shots):
        return Ruling.violation("already-shot", "{archer} has already shot in this move", (ARCHERY,),
                                archer=archer.id)
    if ctx.targets or any(a.attacker == archer.id for a in state.attacks):
        return Ruling.violation("archer-engaged", "{archer} attacks in an open battle in this move and cannot "
                                "shoot as well", (ARCHERY, ZONES), archer=archer.id)
    return None


def shot_line(state: IliadState, frm: Cell, to: Cell) -> int | None:
    """Combattimento: arcieri: the distance along a straight line, if within range (else None)."""
    grid = state.tables.board.grid
    (r1, c1), (r2, c2) = grid.rc(frm), grid.rc(to)
    dr, dc = abs(r2 - r1), abs(c2 - c1)
    straight = dr == 0 or dc == 0
    if not straight and state.tables.choice("archer-line") == "orthogonal-and-diagonal":
        straight = dr == dc
    distance = max(dr, dc)
    return distance if straight and 1 <= distance <= ARCHER_RANGE else None


MoveCheck = Callable[[MoveContext], Ruling | None]

TURN_CHECKS: tuple[MoveCheck, ...] = (check_phase, check_side, check_on_map)
"""May this side act with a counter now at all (a failure stops the checks)."""
READY_CHECKS: tuple[MoveCheck, ...] = (*TURN_CHECKS, check_once, check_fit)
"""May this counter still move this hour (``referee legal`` asks these before listing squares)."""
MOVE_CHECKS: tuple[MoveCheck, ...] = (
    *READY_CHECKS, check_square, check_route, check_targets, check_composition, check_shot, check_shot_once,
)
ATTACK_CHECKS: tuple[MoveCheck, ...] = (*TURN_CHECKS, check_once, check_fit, check_targets, check_composition)
SHOT_CHECKS: tuple[MoveCheck, ...] = (*TURN_CHECKS, check_fit, check_shot, check_shot_once)


def judge_checks(ctx: MoveContext, checks: tuple[MoveCheck, ...]) -> list[Ruling]:
    """Runs the checks; once the counter cannot act at all, later checks are skipped."""
    found: list[Ruling] = []
    for check in checks:
        ruling = check(ctx)
        if ruling is not None:
            found.append(ruling)
            if check in TURN_CHECKS:
                break
    return found


def destinations(state: IliadState, sit: Situation, counter: Counter) -> list[tuple[Cell, tuple[CounterId, ...]]]:
    """Movimento: every square the counter may end on now, with the enemies it then attacks.

    Does not check the phase, the side or whether the counter may act (see the checks).
    """
    start = state.where.get(counter.id)
    if start is None:
        return []
    out: list[tuple[Cell, tuple[CounterId, ...]]] = []
    control = sit.control
    for cell in sit.reach(counter, start).distance:
        zone = control.get(cell)
        if zone is None:
            if cell != start:
                out.append((cell, ()))
            continue
        targets = sit.arrival(cell)
        if cell == start or (targets and composition_problem(
                state, state.attacks, Attack(attacker=counter.id, targets=targets))):
            continue
        out.append((cell, targets))
    return out


def in_range(state: IliadState, archer_cell: Cell, side: Side) -> list[CounterId]:
    """Combattimento: arcieri: the enemies of ``side`` an archer on a square may shoot."""
    return [e for e, c in state.where.items() if state.counter(e).side is not side
            and shot_line(state, archer_cell, c) is not None]
