"""Set-up, the hours of the calendar, the night and victory.

Set-up (Preparazione del gioco): every counter on a start square of its side, the citadel and
the shore filled first, never two on a square. Each hour (Come si gioca, Il calendario) opens
with its events (the Thracians leave, the wall rises, Achilles returns, a scheduled duel), then
the Greek moves and the Trojan replies. After the last hour of a day comes the night (La notte):
fallen counters are revived and everyone goes back to the start squares. Victory (Scopo del
gioco) is checked at the end of every move.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import NamedTuple

from referee.games.iliad.board import Terrain
from referee.games.iliad.roster import CounterId, Side
from referee.games.iliad.rules import CALENDAR, NIGHT, SETUP, TURN, VICTORY
from referee.games.iliad.state import IliadState, Phase
from referee.geometry.search import Cell
from referee.rulings import Ruling

RECOVERY = Fraction(2, 3)  # La notte: two thirds of the points lost, rounded up (16 gives 12)
VICTORY_COUNTERS = 5  # Scopo del gioco: five counters in Troy, or on five ships


# ---------------------------------------------------------------------------------------------
# Set-up


def priority_squares(state: IliadState, side: Side) -> frozenset[Cell]:
    """Preparazione del gioco: the start squares filled first (citadel; land-and-sea shore)."""
    board = state.tables.board
    if side is Side.TROJAN:
        return board.troy
    return frozenset(c for c in board.starts(side) if board.squares[c].terrain is Terrain.SHORE)


def setup_problem(state: IliadState, counter: CounterId, cell: Cell) -> Ruling | None:
    """Preparazione del gioco: a free start square of the counter's side, the citadel (Trojans)
    and the shore (Greeks) filled before the other start squares."""
    if state.phase is not Phase.SETUP:
        return Ruling.violation("setup-over", "the set-up is over; counters now move", (SETUP,))
    c = state.counter(counter)
    board = state.tables.board
    name = state.name(cell)
    if counter in state.where:
        return Ruling.violation("already-placed", f"{counter} already stands on {state.name(state.where[counter])}",
                                (SETUP,))
    if board.squares[cell].start is not c.side:
        return Ruling.violation("not-a-start-square", f"{name} is not a {c.side.adjective} start square "
                                f"({board.describe(cell)})", (SETUP,))
    holder = next((k for k, v in state.where.items() if v == cell), None)
    if holder is not None:
        return Ruling.violation("square-occupied", f"{holder} already stands on {name}", (SETUP,))
    first = priority_squares(state, c.side)
    if cell not in first:
        free = [x for x in first if x not in state.where.values()]
        left = sum(1 for x in state.tables.roster.side(c.side) if x.id not in state.where)
        if free and left <= len(free):
            what = "citadel" if c.side is Side.TROJAN else "land-and-sea"
            return Ruling.violation(
                f"fill-{what}-first",
                f"{left} {c.side.label} remain for {len(free)} free {what} squares ({state.name(min(free))}...); "
                f"every {what} square must be covered",
                (SETUP,),
            )
    return None


def begin(state: IliadState) -> tuple[IliadState, list[Ruling]]:
    """Come si gioca: the set-up is complete; the first hour begins with the Greek move."""
    new = state.model_copy(update={"phase": Phase.MOVE, "day": 1, "hour": 1, "side": Side.GREEK,
                                   "start": dict(state.where)})
    events = [Ruling.event("game-begins", "every counter is placed; day 1, hour 1: the Greeks move first",
                           (SETUP, TURN))]
    new, more = start_hour(new)
    return new, events + more


# ---------------------------------------------------------------------------------------------
# The hours


def start_hour(state: IliadState) -> tuple[IliadState, list[Ruling]]:
    """Il calendario: the events at the opening of an hour (before the Greek move)."""
    cal = state.tables.calendar
    day, hour = state.day, state.hour
    events: list[Ruling] = []
    update: dict[str, object] = {"phase": Phase.MOVE, "side": Side.GREEK, "moved": (), "attacks": (), "shots": ()}
    if cal.reached(cal.thracians_leave, day, hour):
        gone = [c.id for c in state.tables.roster.counters if c.thracian and c.id not in state.removed]
        if gone:
            update["where"] = {k: v for k, v in state.where.items() if k not in gone}
            update["dead"] = tuple(x for x in state.dead if x not in gone)
            update["wounded"] = tuple(x for x in state.wounded if x not in gone)
            update["removed"] = (*state.removed, *gone)
            events.append(Ruling.event("thracians-leave", f"Odysseus and Diomedes raided the Thracian camp in the "
                                       f"night: {', '.join(gone)} leave the game", (CALENDAR,)))
    if cal.reached(cal.wall, day, hour) and not state.wall:
        update["wall"] = True
        events.append(Ruling.event("wall-built", "the Greek wall now stands: its squares stop movement and are in "
                                   "nobody's zone, and value-1 defenders inside it double", (CALENDAR,)))
    if cal.reached(cal.achilles_enters, day, hour) and state.achilles_sulks:
        update["achilles_sulks"] = False
        events.append(Ruling.event("achilles-enters", "Achilles ends his sulk and joins the fight", (CALENDAR,)))
    new = state.model_copy(update=update)
    won = victory(new)
    if won is not None:
        return finish(new, *won), events
    duel = cal.duel(day, hour)
    if duel is not None:
        missing = [h for h in (duel.greek, duel.trojan) if not available(new, h)]
        if missing:
            why = "; ".join(f"{h} is {unavailable_reason(new, h)}" for h in missing)
            events.append(Ruling.event("duel-skipped", f"the duel of {duel.greek} and {duel.trojan} scheduled at "
                                       f"day {day} hour {hour} does not take place ({why}): a free move", (CALENDAR,)))
        else:
            new = new.model_copy(update={"phase": Phase.DUEL})
            events.append(Ruling.event("duel-hour", f"day {day} hour {hour}: {duel.greek} and {duel.trojan} meet "
                                       "in the scheduled duel (type resolve to fight it)", (CALENDAR,)))
    return new, events


def available(state: IliadState, ident: CounterId) -> bool:
    """Il calendario (interpretation duel-availability): may a hero fight a scheduled duel?"""
    return ident in state.where and ident not in state.wounded and not state.sulking(ident)


def unavailable_reason(state: IliadState, ident: CounterId) -> str:
    """Why a hero cannot fight a scheduled duel."""
    if ident in state.removed:
        return "gone with the Thracians"
    if ident not in state.where:
        return "dead"
    if ident in state.wounded:
        return "wounded"
    return "still sulking"


def end_move(state: IliadState, after_duel: bool = False) -> tuple[IliadState, list[Ruling]]:
    """Come si gioca: after a move's combats, the Trojans reply, or the next hour (or the night)
    begins; the game ends on a victory or after the last hour of the last day."""
    events: list[Ruling] = []
    state, entered = _achilles_alone(state)
    events += entered
    won = victory(state)
    if won is not None:
        return finish(state, *won), events
    cleared = {"moved": (), "attacks": (), "shots": ()}
    whole_hour = after_duel and state.tables.choice("duel-hour") == "whole-hour"
    if state.side is Side.GREEK and not whole_hour:
        new = state.model_copy(update={**cleared, "phase": Phase.MOVE, "side": Side.TROJAN})
        events.append(Ruling.event("trojan-move", f"day {state.day} hour {state.hour}: the Trojans reply", (TURN,)))
        return new, events
    cal = state.tables.calendar
    if state.hour < cal.hours:
        new, more = start_hour(state.model_copy(update={**cleared, "hour": state.hour + 1, "side": Side.GREEK}))
        return new, [*events, Ruling.event("next-hour", f"day {new.day} hour {new.hour}: the Greeks move",
                                           (TURN,)), *more]
    if state.day < cal.days:
        new = state.model_copy(update={**cleared, "phase": Phase.NIGHT, "side": Side.GREEK})
        return new, [*events, Ruling.event("nightfall", f"day {state.day} is over: the night follows "
                                           "(referee night)", (NIGHT,))]
    reason = f"day {cal.days} ends without a Greek victory: the Trojans win"
    return finish(state, Side.TROJAN, reason), events


def _achilles_alone(state: IliadState) -> tuple[IliadState, list[Ruling]]:
    """Il calendario (interpretation achilles-entry achilles-enters): the last Greek is Achilles."""
    if not state.achilles_sulks or state.tables.choice("achilles-entry") != "achilles-enters":
        return state, []
    greeks = [c for c in state.where if state.counter(c).side is Side.GREEK]
    if greeks and all(state.counter(c).achilles for c in greeks):
        ruling = Ruling.event("achilles-enters", "every other Greek has fallen: Achilles joins the fight at once "
                              f"({state.tables.interpretation('achilles-entry')})", (CALENDAR,))
        return state.model_copy(update={"achilles_sulks": False}), [ruling]
    return state, []


class Won(NamedTuple):
    """A victory: the side, why in words, and the termination code (Scopo del gioco)."""

    side: Side
    reason: str
    code: str


def victory(state: IliadState) -> Won | None:
    """Scopo del gioco: the side that has won now and why (None while the game goes on)."""
    board = state.tables.board
    greeks = [c for c in state.where if state.counter(c).side is Side.GREEK]
    trojans = [c for c in state.where if state.counter(c).side is Side.TROJAN]
    if not trojans:
        return Won(Side.GREEK, "every Trojan is eliminated: the Greeks win", "trojans-eliminated")
    in_troy = [c for c in greeks if state.where[c] in board.troy]
    if len(in_troy) >= VICTORY_COUNTERS:
        return Won(Side.GREEK, f"{len(in_troy)} Greek counters stand in Troy at once ({', '.join(in_troy)}): "
                   "Troy falls", "troy-falls")
    fighting = [c for c in greeks if not state.sulking(c)]
    if not fighting:
        if greeks:
            return Won(Side.TROJAN, "every Greek is eliminated while Achilles sulks: the Trojans win",
                       "greeks-eliminated-achilles-sulking")
        return Won(Side.TROJAN, "every Greek is eliminated: the Trojans win", "greeks-eliminated")
    on_ships = [c for c in trojans if state.where[c] in board.ships]
    if len(on_ships) >= VICTORY_COUNTERS:
        return Won(Side.TROJAN, f"{len(on_ships)} Trojan counters stand on the ships at once "
                   f"({', '.join(on_ships)}): the ships burn", "ships-burn")
    return None


def termination(state: IliadState) -> str:
    """Scopo del gioco: how a finished game ended, read off the final board and calendar."""
    won = victory(state)
    if won is not None:
        return won.code
    cal = state.tables.calendar
    if state.winner is Side.TROJAN and state.day >= cal.days:
        return "calendar-end"
    return "declared" if state.winner is not None else "no-winner"


def finish(state: IliadState, winner: Side, reason: str, code: str = "") -> IliadState:
    """Scopo del gioco: the game is over (and with it the move under way: nothing is left declared).
    The termination ``code`` is not stored: :func:`termination` reads it off the final state."""
    return state.model_copy(update={"phase": Phase.OVER, "winner": winner, "win_reason": reason,
                                    "moved": (), "attacks": (), "shots": ()})


def event_disclosures(state: IliadState, events: list[Ruling]) -> list[str]:
    """The reconstructed values and interpretations the hour's events relied on."""
    tables = state.tables
    cal = tables.calendar
    out: list[str] = []
    for event in events:
        if event.code == "duel-skipped":
            out.append(tables.interpretation("duel-availability"))
        elif event.code == "wall-built":
            out.append(f"calendar.yaml: wall from day {cal.wall[0]} hour {cal.wall[1]} ({cal.provenance['wall']})")
        elif event.code == "achilles-enters" and not cal.reached(cal.achilles_enters, state.day, state.hour):
            out.append(tables.interpretation("achilles-entry"))
        elif event.code == "victory" and termination(state) == "troy-falls":
            out.append(tables.interpretation("troy-ground"))
        elif event.code == "victory" and termination(state) == "greeks-eliminated-achilles-sulking":
            out.append(tables.interpretation("achilles-entry"))
        elif event.code in ("next-hour", "trojan-move") and state.favoured() is not None:
            out.append(f"calendar.yaml: god advantage day {state.day} hour {state.hour} "
                       f"({cal.provenance['advantage']})")
        elif event.code == "nightfall":
            out.append(f"calendar.yaml: {cal.hours} hours a day ({cal.provenance['hours']})")
    return list(dict.fromkeys(out))


