"""Every reading of tables/iliad/rules.yaml is disclosed where it decides (issue 9).

One scenario per interpretation id: a position and the verdict, action record or resolution
the reading decides (the comment says what is at stake); its provisional list must name the
reading exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from referee.games.iliad.state import IliadState
from referee.games.iliad.tables import INTERPRETATIONS
from referee.rulings import RulesIndex
from referee.tables import packaged_table_set, parse_yaml

from .helpers import ENGINE, faces, judge, play, position, record

Scenario = Callable[[], tuple[str, ...]]
H2 = {"day": 1, "hour": 2}  # no god, no duel
FAR = {"Ettore": "S20", "Diomede": "J5"}


def _verdict(state: IliadState, text: str) -> tuple[str, ...]:
    return judge(state, text).provisional


def _played(state: IliadState, text: str, *dice: int) -> tuple[str, ...]:
    return record(state, text, faces(*dice))[1].provisional


def _resolved(state: IliadState, *dice: int) -> tuple[str, ...]:
    return ENGINE.resolve_pending(state, faces(*dice))[1].provisional


def _at(**fields: Any) -> IliadState:
    return position(**{**H2, **fields})


def achilles_entry() -> tuple[str, ...]:
    # Macaone falls and only sulking Achilles is left: the Greeks lose (the other reading: he enters).
    state = _at(counters={"Achille": "D12", "Macaone": "J15", "Cebrione": "J16", "Ettore": "S20"},
                attacks=["Macaone x Cebrione"])
    return _resolved(state, 1, 6)


def battle_tie() -> tuple[str, ...]:
    # 1 + 3 against 1 + 3: nobody falls (the other reading rolls again).
    return _resolved(_at(counters={"Macaone": "J15", "Cebrione": "J16", **FAR}, attacks=["Macaone x Cebrione"]), 3, 3)


def _wounded_cebrione_shot() -> IliadState:
    return _at(counters={"Teucro": "J14", "Cebrione": "J17", **FAR}, wounded=["Cebrione"],
               shots=["Teucro shoots Cebrione"])


def second_wound() -> tuple[str, ...]:
    # A 5 wounds Cebrione, already wounded: nothing more (the other reading kills him).
    return _resolved(_wounded_cebrione_shot(), 5)


def diagonal_movement() -> tuple[str, ...]:
    # J15 to K16 is one diagonal step (two orthogonal ones in the other reading).
    return _verdict(_at(counters={"Macaone": "J15", **FAR}), "Macaone K16")


def archer_line() -> tuple[str, ...]:
    # Cebrione stands on Teucro's diagonal, 3 away (out of line in the other reading).
    return _verdict(_at(counters={"Teucro": "J14", "Cebrione": "M17", **FAR}), "Teucro shoots Cebrione")


def wall_zones() -> tuple[str, ...]:
    # Day 2: the wall stands; Macaone steps onto G15 beside Cebrione on H15 without attacking.
    return _verdict(position(day=2, hour=2, counters={"Macaone": "F15", "Cebrione": "H15", **FAR}), "Macaone G15")


def _camp_battle(hour: int) -> IliadState:
    return position(day=2, hour=hour, side="trojan", counters={"Macaone": "F15", "Cebrione": "F16", **FAR},
                    attacks=["Cebrione x Macaone"])


def wall_doubling() -> tuple[str, ...]:
    # Macaone defends inside the camp and Cebrione has got in: both double.
    return _resolved(_camp_battle(2), 3, 3)


def doubling_stack() -> tuple[str, ...]:
    # Day 2 hour 6: Cebrione doubles for the gods and for the wall: 2 (or 4 if they stack).
    return _resolved(_camp_battle(6), 3, 3)


def duel_hour() -> tuple[str, ...]:
    # Day 1 hour 1: the scheduled duel takes the Greek move only (or the whole hour).
    return _resolved(position(day=1, hour=1, counters={"Menelao": "D14", "Paride": "S19"}), 1, 1, 1, 1, 1, 1)


def duel_availability() -> tuple[str, ...]:
    # Hour 12's duel is skipped: Aiace is wounded.
    state = position(day=1, hour=11, side="trojan", counters={"Aiace Telamonio": "D14", **FAR},
                     wounded=["Aiace Telamonio"])
    return _resolved(state)


def archer_value() -> tuple[str, ...]:
    # An archer moves as a value-1 counter: 6 squares.
    return _verdict(_at(counters={"Teucro": "J14", **FAR}), "Teucro J18")


def archer_zone() -> tuple[str, ...]:
    # Teucro, beside no enemy, may shoot.
    return _verdict(_at(counters={"Teucro": "J14", "Cebrione": "J17", **FAR}), "Teucro shoots Cebrione")


def arrow_wound() -> tuple[str, ...]:
    # A 5 wounds Cebrione before the other combats.
    state = _at(counters={"Teucro": "J14", "Cebrione": "J17", **FAR}, shots=["Teucro shoots Cebrione"])
    return _resolved(state, 5)


def wounded_in_battle() -> tuple[str, ...]:
    # Cebrione, wounded, is the whole Trojan side: its die is halved.
    state = _at(counters={"Macaone": "J15", "Cebrione": "J16", **FAR}, wounded=["Cebrione"],
                attacks=["Macaone x Cebrione"])
    return _resolved(state, 3, 3)


def _night() -> IliadState:
    return position(day=2, hour=12, phase="night", counters={"Macaone": "J15", "Diomede": "J5", "Ettore": "S20"},
                    wounded=["Diomede"], lost_today={"trojan": ["Reso"], "greek": ["Podalirio"]})


def wound_heals() -> tuple[str, ...]:
    return _played(_night(), "night")


def wounded_placement() -> tuple[str, ...]:
    # Cebrione, wounded on J17, goes back to his start square.
    return arrow_wound()


def wounded_idle() -> tuple[str, ...]:
    return _verdict(_at(counters={"Macaone": "J15", **FAR}, wounded=["Macaone"]), "Macaone K15")


def attack_in_place() -> tuple[str, ...]:
    return _verdict(_at(counters={"Macaone": "J15", "Cebrione": "J16", **FAR}), "Macaone x Cebrione")


def move_once() -> tuple[str, ...]:
    state = play(_at(counters={"Macaone": "J15", **FAR}), "Macaone K15")
    return _verdict(state, "Macaone L15")


def battle_sides() -> tuple[str, ...]:
    return _verdict(_at(counters={"Macaone": "J15", "Cebrione": "J16", **FAR}), "Macaone K16")


def _duel(attacker: str, defender: str, *dice: int, wounded: tuple[str, ...] = ()) -> tuple[str, ...]:
    state = _at(counters={attacker: "J15", defender: "J16"}, wounded=list(wounded),
                attacks=[f"{attacker} x {defender}"])
    return _resolved(state, *dice)


def duel_half_points() -> tuple[str, ...]:
    # Ettore wounded: 8 + 3 against 9 + 1.5, a difference of half a point.
    return _duel("Diomede", "Ettore", 3, 3, 3, 3, 3, 3, wounded=("Ettore",))


def duel_equal_totals() -> tuple[str, ...]:
    # 8 + 2 against 9 + 1.
    return _duel("Diomede", "Ettore", 2, 1, 2, 1, 2, 1)


def duel_large_difference() -> tuple[str, ...]:
    # 8 + 6 against 4 + 1: a difference of 9, read as the top band.
    return _duel("Diomede", "Paride", 6, 1)


def achilles_zone() -> tuple[str, ...]:
    # Cebrione steps beside sulking Achilles: that attacks him.
    state = _at(side="trojan", counters={"Achille": "D12", "Cebrione": "F12", "Diomede": "J5", "Ettore": "S20"})
    return _verdict(state, "Cebrione E12")


def night_rounding() -> tuple[str, ...]:
    return _played(_night(), "night")


def night_choice() -> tuple[str, ...]:
    return _verdict(_night(), "night")


def thracian_losses() -> tuple[str, ...]:
    # Reso fell on day 2: his points count, but he leaves with the Thracians.
    return _played(_night(), "night")


def camp_start() -> tuple[str, ...]:
    state = position(day=1, hour=12, phase="night", counters={"Macaone": "J15", "Diomede": "J5", "Ettore": "S20"})
    return _played(state, "night greek: none; trojan: none; camp: Diomede E14")


def _troy() -> IliadState:
    return position(counters={"Diomede": "S19", "Ulisse": "S20", "Menelao": "S21", "Macaone": "T19",
                              "Podalirio": "T20", "Ettore": "J16"}, day=1, hour=2)


def troy_ground() -> tuple[str, ...]:
    return _resolved(_troy())


def victory_timing() -> tuple[str, ...]:
    return _resolved(_troy())


def zone_stop() -> tuple[str, ...]:
    # Macaone stops beside Cebrione, whom Diomede attacks: he joins (or, the other reading, stays out).
    state = play(_at(counters={"Diomede": "J14", "Macaone": "L16", "Cebrione": "J16", "Ettore": "S20"}),
                 "Diomede J15")
    return _verdict(state, "Macaone K16")


def doubled_movement() -> tuple[str, ...]:
    # Day 1 hour 5 favours the Greeks: Macaone doubles but still moves 6 (or 10).
    return _verdict(position(day=1, hour=5, counters={"Macaone": "J15", **FAR}), "Macaone J20")


def arrow_target_zones() -> tuple[str, ...]:
    # Teucro shoots Cebrione: Macaone stopping beside him must still attack him (or may pass).
    state = _at(counters={"Teucro": "J13", "Macaone": "L16", "Cebrione": "J16", **FAR},
                shots=["Teucro shoots Cebrione"])
    return _verdict(state, "Macaone K16")


SCENARIOS: dict[str, Scenario] = {
    "achilles-entry": achilles_entry, "battle-tie": battle_tie, "second-wound": second_wound,
    "diagonal-movement": diagonal_movement, "archer-line": archer_line, "wall-zones": wall_zones,
    "wall-doubling": wall_doubling, "doubling-stack": doubling_stack, "duel-hour": duel_hour,
    "duel-availability": duel_availability, "archer-value": archer_value, "archer-zone": archer_zone,
    "arrow-wound": arrow_wound, "wounded-in-battle": wounded_in_battle, "wound-heals": wound_heals,
    "wounded-placement": wounded_placement, "wounded-idle": wounded_idle, "attack-in-place": attack_in_place,
    "move-once": move_once, "battle-sides": battle_sides, "duel-half-points": duel_half_points,
    "duel-equal-totals": duel_equal_totals, "duel-large-difference": duel_large_difference,
    "achilles-zone": achilles_zone, "night-rounding": night_rounding, "night-choice": night_choice,
    "thracian-losses": thracian_losses, "camp-start": camp_start, "troy-ground": troy_ground,
    "victory-timing": victory_timing, "zone-stop": zone_stop, "doubled-movement": doubled_movement,
    "arrow-target-zones": arrow_target_zones,
}


def _rules() -> RulesIndex:
    return parse_yaml("rules.yaml", packaged_table_set("iliad").text("rules.yaml"), RulesIndex)


def test_every_interpretation_has_a_scenario() -> None:
    ids = [i.id for i in _rules().interpretations]
    assert sorted(ids) == sorted(SCENARIOS) == sorted(INTERPRETATIONS)


@pytest.mark.parametrize("ident", sorted(SCENARIOS))
def test_interpretation_is_disclosed_once_where_it_decides(ident: str) -> None:
    disclosed = SCENARIOS[ident]()
    label = _rules().interpretation(ident).label()
    assert disclosed.count(label) == 1, (ident, disclosed)
    ids = [d.split(":", 1)[0].removeprefix("interpretation ") for d in disclosed if d.startswith("interpretation ")]
    assert len(ids) == len(set(ids)), disclosed


def test_readings_that_do_not_decide_are_not_disclosed() -> None:
    # No god this hour: the doubled-movement reading does not matter.
    assert not any("doubled-movement" in p for p in diagonal_movement())
    # Nobody is shot at or attacked near Macaone: neither zone reading matters.
    assert not any("zone-stop" in p or "arrow-target-zones" in p for p in diagonal_movement())
    # A shot at an enemy far away does not decide where Macaone may stop.
    far_shot = _at(counters={"Teucro": "J14", "Cebrione": "M17", "Macaone": "C3", **FAR},
                   shots=["Teucro shoots Cebrione"])
    assert not any("arrow-target-zones" in p for p in _verdict(far_shot, "Macaone C4"))


def test_legal_names_the_zone_readings_its_squares_depend_on() -> None:
    # Diomede attacks Cebrione: squares beside Cebrione are where zone-stop decides what Macaone
    # may do; Teucro shoots Reso, whose zone arrow-target-zones decides (issue 35: legal discloses).
    state = play(_at(counters={"Diomede": "J14", "Macaone": "L16", "Cebrione": "J16", "Teucro": "J10",
                               "Reso": "M13", "Ettore": "S20"}), "Diomede J15", "Teucro shoots Reso")
    report = ENGINE.legal_report(state, "Macaone")
    assert any("zone-stop" in p for p in report.provisional)
    assert any("arrow-target-zones" in p for p in report.provisional)
    archer = ENGINE.legal_report(_at(counters={"Teucro": "J14", "Cebrione": "J17", **FAR}), "Teucro")
    assert any("archer-line" in p for p in archer.provisional)
