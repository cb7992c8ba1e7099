"""Judging what a 300-solo position file declares (a position file is judged, never taken on trust).

Nothing a position states is taken on trust. The board must be one the rules allow (piece
limits, armies of both sides only where a battle is pending, no Persian victory left unnoticed),
the phase must agree with the hands, the turn and the talents, and a pending battle is replayed
as the move that started it: the state before it is rebuilt and the engine's own ``judge`` and
``apply`` (a Greek ``move`` or ``sail``, or PERS.IA's ``persia operate``) must lead back to the
declared battle. What can be derived (the side to act during a battle, PERS.IA's hand in the
Greek preparation, a battle's only possible origin, the Greek attrition due) is derived; what
contradicts is refused with one :class:`~referee.errors.PositionError` naming the field and the
rule. Entry points: :func:`judge_declarations`, :func:`battle_sources`, :func:`open_declarations`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from referee.dice import NoDice, PhysicalDice
from referee.errors import PositionError
from referee.game import Engine
from referee.games.earth_water import actions as act
from referee.games.earth_water.actions import EarthWaterAction
from referee.games.earth_water.rules import (
    BASE_OPERATIONS,
    BASE_PREPARATION,
    BATTLE,
    DEFENCE,
    FACE_DESTROY_FLEET,
    FACE_MARCH,
    GAME_END,
    HANDS,
    LAND_MOVE,
    NAVAL_MOVE,
    PERSIAN_HAND,
    PIECES,
    PREPARATION,
    SUDDEN_VICTORY,
    VICTORY,
)
from referee.games.earth_water.sequence import PHASE_NAMES
from referee.games.earth_water.state import Battle, EarthWaterState, Garrison, units
from referee.games.earth_water.supply import holds_both_enemy_majors, surplus
from referee.games.earth_water.tables import CityName, Phase, Side
from referee.i18n import _
from referee.rulings import Ruling

Rules: TypeAlias = Engine[EarthWaterState, EarthWaterAction]
"""The engine as these checks use it (``judge``, ``apply``): the core protocol, so this module needs
no import of the engine that calls it."""

P = Phase
ROUTE_CODES = frozenset({"no-road", "bridge-down", "no-route", "must-stop", "same-city", "not-a-port", "same-port"})


@dataclass(frozen=True)
class Problem:
    """An impossible declaration: the position field it sits in and the rule it breaks."""

    field: str
    ruling: Ruling


@dataclass(frozen=True)
class Source:
    """One way a declared battle came about: the state before it and the action that started it."""

    before: EarthWaterState
    action: act.LandMove | act.NavalMove | act.Persia
    die: int | None
    origin: CityName | None


def problem(ruling: Ruling) -> str:
    """Returns a ruling as the problem text of a position error: message, then the sections."""
    return f"{ruling.text()} ({'; '.join(str(c) for c in ruling.cites)})"


def refuse(label: str, found: Problem) -> PositionError:
    """Returns the one-line error of an impossible declaration."""
    return PositionError(label, found.field, problem(found.ruling))


# ---------------------------------------------------------------------------------------------
# The board: invariants every state of a game keeps


def check_reserve(state: EarthWaterState) -> Problem | None:
    """base pieces: Greece never has more than its nine armies in play (aboard and portraits too)."""
    armies, _ = state.greek_reserve()
    if armies >= 0:
        return None
    owned = state.tables.base.greek_armies.value
    field = "battle.carried" if state.battle is not None and state.battle.carried else "cities"
    return Problem(field, Ruling.violation("no-reserve", "Greece owns {owned} armies; this position has {has} (on the "
                                           "map, aboard and on portraits)", (PIECES,), owned=owned, has=owned - armies))


def check_deck(state: EarthWaterState) -> Problem | None:
    """base pieces: the hands hold no more than the 16 cards (the card a move spent included)."""
    if state.deck_left() >= 0:
        return None
    deck = state.tables.base.deck.value
    return Problem("hands", Ruling.violation("out-of-range", "the hands would hold {held} of the {deck} cards, "
                                             "counting the card the battle's move cost", (PIECES,),
                                             held=deck - state.deck_left(), deck=deck))


def check_meetings(state: EarthWaterState) -> Problem | None:
    """base 6.4, base 7: armies of both sides share a city only while their battle is pending.

    Fleets of both sides may share a port (the second branch of 5.3.6 expects it), so only
    armies are checked.
    """
    battle = state.battle
    for city, g in state.cities.items():
        if g.greek_armies and g.persian_armies and not (battle and battle.city == city and battle.kind == "land"):
            return Problem(f"cities.{city}", Ruling.violation(
                "unfought-battle", "{greek} and {persian} share {city} with no land battle declared there; armies "
                "that meet fight at once", (BATTLE, LAND_MOVE), greek=units(g.greek_armies, "Greek army"),
                persian=units(g.persian_armies, "Persian army"), city=city))
    return None


def check_engaged(state: EarthWaterState) -> Problem | None:
    """base 7: a pending battle has units of both sides in it, and a sunk fleet's army goes with it."""
    b = state.battle
    if b is None:
        return None
    g = state.at(b.city)
    if b.kind == "land" and not (g.greek_armies and g.persian_armies):
        return Problem("battle", Ruling.violation("no-battle", "a land battle in {city} needs armies of both sides "
                                                  "there", (BATTLE,), city=b.city))
    if b.kind == "naval" and not (g.greek_fleets and g.persian_fleets):
        return Problem("battle", Ruling.violation("no-battle", "a naval battle in {city} needs fleets of both sides "
                                                  "there", (BATTLE,), city=b.city))
    limit = min(g.greek_fleets, state.tables.base.naval_carry.value)
    if b.kind == "naval" and b.carried > limit:
        return Problem("battle.carried", Ruling.violation(
            "carry-limit", "the Greek fleets in {city} ({fleets}) carry at most {armies} (one each, {limit} in all), "
            "not {n}", (NAVAL_MOVE, BATTLE), city=b.city, fleets=g.greek_fleets, armies=units(limit, "army"),
            limit=state.tables.base.naval_carry.value, n=b.carried))
    return None


