"""Reading a turn from a photo (capture.infer_turn): what the rules make of what a photo shows.

The photos here are perfect readings built from positions (``seen_from_position``); the vision
tests cover reading real image files. Each case plays the true turn through the engine, then
asks the capture to find it from the position before and the cells the photo shows.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.games.cyrus_pyxis.capture import (
    SearchLimits,
    Seen,
    infer_turn,
    legion_cells,
    legion_labels,
    seen_from_position,
)
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Phase

from .helpers import ENGINE, play, position


def labels_read(state: CyrusState) -> dict[str, dict[str, float]]:
    """Perfect label reading: each counter scores 1 for its own legion, 0 for its side's others."""
    labels = legion_labels(state)
    out: dict[str, dict[str, float]] = {}
    for cell, legion in legion_cells(state).items():
        side = labels[legion][0]
        out[cell] = {
            name: (1.0 if name == legion else 0.0) for name, (s, _) in labels.items() if s == side
        }
    return out


def where(state: CyrusState) -> dict[str, str]:
    grid = state.tables.grid
    return {lid: grid.name(c) for lid, c in state.where.items()}


def after(before: CyrusState, *texts: str) -> CyrusState:
    return play(before, *texts)


OPEN: dict[str, Any] = {
    "active": "greek",
    "phase": "move",
    "greek": {"Pyxis": "F1", "Samos": "C3", "Phidias": "E3", "Praxitèle": "H2", "Myron": "K4"},
    "persian": {"Cyrus": "F12", "Darius": "C9", "Suze": "H8"},
}


def test_one_move_is_read_and_played() -> None:
    before = position(**OPEN)
    truth = after(before, "Samos C5", "done")
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "explained"
    assert report.moves == ("Samos C5",)
    assert report.actions == ("Samos C5", "done")
    assert report.position is not None
    assert report.position.greek["Samos"] == "C5"
    assert report.position.active.value == "persian"


def test_which_cells_are_too_doubtful_is_the_photo_readers_decision_alone() -> None:
    before = position(**OPEN)
    truth = after(before, "Samos C5", "done")
    seen = {name: Seen(cell.occupant, cell.terrain, confidence=0.6) for name, cell in seen_from_position(truth).items()}
    assert infer_turn(before, seen).status == "explained"  # the rules do not judge doubt a second time
    del seen["C5"]  # the reader left C5 out: unread
    report = infer_turn(before, seen)
    assert report.unreadable == ("C5",)
    assert report.status == "ambiguous"  # the one explanation changes C5: asked, not assumed


def test_several_moves_far_apart_need_no_labels() -> None:
    before = position(**OPEN)
    truth = after(before, "Samos B5", "Praxitèle H6", "Myron L6", "done")
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "explained"
    assert sorted(report.moves) == ["Myron L6", "Praxitèle H6", "Samos B5"]
    assert report.position is not None and report.position.greek == {
        **OPEN["greek"],
        **where_of(truth),
    }


def where_of(state: CyrusState) -> dict[str, str]:
    return {k: v for k, v in where(state).items() if state.tables.by_id[k].side.value == "greek"}


def test_nothing_moved_is_a_pass() -> None:
    before = position(**OPEN)
    report = infer_turn(before, seen_from_position(before))
    assert report.status == "explained"
    assert report.moves == () and report.actions == ("done",)
    assert any("nothing moved" in n for n in report.notes)


def test_VI_combat_with_a_retreat_is_explained() -> None:
    # cavalry (4 on plain) attacks infantry (2): difference +2, the Persian retreats East (VI)
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Praxitèle": "E4"},
        persian={"Cyrus": "L12", "Darius": "E7"},
    )
    truth = after(before, "Praxitèle E7", "done", "resolve")
    assert where(truth)["Darius"] == "E8" and where(truth)["Praxitèle"] == "E7"
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "explained"
    assert report.actions == ("Praxitèle E7", "done", "resolve")
    assert report.position is not None and report.position.persian["Darius"] == "E8"


def test_VI_attacker_beaten_back_is_explained() -> None:
    # infantry (2) attacks infantry (2) on plain: difference 0, the attacker retreats West
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "E4"},
        persian={"Cyrus": "L12", "Darius": "E6"},
    )
    truth = after(before, "Samos E6", "done", "resolve")
    assert where(truth)["Samos"] == "E5"
    report = infer_turn(before, seen_from_position(truth))
    # the photo cannot tell this from a plain move to E5; both end in the same position, so
    # the simplest is played and the other is named in a note
    assert report.status == "explained"
    assert report.moves == ("Samos E5",)
    assert report.position is not None and report.position.greek["Samos"] == "E5"
    assert any("Samos E6" in n for n in report.notes)


def test_IV2_a_support_the_result_needs_is_inferred() -> None:
    # infantry 2 vs infantry 2 would bounce; with Messène's support (+1) the defender retreats
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "E4", "Messène": "D6"},
        persian={"Cyrus": "L12", "Darius": "E6"},
    )
    truth = after(before, "Samos E6", "done", "support Messène Samos", "resolve")
    assert where(truth)["Darius"] == "E7"
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "explained"
    assert "support Messène Samos" in report.actions
    assert any("supports cannot be seen" in n for n in report.notes)


