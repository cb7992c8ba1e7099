"""Judging what a Cyrus & Pyxis position file declares (issue 9: nothing is applied unjudged).

A position states a board plus declarations: the step of the turn (``phase``, ``declaring``),
the legions already moved (``moved``), the archer supports (``supports``) and the winner. Each
is replayed through the engine's own checks, as if it were played now:

- every legion of ``moved`` goes through the movement checks of V (its side, in play, once,
  the per-turn quota), and ``engine.judge`` must find a legal ``Move`` to its cell from some cell
  it could have started from (the other legions moved this turn set aside);
- an attacker standing in its pending combat has moved (VI: the attacker is the one who moved
  in), so it is added to ``moved`` when the file leaves it out, and counts against the quota;
- every support is judged by ``engine.judge`` as a ``support`` action in the support step (the
  attacker's first, then the defender's, VI.1) and applied with ``engine.apply``;
- the step must fit the board (no support or combat step without a combat), ``declaring`` only
  exists in the support step, and a winner needs a king gone.

An impossible declaration refuses the file with one :class:`~referee.errors.PositionError`
naming the field and the rule. Entry points: :func:`judge_declarations`, :func:`open_declarations`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from referee.dice import NoDice
from referee.errors import PositionError
from referee.game import Engine
from referee.games.cyrus_pyxis import actions as act
from referee.games.cyrus_pyxis.actions import CyrusAction
from referee.games.cyrus_pyxis.movement import (
    MoveContext,
    check_in_play,
    check_moves_once,
    check_own_legion,
    check_quota,
)
from referee.games.cyrus_pyxis.rules import (
    COMBAT_STEP,
    GAME_END,
    GOAL,
    MOVE_STEP,
    SUPPORT_DECLARATION,
    SUPPORT_STEP,
)
from referee.games.cyrus_pyxis.sequence import pending_declarers
from referee.games.cyrus_pyxis.state import CyrusState, occupancy
from referee.games.cyrus_pyxis.support import possible_supports
from referee.games.cyrus_pyxis.tables import Kind, LegionId, Phase, Side
from referee.i18n import _
from referee.rulings import Ruling

Rules: TypeAlias = Engine[CyrusState, CyrusAction]
"""The engine as these checks use it (``judge``, ``apply``): the core protocol, so this module needs
no import of the engine that calls it."""

MOVED_CHECKS: tuple[Callable[[MoveContext], Ruling | None], ...] = (
    check_own_legion, check_in_play, check_moves_once, check_quota)
"""The checks of V a legion of ``moved`` passed when it moved (the same functions ``judge`` runs)."""
MOVED_CHECKS_AFTER_THE_END: tuple[Callable[[MoveContext], Ruling | None], ...] = (
    check_own_legion, check_moves_once, check_quota)
"""The same once the game is over (a king that left the board is no longer on it; the combats
that ended it may have moved legions since, so no route is replayed either)."""


@dataclass(frozen=True)
class Problem:
    """An impossible declaration: the position field it sits in and the rule it breaks."""

    field: str
    ruling: Ruling


def problem_text(rulings: tuple[Ruling, ...] | list[Ruling]) -> str:
    """Returns rulings as the problem text of a position error: messages, then the sections."""
    cites = list(dict.fromkeys(str(c) for r in rulings for c in r.cites))
    return f"{'; '.join(r.text() for r in rulings)} ({'; '.join(cites)})"


def reworded(ruling: Ruling, message: str) -> Ruling:
    """Returns a ruling with a sentence composed in the active language (no template to say again)."""
    return ruling.model_copy(update={"message": message, "template": None, "plural": None, "args": ()})


def refuse(label: str, field: str, *rulings: Ruling) -> PositionError:
    """Returns the one-line error of an impossible declaration."""
    return PositionError(label, field, problem_text(list(rulings)))


# ---------------------------------------------------------------------------------------------
# The step of the turn


def check_step(state: CyrusState, declaring: Side | None, declared_phase: str | None) -> Problem | None:
    """III, I: the declared step fits the board; a finished game has a winner and a king gone."""
    occ = occupancy(state)
    if declaring is not None and state.phase is not Phase.SUPPORT:
        if state.phase is Phase.ANY:
            return Problem("declaring", Ruling.violation(
                "wrong-phase", "a side declares supports only in the support step, not in a position without a "
                "step (write phase: support)", (SUPPORT_STEP,)))
        return Problem("declaring", Ruling.violation(
            "wrong-phase", "a side declares supports only in the support step, not in the {step} step (write "
            "phase: support)", (SUPPORT_STEP,), step=state.phase.value))
    if state.phase in (Phase.SUPPORT, Phase.COMBAT) and not occ.combats():
        return Problem("phase", Ruling.violation(
            "wrong-phase", "the {step} step follows a movement that attacked; this board has no combat "
            "(the turn would have passed)", (MOVE_STEP, SUPPORT_STEP, COMBAT_STEP), step=state.phase.value))
    if state.winner is not None and declared_phase not in (None, "over"):
        return Problem("phase", Ruling.violation(
            "game-over", "the game is over once a side has won; it has no {step} step", (GAME_END,),
            step=declared_phase))
    if state.phase is Phase.OVER and state.winner is None:
        return Problem("winner", Ruling.violation(
            "no-winner", "a finished game names its winner: the side whose king left the board or killed the other",
            (GOAL, GAME_END)))
    if state.winner is not None:
        kings = [lg for lg in state.tables.legions if lg.kind is Kind.KING and lg.name in state.where]
        if len(kings) == len(Side):
            return Problem("winner", Ruling.violation(
                "no-such-end", "{king} and {other} are both on the board: no king has left it or been killed, so "
                "nobody has won yet", (GOAL, GAME_END), king=kings[0].name, other=kings[1].name))
    return None


# ---------------------------------------------------------------------------------------------
# Legions moved this turn


def attackers(state: CyrusState) -> list[LegionId]:
    """VI: the legions of the side to play standing in a pending combat (each moved in to attack)."""
    occ = occupancy(state)
    out = []
    for cell in occ.combats():
        lg = occ.side_at(cell, state.active)
        if lg is not None:
            out.append(lg.name)
    return out


def _origins(engine: Rules, before: CyrusState, name: LegionId) -> Ruling | None:
    """Returns None when some start cell gives a legal move to the legion's cell, else why not.

    ``before`` has the legion on its cell; each candidate puts it back on a cell within its
    allowance that holds no legion, and ``engine.judge`` rules on the move from there.
    """
    tables, grid = before.tables, before.tables.grid
    cell = before.where[name]
    legion = tables.by_id[name]
    limit = tables.allowance(legion.kind).value
    occupied = set(before.where.values())
    first: Ruling | None = None
    candidates = sorted((c for c in grid.cells() if 0 < grid.manhattan(c, cell) <= limit and c not in occupied),
                        key=lambda c: (grid.manhattan(c, cell), c))
    move = act.Move(legion=name, cell=grid.name(cell))
    for start in candidates:
        trial = before.model_copy(update={"where": {**before.where, name: start}})
        verdict = engine.judge(trial, move)
        if verdict.legal:
            return None
        if first is None:
            v = verdict.violations[0]
            first = reworded(v, _("from {cell}, {reason}").format(cell=grid.name(start), reason=v.text()))
    if first is None:
        return Ruling.counted(
            "no-origin", "every cell within {n} square of it is taken", "every cell within {n} squares of it is "
            "taken", limit, (MOVE_STEP,))
    return first


def judge_moved(engine: Rules, state: CyrusState, label: str) -> CyrusState:
    """V, VI: replays ``moved`` (attackers added) through the movement checks; returns the state.

    Raises:
        PositionError: a legion could not have moved (side, eliminated, twice, quota, no route).
    """
    derived = [a for a in attackers(state) if a not in state.moved]
    moved = (*state.moved, *derived)
    for i, name in enumerate(moved):
        legion = state.tables.by_id[name]
        field = "moved" if name not in derived else f"{legion.side.value}.{name}"
        why = "" if name not in derived else " " + _(
            "({legion} stands in its combat on {cell}, so it moved in to attack)").format(
            legion=name, cell=state.name(state.where[name]))
        before = state.model_copy(update={"phase": Phase.MOVE, "moved": moved[:i], "supports": {}, "declaring": None})
        checks = MOVED_CHECKS if state.phase is not Phase.OVER else MOVED_CHECKS_AFTER_THE_END
        ctx = MoveContext(before, occupancy(before), legion, state.where.get(name))
        found = [r for check in checks if (r := check(ctx)) is not None]
        if found:
            first = found[0]
            raise refuse(label, field, reworded(first, first.text() + why))
        if name not in state.where:
            continue  # a king that left the board and won
        if state.phase is Phase.OVER:
            continue  # the combats that ended the game moved legions since (retreats): no route to replay
        others = {k: v for k, v in state.where.items() if k == name or k not in moved}
        alone = before.model_copy(update={"where": others})
        blocked = _origins(engine, alone, name)
        if blocked is not None:
            msg = _("{legion} cannot have moved to {cell} this turn: {reason}").format(
                legion=name, cell=state.name(state.where[name]), reason=blocked.text())
            raise refuse(label, field, reworded(blocked, msg + why))
    return state.model_copy(update={"moved": moved})


# ---------------------------------------------------------------------------------------------
# Supports


def judge_supports(engine: Rules, state: CyrusState, label: str) -> CyrusState:
    """IV.2-1, VI.1: replays each support as a ``support`` action, the attacker's first.

    Raises:
        PositionError: a support the game would refuse (names ``supports.ARCHER`` and the rule).
    """
    tables = state.tables
    # The attacker's first (VI.1); sorted() is stable, so each side keeps the file's order.
    declared = sorted(state.supports.items(), key=lambda p: tables.by_id[p[0]].side is not state.active)
    supports: dict[LegionId, LegionId] = {}
    for archer, legion in declared:
        side = tables.by_id[archer].side
        if state.phase is Phase.SUPPORT:
            phase, declaring = Phase.SUPPORT, state.active if side is state.active else state.declaring
        elif state.phase is Phase.COMBAT:
            phase, declaring = Phase.SUPPORT, side
        else:
            phase, declaring = state.phase, None
        before = state.model_copy(update={"supports": supports, "phase": phase, "declaring": declaring})
        action = act.Support(archer=archer, legion=legion)
        verdict = engine.judge(before, action)
        if not verdict.legal:
            raise refuse(label, f"supports.{archer}", *verdict.violations)
        after = engine.apply(before, action, NoDice()).state
        supports = dict(after.supports)
    return state.model_copy(update={"supports": supports})


# ---------------------------------------------------------------------------------------------
# The whole position


def judge_declarations(engine: Rules, state: CyrusState, label: str, *, declaring: Side | None,
                       phase: str | None) -> CyrusState:
    """Returns the state a position declares, with what it implies derived, or refuses it.

    ``declaring`` and ``phase`` are the values the file wrote (None: not written).

    Raises:
        PositionError: a declaration is impossible (names the file, the field and the rule).
    """
    found = check_step(state, declaring, phase)
    if found is not None:
        raise refuse(label, found.field, found.ruling)
    state = judge_moved(engine, state, label)
    # The step stays the one written: a support step with no support left to declare is still the
    # support step, so a support is judged there (refused for its own reason, never as "too late").
    return judge_supports(engine, state, label)


def open_declarations(state: CyrusState) -> tuple[Ruling, ...]:
    """III.2, VI.1: the supports that could still be declared before the combats (one ruling per
    archer and legion), as ``check_resolve`` sees them; none once the step says combat."""
    if state.phase in (Phase.COMBAT, Phase.OVER, Phase.SETUP):
        return ()
    occ = occupancy(state)
    out: list[Ruling] = []
    for side in pending_declarers(state):
        for archer, legion in possible_supports(state, occ, side):
            out.append(Ruling.event(
                "support-open", "supports.{archer}: {archer} ({side}) could still support {legion}",
                (SUPPORT_STEP, SUPPORT_DECLARATION), archer=archer, side=side.label, legion=legion))
    return tuple(out)

