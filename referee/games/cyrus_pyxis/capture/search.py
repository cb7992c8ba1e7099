"""The chain search: every legal turn that may have produced what the photo shows.

A legion that stayed is where it was (combats move only the legions in them); a plain move ends
on a cell the photo shows held by its side; so the moves form chains, each starting from a
legion that must have moved (its cell now shows no friend, or another legion's label) and
running through friends whose cells were taken, to a cell newly held, an attack, or a king
leaving the board. :class:`ChainSearch` enumerates every such chain set, then plays each through
the engine's own ``judge``/``apply``/``legal_actions`` with every set of archer supports.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from referee.dice import NoDice
from referee.games.cyrus_pyxis import actions as act
from referee.games.cyrus_pyxis.capture.report import SearchLimits, Seen
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.movement import OFF, destinations
from referee.games.cyrus_pyxis.state import CyrusState, Occupancy
from referee.games.cyrus_pyxis.tables import Kind, LegionId, Phase, Side
from referee.geometry.search import Cell
from referee.rulings import Verdict

MAX_INFANTRY = 5  # V: five infantry per turn
MAX_PER_KIND = 1  # V: one legion of each other type per turn

ENGINE = CyrusEngine()

Candidates = Mapping[Cell, frozenset[LegionId]]
Judged = tuple[CyrusState, Verdict] | None
"""An action's verdict and the state the search judged it in (None: played without a verdict)."""
Outcome = tuple[CyrusState, tuple[str, ...], tuple[str, ...], tuple[Judged, ...]]


@dataclass(frozen=True)
class Option:
    """One way a legion may move: a plain move, an attack, or leaving the board (cell None)."""

    legion: LegionId
    dest: str
    cell: Cell | None
    attack: bool


@dataclass
class Explanation:
    """A turn that fits the photo, and the position it leads to."""

    state: CyrusState
    moves: tuple[str, ...]
    actions: tuple[str, ...]
    others: list[tuple[str, ...]] = field(default_factory=list)
    """Other move sets ending in the same position."""
    judged: tuple[Judged, ...] = ()
    """For each action, its verdict and the state the search judged it in (the file keeps them)."""

    def cost(self) -> tuple[int, int, tuple[str, ...]]:
        supports = sum(1 for a in self.actions if a.startswith("support "))
        return (supports, len(self.moves), self.actions)


