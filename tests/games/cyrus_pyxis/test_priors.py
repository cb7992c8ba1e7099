"""The priors from the rules (capture.cell_priors): what each cell may hold after one turn.

The property test plays whole turns of seeded random games and checks that what the board shows
after the turn always had a positive prior before it: the priors may over-include, never miss.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from referee.games.cyrus_pyxis.capture import cell_contents, cell_priors
from referee.games.cyrus_pyxis.capture.priors import PRESENT_WEIGHT
from referee.games.cyrus_pyxis.tables import Phase
from referee.tables import load_table_set
from vision.board import load_board
from vision.prior import check

from .helpers import ENGINE, play, position, turn_pairs

OPEN: dict[str, Any] = {
    "active": "greek",
    "phase": "move",
    "greek": {"Pyxis": "F1", "Samos": "C3", "Phidias": "E3", "Praxitèle": "H2", "Myron": "K4"},
    "persian": {"Cyrus": "F12", "Darius": "C5", "Suze": "C6"},
}


def test_movement_a_cell_out_of_every_reach_keeps_its_content() -> None:
    priors = cell_priors(position(**OPEN))
    assert priors["A12"] == {(None, "plain"): 1.0}
    assert priors["F12"] == {("persian", "plain"): 1.0}  # Cyrus: no Greek reaches it this turn


def test_movement_a_cell_a_legion_can_reach_may_hold_its_side() -> None:
    priors = cell_priors(position(**OPEN))
    assert priors["C4"][("greek", "plain")] > 0  # Samos, one square
    assert priors["C4"][(None, "plain")] > 0


def test_movement_a_legion_that_may_move_may_leave_its_cell_empty() -> None:
    priors = cell_priors(position(**OPEN))
    assert priors["C3"][(None, "plain")] > 0
    assert priors["C3"][("greek", "plain")] >= PRESENT_WEIGHT  # the present content is favoured


def test_combat_an_attackable_cell_may_end_with_either_side_never_empty() -> None:
    priors = cell_priors(position(**OPEN))
    assert set(priors["C5"]) == {("greek", "plain"), ("persian", "plain")}  # Darius, attacked by Samos


def test_combat_retreat_runs_over_friends_to_the_first_free_cell() -> None:
    priors = cell_priors(position(**OPEN))
    # Darius beaten on C5 retreats East over Suze (C6) onto C7, which no Greek reaches this turn
    assert set(priors["C7"]) == {(None, "plain"), ("persian", "plain")}
    assert priors["C8"] == {(None, "plain"): 1.0}


def test_combat_a_pending_combat_and_its_retreats() -> None:
    state = position(active="greek", phase="combat", greek={"Pyxis": "A1", "Samos": "C5"},
                     persian={"Cyrus": "L12", "Darius": "C5"})
    priors = cell_priors(state)
    assert set(priors["C5"]) == {("greek", "plain"), ("persian", "plain")}
    assert ("persian", "plain") in priors["C6"] and ("greek", "plain") in priors["C4"]
    assert priors["C3"] == {(None, "plain"): 1.0}  # nothing moves in the combat step
    assert priors["A1"] == {("greek", "plain"): 1.0}


def test_terrain_never_changes_in_a_turn() -> None:
    state = position(**OPEN, terrain={"forest": ["C4"], "hill": ["D3"]})
    priors = cell_priors(state)
    assert {t for _, t in priors["C4"]} == {"forest"} and {t for _, t in priors["D3"]} == {"hill"}


def test_setup_a_board_being_set_up_keeps_every_cell() -> None:
    state = play(ENGINE.new_state(load_table_set("cyrus-pyxis")), "forest C4")
    assert state.phase is Phase.SETUP
    priors = cell_priors(state)
    assert all(list(p.values()) == [1.0] for p in priors.values())
    assert priors["C4"] == {(None, "forest"): 1.0}


def test_goal_a_game_over_keeps_every_cell() -> None:
    state = position(active="greek", phase="over", winner="greek", greek={"Samos": "C3"},
                     persian={"Darius": "C5"})
    assert state.phase is Phase.OVER
    priors = cell_priors(state)
    assert all(list(p.values()) == [1.0] for p in priors.values())
    assert {c: next(iter(p)) for c, p in priors.items()} == cell_contents(state)


def test_each_cells_priors_sum_to_one_and_include_the_present() -> None:
    state = play(position(**OPEN), "Samos C5")  # a turn under way, one combat pending
    present = cell_contents(state)
    priors = cell_priors(state)
    assert set(priors) == set(present)
    for cell, weights in priors.items():
        assert math.isclose(sum(weights.values()), 1.0), (cell, weights)
        assert weights.get(present[cell], 0) > 0 and all(w > 0 for w in weights.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_property_what_a_turn_leaves_always_had_a_positive_prior(seed: int) -> None:
    """III, V, VI: from random positions, the whole turn the bot plays never leaves a cell's
    content the priors ruled out."""
    certain = cells = 0
    for before, after in turn_pairs(20, seed):
        priors = cell_priors(before)
        for cell, content in cell_contents(after).items():
            assert priors[cell].get(content, 0) > 0, (cell, content, priors[cell], ENGINE.to_position(before))
        certain += sum(1 for p in priors.values() if len(p) == 1)
        cells += len(priors)
    assert 0 < certain < cells  # neither uninformative nor blind to what moves


def test_movement_a_legion_hemmed_in_by_combats_keeps_its_cell() -> None:
    state = position(active="greek", phase="move", moved=["Phidias", "Myron"],
                     greek={"Pyxis": "L1", "Samos": "A1", "Phidias": "A2", "Myron": "B1"},
                     persian={"Cyrus": "L12", "Darius": "A2", "Suze": "B1"})
    priors = cell_priors(state)
    assert priors["A1"] == {("greek", "plain"): 1.0}  # V: a pending combat is neither entered nor crossed
    # each pending combat shows both counters now: its winner is either side, weighted alike
    assert priors["A2"] == {("greek", "plain"): 0.5, ("persian", "plain"): 0.5}


def test_the_priors_fit_the_photo_readers_board() -> None:
    """The rules side and the vision side meet: vision accepts every prior the rules give."""
    board = load_board("cyrus-pyxis")
    for state in (position(**OPEN, terrain={"forest": ["C4"], "hill": ["D3"]}), play(position(**OPEN), "Samos C5")):
        priors = cell_priors(state)
        check(priors, board)  # raises PriorsError on an unknown cell, side, terrain or a bad sum
        assert set(priors) == set(board.cell_names())
