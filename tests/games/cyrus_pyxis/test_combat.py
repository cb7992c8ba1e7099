"""VI, IV.3: combat values, the result table, resolution order, retreats, and I: killing the king."""

from __future__ import annotations

from typing import Any

import pytest

from referee.dice import NoDice
from referee.games.cyrus_pyxis.display import UmpireResolution
from referee.games.cyrus_pyxis.tables import Phase

from .helpers import ENGINE, position


def resolve(**data: Any) -> UmpireResolution:
    _, result = ENGINE.resolve_pending(position(**data), NoDice())
    return result


# The three retreat cases of VI (rulebook, "Retraite", cases 1-3): a Greek legion fighting on H7
# must retreat. A Persian cavalry (4) attacking a Greek infantry (2) on a plain wins by 2: the
# defender retreats (result band +1..+2).


def test_VI_retreat_case_1_to_the_free_cell_west() -> None:
    result = resolve(active="persian", greek={"Samos": "H7"}, persian={"Tyr": "H7"})
    retreat = result.results[0].retreat
    assert retreat is not None and retreat.to == "H6" and not retreat.eliminated
    assert result.position.greek["Samos"] == "H6" and result.position.persian["Tyr"] == "H7"


def test_VI_retreat_case_2_over_a_friend_to_the_next_free_cell() -> None:
    result = resolve(active="persian", greek={"Samos": "H7", "Myron": "H6"}, persian={"Tyr": "H7"})
    retreat = result.results[0].retreat
    assert retreat is not None and retreat.path == ("H6", "H5") and retreat.to == "H5"
    assert result.position.greek["Samos"] == "H5"


def test_VI_retreat_case_3_onto_an_enemy_eliminates() -> None:
    result = resolve(active="persian", greek={"Samos": "H7"}, persian={"Tyr": "H7", "Darius": "H6"})
    retreat = result.results[0].retreat
    assert retreat is not None and retreat.eliminated and "Darius" in retreat.reason
    assert "Samos" not in result.position.greek
    assert result.results[0].eliminated == ("Samos",)


def test_VI_persian_retreats_east() -> None:
    result = resolve(active="greek", greek={"Pergame": "C5"}, persian={"Darius": "C5"})
    assert result.results[0].retreat is not None and result.results[0].retreat.to == "C6"


def test_VI_retreat_off_the_board_eliminates() -> None:
    result = resolve(active="persian", greek={"Samos": "H1"}, persian={"Tyr": "H1"})
    retreat = result.results[0].retreat
    assert retreat is not None and retreat.eliminated and retreat.off_board
    assert any("retreat-off-board" in p for p in result.provisional)
    assert "Matériel II.1" in {c.section for c in result.results[0].cites}


def test_VI_retreat_into_a_pending_combat_eliminates() -> None:
    # Greek attacks: eastmost first, so H7 is resolved while H6 still holds a combat.
    result = resolve(active="greek", greek={"Samos": "H7", "Myron": "H6"}, persian={"Tyr": "H7", "Darius": "H6"})
    first = result.results[0]
    assert first.cell == "H7" and first.outcome == "attacker-retreats"
    assert first.retreat is not None and first.retreat.eliminated
    assert any("retreat-into-pending-combat" in p for p in first.provisional)


def test_VI_retreat_may_end_in_forest_or_hill() -> None:
    result = resolve(active="persian", terrain={"forest": ["H6"]}, greek={"Samos": "H7"}, persian={"Tyr": "H7"})
    assert result.position.greek["Samos"] == "H6"
    assert any("retreat-into-terrain" in p for p in result.provisional)


@pytest.mark.parametrize(
    ("attacker", "defender", "difference", "outcome"),
    [
        ("Centaure", "Darius", 3, "defender-eliminated"),  # elephant 5 vs infantry 2 on plain
        ("Pergame", "Darius", 2, "defender-retreats"),  # cavalry 4 vs 2
        ("Samos", "Darius", 0, "attacker-retreats"),  # 2 vs 2
        ("Messène", "Darius", -1, "attacker-retreats"),  # archer 1 vs 2
        ("Pyxis", "Amatonte", -3, "attacker-eliminated"),  # king 0 vs guard 3
    ],
)
def test_VI_3_difference_selects_the_result(attacker: str, defender: str, difference: int, outcome: str) -> None:
    result = resolve(greek={attacker: "E5"}, persian={defender: "E5"}).results[0]
    assert (result.difference, result.outcome) == (difference, outcome)
    assert any("combat_results.csv" in p and "provisional" in p for p in result.provisional)