def victory_event(reason: str) -> Ruling:
    """The event announcing a victory."""
    return Ruling.event("victory", reason, (VICTORY,))


# ---------------------------------------------------------------------------------------------
# The night


def allowance(state: IliadState, side: Side) -> int:
    """La notte: two thirds of the points a side lost today, rounded up (interpretation
    night-rounding: the rulebook's example, 16 lost giving 12, rounds the lost points up to a
    multiple of three first)."""
    lost = state.points_lost(side)
    if state.tables.choice("night-rounding") == "multiple-of-three":
        step = RECOVERY.denominator
        return ceil(lost / step) * step * RECOVERY.numerator // step
    return ceil(lost * RECOVERY)


def leaving_by_morning(state: IliadState) -> bool:
    """Il calendario: the Thracians are gone when the next day begins."""
    cal = state.tables.calendar
    return cal.reached(cal.thracians_leave, state.day + 1, 1)


def candidates(state: IliadState, side: Side) -> list[CounterId]:
    """La notte: the fallen counters a side may revive tonight (today's dead; interpretation
    thracian-losses)."""
    lost = state.lost.get(side, ())
    pool = lost if lost or not state.points_lost(side) else tuple(
        c for c in state.dead if state.counter(c).side is side)
    out = [c for c in pool if c in state.dead and c not in state.removed]
    if leaving_by_morning(state):
        out = [c for c in out if not state.counter(c).thracian]
    return list(dict.fromkeys(out))


