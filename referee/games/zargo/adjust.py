"""Umpire overrides of Zargo (``referee adjust``): put a counter on a hex, take a hex's counters
off, give a city to another people, declare a sealed garrison's secret lost. Overrides never
reveal nor change a sealed garrison: its counters stay in the owner's private table until the
owner reveals them; a lost one is sealed again by its owner (``referee seal``), so the way out
of a lost secret shows nothing to the other players."""

from __future__ import annotations

from referee.games.zargo import actions as act
from referee.games.zargo.movement import escort_fits
from referee.games.zargo.rules import CITIES, COUNTERS, ESCORTS, SETUP
from referee.games.zargo.state import GARRISON_MAX, City, ZargoState, manifest_left, unit
from referee.games.zargo.world import Terrain
from referee.rulings import Ruling

__all__ = ["apply_adjust", "check_adjust"]


def _sealed(state: ZargoState, hex_name: str) -> Ruling:
    return Ruling.violation(
        "sealed-garrison",
        "the city on {hex} has a sealed garrison; an override never opens nor changes it (its owner reveals it)",
        (CITIES,),
        hex=hex_name,
    )


def check_adjust(state: ZargoState, a: act.Adjust) -> list[Ruling]:
    """Returns why an override would make an impossible position (empty: allowed)."""
    city = state.cities.get(a.hex)
    if isinstance(a, act.AdjustLost):
        if city is None:
            return [Ruling.violation("no-city", "no city stands on {hex}", (CITIES,), hex=a.hex)]
        if city.seal is None or not city.hidden:
            return [Ruling.violation("not-sealed", "the garrison of {hex} is not face down; nothing is lost", (CITIES,),
                                     hex=a.hex)]
        return []
    if isinstance(a, act.AdjustCity):
        if city is None:
            return [Ruling.violation("no-city", "no city stands on {hex}", (CITIES,), hex=a.hex)]
        if city.hidden:
            return [_sealed(state, a.hex)]
        if a.people not in state.peoples:
            return [Ruling.violation("people-out", "the {people} are not in this game", (SETUP,), people=a.people)]
        return []
    if isinstance(a, act.AdjustOff):
        if a.hex in state.board:
            return []
        if city is not None and city.hidden:
            return [_sealed(state, a.hex)]
        if city is not None and city.garrison:
            return []
        return [Ruling.violation("empty-hex", "no counter stands on {hex}", (COUNTERS,), hex=a.hex)]
    u = unit(state, a.label)
    if state.tables.world.terrain[state.tables.world.grid.parse(a.hex)] is Terrain.SEA:
        return [Ruling.violation("sea-hex", "{hex} is sea; counters stand on land", (COUNTERS,), hex=a.hex)]
    out: list[Ruling] = []
    if u.people not in state.peoples:
        out.append(Ruling.violation("people-out", "the {people} are not in this game", (SETUP,), people=u.people))
    if manifest_left(state, a.label) <= 0:
        out.append(
            Ruling.violation("box-empty", "every {label} counter is already in play", (COUNTERS,), label=a.label)
        )
    if city is not None:
        if city.hidden:
            out.append(_sealed(state, a.hex))
        elif city.owner != u.people:
            out.append(
                Ruling.violation(
                    "not-yours", "the city on {hex} belongs to the {owner}", (CITIES,), hex=a.hex, owner=city.owner
                )
            )
        elif len(city.garrison or ()) >= GARRISON_MAX:
            out.append(
                Ruling.violation(
                    "garrison-full",
                    "the city on {hex} already holds {n} counters",
                    (CITIES,),
                    hex=a.hex,
                    n=GARRISON_MAX,
                )
            )
        return out
    stack = state.board.get(a.hex, ())
    if stack and not escort_fits(state, a.label, stack):
        out.append(
            Ruling.violation(
                "hex-taken",
                "{hex} already holds a counter; only a foot soldier may join a lone counter of its people",
                (ESCORTS,),
                hex=a.hex,
            )
        )
    return out


def apply_adjust(state: ZargoState, a: act.Adjust) -> ZargoState:
    """Returns the state after an allowed override."""
    if isinstance(a, act.AdjustLost):
        city = state.cities[a.hex]
        lost = City(owner=city.owner, founder=city.founder, seal=None, garrison=None)
        return state.model_copy(update={"cities": {**state.cities, a.hex: lost}})
    if isinstance(a, act.AdjustCity):
        city = state.cities[a.hex]
        cities = {**state.cities, a.hex: city.model_copy(update={"owner": a.people})}
        return state.model_copy(update={"cities": cities})
    if isinstance(a, act.AdjustOff):
        if a.hex in state.board:
            board = {h: s for h, s in state.board.items() if h != a.hex}
            paralysed = {h: n for h, n in state.paralysed.items() if h != a.hex}
            return state.model_copy(update={"board": board, "paralysed": paralysed})
        emptied = state.cities[a.hex].model_copy(update={"garrison": ()})
        return state.model_copy(update={"cities": {**state.cities, a.hex: emptied}})
    held = state.cities.get(a.hex)
    if held is not None:
        grown = held.model_copy(update={"garrison": (*(held.garrison or ()), a.label)})
        return state.model_copy(update={"cities": {**state.cities, a.hex: grown}})
    stack = state.board.get(a.hex, ())
    board = {**state.board, a.hex: (a.label, *stack) if stack else (a.label,)}  # an escort goes first
    return state.model_copy(update={"board": board})
