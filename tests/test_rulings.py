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
