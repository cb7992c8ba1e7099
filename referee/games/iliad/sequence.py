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
from referee.i18n import N_, _
from referee.phrases import form
from referee.rulings import Arg, Ruling

RECOVERY = Fraction(2, 3)  # La notte: two thirds of the points lost, rounded up (16 gives 12)
VICTORY_COUNTERS = 5  # Scopo del gioco: five counters in Troy, or on five ships


# ---------------------------------------------------------------------------------------------
# Set-up


# stand-in lines a ruling stores in English, said again in the reader's language by phrases.say
ADVANTAGE = form(N_("calendar.yaml: god advantage day {day} hour {hour} ({provenance})"))
WALL = form(N_("calendar.yaml: wall from day {day} hour {hour} ({provenance})"))
HOURS = form(N_("calendar.yaml: {hours} hours a day ({provenance})"))

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
        return Ruling.violation("already-placed", "{counter} already stands on {square}", (SETUP,),
                                counter=counter, square=state.name(state.where[counter]))
    if board.squares[cell].start is not c.side:
        return Ruling.violation("not-a-start-square", "{square} is not a start square of the {side} ({ground})",
                                (SETUP,), square=name, side=c.side.label, ground=board.describe(cell))
    holder = next((k for k, v in state.where.items() if v == cell), None)
    if holder is not None:
        return Ruling.violation("square-occupied", "{counter} already stands on {square}", (SETUP,),
                                counter=holder, square=name)
    first = priority_squares(state, c.side)
    if cell not in first:
        free = [x for x in first if x not in state.where.values()]
        left = sum(1 for x in state.tables.roster.side(c.side) if x.id not in state.where)
        if free and left <= len(free):
            args: dict[str, Arg] = {"left": left, "side": c.side.label, "free": len(free),
                                    "first": state.name(min(free))}
            if c.side is Side.TROJAN:
                return Ruling.violation(
                    "fill-citadel-first", "{left} {side} remain for {free} free citadel squares ({first}...); every "
                    "citadel square must be covered", (SETUP,), **args)
            return Ruling.violation(
                "fill-land-and-sea-first", "{left} {side} remain for {free} free land-and-sea squares ({first}...); "
                "every land-and-sea square must be covered", (SETUP,), **args)
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
            events.append(Ruling.event("thracians-leave", "Odysseus and Diomedes raided the Thracian camp in the "
                                       "night: {counters} leave the game", (CALENDAR,), counters=", ".join(gone)))
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
        return finish(new, won.side, won.reason), events
    duel = cal.duel(day, hour)
    if duel is not None:
        missing = [h for h in (duel.greek, duel.trojan) if not available(new, h)]
        if missing:
            events.append(Ruling.event("duel-skipped", "the duel of {greek} and {trojan} scheduled at day {day} hour "
                                       "{hour} does not take place ({why}): a free move", (CALENDAR,),
                                       greek=duel.greek, trojan=duel.trojan, day=day, hour=hour,
                                       why=unavailable_text(new, missing)))
        else:
            new = new.model_copy(update={"phase": Phase.DUEL})
            events.append(Ruling.event("duel-hour", "day {day} hour {hour}: {greek} and {trojan} meet in the "
                                       "scheduled duel (type {resolve} to fight it)", (CALENDAR,), day=day, hour=hour,
                                       greek=duel.greek, trojan=duel.trojan, resolve=N_("resolve")))
    return new, events


def available(state: IliadState, ident: CounterId) -> bool:
    """Il calendario (interpretation duel-availability): may a hero fight a scheduled duel?"""
    return ident in state.where and ident not in state.wounded and not state.sulking(ident)


def unavailable_reason(state: IliadState, ident: CounterId) -> str:
    """Why a hero cannot fight a scheduled duel, in the active language ("Paride is wounded")."""
    if ident in state.removed:
        return _("{counter} is gone with the Thracians").format(counter=ident)
    if ident not in state.where:
        return _("{counter} is dead").format(counter=ident)
    if ident in state.wounded:
        return _("{counter} is wounded").format(counter=ident)
    return _("{counter} is still sulking").format(counter=ident)


def unavailable_text(state: IliadState, heroes: list[CounterId]) -> str:
    """Why the heroes cannot fight a scheduled duel, one reason each."""
    return "; ".join(unavailable_reason(state, h) for h in heroes)