def check_sudden_victory(state: EarthWaterState) -> Problem | None:
    """3.F: Persia holding both Greek Major cities has already won."""
    if state.phase is P.OVER or not holds_both_enemy_majors(state, Side.PERSIA):
        return None
    majors = _(" and ").join(state.tables.majors(Side.GREECE))
    return Problem("cities", Ruling.violation("game-over", "Persia controls {majors}, so the game ended at once with "
                                              "its victory (write winner: persia)", (SUDDEN_VICTORY, VICTORY),
                                              majors=majors))


BOARD_CHECKS: tuple[Callable[[EarthWaterState], Problem | None], ...] = (
    check_reserve, check_deck, check_meetings, check_engaged, check_sudden_victory)


def board_problem(state: EarthWaterState) -> Problem | None:
    """Returns the first invariant of the board a state breaks, if any."""
    for check in BOARD_CHECKS:
        found = check(state)
        if found is not None:
            return found
    return None


# ---------------------------------------------------------------------------------------------
# The phase: turn, hands and talents against the sequence of play


def check_battle_phase(state: EarthWaterState) -> Problem | None:
    """base 6, base 7: battles are fought in operations, in the attacker's own turn."""
    b = state.battle
    if b is None or state.phase is P.ANY:
        return None
    if state.phase is not P.OPERATIONS:
        return Problem("battle", Ruling.violation("wrong-phase", "battles start only in operations; this position is "
                                                  "in the {phase}", (BASE_OPERATIONS, BATTLE),
                                                  phase=PHASE_NAMES[state.phase]))
    if state.active is not b.attacker:
        return Problem("active", Ruling.violation(
            "not-your-turn", "{side} attacks in its own turn, which lasts until the battle of {city} is over; active "
            "cannot be {active}", (BASE_OPERATIONS, BATTLE), side=b.attacker.label, city=b.city,
            active=state.active.value))
    return None


