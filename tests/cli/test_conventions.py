"""Command-line conventions a new user expects (issue 14): -h, --version, sensible defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.conftest import Referee


def test_dash_h_is_help_on_every_level(referee: Referee) -> None:
    for args in (["-h"], ["dice", "-h"], ["do", "-h"], ["persia", "operate", "-h"]):
        result = referee(*args)
        assert result.code == 0 and "Usage:" in result.out, args


def test_version_is_printed_and_nothing_else_runs() -> None:
    result = subprocess.run([sys.executable, "-m", "referee", "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("referee ") and result.stderr == ""


def test_dice_verify_defaults_to_the_game_file(referee: Referee, game: Path) -> None:
    result = referee("dice", "verify")
    assert result.code == 0, result.err
    missing = referee("dice", "verify", "nope.referee")
    assert missing.code == 1 and "nope.referee" in missing.err


def test_position_commands_take_the_game_from_the_file(referee: Referee, tmp_path: Path) -> None:
    from referee.tables import data_root

    umpire = str(data_root("samples") / "cyrus-pyxis" / "umpire.yaml")
    named = referee("judge", "cyrus-pyxis", "--position", umpire, "Pyxis C6", "--json")
    bare = referee("judge", "--position", umpire, "Pyxis C6", "--json")
    assert bare.code == 0 and bare.out == named.out
    assert referee("legal", "--position", umpire, "Pyxis").code == 0
    assert referee("resolve", "--position", umpire, "--json").code == 0
    duel = str(data_root("samples") / "iliad" / "duel-example.yaml")
    assert referee("odds", "--position", duel, "Menelao x Paride").code == referee(
        "odds", "iliad", "--position", duel, "Menelao x Paride").code
    anonymous = tmp_path / "anon.yaml"
    anonymous.write_text("active: greek\ngreek: {Pyxis: C5}\n", encoding="utf-8")
    result = referee("judge", "--position", str(anonymous), "Pyxis C6")
    assert result.code == 1 and "does not say its game" in result.err
    assert referee("judge", "cyrus-pyxis", "--position", str(anonymous), "Pyxis C6").code == 0
