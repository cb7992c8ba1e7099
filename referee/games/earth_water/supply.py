"""6, base 8, base 9: lines of communication, attrition counts, and scoring.

Entry points: :func:`supplied`, :func:`surplus`, :func:`points`. PERS.IA's own supply choices
(which armies go first) live in the bot; the Greek player picks his own.
"""

from __future__ import annotations

from collections import deque

from referee.games.earth_water.state import EarthWaterState
from referee.games.earth_water.tables import CityName, Side

ALL_MAJORS = "all-majors-free"
"""sea-supply: the reading where an enemy fleet in any Major's port cuts every sea supply."""


def supplied(state: EarthWaterState, side: Side) -> frozenset[CityName]:
    """6.C, base 8: cities whose armies of ``side`` have a line of communication.

    Interpretation supply-lines: land lines start from each Major the side controls and cross
    any city the enemy does not control (the bridge only while built). Interpretation
    sea-supply: a fleet of the side in the city's port supplies it when at least one of those
    Majors has no enemy fleet in port. Persian armies in Abydos and Ephesos are always supplied
    (interpretation persian-attrition-majors).
    """
    tables = state.tables
    starts = [m for m in tables.majors(side) if state.controls(side, m)]
    reached = set(starts)
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        for there in tables.adjacent(here, state.bridge):
            if there not in reached and not state.controls(side.other, there):
                reached.add(there)
                queue.append(there)
    free = [state.at(m).fleets(side.other) == 0 for m in starts]
    sea = all(free) if tables.interpretation("sea-supply").choice == ALL_MAJORS else any(free)
    out: set[CityName] = set()
    for city, g in state.cities.items():
        if g.armies(side) == 0:
            continue
        always = side is Side.PERSIA and tables.row(city).major is Side.PERSIA
        if always or city in reached or (sea and g.fleets(side) > 0):
            out.add(city)
    return frozenset(out)


def surplus(state: EarthWaterState, side: Side) -> tuple[int, int, int]:
    """base 8.2: (armies counted, amphorae, surplus) for attrition.

    Persia counts only armies outside Abydos and Ephesos against the amphorae of the other
    cities it controls; Greece counts all its armies against all its cities' amphorae.
    """
    tables = state.tables
    armies = food = 0
    for city, g in state.cities.items():
        home = side is Side.PERSIA and tables.row(city).major is Side.PERSIA
        if home:
            continue
        armies += g.armies(side)
        if state.controls(side, city):
            food += tables.row(city).amphorae
    return armies, food, max(0, armies - food)


def points(state: EarthWaterState, side: Side) -> int:
    """base 9: one point per controlled city, two per controlled Major (the map's values)."""
    return sum(state.tables.row(c).value for c in state.cities if state.controls(side, c))


def holds_both_enemy_majors(state: EarthWaterState, side: Side) -> bool:
    """3.F, base 10: whether a side controls both Major cities of the other."""
    return all(state.controls(side, m) for m in state.tables.majors(side.other))
