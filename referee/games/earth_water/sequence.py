"""base 6, base 8-10, 3.F: whose turn it is, phase changes, the end of a campaign, victory.

A campaign runs: PERS.IA preparation, Greek preparation, operations (Persia first, turns
alternate; two passes running or two empty hands end them), PERS.IA supply, Greek supply, then
lines of communication and scoring close it. The solo game starts on campaign 3 and ends after
campaign 5, or at once when Persia holds both Greek Majors (3.F).
"""

from __future__ import annotations

import re

from referee.games.earth_water.actions import GRAMMAR
from referee.games.earth_water.rules import (
    BASE_OPERATIONS,
    BASE_SCORING,
    BASE_SUPPLY,
    GAME_END,
    HANDS,
    SCORING,
    SUDDEN_VICTORY,
    VICTORY,
)
from referee.games.earth_water.state import EarthWaterState, interp, units
from referee.games.earth_water.supply import holds_both_enemy_majors, points, supplied, surplus
from referee.games.earth_water.tables import Phase, Side
from referee.i18n import N_, _
from referee.rulings import Arg, RuleRef, Ruling

PHASE_NAMES = {
    Phase.PERSIAN_PREPARATION: N_("PERS.IA preparation"), Phase.GREEK_PREPARATION: N_("Greek preparation"),
    Phase.OPERATIONS: N_("operations"), Phase.PERSIAN_SUPPLY: N_("PERS.IA supply"),
    Phase.GREEK_SUPPLY: N_("Greek supply"), Phase.OVER: N_("end of the game"), Phase.ANY: N_("umpire position"),
}
"""Phase names (English; ruling arguments and status lines translate them)."""


def check_phase(state: EarthWaterState, wanted: tuple[Phase, ...], side: Side | None, what: str,
                rule: RuleRef) -> Ruling | None:
    """base 6: an action belongs to its phase and, in operations, to its side's turn."""
    if state.phase is Phase.OVER:
        return Ruling.violation("game-over", "the game is over: {reason}", (GAME_END,),
                                reason=reason_text(state.end_reason))
    if state.phase is Phase.ANY:
        return None
    if state.phase not in wanted:
        what = GRAMMAR.say(what)
        if len(wanted) == 2:
            return Ruling.violation("wrong-phase", "'{what}' belongs to the {phase} or the {other}; the game is in "
                                    "the {now}", (rule,), what=what, phase=PHASE_NAMES[wanted[0]],
                                    other=PHASE_NAMES[wanted[1]], now=PHASE_NAMES[state.phase])
        return Ruling.violation("wrong-phase", "'{what}' belongs to the {phase}; the game is in the {now}", (rule,),
                                what=what, phase=PHASE_NAMES[wanted[0]], now=PHASE_NAMES[state.phase])
    if state.phase is Phase.OPERATIONS and side is not None and state.active is not side:
        return Ruling.violation("not-your-turn", "it is the turn of {side} to operate", (BASE_OPERATIONS,),
                                side=state.active.label)
    return None


def check_no_battle(state: EarthWaterState) -> Ruling | None:
    """base 7: a pending battle is fought before anything else."""
    if state.battle is None:
        return None
    if state.battle.kind == "naval":
        return Ruling.violation("battle-pending", "the naval battle in {city} is fought first ('fight', 'resolve' "
                                "or 'retreat CITY')", (BASE_OPERATIONS,), city=state.battle.city)
    return Ruling.violation("battle-pending", "the land battle in {city} is fought first ('fight', 'resolve' "
                            "or 'retreat CITY')", (BASE_OPERATIONS,), city=state.battle.city)


def begin_greek_preparation(state: EarthWaterState) -> EarthWaterState:
    """base 5: Greece prepares after PERS.IA, with six talents."""
    return state.model_copy(update={
        "phase": Phase.GREEK_PREPARATION, "greek_talents": state.tables.base.greek_talents.value,
        "greek_cards_bought": 0, "greek_fleets_bought": 0, "greek_units_bought": False})


