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
