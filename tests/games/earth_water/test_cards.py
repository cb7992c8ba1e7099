"""300 solo cards (issue 15): the deck as data, the Greek hand, card events and reactions, and the
override-during-a-battle crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.common import reset_consoles

BATTLE = {"phase": "operations", "active": "greece", "hands": {"persia": 2, "greece": 1},
          "battle": {"city": "Thebai", "attacker": "greece", "origin": "Athenai"},
          "cities": {"Thebai": {"greek_armies": 1, "persian_armies": 1}, "Athenai": {"greek_armies": 1},
                     "Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 3}}}


@pytest.fixture
def runner() -> CliRunner:
    reset_consoles()
    return CliRunner()


def _game(tmp_path: Path, runner: CliRunner, position: dict[str, object]) -> str:
    game = str(tmp_path / "solo.referee")
    assert runner.invoke(app, ["new", "300-solo", "--file", game]).exit_code == 0
    result = runner.invoke(app, ["do", "setup " + json.dumps(position), "--file", game])
    assert result.exit_code == 0, result.output
    return game


@pytest.mark.parametrize(("override", "then", "winner"), [
    ("set Thebai greek armies 0", "fight", "Persia"), ("set Thebai persian armies 0", "resolve", "Greece"),
    ("add Thebai greek armies -1", "resolve", "Persia")])
def test_an_override_that_empties_a_battle_side_ends_the_battle(tmp_path: Path, runner: CliRunner, override: str,
                                                               then: str, winner: str) -> None:
    # issue 15: this used to crash fight/resolve with "max() arg is an empty sequence"
    game = _game(tmp_path, runner, BATTLE)
    result = runner.invoke(app, ["adjust", override, "--reason", "card effect", "--file", game])
    assert result.exit_code == 0, result.output
    assert f"{winner} wins the battle of Thebai" in result.output
    before = Path(game).read_bytes()
    result = runner.invoke(app, ["do", then, "--file", game])
    assert result.exit_code == 1, result.output  # refused like any action out of its moment, no traceback
    assert "no-battle" in result.output
    assert Path(game).read_bytes() == before
    status = runner.invoke(app, ["status", "--file", game])
    assert status.exit_code == 0 and "Battle in" not in status.output
