"""Judging what an Iliad position file declares (issue 9: nothing is applied unjudged).

A position may say what the side to move has already done in its move: ``attacks``, ``shots``
and ``moved`` counters, and the ``phase`` and ``winner``. None of it is taken on trust. The
phase and the winner must be ones the sequence of play can reach (a duel phase needs the hour's
duel and both duellists fit; the night follows a day's last hour; a finished game names the
winner its end gives). Each declaration is then replayed through the engine's own ``judge`` and
``apply``, as the action it stands for, in the order play allows: every attack as the attack
from where the attacker stands (``Diomede x Ettore``), every other counter that moved as a move
onto its square from a square next to it (which route it took is not known, so the check is
where it stopped: the zones it ends in, its fitness, the side), then every shot
(``Teucro shoots Ettore``). The first declaration the engine refuses makes the file invalid:
one :class:`~referee.errors.PositionError` naming the field and the rule. Entry points:
:func:`judge_declarations`, :func:`open_declarations`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from referee.dice import Dice, NoDice
from referee.errors import PositionError
from referee.game import Applied
from referee.games.iliad import actions as act
from referee.games.iliad.movement import Situation, diagonal
from referee.games.iliad.position import Declared
from referee.games.iliad.roster import Counter, CounterId, Side
from referee.games.iliad.rules import ARCHERY, CALENDAR, MOVEMENT, NIGHT, VICTORY, ZONES
from referee.games.iliad.sequence import available, unavailable_text, victory
from referee.games.iliad.state import IliadState, Phase
from referee.i18n import _
from referee.rulings import Ruling, Verdict, render


class Rules(Protocol):
    """What judging a position asks of the engine that calls it: its verdicts and effects, and the
    moves of the counters still able to act (so this module needs no import of the engine)."""

    def judge(self, state: IliadState, action: act.IliadAction) -> Verdict: ...

    def apply(self, state: IliadState, action: act.IliadAction, dice: Dice) -> Applied[IliadState]: ...

    def movable(self, s: IliadState) -> list[Counter]: ...

    def moves(self, s: IliadState, sit: Situation, counter: Counter,
              with_moves: bool = True) -> list[act.IliadAction]: ...


@dataclass(frozen=True)
class Problem:
    """An impossible declaration: the position field it sits in and the rule it breaks."""

    field: str
    ruling: Ruling


def problem(ruling: Ruling) -> str:
    """Returns a ruling as the problem text of a position error: message, then the sections."""
    cites = "; ".join(str(c) for c in ruling.cites)
    return f"{ruling.text()} ({cites})" if cites else ruling.text()


def refuse(label: str, found: Problem) -> PositionError:
    """Returns the one-line error of an impossible declaration."""
    return PositionError(label, found.field, problem(found.ruling))


# ---------------------------------------------------------------------------------------------
# The phase and the winner


def phase_problem(state: IliadState) -> Problem | None:
    """Come si gioca, Il calendario, La notte, Scopo del gioco: the phase and the winner a
    position declares must be reachable in the sequence of play."""
    cal = state.tables.calendar
    when = {"day": state.day, "hour": state.hour}
    if state.phase is Phase.DUEL:
        duel = cal.duel(state.day, state.hour)
        if duel is None:
            return Problem("phase", Ruling.violation("no-duel", "no duel is scheduled at day {day} hour {hour}",
                                                     (CALENDAR,), **when))
        if state.side is not Side.GREEK:
            return Problem("side", Ruling.violation(
                "duel-hour", "the duel of day {day} hour {hour} takes the place of the Greek move, so it is the "
                "Greeks' turn, not the Trojans'", (CALENDAR,), **when))
        missing = [h for h in (duel.greek, duel.trojan) if not available(state, h)]
        if missing:
            return Problem("phase", Ruling.violation(
                "duel-skipped", "the duel of {greek} and {trojan} at day {day} hour {hour} cannot be fought "
                "({why}): the hour is a free move", (CALENDAR,), greek=duel.greek, trojan=duel.trojan,
                why=unavailable_text(state, missing), **when))
    if state.phase is Phase.NIGHT and (state.hour != cal.hours or state.day >= cal.days):
        return Problem("phase", Ruling.violation(
            "not-night", "the night follows the last hour ({hours}) of days 1 to {last}; this position is at day "
            "{day} hour {hour}", (NIGHT,), hours=cal.hours, last=cal.days - 1, **when))
    if state.phase is Phase.OVER and state.winner is None:
        return Problem("winner", Ruling.violation("no-winner", "a finished game names its winner (greek or trojan)",
                                                  (VICTORY,)))
    if state.winner is not None:
        return _winner_problem(state)
    return None


def _winner_problem(state: IliadState) -> Problem | None:
    cal = state.tables.calendar
    if state.phase is not Phase.OVER:
        return Problem("phase", Ruling.violation(
            "game-over", "the {side} have won, so the game is over, not in the {phase} phase", (VICTORY,),
            side=state.winner.label if state.winner else "?", phase=state.phase.value))
    won = victory(state)
    if won is not None and won[0] is state.winner:
        return None
    last = state.day == cal.days and state.hour == cal.hours and state.side is Side.TROJAN
    if won is None and last and state.winner is Side.TROJAN:
        return None
    assert state.winner is not None
    if won is not None:
        return Problem("winner", Ruling.violation("no-such-end", "the {side} have won, but {why}", (VICTORY,),
                                                  side=state.winner.label, why=render(won.template, dict(won.args))))
    return Problem("winner", Ruling.violation(
        "no-such-end", "the {side} have won, but no victory condition holds on this board and the last hour is not "
        "over", (VICTORY,), side=state.winner.label))


# ---------------------------------------------------------------------------------------------
# The declarations, replayed


def judge_declarations(engine: Rules, state: IliadState, declared: Declared, label: str) -> IliadState:
    """Returns the state a position declares, each declaration judged and applied by the engine,
    or refuses it.

    Raises:
        PositionError: a declaration is impossible (names the file, the field and the rule).
    """
    found = phase_problem(state)
    if found is not None:
        raise refuse(label, found)
    for field, attack in declared.attacks:
        state = _replay(engine, state, attack, field, label)
    attackers = {CounterId(a.counter) for _, a in declared.attacks}
    movers = attackers | {ident for _, ident in declared.moved}
    for field, ident in declared.moved:
        if ident not in attackers:  # an attacker has moved or attacked: derived, nothing more to judge
            state = _replay_move(engine, state, ident, movers, field, label)
    for field, shot in declared.shots:
        state = _replay(engine, state, shot, field, label)
    return state


def _replay(engine: Rules, state: IliadState, action: act.IliadAction, field: str,
            label: str) -> IliadState:
    verdict = engine.judge(state, action)
    if not verdict.legal:
        first, *more = verdict.violations
        if more:  # the most basic violation is named; the others by their codes
            raise PositionError(label, field, _("{problem} (also {codes})").format(
                problem=problem(first), codes=", ".join(m.code for m in more)))
        raise refuse(label, Problem(field, first))
    after = engine.apply(state, action, NoDice()).state
    return after


def _replay_move(engine: Rules, state: IliadState, ident: CounterId, movers: set[CounterId], field: str,
                 label: str) -> IliadState:
    """Replays a counter's move as one step onto its square from a square next to it: free, or
    held by a counter of its side that moved too (and so arrived later)."""
    grid = state.tables.board.grid
    end = state.where.get(ident)
    if end is None:
        # Dead or gone: the engine's turn checks say so (the square named does not matter).
        return _replay(engine, state, act.Move(counter=ident, cell=grid.name(0), targets=()), field, label)
    here = {cell: who for who, cell in state.where.items()}
    entries = [c for c in grid.neighbours(end, diagonal(state))
               if state.terrain(c).value != "sea" and (here.get(c) is None or (
                   here[c] in movers and state.counter(here[c]).side is state.counter(ident).side))]
    if not entries:
        raise refuse(label, Problem(field, Ruling.violation(
            "no-way-in", "{counter} cannot have moved onto {square}: every square next to it is sea or held by a "
            "counter that did not move in this move", (MOVEMENT,), counter=ident, square=state.name(end))))
    entries.sort(key=lambda c: here.get(c) is not None)
    origin = entries[0]
    aside = here.get(origin)
    where = {k: v for k, v in state.where.items() if k != aside}
    where[ident] = origin
    before = state.model_copy(update={"where": where})
    after = _replay(engine, before, act.Move(counter=ident, cell=grid.name(end), targets=()), field, label)
    if aside is not None:
        after = after.model_copy(update={"where": {**after.where, aside: origin}})
    return after


# ---------------------------------------------------------------------------------------------
# What an umpire position leaves open


def open_declarations(engine: Rules, state: IliadState) -> tuple[Ruling, ...]:
    """Returns what the side to move could still declare that would change a resolution: attacks
    from where its counters stand (beside enemies) and shots its archers have not taken."""
    if state.phase is not Phase.MOVE:
        return ()
    sit = Situation(state)
    out: list[Ruling] = []
    for counter in engine.movable(state):
        targets: list[str] = []
        shots: list[str] = []
        for action in engine.moves(state, sit, counter, with_moves=False):
            if isinstance(action, act.Attack):
                targets += action.targets
            elif isinstance(action, act.Shoot):
                shots.append(action.target)
        if targets:
            example = f"{counter.id} x {targets[0]}"  # the action's notation, outside the message
            out.append(Ruling.event("attack-open", "{counter} stands beside {enemies} and could still attack from "
                                    "there ('{example}'); the position declares no such attack", (ZONES,),
                                    counter=counter.id, enemies=", ".join(targets), example=example))
        if shots:
            out.append(Ruling.event("shot-open", "{counter} could still shoot {enemies}; the position declares no "
                                    "shot", (ARCHERY,), counter=counter.id, enemies=", ".join(shots)))
    return tuple(out)