class ChainSearch:
    """Chains of moves from vacated cells to newly held cells, played through the engine."""

    def __init__(self, state: CyrusState, limits: SearchLimits, candidates: Candidates) -> None:
        self.state = state
        self.limits = limits
        self.candidates = candidates
        self.side = state.active
        self.grid = state.tables.grid
        self.by_id = state.tables.by_id
        self.found: dict[tuple[object, ...], Explanation] = {}
        self.played: dict[frozenset[tuple[str, str]], list[Outcome]] = {}
        self.nodes = 0
        self.stopped = False
        self.occ = Occupancy(state)
        movable = state.phase in (Phase.MOVE, Phase.ANY)
        self.movable: list[LegionId] = ENGINE.movable(state) if movable else []
        self.options = {lid: self._options(lid) for lid in self.movable}
        counts: dict[Kind, int] = {}
        for name in state.moved:
            counts[self.by_id[name].kind] = counts.get(self.by_id[name].kind, 0) + 1
        self.moved_counts = counts
        self.origin = {lid: state.where[lid] for lid in self.movable}
        self.at_origin = {cell: lid for lid, cell in self.origin.items()}
        self.pending = list(self.occ.combats())
        self.target: Mapping[Cell, Side | None] = {}
        self.goals: set[Cell] = set()

    @property
    def complete(self) -> bool:
        return not self.stopped

    def _options(self, lid: LegionId) -> list[Option]:
        """V: where a legion may end, counting cells of friends that could move away first."""
        state = self.state
        kept = {n: c for n, c in state.where.items() if n == lid or n not in self.movable}
        alone = state.model_copy(update={"where": kept})
        legion = self.by_id[lid]
        out: list[Option] = []
        for name in destinations(alone, Occupancy(alone), legion):
            if name == OFF:
                out.append(Option(lid, OFF, None, attack=False))
                continue
            cell = self.grid.parse(name)
            out.append(Option(lid, name, cell, attack=self.occ.has_enemy(cell, legion.side)))
        return out

    def unreachable(self, seen: Mapping[Cell, Side | None]) -> list[Cell]:
        """Cells the photo shows newly held by the side to play that no legion of it can reach
        (by a move, an attack, or a retreat from an attack): no legal turn explains them."""
        side = self.side
        held = {c for n, c in self.state.where.items() if self.by_id[n].side is side}
        reach = {o.cell for opts in self.options.values() for o in opts if o.cell is not None}
        attacks = {o.cell for opts in self.options.values() for o in opts if o.attack}
        attacks |= set(self.pending)
        out: list[Cell] = []
        for cell, now in sorted(seen.items()):
            if now is not side or cell in held or cell in reach:
                continue
            if any(a is not None and self._retreat_fits(a, cell, side) for a in attacks):
                continue
            out.append(cell)
        return out

    def _may_end(self, lid: LegionId, cell: Cell) -> bool:
        """Whether the label seen on a cell allows this legion there."""
        allowed = self.candidates.get(cell)
        return allowed is None or lid in allowed

    def run(self, target: Mapping[Cell, Side | None]) -> None:
        """Collects the explanations of one fully specified photo."""
        self.target = target
        side = self.side
        held = {c for n, c in self.state.where.items() if self.by_id[n].side is side}
        self.goals = {c for c, s in target.items() if s is side and c not in held}
        forced = [
            lid
            for lid in self.movable
            if target.get(self.origin[lid]) is not side or not self._may_end(lid, self.origin[lid])
        ]
        for cell, lid in self.at_origin.items():
            if target.get(cell) is side and lid not in forced and not self._may_end(lid, cell):
                forced.append(lid)
        forced.sort(key=lambda lid: len(self.options[lid]))
        self._chain(forced, frozenset(), (), dict(self.moved_counts), frozenset(), frozenset())

    def _quota_ok(self, counts: Mapping[Kind, int], kind: Kind) -> bool:
        cap = MAX_INFANTRY if kind is Kind.INFANTRY else MAX_PER_KIND
        return counts.get(kind, 0) < cap

    def _retreat_fits(self, combat: Cell, end: Cell, side: Side) -> bool:
        """VI: a retreat runs along the combat's row toward the retreating side's edge."""
        (ra, ca), (re, ce) = self.grid.rc(combat), self.grid.rc(end)
        return ra == re and (ce - ca) * side.retreat_step > 0

    def _chain(
        self,
        todo: Sequence[LegionId],
        filled: frozenset[Cell],
        plan: tuple[Option, ...],
        counts: Mapping[Kind, int],
        used: frozenset[Cell],
        attacked: frozenset[Cell],
    ) -> None:
        """Extends the chains until every legion that must move has and every goal is held."""
        if self.stopped:
            return
        self.nodes += 1
        if self.nodes > self.limits.max_nodes:
            self.stopped = True
            return
        open_goals = self.goals - filled
        if len(open_goals) > len(todo) + self._deferrable(open_goals):
            return
        if not todo:
            if len(open_goals) == self._deferrable(open_goals):
                self._check(plan)
                self._pull_by_pending(filled, plan, counts, used, attacked)
            return
        lid, rest = todo[0], tuple(todo[1:])
        legion = self.by_id[lid]
        if not self._quota_ok(counts, legion.kind):
            return
        counts2 = {**counts, legion.kind: counts.get(legion.kind, 0) + 1}
        side = self.side
        moving = {p.legion for p in plan}
        for opt in self.options[lid]:
            plan2 = (*plan, opt)
            cell = opt.cell
            if cell is None:  # a king leaving the board ends its chain
                self._chain(rest, filled, plan2, counts2, used, attacked)
                continue
            if cell in used or (opt.attack and cell in attacked):
                continue
            seen_here = self.target.get(cell)
            if opt.attack:
                hit = attacked | {cell}
                if seen_here is side and cell in open_goals and self._may_end(lid, cell):
                    self._chain(rest, filled | {cell}, plan2, counts2, used | {cell}, hit)
                if seen_here is not side.other:
                    continue
                # lost: eliminated, or retreated onto a new cell or a cell a friend left
                self._chain(rest, filled, plan2, counts2, used, hit)
                for goal in open_goals:
                    if (
                        goal not in self.occ.cells
                        and self._retreat_fits(cell, goal, side)
                        and self._may_end(lid, goal)
                    ):
                        self._chain(rest, filled | {goal}, plan2, counts2, used | {goal}, hit)
                for spot, friend in self.at_origin.items():
                    if (
                        spot not in used
                        and friend != lid
                        and self.target.get(spot) is side
                        and self._retreat_fits(cell, spot, side)
                        and self._may_end(lid, spot)
                    ):
                        after = pull(friend, rest, moving)
                        self._chain(after, filled, plan2, counts2, used | {spot}, hit)
                continue
            if seen_here is not side or not self._may_end(lid, cell):
                continue  # V: a plain move ends where the photo shows it
            owner = self.at_origin.get(cell)
            if owner is None:
                if cell in open_goals:
                    self._chain(rest, filled | {cell}, plan2, counts2, used | {cell}, attacked)
            else:
                # the friend standing there moved away first (its own chain, or this one)
                after = pull(owner, rest, moving)
                self._chain(after, filled, plan2, counts2, used | {cell}, attacked)

    def _pull_by_pending(
        self,
        filled: frozenset[Cell],
        plan: tuple[Option, ...],
        counts: Mapping[Kind, int],
        used: frozenset[Cell],
        attacked: frozenset[Cell],
    ) -> None:
        """A combat pending before the photo may end in a retreat onto a cell a friend left."""
        moving = {p.legion for p in plan}
        for combat in self.pending:
            for spot, friend in self.at_origin.items():
                if (
                    spot not in used
                    and friend not in moving
                    and self.target.get(spot) is self.side
                    and self._retreat_fits(combat, spot, self.side)
                ):
                    self._chain((friend,), filled, plan, counts, used | {spot}, attacked)

    def _deferrable(self, goals: Iterable[Cell]) -> int:
        """Goals that a combat already pending before the photo might fill with a retreat."""
        return sum(
            1 for g in goals if any(self._retreat_fits(p, g, self.side) for p in self.pending)
        )

    # ---- playing a candidate through the engine ---------------------------------------------

    def _check(self, plan: tuple[Option, ...]) -> None:
        key = frozenset((o.legion, o.dest) for o in plan)
        outcomes = self.played.get(key)
        if outcomes is None:
            if len(self.played) >= self.limits.max_candidates:
                self.stopped = True
                return
            outcomes = self.played[key] = self._play(plan)
        for final, moves, actions, judged in outcomes:
            if self._matches(final):
                self._keep(final, moves, actions, judged)

    def _play(self, plan: tuple[Option, ...]) -> list[Outcome]:
        """Plays the moves in a workable order, then every way to finish the turn."""
        state = self.state
        texts: list[str] = []
        judged: list[Judged] = []
        for opt in order(plan, self.origin):
            move = act.Move(legion=opt.legion, cell=opt.dest)
            verdict = ENGINE.judge(state, move)
            if not verdict.legal:
                return []
            judged.append((state, verdict))
            state = apply_action(state, move)
            texts.append(move.text())
        moves = tuple(texts)
        return [(final, moves, moves + tail, (*judged, *more)) for final, tail, more in finish_turn(state)]

    def _matches(self, final: CyrusState) -> bool:
        at: dict[Cell, list[LegionId]] = {}
        for lid, cell in final.where.items():
            at.setdefault(cell, []).append(lid)
        by_id = self.by_id
        for cell, want in self.target.items():
            here = at.get(cell, [])
            if len(here) > 1:
                return False
            got = by_id[here[0]].side if here else None
            if got is not want:
                return False
            if here and not self._may_end(here[0], cell):
                return False
        return True

    def _keep(self, final: CyrusState, moves: tuple[str, ...], actions: tuple[str, ...],
              judged: tuple[Judged, ...]) -> None:
        key: tuple[object, ...] = (tuple(sorted(final.where.items())), final.winner)
        found = Explanation(final, moves, actions, judged=judged)
        old = self.found.get(key)
        if old is None:
            self.found[key] = found
            return
        sets = {tuple(sorted(m)) for m in [old.moves, *old.others, moves]}
        if found.cost() < old.cost():
            found.others = old.others
            self.found[key] = found
            old = found
        old.others = [m for m in sets if m != tuple(sorted(old.moves))]
        if len(self.found) >= self.limits.max_explanations:
            self.stopped = True


