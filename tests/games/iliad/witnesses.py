"""Witnesses of the readings contract for Iliad: one question per reading with options.

Each witness loads the Iliad tables from the override folder it is given (``rules.yaml`` with
one choice switched), builds an umpire position, asks the engine through its public verbs
(``judge``, ``play``, ``resolve_pending``, ``odds``) and returns what was ruled. The comment on
each says what the options decide there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from referee.dice import Dice, PhysicalDice
from referee.games.iliad.state import IliadState
from referee.rulings import Ruling, Verdict
from referee.tables import load_table_set
from tests.readings import Ruled, Witness

from .helpers import ENGINE

H2 = {"day": 1, "hour": 2}  # no god, no duel
FAR = {"Ettore": "S20", "Diomede": "J5"}


def _ids(disclosures: tuple[str, ...]) -> frozenset[str]:
    return frozenset(d.split(":", 1)[0].removeprefix("interpretation ") for d in disclosures
                     if d.startswith("interpretation "))


def _rulings(rulings: tuple[Ruling, ...]) -> list[str]:
    return [f"{r.code}: {r.message}" for r in rulings]


def _at(folder: Path, **fields: Any) -> IliadState:
    data = {"game": "iliad", **fields}
    return ENGINE.from_position(load_table_set("iliad", folder), data, "witness")


def _verdict(state: IliadState, text: str) -> Ruled:
    verdict: Verdict = ENGINE.judge(state, ENGINE.parse(state, text))
    outcome = json.dumps({"legal": verdict.legal, "violations": _rulings(verdict.violations),
                          "notes": _rulings(verdict.notes)})
    return Ruled(outcome, _ids(verdict.provisional))


def _played(state: IliadState, text: str, dice: Dice | None = None) -> Ruled:
    new, record = ENGINE.play(state, ENGINE.parse(state, text), dice or PhysicalDice([]))
    outcome = json.dumps({"events": _rulings(record.events), "position": _position(new)})
    return Ruled(outcome, _ids(record.provisional))


def _resolved(state: IliadState, *dice: int) -> Ruled:
    new, report = ENGINE.resolve_pending(state, PhysicalDice(list(dice)))
    outcome = json.dumps({"events": _rulings(report.events), "winner": report.winner, "position": _position(new)})
    return Ruled(outcome, _ids(report.provisional))


def _position(state: IliadState) -> object:
    model: BaseModel = ENGINE.to_position(state)
    return model.model_dump(mode="json")


def achilles_entry(folder: Path) -> Ruled:
    # Macaone falls and only sulking Achilles is left: the Greeks lose, or he enters the game.
    state = _at(folder, **H2, counters={"Achille": "D12", "Macaone": "J15", "Cebrione": "J16", "Ettore": "S20"},
                attacks=["Macaone x Cebrione"])
    return _resolved(state, 1, 6)


def battle_tie(folder: Path) -> Ruled:
    # 1 + 3 against 1 + 3: nobody falls, or the dice are rolled again (then 6 against 1).
    state = _at(folder, **H2, counters={"Macaone": "J15", "Cebrione": "J16", **FAR}, attacks=["Macaone x Cebrione"])
    return _resolved(state, 3, 3, 6, 1)


def second_wound(folder: Path) -> Ruled:
    # A 5 wounds Cebrione, already wounded: nothing more, or he is killed.
    state = _at(folder, **H2, counters={"Teucro": "J14", "Cebrione": "J17", **FAR}, wounded=["Cebrione"],
                shots=["Teucro shoots Cebrione"])
    return _resolved(state, 5)


def diagonal_movement(folder: Path) -> Ruled:
    # J15 to N19 is four diagonal steps: within Macaone's 6 squares, or 8 orthogonal ones.
    return _verdict(_at(folder, **H2, counters={"Macaone": "J15", **FAR}), "Macaone N19")


def archer_line(folder: Path) -> Ruled:
    # Cebrione stands on Teucro's diagonal, 3 away: in line, or out of it.
    state = _at(folder, **H2, counters={"Teucro": "J14", "Cebrione": "M17", **FAR})
    return _verdict(state, "Teucro shoots Cebrione")


def _camp_battle(folder: Path, hour: int) -> IliadState:
    return _at(folder, day=2, hour=hour, side="trojan", counters={"Macaone": "F15", "Cebrione": "F16", **FAR},
               attacks=["Cebrione x Macaone"])


def wall_doubling(folder: Path) -> Ruled:
    # Macaone attacks from inside the camp: only a defender or an intruder doubles, or anyone inside.
    state = _at(folder, day=2, hour=2, counters={"Macaone": "F15", "Cebrione": "F16", **FAR},
                attacks=["Macaone x Cebrione"])
    return _resolved(state, 3, 3)


def doubling_stack(folder: Path) -> Ruled:
    # Day 2 hour 6: Cebrione doubles for the gods and for the wall: 2, or 4 if they stack.
    return _resolved(_camp_battle(folder, 6), 3, 3)


def duel_hour(folder: Path) -> Ruled:
    # Day 1 hour 1: the scheduled duel takes the Greek move only, or the whole hour.
    state = _at(folder, day=1, hour=1, counters={"Menelao": "D14", "Paride": "S19"})
    return _resolved(state, 1, 1, 1, 1, 1, 1)


def arrow_wound(folder: Path) -> Ruled:
    # A 5 wounds Cebrione, whom Macaone attacks: he fights first and is carried off after, or at once.
    state = _at(folder, **H2, counters={"Teucro": "J14", "Macaone": "J18", "Cebrione": "J17", **FAR},
                shots=["Teucro shoots Cebrione"], attacks=["Macaone x Cebrione"])
    return _resolved(state, 5, 3, 3)


def wounded_in_battle(folder: Path) -> Ruled:
    # Cebrione, wounded, fights beside Reso: the Trojan die is halved, or not since one is whole.
    state = _at(folder, **H2, counters={"Macaone": "J15", "Cebrione": "J16", "Reso": "K15", **FAR},
                wounded=["Cebrione"], attacks=["Macaone x Cebrione, Reso"])
    return _resolved(state, 3, 4)


def night_rounding(folder: Path) -> Ruled:
    # Greek losses of 2 points: revive a multiple of three (none), or two thirds rounded up.
    state = _at(folder, day=2, hour=12, phase="night",
                counters={"Macaone": "J15", "Diomede": "J5", "Ettore": "S20"},
                lost_today={"greek": ["Podalirio"], "trojan": ["Reso"]})
    return _played(state, "night")


def zone_stop(folder: Path) -> Ruled:
    # Macaone stops beside Cebrione, whom Diomede attacks: he joins, or he may stay out.
    state = _at(folder, **H2, counters={"Diomede": "J14", "Macaone": "L16", "Cebrione": "J16", "Ettore": "S20"})
    state, _ = ENGINE.play(state, ENGINE.parse(state, "Diomede J15"), PhysicalDice([]))
    return _verdict(state, "Macaone K16")


def doubled_movement(folder: Path) -> Ruled:
    # Day 1 hour 5 favours the Greeks: Macaone doubles but still moves 6, or moves 10.
    state = _at(folder, day=1, hour=5, counters={"Macaone": "J15", **FAR})
    return _verdict(state, "Macaone J23")


def arrow_target_zones(folder: Path) -> Ruled:
    # Teucro shoots Cebrione: his zone stops Macaone short of G12, or may be crossed to reach it.
    state = _at(folder, **H2, counters={"Teucro": "J13", "Macaone": "K18", "Cebrione": "J16", **FAR},
                shots=["Teucro shoots Cebrione"])
    return _verdict(state, "Macaone G12")


WITNESSES: dict[str, Witness] = {
    "achilles-entry": achilles_entry, "battle-tie": battle_tie, "second-wound": second_wound,
    "diagonal-movement": diagonal_movement, "archer-line": archer_line, "wall-doubling": wall_doubling,
    "doubling-stack": doubling_stack, "duel-hour": duel_hour, "arrow-wound": arrow_wound,
    "wounded-in-battle": wounded_in_battle, "night-rounding": night_rounding, "zone-stop": zone_stop,
    "doubled-movement": doubled_movement, "arrow-target-zones": arrow_target_zones,
}