def auto_revive(state: IliadState, side: Side) -> tuple[CounterId, ...]:
    """La notte (interpretation night-choice): the largest total within the allowance, higher
    values first."""
    pool = sorted(candidates(state, side), key=lambda c: -state.counter(c).value)
    values = [state.counter(c).value for c in pool]
    limit = allowance(state, side)
    # reach[i] = totals formable from pool[i:]
    reach: list[set[int]] = [set() for _ in range(len(pool) + 1)]
    reach[len(pool)] = {0}
    for i in range(len(pool) - 1, -1, -1):
        reach[i] = reach[i + 1] | {t + values[i] for t in reach[i + 1] if t + values[i] <= limit}
    best = max(reach[0])
    chosen: list[CounterId] = []
    need = best
    for i, ident in enumerate(pool):
        if need >= values[i] and need - values[i] in reach[i + 1]:
            chosen.append(ident)
            need -= values[i]
    return tuple(chosen)


def camp_open(state: IliadState) -> bool:
    """Il calendario: from the night before the wall's hour on, Greeks may start inside it."""
    cal = state.tables.calendar
    return state.wall or cal.reached(cal.wall, state.day + 1, 1)


def night_problems(
    state: IliadState, chosen: dict[Side, tuple[CounterId, ...]], camp: tuple[tuple[CounterId, Cell], ...]
) -> list[Ruling]:
    """La notte, Il calendario: the revived are today's fallen of that side within two thirds of
    the points lost; new start squares are free squares of the camp once the wall stands."""
    if state.phase is not Phase.NIGHT:
        when = f"day {state.day} hour {state.hour}" if state.phase is not Phase.SETUP else "the set-up"
        return [Ruling.violation("not-night", f"the night comes after the last hour of a day; it is {when}",
                                 (NIGHT,))]
    found: list[Ruling] = []
    for side, names in chosen.items():
        pool = candidates(state, side)
        for ident in names:
            c = state.counter(ident)
            if c.side is not side:
                found.append(Ruling.violation("wrong-side", f"{ident} is {c.side.adjective}, not "
                                              f"{side.adjective}", (NIGHT,)))
            elif ident not in pool:
                why = ("leaves with the Thracians" if c.thracian and leaving_by_morning(state)
                       else "is not among today's fallen")
                found.append(Ruling.violation("not-revivable", f"{ident} {why}", (NIGHT, CALENDAR)))
        total = sum(state.counter(i).value for i in names)
        limit = allowance(state, side)
        if total > limit:
            found.append(Ruling.violation(
                "over-allowance", f"the {side.label} lost {state.points_lost(side)} points today and may revive up "
                f"to {limit} (two thirds, rounded up); {', '.join(names)} are worth {total}", (NIGHT,)))
    if camp:
        found += _camp_problems(state, camp)
    return found


