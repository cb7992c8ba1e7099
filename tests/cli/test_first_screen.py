"""A first screen that fits (issue 35): ``referee new GAME`` in at most 25 lines of at most 100
columns, in every language, for every game; the complete list of readings and stand-ins stays
in ``referee tables``, ``referee why --all`` and ``new --json``."""

from __future__ import annotations

import json

import pytest

from referee.games import GAME_PACKAGES
from tests.cli.conftest import Referee

MAX_LINES = 25
MAX_COLUMNS = 100


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_new_fits_a_first_screen(referee: Referee, game: str, lang: str) -> None:
    result = referee("--lang", lang, "new", game)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert len(lines) <= MAX_LINES, result.out
    assert max(len(line) for line in lines) <= MAX_COLUMNS, result.out
    assert "game.referee" in result.out
    assert f"referee tables {game}" in result.out  # the one line counting readings and stand-ins
    status = json.loads(referee("--lang", lang, "status", "--json").out)
    first = status[0] if isinstance(status, list) else status["status"][0]
    assert " ".join(first.split()) in " ".join(result.out.split())  # whose turn, as status says it


def test_new_counts_what_tables_and_json_list_in_full(referee: Referee) -> None:
    shown = referee("new", "cyrus-pyxis")
    data = json.loads(referee("new", "cyrus-pyxis", "--force", "--json").out)
    readings = sum(1 for d in data["disclosures"] if d.startswith("interpretation "))
    assert f"{readings} readings and " in shown.out
    listing = referee("tables", "cyrus-pyxis")
    full = referee("why", "--all")
    for item in data["disclosures"]:
        head = item.split(":", 1)[0]
        assert head in listing.out and head in full.out
