"""Umpire positions: the position file schema, validation of impossible positions, round trips."""

from __future__ import annotations

import pytest

from referee.errors import PositionError
from referee.games.cyrus_pyxis.tables import Phase
from referee.tables import load_table_set

from .helpers import ENGINE, judge, position

ISSUE_EXAMPLE = {
    "game": "cyrus-pyxis",
    "active": "greek",
    "terrain": {"forest": ["C5", "D5"], "hill": ["F6"]},
    "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},
    "persian": {"Cyrus": "L6", "Amatonte": "B6"},
    "moved": ["Athéna"],
    "supports": {"Messène": "Athéna"},
}


def test_the_example_position_resolves_with_the_support() -> None:
    state = ENGINE.from_position(load_table_set("cyrus-pyxis"), ISSUE_EXAMPLE, "example")
    assert state.phase is Phase.ANY
    _, result = ENGINE.resolve_pending(state, None)  # type: ignore[arg-type]
    combat = result.results[0]
    assert (combat.cell, combat.attacker.total, combat.defender.total) == ("B6", 4, 3)
    assert result.position.persian["Amatonte"] == "B7" and result.position.active == "persian"


def test_positions_round_trip() -> None:
    state = ENGINE.from_position(load_table_set("cyrus-pyxis"), ISSUE_EXAMPLE, "example")
    again = ENGINE.from_position(load_table_set("cyrus-pyxis"), ENGINE.to_position(state).model_dump(mode="json"), "x")
    assert ENGINE.state_hash(again) == ENGINE.state_hash(state)


@pytest.mark.parametrize(
    ("patch", "field", "words"),
    [
        ({"greek": {"Athna": "B6"}}, "greek.Athna", "did you mean 'Athéna'"),
        ({"greek": {"Athéna": "M6"}}, "greek.Athéna", "unknown cell"),
        ({"greek": {"Athéna": "B6", "Samos": "B6"}}, "greek.Samos", "one legion per side per cell"),
        ({"greek": {"Cyrus": "B6"}}, "greek.Cyrus", "persian legion"),
        ({"terrain": {"forest": ["C5"], "hill": ["C5"]}}, "terrain.hill", "both forest and hill"),
        ({"moved": ["Cyrus"]}, "moved", "Cyrus is Persian; it is the Greek turn (III.1"),
        ({"active": "roman"}, "active", "Input should be"),
        ({"colour": "blue"}, "colour", "Extra inputs"),
    ],
)
def test_impossible_positions_are_refused_with_file_and_field(patch: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(PositionError) as info:
        ENGINE.from_position(load_table_set("cyrus-pyxis"), {**ISSUE_EXAMPLE, **patch}, "pos.yaml")
    assert info.value.file == "pos.yaml" and info.value.field == field and words in info.value.problem
    assert "\n" not in str(info.value)


def test_a_position_must_be_a_mapping() -> None:
    with pytest.raises(PositionError, match="mapping"):
        ENGINE.from_position(load_table_set("cyrus-pyxis"), ["A1"], "pos.yaml")


def test_names_match_without_accents_or_case() -> None:
    state = position(greek={"athena": "b6", "MESSENE": "B5"})
    assert set(state.where) == {"Athéna", "Messène"}
    assert judge(state, "ATHENA b7").legal


def test_the_json_schema_documents_the_fields() -> None:
    schema = ENGINE.position_model.model_json_schema()
    assert {"game", "active", "terrain", "greek", "persian", "moved", "supports"} <= set(schema["properties"])
