"""``referee bot``: each game's bot chooses a legal action and plays it through the game file."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.tables import data_root
from tests.cli.conftest import Referee

SETUPS = {"cyrus-pyxis": "setup.yaml", "iliad": "setup.yaml", "300-solo": "solo-setup.yaml"}


@pytest.mark.parametrize("slug", sorted(SETUPS))
def test_the_bot_plays_a_legal_action_in_every_game(referee: Referee, slug: str) -> None:
    setup = data_root("samples") / slug / SETUPS[slug]
    assert referee("new", slug, "--setup", str(setup)).code == 0
    before = referee("log", "--json").out
    result = referee("bot", "--seed", "7")
    assert result.code == 0, result.err
    assert result.out.startswith("the bot plays ")
    assert referee("log", "--json").out != before  # journaled like `do`


def test_dry_run_changes_nothing_and_json_names_the_choice(referee: Referee, game: Path) -> None:
    before = game.read_bytes()
    result = referee("bot", "--dry-run", "--json", "--seed", "1")
    assert result.code == 0 and '"action"' in result.out and '"reason"' in result.out
    assert game.read_bytes() == before


def test_pers_ia_plays_persia_only(referee: Referee) -> None:
    setup = data_root("samples") / "300-solo" / "solo-setup.yaml"
    assert referee("new", "300-solo", "--setup", str(setup)).code == 0
    assert referee("bot").code == 0  # PERS.IA's preparation
    game = referee.cwd / "game.referee"
    before = game.read_bytes()
    refused = referee("bot")
    assert refused.code == 1 and "the bot plays persia; greece is to act" in refused.err
    assert game.read_bytes() == before