def pull(friend: LegionId, rest: Sequence[LegionId], moving: set[LegionId]) -> tuple[LegionId, ...]:
    """The legions still to move once a cell of ``friend`` is taken: it must move too."""
    if friend in moving:
        return tuple(rest)
    return (friend, *[r for r in rest if r != friend])


def order(plan: Sequence[Option], origin: Mapping[LegionId, Cell]) -> list[Option]:
    """A legion ending on a friend's cell moves after that friend; a king leaving moves last."""
    by_origin = {origin[o.legion]: o for o in plan}
    done: list[Option] = []
    placed: set[LegionId] = set()

    def visit(o: Option) -> None:
        if o.legion in placed:
            return
        placed.add(o.legion)
        ahead = by_origin.get(o.cell) if o.cell is not None else None
        if ahead is not None and ahead is not o:
            visit(ahead)
        done.append(o)

    for o in sorted(plan, key=lambda o: o.cell is None):
        visit(o)
    return done


def apply_action(state: CyrusState, action: act.CyrusAction) -> CyrusState:
    return ENGINE.apply(state, action, NoDice()).state


Tail = tuple[CyrusState, tuple[str, ...], tuple[Judged, ...]]


def finish_turn(state: CyrusState) -> Iterator[Tail]:
    """III: ends the movement step, then every set of supports either side may declare, then
    the resolution; yields each position the turn may end in and the actions after the moves."""
    if state.phase is Phase.OVER:
        yield state, (), ()
        return
    if state.phase in (Phase.MOVE, Phase.ANY):
        verdict = ENGINE.judge(state, act.Done())
        if not verdict.legal:
            return
        yield from declare(apply_action(state, act.Done()), ("done",), None, ((state, verdict),))
        return
    yield from declare(state, (), None)