def begin_operations(state: EarthWaterState) -> EarthWaterState:
    """base 6: Persia operates first."""
    return state.model_copy(update={"phase": Phase.OPERATIONS, "active": Side.PERSIA, "passes": 0,
                                    "greek_talents": 0})


def end_turn(state: EarthWaterState, mover: Side, passed: bool) -> tuple[EarthWaterState, list[Ruling]]:
    """base 6: the other side's turn, or the end of operations (two passes, two empty hands)."""
    if state.phase is not Phase.OPERATIONS:
        return state, []
    passes = state.passes + 1 if passed else 0
    if passes >= 2:
        return _end_operations(state, N_("two passes in a row"))
    if state.hands.persia == 0 and state.hands.greece == 0:
        return _end_operations(state, N_("both hands are empty"))
    return state.model_copy(update={"active": mover.other, "passes": passes}), []


def _end_operations(state: EarthWaterState, why: str) -> tuple[EarthWaterState, list[Ruling]]:
    new = state.model_copy(update={"phase": Phase.PERSIAN_SUPPLY, "passes": 0, "active": Side.PERSIA})
    return new, [Ruling.event("operations-over", "operations end: {why}; PERS.IA supplies next "
                              "('referee persia supply')", (BASE_OPERATIONS,), why=why)]


def begin_greek_supply(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """base 8: after PERS.IA's supply, Greece trims its hand and pays attrition (counted once)."""
    if state.phase is Phase.ANY:
        return state, []
    armies, food, excess = surplus(state, Side.GREECE)
    new = state.model_copy(update={"phase": Phase.GREEK_SUPPLY, "attrition_due": excess})
    if excess:
        return new, [Ruling.event("greek-supply", "Greek supply: {armies} against {food}; remove {excess} "
                                  "('remove N CITY'), then 'done'", (BASE_SUPPLY,), armies=units(armies, "army"),
                                  food=units(food, "amphora"), excess=units(excess, "army"))]
    return new, [Ruling.event("greek-supply", "Greek supply: {armies} against {food}; no attrition; "
                              "'keep N' to trim the hand, then 'done'", (BASE_SUPPLY,), armies=units(armies, "army"),
                              food=units(food, "amphora"))]


def greek_attrition_due(state: EarthWaterState) -> int:
    """base 8.2: armies Greece still has to remove (live count in an umpire position)."""
    if state.phase is Phase.ANY:
        return surplus(state, Side.GREECE)[2]
    return state.attrition_due


def end_campaign(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling], tuple[str, ...]]:
    """base 8, base 9, base 10, 7: Greek hand and lines, scoring, then the next campaign or the end."""
    events: list[Ruling] = []
    keep = state.tables.base.greek_hand_kept.value
    if state.hands.greece > keep:
        events.append(Ruling.event("hand", "Greece keeps {keep} of its {held}", (HANDS,), keep=keep,
                                   held=units(state.hands.greece, "card")))
        state = state.model_copy(update=state.greek_hand_after(keep))
    ok = supplied(state, Side.GREECE)
    cut = {c: g.greek_armies for c, g in state.cities.items() if g.greek_armies and c not in ok}
    cities = dict(state.cities)
    for city, n in cut.items():
        cities[city] = cities[city].plus(Side.GREECE, armies=-n)
        events.append(Ruling.counted("unsupplied", "{n} Greek army in {city} has no line of communication and "
                                     "is removed", "{n} Greek armies in {city} have no line of communication and "
                                     "are removed", n, (BASE_SUPPLY,), city=city))
    state = state.model_copy(update={"cities": cities, "attrition_due": 0})
    used = (interp(state, "greek-supply-order"), interp(state, "supply-lines"), interp(state, "sea-supply"))
    state, more = score_campaign(state)
    return state, events + more, used


