"""Judging: every violation of an action, each a :class:`~referee.rulings.Ruling` with its rule.

``violations`` runs all the checks of an action's kind and is shared by
``judge`` and the legal-action generator, so the two cannot disagree.
"""

from __future__ import annotations

from referee.games.earth_water import actions as act
from referee.games.earth_water.combat import check_retreat
from referee.games.earth_water.movement import (
    check_armies_present,
    check_army_reserve,
    check_card_quota,
    check_carry,
    check_controlled,
    check_fleet_port,
    check_fleet_quota,
    check_fleet_reserve,
    check_fleets_present,
    check_ports,
    check_route,
    check_talents,
)
from referee.games.earth_water.play_cards import (
    card_violations,
    discard_violations,
    draw_violations,
    payment_violation,
)
from referee.games.earth_water.rules import (
    ATTRITION,
    BASE_OPERATIONS,
    BASE_PREPARATION,
    BASE_SUPPLY,
    BATTLE,
    BRIDGE_BURNING,
    HANDS,
    MAP,
    OPERATIONS,
    PIECES,
    PREPARATION,
    SCORING,
    SOLO_SETUP,
    SUPPLY,
)
from referee.games.earth_water.sequence import check_no_battle, check_phase, greek_attrition_due
from referee.games.earth_water.state import EarthWaterState, interp, units
from referee.games.earth_water.tables import Phase, Side
from referee.i18n import N_
from referee.rulings import Ruling

P = Phase
FIELD_NAMES = {"score": N_("score"), "campaign": N_("campaign"), "talents": N_("talents")}
"""Override fields named in messages (translated as ruling arguments)."""


def _keep(*found: Ruling | None) -> list[Ruling]:
    return [r for r in found if r is not None]


def check_card_in_hand(state: EarthWaterState, side: Side) -> Ruling | None:
    """base 6: a move or an event costs a card from the hand."""
    if state.hands.of(side):
        return None
    return Ruling.violation("no-card", "{side} holds no card; it can only pass", (BASE_OPERATIONS,), side=side.label)


def violations(state: EarthWaterState, action: act.EarthWaterAction) -> list[Ruling]:
    """Returns every rule an action breaks now (empty when legal)."""
    if isinstance(action, act.Setup):
        if state.fresh:
            return []
        return [Ruling.violation("not-fresh", "a set-up comes before any other action of the game", (SOLO_SETUP,))]
    if isinstance(action, act.Persia):
        return _persia(state, action)
    if isinstance(action, act.Buy):
        return _buy(state, action)
    if isinstance(action, act.Done):
        return _done(state)
    if isinstance(action, act.Event):
        return card_violations(state, action)
    if isinstance(action, act.Draw):
        return draw_violations(state, action)
    if isinstance(action, act.Discard):
        return discard_violations(state, action)
    if isinstance(action, act.LandMove | act.NavalMove | act.Pass):
        return _operation(state, action)
    if isinstance(action, act.Fight):
        if state.battle is None:
            return [Ruling.violation("no-battle", "no battle is waiting to be fought", (BATTLE,))]
        return []
    if isinstance(action, act.Retreat):
        return _keep(check_retreat(state, action.city))
    if isinstance(action, act.BurnBridge):
        if state.may_burn and state.bridge:
            return []
        return [Ruling.violation("cannot-burn", "Greece may burn the bridge only right after its armies take "
                                 "Abydos while the bridge stands", (BRIDGE_BURNING,))]
    if isinstance(action, act.Keep | act.Remove):
        return _supply(state, action)
    if isinstance(action, act.SetUnits):
        return _set_units(state, action)
    return _set_value(state, action)


def disclosures(state: EarthWaterState, action: act.EarthWaterAction) -> tuple[str, ...]:
    """Returns the interpretations a verdict on this action relies on (its provisional list)."""
    if isinstance(action, act.Retreat) and state.battle is not None:
        return (interp(state, "attacker-retreat" if state.battle.attacker is Side.GREECE else "sea-retreat"),)
    if isinstance(action, act.BurnBridge):
        return (interp(state, "bridge-burning"),)
    if state.phase is P.GREEK_SUPPLY and isinstance(action, act.Remove | act.Done):
        return (interp(state, "attrition-once"),)  # the due was counted once, when the Greek supply began
    return ()


