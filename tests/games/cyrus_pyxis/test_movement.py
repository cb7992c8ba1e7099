"""V: movement (allowances, orthogonal steps, friends and enemies, quotas) and I: leaving the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games.cyrus_pyxis.tables import Phase
from referee.tables import export_table_set, load_table_set, packaged_table_set

from .helpers import ENGINE, codes, judge, play, position, sections


def test_V_king_and_cavalry_move_five_others_three() -> None:
    state = position(greek={"Pyxis": "A1", "Pergame": "C1", "Athéna": "E1", "Centaure": "G1"})
    assert judge(state, "Pyxis A6").legal and judge(state, "Pergame C6").legal
    assert codes(judge(state, "Pyxis A7")) == ["too-far"]
    assert judge(state, "Athéna E4").legal
    verdict = judge(state, "Athéna E5")
    assert codes(verdict) == ["too-far"] and sections(verdict) == {"V"}
    assert codes(judge(state, "Centaure G5")) == ["too-far"]


def test_V_steps_are_orthogonal_never_diagonal() -> None:
    state = position(greek={"Athéna": "E5"})
    assert judge(state, "Athéna F6").legal  # two orthogonal steps
    assert codes(judge(state, "Athéna G7")) == ["too-far"]  # two diagonal steps are four orthogonal ones


def test_V_friends_are_crossed_but_not_shared() -> None:
    state = position(greek={"Athéna": "E5", "Samos": "E6", "Myron": "E7"})
    assert judge(state, "Athéna E8").legal  # over Samos and Myron
    verdict = judge(state, "Athéna E6")
    assert codes(verdict) == ["friend-on-destination"]


def test_V_an_enemy_cannot_be_crossed() -> None:
    state = position(greek={"Athéna": "E5"}, persian={"Darius": "E6"})
    verdict = judge(state, "Athéna E7")
    assert codes(verdict) == ["enemy-in-path"] and "Darius" in verdict.violations[0].message
    assert judge(state, "Athéna F7").legal  # around it: E5-F5-F6-F7


def test_V_ending_on_an_enemy_attacks_it() -> None:
    state = position(greek={"Athéna": "E5"}, persian={"Darius": "E7"})
    verdict = judge(state, "Athéna E7")
    assert verdict.legal
    assert [n.code for n in verdict.notes] == ["route", "attack"]
    after = play(state, "Athéna E7")
    assert ENGINE.legal_report(after, "Darius").cell == "E7"


def test_VI_two_legions_cannot_attack_one_enemy() -> None:
    state = play(position(greek={"Athéna": "E5", "Samos": "D7"}, persian={"Darius": "E7"}), "Athéna E7")
    verdict = judge(state, "Samos E7")
    assert codes(verdict) == ["already-attacked"] and sections(verdict) == {"VI"}


def test_V_pending_combat_cell_is_never_crossed() -> None:
    state = play(position(greek={"Athéna": "E5", "Samos": "D7"}, persian={"Darius": "E7"}), "Athéna E7")
    verdict = judge(state, "Samos F7")  # D7-E7-F7 would cross the combat; every other way takes 4 squares
    assert codes(verdict) == ["enemy-in-path"] and "Darius on E7" in verdict.violations[0].message
    assert "E7" not in ENGINE.legal_report(state, "Samos").cells


def test_V_five_infantry_per_turn() -> None:
    infantry = ["Deïphes", "Apollon", "Phidias", "Samos", "Myron", "Poséidon"]
    state = position(greek={name: f"{row}1" for name, row in zip(infantry, "ABCDEF", strict=True)})
    state = play(state, *[f"{name} {row}2" for name, row in zip(infantry[:5], "ABCDE", strict=True)])
    verdict = judge(state, "Poséidon F2")
    assert codes(verdict) == ["move-quota"] and sections(verdict) == {"V"}


def test_V_one_legion_of_each_other_type() -> None:
    state = position(greek={"Pergame": "A1", "Praxitèle": "B1", "Pyxis": "C1", "Athéna": "D1", "Samos": "E1"})
    state = play(state, "Pergame A2")
    assert codes(judge(state, "Praxitèle B2")) == ["move-quota"]
    assert judge(state, "Pyxis C2").legal and judge(state, "Athéna D2").legal and judge(state, "Samos E2").legal


def test_V_each_legion_moves_once() -> None:
    state = play(position(greek={"Athéna": "D1"}), "Athéna D2")
    assert codes(judge(state, "Athéna D3")) == ["already-moved"]


def test_V_a_move_covers_at_least_one_square() -> None:
    assert codes(judge(position(greek={"Athéna": "D1"}), "Athéna D1")) == ["no-move"]


def test_III_1_only_the_active_side_moves() -> None:
    state = position(active="persian", greek={"Athéna": "D1"}, persian={"Cyrus": "D12"})
    verdict = judge(state, "Athéna D2")
    assert codes(verdict) == ["not-your-legion"] and sections(verdict) == {"III.1"}


def test_VI_eliminated_legions_do_not_move() -> None:
    assert codes(judge(position(greek={"Pyxis": "A1"}), "Athéna D2")) == ["legion-eliminated"]


def test_I_king_leaves_only_by_its_winning_edge() -> None:
    state = position(greek={"Pyxis": "C10", "Athéna": "D12"}, persian={"Cyrus": "H3"})
    verdict = judge(state, "Pyxis off")
    assert verdict.legal and "victory" in [n.code for n in verdict.notes]
    assert any("king-exit" in p for p in verdict.provisional)
    won = play(state, "Pyxis off")
    assert won.phase is Phase.OVER and won.winner == "greek"
    assert ENGINE.legal_actions(won) == []
    assert codes(judge(state, "Athéna off")) == ["only-king-leaves"]
    far = position(greek={"Pyxis": "C6"})
    assert codes(judge(far, "Pyxis off")) == ["too-far"]  # 6 squares to reach the edge, then one more
    persian = position(active="persian", persian={"Cyrus": "F3"})
    assert judge(persian, "Cyrus off").legal  # F3-F2-F1-off: 3 squares, West edge


def test_V_legal_cells_agree_with_judge() -> None:
    state = position(
        terrain={"forest": ["E6"], "hill": ["F5"]},
        greek={"Athéna": "E5", "Samos": "E4", "Pyxis": "L10"},
        persian={"Darius": "E7", "Suze": "D5", "Cyrus": "A12"},
    )
    for legion in ("Athéna", "Samos", "Pyxis"):
        report = ENGINE.legal_report(state, legion)
        grid = state.tables.grid
        for cell in [grid.name(c) for c in grid.cells()] + ["off"]:
            assert judge(state, f"{legion} {cell}").legal == (cell in report.cells), (legion, cell)


def test_V_terrain_cost_comes_from_the_table(tmp_path: Path) -> None:
    export_table_set(packaged_table_set("cyrus-pyxis"), tmp_path)
    path = tmp_path / "cyrus-pyxis" / "terrain.yaml"
    text = path.read_text(encoding="utf-8")
    old = "  forest:\n    label: Forest\n    colour: [46, 120, 52]\n"
    old += "    movement_cost: {value: 1, provenance: provisional}"
    text = text.replace(old, old.replace("{value: 1, provenance: provisional}", "{value: 2, provenance: rulebook}"))
    path.write_text(text, encoding="utf-8")
    terrain = {"forest": ["E6", "D6", "F6"]}
    assert judge(position(terrain=terrain, greek={"Athéna": "E5"}), "Athéna E8").legal  # cost 1 everywhere
    state = position(load_table_set("cyrus-pyxis", tmp_path), terrain=terrain, greek={"Athéna": "E5"})
    verdict = judge(state, "Athéna E8")
    assert codes(verdict) == ["too-far"]  # the forest costs 2: E6 + E7 + E8 = 4 squares
    assert "needs 4 squares" in verdict.violations[0].message
    disclosed = judge(state, "Athéna E6").provisional
    assert any("plain 1" in p for p in disclosed) and not any("forest" in p for p in disclosed)  # now a rulebook value


@pytest.mark.parametrize("text", ["Athéna D2", "athena d2", "ATHENA d-2", "move Athéna to D2", "Athéna → D2"])
def test_V_notation_is_forgiving(text: str) -> None:
    assert judge(position(greek={"Athéna": "D1"}), text).legal