def _camp_problems(state: IliadState, camp: tuple[tuple[CounterId, Cell], ...]) -> list[Ruling]:
    if not camp_open(state):
        return [Ruling.violation("no-wall-yet", "the wall is not built before the next morning; the Greeks still "
                                 "start on the shore", (CALENDAR,))]
    found: list[Ruling] = []
    board = state.tables.board
    starts = dict(state.start)
    for ident, cell in camp:
        c = state.counter(ident)
        if c.side is not Side.GREEK:
            found.append(Ruling.violation("wrong-side", f"{ident} is not Greek", (CALENDAR,)))
        elif c.achilles and state.achilles_sulks and not state.tables.calendar.reached(
                state.tables.calendar.achilles_enters, state.day + 1, 1):
            found.append(Ruling.violation("achilles-sulks", f"{ident} stays in his tent on "
                                          f"{state.name(starts[ident])} until day 4", (CALENDAR,)))
        elif not board.squares[cell].camp:
            found.append(Ruling.violation("not-in-camp", f"{state.name(cell)} is not inside the wall", (CALENDAR,)))
        starts[ident] = cell
    seen: dict[Cell, CounterId] = {}
    for ident, cell in starts.items():
        if cell in seen:
            found.append(Ruling.violation("square-taken", f"{ident} and {seen[cell]} would both start on "
                                          f"{state.name(cell)}", (CALENDAR,)))
        seen[cell] = ident
    return found