def check_hands(state: EarthWaterState) -> Problem | None:
    """6.A, base 8.1, base 6, base 5: what each hand can hold in the phase declared."""
    hands, base, phase = state.hands, state.tables.base, state.phase
    kept = base.greek_hand_kept.value
    if phase in (P.PERSIAN_PREPARATION, P.GREEK_SUPPLY) and hands.persia:
        return Problem("hands.persia", Ruling.violation(
            "out-of-range", "PERS.IA discarded its whole hand in its supply, so it holds 0 cards in the {phase}, "
            "not {n}", (PERSIAN_HAND,), phase=PHASE_NAMES[phase], n=hands.persia))
    if phase is P.PERSIAN_PREPARATION and hands.greece > kept:
        return Problem("hands.greece", Ruling.violation(
            "out-of-range", "Greece kept at most {kept} cards at the last supply and has bought none yet, not {n}",
            (HANDS, BASE_PREPARATION), kept=kept, n=hands.greece))
    if phase is P.GREEK_PREPARATION:
        bought = (base.greek_talents.value - state.greek_talents) // base.greek_costs.card.value
        if hands.greece > kept + bought:
            return Problem("hands.greece", Ruling.violation(
                "out-of-range", "Greece kept at most {kept} cards and its spent talents buy at most {bought} more, "
                "so it holds at most {most}, not {n}", (HANDS, BASE_PREPARATION), kept=kept, bought=bought,
                most=kept + bought, n=hands.greece))
    if phase is P.OPERATIONS and state.battle is None and not hands.persia and not hands.greece:
        return Problem("hands", Ruling.violation(
            "operations-over", "both hands are empty, so the operations are over", (BASE_OPERATIONS,)))
    return None


def check_winner(state: EarthWaterState) -> Problem | None:
    """base 10, 3.F: a finished game names the winner its end gives."""
    if state.phase is not P.OVER:
        return None
    persia, greece = holds_both_enemy_majors(state, Side.PERSIA), holds_both_enemy_majors(state, Side.GREECE)
    last = state.campaign >= state.tables.base.last_campaign.value
    score = state.score
    fits = {
        Side.PERSIA: persia or (last and score > 0 and not greece),
        Side.GREECE: (greece and not persia) or (last and score < 0 and not persia),
        None: last and score == 0 and not persia and not greece,
    }[state.winner]
    if fits:
        return None
    if state.winner is None:
        return Problem("winner", Ruling.violation(
            "no-such-end", "the game ended in a draw, but neither a side holding both enemy Major cities nor the "
            "score after the last campaign (campaign {campaign}, score {score}) gives that result",
            (GAME_END, SUDDEN_VICTORY), campaign=state.campaign, score=score))
    return Problem("winner", Ruling.violation(
        "no-such-end", "{side} has won, but neither a side holding both enemy Major cities nor the score after the "
        "last campaign (campaign {campaign}, score {score}) gives that result", (GAME_END, SUDDEN_VICTORY),
        side=state.winner.label, campaign=state.campaign, score=score))


PHASE_CHECKS: tuple[Callable[[EarthWaterState], Problem | None], ...] = (check_battle_phase, check_hands, check_winner)


# ---------------------------------------------------------------------------------------------
# A pending battle, replayed as the move that started it


def battle_sources(engine: Rules, state: EarthWaterState) -> tuple[list[Source], list[Problem]]:
    """Returns the ways the pending battle could have started, and why other candidates fail.

    A candidate rebuilds the state before the battle (units back where they came from, the card
    back in the mover's hand, the losses of the rounds already fought given back) and keeps it
    only when ``engine.judge`` finds the starting action legal there and ``engine.apply`` leads
    back to the declared battle.
    """
    b = state.battle
    assert b is not None
    if b.attacker is Side.PERSIA:
        return _persian_sources(engine, state, b)
    if b.origin is not None:
        candidates: tuple[CityName, ...] = (b.origin,)
    elif b.kind == "land" and not b.by_sea:
        candidates = state.tables.adjacent(b.city, state.bridge)
    else:
        candidates = tuple(p for p in state.tables.ports() if p != b.city)
    sources: list[Source] = []
    problems: list[Problem] = []
    for origin in candidates:
        found = _greek_source(engine, state, b, origin)
        if isinstance(found, Source):
            sources.append(found)
        else:
            problems.append(found)
    return sources, problems