def end_move(state: IliadState, after_duel: bool = False) -> tuple[IliadState, list[Ruling]]:
    """Come si gioca: after a move's combats, the Trojans reply, or the next hour (or the night)
    begins; the game ends on a victory or after the last hour of the last day."""
    events: list[Ruling] = []
    state, entered = _achilles_alone(state)
    events += entered
    won = victory(state)
    if won is not None:
        return finish(state, won.side, won.reason), events
    cleared = {"moved": (), "attacks": (), "shots": ()}
    whole_hour = after_duel and state.tables.choice("duel-hour") == "whole-hour"
    if state.side is Side.GREEK and not whole_hour:
        new = state.model_copy(update={**cleared, "phase": Phase.MOVE, "side": Side.TROJAN})
        events.append(Ruling.event("trojan-move", "day {day} hour {hour}: the Trojans reply", (TURN,),
                                   day=state.day, hour=state.hour))
        return new, events
    cal = state.tables.calendar
    if state.hour < cal.hours:
        new, more = start_hour(state.model_copy(update={**cleared, "hour": state.hour + 1, "side": Side.GREEK}))
        return new, [*events, Ruling.event("next-hour", "day {day} hour {hour}: the Greeks move",
                                           (TURN,), day=new.day, hour=new.hour), *more]
    if state.day < cal.days:
        new = state.model_copy(update={**cleared, "phase": Phase.NIGHT, "side": Side.GREEK})
        return new, [*events, Ruling.event("nightfall", "day {day} is over: the night follows "
                                           "(referee night)", (NIGHT,), day=state.day)]
    return finish(state, Side.TROJAN, CALENDAR_END.format(days=cal.days)), events


def _achilles_alone(state: IliadState) -> tuple[IliadState, list[Ruling]]:
    """Il calendario (interpretation achilles-entry achilles-enters): the last Greek is Achilles."""
    if not state.achilles_sulks or state.tables.choice("achilles-entry") != "achilles-enters":
        return state, []
    greeks = [c for c in state.where if state.counter(c).side is Side.GREEK]
    if greeks and all(state.counter(c).achilles for c in greeks):
        ruling = Ruling.event("achilles-enters", "every other Greek has fallen: Achilles joins the fight at once "
                              "({reading})", (CALENDAR,), reading=state.tables.interpretation("achilles-entry"))
        return state.model_copy(update={"achilles_sulks": False}), [ruling]
    return state, []


class Won(NamedTuple):
    """A victory: the side, why in words (English), the termination code (Scopo del gioco), and
    the message template and arguments that say why in any language."""

    side: Side
    reason: str
    code: str
    template: str = ""
    args: tuple[tuple[str, str | int], ...] = ()


def _won(side: Side, code: str, template: str, **args: str | int) -> Won:
    return Won(side, template.format(**args), code, template, tuple(args.items()))


CALENDAR_END = N_("day {days} ends without a Greek victory: the Trojans win")
DECLARED_END = N_("the {side} have won")


def victory(state: IliadState) -> Won | None:
    """Scopo del gioco: the side that has won now and why (None while the game goes on)."""
    board = state.tables.board
    greeks = [c for c in state.where if state.counter(c).side is Side.GREEK]
    trojans = [c for c in state.where if state.counter(c).side is Side.TROJAN]
    if not trojans:
        return _won(Side.GREEK, "trojans-eliminated", N_("every Trojan is eliminated: the Greeks win"))
    in_troy = [c for c in greeks if state.where[c] in board.troy]
    if len(in_troy) >= VICTORY_COUNTERS:
        return _won(Side.GREEK, "troy-falls", N_("{n} Greek counters stand in Troy at once ({counters}): Troy falls"),
                    n=len(in_troy), counters=", ".join(in_troy))
    fighting = [c for c in greeks if not state.sulking(c)]
    if not fighting:
        if greeks:
            return _won(Side.TROJAN, "greeks-eliminated-achilles-sulking",
                        N_("every Greek is eliminated while Achilles sulks: the Trojans win"))
        return _won(Side.TROJAN, "greeks-eliminated", N_("every Greek is eliminated: the Trojans win"))
    on_ships = [c for c in trojans if state.where[c] in board.ships]
    if len(on_ships) >= VICTORY_COUNTERS:
        return _won(Side.TROJAN, "ships-burn",
                    N_("{n} Trojan counters stand on the ships at once ({counters}): the ships burn"),
                    n=len(on_ships), counters=", ".join(on_ships))
    return None


def outcome_ruling(state: IliadState) -> Ruling:
    """Scopo del gioco: the event saying how a finished game ended (in any language: the reason
    is read again off the final board, the calendar or the declared winner)."""
    won = victory(state)
    if won is not None and won.side is state.winner:
        return Ruling.make("victory", won.template, (VICTORY,), None, dict(won.args))
    cal = state.tables.calendar
    if state.winner is Side.TROJAN and state.day >= cal.days:
        return Ruling.make("victory", CALENDAR_END, (VICTORY,), None, {"days": cal.days})
    if state.winner is not None:
        return Ruling.make("victory", DECLARED_END, (VICTORY,), None, {"side": state.winner.label})
    return Ruling.event("victory", "game over", (VICTORY,))


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


def advantage_disclosure(state: IliadState) -> str:
    """The disclosure of the hour's god advantage (a reconstructed calendar value)."""
    return ADVANTAGE.format(
        day=state.day, hour=state.hour, provenance=state.tables.calendar.provenance["advantage"])