def declare(
    state: CyrusState, texts: tuple[str, ...], floor: tuple[Side | None, str] | None,
    judged: tuple[Judged, ...] = (),
) -> Iterator[Tail]:
    """IV.2, VI.1: every set of supports (each set once, in name order), then ``resolve``."""
    if state.phase is Phase.SUPPORT:
        side = state.declaring
        supports = sorted(
            (a for a in ENGINE.legal_actions(state) if isinstance(a, act.Support)),
            key=lambda a: a.text(),
        )
        for support in supports:
            if floor is not None and floor[0] is side and support.text() <= floor[1]:
                continue
            after = apply_action(state, support)
            yield from declare(after, (*texts, support.text()), (side, support.text()), (*judged, None))
        yield from declare(apply_action(state, act.Done()), (*texts, "done"), None, (*judged, None))
        return
    if state.phase is Phase.COMBAT:
        verdict = ENGINE.judge(state, act.Resolve())
        if verdict.legal:
            yield apply_action(state, act.Resolve()), (*texts, "resolve"), (*judged, (state, verdict))
        return
    yield state, texts, judged


def run_search(
    state: CyrusState,
    limits: SearchLimits,
    candidates: Candidates,
    readable: Mapping[Cell, Seen],
    unreadable: Sequence[Cell],
) -> ChainSearch:
    """Runs the search for every way the unreadable cells may be filled."""
    search = ChainSearch(state, limits, candidates)
    for filled in itertools.product((None, Side.GREEK, Side.PERSIAN), repeat=len(unreadable)):
        target = {c: side_of(s.occupant) for c, s in readable.items()}
        target.update(zip(unreadable, filled, strict=True))
        search.run(target)
        if search.stopped:
            break
    return search


def sides_on(state: CyrusState) -> dict[Cell, Side]:
    by_id = state.tables.by_id
    return {cell: by_id[lid].side for lid, cell in state.where.items()}


def side_of(text: str | None) -> Side | None:
    return Side(text) if text else None


def value_of(side: Side | None) -> str | None:
    return side.value if side else None


def word(side: Side | None) -> str:
    return side.value if side else "empty"