def _greek_source(engine: Rules, state: EarthWaterState, b: Battle,
                  origin: CityName) -> Source | Problem:
    if origin == b.city:
        return Problem("battle.origin", Ruling.violation("same-city", "the attackers cannot come from {city}, the "
                                                         "battle city itself", (LAND_MOVE, NAVAL_MOVE), city=b.city))
    g, r = state.at(b.city), b.rounds
    if b.kind == "naval":
        # The Greek fleets lost so far are the difference to the fleets that sailed; Persia lost the rest.
        sailed = b.fleets
        lost = sailed - g.greek_fleets
        if not 0 <= lost <= r:
            return Problem("battle.fleets", Ruling.violation(
                "fleets-mismatch", "{sailed} sailed into {city} and {left} are left after {rounds}; a round sinks at "
                "most one", (BATTLE, NAVAL_MOVE), sailed=units(sailed, "Greek fleet"), city=b.city,
                left=g.greek_fleets, rounds=units(r, "round")))
        here = g.plus(Side.GREECE, fleets=-g.greek_fleets).plus(Side.PERSIA, fleets=r - lost)
        there = state.at(origin).plus(Side.GREECE, armies=b.carried, fleets=sailed)
        action: act.LandMove | act.NavalMove = act.NavalMove(fleets=sailed, start=origin, goal=b.city,
                                                             armies=b.carried)
        expected = {b.city: g.plus(Side.GREECE, fleets=lost).plus(Side.PERSIA, fleets=r - lost)}
    elif b.by_sea:
        here = g.plus(Side.GREECE, armies=-g.greek_armies, fleets=-g.greek_fleets).plus(Side.PERSIA, armies=r)
        there = state.at(origin).plus(Side.GREECE, armies=g.greek_armies, fleets=g.greek_fleets)
        action = act.NavalMove(fleets=g.greek_fleets, start=origin, goal=b.city, armies=g.greek_armies)
        expected = {b.city: g.plus(Side.PERSIA, armies=r)}
    else:
        here = g.plus(Side.GREECE, armies=-g.greek_armies).plus(Side.PERSIA, armies=r)
        there = state.at(origin).plus(Side.GREECE, armies=g.greek_armies)
        action = act.LandMove(count=g.greek_armies, path=(origin, b.city))
        expected = {b.city: g.plus(Side.PERSIA, armies=r)}
    before = state.model_copy(update={
        "cities": {**state.cities, b.city: here, origin: there}, "battle": None,
        "hands": state.hands.plus(Side.GREECE, 1), "active": Side.GREECE})
    want = state.model_copy(update={"cities": {**state.cities, **expected},
                                    "battle": b.model_copy(update={"rounds": 0, "origin": origin})})
    return _replay(engine, before, action, None, want, origin)