def test_VI_2_terrain_of_the_combat_cell_sets_the_values() -> None:
    plain = resolve(greek={"Centaure": "E5"}, persian={"Darius": "E5"}).results[0]
    hill = resolve(terrain={"hill": ["E5"]}, greek={"Centaure": "E5"}, persian={"Darius": "E5"}).results[0]
    assert plain.attacker.base == 5 and hill.attacker.base == 2 and hill.terrain == "hill"
    assert any("combat-terrain" in p for p in hill.provisional)


def test_IV_3_phalanx_uses_its_mounted_value_against_cavalry_and_elephants() -> None:
    vs_cavalry = resolve(greek={"Théron": "E5"}, persian={"Tyr": "E5"}).results[0]
    vs_elephant = resolve(greek={"Théron": "E5"}, persian={"Erryx": "E5"}).results[0]
    vs_foot = resolve(greek={"Théron": "E5"}, persian={"Darius": "E5"}).results[0]
    assert (vs_cavalry.attacker.base, vs_elephant.attacker.base, vs_foot.attacker.base) == (5, 5, 2)
    assert "IV.3" in {c.section for c in vs_cavalry.cites}
    vs_guard = resolve(greek={"Théron": "E5"}, persian={"Amatonte": "E5"}).results[0]
    assert vs_guard.attacker.base == 2 and any("foot-for-phalanx" in p for p in vs_guard.provisional)


def test_VI_greek_attacks_resolve_eastmost_first() -> None:
    result = resolve(active="greek", greek={"Samos": "C3", "Myron": "D9", "Héra": "A9"},
                     persian={"Darius": "C3", "Suze": "D9", "Roustem": "A9"})
    assert [r.cell for r in result.results] == ["A9", "D9", "C3"]
    assert any("same-line-order" in p for p in result.provisional)


def test_VI_persian_attacks_resolve_westmost_first() -> None:
    result = resolve(active="persian", greek={"Samos": "C3", "Myron": "D9"}, persian={"Darius": "C3", "Suze": "D9"})
    assert [r.cell for r in result.results] == ["C3", "D9"]


@pytest.mark.parametrize(("first_attacker", "fate"), [("Amatonte", "eliminated"), ("Jasili", "survives")])
def test_VI_each_outcome_stands_for_the_next_combat(first_attacker: str, fate: str) -> None:
    # Persian attacks on H5 and H6 (a royal guard or an infantry, then a cavalry: one cavalry
    # moves per turn, V): H5 first. The Greek on H6 loses and retreats West into H5:
    # if the Persian attacker won on H5 it still stands there and the Greek dies; if it was
    # eliminated there, H5 is free and the Greek survives.
    result = resolve(
        active="persian",
        greek={"Samos": "H5", "Athéna": "H6"} if first_attacker == "Amatonte" else {"Athéna": "H5", "Myron": "H6"},
        persian={first_attacker: "H5", "Sidon": "H6"},
    )
    first, second = result.results
    assert first.cell == "H5" and second.cell == "H6"
    assert second.retreat is not None
    assert second.retreat.eliminated is (fate == "eliminated")


def test_I_killing_the_king_wins_at_once() -> None:
    state = position(active="greek", greek={"Centaure": "E9", "Samos": "B5"}, persian={"Cyrus": "E9", "Darius": "B5"})
    new, result = ENGINE.resolve_pending(state, NoDice())
    assert result.winner == "greek" and new.phase is Phase.OVER  # type: ignore[attr-defined]
    assert result.results[0].victory == "greek"
    assert result.unresolved == ("B5",)  # the game ended before the westmost combat
    assert any("victory-stops-play" in p for p in result.provisional)
    assert ENGINE.legal_actions(new) == []
    assert ENGINE.outcome(new) is not None


def test_I_a_king_dying_in_retreat_loses_too() -> None:
    result = resolve(active="persian", greek={"Pyxis": "H1"}, persian={"Tyr": "H1"})
    assert result.winner == "persian"
