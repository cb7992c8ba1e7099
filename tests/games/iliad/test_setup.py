"""Preparazione del gioco: Trojans on the citadel and around it, Greeks on the land-and-sea
squares right of the Scamander and the land row in front, never stacked, Achilles frozen."""

from __future__ import annotations

import pytest
import yaml

from referee.errors import PositionError
from referee.games.iliad.board import Terrain
from referee.games.iliad.roster import Side
from referee.games.iliad.state import Phase
from referee.tables import load_table_set

from .helpers import ENGINE, SAMPLES, codes, faces, judge, play, sections, started


def test_preparazione_the_sample_setup_starts_day_1_with_the_greeks() -> None:
    state = started()
    assert (state.day, state.hour, state.side, state.phase) == (1, 1, Side.GREEK, Phase.DUEL)
    assert len(state.where) == 51 and len(set(state.where.values())) == 51
    board = state.tables.board
    for ident, cell in state.where.items():
        assert board.squares[cell].start is state.counter(ident).side
    assert board.troy <= set(state.where.values())  # the whole citadel is covered
    assert state.start == state.where and state.achilles_sulks


def test_preparazione_greek_start_squares_are_the_shore_right_of_the_scamander_and_the_row_in_front() -> None:
    board = ENGINE.new_state(load_table_set("iliad")).tables.board
    grid = board.grid
    starts = board.starts(Side.GREEK)
    shore = [c for c in starts if board.squares[c].terrain is Terrain.SHORE]
    front = [c for c in starts if board.squares[c].terrain is not Terrain.SHORE]
    scamander = [c for c in grid.cells() if board.squares[c].name == "Scamander"]
    for c in shore:
        row, col = grid.rc(c)
        river_cols = [grid.rc(r)[1] for r in scamander if grid.rc(r)[0] == row]
        assert river_cols and col > max(river_cols)  # right of the Scamander
    assert sorted(grid.step(c, 1, 0) for c in shore) == sorted(front)  # the land row in front
    assert len(starts) == 28


def test_preparazione_counters_go_on_their_own_side_s_free_start_squares() -> None:
    state = ENGINE.new_state(load_table_set("iliad"))
    verdict = judge(state, "Ettore J15")
    assert codes(verdict) == ["not-a-start-square"] and sections(verdict) == {"Preparazione del gioco"}
    assert codes(judge(state, "Diomede S19")) == ["not-a-start-square"]  # a Trojan square
    placed = play(state, "Diomede D13")
    assert codes(judge(placed, "Menelao D13")) == ["square-occupied"]
    assert codes(judge(placed, "Diomede D14")) == ["already-placed"]


def test_preparazione_the_citadel_is_covered_first() -> None:
    state = ENGINE.new_state(load_table_set("iliad"))
    trojans = [c.id for c in state.tables.roster.side(Side.TROJAN)]
    ring = [c for c in state.tables.board.starts(Side.TROJAN) if c not in state.tables.board.troy]
    grid = state.tables.board.grid
    for ident, cell in zip(trojans[:14], ring, strict=False):  # 14 on the ring: 9 left for 9 citadel squares
        state = play(state, f"{ident} {grid.name(cell)}")
    verdict = judge(state, f"{trojans[14]} {grid.name(ring[14])}")
    assert codes(verdict) == ["fill-citadel-first"]
    assert judge(state, f"{trojans[14]} S19").legal


def test_preparazione_achilles_is_placed_and_frozen() -> None:
    state = play(started(), "resolve", dice=faces(3, 3, 3, 3, 3, 3))  # the duel: three equal throws
    assert codes(judge(state, "Achille E14")) == ["not-your-move"]
    greek_hour = play(state, "resolve")
    assert codes(judge(greek_hour, "Achille E14")) == ["achilles-sulks"]


def test_preparazione_setup_files_name_file_and_field_on_errors() -> None:
    state = ENGINE.new_state(load_table_set("iliad"))
    data = yaml.safe_load((SAMPLES / "setup.yaml").read_text(encoding="utf-8"))
    data["greek"]["Achiles"] = data["greek"].pop("Achille")
    expected = r"setup.yaml: greek.Achiles: unknown hero 'Achiles'; did you mean 'Achille'"
    with pytest.raises(PositionError, match=expected):
        ENGINE.setup_actions(state, data, "setup.yaml")