def _persian_sources(engine: Rules, state: EarthWaterState,
                     b: Battle) -> tuple[list[Source], list[Problem]]:
    g, r = state.at(b.city), b.rounds
    persia = state.tables.persia
    sources: list[Source] = []
    if b.kind == "naval":
        # 5.3.5: one fleet placed from reserve where a Greek fleet was destroyed, then the rounds.
        for persian_lost in range(r + 1):
            greek_lost = r - persian_lost
            here = g.plus(Side.PERSIA, fleets=persian_lost - 1).plus(Side.GREECE, fleets=1 + greek_lost)
            before = _persia_before(state, {b.city: here})
            after = g.plus(Side.PERSIA, fleets=persian_lost).plus(Side.GREECE, fleets=greek_lost)
            want = state.model_copy(update={"cities": {**state.cities, b.city: after},
                                            "battle": b.model_copy(update={"rounds": 0})})
            found = _replay(engine, before, act.Persia(procedure="operate"), 5, want, None)
            if isinstance(found, Source):
                return [found], []
        return [], [Problem("battle", Ruling.violation(
            "no-such-battle", "PERS.IA starts a naval battle only by putting 1 fleet from reserve in the first port of "
            "its list holding Greek fleets (die 5); {persian} against {greek} in {city} after {rounds} is not such a "
            "battle", (FACE_DESTROY_FLEET, BATTLE), persian=units(g.persian_fleets, "Persian fleet"),
            greek=units(g.greek_fleets, "Greek fleet"), city=b.city, rounds=units(r, "round")))]
    keep = persia.keep_in_majors
    for start, sg in state.cities.items():
        if start == b.city or sg.greek_armies:
            continue
        for persian_lost in range(r + 1):
            sent = g.persian_armies + persian_lost
            had = sg.persian_armies + sent
            shares = {persia.march_share.of(had), persia.defence_share.of(had)}
            if start in keep.cities:
                shares.add(had - keep.value)
            if sent not in shares:
                continue  # neither PERS.IA count (half, a third, all but the two kept) sends this many
            greek_lost = r - persian_lost
            here = g.plus(Side.PERSIA, armies=-g.persian_armies).plus(Side.GREECE, armies=greek_lost)
            before = _persia_before(state, {b.city: here, start: sg.plus(Side.PERSIA, armies=sent)})
            after = g.plus(Side.PERSIA, armies=persian_lost).plus(Side.GREECE, armies=greek_lost)
            want = state.model_copy(update={"cities": {**state.cities, b.city: after},
                                            "battle": b.model_copy(update={"rounds": 0})})
            found = _replay(engine, before, act.Persia(procedure="operate"), 2, want, b.origin)
            if isinstance(found, Source):
                sources.append(found)
    if sources:
        return sources, []
    readings = ", ".join(("activation-reachable", "march-toward-sparta", "march-count", "defence-keeps-none"))
    args = {"armies": units(g.persian_armies, "Persian army"), "city": b.city, "readings": readings}
    if b.origin:
        return [], [Problem("battle", Ruling.violation(
            "no-such-battle", "no PERS.IA operation sends {armies} into {city} from {origin} on this board: it marches "
            "half the armies of its best-stocked city toward Sparta, or sends a third of them to an invaded Persian "
            "Major, and the city it leaves keeps the rest (interpretations {readings})", (FACE_MARCH, DEFENCE),
            origin=b.origin, **args))]
    return [], [Problem("battle", Ruling.violation(
        "no-such-battle", "no PERS.IA operation sends {armies} into {city} on this board: it marches half the armies "
        "of its best-stocked city toward Sparta, or sends a third of them to an invaded Persian Major, and the city it "
        "leaves keeps the rest (interpretations {readings})", (FACE_MARCH, DEFENCE), **args))]


def _persia_before(state: EarthWaterState, cities: dict[CityName, Garrison]) -> EarthWaterState:
    """Returns the state before a PERS.IA operation: its discarded card back, its turn."""
    return state.model_copy(update={"cities": {**state.cities, **cities}, "battle": None,
                                    "hands": state.hands.plus(Side.PERSIA, 1), "active": Side.PERSIA})


