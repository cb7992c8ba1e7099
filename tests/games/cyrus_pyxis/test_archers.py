"""IV.2: archer support — range, lines of fire, once per archer and per legion, forests, effect."""

from __future__ import annotations

from pathlib import Path

from referee.games.cyrus_pyxis.support import arrow_reach
from referee.games.cyrus_pyxis.tables import Terrain
from referee.tables import export_table_set, load_table_set, packaged_table_set

from .helpers import ENGINE, codes, judge, play, position, sections

# The worked example of IV.2-2 (rulebook, "Exemple"): a 3 x 4 block of cells numbered 1-12 row by
# row; 1 plain with archer A, 3 forest, 4 a foot legion, 5 hill with archer B, 8 and 9 forest.
EXAMPLE = {k: f"{'EFGH'[(k - 1) // 3]}{4 + (k - 1) % 3}" for k in range(1, 13)}


def example_state():  # type: ignore[no-untyped-def]
    return position(
        terrain={"forest": [EXAMPLE[3], EXAMPLE[8], EXAMPLE[9]], "hill": [EXAMPLE[5]]},
        greek={"Messène": EXAMPLE[1], "Samos": EXAMPLE[4], "Telestas": EXAMPLE[5]},
    )


def supportable(state, archer_cell: str) -> set[int]:  # type: ignore[no-untyped-def]
    """Example cells a legion fighting there could be supported in, from an archer's cell."""
    grid = state.tables.grid
    reach = arrow_reach(state, grid.parse(archer_cell)).distance
    return {
        k for k, name in EXAMPLE.items()
        if grid.parse(name) in reach and name != archer_cell
        and state.terrain_at(grid.parse(name)) is not Terrain.FOREST
    }


def test_IV_2_1_worked_example_archer_on_plain_reaches_2_4_5_7() -> None:
    assert supportable(example_state(), EXAMPLE[1]) == {2, 4, 5, 7}


def test_IV_2_1_worked_example_archer_on_hill_reaches_1_2_4_6_7_10() -> None:
    reached = supportable(example_state(), EXAMPLE[5])
    assert reached == {1, 2, 4, 6, 7, 10}
    assert not reached & {3, 8, 9, 11, 12}


def test_IV_2_1_worked_example_through_judge() -> None:
    # A Greek legion fights on cell 7: archer A (cell 1, range 2, over the foot legion on 4) may support it.
    state = position(
        terrain={"forest": [EXAMPLE[3], EXAMPLE[8], EXAMPLE[9]], "hill": [EXAMPLE[5]]},
        greek={"Messène": EXAMPLE[1], "Samos": EXAMPLE[4], "Telestas": EXAMPLE[5], "Myron": EXAMPLE[7],
               "Apollon": EXAMPLE[11], "Héra": EXAMPLE[8]},
        persian={"Darius": EXAMPLE[7], "Suze": EXAMPLE[11], "Roustem": EXAMPLE[8]},
    )
    assert judge(state, "support Messène Myron").legal
    # Cell 11 is two squares from the hill, but the straight way crosses the forest on 8 and every
    # other way is longer than 3: the support is refused, naming the blocked line of fire.
    assert codes(judge(state, "support Telestas Apollon")) == ["arrows-blocked"]
    verdict = judge(state, "support Telestas Héra")
    assert codes(verdict) == ["combat-in-forest"] and sections(verdict) == {"IV.2-1"}


def test_IV_2_1_lines_of_fire_are_blocked_by_forest_and_hill() -> None:
    state = position(
        terrain={"forest": ["E5"], "hill": ["D4"]},
        greek={"Messène": "E4", "Samos": "E6"},
        persian={"Darius": "E6"},
        active="greek",
    )
    # E4 → E6 is 2 squares, but E5 is a forest; the way round through D4 is a hill, through F4-F5-F6 too long.
    verdict = judge(state, "support Messène Samos")
    assert codes(verdict) == ["arrows-blocked"]


def test_IV_2_1_arrows_pass_over_legions_of_both_sides() -> None:
    state = position(greek={"Messène": "E4", "Samos": "E6"}, persian={"Darius": "E6", "Suze": "E5"})
    verdict = judge(state, "support Messène Samos")
    assert verdict.legal
    assert any(p.startswith("interpretation arrows-over-enemies:") for p in verdict.provisional)  # Suze on E5