def _persia(state: EarthWaterState, action: act.Persia) -> list[Ruling]:
    if action.procedure == "prepare":
        return _keep(check_phase(state, (P.PERSIAN_PREPARATION,), None, "persia prepare", PREPARATION))
    if action.procedure == "supply":
        return _keep(check_phase(state, (P.PERSIAN_SUPPLY,), None, "persia supply", SUPPLY))
    return _keep(check_phase(state, (P.OPERATIONS,), Side.PERSIA, "persia operate", OPERATIONS),
                 check_no_battle(state))


def _buy(state: EarthWaterState, action: act.Buy) -> list[Ruling]:
    costs = state.tables.base.greek_costs
    found = [check_phase(state, (P.GREEK_PREPARATION,), Side.GREECE, f"buy {action.what}", BASE_PREPARATION)]
    if action.what == "cards":
        found += [check_card_quota(state, action.count), check_talents(state, action.count * costs.card.value)]
        return _keep(*found)
    assert action.city is not None
    if action.what == "army":
        found += [check_controlled(state, action.city), check_army_reserve(state, action.count),
                  check_talents(state, action.count * costs.army.value)]
    else:
        found += [check_fleet_port(state, action.city), check_controlled(state, action.city),
                  None if state.extra_preparation else check_fleet_quota(state, action.count),
                  check_fleet_reserve(state, action.count),
                  check_talents(state, action.count * costs.fleet.value)]
    return _keep(*found)


def _done(state: EarthWaterState) -> list[Ruling]:
    if state.free_moves and state.phase is P.OPERATIONS and state.battle is None:
        return []  # Triremes: the Greek stops its free naval moves
    found = check_phase(state, (P.GREEK_PREPARATION, P.GREEK_SUPPLY), Side.GREECE, "done", BASE_OPERATIONS)
    if found is not None:
        return [found]
    if state.phase is P.ANY:
        return [Ruling.violation("wrong-phase", "an umpire position has no phase for 'done' to end",
                                 (BASE_OPERATIONS,))]
    due = greek_attrition_due(state)
    if state.phase is P.GREEK_SUPPLY and due:
        return [Ruling.violation("attrition-due", "Greece still has to remove {armies} for attrition "
                                 "('remove N CITY')", (ATTRITION,), armies=units(due, "army"))]
    return []


def _operation(state: EarthWaterState, action: act.LandMove | act.NavalMove | act.Pass) -> list[Ruling]:
    found: list[Ruling | None] = [check_phase(state, (P.OPERATIONS,), Side.GREECE, action.text().split()[0],
                                              BASE_OPERATIONS), check_no_battle(state)]
    if isinstance(action, act.Pass):
        if state.free_moves:
            found.append(payment_violation(state, act.LandMove(count=1, path=())))
        return _keep(*found)
    if not state.free_moves:
        found.append(check_card_in_hand(state, Side.GREECE))
    found.append(payment_violation(state, action))
    if isinstance(action, act.LandMove):
        start = action.path[0]
        found += [check_armies_present(state, Side.GREECE, start, action.count),
                  check_route(state, Side.GREECE, action.path)]
    elif isinstance(action, act.NavalMove):
        found += [check_ports(state, action.start, action.goal),
                  check_fleets_present(state, Side.GREECE, action.start, action.fleets),
                  check_carry(state, Side.GREECE, action.start, action.fleets, action.armies)]
    return _keep(*found)


def _supply(state: EarthWaterState, action: act.Keep | act.Remove) -> list[Ruling]:
    rule = HANDS if isinstance(action, act.Keep) else ATTRITION
    found = check_phase(state, (P.GREEK_SUPPLY,), Side.GREECE, action.text().split()[0], rule)
    if found is not None:
        return [found]
    if isinstance(action, act.Keep):
        held = units(state.hands.greece, "card")
        if action.count >= state.hands.greece:
            # keeping the whole hand discards nothing: not an action (legal_actions never lists it)
            return [Ruling.violation("keeps-all", "Greece holds {held}; 'keep N' discards down to N, "
                                     "so N must be smaller (type 'done' to keep them all)", (HANDS,), held=held)]
        limit = min(state.tables.base.greek_hand_kept.value, state.hands.greece)
        if action.count <= limit:
            return []
        return [Ruling.violation("keep-limit", "Greece may keep at most {limit} of its {held}", (HANDS,),
                                 limit=limit, held=held)]
    due = greek_attrition_due(state)
    out = _keep(check_armies_present(state, Side.GREECE, action.city, action.count))
    if due == 0:
        out.append(Ruling.violation("no-attrition", "Greece owes no army to attrition", (ATTRITION, BASE_SUPPLY)))
    elif action.count > due:
        out.append(Ruling.violation("too-many", "attrition takes {armies}, not {n}", (ATTRITION,),
                                    armies=units(due, "army"), n=action.count))
    return out