def _replay(engine: Rules, before: EarthWaterState, action: act.LandMove | act.NavalMove | act.Persia,
            die: int | None, want: EarthWaterState, origin: CityName | None) -> Source | Problem:
    """Judges and applies the starting action on the state before; the result must be ``want``."""
    broken = board_problem(before)
    if broken is not None and origin is not None and broken.field.startswith("cities"):
        ruling = Ruling.violation(broken.ruling.code, "the attackers cannot have come from {origin}: before the "
                                  "battle, {why}", broken.ruling.cites, origin=origin, why=broken.ruling.text())
        return Problem("battle.origin", ruling)
    if broken is not None:
        return broken
    verdict = engine.judge(before, action)
    if not verdict.legal:
        first = verdict.violations[0]
        return Problem("battle.origin" if first.code in ROUTE_CODES else "battle", first)
    dice = NoDice() if die is None else PhysicalDice([die])
    after = engine.apply(before, action, dice).state
    got = after.battle
    expected = want.battle
    assert expected is not None
    if got is not None and expected.origin is None:
        expected = expected.model_copy(update={"origin": got.origin})
    if got == expected and after.cities == want.cities and after.hands == want.hands:
        return Source(before=before, action=action, die=die, origin=got.origin if got else origin)
    if got is None:
        outcome = _("starts no battle")
    elif (got.city, got.kind) != (expected.city, expected.kind):
        outcome = (_("starts a naval battle in {city} instead") if got.kind == "naval"
                   else _("starts a land battle in {city} instead")).format(city=got.city)
    else:
        outcome = _("leaves another board than this one")
    return Problem("battle", Ruling.violation("no-such-battle", "'{action}', the move that would have started this "
                                              "battle, {outcome}", (BATTLE,), action=action.text(), outcome=outcome))


# ---------------------------------------------------------------------------------------------
# The whole position


def judge_declarations(engine: Rules, state: EarthWaterState, label: str, *,
                       active_declared: bool, persian_hand_declared: bool) -> EarthWaterState:
    """Returns the state a position declares, with what it implies derived, or refuses it.

    Raises:
        PositionError: a declaration is impossible (names the file, the field and the rule).
    """
    b = state.battle
    if state.phase is P.OPERATIONS and not active_declared:
        if b is None:
            raise PositionError(label, "active", _("say whose turn it is in operations, greece or persia ({rule})")
                                .format(rule=BASE_OPERATIONS))
        state = state.model_copy(update={"active": b.attacker})
    found = board_problem(state) or check_battle_phase(state)
    if found is not None:
        raise refuse(label, found)
    if b is not None:
        state = _judge_battle(engine, state, b, label)
    state = _persian_hand(engine, state, label, persian_hand_declared)
    for check in PHASE_CHECKS:
        found = check(state)
        if found is not None:
            raise refuse(label, found)
    if state.phase is P.GREEK_SUPPLY:
        state = state.model_copy(update={"attrition_due": surplus(state, Side.GREECE)[2]})
    return state


def _judge_battle(engine: Rules, state: EarthWaterState, b: Battle, label: str) -> EarthWaterState:
    if b.attacker is Side.GREECE and (b.kind == "naval" or b.by_sea) and not b.fleets:
        # Omitted: the Greek fleets in the port (for a naval battle, as if none were sunk yet).
        b = b.model_copy(update={"fleets": state.at(b.city).greek_fleets})
        state = state.model_copy(update={"battle": b})
    field_problem = _battle_fields(state, b)
    if field_problem is not None:
        raise refuse(label, field_problem)
    sources, problems = battle_sources(engine, state)
    if not sources:
        if b.origin is None and b.attacker is Side.GREECE and problems and b.kind == "land" and not b.by_sea:
            nearest = state.tables.adjacent(b.city, state.bridge)[0]  # the first candidate tried
            raise PositionError(label, "battle.origin", _("no city next to {city} could have sent the Greek armies; "
                                                          "from {nearest}: {why}").format(
                city=b.city, nearest=nearest, why=problem(problems[0].ruling)))
        if not problems:
            raise PositionError(label, "battle", problem(Ruling.violation(
                "no-such-battle", "{city} has no road: a Greek land battle there follows a landing (by_sea: true)",
                (LAND_MOVE, NAVAL_MOVE), city=b.city)))
        raise refuse(label, problems[0])
    origins = {s.origin for s in sources}
    if b.origin is None and len(origins) == 1:
        state = state.model_copy(update={"battle": b.model_copy(update={"origin": origins.pop()})})
    return state


