"""5.2, 5.3.2-3: which Persian city PERS.IA activates, how many armies leave it, and where they go.

The defence of an invaded Persian Major (5.2) and the march toward Sparta (faces 2-3) share
one procedure: every city that could make the move gets a plan, and the activation reading
picks one. Four readings decide here, each read from ``rules.yaml``:

- activation-reachable: the most-armed city among those that can move (``first-able``), or
  the most-armed city only, the fallback applying when it cannot move (``most-armed-only``);
- march-toward-sparta: along the road to Sparta, Thebai's rather than Delphi's, to the first
  city without an army (``thebai-road``), or the nearest city strictly fewer roads from Sparta
  (``nearest-closer``);
- defence-keeps-none: whether the defence move also leaves two armies in each Persian Major
  (``always-two``) or only the march does (``march-only``);
- march-count: half rounded down, cut so two stay; a city that would send none cannot move.

Entry points: :func:`defence_plan`, :func:`march_plan`, :func:`most_armed`.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.earth_water.movement import reachable, route
from referee.games.earth_water.state import EarthWaterState
from referee.games.earth_water.tables import CityName, Side

FIRST_ABLE = "first-able"
THEBAI_ROAD = "thebai-road"
ALWAYS_TWO = "always-two"


@dataclass(frozen=True)
class March:
    """A planned Persian land move."""

    city: CityName
    count: int
    path: tuple[CityName, ...]

    @property
    def goal(self) -> CityName:
        """Where the armies end."""
        return self.path[-1]


def most_armed(state: EarthWaterState) -> CityName | None:
    """5.2, 5.3.2-3: the city with the most Persian armies (no Greek army there), ties by activation order."""
    rank = state.tables.activation_rank
    held = [(g.persian_armies, c) for c, g in state.cities.items() if g.persian_armies and not g.greek_armies]
    if not held:
        return None
    return min(held, key=lambda p: (-p[0], rank.get(p[1], len(rank))))[1]


def defence_plan(state: EarthWaterState) -> March | None:
    """5.2: a third (rounded up) of the activated city's armies go to an invaded Persian Major."""
    tables = state.tables
    order = [m for m in tables.order(tables.persia.activation_order) if m in tables.majors(Side.PERSIA)]
    occupied = [m for m in order if m in state.occupied_persian_majors()]
    plans: dict[CityName, March] = {}
    for city, g in state.cities.items():
        if g.persian_armies == 0 or g.greek_armies:
            continue
        count = defence_count(state, city)
        came_from = reachable(state, Side.PERSIA, city)
        target = next((t for t in occupied if t in came_from), None)
        if count >= 1 and target is not None:
            plans[city] = March(city, count, route(came_from, city, target))
    return _activated(state, plans)


def defence_count(state: EarthWaterState, city: CityName) -> int:
    """5.2: a third rounded up; under defence-keeps-none ``always-two`` cut so two stay in a Persian Major."""
    persia = state.tables.persia
    armies = state.at(city).persian_armies
    count = persia.defence_share.of(armies)
    if city in persia.keep_in_majors.cities and _choice(state, "defence-keeps-none") == ALWAYS_TWO:
        count = min(count, armies - persia.keep_in_majors.value)
    return count


def defence_bares(state: EarthWaterState) -> bool:
    """Whether defence-keeps-none decides: a Persian Major that could send armies would keep fewer
    than two under the ``march-only`` reading."""
    persia = state.tables.persia
    for city in persia.keep_in_majors.cities:
        armies = state.at(CityName(city)).persian_armies
        if armies and not state.at(CityName(city)).greek_armies and \
                armies - persia.defence_share.of(armies) < persia.keep_in_majors.value:
            return True
    return False


def march_plan(state: EarthWaterState) -> March | None:
    """5.3.2-3: half (rounded down) of the activated city's armies toward Sparta (march-toward-sparta)."""
    persia = state.tables.persia
    plans: dict[CityName, March] = {}
    for city, g in state.cities.items():
        if g.persian_armies == 0 or g.greek_armies:
            continue
        count = persia.march_share.of(g.persian_armies)
        if city in persia.keep_in_majors.cities:
            count = min(count, g.persian_armies - persia.keep_in_majors.value)
        if count < 1:
            continue
        path = toward_sparta(state, city)
        if path is not None:
            plans[city] = March(city, count, path)
    return _activated(state, plans)


def toward_sparta(state: EarthWaterState, city: CityName) -> tuple[CityName, ...] | None:
    """5.3.2-3: the route of a march from ``city``: to the first city with no army, else into a
    city Greek armies hold, by the march-toward-sparta reading; None when neither exists."""
    if _choice(state, "march-toward-sparta") == THEBAI_ROAD:
        return _along_road(state, city)
    return _nearest_closer(state, city)


def _along_road(state: EarthWaterState, city: CityName) -> tuple[CityName, ...] | None:
    """Reading thebai-road: walk the road to Sparta (one road nearer each step, Thebai before
    Delphi by the activation order) through Persian cities, to the first city without an army;
    a city Greek armies hold ends the walk and is the goal if no empty city came first."""
    tables = state.tables
    steps = tables.sparta_steps[state.bridge]
    if city not in steps:
        return None
    rank = tables.activation_rank
    path = [city]
    here = city
    while steps[here] > 0:
        nearer = [n for n in tables.adjacent(here, state.bridge) if steps.get(n, -1) == steps[here] - 1]
        here = min(nearer, key=lambda n: rank.get(n, len(rank)))
        path.append(here)
        g = state.at(here)
        if g.empty_of_armies or g.greek_armies:
            return tuple(path)
        if not state.controls(Side.PERSIA, here):
            return None  # base 6.4: a city Persia does not control stops the march short of any goal
    return None


def _nearest_closer(state: EarthWaterState, city: CityName) -> tuple[CityName, ...] | None:
    """Reading nearest-closer: among cities a land move reaches that are strictly fewer roads
    from Sparta, the nearest empty one (ties by activation order), else the nearest Greek-held."""
    tables = state.tables
    steps = tables.sparta_steps[state.bridge]
    far = len(tables.cities) + 1
    rank = tables.activation_rank
    came_from = reachable(state, Side.PERSIA, city)
    ahead = [d for d in came_from if steps.get(d, far) < steps.get(city, far)]
    paths = {d: route(came_from, city, d) for d in ahead}
    empty = [d for d in ahead if state.at(d).empty_of_armies]
    greek = [d for d in ahead if state.at(d).greek_armies]
    pool = empty or greek
    if not pool:
        return None
    return paths[min(pool, key=lambda d: (len(paths[d]), rank.get(d, far)))]


def _activated(state: EarthWaterState, plans: dict[CityName, March]) -> March | None:
    """5.2, 5.3.2-3 (activation-reachable): the most-armed city that can move, ties by the
    activation order; or, under ``most-armed-only``, the most-armed city's plan if it has one."""
    if _choice(state, "activation-reachable") != FIRST_ABLE:
        top = most_armed(state)
        return plans.get(top) if top is not None else None
    if not plans:
        return None
    rank = state.tables.activation_rank
    return min(plans.values(), key=lambda p: (-state.at(p.city).persian_armies, rank.get(p.city, len(rank))))


def _choice(state: EarthWaterState, ident: str) -> str:
    return state.tables.interpretation(ident).choice
