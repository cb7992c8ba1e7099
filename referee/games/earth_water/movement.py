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
from referee.games.earth_water.state import CityName, EarthWaterState, Side
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
        return Ruling.violation("same-city", f"a move needs another city than {path[0]} to go to", (LAND_MOVE,))
    for here, there in itertools.pairwise(path):
        if there in tables.adjacent(here, state.bridge):
            continue
        if {here, there} == set(tables.bridge_ends):
            return Ruling.violation("bridge-down", f"{here}–{there} needs the bridge, which is destroyed",
                                    (LAND_MOVE, MAP))
        if len(path) == 2:
            return Ruling.violation("no-route", f"no road route takes {side.adjective} armies from {here} "
                                    f"to {there} through cities {side.label} controls", (LAND_MOVE, MAP))
        return Ruling.violation("no-road", f"no road joins {here} and {there}", (LAND_MOVE, MAP))
    for city in path[1:-1]:
        if not state.controls(side, city):
            return Ruling.violation(
                "must-stop", f"the armies must stop in {city}, which {side.label} does not control, "
                f"so they cannot go on to {path[-1]}", (LAND_MOVE, CONTROL))
    return None


def check_armies_present(state: EarthWaterState, side: Side, city: CityName, count: int) -> Ruling | None:
    """base 6.4: only armies present in the starting city can move."""
    here = state.at(city).armies(side)
    if count <= here:
        return None
    return Ruling.violation("not-enough-armies", f"{city} holds {here} {side.adjective} "
                            f"arm{'y' if here == 1 else 'ies'}, not {count}", (LAND_MOVE,))


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
            return Ruling.violation("not-a-port", f"{city} has no port", (NAVAL_MOVE, MAP))
    if start == goal:
        return Ruling.violation("same-port", f"the fleets are already in {start}", (NAVAL_MOVE,))
    return None


def check_fleets_present(state: EarthWaterState, side: Side, city: CityName, count: int) -> Ruling | None:
    """base 6.5: only fleets present in the starting port can sail."""
    here = state.at(city).fleets(side)
    if count <= here:
        return None
    return Ruling.violation("not-enough-fleets", f"{city} holds {here} {side.adjective} "
                            f"fleet{'' if here == 1 else 's'}, not {count}", (NAVAL_MOVE,))


def check_carry(state: EarthWaterState, side: Side, city: CityName, fleets: int, armies: int) -> Ruling | None:
    """base 6.5: one army per fleet, three armies at most, taken from the port city."""
    limit = state.tables.base.naval_carry.value
    if armies > min(fleets, limit):
        return Ruling.violation("carry-limit", f"{fleets} fleet{'' if fleets == 1 else 's'} carry at most "
                                f"{min(fleets, limit)} arm{'y' if min(fleets, limit) == 1 else 'ies'} "
                                f"(one per fleet, {limit} in all), not {armies}", (NAVAL_MOVE,))
    return check_armies_present(state, side, city, armies) if armies else None


# ---------------------------------------------------------------------------------------------
# Greek placements (base 5)


def check_talents(state: EarthWaterState, cost: int) -> Ruling | None:
    """base 5: purchases are paid from the Greek talents."""
    if cost <= state.greek_talents:
        return None
    return Ruling.violation("no-talents", f"this costs {cost} talent{'' if cost == 1 else 's'}; Greece has "
                            f"{state.greek_talents} left", (BASE_PREPARATION,))


def check_controlled(state: EarthWaterState, city: CityName) -> Ruling | None:
    """base 5: new Greek units go to cities Greece controls."""
    if state.controls(Side.GREECE, city):
        return None
    holder = state.controller(city)
    why = "Persia holds it" if holder is Side.PERSIA else "no Greek army is there"
    return Ruling.violation("not-controlled", f"Greece does not control {city} ({why})",
                            (BASE_PREPARATION, CONTROL))


def check_army_reserve(state: EarthWaterState, count: int) -> Ruling | None:
    """base pieces: Greece has nine armies in all (portraits included)."""
    armies, _ = state.greek_reserve()
    if count <= armies:
        return None
    return Ruling.violation("no-reserve", f"Greece has {armies} arm{'y' if armies == 1 else 'ies'} left in "
                            f"reserve of {state.tables.base.greek_armies.value}", (PIECES,))


def check_fleet_reserve(state: EarthWaterState, count: int) -> Ruling | None:
    """base pieces: Greece has five fleets in all."""
    _, fleets = state.greek_reserve()
    if count <= fleets:
        return None
    return Ruling.violation("no-reserve", f"Greece has {fleets} fleet{'' if fleets == 1 else 's'} left in "
                            f"reserve of {state.tables.base.greek_fleets.value}", (PIECES,))


def check_fleet_port(state: EarthWaterState, city: CityName) -> Ruling | None:
    """base 5: a new fleet needs a port without enemy fleets."""
    if not state.tables.row(city).port:
        return Ruling.violation("not-a-port", f"{city} has no port", (BASE_PREPARATION, MAP))
    enemy = state.at(city).persian_fleets
    if enemy:
        return Ruling.violation("enemy-fleet", f"{enemy} Persian fleet{'' if enemy == 1 else 's'} "
                                f"lie{'s' if enemy == 1 else ''} in {city}'s port", (BASE_PREPARATION,))
    return None


def check_fleet_quota(state: EarthWaterState, count: int) -> Ruling | None:
    """base 5: at most two fleets per preparation."""
    limit = state.tables.base.fleets_per_preparation.value
    if state.greek_fleets_bought + count <= limit:
        return None
    return Ruling.violation("fleet-limit", f"Greece may raise {limit} fleets per preparation and has raised "
                            f"{state.greek_fleets_bought}", (BASE_PREPARATION,))


def check_card_quota(state: EarthWaterState, count: int) -> Ruling | None:
    """base 5: at most six cards per preparation, bought before any unit, from the 16 cards."""
    limit = state.tables.base.cards_per_preparation.value
    if state.greek_units_bought:
        return Ruling.violation("cards-first", "cards are bought before armies and fleets", (BASE_PREPARATION,))
    if state.greek_cards_bought + count > limit:
        return Ruling.violation("card-limit", f"Greece may buy {limit} cards per preparation and has bought "
                                f"{state.greek_cards_bought}", (BASE_PREPARATION,))
    if count > state.deck_left():
        return Ruling.violation("deck-empty", f"only {state.deck_left()} of the {state.tables.base.deck.value} "
                                "cards are outside the hands", (BASE_PREPARATION, PIECES))
    return None