def event_disclosures(state: IliadState, events: list[Ruling]) -> list[str]:
    """The reconstructed values and interpretations the hour's events relied on."""
    tables = state.tables
    cal = tables.calendar
    out: list[str] = []
    for event in events:
        if event.code == "duel-skipped":
            out.append(tables.interpretation("duel-availability"))
        elif event.code == "wall-built":
            out.append(WALL.format(
                day=cal.wall[0], hour=cal.wall[1], provenance=cal.provenance["wall"]))
        elif event.code == "achilles-enters" and not cal.reached(cal.achilles_enters, state.day, state.hour):
            out.append(tables.interpretation("achilles-entry"))
        elif event.code == "victory" and termination(state) == "troy-falls":
            out.append(tables.interpretation("troy-ground"))
        elif event.code == "victory" and termination(state) == "greeks-eliminated-achilles-sulking":
            out.append(tables.interpretation("achilles-entry"))
        elif event.code in ("next-hour", "trojan-move") and state.favoured() is not None:
            out.append(advantage_disclosure(state))
        elif event.code == "nightfall":
            out.append(HOURS.format(
                hours=cal.hours, provenance=cal.provenance["hours"]))
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
    if state.phase is Phase.SETUP:
        return [Ruling.violation("not-night", "the night comes after the last hour of a day; it is the set-up",
                                 (NIGHT,))]
    if state.phase is not Phase.NIGHT:
        return [Ruling.violation("not-night", "the night comes after the last hour of a day; it is day {day} hour "
                                 "{hour}", (NIGHT,), day=state.day, hour=state.hour)]
    found: list[Ruling] = []
    for side, names in chosen.items():
        pool = candidates(state, side)
        for ident in names:
            c = state.counter(ident)
            if c.side is not side:
                found.append(Ruling.violation("wrong-side", "{counter} is {adjective}, not {other}", (NIGHT,),
                                              counter=ident, adjective=c.side.adjective, other=side.adjective))
            elif ident not in pool and c.thracian and leaving_by_morning(state):
                found.append(Ruling.violation("not-revivable", "{counter} leaves with the Thracians",
                                              (NIGHT, CALENDAR), counter=ident))
            elif ident not in pool:
                found.append(Ruling.violation("not-revivable", "{counter} is not among today's fallen",
                                              (NIGHT, CALENDAR), counter=ident))
        total = sum(state.counter(i).value for i in names)
        limit = allowance(state, side)
        if total > limit:
            found.append(Ruling.counted(
                "over-allowance", "the {side} lost {n} point today and may revive up to {limit} (two thirds, "
                "rounded up); {counters} are worth {total}", "the {side} lost {n} points today and may revive up "
                "to {limit} (two thirds, rounded up); {counters} are worth {total}", state.points_lost(side),
                (NIGHT,), side=side.label, limit=limit, counters=", ".join(names), total=total))
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
            found.append(Ruling.violation("wrong-side", "{counter} is not Greek", (CALENDAR,), counter=ident))
        elif c.achilles and state.achilles_sulks and not state.tables.calendar.reached(
                state.tables.calendar.achilles_enters, state.day + 1, 1):
            found.append(Ruling.violation("achilles-sulks", "{counter} stays in his tent on {square} until day {day}",
                                          (CALENDAR,), counter=ident, square=state.name(starts[ident]),
                                          day=state.tables.calendar.achilles_enters[0]))
        elif not board.squares[cell].camp:
            found.append(Ruling.violation("not-in-camp", "{square} is not inside the wall", (CALENDAR,),
                                          square=state.name(cell)))
        starts[ident] = cell
    seen: dict[Cell, CounterId] = {}
    for ident, cell in starts.items():
        if cell in seen:
            found.append(Ruling.violation("square-taken", "{counter} and {other} would both start on {square}",
                                          (CALENDAR,), counter=ident, other=seen[cell], square=state.name(cell)))
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
        args: dict[str, Arg] = {"side": side.label, "total": total, "limit": allowance(state, side)}
        lost = state.points_lost(side)
        if names:
            events.append(Ruling.counted("revived", "the {side} lost {n} point today and revive {counters} "
                                         "({total} of {limit} allowed)", "the {side} lost {n} points today and "
                                         "revive {counters} ({total} of {limit} allowed)", lost, (NIGHT,),
                                         counters=", ".join(names), **args))
        else:
            events.append(Ruling.counted("revived", "the {side} lost {n} point today and revive nobody "
                                         "({total} of {limit} allowed)", "the {side} lost {n} points today and "
                                         "revive nobody ({total} of {limit} allowed)", lost, (NIGHT,), **args))
    on_map = [*state.where, *revived]
    where = {ident: start[ident] for ident in on_map}
    events.append(Ruling.event("back-to-start", "night {day}→{next}: every counter is back on its start square and "
                               "the wounded are healed", (NIGHT,), day=state.day, next=state.day + 1))
    new = state.model_copy(update={
        "where": where, "start": start, "dead": tuple(d for d in state.dead if d not in revived), "wounded": (),
        "lost": {}, "lost_points": {}, "day": state.day + 1, "hour": 1, "side": Side.GREEK,
        "moved": (), "attacks": (), "shots": (),
    })
    new, more = start_hour(new)
    return new, events + more
