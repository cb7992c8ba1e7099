"""CLI test helpers: an in-process runner with fresh consoles, and a sample game file."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.tables import data_root
from tests.runner import CliRunner

SETUP = data_root("samples") / "cyrus-pyxis" / "setup.yaml"


@dataclass
class Result:
    code: int
    out: str
    err: str


class Referee:
    """Runs ``referee ...`` in-process (typer's CliRunner), as a user would type it."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd
        self.runner = CliRunner()

    def __call__(self, *args: str, input: str | None = None) -> Result:
        reset_consoles()
        result = self.runner.invoke(app, list(args), input=input, catch_exceptions=False)
        reset_consoles()
        return Result(result.exit_code, result.stdout, result.stderr)


@pytest.fixture
def referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Referee]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_FILE", raising=False)
    monkeypatch.delenv("REFEREE_TABLES", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    yield Referee(tmp_path)


@pytest.fixture(scope="session")
def game_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample Cyrus & Pyxis game, made once by ``referee new`` for every test that copies it."""
    folder = tmp_path_factory.mktemp("game-template")
    path = folder / "game.referee"
    result = Referee(folder)("new", "cyrus-pyxis", "--setup", str(SETUP), "--file", str(path))
    assert result.code == 0, result.err
    return path


@pytest.fixture
def game(referee: Referee, game_template: Path) -> Path:
    """A fresh copy of the sample game in the test's folder, as ``referee new`` left it."""
    path = referee.cwd / "game.referee"
    shutil.copyfile(game_template, path)
    return path