def _set_units(state: EarthWaterState, action: act.SetUnits) -> list[Ruling]:
    g = state.at(action.city)
    now = g.armies(action.side) if action.unit == "armies" else g.fleets(action.side)
    value = now + action.count if action.relative else action.count
    out: list[Ruling] = []
    if value < 0:
        noun = f"{action.side.adjective} {'army' if action.unit == 'armies' else 'fleet'}"
        out.append(Ruling.violation("negative-count", "{city} would hold {held}", (PIECES,), city=action.city,
                                    held=units(value, noun)))
    if action.unit == "fleets" and value > 0 and not state.tables.row(action.city).port:
        out.append(Ruling.violation("not-a-port", "{city} has no port", (MAP,), city=action.city))
    if action.side is Side.GREECE and value > now:
        armies, fleets = state.greek_reserve()
        spare = armies if action.unit == "armies" else fleets
        if value - now > spare:
            out.append(Ruling.violation("no-reserve", "Greece has {spare} in reserve; {more} more cannot be put "
                                        "in play", (PIECES,), more=value - now,
                                        spare=units(spare, "army" if action.unit == "armies" else "fleet")))
    return out


def _set_value(state: EarthWaterState, action: act.SetUnits | act.EarthWaterAction) -> list[Ruling]:
    assert isinstance(action, act.SetValue)
    v, base, setup = action.value, state.tables.base, state.tables.setup
    bounds = {"score": (-base.score_track.value, base.score_track.value, (SCORING,)),
              "campaign": (setup.campaign.value, base.last_campaign.value, (SOLO_SETUP, SCORING)),
              "talents": (0, base.greek_talents.value, (BASE_PREPARATION,))}
    if action.field in bounds:
        lo, hi, rules = bounds[action.field]
        if not lo <= v <= hi:
            return [Ruling.violation("out-of-range", "{field} runs from {lo} to {hi}, not {v}", rules,
                                     field=FIELD_NAMES[action.field], lo=lo, hi=hi, v=v)]
        return []
    if action.field == "hand":
        assert action.side is not None
        other = state.hands.of(action.side.other)
        if v < 0 or v + other > base.deck.value:
            return [Ruling.violation("out-of-range", "a hand holds 0 to {most} cards here, not {v}", (PIECES,),
                                     most=base.deck.value - other, v=v)]
    if action.field == "portraits":
        return _portraits(state, action)
    if action.field == "turn" and state.phase not in (P.OPERATIONS, P.ANY):
        return [Ruling.violation("wrong-phase", "the turn can only be handed over during operations",
                                 (BASE_OPERATIONS,))]
    return []


def _portraits(state: EarthWaterState, action: act.SetValue) -> list[Ruling]:
    """base pieces, 2: three hero portraits take a Greek army each; both kings start on theirs."""
    v, base = action.value, state.tables.base
    if action.side is Side.PERSIA:
        kings = state.tables.setup.portraits.persia
        if v == kings:
            return []
        return [Ruling.violation("out-of-range", "the solo game starts with {kings} Persian armies on the king "
                                 "portraits and they never leave, not {v}", (SOLO_SETUP, PIECES), kings=kings, v=v)]
    spare = min(state.greek_reserve()[0] + state.portraits.greece, base.greek_heroes.value)
    if 0 <= v <= spare:
        return []
    return [Ruling.violation("out-of-range", "the {heroes} hero portraits take 0 to {spare} Greek armies here, "
                             "not {v}", (PIECES,), heroes=base.greek_heroes.value, spare=spare, v=v)]