def test_IV_2_1_hill_gives_range_three_plain_two_forest_none() -> None:
    base = {"greek": {"Messène": "E4", "Samos": "E7"}, "persian": {"Darius": "E7"}}
    assert codes(judge(position(**base), "support Messène Samos")) == ["out-of-range"]
    assert judge(position(terrain={"hill": ["E4"]}, **base), "support Messène Samos").legal
    verdict = judge(position(terrain={"forest": ["E4"]}, **base), "support Messène Samos")
    assert codes(verdict) == ["archer-in-forest"]


def test_IV_2_1_one_support_per_archer_per_turn() -> None:
    state = position(
        greek={"Messène": "E4", "Samos": "E5", "Myron": "F4"}, persian={"Darius": "E5", "Suze": "F4"},
        supports={"Messène": "Samos"},
    )
    assert codes(judge(state, "support Messène Myron")) == ["archer-already-supporting"]


def test_IV_2_1_one_support_per_legion() -> None:
    state = position(
        greek={"Messène": "E4", "Telestas": "E6", "Samos": "E5"}, persian={"Darius": "E5"},
        supports={"Messène": "Samos"},
    )
    assert codes(judge(state, "support Telestas Samos")) == ["already-supported"]


def test_IV_2_1_an_attacked_archer_cannot_support() -> None:
    state = position(active="persian", greek={"Messène": "E4", "Samos": "E5"}, persian={"Darius": "E5", "Suze": "E4"})
    verdict = judge(state, "support Messène Samos")
    assert codes(verdict) == ["archer-engaged"] and "attacked" in verdict.violations[0].message


def test_IV_2_1_an_attacking_archer_cannot_support_by_default(tmp_path: Path) -> None:
    data = {"greek": {"Messène": "E4", "Samos": "E5"}, "persian": {"Darius": "E5", "Suze": "E4"}}
    verdict = judge(position(**data), "support Messène Samos")
    assert codes(verdict) == ["archer-engaged"]
    assert any("engaged-archer: any-combat" in p for p in verdict.provisional)
    # Players who read the rule literally switch the interpretation in their own rules.yaml.
    export_table_set(packaged_table_set("cyrus-pyxis"), tmp_path)
    rules = tmp_path / "cyrus-pyxis" / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("choice: any-combat", "choice: attacked-only"),
                     encoding="utf-8")
    lenient = position(load_table_set("cyrus-pyxis", tmp_path), **data)
    verdict = judge(lenient, "support Messène Samos")
    assert verdict.legal and any("attacked-only" in p for p in verdict.provisional)


def test_IV_2_1_the_defender_may_be_supported_too() -> None:
    state = position(greek={"Athéna": "E5"}, persian={"Darius": "E5", "Amrith": "E7"})
    assert judge(state, "support Amrith Darius").legal


def test_IV_2_only_archers_support_their_own_side_in_combat() -> None:
    state = position(greek={"Athéna": "E5", "Samos": "E4", "Messène": "D5", "Myron": "C1"},
                     persian={"Darius": "E5", "Amrith": "E7"})
    assert codes(judge(state, "support Samos Athéna")) == ["not-an-archer"]
    assert codes(judge(state, "support Amrith Athéna")) == ["support-enemy"]
    assert codes(judge(state, "support Messène Myron")) == ["not-in-combat"]


def test_III_2_the_attacker_declares_first() -> None:
    state = position(phase="support", greek={"Athéna": "E5", "Messène": "E3"}, persian={"Darius": "E5", "Amrith": "E7"})
    verdict = judge(state, "support Amrith Darius")
    assert codes(verdict) == ["not-declaring"] and sections(verdict) == {"III.2", "VI.1"}
    state = play(state, "support Messène Athéna")  # no other Greek support: the Persian declares now
    assert state.declaring == "persian"
    assert judge(state, "support Amrith Darius").legal


def test_IV_2_2_support_adds_one_and_the_archer_is_untouched() -> None:
    state = position(greek={"Athéna": "E5", "Messène": "E3"}, persian={"Darius": "E5"}, supports={"Messène": "Athéna"})
    _, resolution = ENGINE.resolve_pending(state, None)  # type: ignore[arg-type]
    result = resolution.results[0]
    assert result.attacker.base == 3 and result.attacker.bonus == 1 and result.attacker.total == 4
    assert result.difference == 2 and result.outcome == "defender-retreats"
    assert resolution.position.greek["Messène"] == "E3"
