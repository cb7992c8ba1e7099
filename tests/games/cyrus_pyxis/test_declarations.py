"""Position files are judged (issue 9): every declaration goes through the checks of the game.

Each case below is a declaration the referee used to apply without a word; now the file is
refused with one line naming the field and the rule, or what it implies is derived.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.dice import NoDice
from referee.errors import PositionError
from referee.games.cyrus_pyxis.tables import Phase
from referee.tables import load_table_set

from .helpers import ENGINE, codes, judge, position

INFANTRY = ("Deïphes", "Apollon", "Phidias", "Samos", "Myron", "Poséidon")
PERSIAN_INFANTRY = ("Cambyse", "Apadana", "Nakché", "Darius", "Suze", "Roustem")


def refused(**data: Any) -> PositionError:
    with pytest.raises(PositionError) as info:
        position(**data)
    err = info.value
    assert err.file == "test" and "\n" not in str(err)
    return err


IMPOSSIBLE: list[tuple[str, dict[str, Any], str, list[str]]] = [
    # The issue's own example: an archer in a forest, 9+ squares away, a combat in a forest.
    ("archer in a forest, far away, combat in a forest",
     {"terrain": {"forest": ["B6", "J3"]}, "greek": {"Apollon": "B6", "Messène": "J3"}, "persian": {"Darius": "B6"},
      "supports": {"Messène": "Apollon"}},
     "supports.Messène", ["in the forest on J3", "fights in the forest on B6", "11 squares", "IV.2-1"]),
    ("royal guard supporting",
     {"greek": {"Apollon": "B6", "Athéna": "B5"}, "persian": {"Darius": "B6"}, "supports": {"Athéna": "Apollon"}},
     "supports.Athéna", ["not an archer", "IV.2 Archers"]),
    ("Persian archer supporting a Greek legion",
     {"greek": {"Apollon": "B6"}, "persian": {"Darius": "B6", "Amrith": "B5"}, "supports": {"Amrith": "Apollon"}},
     "supports.Amrith", ["only its own side", "IV.2 Archers"]),
    ("archer out of range on a plain",
     {"greek": {"Apollon": "B6", "Messène": "F6"}, "persian": {"Darius": "B6"}, "supports": {"Messène": "Apollon"}},
     "supports.Messène", ["reaches 2 squares", "4 away", "IV.2-1"]),
    ("line of fire through a hill",
     {"terrain": {"hill": ["C6"]}, "greek": {"Apollon": "B6", "Messène": "D6"}, "persian": {"Darius": "B6"},
      "supports": {"Messène": "Apollon"}}, "supports.Messène", ["passes through forest or hill", "IV.2-1"]),
    ("two archers on one legion",
     {"greek": {"Apollon": "B6", "Messène": "B5", "Telestas": "B7"}, "persian": {"Darius": "B6"},
      "supports": {"Messène": "Apollon", "Telestas": "Apollon"}},
     "supports.Telestas", ["already has Messène's support", "IV.2-1"]),
    ("an attacking archer supporting (engaged-archer: any-combat)",
     {"greek": {"Apollon": "B6", "Messène": "B5"}, "persian": {"Darius": "B6", "Suze": "B5"},
      "supports": {"Messène": "Apollon"}}, "supports.Messène", ["attacking on B5", "IV.2-1"]),
    ("a supported legion not in a combat",
     {"greek": {"Apollon": "B6", "Messène": "B5"}, "persian": {"Darius": "L6"}, "supports": {"Messène": "Apollon"}},
     "supports.Messène", ["not in a combat", "IV.2"]),
    ("supports declared during the movement step",
     {"phase": "move", "greek": {"Apollon": "B6", "Messène": "B5"}, "persian": {"Darius": "B6"},
      "supports": {"Messène": "Apollon"}}, "supports.Messène", ["movement is over", "III.2"]),
    ("defender's support while the attacker still declares",
     {"phase": "support", "declaring": "greek", "greek": {"Apollon": "B6", "Messène": "B4"},
      "persian": {"Darius": "B6", "Amrith": "B8"}, "supports": {"Amrith": "Darius"}},
     "supports.Amrith", ["Greek declares supports now", "VI.1"]),
    ("supports in a finished game",
     {"winner": "greek", "greek": {"Apollon": "B6", "Messène": "B5", "Pyxis": "A1"}, "persian": {"Darius": "B6"},
      "supports": {"Messène": "Apollon"}}, "supports.Messène", ["game is over"]),
    # moved lists and attackers (V, VI)
    ("six infantry moved",
     {"greek": {n: f"A{i + 1}" for i, n in enumerate(INFANTRY)}, "moved": list(INFANTRY)},
     "moved", ["infantry move 6", "the limit is 5", "V Movement"]),
    ("a legion listed twice in moved",
     {"greek": {"Apollon": "A1"}, "moved": ["Apollon", "Apollon"]}, "moved", ["already moved", "V Movement"]),
    ("an eliminated legion in moved",
     {"greek": {"Apollon": "A1"}, "moved": ["Samos"]}, "moved", ["Samos was eliminated", "VI Combat"]),
    ("two cavalry attacking in one turn",
     {"active": "persian", "greek": {"Samos": "H5", "Athéna": "H6"}, "persian": {"Tyr": "H5", "Sidon": "H6"}},
     "persian.Sidon", ["second cavalry move", "so it moved in to attack", "V Movement"]),
    ("a sixth infantry attacking after five moved",
     {"greek": {**{n: f"A{i + 1}" for i, n in enumerate(INFANTRY[:5])}, "Héra": "F6"}, "persian": {"Darius": "F6"},
      "moved": list(INFANTRY[:5])}, "greek.Héra", ["infantry move 6", "so it moved in to attack"]),
    ("an attacker walled in by enemies",
     {"greek": {"Apollon": "A1"}, "persian": {"Darius": "A1", "Suze": "A2", "Roustem": "B1"}},
     "greek.Apollon", ["cannot have moved to A1", "crosses an enemy", "V Movement"]),
    ("an attacker with no cell to come from",
     {"greek": {"Apollon": "A1"}, "persian": {"Darius": "A1", "Suze": "A2", "Roustem": "B1", "Parthes": "B2",
                                               "Cambyse": "A3", "Apadana": "C1", "Nakché": "A4", "Kingavar": "D1",
                                               "Jasili": "C2", "Persagade": "B3"}},
     "greek.Apollon", ["every cell within 3 squares of it is taken", "III.1"]),
    # the step of the turn (III, I)
    ("declaring outside the support step",
     {"phase": "move", "declaring": "persian", "greek": {"Apollon": "A1"}}, "declaring", ["only in the support step"]),
    ("support step without a combat",
     {"phase": "support", "greek": {"Apollon": "A1"}, "persian": {"Darius": "L1"}}, "phase", ["no combat"]),
    ("combat step without a combat",
     {"phase": "combat", "greek": {"Apollon": "A1"}}, "phase", ["no combat"]),
    ("a winner while both kings are on the board",
     {"winner": "persian", "greek": {"Pyxis": "A1"}, "persian": {"Cyrus": "L1"}}, "winner", ["both on the board"]),
    ("a finished game without a winner",
     {"phase": "over", "greek": {"Pyxis": "A1"}}, "winner", ["names its winner"]),
    ("a winner and a step in play",
     {"phase": "move", "winner": "greek", "greek": {"Pyxis": "A1"}}, "phase", ["no move step"]),
]


@pytest.mark.parametrize(("case", "data", "field", "words"), IMPOSSIBLE, ids=[c[0] for c in IMPOSSIBLE])
def test_impossible_declarations_are_refused_in_one_line(case: str, data: dict[str, Any], field: str,
                                                         words: list[str]) -> None:
    err = refused(**data)
    assert err.field == field, str(err)
    for word in words:
        assert word in err.problem, (word, str(err))


def test_an_attacker_in_its_combat_has_moved_and_cannot_walk_out() -> None:
    state = position(greek={"Apollon": "B6"}, persian={"Darius": "B6"})
    assert state.moved == ("Apollon",)
    verdict = judge(state, "Apollon B4")
    assert codes(verdict) == ["already-moved"]
    # Declared in moved, the same; the defender belongs to the side not playing.
    assert position(greek={"Apollon": "B6"}, persian={"Darius": "B6"}, moved=["Apollon"]).moved == ("Apollon",)
    assert codes(judge(state, "Darius B8")) == ["not-your-legion"]


def test_an_attacker_counts_against_the_quota() -> None:
    four = list(INFANTRY[:4])
    state = position(greek={**{n: f"A{i + 1}" for i, n in enumerate(four)}, "Héra": "F6", "Scopas": "H1"},
                     persian={"Darius": "F6"}, moved=four)
    assert state.moved == (*four, "Héra")
    assert codes(judge(state, "Scopas H2")) == ["move-quota"]


def test_the_legal_example_still_loads_with_its_support() -> None:
    state = position(active="greek", terrain={"forest": ["C5", "D5"], "hill": ["F6"]},
                     greek={"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"}, persian={"Cyrus": "L6", "Amatonte": "B6"},
                     moved=["Athéna"], supports={"Messène": "Athéna"})
    assert state.supports == {"Messène": "Athéna"}
    _, result = ENGINE.resolve_pending(state, NoDice())
    assert result.results[0].attacker.support == "Messène"


def test_supports_of_both_sides_in_the_combat_step() -> None:
    state = position(phase="combat", greek={"Apollon": "B6", "Messène": "B4"}, persian={"Darius": "B6", "Amrith": "B8"},
                     supports={"Amrith": "Darius", "Messène": "Apollon"})
    assert state.phase is Phase.COMBAT and state.supports == {"Amrith": "Darius", "Messène": "Apollon"}
    assert ENGINE.open_declarations(state) == ()


def test_a_defender_support_in_the_support_step_means_the_attacker_is_done() -> None:
    state = position(phase="support", greek={"Apollon": "B6", "Messène": "B4", "Samos": "C5"},
                     persian={"Darius": "B6", "Amrith": "B8", "Suze": "C5", "Maabed": "C7"},
                     supports={"Amrith": "Darius"})
    assert state.phase is Phase.SUPPORT and state.declaring == "persian"
    assert codes(judge(state, "support Messène Apollon")) == ["not-declaring"]
    assert [r.message for r in ENGINE.open_declarations(state)] == [
        "supports.Maabed: Maabed (Persian) could still support Suze"]
    # Without Maabed nothing is left to declare; the file still says support step, and so does judge.
    closed = position(phase="support", greek={"Apollon": "B6", "Messène": "B4"},
                      persian={"Darius": "B6", "Amrith": "B8"}, supports={"Amrith": "Darius"})
    assert closed.phase is Phase.SUPPORT and closed.supports == {"Amrith": "Darius"}
    assert ENGINE.open_declarations(closed) == ()


def test_III_2_the_declaring_side_written_is_the_one_judged() -> None:
    # The file says the Greek declares, though no Greek archer can reach: the Persian waits.
    state = position(phase="support", declaring="greek", greek={"Apollon": "B6", "Messène": "L1"},
                     persian={"Darius": "B6", "Amrith": "B8"})
    assert state.phase is Phase.SUPPORT and state.declaring == "greek"
    assert codes(judge(state, "support Amrith Darius")) == ["not-declaring"]


def test_III_2_a_support_step_with_nothing_left_judges_supports_there() -> None:
    # Telestas attacks Tyr and no archer can support: the file's support step is still the step
    # judged, so the attacking archer is refused for being engaged, not for the step being over.
    state = position(phase="support", greek={"Pyxis": "A6", "Telestas": "C6", "Athéna": "B6"},
                     persian={"Cyrus": "L6", "Amatonte": "B6", "Tyr": "C6"})
    assert state.phase is Phase.SUPPORT
    verdict = judge(state, "support Telestas Athéna")
    assert codes(verdict) == ["archer-engaged"]
    assert any("engaged-archer" in p for p in verdict.provisional)


def test_open_supports_are_listed() -> None:
    state = position(phase="support", greek={"Apollon": "B6", "Messène": "B4"},
                     persian={"Darius": "B6", "Amrith": "B8"})
    open_ = ENGINE.open_declarations(state)
    assert [r.code for r in open_] == ["support-open", "support-open"]
    assert "Messène (Greek) could still support Apollon" in open_[0].message
    assert {c.section for r in open_ for c in r.cites} == {"III.2", "VI.1"}
    declared = position(phase="support", greek={"Apollon": "B6", "Messène": "B4"},
                        persian={"Darius": "B6", "Amrith": "B8"}, supports={"Messène": "Apollon"})
    assert [r.message for r in ENGINE.open_declarations(declared)] == [
        "supports.Amrith: Amrith (Persian) could still support Darius"]


def test_the_core_engine_default_has_nothing_open() -> None:
    from referee.game import Engine
    from tests.race_game import RaceEngine

    assert type(ENGINE).open_declarations is not Engine.open_declarations
    race = RaceEngine()
    assert race.open_declarations(race.new_state(None)) == ()  # type: ignore[arg-type]


def test_a_refused_position_names_the_file_through_from_position() -> None:
    data = {"game": "cyrus-pyxis", "greek": {"Apollon": "B6", "Athéna": "B5"}, "persian": {"Darius": "B6"},
            "supports": {"Athéna": "Apollon"}}
    with pytest.raises(PositionError, match=r"^pos\.yaml: supports\.Athéna: Athéna is a royal guard, not an archer"):
        ENGINE.from_position(load_table_set("cyrus-pyxis"), data, "pos.yaml")
