"""PERS.IA's preparation (solo 4): what it buys, and the record every PERS.IA procedure returns.

:class:`Outcome` is what a procedure did (the new state and the numbered steps the player
carries out); :func:`prepare` is the preparation; operations and supply are in
:mod:`~referee.games.earth_water.bot`.
"""


from collections import Counter
from dataclasses import dataclass
from typing import Literal

from referee.games.earth_water.announce import Announcer
from referee.games.earth_water.rules import (
    CHEAP_BRIDGE,
    PREPARATION,
    SITUATION_A,
    SITUATION_B,
    SITUATION_C,
    SITUATION_D,
)
from referee.games.earth_water.state import EarthWaterState, units
from referee.games.earth_water.tables import CityName, Side
from referee.i18n import N_, _
from referee.rulings import Arg, RuleRef

ARMY_IN = "army-in-abydos"
"""bridge-needs-army: the reading that needs a Persian army in Abydos to rebuild the bridge."""


@dataclass
class Outcome:
    """What a PERS.IA procedure did."""

    state: EarthWaterState
    says: Announcer
    situation: str | None = None
    die: int | None = None
    source: Literal["digital", "physical"] | None = None
    passed: bool = False


def readings(state: EarthWaterState, *idents: str) -> tuple[tuple[str, str], ...]:
    """Returns the readings named, each with its label as the announcement shows it."""
    return tuple((i, state.tables.interpretation(i).label()) for i in idents)


def add_units(state: EarthWaterState, city: CityName, armies: int = 0, fleets: int = 0,
              side: Side = Side.PERSIA) -> EarthWaterState:
    """Returns the state with units added to a city (Persian by default)."""
    g = state.at(city).plus(side, armies=armies, fleets=fleets)
    return state.model_copy(update={"cities": state.with_city(city, g)})


# ---------------------------------------------------------------------------------------------
# 4: preparation


def prepare(state: EarthWaterState) -> Outcome:
    """4: spends the twelve talents by situations A to D."""
    tables = state.tables
    says = Announcer()
    talents = tables.persia.talents.value
    situations: list[str] = []
    occupied = state.occupied_persian_majors()
    hand = state.hands.persia
    if occupied:
        situations.append("A")
        state, talents = _situation_a(state, says, talents, occupied)
    if talents > 0:
        letter = "B" if state.score > 0 else ("C" if state.score == 0 else "D")
        situations.append(letter)
        state, talents = _situation_bcd(state, says, talents, letter, state.hands.persia - hand)
    if talents > 0:
        says.add(PREPARATION, "unspent", N_("{talents} cannot be spent and are lost"),
                 args={"talents": units(talents, "talent")}, interpretations=readings(state, "situations-continue"))
    return Outcome(state, says, situation=_("situation {letters}").format(letters=_(" then ").join(situations)))