def apply_night(
    state: IliadState, chosen: dict[Side, tuple[CounterId, ...]], camp: tuple[tuple[CounterId, Cell], ...]
) -> tuple[IliadState, list[Ruling]]:
    """La notte: revive, send everyone back to start, heal the wounded; the next day begins."""
    events: list[Ruling] = []
    start = {**state.start, **dict(camp)}
    revived = [i for names in chosen.values() for i in names]
    for side, names in chosen.items():
        total = sum(state.counter(i).value for i in names)
        events.append(Ruling.event(
            "revived", f"the {side.label} lost {state.points_lost(side)} points today and revive "
            f"{', '.join(names) or 'nobody'} ({total} of {allowance(state, side)} points)", (NIGHT,)))
    on_map = [*state.where, *revived]
    where = {ident: start[ident] for ident in on_map}
    events.append(Ruling.event("back-to-start", f"night {state.day}→{state.day + 1}: every counter is back on its "
                               "start square and the wounded are healed", (NIGHT,)))
    new = state.model_copy(update={
        "where": where, "start": start, "dead": tuple(d for d in state.dead if d not in revived), "wounded": (),
        "lost": {}, "lost_points": {}, "day": state.day + 1, "hour": 1, "side": Side.GREEK,
        "moved": (), "attacks": (), "shots": (),
    })
    new, more = start_hour(new)
    return new, events + more
