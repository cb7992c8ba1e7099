"""base 6, base 8-10, 3.F: whose turn it is, phase changes, the end of a campaign, victory.

A campaign runs: PERS.IA preparation, Greek preparation, operations (Persia first, turns
alternate; two passes running or two empty hands end them), PERS.IA supply, Greek supply, then
lines of communication and scoring close it. The solo game starts on campaign 3 and ends after
campaign 5, or at once when Persia holds both Greek Majors (3.F).
"""

from __future__ import annotations

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
from referee.games.earth_water.state import EarthWaterState, Phase, Side, interp, many
from referee.games.earth_water.supply import holds_both_enemy_majors, points, supplied, surplus
from referee.rulings import RuleRef, Ruling

PHASE_NAMES = {
    Phase.PERSIAN_PREPARATION: "PERS.IA preparation", Phase.GREEK_PREPARATION: "Greek preparation",
    Phase.OPERATIONS: "operations", Phase.PERSIAN_SUPPLY: "PERS.IA supply", Phase.GREEK_SUPPLY: "Greek supply",
    Phase.OVER: "end of the game", Phase.ANY: "umpire position",
}


def check_phase(state: EarthWaterState, wanted: tuple[Phase, ...], side: Side | None, what: str,
                rule: RuleRef) -> Ruling | None:
    """base 6: an action belongs to its phase and, in operations, to its side's turn."""
    if state.phase is Phase.OVER:
        return Ruling.violation("game-over", f"the game is over: {state.end_reason}", (GAME_END,))
    if state.phase is Phase.ANY:
        return None
    if state.phase not in wanted:
        names = " or ".join(PHASE_NAMES[p] for p in wanted)
        return Ruling.violation("wrong-phase", f"{what} belongs to the {names}; the game is in the "
                                f"{PHASE_NAMES[state.phase]}", (rule,))
    if state.phase is Phase.OPERATIONS and side is not None and state.active is not side:
        return Ruling.violation("not-your-turn", f"it is {state.active.label}'s turn to operate",
                                (BASE_OPERATIONS,))
    return None


def check_no_battle(state: EarthWaterState) -> Ruling | None:
    """base 7: a pending battle is fought before anything else."""
    if state.battle is None:
        return None
    return Ruling.violation("battle-pending", f"the {state.battle.kind} battle in {state.battle.city} is fought "
                            "first ('fight', 'resolve' or 'retreat CITY')", (BASE_OPERATIONS,))


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
        return _end_operations(state, "two passes in a row")
    if state.hands.persia == 0 and state.hands.greece == 0:
        return _end_operations(state, "both hands are empty")
    return state.model_copy(update={"active": mover.other, "passes": passes}), []


def _end_operations(state: EarthWaterState, why: str) -> tuple[EarthWaterState, list[Ruling]]:
    new = state.model_copy(update={"phase": Phase.PERSIAN_SUPPLY, "passes": 0, "active": Side.PERSIA})
    return new, [Ruling.event("operations-over", f"operations end: {why}; PERS.IA supplies next "
                              "('referee persia supply')", (BASE_OPERATIONS,))]


def begin_greek_supply(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """base 8: after PERS.IA's supply, Greece trims its hand and pays attrition (counted once)."""
    if state.phase is Phase.ANY:
        return state, []
    armies, food, excess = surplus(state, Side.GREECE)
    new = state.model_copy(update={"phase": Phase.GREEK_SUPPLY, "attrition_due": excess})
    msg = (f"Greek supply: {many(armies, 'army')} against {many(food, 'amphora')}; "
           + (f"remove {many(excess, 'army')} ('remove N CITY'), then 'done'" if excess else "no attrition; "
              "'keep N' to trim the hand, then 'done'"))
    return new, [Ruling.event("greek-supply", msg, (BASE_SUPPLY,))]


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
        events.append(Ruling.event("hand", f"Greece keeps {keep} of its {state.hands.greece} cards", (HANDS,)))
        state = state.model_copy(update={"hands": state.hands.model_copy(update={"greece": keep})})
    ok = supplied(state, Side.GREECE)
    cut = {c: g.greek_armies for c, g in state.cities.items() if g.greek_armies and c not in ok}
    cities = dict(state.cities)
    for city, n in cut.items():
        cities[city] = cities[city].plus(Side.GREECE, armies=-n)
        events.append(Ruling.event("unsupplied", f"{many(n, 'Greek army')} in {city} have no line of "
                                   "communication and are removed", (BASE_SUPPLY,)))
    state = state.model_copy(update={"cities": cities, "attrition_due": 0})
    used = (interp(state, "greek-supply-order"), interp(state, "supply-lines"), interp(state, "sea-supply"))
    state, more = score_campaign(state)
    return state, events + more, used


def score_campaign(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """base 9, base 10, 7: automatic victory, the points, the next campaign or the final verdict."""
    for side in (Side.PERSIA, Side.GREECE):
        if holds_both_enemy_majors(state, side):
            return _over(state, side, f"{side.label} holds both enemy Major cities at scoring", (BASE_SCORING, VICTORY))
    persian, greek = points(state, Side.PERSIA), points(state, Side.GREECE)
    track = state.tables.base.score_track.value
    score = max(-track, min(track, state.score + persian - greek))
    lead = "Persia" if persian > greek else "Greece"
    moved = f"the marker moves {abs(persian - greek)} toward {lead}" if persian != greek else "the marker stays"
    shown = f"{abs(score)} {'Persian' if score > 0 else 'Greek'} side" if score else "0"
    events = [Ruling.event("scoring", f"campaign {state.campaign} scoring: Persia {persian} points, Greece {greek}; "
                           f"{moved} (score {shown})", (SCORING, BASE_SCORING))]
    state = state.model_copy(update={"score": score})
    if state.campaign >= state.tables.base.last_campaign.value:
        if score == 0:
            return _over(state, None, "after the last campaign the score is level: a draw", (GAME_END,), events)
        winner = Side.PERSIA if score > 0 else Side.GREECE
        return _over(state, winner, f"after the last campaign {winner.label} leads by {abs(score)}",
                     (GAME_END, VICTORY), events)
    new = state.model_copy(update={"campaign": state.campaign + 1, "phase": Phase.PERSIAN_PREPARATION,
                                   "active": Side.PERSIA, "passes": 0})
    events.append(Ruling.event("campaign", f"campaign {new.campaign} begins: PERS.IA prepares "
                               "('referee persia prepare')", (BASE_SCORING,)))
    return new, events


def sudden_victory(state: EarthWaterState) -> tuple[EarthWaterState, list[Ruling]]:
    """3.F: Persia wins as soon as it controls both Greek Major cities."""
    if state.phase is Phase.OVER or not holds_both_enemy_majors(state, Side.PERSIA):
        return state, []
    return _over(state, Side.PERSIA, "Persia controls both Greek Major cities", (SUDDEN_VICTORY, VICTORY))


def _over(state: EarthWaterState, winner: Side | None, reason: str, cites: tuple[RuleRef, ...],
          events: list[Ruling] | None = None) -> tuple[EarthWaterState, list[Ruling]]:
    new = state.model_copy(update={"phase": Phase.OVER, "winner": winner, "end_reason": reason, "battle": None,
                                   "may_burn": False})
    verdict = f"{winner.label} wins: {reason}" if winner else reason
    return new, [*(events or []), Ruling.event("victory", verdict, cites)]
