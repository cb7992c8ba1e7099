"""Rulings: citations resolve at import; every section is cited; verdicts serialise as designed."""

from __future__ import annotations

import json

import pytest

from referee.errors import TableError
from referee.games import all_games
from referee.rulings import RuleRef, Ruling, Verdict, load_rules


def test_unknown_section_fails_at_resolution() -> None:
    with pytest.raises(TableError, match="no section 'XIV'"):
        load_rules("cyrus-pyxis").ref("XIV")


@pytest.mark.parametrize("game", [g.info.slug for g in all_games()])
def test_every_section_is_cited(game: str) -> None:
    import importlib

    package = next(g for g in all_games() if g.info.slug == game).info.package
    rules = importlib.import_module(f"referee.games.{package}.rules").RULES
    assert rules.uncited() == []


def test_verdict_json_has_the_designed_keys() -> None:
    ref = RuleRef(game="cyrus-pyxis", section="V", title="Movement")
    verdict = Verdict(action="Pyxis C5", violations=(Ruling.violation("too-far", "far", (ref,)),))
    data = json.loads(verdict.model_dump_json())
    assert data["legal"] is False
    assert data["violations"][0] == {
        "code": "too-far", "message": "far", "cites": [{"game": "cyrus-pyxis", "section": "V", "title": "Movement"}]
    }
    assert data["provisional"] == []
    assert Verdict(action="x").legal


def test_an_interpretation_choice_must_be_one_of_its_options() -> None:
    from referee.rulings import RulesIndex
    from referee.tables import parse_yaml

    text = (
        "sections: {}\ninterpretations:\n  - {id: x, question: q, choice: maybe, options: [strict, lenient]}\n"
    )
    with pytest.raises(TableError, match=r"interpretations\.x\.choice: must be one of strict, lenient"):
        parse_yaml("rules.yaml", text, RulesIndex)
    index = parse_yaml("rules.yaml", text.replace("maybe", "strict"), RulesIndex)
    assert index.require("rules.yaml", ["x"]) == {"x": "strict"}
    with pytest.raises(TableError, match=r"missing interpretation 'y'"):
        index.require("rules.yaml", ["x", "y"])