def _battle_fields(state: EarthWaterState, b: Battle) -> Problem | None:
    """base 6.5, 5.2, 5.3.2-3, 5.3.5: the fields of a battle that only some battles have."""
    if b.kind == "naval" and b.by_sea:
        return Problem("battle.by_sea", Ruling.violation("bad-field", "by_sea marks a land battle after a landing; "
                                                         "a naval battle is fought at sea", (NAVAL_MOVE,)))
    if b.carried and not (b.kind == "naval" and b.attacker is Side.GREECE):
        return Problem("battle.carried", Ruling.violation("bad-field", "only Greek fleets attacking by sea carry "
                                                          "armies into a naval battle", (NAVAL_MOVE,)))
    if b.fleets and not (b.attacker is Side.GREECE and (b.kind == "naval" or b.by_sea)):
        return Problem("battle.fleets", Ruling.violation("bad-field", "fleets counts the Greek fleets of a naval "
                                                         "attack or a landing; this battle has none", (NAVAL_MOVE,)))
    if b.attacker is Side.PERSIA and b.by_sea:
        return Problem("battle.by_sea", Ruling.violation("bad-field", "PERS.IA never ships armies: its operations "
                                                         "move them by road", (FACE_MARCH, DEFENCE)))
    if b.attacker is Side.PERSIA and b.kind == "naval" and b.origin is not None:
        return Problem("battle.origin", Ruling.violation("bad-field", "PERS.IA's naval battle starts with a fleet "
                                                         "from its reserve, which comes from no port",
                                                         (FACE_DESTROY_FLEET,)))
    if b.by_sea and b.fleets != state.at(b.city).greek_fleets:
        return Problem("battle.fleets", Ruling.violation(
            "fleets-mismatch", "the Greek fleets of a landing stay in the port of {city} with its armies: {there} "
            "there, not {n}", (NAVAL_MOVE,), city=b.city, there=state.at(b.city).greek_fleets, n=b.fleets))
    return None


def _persian_hand(engine: Rules, state: EarthWaterState, label: str, declared: bool) -> EarthWaterState:
    """6.A, 4: PERS.IA holds nothing before its preparation and after its supply, and in the Greek
    preparation exactly the cards its preparation drew (the situation is unchanged since)."""
    if state.phase is not P.GREEK_PREPARATION:
        return state
    start = state.model_copy(update={"phase": P.PERSIAN_PREPARATION, "hands": state.hands.model_copy(
        update={"persia": 0, "greece": 0})})
    prepared = engine.apply(start, act.Persia(procedure="prepare"), NoDice()).state
    drawn = prepared.hands.persia
    if not declared:
        return state.model_copy(update={"hands": state.hands.model_copy(update={"persia": drawn})})
    if state.hands.persia == drawn:
        return state
    raise refuse(label, Problem("hands.persia", Ruling.violation(
        "out-of-range", "PERS.IA drew {cards} in this campaign's preparation (its situation is the same now), so it "
        "holds {drawn}, not {n}", (PREPARATION, PERSIAN_HAND), cards=units(drawn, "card"), drawn=drawn,
        n=state.hands.persia)))


def open_declarations(engine: Rules, state: EarthWaterState) -> tuple[Ruling, ...]:
    """Returns what the position leaves open that a ruling would need: the origin of a Greek attack
    when several cities fit (the attackers' retreat goes back there)."""
    b = state.battle
    if b is None or b.attacker is not Side.GREECE or b.origin is not None:
        return ()
    sources, _ = battle_sources(engine, state)
    places = sorted({s.origin for s in sources if s.origin is not None})
    if len(places) < 2:
        return ()
    return (Ruling.event("origin-open", "battle.origin is not declared and the Greek attackers of {city} could have "
                         "come from {places}: they cannot retreat until it is (declare it in the position)", (BATTLE,),
                         city=b.city, places=", ".join(places)),)