def test_ambiguous_swap_is_asked_not_guessed() -> None:
    # Samos and Phidias both advance; each could have reached the other's cell
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C3", "Phidias": "D3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos C5", "Phidias D5", "done")
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "ambiguous"
    assert report.explanations == 2
    assert report.position is None and report.actions == ()
    texts = {q.cell: q for q in report.questions}
    assert set(texts) == {"C5", "D5"}
    assert texts["C5"].options == ("Phidias", "Samos")
    assert texts["C5"].text == "which legion is on C5: Phidias or Samos?"


def test_an_answer_settles_the_swap() -> None:
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C3", "Phidias": "D3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos D5", "Phidias C5", "done")
    report = infer_turn(before, seen_from_position(truth), answers={"c5": "phidias"})
    assert report.status == "explained"
    assert report.position is not None
    assert report.position.greek["Phidias"] == "C5" and report.position.greek["Samos"] == "D5"


def test_counter_labels_settle_the_swap() -> None:
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C3", "Phidias": "D3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos D5", "Phidias C5", "done")
    report = infer_turn(before, seen_from_position(truth), identity=labels_read(truth))
    assert report.status == "explained"
    assert sorted(report.moves) == ["Phidias C5", "Samos D5"]


def test_close_label_scores_keep_both_candidates() -> None:
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C3", "Phidias": "D3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos D5", "Phidias C5", "done")
    unsure = labels_read(truth)
    unsure["C5"] = {**unsure["C5"], "Samos": 0.95}  # each label reads almost as well as the other
    unsure["D5"] = {**unsure["D5"], "Phidias": 0.95}
    report = infer_turn(before, seen_from_position(truth), identity=unsure)
    assert report.status == "ambiguous"
    assert {q.cell for q in report.questions} == {"C5", "D5"}


def test_a_relay_is_told_from_a_single_move_by_its_labels() -> None:
    # Phidias steps into Samos's cell after Samos moves on: the photo shows the same sides as
    # "Phidias jumped over Samos"; only the labels tell them apart
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C4", "Phidias": "C3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos C6", "Phidias C4", "done")
    assert infer_turn(before, seen_from_position(truth)).status == "ambiguous"
    report = infer_turn(before, seen_from_position(truth), identity=labels_read(truth))
    assert report.status == "explained"
    assert sorted(report.moves) == ["Phidias C4", "Samos C6"]


def test_no_legal_turn_reports_the_cells() -> None:
    before = position(**OPEN)
    seen = dict(seen_from_position(before))
    seen["C3"] = Seen(None, "plain")
    seen["C10"] = Seen("greek", "plain")  # 7 squares away: infantry moves 3 (V)
    report = infer_turn(before, seen)
    assert report.status == "unexplained"
    cells = {d.cell: d for d in report.disagreements}
    assert {"C3", "C10"} <= set(cells)
    assert "could move" in cells["C10"].problem


def test_terrain_that_moved_is_reported() -> None:
    before = position(**{**OPEN, "terrain": {"forest": ["E6"]}})
    seen = dict(seen_from_position(before))
    seen["E6"] = Seen(None, "plain")
    seen["E7"] = Seen(None, "forest")
    report = infer_turn(before, seen)
    assert report.status == "unexplained"
    assert {d.cell for d in report.disagreements} == {"E6", "E7"}


def test_unreadable_cell_that_did_not_change_is_not_a_problem() -> None:
    before = position(**OPEN)
    truth = after(before, "Samos C5", "done")
    seen = dict(seen_from_position(truth))
    del seen["K4"]  # Myron, unchanged, under a hand: the photo reader left it out
    report = infer_turn(before, seen)
    assert report.status == "explained"
    assert report.unreadable == ("K4",)


def test_unreadable_cell_that_the_turn_changes_is_asked_about() -> None:
    before = position(**OPEN)
    truth = after(before, "Samos C5", "done")
    seen = dict(seen_from_position(truth))
    del seen["C5"]  # read too doubtfully to be given to the rules
    report = infer_turn(before, seen)
    assert report.status == "ambiguous"
    assert report.questions and report.questions[0].cell == "C5"
    assert "Samos" in report.questions[0].text


def test_too_many_unreadable_cells_are_refused() -> None:
    before = position(**OPEN)
    seen = {name: s for name, s in seen_from_position(before).items() if not name.startswith("A")}
    report = infer_turn(before, seen)
    assert report.status == "unreadable"
    assert len(report.unreadable) == 12


def test_search_limit_reached_never_applies() -> None:
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C3", "Phidias": "D3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos C5", "Phidias D5", "done")
    report = infer_turn(before, seen_from_position(truth), limits=SearchLimits(max_nodes=2))
    assert report.status == "ambiguous" and not report.complete
    assert report.position is None