def _draw(state: EarthWaterState, says: Announcer, rule: RuleRef, wanted: int,
          talents: int, earlier: int = 0) -> tuple[EarthWaterState, int]:
    """4: draws the cards of a situation; ``earlier`` cards were drawn before in this preparation."""
    cost = state.tables.persia.costs.card.value
    count = min(wanted, state.deck_left(), talents // cost)
    before = state.hands.persia
    used: tuple[tuple[str, str], ...] = ()
    args: dict[str, Arg] = {"cards": units(count, "card"), "before": before, "after": before + count}
    if count < wanted or earlier + count > state.tables.base.cards_per_preparation.value:
        used = readings(state, "persia-purchase-caps")  # the base cap of six cards does not bind PERS.IA
    if count < wanted:
        says.add(rule, "draw", N_("Draw {cards} (Persian hand {before} → {after}); only {left} cards are outside "
                                  "the hands"), args={**args, "left": state.deck_left()}, interpretations=used)
    else:
        says.add(rule, "draw", N_("Draw {cards} (Persian hand {before} → {after})"), args=args, interpretations=used)
    return state.model_copy(update={"hands": state.hands.plus(Side.PERSIA, count)}), talents - count * cost


def _situation_a(state: EarthWaterState, says: Announcer, talents: int,
                 occupied: tuple[CityName, ...]) -> tuple[EarthWaterState, int]:
    """4.A: three cards and nine armies in the Persian Major free of Greek armies."""
    row = state.tables.persia.situations["A"]
    state, talents = _draw(state, says, SITUATION_A, row.cards, talents)
    free = [m for m in state.tables.majors(Side.PERSIA) if m not in occupied]
    armies = min(row.armies or 0, talents)
    if not free:
        says.add(SITUATION_A, "unspent", N_("Greek armies stand in {cities}: no Major city can take the {armies}"),
                 args={"cities": _(" and ").join(occupied), "armies": units(armies, "army")},
                 interpretations=readings(state, "situations-continue"))
        return state, talents
    city = free[0]
    state = add_units(state, city, armies=armies)
    says.add(SITUATION_A, "armies", N_("Place {armies} in {city} (now {now})"),
             args={"armies": units(armies, "army"), "city": city, "now": state.at(city).persian_armies},
             counts={city: armies})
    return state, talents - armies * state.tables.persia.costs.army.value


def _situation_bcd(state: EarthWaterState, says: Announcer, talents: int,
                   letter: str, earlier: int) -> tuple[EarthWaterState, int]:
    """4.B-4.D: cards by the score, the bridge, B's fleets, then armies."""
    tables = state.tables
    rule = {"B": SITUATION_B, "C": SITUATION_C, "D": SITUATION_D}[letter]
    wanted = tables.persia.situations[letter].cards  # type: ignore[index]
    state, talents = _draw(state, says, rule, wanted, talents, earlier)
    state, talents = _bridge(state, says, rule, talents)
    if letter == "B":
        state, talents = _fleets(state, says, talents)
    if letter == "D":
        return _armies_in(state, says, talents, rule)
    order = tables.order(tables.persia.army_order_b if letter == "B" else tables.persia.army_order_c)
    return _army_cycle(state, says, talents, rule, order)


def _bridge(state: EarthWaterState, says: Announcer, rule: RuleRef, talents: int) -> tuple[EarthWaterState, int]:
    """4.B-4.D, 3.D: rebuild the bridge for four talents (interpretation bridge-needs-army)."""
    cost = state.tables.persia.costs.bridge
    assert cost is not None
    if state.bridge or talents < cost.value:
        return state, talents
    abydos = state.tables.bridge_ends[0]
    if not state.controls(Side.PERSIA, abydos):
        says.add(rule, "bridge", N_("The bridge cannot be rebuilt: Persia does not control {city}"),
                 args={"city": abydos})
        return state, talents
    if state.at(abydos).persian_armies == 0 and state.tables.interpretation("bridge-needs-army").choice == ARMY_IN:
        says.add(rule, "bridge", N_("The bridge cannot be rebuilt: no Persian army stands in {city}"),
                 args={"city": abydos}, interpretations=readings(state, "bridge-needs-army"))
        return state, talents
    says.add(CHEAP_BRIDGE, "bridge", N_("Build the bridge ({talents})"), args={"talents": units(cost.value, "talent")},
             interpretations=readings(state, "bridge-needs-army") if state.at(abydos).persian_armies == 0 else ())
    return state.model_copy(update={"bridge": True}), talents - cost.value


def _fleets(state: EarthWaterState, says: Announcer, talents: int) -> tuple[EarthWaterState, int]:
    """4.B: one fleet per occupied port city with an empty port (interpretations occupied-port-city,
    fleet-order; persia-purchase-caps past two fleets)."""
    tables = state.tables
    cost = tables.persia.costs.fleet.value
    placed: dict[str, int] = {}
    short = False
    for city in tables.order(tables.persia.fleet_order_b):
        g = state.at(city)
        if tables.row(city).port and g.persian_armies and not g.persian_fleets and not g.greek_fleets:
            if talents < cost:
                short = True
                break
            state = add_units(state, city, fleets=1)
            placed[city] = 1
            talents -= cost
    # Where "occupied" decides: a port city Persia controls with no Persian fleet that gets none under
    # our reading (no Persian army there, or a Greek fleet in its port).
    contested = [c for c in tables.ports() if state.controls(Side.PERSIA, c) and not state.at(c).persian_fleets
                 and c not in placed]
    used = readings(state, "occupied-port-city") if placed or contested else ()
    used += readings(state, "fleet-order") if short else ()
    used += readings(state, "persia-purchase-caps") if len(placed) > tables.base.fleets_per_preparation.value else ()
    if placed:
        says.add(SITUATION_B, "fleets", N_("Place {fleets}: one in {cities}"),
                 args={"fleets": units(len(placed), "fleet"), "cities": ", ".join(placed)},
                 counts=placed, interpretations=used)
    elif used:
        says.add(SITUATION_B, "fleets", N_("No fleet to place: no port city with Persian armies has an empty port "
                                           "({cities}: no Persian army, or a Greek fleet)"),
                 args={"cities": ", ".join(contested)}, interpretations=used)
    return state, talents


def _army_cycle(state: EarthWaterState, says: Announcer, talents: int, rule: RuleRef,
                order: tuple[CityName, ...]) -> tuple[EarthWaterState, int]:
    """4.B, 4.C: one army at a time around the controlled cities of the list, no third army in a
    minor city (interpretation minor-city)."""
    tables = state.tables
    cost = tables.persia.costs.army.value
    cap = tables.persia.minor_city_cap.value
    placed: Counter[str] = Counter()
    capped = False
    while talents >= cost:
        progress = False
        for city in order:
            if talents < cost:
                break
            if not state.controls(Side.PERSIA, city):
                continue
            if state.at(city).persian_armies >= cap and tables.row(city).major is not Side.PERSIA:
                capped = True  # the cap applies, or not, by the reading of "minor" (a Greek Major is not)
                if tables.is_minor(city):
                    continue
            state = add_units(state, city, armies=1)
            placed[city] += 1
            talents -= cost
            progress = True
        if not progress:
            break
    if placed:
        final = ", ".join(f"{c} {state.at(CityName(c)).persian_armies}" for c in placed)
        split = ", ".join(f"{c} {n}" for c, n in placed.items())
        says.add(rule, "armies", N_("Place {armies}, one at a time in list order: {split} (now {final})"),
                 args={"armies": units(sum(placed.values()), "army"), "split": split, "final": final},
                 counts=dict(placed),
                 interpretations=readings(state, "minor-city") if capped else ())
    return state, talents


def _armies_in(state: EarthWaterState, says: Announcer, talents: int, rule: RuleRef) -> tuple[EarthWaterState, int]:
    """4.D: every remaining talent becomes an army in Abydos."""
    abydos = state.tables.bridge_ends[0]
    cost = state.tables.persia.costs.army.value
    count = talents // cost
    if count == 0 or not state.controls(Side.PERSIA, abydos):
        return state, talents
    state = add_units(state, abydos, armies=count)
    says.add(rule, "armies", N_("Place {armies} in {city} (now {now})"),
             args={"armies": units(count, "army"), "city": abydos, "now": state.at(abydos).persian_armies},
             counts={abydos: count})
    return state, talents - count * cost
