"""Fixtures of the Zargo tests: the command line run in a fresh folder, as a user types it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.conftest import Referee


@pytest.fixture
def referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Referee:
    monkeypatch.chdir(tmp_path)
    for name in ("REFEREE_FILE", "REFEREE_TABLES", "REFEREE_LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    return Referee(tmp_path)