def score_campaign(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """base 9, base 10, 7: automatic victory, the points, the next campaign or the final verdict."""
    for side in (Side.PERSIA, Side.GREECE):
        if holds_both_enemy_majors(state, side):
            reason = (N_("Persia holds both enemy Major cities at scoring") if side is Side.PERSIA
                      else N_("Greece holds both enemy Major cities at scoring"))
            return _over(state, side, reason, (BASE_SCORING, VICTORY))
    persian, greek = points(state, Side.PERSIA), points(state, Side.GREECE)
    track = state.tables.base.score_track.value
    score = max(-track, min(track, state.score + persian - greek))
    lead = Side.PERSIA if persian > greek else Side.GREECE
    shown = score_text(score)
    args: dict[str, Arg] = {"campaign": state.campaign, "persian": persian, "greek": greek, "score": shown}
    if persian == greek:
        events = [Ruling.event("scoring", "campaign {campaign} scoring: Persia {persian} points, Greece {greek}; "
                               "the marker stays (score {score})", (SCORING, BASE_SCORING), **args)]
    else:
        events = [Ruling.event("scoring", "campaign {campaign} scoring: Persia {persian} points, Greece {greek}; "
                               "the marker moves {n} toward {side} (score {score})", (SCORING, BASE_SCORING),
                               n=abs(persian - greek), side=lead.label, **args)]
    state = state.model_copy(update={"score": score})
    if state.campaign >= state.tables.base.last_campaign.value:
        if score == 0:
            return _over(state, None, N_("after the last campaign the score is level: a draw"), (GAME_END,), events)
        winner = Side.PERSIA if score > 0 else Side.GREECE
        return _over(state, winner, LEADS.format(side=winner.label, n=abs(score)), (GAME_END, VICTORY), events)
    new = state.model_copy(update={"campaign": state.campaign + 1, "phase": Phase.PERSIAN_PREPARATION,
                                   "active": Side.PERSIA, "passes": 0})
    events.append(Ruling.event("campaign", "campaign {campaign} begins: PERS.IA prepares "
                               "('referee persia prepare')", (BASE_SCORING,), campaign=new.campaign))
    return new, events


def sudden_victory(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """3.F: Persia wins as soon as it controls both Greek Major cities."""
    if state.phase is Phase.OVER or not holds_both_enemy_majors(state, Side.PERSIA):
        return state, []
    return _over(state, Side.PERSIA, N_("Persia controls both Greek Major cities"), (SUDDEN_VICTORY, VICTORY))


def _over(state: EarthWaterState, winner: Side | None, reason: str, cites: tuple[RuleRef, ...],
          events: list[Ruling] | None = None) -> tuple[EarthWaterState, list[Ruling]]:
    new = state.model_copy(update={"phase": Phase.OVER, "winner": winner, "end_reason": reason, "battle": None,
                                   "may_burn": False})
    if winner is None:
        return new, [*(events or []), Ruling.event("victory", reason_text(reason), cites)]
    return new, [*(events or []), Ruling.event("victory", "{side} wins: {reason}", cites, side=winner.label,
                                               reason=reason_text(reason))]


LEADS = N_("after the last campaign {side} leads by {n}")
HAS_WON = N_("{side} has won")
_FILLED = [(template, re.compile("^" + re.escape(template).replace(r"\{side\}", "(?P<side>Greece|Persia)")
                                 .replace(r"\{n\}", "(?P<n>[0-9]+)") + "$")) for template in (LEADS, HAS_WON)]


def reason_text(reason: str | None) -> str:
    """Returns how a game ended in the active language.

    The state keeps the English reason (the state hash must not depend on the language a game
    was replayed in); the reasons are our own templates, filled with a side and a number.
    """
    if not reason:
        return _("game over")
    for template, pattern in _FILLED:
        found = pattern.match(reason)
        if found is not None:
            side, n = found.group("side"), found.groupdict().get("n", "")
            return _(template).format(side=_(side), n=n)
    return _(reason)


def score_text(score: int) -> str:
    """Returns the score track position in the active language ('2 Persian side', '0')."""
    if score > 0:
        return _("{n} Persian side").format(n=score)
    if score < 0:
        return _("{n} Greek side").format(n=-score)
    return "0"
