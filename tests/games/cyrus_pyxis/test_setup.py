"""II: set-up order and placement limits."""

from __future__ import annotations

import pytest
import yaml

from referee.dice import NoDice
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Phase, Side
from referee.tables import data_root, load_table_set

from .helpers import ENGINE, codes, judge, play, sections

GREEK_FORESTS = ["C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10", "D3", "D4", "D5", "D6", "D7", "D8"]
PERSIAN_FORESTS = ["E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "F3", "F4", "F5", "F6", "F7", "F8"]
GREEK_HILLS = ["G3", "G4", "G5", "G6", "G7", "G8"]
PERSIAN_HILLS = ["H3", "H4", "H5", "H6", "H7", "H8"]


def fresh() -> CyrusState:
    return ENGINE.new_state(load_table_set("cyrus-pyxis"))


def terrain_done() -> CyrusState:
    texts = [f"forest {c}" for c in GREEK_FORESTS + PERSIAN_FORESTS]
    texts += [f"hill {c}" for c in GREEK_HILLS + PERSIAN_HILLS]
    return play(fresh(), *texts)


def test_II_1_greek_lays_forests_first() -> None:
    state = fresh()
    assert ENGINE.to_act(state) == "greek"
    assert judge(state, "forest C5").legal
    verdict = judge(state, "hill C5")
    assert codes(verdict) == ["wrong-phase"] and "II.1" in sections(verdict)
    assert codes(judge(state, "Pyxis A1")) == ["wrong-phase"]


def test_II_1_persian_lays_forests_after_the_greek() -> None:
    state = play(fresh(), *[f"forest {c}" for c in GREEK_FORESTS])
    assert ENGINE.to_act(state) == "persian"
    assert judge(state, "forest E5").legal


@pytest.mark.parametrize("cell", ["B1", "B2", "B11", "B12", "L1", "A12"])
def test_II_1_no_terrain_on_lines_1_2_11_12(cell: str) -> None:
    verdict = judge(fresh(), f"forest {cell}")
    assert codes(verdict) == ["terrain-line"] and sections(verdict) == {"II.1"}


def test_II_one_token_per_cell() -> None:
    state = play(fresh(), "forest C5")
    verdict = judge(state, "forest C5")
    assert codes(verdict) == ["cell-occupied"] and "Matériel II.2" in sections(verdict)


def test_II_2_hills_after_all_forests() -> None:
    forests = play(fresh(), *[f"forest {c}" for c in GREEK_FORESTS + PERSIAN_FORESTS])
    assert codes(judge(forests, "forest K5")) == ["wrong-phase"]
    assert judge(forests, "hill K5").legal
    assert codes(judge(forests, "hill K11")) == ["terrain-line"]
    assert codes(judge(forests, "hill C5")) == ["cell-occupied"]


def test_II_3_greek_deploys_on_lines_1_and_2() -> None:
    state = terrain_done()
    assert ENGINE.to_act(state) == "greek"
    assert judge(state, "Pyxis A1").legal and judge(state, "Pyxis L2").legal
    verdict = judge(state, "Pyxis A3")
    assert codes(verdict) == ["setup-line"] and sections(verdict) == {"II.3"}
    assert codes(judge(state, "Cyrus A12")) == ["not-your-legion"]
    placed = play(state, "Pyxis A1")
    assert codes(judge(placed, "Pyxis A2")) == ["already-placed"]
    assert codes(judge(placed, "Athéna A1")) == ["cell-occupied"]


def test_II_4_persian_deploys_on_lines_11_and_12() -> None:
    state = terrain_done()
    greeks = [lg for lg in state.tables.legions if lg.side is Side.GREEK]
    cells = [f"{row}{n}" for n in (1, 2) for row in "ABCDEFGHIJKL"]
    state = play(state, *[f"{lg.name} {cell}" for lg, cell in zip(greeks, cells, strict=False)])
    assert ENGINE.to_act(state) == "persian"
    assert judge(state, "Cyrus F12").legal
    verdict = judge(state, "Cyrus F10")
    assert codes(verdict) == ["setup-line"] and sections(verdict) == {"II.4"}


def test_II_5_greek_plays_first_after_the_sample_setup() -> None:
    data = yaml.safe_load((data_root("samples") / "cyrus-pyxis" / "setup.yaml").read_text(encoding="utf-8"))
    state: CyrusState = fresh()
    events = []
    for text in ENGINE.setup_actions(state, data, "setup.yaml"):
        state, record = ENGINE.play(state, ENGINE.parse(state, text), NoDice())  # type: ignore[assignment]
        events += record.events
    assert state.phase is Phase.MOVE and state.active is Side.GREEK and state.turn == 1
    final = [e for e in events if e.code == "setup-complete"]
    assert final and {c.section for c in final[0].cites} == {"II.5"}
    assert len(state.where) == 40
    assert sum(1 for t in state.terrain.values() if t == "forest") == 28
    assert sum(1 for t in state.terrain.values() if t == "hill") == 12


def test_II_legal_setup_actions_agree_with_judge() -> None:
    for state in (fresh(), terrain_done()):
        legal = ENGINE.legal_actions(state)
        assert legal and all(ENGINE.judge(state, a).legal for a in legal)
