"""Zargo's witnesses for the readings contract (tests/readings.py): for every interpretation of
``tables/zargo/rules.yaml`` with two or more options, one question asked through the public
engine API (positions read with the override's tables, then ``judge``, ``odds`` or
``resolve_pending``), whose answer depends on the reading and whose ruling names it."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from referee.dice import PhysicalDice
from referee.games import find_game
from referee.games.zargo.engine import ZargoEngine
from referee.games.zargo.state import ZargoState
from referee.tables import load_table_set
from tests.readings import Ruled, Witness

GAME = find_game("zargo")
assert isinstance(GAME, ZargoEngine)
PEOPLES = ["chevaliers", "dragons", "ailes", "moines"]
CITIES = {"0505": {"owner": "chevaliers", "founder": "chevaliers"}, "2503": {"owner": "dragons", "founder": "dragons"}}
DISCLOSED = re.compile(r"interpretation ([a-z0-9-]+):")


def _state(folder: Path, board: dict[str, list[str]], active: str = "chevaliers", **more: Any) -> ZargoState:
    data: dict[str, Any] = {
        "game": "zargo", "phase": "move", "players": 4, "peoples": PEOPLES,
        "continents": {"chevaliers": ["1"], "dragons": ["2"], "ailes": ["3"], "moines": ["4"]},
        "ready": PEOPLES, "month": 1, "active": active, "board": board, "cities": dict(CITIES),
    }
    data.update(more)
    return GAME.from_position(load_table_set("zargo", folder), data, "witness")


def _ids(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(m for t in texts for m in DISCLOSED.findall(t))


def _judged(state: ZargoState, text: str) -> Ruled:
    verdict = GAME.judge(state, GAME.parse(state, text))
    return Ruled(" ".join(verdict.codes()) or "legal", _ids(verdict.provisional))


def _resolved(state: ZargoState, *faces: int, show: str = "") -> Ruled:
    after, found = GAME.resolve_pending(state, PhysicalDice(list(faces)))
    codes = " ".join(e.code for e in found.events)
    extra = {"board": sorted(after.board.items()), "cities": sorted((h, c.owner, c.garrison)
                                                                     for h, c in after.cities.items()),
             "phase": after.phase.value, "winners": getattr(GAME.outcome(after), "winners", None)}
    return Ruled(f"{codes} | {extra[show] if show else ''}", _ids(found.provisional))


def _odds(state: ZargoState, text: str) -> Ruled:
    odds = GAME.odds(state, text)
    return Ruled(f"{odds.attack}-{odds.defence} {sorted(odds.chances.items())}", _ids(odds.provisional))


# ---- one witness per reading ------------------------------------------------------------------


def combat_by_difference(folder: Path) -> Ruled:  # 8 against 6: difference 2 (column 2), odds 4:3 (column 0)
    return _odds(_state(folder, {"0907": ["CHV"], "0908": ["DRA"]}), "attack 0907 0908")


def archer_ranges(folder: Path) -> Ruled:  # a Winged archer seven hexes from its target
    return _judged(_state(folder, {"0903": ["AAi"], "0910": ["FDr"]}, active="ailes"), "arrow 0903 0910")


def arrow_line(folder: Path) -> Ruled:  # a target off the six hex rows
    return _judged(_state(folder, {"0904": ["ACh"], "1107": ["FDr"]}), "arrow 0904 1107")


def charge_front(folder: Path) -> Ruled:  # a Knight charged straight south; its target ahead, at an angle
    moved = {"0906:CHV": ["0904", "0905", "0906"]}
    return _odds(_state(folder, {"0906": ["CHV"], "1006": ["FDr"]}, moved=moved), "attack 0906 1006")


def flames_add_up(folder: Path) -> Ruled:  # two flames two hexes away; dice 1 then 5
    shots = [{"kind": "flame", "source": src, "target": "0907"} for src in ("0905", "0909")]
    state = _state(folder, {"0905": ["DRA"], "0909": ["LFl"], "0907": ["FCh"]}, active="dragons", shots=shots)
    return _resolved(state, 1, 5, show="board")


def wrap_letters(folder: Path) -> Ruled:  # across the lettered edge, letter A's hex to letter B's twin
    return _judged(_state(folder, {"0112": ["FMo"]}, active="moines"), "0112 3613 3513")


def mountain_descent(folder: Path) -> Ruled:  # two hexes down from a mountain
    return _judged(_state(folder, {"1005": ["FCh"]}), "1005 0905 0805")


def fantarcher_escort(folder: Path) -> Ruled:  # a foot archer joins a lone Knight
    return _judged(_state(folder, {"0906": ["ACh"], "0907": ["CHV"]}), "0906 0907")


def most_cities_tie(folder: Path) -> Ruled:  # the last turn of month 25, one city each for two peoples
    return _resolved(_state(folder, {}, active="moines", month=25), show="winners")


def sorcerer_bonus(folder: Path) -> Ruled:  # a sorcerer next to the attacking Knight
    return _odds(_state(folder, {"0906": ["SOR"], "0907": ["CHV"], "0908": ["FDr"]}), "attack 0907 0908")


def city_terrain(folder: Path) -> Ruled:  # a city in an inland magic chasm
    state = _state(folder, {}, phase="setup", ready=[], cities={})
    return _judged(state, "city 0708")


def bridge_adjacency(folder: Path) -> Ruled:  # the two ends of a cloud bridge
    return _judged(_state(folder, {"1806": ["FCh"], "2108": ["FDr"]}), "attack 1806 2108")


def city_zone(folder: Path) -> Ruled:  # a route along the hexes next to an enemy city
    cities = {**CITIES, "0806": {"owner": "dragons", "founder": "chevaliers"}}
    return _judged(_state(folder, {"0705": ["FCh"]}, cities=cities), "0705 0706 0707 0607")


def zone_entry(folder: Path) -> Ruled:  # a foot soldier moved next to an enemy and did not attack
    state = _state(folder, {"0906": ["FCh"], "0907": ["FDr"]}, moved={"0906:FCh": ["0905", "0906"]})
    return _judged(state, "resolve")


def route_default(folder: Path) -> Ruled:  # a Knight two hexes from a hex next to an enemy, straight or round
    return _judged(_state(folder, {"0904": ["CHV"], "0907": ["FDr"]}), "0904 0906")


def _city(garrison: list[str], owner: str = "dragons") -> dict[str, Any]:
    return {**CITIES, "0806": {"owner": owner, "founder": "chevaliers", "garrison": garrison}}


def too_few_besiegers(folder: Path) -> Ruled:  # one Knight against a garrison of two
    state = _state(folder, {"0807": ["CHV"]}, cities=_city(["FDr", "FDr"]), attacks={"0806": ["0807"]})
    return _resolved(state, 6, show="board")


def garrison_retreat(folder: Path) -> Ruled:  # 8 against 2, die 2: the garrison is to retreat
    state = _state(folder, {"0807": ["CHV"]}, cities=_city(["FDr"]), attacks={"0806": ["0807"]})
    return _resolved(state, 2, show="cities")


def early_end(folder: Path) -> Ruled:  # the Knights take the last city not theirs
    cities = {"0505": CITIES["0505"], "0806": {"owner": "dragons", "founder": "chevaliers"}}
    state = _state(folder, {"0807": ["CHV"]}, cities=cities, attacks={"0806": ["0807"]})
    return _resolved(state, show="phase")


def escorted_retreat(folder: Path) -> Ruled:  # the escort dies; the Knight it escorted retreats
    state = _state(folder, {"0907": ["FCh", "CHV"], "1007": ["DRA"]}, active="dragons", attacks={"0907": ["1007"]})
    return _resolved(state, 6, show="board")


def bridge_chain(folder: Path) -> Ruled:  # a bridge, two land steps, another bridge, in one move
    return _judged(_state(folder, {"1806": ["FCh"]}), "1806 2108 2208 2209 2113")


def monk_reappear(folder: Path) -> Ruled:  # five hexes beyond the far end of a bridge
    state = _state(folder, {}, active="moines", month=2, vanished={"2916": {"label": "MOI", "month": 1}})
    return _judged(state, "appear 2916 2015")


def sally_retreat(folder: Path) -> Ruled:  # a garrison foot soldier sallies; 2 against 3, die 3: AR
    state = _state(folder, {"0807": ["FCh"]}, active="dragons", cities=_city(["FDr"]),
                   attacks={"0807": ["0806:FDr"]})
    return _resolved(state, 3, show="cities")


def city_shot_targets(folder: Path) -> Ruled:  # a Dragon in its city burns a counter three hexes off
    state = _state(folder, {"0809": ["FCh"]}, active="dragons", cities=_city(["DRA"]))
    return _judged(state, "flame DRA 0806 0809")


WITNESSES: dict[str, Witness] = {
    "combat-by-difference": combat_by_difference,
    "archer-ranges": archer_ranges,
    "arrow-line": arrow_line,
    "charge-front": charge_front,
    "flames-add-up": flames_add_up,
    "wrap-letters": wrap_letters,
    "mountain-descent": mountain_descent,
    "fantarcher-escort": fantarcher_escort,
    "most-cities-tie": most_cities_tie,
    "sorcerer-bonus": sorcerer_bonus,
    "city-terrain": city_terrain,
    "bridge-adjacency": bridge_adjacency,
    "city-zone": city_zone,
    "zone-entry": zone_entry,
    "route-default": route_default,
    "too-few-besiegers": too_few_besiegers,
    "garrison-retreat": garrison_retreat,
    "early-end": early_end,
    "escorted-retreat": escorted_retreat,
    "bridge-chain": bridge_chain,
    "monk-reappear": monk_reappear,
    "sally-retreat": sally_retreat,
    "city-shot-targets": city_shot_targets,
}
"""One witness per Zargo interpretation with two or more options."""
