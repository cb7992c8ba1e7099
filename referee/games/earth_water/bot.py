"""PERS.IA, the die-driven Persian of the solo rules: operations (5) and supply (6); its
preparation (4) is in :mod:`~referee.games.earth_water.preparation`.

Every procedure returns the new state and the numbered steps the player carries out on the
table. The bot decides only with the engine's own rules: marches use
:func:`~referee.games.earth_water.movement.reachable`, supply uses
:mod:`~referee.games.earth_water.supply`. The one random input is the operation die, drawn from
the injected :class:`~referee.dice.Dice`. Every fallback chain ends: a branch already tried
makes PERS.IA pass (interpretation fallback-loop). Entry points: :func:`operate`,
:func:`supply`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from referee.bot import Choice
from referee.dice import Dice
from referee.game import GameState
from referee.games.earth_water.actions import Persia
from referee.games.earth_water.announce import Announcer
from referee.games.earth_water.combat import start_battle
from referee.games.earth_water.marches import (
    ALWAYS_TWO,
    March,
    defence_bares,
    defence_plan,
    march_plan,
    most_armed,
)
from referee.games.earth_water.movement import path_text
from referee.games.earth_water.play_cards import say
from referee.games.earth_water.preparation import Outcome, add_units, readings
from referee.games.earth_water.rules import (
    DEFENCE,
    DIE,
    DIE_DRIVEN,
    EMPTY_HAND,
    END_OPERATION,
    FACE_DESTROY_ARMY,
    FACE_DESTROY_FLEET,
    FACE_MARCH,
    FACE_PASS,
    FACE_PLACE,
    LINES,
    NO_EVENTS,
    NO_LIMIT,
    OPERATIONS,
    PERSIAN_ATTRITION,
    PERSIAN_HAND,
    PREPARATION,
    SUPPLY,
)
from referee.games.earth_water.state import Battle, EarthWaterState, units
from referee.games.earth_water.supply import supplied, surplus
from referee.games.earth_water.tables import Operation, Phase, Side
from referee.i18n import N_, _
from referee.rulings import Arg, RuleRef

# ---------------------------------------------------------------------------------------------
# 5: operations


def operate(state: EarthWaterState, dice: Dice) -> Outcome:
    """5: one Persian operation, steps 1 to 4."""
    says = Announcer()
    if state.hands.persia == 0:
        says.add(EMPTY_HAND, "pass", N_("Pass: PERS.IA holds no card"), interpretations=readings(state, "die-pass"))
        return Outcome(state, says, situation=_("5.1 empty hand"), passed=True)
    out = Outcome(state, says)
    occupied = state.occupied_persian_majors()
    done = False
    if occupied:
        out.situation = _("5.2 defence")
        plan = defence_plan(state)
        if plan is not None:
            bared = defence_bares(state)
            _say_skipped(state, says, plan, DEFENCE, readings(state, "activation-reachable"))
            out.state = _march(state, says, plan, DEFENCE, "defence",
                               readings(state, "activation-reachable")
                               + (readings(state, "defence-keeps-none") if bared else ())
                               + (readings(state, "defence-target") if len(occupied) > 1 else ()))
            done = True
        else:
            held = defence_bares(state) and state.tables.interpretation("defence-keeps-none").choice == ALWAYS_TWO
            says.add(DEFENCE, "fallback",
                     N_("No Persian army can go to {cities}: the Persian Majors keep their two armies and no other "
                        "city reaches it; roll the die instead") if held else
                     N_("No Persian army can reach {cities}: roll the die instead"),
                     args={"cities": _(" or ").join(occupied)},
                     interpretations=readings(state, "activation-reachable")
                     + (readings(state, "defence-keeps-none") if held else ()))
    if not done:
        _roll_and_act(out, dice)
    return _discard(out)


def die_due(state: EarthWaterState) -> bool:
    """5.1-5.3: whether PERS.IA's next operation rolls the die (not with an empty hand, nor when
    the defence of an invaded Major can march)."""
    if state.hands.persia == 0:
        return False
    return not (state.occupied_persian_majors() and defence_plan(state) is not None)


def _roll_and_act(out: Outcome, dice: Dice) -> None:
    """5.3: the die picks the operation; each impossible one falls back to the next."""
    state, says = out.state, out.says
    roll = dice.roll(1, 6, N_("PERS.IA operation die (5.3)"))
    face = roll.faces[0]
    out.die, out.source = face, roll.source
    die = _("die {face}").format(face=face)
    out.situation = _("{before}, then {die}").format(before=out.situation, die=die) if out.situation else die
    says.add(DIE, "roll", N_("Roll the die: {face} ({source})"), args={"face": face, "source": SOURCES[roll.source]},
             die=face, source=roll.source, also=(DIE_DRIVEN,))
    operation: Operation = state.tables.persia.faces[face].operation
    tried: list[Operation] = []
    while True:
        if operation == "pass":
            says.add(FACE_PASS, "pass", N_("Pass: no operation this turn"), interpretations=readings(state, "die-pass"))
            out.passed = True
            return
        if operation in tried:
            says.add(DIE, "pass", N_("Pass: every branch ({branches}) is impossible"),
                     args={"branches": ", ".join(_(_LABEL[t]) for t in tried)},
                     interpretations=readings(state, "fallback-loop", "die-pass"))
            out.passed = True
            return
        tried.append(operation)
        new, why = _OPERATIONS[operation](state, says)
        if new is not None:
            out.state = new
            return
        following = state.tables.persia.fallbacks[operation].then
        says.add(_RULE_OF[operation], "fallback", N_("{why}: {then} instead"), args={"why": why,
                                                                                     "then": _LABEL[following]},
                 interpretations=readings(state, *_FALLBACK_READINGS.get(operation, ())) if (
                     operation != "destroy-army" or state.hands.greece) else ())
        operation = following


def _discard(out: Outcome) -> Outcome:
    """5.4: PERS.IA throws away one card (after a pass, by the die-pass reading)."""
    hand = out.state.hands.persia
    if hand and out.passed and out.state.tables.interpretation("die-pass").choice == KEEPS_CARD:
        out.says.add(END_OPERATION, "discard", N_("No discard after a pass: PERS.IA keeps its {cards}"),
                     args={"cards": units(hand, "card")}, interpretations=readings(out.state, "die-pass"))
    elif hand:
        out.says.add(END_OPERATION, "discard", N_("Discard 1 card (Persian hand {before} → {after})"),
                     args={"before": hand, "after": hand - 1},
                     interpretations=readings(out.state, "die-pass") if out.passed else (), also=(NO_EVENTS,))
        out.state = out.state.model_copy(update={"hands": out.state.hands.plus(Side.PERSIA, -1)})
    return out


def _march(state: EarthWaterState, says: Announcer, plan: March, rule: RuleRef, kind: str,
           used: tuple[tuple[str, str], ...]) -> EarthWaterState:
    start, goal = plan.city, plan.goal
    state = add_units(add_units(state, start, armies=-plan.count), goal, armies=plan.count)
    g = state.at(goal)
    args: dict[str, Arg] = {"armies": units(plan.count, "army"), "path": path_text(plan.path)}
    if g.greek_armies:
        state, _battle = start_battle(state, Battle(city=goal, kind="land", attacker=Side.PERSIA,
                                                    origin=plan.path[-2]))
        template = N_("Move {armies} {path}: battle ({persian} against {greek})")
        args |= {"persian": units(g.persian_armies, "Persian army"), "greek": units(g.greek_armies, "Greek army")}
    else:
        template = N_("Move {armies} {path} ({start} keeps {kept}, {goal} now {now})")
        args |= {"start": start, "kept": state.at(start).persian_armies, "goal": goal, "now": g.persian_armies}
    says.add(rule, "move", template, args=args, counts={start: -plan.count, goal: plan.count}, path=plan.path,
             interpretations=used)
    return state


def _do_march(state: EarthWaterState, says: Announcer) -> tuple[EarthWaterState | None, str]:
    """5.3.2-3: march toward Sparta."""
    plan = march_plan(state)
    if plan is None:
        return None, N_("No Persian army can march toward Sparta")
    used = readings(state, "activation-reachable", "march-toward-sparta", "march-count")
    _say_skipped(state, says, plan, FACE_MARCH, used)
    return _march(state, says, plan, FACE_MARCH, "move", used), ""


def _say_skipped(state: EarthWaterState, says: Announcer, plan: March, rule: RuleRef,
                 used: tuple[tuple[str, str], ...]) -> None:
    """Interpretation activation-reachable: says when the most-armed city cannot make the move."""
    top = most_armed(state)
    if top is None or top == plan.city or state.at(top).persian_armies == state.at(plan.city).persian_armies:
        return
    says.add(rule, "skipped", N_("{city} holds the most Persian armies ({n}) but cannot make this move: {chosen} "
                                 "({m}) moves instead"),
             args={"city": top, "n": state.at(top).persian_armies, "chosen": plan.city,
                   "m": state.at(plan.city).persian_armies}, interpretations=used)


def _do_destroy_army(state: EarthWaterState, says: Announcer) -> tuple[EarthWaterState | None, str]:
    """5.3.4: a lone Greek army first, by the list; the Greek discards a card if he has one."""
    tables = state.tables
    order = tables.order(tables.persia.destroy_army_order)
    lone = [c for c in order if state.at(c).greek_armies == 1 and state.at(c).persian_armies == 0]
    held = [c for c in order if state.at(c).greek_armies > 0]
    if not held:
        return None, N_("No Greek army to destroy")
    city = lone[0] if lone else held[0]
    state = add_units(state, city, armies=-1, side=Side.GREECE)
    why = N_("the first lone Greek army on the list") if lone else N_("no Greek army is alone: the first on the list")
    says.add(FACE_DESTROY_ARMY, "destroy-army", N_("Remove 1 Greek army from {city} ({why}; {left} left there)"),
             args={"city": city, "why": why, "left": state.at(city).greek_armies}, counts={city: -1},
             interpretations=readings(state, "isolated-army"))
    hand = state.hands.greece
    if hand:
        before = state
        state = state.model_copy(update=state.greek_hand_after(hand - 1))  # unnamed cards first
        dropped = [c for c in before.greek_cards if c not in state.greek_cards]
        if dropped:  # every card is named: the referee takes the last named; adjust if Greece chose another
            says.add(FACE_DESTROY_ARMY, "greek-discard", N_("Greece discards 1 card of its choice (hand {before} → "
                                                            "{after}); the referee takes {card} off the hand"),
                     args={"before": hand, "after": hand - 1, "card": say(before, dropped[0])},
                     interpretations=readings(state, "fallback-discard"))
        else:
            says.add(FACE_DESTROY_ARMY, "greek-discard", N_("Greece discards 1 card of its choice (hand {before} → "
                                                            "{after})"), args={"before": hand, "after": hand - 1},
                     interpretations=readings(state, "fallback-discard"))
    else:
        says.add(FACE_DESTROY_ARMY, "greek-discard", N_("Greece has no card to discard"))
    return state, ""


def _do_destroy_fleet(state: EarthWaterState, says: Announcer) -> tuple[EarthWaterState | None, str]:
    """5.3.5: a Greek fleet by the list, replaced by a Persian fleet; battle if Greek fleets remain."""
    tables = state.tables
    held = [c for c in tables.order(tables.persia.destroy_fleet_order) if state.at(c).greek_fleets > 0]
    if not held:
        return None, N_("No Greek fleet to destroy")
    city = held[0]
    state = add_units(add_units(state, city, fleets=-1, side=Side.GREECE), city, fleets=1)
    g = state.at(city)
    says.add(FACE_DESTROY_FLEET, "destroy-fleet", N_("Remove 1 Greek fleet from {city} and place 1 Persian fleet "
                                                     "there (Persian fleets in {city}: {now})"),
             args={"city": city, "now": g.persian_fleets}, counts={city: 1}, also=(NO_LIMIT,))
    if g.greek_fleets:
        state, _battle = start_battle(state, Battle(city=city, kind="naval", attacker=Side.PERSIA))
        says.add(FACE_DESTROY_FLEET, "battle", N_("Naval battle in {city}: {persian} against {greek}"),
                 args={"city": city, "persian": units(g.persian_fleets, "Persian fleet"),
                       "greek": units(g.greek_fleets, "Greek fleet")},
                 interpretations=readings(state, "naval-battle-attacker"))
    return state, ""


def _do_place(state: EarthWaterState, says: Announcer) -> tuple[EarthWaterState | None, str]:
    """5.3.6: a fleet and an army in the first port city free of Greek units, else an army in an
    empty minor city off which a Persian fleet lies (interpretation minor-fleet-city)."""
    tables = state.tables
    order = tables.order(tables.persia.place_order)
    for city in order:
        g = state.at(city)
        if g.greek_armies == 0 and g.greek_fleets == 0:
            state = add_units(state, city, armies=1, fleets=1)
            g = state.at(city)
            says.add(FACE_PLACE, "place", N_("Place 1 fleet and 1 army in {city} (now {fleets}, {armies})"),
                     args={"city": city, "fleets": units(g.persian_fleets, "fleet"),
                           "armies": units(g.persian_armies, "army")}, counts={city: 1}, also=(NO_LIMIT,))
            return state, ""
    for city in order:
        g = state.at(city)
        if tables.is_minor(city) and g.persian_fleets and g.empty_of_armies:
            state = add_units(state, city, armies=1)
            says.add(FACE_PLACE, "place", N_("Place 1 army in {city}, where a Persian fleet lies and no army stands"),
                     args={"city": city}, counts={city: 1}, interpretations=readings(state, "minor-fleet-city"))
            return state, ""
    return None, N_("Every listed port holds Greek units and no empty minor city has a Persian fleet")


_OPERATIONS: dict[Operation, Callable[[EarthWaterState, Announcer], tuple[EarthWaterState | None, str]]] = {
    "march": _do_march, "destroy-army": _do_destroy_army, "destroy-fleet": _do_destroy_fleet, "place": _do_place,
}
_RULE_OF: dict[Operation, RuleRef] = {
    "march": FACE_MARCH, "destroy-army": FACE_DESTROY_ARMY, "destroy-fleet": FACE_DESTROY_FLEET,
    "place": FACE_PLACE, "pass": FACE_PASS,
}
_FALLBACK_READINGS: dict[Operation, tuple[str, ...]] = {
    # Which cities can march decides whether the march falls back.
    "march": ("activation-reachable", "march-toward-sparta", "march-count"),
    # The Greek discard of die 4 goes with a destroyed army only (said when the Greek holds cards).
    "destroy-army": ("fallback-discard",),
}
_LABEL: dict[Operation, str] = {
    "march": N_("march (die 2-3)"), "destroy-army": N_("destroy a Greek army (die 4)"),
    "destroy-fleet": N_("destroy a Greek fleet (die 5)"), "place": N_("place a fleet and an army (die 6)"),
    "pass": N_("pass"),
}
KEEPS_CARD = "keeps-card"
"""die-pass: the reading where a PERS.IA pass costs it no card."""
SOURCES = {"digital": N_("digital"), "physical": N_("physical")}
"""Who rolled a die, as a word of the announcements."""


# ---------------------------------------------------------------------------------------------
# 6: supply


def supply(state: EarthWaterState) -> Outcome:
    """6.A-6.C: discard the hand, attrition by the solo priorities, lines of communication."""
    says = Announcer()
    hand = state.hands.persia
    if hand:
        says.add(PERSIAN_HAND, "discard", N_("Discard {cards} (Persian hand {before} → 0)"),
                 args={"cards": units(hand, "card"), "before": hand})
    else:
        says.add(PERSIAN_HAND, "discard", N_("No card to discard (the Persian hand is empty)"))
    state = state.model_copy(update={"hands": state.hands.model_copy(update={"persia": 0})})
    state = _attrition(state, says)
    state = _lines(state, says)
    return Outcome(state, says, situation=_("6 supply"))


def _attrition(state: EarthWaterState, says: Announcer) -> EarthWaterState:
    """6.B: unsupplied armies first, then armies that cost no city, then by the list."""
    tables = state.tables
    armies, food, excess = surplus(state, Side.PERSIA)
    used = readings(state, "attrition-once", "persian-attrition-majors")
    if excess == 0:
        says.add(PERSIAN_ATTRITION, "attrition", N_("No attrition: {armies} outside Abydos and Ephesos, {food}"),
                 args={"armies": units(armies, "army"), "food": units(food, "amphora")},
                 interpretations=used)
        return state
    cut_off = {c for c, g in state.cities.items() if g.persian_armies} - supplied(state, Side.PERSIA)
    order = tables.order(tables.persia.attrition_order)
    removed: Counter[str] = Counter()
    reasons: dict[str, str] = {}
    for _step in range(excess):
        here = [c for c in order if state.at(c).persian_armies > 0]
        pick = next((c for c in here if c in cut_off), None)
        reason = _("unsupplied")
        if pick is None:
            pick = next((c for c in here if state.at(c).persian_armies >= 2), None)
            reason = _("no city lost")
        if pick is None:
            pick, reason = here[0], _("list order")
        state = add_units(state, pick, armies=-1)
        removed[pick] += 1
        reasons.setdefault(pick, reason)
    split = ", ".join(f"{c} {n} ({reasons[c]})" for c, n in removed.items())
    says.add(PERSIAN_ATTRITION, "attrition",
             N_("Remove {excess} ({armies} outside Abydos and Ephesos, {food}): {split}"),
             args={"excess": units(excess, "army"), "armies": units(armies, "army"),
                   "food": units(food, "amphora"), "split": split},
             counts={c: -n for c, n in removed.items()},
             interpretations=used + readings(state, "unsupplied-first", "no-points-armies"))
    return state


def _lines(state: EarthWaterState, says: Announcer) -> EarthWaterState:
    """6.C: every Persian army without a line of communication is removed."""
    ok = supplied(state, Side.PERSIA)
    cut = {c: g.persian_armies for c, g in state.cities.items() if g.persian_armies and c not in ok}
    used = readings(state, "supply-lines", "sea-supply")
    if not cut:
        says.add(LINES, "lines", N_("Every Persian army is supplied"), interpretations=used)
        return state
    for city, n in cut.items():
        state = add_units(state, city, armies=-n)
    split = ", ".join(f"{c} {n}" for c, n in cut.items())
    says.add(LINES, "lines", N_("Remove every Persian army without a line of communication: {split}"),
             args={"split": split}, counts={c: -n for c, n in cut.items()}, interpretations=used)
    return state




# ---------------------------------------------------------------------------------------------
# The Bot protocol


class PersiaBot:
    """PERS.IA as a :class:`~referee.bot.Bot`: names the procedure due now; the die is rolled when
    the action is applied, so the choice itself needs no randomness."""

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        """Returns ``persia prepare|operate|supply`` for the phase, with its section."""
        assert isinstance(state, EarthWaterState)
        phase = state.phase
        if phase is Phase.PERSIAN_PREPARATION:
            return Choice(action=Persia(procedure="prepare"), reason=_("PERS.IA prepares"), cites=(PREPARATION,))
        if phase is Phase.PERSIAN_SUPPLY:
            return Choice(action=Persia(procedure="supply"), reason=_("PERS.IA supplies"), cites=(SUPPLY,))
        return Choice(action=Persia(procedure="operate"), reason=_("PERS.IA operates"), cites=(OPERATIONS,))
