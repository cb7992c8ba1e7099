"""base 6.4, 6.5, base 5: land and naval movement and Greek placements, as checks and generators.

Land: armies leaving one city move together by road, through cities their side controls, and
stop in the first city it does not control (an enemy army there means a battle); the
Abydos–Pella road exists only while the bridge stands. Sea: fleets sail from a port to any
other port carrying at most one army each, three in all. PERS.IA's marches are computed with
the same :func:`reachable` as the Greek player's moves are judged with.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Sequence

from referee.games.earth_water.rules import BASE_PREPARATION, CONTROL, LAND_MOVE, MAP, NAVAL_MOVE, PIECES
from referee.games.earth_water.state import EarthWaterState, units
from referee.games.earth_water.tables import CityName, Side
from referee.rulings import Ruling


def reachable(state: EarthWaterState, side: Side, start: CityName) -> dict[CityName, CityName]:
    """base 6.4: the cities a group leaving ``start`` may end in, each with the city it enters from.

    Breadth-first, so each route has the fewest roads; a city the side does not control ends
    the route (it is reached but not crossed).
    """
    tables = state.tables
    came_from: dict[CityName, CityName] = {}
    queue = deque([start])
    seen = {start}
    while queue:
        here = queue.popleft()
        for there in tables.adjacent(here, state.bridge):
            if there in seen:
                continue
            seen.add(there)
            came_from[there] = here
            if state.controls(side, there):
                queue.append(there)
    return came_from


def route(came_from: dict[CityName, CityName], start: CityName, goal: CityName) -> tuple[CityName, ...]:
    """Returns the road route from ``start`` to ``goal`` in a :func:`reachable` result."""
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    return tuple(reversed(path))


def path_text(path: Sequence[str]) -> str:
    """Returns 'Abydos → Pella → Larissa'."""
    return " → ".join(path)


# ---------------------------------------------------------------------------------------------
# Land moves


def check_route(state: EarthWaterState, side: Side, path: Sequence[CityName]) -> Ruling | None:
    """base 6.4: each step follows a road, and only cities the side controls are crossed."""
    tables = state.tables
    if len(path) < 2 or path[0] == path[-1]:
        return Ruling.violation("same-city", "a move needs another city than {city} to go to", (LAND_MOVE,),
                                city=path[0])
    for here, there in itertools.pairwise(path):
        if there in tables.adjacent(here, state.bridge):
            continue
        if {here, there} == set(tables.bridge_ends):
            return Ruling.violation("bridge-down", "{here}–{there} needs the bridge, which is destroyed",
                                    (LAND_MOVE, MAP), here=here, there=there)
        if len(path) == 2:
            return Ruling.violation("no-route", "no road route takes the armies of {side} from {here} to {there} "
                                    "through cities {side} controls", (LAND_MOVE, MAP),
                                    side=side.label, here=here, there=there)
        return Ruling.violation("no-road", "no road joins {here} and {there}", (LAND_MOVE, MAP), here=here,
                                there=there)
    for city in path[1:-1]:
        if not state.controls(side, city):
            return Ruling.violation(
                "must-stop", "the armies must stop in {city}, which {side} does not control, "
                "so they cannot go on to {goal}", (LAND_MOVE, CONTROL), city=city, side=side.label, goal=path[-1])
    return None


def check_armies_present(state: EarthWaterState, side: Side, city: CityName, count: int) -> Ruling | None:
    """base 6.4: only armies present in the starting city can move."""
    here = state.at(city).armies(side)
    if count <= here:
        return None
    if side is Side.GREECE:
        return Ruling.counted("not-enough-armies", "{city} holds {n} Greek army, not {wanted}",
                              "{city} holds {n} Greek armies, not {wanted}", here, (LAND_MOVE,), city=city,
                              wanted=count)
    return Ruling.counted("not-enough-armies", "{city} holds {n} Persian army, not {wanted}",
                          "{city} holds {n} Persian armies, not {wanted}", here, (LAND_MOVE,), city=city, wanted=count)


def auto_path(state: EarthWaterState, side: Side, start: CityName, goal: CityName) -> tuple[CityName, ...]:
    """Returns the fewest-roads legal route, or the bare pair when there is none (judged later)."""
    came_from = reachable(state, side, start)
    if goal in came_from:
        return route(came_from, start, goal)
    return (start, goal)


# ---------------------------------------------------------------------------------------------
# Naval moves


def check_ports(state: EarthWaterState, start: CityName, goal: CityName) -> Ruling | None:
    """base 6.5: fleets sail from a port to another port."""
    tables = state.tables
    for city in (start, goal):
        if not tables.row(city).port:
            return Ruling.violation("not-a-port", "{city} has no port", (NAVAL_MOVE, MAP), city=city)
    if start == goal:
        return Ruling.violation("same-port", "the fleets are already in {city}", (NAVAL_MOVE,), city=start)
    return None


def check_fleets_present(state: EarthWaterState, side: Side, city: CityName, count: int) -> Ruling | None:
    """base 6.5: only fleets present in the starting port can sail."""
    here = state.at(city).fleets(side)
    if count <= here:
        return None
    if side is Side.GREECE:
        return Ruling.counted("not-enough-fleets", "{city} holds {n} Greek fleet, not {wanted}",
                              "{city} holds {n} Greek fleets, not {wanted}", here, (NAVAL_MOVE,), city=city,
                              wanted=count)
    return Ruling.counted("not-enough-fleets", "{city} holds {n} Persian fleet, not {wanted}",
                          "{city} holds {n} Persian fleets, not {wanted}", here, (NAVAL_MOVE,), city=city,
                          wanted=count)


def check_carry(state: EarthWaterState, side: Side, city: CityName, fleets: int, armies: int) -> Ruling | None:
    """base 6.5: one army per fleet, three armies at most, taken from the port city."""
    limit = state.tables.base.naval_carry.value
    if armies > min(fleets, limit):
        return Ruling.violation("carry-limit", "{fleets} carry at most {armies} (one per fleet, {limit} in all), "
                                "not {n}", (NAVAL_MOVE,), fleets=units(fleets, "fleet"),
                                armies=units(min(fleets, limit), "army"), limit=limit, n=armies)
    return check_armies_present(state, side, city, armies) if armies else None


# ---------------------------------------------------------------------------------------------
# Greek placements (base 5)


def check_talents(state: EarthWaterState, cost: int) -> Ruling | None:
    """base 5: purchases are paid from the Greek talents."""
    if cost <= state.greek_talents:
        return None
    return Ruling.violation("no-talents", "this costs {cost}; Greece has {left} left", (BASE_PREPARATION,),
                            cost=units(cost, "talent"), left=state.greek_talents)


def check_controlled(state: EarthWaterState, city: CityName) -> Ruling | None:
    """base 5: new Greek units go to cities Greece controls."""
    if state.controls(Side.GREECE, city):
        return None
    holder = state.controller(city)
    if holder is Side.PERSIA:
        return Ruling.violation("not-controlled", "Greece does not control {city} (Persia holds it)",
                                (BASE_PREPARATION, CONTROL), city=city)
    return Ruling.violation("not-controlled", "Greece does not control {city} (no Greek army is there)",
                            (BASE_PREPARATION, CONTROL), city=city)


def check_army_reserve(state: EarthWaterState, count: int) -> Ruling | None:
    """base pieces: Greece has nine armies in all (portraits included)."""
    armies, _ = state.greek_reserve()
    if count <= armies:
        return None
    return Ruling.violation("no-reserve", "Greece has {left} left in reserve of {total}", (PIECES,),
                            left=units(armies, "army"), total=state.tables.base.greek_armies.value)


def check_fleet_reserve(state: EarthWaterState, count: int) -> Ruling | None:
    """base pieces: Greece has five fleets in all."""
    _, fleets = state.greek_reserve()
    if count <= fleets:
        return None
    return Ruling.violation("no-reserve", "Greece has {left} left in reserve of {total}", (PIECES,),
                            left=units(fleets, "fleet"), total=state.tables.base.greek_fleets.value)


def check_fleet_port(state: EarthWaterState, city: CityName) -> Ruling | None:
    """base 5: a new fleet needs a port without enemy fleets."""
    if not state.tables.row(city).port:
        return Ruling.violation("not-a-port", "{city} has no port", (BASE_PREPARATION, MAP), city=city)
    enemy = state.at(city).persian_fleets
    if enemy:
        return Ruling.counted("enemy-fleet", "{n} Persian fleet lies in the port of {city}",
                              "{n} Persian fleets lie in the port of {city}", enemy, (BASE_PREPARATION,), city=city)
    return None


def check_fleet_quota(state: EarthWaterState, count: int) -> Ruling | None:
    """base 5: at most two fleets per preparation."""
    limit = state.tables.base.fleets_per_preparation.value
    if state.greek_fleets_bought + count <= limit:
        return None
    return Ruling.violation("fleet-limit", "Greece may raise {limit} fleets per preparation and has raised {done}",
                            (BASE_PREPARATION,), limit=limit, done=state.greek_fleets_bought)


def check_card_quota(state: EarthWaterState, count: int) -> Ruling | None:
    """base 5: at most six cards per preparation, bought before any unit, from the 16 cards."""
    limit = state.tables.base.cards_per_preparation.value
    if state.greek_units_bought:
        return Ruling.violation("cards-first", "cards are bought before armies and fleets", (BASE_PREPARATION,))
    if state.greek_cards_bought + count > limit:
        return Ruling.violation("card-limit", "Greece may buy {limit} cards per preparation and has bought {done}",
                                (BASE_PREPARATION,), limit=limit, done=state.greek_cards_bought)
    if count > state.deck_left():
        return Ruling.violation("deck-empty", "only {left} of the {deck} cards are outside the hands",
                                (BASE_PREPARATION, PIECES), left=state.deck_left(), deck=state.tables.base.deck.value)
    return None
