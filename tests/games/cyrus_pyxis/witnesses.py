"""Witnesses of the readings contract for Cyrus & Pyxis: one question per reading with options.

Each witness loads the Cyrus & Pyxis tables from the override folder it is given, builds an
umpire position and asks the engine through its public verbs; what was ruled is the verdict's
codes, and what was disclosed the interpretation ids its ``provisional`` list names.
"""

from __future__ import annotations

import json
from pathlib import Path

from referee.games import find_game
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.tables import load_table_set
from tests.readings import Ruled, Witness

GAME = find_game("cyrus-pyxis")
assert isinstance(GAME, CyrusEngine)
ENGINE: CyrusEngine = GAME


def _ids(disclosures: tuple[str, ...]) -> frozenset[str]:
    return frozenset(d.split(":", 1)[0].removeprefix("interpretation ") for d in disclosures
                     if d.startswith("interpretation "))


def engaged_archer(folder: Path) -> Ruled:
    # IV.2-1: Telestas attacks Tyr on C6 and would support Athéna on B6, two squares away: barred
    # from any combat it is in (any-combat), or only when it is the one attacked (attacked-only).
    data = {"game": "cyrus-pyxis", "phase": "support", "greek": {"Pyxis": "A6", "Telestas": "C6", "Athéna": "B6"},
            "persian": {"Cyrus": "L6", "Amatonte": "B6", "Tyr": "C6"}}
    state = ENGINE.from_position(load_table_set("cyrus-pyxis", folder), data, "witness")
    verdict = ENGINE.judge(state, ENGINE.parse(state, "support Telestas Athéna"))
    outcome = json.dumps({"legal": verdict.legal, "codes": list(verdict.codes())})
    return Ruled(outcome, _ids(verdict.provisional))


WITNESSES: dict[str, Witness] = {"engaged-archer": engaged_archer}
