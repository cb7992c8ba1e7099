"""Reading a turn from a photo: the legal turns that lead from the position before to the photo.

Entry point: :func:`infer_turn`. The photo says, per cell, which side stands there (or nobody)
and which terrain lies there, each with a confidence; optionally it also says how well each
legion's counter label matches the counter seen on a cell (``identity``). The search lists the
turns the rules allow the side to play (moves, archer supports, the resolution of combats) and
keeps those that end with the same sides on the same cells, and with legions whose labels fit.

Turns ending in the same position are one explanation: the photo cannot tell them apart and the
game goes on identically (the one with fewest supports, then fewest moves, is kept). Exactly one
explanation: its actions may be played. Several: precise questions ("which legion is on D7:
Athéna or Samos?"), answered through ``answers``. None: the cells that disagree.

Why the search is complete: a legion that stayed is where it was (combats move only the
legions in them); a plain move ends on a cell the photo shows held by its side; so the moves
form chains, each starting from a legion that must have moved (its cell now shows no friend, or
another legion's label) and running through friends whose cells were taken, to a cell newly
held, an attack, or a king leaving the board. Every such chain is enumerated; every candidate is
then played through the engine's own ``judge``/``apply``/``legal_actions`` with every set of
supports, so an explanation reported is a legal turn. When the search reaches its limits it
says so and asks instead of choosing.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from referee.dice import NoDice
from referee.game import Action
from referee.games.cyrus_pyxis import actions as act
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.movement import OFF, destinations
from referee.games.cyrus_pyxis.state import (
    CyrusPosition,
    CyrusState,
    Kind,
    LegionId,
    Occupancy,
    Phase,
    Side,
)
from referee.grid import Cell

MAX_INFANTRY = 5  # V: five infantry per turn
MAX_PER_KIND = 1  # V: one legion of each other type per turn
FATE_OFF = "off"
FATE_ELIMINATED = "eliminated"

ENGINE = CyrusEngine()

Candidates = Mapping[Cell, frozenset[LegionId]]
Outcome = tuple[CyrusState, tuple[str, ...], tuple[str, ...]]


class SeenCell(Protocol):
    """What the photo shows on one cell (``vision``'s cell readings fit this)."""

    @property
    def occupant(self) -> str | None: ...

    @property
    def terrain(self) -> str: ...

    @property
    def confidence(self) -> float: ...


@dataclass(frozen=True)
class Seen:
    """A plain :class:`SeenCell`: the side on the cell (or None), its terrain, a confidence."""

    occupant: str | None
    terrain: str
    confidence: float = 1.0


@dataclass(frozen=True)
class SearchLimits:
    """The confidence floors and how far the search may go before it asks (it never guesses).

    Attributes:
        min_confidence: cells read below this confidence count as unreadable.
        max_unreadable: more unreadable cells than this and the photo is not used.
        identity_floor: a counter whose best label score is below this is of unknown identity.
        identity_margin: every legion scoring within this of the best label score on a cell
            stays a candidate for that cell.
        joint_margin: when several legal turns fit, the one whose legions' label scores, summed
            over the cells the turns disagree on, beat every other's by this much is taken.
        max_nodes: chain-search steps before the search stops (the result is then incomplete).
        max_candidates: move sets played through the engine before the search stops.
        max_explanations: distinct positions collected before the search stops.
    """

    min_confidence: float = 0.9
    max_unreadable: int = 3
    identity_floor: float = 0.35
    identity_margin: float = 0.12
    joint_margin: float = 0.12
    max_nodes: int = 60_000
    max_candidates: int = 2_500
    max_explanations: int = 48


class Question(BaseModel):
    """What the referee needs to know to settle on one explanation."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cell: str | None = Field(description="The cell asked about (None: a general question).")
    text: str = Field(description="The question: 'which legion is on D7: Athéna or Samos?'.")
    options: tuple[str, ...] = Field(default=(), description="The possible answers (legions).")


class Disagreement(BaseModel):
    """A cell the photo shows differently from anything a legal turn can produce."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cell: str | None
    seen: str = Field(description="What the photo shows there.")
    before: str = Field(description="What the position before had there.")
    problem: str


class CaptureReport(BaseModel):
    """``referee capture`` with a position: what the photo says happened."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    status: Literal["explained", "ambiguous", "unexplained", "unreadable"]
    side: Side = Field(description="The side whose turn was read.")
    moves: tuple[str, ...] = Field(default=(), description="The explanation's moves.")
    actions: tuple[str, ...] = Field(default=(), description="The whole turn to play, in order.")
    questions: tuple[Question, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    unreadable: tuple[str, ...] = Field(default=(), description="Cells read below the floor.")
    explanations: int = Field(default=0, description="Distinct end positions that fit.")
    complete: bool = Field(default=True, description="False if the search hit its limits.")
    position: CyrusPosition | None = Field(default=None, description="The position after.")
    notes: tuple[str, ...] = ()

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        side = self.side.value
        lines: list[str] = []
        if self.status == "explained":
            lines.append(f"The {side} turn in the photo: " + (", ".join(self.moves) or "no move"))
            lines.append("to play: " + "; ".join(self.actions))
        elif self.status == "ambiguous":
            more = "" if self.complete else " (at least)"
            lines.append(f"{self.explanations} legal {side} turns fit the photo{more}:")
            lines += [f"? {q.text}" for q in self.questions]
        elif self.status == "unexplained":
            lines.append(f"no legal {side} turn explains the photo:")
            lines += [f"✗ {d.cell or '-'}: {d.problem}" for d in self.disagreements]
        else:
            lines.append("too many cells could not be read: " + ", ".join(self.unreadable))
        if self.unreadable and self.status != "unreadable":
            lines.append("cells not read clearly: " + ", ".join(self.unreadable))
        lines += [f"note: {n}" for n in self.notes]
        return lines


# ---------------------------------------------------------------------------------------------
# Public API


def infer_turn(
    state: CyrusState,
    seen: Mapping[str, SeenCell],
    limits: SearchLimits | None = None,
    answers: Mapping[str, str] | None = None,
    identity: Mapping[str, Mapping[str, float]] | None = None,
) -> CaptureReport:
    """Returns the legal turns of the side to play that explain what the photo shows.

    Args:
        state: the position before (a movement step, or a turn already under way).
        seen: cell name → what the photo shows there; missing cells count as unreadable.
        limits: confidence floors and search limits.
        answers: the user's answers to earlier questions: ``{"D7": "Athéna"}`` (who stands on
            a cell) or ``{"Cyrus": "off" | "eliminated" | CELL}`` (what became of a legion).
        identity: cell name → {legion name: label score 0..1}: how well each legion's counter
            matches the counter seen there. Legions within ``limits.identity_margin`` of the
            best score stay candidates; without it, any legion of the side may stand there.

    Raises:
        UnknownNameError: an answer names an unknown cell or legion.
    """
    limits = limits or SearchLimits()
    grid = state.tables.grid
    side = state.active
    if state.phase in (Phase.SETUP, Phase.OVER):
        why = "the set-up is not finished" if state.phase is Phase.SETUP else "the game is over"
        problem = f"{why}; a photo is read against a turn in play"
        bad = Disagreement(cell=None, seen="", before="", problem=problem)
        return CaptureReport(status="unexplained", side=side, disagreements=(bad,))
    readable: dict[Cell, Seen] = {}
    unreadable: list[Cell] = []
    for cell in grid.cells():
        got = seen.get(grid.name(cell))
        if got is None or got.confidence < limits.min_confidence:
            unreadable.append(cell)
        else:
            readable[cell] = Seen(got.occupant, got.terrain, got.confidence)
    hidden_names = tuple(grid.name(c) for c in unreadable)
    if len(unreadable) > limits.max_unreadable:
        return CaptureReport(status="unreadable", side=side, unreadable=hidden_names)
    terrain_bad = _terrain_disagreements(state, readable)
    if terrain_bad:
        return CaptureReport(
            status="unexplained",
            side=side,
            disagreements=tuple(terrain_bad),
            unreadable=hidden_names,
        )
    placed, fates = _parse_answers(state, answers or {})
    candidates = _candidates(state, identity, limits, placed)

    before = _sides(state)
    probe = _Search(state, limits, candidates)
    if probe.unreachable({c: _side(s.occupant) for c, s in readable.items()}):
        return CaptureReport(
            status="unexplained",
            side=side,
            unreadable=hidden_names,
            disagreements=tuple(_diagnose(state, readable, before, probe)),
        )
    search = _search(state, limits, candidates, readable, unreadable)
    groups = [g for g in search.found.values() if _fits_answers(g.state, fates)]
    notes: list[str] = []
    if not groups and search.complete and len(candidates) > len(placed):
        # the labels fit no legal turn (one was misread): the rules alone may still settle it
        search = _search(
            state, limits, _candidates(state, None, limits, placed), readable, unreadable
        )
        groups = [g for g in search.found.values() if _fits_answers(g.state, fates)]
        if groups:
            notes.append("the counter labels fit no legal turn; the turn was read without them")
    if not groups:
        if not search.complete:
            question = Question(
                cell=None,
                text="the photo allows too many turns to check; "
                "type this turn's moves with referee do",
            )
            return CaptureReport(
                status="ambiguous",
                side=side,
                questions=(question,),
                complete=False,
                unreadable=hidden_names,
                notes=("the search stopped at its limits",),
            )
        return CaptureReport(
            status="unexplained",
            side=side,
            unreadable=hidden_names,
            disagreements=tuple(_diagnose(state, readable, before, search)),
        )
    if len(groups) > 1 and search.complete and identity:
        picked = _pick_by_labels(state, groups, identity, limits.joint_margin)
        if picked is not None:
            best, lead = picked
            notes.append(
                f"the counter labels chose between {len(groups)} legal turns (ahead by {lead:.2f})"
            )
            groups = [best]
    if len(groups) == 1 and search.complete:
        only = groups[0]
        changed = [c for c in unreadable if _sides(only.state).get(c) is not before.get(c)]
        if changed:
            return CaptureReport(
                status="ambiguous",
                side=side,
                explanations=1,
                unreadable=hidden_names,
                questions=tuple(_hidden_questions(only.state, changed)),
                notes=("the one legal explanation changes cells the photo does not show clearly",),
            )
        if not only.moves:
            notes.append(f"nothing moved: the {side.value} side ends its turn without moving")
        if any(a.startswith("support ") for a in only.actions):
            notes.append("archer supports cannot be seen; these are needed for the result")
        if only.others:
            other = ", ".join(sorted(only.others)[0]) or "no move"
            notes.append(
                f"{len(only.others)} other legal turn(s) end in the same position (e.g. "
                f"{other}); the photo cannot tell them apart and the game goes on the same"
            )
        return CaptureReport(
            status="explained",
            side=side,
            moves=only.moves,
            actions=only.actions,
            explanations=1,
            unreadable=hidden_names,
            position=ENGINE.to_position(only.state),
            notes=tuple(notes),
        )
    questions = _questions(state, groups)
    if not search.complete:
        notes.append("the search stopped at its limits; more explanations may exist")
    if not questions:
        questions = [
            Question(
                cell=None,
                text="the photo allows several turns; type this turn's moves with referee do",
            )
        ]
    return CaptureReport(
        status="ambiguous",
        side=side,
        questions=tuple(questions),
        explanations=len(groups),
        complete=search.complete,
        unreadable=hidden_names,
        notes=tuple(notes),
    )


def _search(
    state: CyrusState,
    limits: SearchLimits,
    candidates: Candidates,
    readable: Mapping[Cell, Seen],
    unreadable: Sequence[Cell],
) -> _Search:
    """Runs the search for every way the unreadable cells may be filled."""
    search = _Search(state, limits, candidates)
    for filled in itertools.product((None, Side.GREEK, Side.PERSIAN), repeat=len(unreadable)):
        target = {c: _side(s.occupant) for c, s in readable.items()}
        target.update(zip(unreadable, filled, strict=True))
        search.run(target)
        if search.stopped:
            break
    return search


def seen_from_position(state: CyrusState) -> dict[str, Seen]:
    """Returns what a perfect photo of a state would show (tests, calibration)."""
    grid = state.tables.grid
    sides = _sides(state)
    return {
        grid.name(c): Seen(_value(sides.get(c)), state.terrain_at(c).value) for c in grid.cells()
    }


def legion_labels(state: CyrusState) -> dict[str, tuple[str, str]]:
    """Returns legion name → (side, printed label) for every legion in play (vision's labels)."""
    by_id = state.tables.by_id
    return {lid: (by_id[lid].side.value, by_id[lid].short) for lid in state.where}


def legion_cells(state: CyrusState) -> dict[str, str]:
    """Returns cell name → the legion standing there (cells with a pending combat left out)."""
    grid = state.tables.grid
    at: dict[Cell, list[LegionId]] = {}
    for lid, cell in state.where.items():
        at.setdefault(cell, []).append(lid)
    return {grid.name(c): lids[0] for c, lids in at.items() if len(lids) == 1}


def cell_contents(state: CyrusState) -> dict[str, tuple[str | None, str]]:
    """Returns cell name → (side standing there or None, terrain): a known position for
    calibration. Cells with a pending combat show both sides; the attacker's side is kept."""
    return {name: (s.occupant, s.terrain) for name, s in seen_from_position(state).items()}


# ---------------------------------------------------------------------------------------------
# Search


@dataclass(frozen=True)
class _Option:
    """One way a legion may move: a plain move, an attack, or leaving the board (cell None)."""

    legion: LegionId
    dest: str
    cell: Cell | None
    attack: bool


@dataclass
class _Explanation:
    """A turn that fits the photo, and the position it leads to."""

    state: CyrusState
    moves: tuple[str, ...]
    actions: tuple[str, ...]
    others: list[tuple[str, ...]] = field(default_factory=list)
    """Other move sets ending in the same position."""

    def cost(self) -> tuple[int, int, tuple[str, ...]]:
        supports = sum(1 for a in self.actions if a.startswith("support "))
        return (supports, len(self.moves), self.actions)


class _Search:
    """Chains of moves from vacated cells to newly held cells, played through the engine."""

    def __init__(self, state: CyrusState, limits: SearchLimits, candidates: Candidates) -> None:
        self.state = state
        self.limits = limits
        self.candidates = candidates
        self.side = state.active
        self.grid = state.tables.grid
        self.by_id = state.tables.by_id
        self.found: dict[tuple[object, ...], _Explanation] = {}
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

    def _options(self, lid: LegionId) -> list[_Option]:
        """V: where a legion may end, counting cells of friends that could move away first."""
        state = self.state
        kept = {n: c for n, c in state.where.items() if n == lid or n not in self.movable}
        alone = state.model_copy(update={"where": kept})
        legion = self.by_id[lid]
        out: list[_Option] = []
        for name in destinations(alone, Occupancy(alone), legion):
            if name == OFF:
                out.append(_Option(lid, OFF, None, attack=False))
                continue
            cell = self.grid.parse(name)
            out.append(_Option(lid, name, cell, attack=self.occ.has_enemy(cell, legion.side)))
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
        plan: tuple[_Option, ...],
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
                        after = _pull(friend, rest, moving)
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
                after = _pull(owner, rest, moving)
                self._chain(after, filled, plan2, counts2, used | {cell}, attacked)

    def _pull_by_pending(
        self,
        filled: frozenset[Cell],
        plan: tuple[_Option, ...],
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

    def _check(self, plan: tuple[_Option, ...]) -> None:
        key = frozenset((o.legion, o.dest) for o in plan)
        outcomes = self.played.get(key)
        if outcomes is None:
            if len(self.played) >= self.limits.max_candidates:
                self.stopped = True
                return
            outcomes = self.played[key] = self._play(plan)
        for final, moves, actions in outcomes:
            if self._matches(final):
                self._keep(final, moves, actions)

    def _play(self, plan: tuple[_Option, ...]) -> list[Outcome]:
        """Plays the moves in a workable order, then every way to finish the turn."""
        state = self.state
        texts: list[str] = []
        for opt in _order(plan, self.origin):
            move = act.Move(legion=opt.legion, cell=opt.dest)
            if not ENGINE.judge(state, move).legal:
                return []
            state = _apply(state, move)
            texts.append(move.text())
        moves = tuple(texts)
        return [(final, moves, moves + tail) for final, tail in _finish_turn(state)]

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

    def _keep(self, final: CyrusState, moves: tuple[str, ...], actions: tuple[str, ...]) -> None:
        key: tuple[object, ...] = (tuple(sorted(final.where.items())), final.winner)
        found = _Explanation(final, moves, actions)
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


def _pull(
    friend: LegionId, rest: Sequence[LegionId], moving: set[LegionId]
) -> tuple[LegionId, ...]:
    """The legions still to move once a cell of ``friend`` is taken: it must move too."""
    if friend in moving:
        return tuple(rest)
    return (friend, *[r for r in rest if r != friend])


def _order(plan: Sequence[_Option], origin: Mapping[LegionId, Cell]) -> list[_Option]:
    """A legion ending on a friend's cell moves after that friend; a king leaving moves last."""
    by_origin = {origin[o.legion]: o for o in plan}
    done: list[_Option] = []
    placed: set[LegionId] = set()

    def visit(o: _Option) -> None:
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


def _apply(state: CyrusState, action: Action) -> CyrusState:
    new = ENGINE.apply(state, action, NoDice()).state
    assert isinstance(new, CyrusState)
    return new


def _finish_turn(state: CyrusState) -> Iterator[tuple[CyrusState, tuple[str, ...]]]:
    """III: ends the movement step, then every set of supports either side may declare, then
    the resolution; yields each position the turn may end in and the actions after the moves."""
    if state.phase is Phase.OVER:
        yield state, ()
        return
    if state.phase in (Phase.MOVE, Phase.ANY):
        if not ENGINE.judge(state, act.Done()).legal:
            return
        yield from _declare(_apply(state, act.Done()), ("done",), None)
        return
    yield from _declare(state, (), None)


def _declare(
    state: CyrusState, texts: tuple[str, ...], floor: tuple[Side | None, str] | None
) -> Iterator[tuple[CyrusState, tuple[str, ...]]]:
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
            after = _apply(state, support)
            yield from _declare(after, (*texts, support.text()), (side, support.text()))
        yield from _declare(_apply(state, act.Done()), (*texts, "done"), None)
        return
    if state.phase is Phase.COMBAT:
        if ENGINE.judge(state, act.Resolve()).legal:
            yield _apply(state, act.Resolve()), (*texts, "resolve")
        return
    yield state, texts


# ---------------------------------------------------------------------------------------------
# Candidates, questions, diagnosis


def _candidates(
    state: CyrusState,
    identity: Mapping[str, Mapping[str, float]] | None,
    limits: SearchLimits,
    answers: Sequence[tuple[Cell, LegionId]],
) -> dict[Cell, frozenset[LegionId]]:
    """Returns, per cell, the legions its counter label allows (cells without a reading: any)."""
    out: dict[Cell, frozenset[LegionId]] = {}
    grid = state.tables.grid
    if identity:
        for name, scores in identity.items():
            if not scores:
                continue
            ids = {state.tables.legion(n).name: s for n, s in scores.items()}
            best = max(ids.values())
            if best < limits.identity_floor:
                continue
            out[grid.parse(name)] = frozenset(
                n for n, s in ids.items() if s >= best - limits.identity_margin
            )
    for cell, lid in answers:
        out[cell] = frozenset({lid})
    return out


def _pick_by_labels(
    state: CyrusState,
    groups: Sequence[_Explanation],
    identity: Mapping[str, Mapping[str, float]],
    margin: float,
) -> tuple[_Explanation, float] | None:
    """Returns the explanation the counter labels favour, and its lead, if the lead (summed
    label scores over the contested cells) reaches ``margin`` over every other explanation."""
    grid = state.tables.grid
    contested = sorted(_contested(groups))
    if not contested:
        return None
    totals: list[tuple[float, int]] = []
    for n, g in enumerate(groups):
        at = {c: lid for lid, c in g.state.where.items()}
        total = 0.0
        for cell in contested:
            lid = at.get(cell)
            if lid is None:
                continue
            scores = identity.get(grid.name(cell))
            if not scores or lid not in scores:
                return None  # a contested counter without a label reading: nothing to weigh
            total += scores[lid]
        totals.append((total, n))
    totals.sort(reverse=True)
    lead = totals[0][0] - totals[1][0]
    if lead < margin:
        return None
    return groups[totals[0][1]], lead


def _contested(groups: Sequence[_Explanation]) -> dict[Cell, set[LegionId]]:
    """Returns the cells on which the explanations put different legions, with those legions."""
    who: dict[Cell, set[LegionId | None]] = {}
    cells = {c for g in groups for c in g.state.where.values()}
    for g in groups:
        at = {c: lid for lid, c in g.state.where.items()}
        for cell in cells:
            who.setdefault(cell, set()).add(at.get(cell))
    return {c: {x for x in names if x is not None} for c, names in who.items() if len(names) > 1}


def _questions(state: CyrusState, groups: Sequence[_Explanation]) -> list[Question]:
    grid = state.tables.grid
    out: list[Question] = []
    winners = {g.state.winner for g in groups}
    if len(winners) > 1:
        for lg in state.tables.legions:
            if (
                lg.kind is Kind.KING
                and lg.name in state.where
                and all(lg.name not in g.state.where for g in groups)
            ):
                edge = "West" if lg.side is Side.PERSIAN else "East"
                out.append(
                    Question(
                        cell=None,
                        options=(FATE_OFF, FATE_ELIMINATED),
                        text=f"did {lg.name} leave the board by the {edge} edge ({FATE_OFF}) "
                        f"or fall in combat ({FATE_ELIMINATED})?",
                    )
                )
    for cell, names in sorted(_contested(groups).items()):
        if len(names) < 2:
            continue
        ordered = sorted(names)
        options = ", ".join(ordered[:-1]) + " or " + ordered[-1]
        name = grid.name(cell)
        out.append(
            Question(
                cell=name, text=f"which legion is on {name}: {options}?", options=tuple(ordered)
            )
        )
    return out


def _hidden_questions(final: CyrusState, hidden: Sequence[Cell]) -> list[Question]:
    grid = final.tables.grid
    out: list[Question] = []
    for cell in hidden:
        here = [lid for lid, c in final.where.items() if c == cell]
        name = grid.name(cell)
        text = (
            f"{name} is not clear in the photo: is {here[0]} there?"
            if here
            else f"{name} is not clear in the photo: is it empty now?"
        )
        out.append(Question(cell=name, text=text, options=tuple(here)))
    return out


def _parse_answers(
    state: CyrusState, answers: Mapping[str, str]
) -> tuple[list[tuple[Cell, LegionId]], dict[LegionId, str]]:
    """Splits answers into 'CELL: legion there' and 'LEGION: off | eliminated | CELL'.

    Raises:
        UnknownNameError: an unknown cell or legion.
    """
    grid = state.tables.grid
    placed: list[tuple[Cell, LegionId]] = []
    fates: dict[LegionId, str] = {}
    for key, value in answers.items():
        if grid.is_cell_name(key):
            placed.append((grid.parse(key), state.tables.legion(value).name))
            continue
        lid = state.tables.legion(key).name
        word = value.strip().lower()
        if word in (FATE_OFF, FATE_ELIMINATED):
            fates[lid] = word
        else:
            cell = grid.parse(value)
            placed.append((cell, lid))
            fates[lid] = grid.name(cell)
    return placed, fates


def _fits_answers(final: CyrusState, fates: Mapping[LegionId, str]) -> bool:
    grid = final.tables.grid
    for lid, fate in fates.items():
        cell = final.where.get(lid)
        left = cell is None and final.winner is final.tables.by_id[lid].side
        if fate == FATE_OFF and not left:
            return False
        if fate == FATE_ELIMINATED and (cell is not None or left):
            return False
        if fate not in (FATE_OFF, FATE_ELIMINATED) and (cell is None or grid.name(cell) != fate):
            return False
    return True


def _diagnose(
    state: CyrusState, readable: Mapping[Cell, Seen], before: Mapping[Cell, Side], search: _Search
) -> list[Disagreement]:
    """Says, cell by cell, what no legal turn can produce."""
    grid, by_id = state.tables.grid, state.tables.by_id
    side = state.active
    out: list[Disagreement] = []
    for s in Side:
        now = sum(1 for r in readable.values() if _side(r.occupant) is s)
        was = sum(1 for lid in state.where if by_id[lid].side is s)
        if now > was:
            out.append(
                Disagreement(
                    cell=None,
                    seen=f"{now} {s.value}",
                    before=f"{was} {s.value}",
                    problem=f"the photo shows {now} {s.value} legions; only {was} were in play",
                )
            )
    reach = {o.cell for opts in search.options.values() for o in opts if o.cell is not None}
    movable_cells = set(search.origin.values())
    for cell, got in sorted(readable.items()):
        now_side, was_side = _side(got.occupant), before.get(cell)
        if now_side is was_side:
            continue
        problem = "changed, but no legal turn of the side to play produces this"
        if now_side is side and cell not in reach:
            problem = f"a {side.value} legion appears where no {side.value} legion could move"
        elif was_side is side and cell not in movable_cells:
            problem = f"the {side.value} legion that stood here may not move now"
        elif now_side is side.other:
            problem = f"a {side.other.value} legion appears; in this turn only a retreat brings one"
        elif was_side is side.other and now_side is None:
            problem = "an attacked cell keeps its attacker or its defender"
        out.append(
            Disagreement(
                cell=grid.name(cell), seen=_word(now_side), before=_word(was_side), problem=problem
            )
        )
    return out


def _terrain_disagreements(state: CyrusState, readable: Mapping[Cell, Seen]) -> list[Disagreement]:
    grid = state.tables.grid
    out: list[Disagreement] = []
    for cell, got in sorted(readable.items()):
        want = state.terrain_at(cell).value
        if got.terrain != want:
            out.append(
                Disagreement(
                    cell=grid.name(cell),
                    seen=got.terrain,
                    before=want,
                    problem=f"the photo shows {got.terrain} where the position has {want}; "
                    "terrain tokens stay put once laid (II)",
                )
            )
    return out


def _sides(state: CyrusState) -> dict[Cell, Side]:
    by_id = state.tables.by_id
    return {cell: by_id[lid].side for lid, cell in state.where.items()}


def _side(text: str | None) -> Side | None:
    return Side(text) if text else None


def _value(side: Side | None) -> str | None:
    return side.value if side else None


def _word(side: Side | None) -> str:
    return side.value if side else "empty"
