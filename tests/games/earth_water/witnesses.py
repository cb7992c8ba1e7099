"""Witnesses of the readings contract for 300: Earth & Water solo: one question per reading with options.

Each witness loads the 300-solo tables from the override folder it is given, builds an umpire
position and asks PERS.IA (``persia prepare|operate|supply``) through the engine's public verbs;
what was ruled is the report's steps and the resulting position, and what was disclosed the
interpretation ids the report names. The comment on each says what the options decide there.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.dice import Dice, NoDice, PhysicalDice
from referee.games import find_game
from referee.games.earth_water.announce import PersiaReport
from referee.games.earth_water.engine import EarthWaterEngine, Procedure
from referee.games.earth_water.state import EarthWaterState
from referee.tables import load_table_set
from tests.readings import Ruled, Witness

GAME = find_game("300-solo")
assert isinstance(GAME, EarthWaterEngine)
ENGINE: EarthWaterEngine = GAME
HOME = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Athenai": {"greek_armies": 1},
        "Sparta": {"greek_armies": 1}}


def _at(folder: Path, **fields: object) -> EarthWaterState:
    return ENGINE.from_position(load_table_set("300-solo", folder), {"game": "300-solo", **fields}, "witness")


def _persia(state: EarthWaterState, procedure: Procedure, dice: Dice | None = None) -> Ruled:
    _new, report = ENGINE.persia(state, procedure, dice or NoDice())
    return _ruled(report)


def _ruled(report: PersiaReport) -> Ruled:
    steps = [f"{s.kind}: {s.text}" for s in report.steps]
    outcome = json.dumps({"steps": steps, "position": report.position})
    disclosed = frozenset(i.split(":", 1)[0].removeprefix("interpretation ") for i in report.interpretations)
    return Ruled(outcome, disclosed)


def bridge_needs_army(folder: Path) -> Ruled:
    # Abydos is Persian but empty of armies: no bridge, or control is enough to rebuild it.
    state = _at(folder, score=0, bridge=False, cities={**HOME, "Abydos": {}})
    return _persia(state, "prepare")


def activation_reachable(folder: Path) -> Ruled:
    # Eretria has the most armies but no road: Ephesos marches instead, or the die falls back to face 4.
    state = _at(folder, hands={"persia": 1}, cities={**HOME, "Eretria": {"persian_armies": 6},
                                                    "Ephesos": {"persian_armies": 4}})
    return _persia(state, "operate", PhysicalDice([2]))


def defence_keeps_none(folder: Path) -> Ruled:
    # Abydos' third of 2 would leave 1: it keeps two and the die is rolled, or it sends 1 to Ephesos.
    state = _at(folder, hands={"persia": 1}, cities={"Ephesos": {"greek_armies": 1}, "Abydos": {"persian_armies": 2},
                                                    "Athenai": {"greek_armies": 1}})
    return _persia(state, "operate", PhysicalDice([1]))


def march_toward_sparta(folder: Path) -> Ruled:
    # Pella 5, Larissa and Thebai Persian, Delphi and Korinthos empty: along the Thebai road the
    # march ends in Korinthos; the nearest city closer to Sparta is Delphi, by Larissa.
    state = _at(folder, hands={"persia": 1}, cities={**HOME, "Pella": {"persian_armies": 5},
                                                    "Larissa": {"persian_armies": 1}, "Thebai": {"persian_armies": 1}})
    return _persia(state, "operate", PhysicalDice([2]))


def die_pass(folder: Path) -> Ruled:
    # A 1: PERS.IA discards a card anyway, or keeps both.
    return _persia(_at(folder, hands={"persia": 2}, cities=HOME), "operate", PhysicalDice([1]))


def sea_supply(folder: Path) -> Ruled:
    # Eretria has no road and a Persian fleet; a Greek fleet lies in Abydos' port but not in
    # Ephesos': the fleet supplies Eretria, or the Greek fleet in one Major's port cuts it off.
    state = _at(folder, cities={**HOME, "Abydos": {"persian_armies": 2, "greek_fleets": 1},
                                "Eretria": {"persian_armies": 1, "persian_fleets": 1}})
    return _persia(state, "supply")


WITNESSES: dict[str, Witness] = {
    "bridge-needs-army": bridge_needs_army, "activation-reachable": activation_reachable,
    "defence-keeps-none": defence_keeps_none, "march-toward-sparta": march_toward_sparta, "die-pass": die_pass,
    "sea-supply": sea_supply,
}
