"""The shipped Zargo set-ups (PRÉPARATION DU JEU): two, three and four players, each loaded as a
group would type it, then played on by the bot through the game file."""

from __future__ import annotations

import json

import pytest

from referee.games import find_game
from referee.journal import GameFile
from tests.cli.conftest import Referee


@pytest.mark.parametrize(("name", "players", "continents"), [
    ("setup-2.yaml", 2, 2), ("setup-3.yaml", 3, 1), ("setup.yaml", 4, 1),
])
def test_preparation_sample_set_ups_for_two_three_and_four_players(referee: Referee, name: str, players: int,
                                                                     continents: int) -> None:
    assert referee("new", "zargo", "--setup", name).code == 0
    with GameFile.open(referee.cwd / "game.referee", find_game) as gf:
        state = gf.state()
        assert state.players == players and len(state.peoples) == players  # type: ignore[attr-defined]
        assert all(len(c) == continents for c in state.continents.values())  # type: ignore[attr-defined]
        for people in state.peoples:  # type: ignore[attr-defined]
            placed = sum(1 for stack in state.board.values() for lab in stack  # type: ignore[attr-defined]
                         if state.tables.units[lab].people == people)  # type: ignore[attr-defined]
            assert sum(c.founder == people for c in state.cities.values()) == 4 and placed >= 10  # type: ignore[attr-defined]
    done = referee("bot", "--moves", "30", "--seed", "2", "--json")
    assert done.code == 0, done.err
    assert len(json.loads(done.out)["played"]) == 30
