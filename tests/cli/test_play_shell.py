"""The ``play`` shell keeps one game file open: a line replays nothing, its state is kept."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from referee.cli import command
from referee.cli.common import game_file, holding
from referee.cli.play import run_line

from .conftest import Referee


def test_the_shell_keeps_one_open_game_and_replays_nothing_per_line(game: Path, referee: Referee) -> None:
    with holding(game) as gf:
        assert run_line("Pergame L4", game, command()) == 0
        assert run_line("status", game, command()) == 0
        with game_file(game) as again:
            assert again is gf
        audit, state = gf._load()
        # only the line's own entry was checked: nothing before it was read back or replayed
        assert [e.text for e in audit.entries] == ["Pergame L4"]
        assert state == gf.replayed_state()
    with game_file(game) as closed_after:
        assert closed_after is not gf


def test_a_file_replaced_meanwhile_is_opened_anew(game: Path, referee: Referee) -> None:
    other = game.with_name("other.referee")
    shutil.copyfile(game, other)
    assert referee("do", "Pergame L4", "--file", str(other)).code == 0
    with holding(game) as gf:
        before = len(gf.entries())
        os.replace(other, game)
        with game_file(game) as now:
            assert now is not gf and len(now.entries()) == before + 1