def test_I_king_gone_asks_whether_it_left_or_fell() -> None:
    # Cyrus may leave by the West edge, or attack Centaure and die (king 0 vs elephant 5)
    before = position(
        active="persian",
        phase="move",
        greek={"Pyxis": "L12", "Centaure": "B3"},
        persian={"Cyrus": "B2"},
    )
    truth = after(before, "Cyrus off")
    assert truth.phase is Phase.OVER
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "ambiguous"
    assert any(q.options == ("off", "eliminated") for q in report.questions)
    settled = infer_turn(before, seen_from_position(truth), answers={"Cyrus": "off"})
    assert settled.status == "explained" and settled.actions == ("Cyrus off",)
    assert settled.position is not None and settled.position.winner is not None
    assert settled.position.winner.value == "persian"


def test_a_turn_already_begun_is_finished() -> None:
    before = position(**OPEN)
    begun = after(before, "Samos C5")
    truth = after(begun, "Praxitèle H5", "done")
    report = infer_turn(begun, seen_from_position(truth))
    assert report.status == "explained"
    assert report.moves == ("Praxitèle H5",)


def test_setup_is_not_read() -> None:
    state = ENGINE.new_state(position(**OPEN).tables.table_set)
    report = infer_turn(state, {})
    assert report.status == "unexplained"
    assert "set-up" in report.disagreements[0].problem


@pytest.mark.slow
def test_random_turns_are_recovered_with_labels(rng: random.Random) -> None:
    """Seeded random playouts: every turn the random bot plays is recovered exactly from a
    perfect reading with labels (the search is complete for the turns the rules allow)."""
    from referee.dice import NoDice
    from referee.games.cyrus_pyxis.bot import RandomBot

    state = ENGINE.sample_start()
    assert isinstance(state, CyrusState)
    bot = RandomBot(ENGINE, stop_chance=0.3)
    turns = 0
    while turns < 40 and state.phase is not Phase.OVER:
        before, side = state, state.active
        while state.active is side and state.phase is not Phase.OVER:
            state = ENGINE.apply(state, bot.choose(state, rng).action, NoDice()).state  # type: ignore[assignment]
        report = infer_turn(before, seen_from_position(state), identity=labels_read(state))
        if report.status == "ambiguous":  # only when the photo truly cannot tell (a king's fate)
            assert any(q.options == ("off", "eliminated") for q in report.questions)
            continue
        assert report.status == "explained", (report.model_dump(), before.moved)
        assert report.position is not None
        got = ENGINE.from_position(
            state.tables.table_set, report.position.model_dump(mode="json"), "x"
        )
        assert got.where == state.where
        turns += 1


def test_a_misread_label_falls_back_to_the_rules_alone() -> None:
    before = position(**OPEN)
    truth = after(before, "Samos C5", "done")
    wrong = labels_read(truth)
    wrong["C5"] = {name: (1.0 if name == "Myron" else 0.0) for name in wrong["C5"]}  # misread
    report = infer_turn(before, seen_from_position(truth), identity=wrong)
    assert report.status == "explained"
    assert report.moves == ("Samos C5",)
    assert any("labels fit no legal turn" in n for n in report.notes)


def test_summed_label_scores_choose_between_turns_only_with_a_clear_lead() -> None:
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "C3", "Phidias": "D3"},
        persian={"Cyrus": "L12"},
    )
    truth = after(before, "Samos D5", "Phidias C5", "done")
    close = labels_read(truth)
    close["C5"] = {**close["C5"], "Phidias": 0.80, "Samos": 0.74}  # each cell alone: too close
    close["D5"] = {**close["D5"], "Samos": 0.80, "Phidias": 0.74}
    report = infer_turn(before, seen_from_position(truth), identity=close)
    assert report.status == "explained"  # 0.06 + 0.06 = 0.12: the labels together decide
    assert sorted(report.moves) == ["Phidias C5", "Samos D5"]
    assert any("labels chose" in n for n in report.notes)
    closer = {**close, "D5": {**close["D5"], "Phidias": 0.78}}  # lead 0.08: ask instead
    assert infer_turn(before, seen_from_position(truth), identity=closer).status == "ambiguous"


def test_the_report_carries_the_searchs_verdicts_for_the_file() -> None:
    # capture --apply keeps these rather than judging the turn a second time
    before = position(
        active="greek",
        phase="move",
        greek={"Pyxis": "A1", "Samos": "E4", "Messène": "D6"},
        persian={"Cyrus": "L12", "Darius": "E6"},
    )
    truth = after(before, "Samos E6", "done", "support Messène Samos", "resolve")
    report = infer_turn(before, seen_from_position(truth))
    assert report.status == "explained" and len(report.judged) == len(report.actions)
    judged = dict(zip(report.actions, report.judged, strict=True))
    first = judged["Samos E6"]
    assert first is not None and first[0] == before and first[1].legal and first[1].action == "Samos E6"
    resolve = judged["resolve"]
    assert resolve is not None and ENGINE.judge(resolve[0], ENGINE.parse(resolve[0], "resolve")) == resolve[1]
    assert "judged" not in report.model_dump(mode="json")  # never printed
