"""Writing outputs (issue 29): beside the target then renamed, a game file never replaced, another
file only with force, and the temporaries of a killed writer removed by the next write."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from referee.errors import OutputFileError
from referee.games import find_game
from referee.journal import GameFile
from referee.writing import (
    TEMP_SUFFIX,
    is_game_file,
    is_temporary,
    sweep_temporaries,
    temporary_beside,
    write_output,
)

sys.path.insert(0, str(Path(__file__).parent))
from race_game import race_tables, register


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "out.json"  # a game file by its content, whatever its name says
    GameFile.create(path, register(), race_tables(), actions=["step"]).close()
    return path


def test_a_game_file_is_recognised_by_its_content(game: Path, tmp_path: Path) -> None:
    assert is_game_file(game)
    other = tmp_path / "game.referee"
    other.write_text("{}\n", encoding="utf-8")
    assert not is_game_file(other) and not is_game_file(tmp_path / "missing") and not is_game_file(tmp_path)
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(game.read_bytes()[:100] + b"\x00" * 4000)  # an SQLite header, no readable schema
    assert is_game_file(damaged)  # kept safe: never overwritten by an output


def test_a_game_file_is_never_replaced_even_with_force(game: Path) -> None:
    before = game.read_bytes()
    for force in (False, True):
        with pytest.raises(OutputFileError, match="is a game file"):
            write_output(game, b"{}\n", force=force, what="referee export")
    assert game.read_bytes() == before
    assert sorted(p.name for p in game.parent.iterdir()) == ["out.json"]


def test_another_file_is_replaced_only_with_force_and_by_a_rename(tmp_path: Path) -> None:
    path = tmp_path / "board.png"
    path.write_bytes(b"old")
    with pytest.raises(OutputFileError, match="--force"):
        write_output(path, b"new")
    assert path.read_bytes() == b"old"
    inode = path.stat().st_ino
    write_output(path, b"new", force=True)
    assert path.read_bytes() == b"new" and path.stat().st_ino != inode  # a new file renamed in, not rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.png"]


def test_devices_folders_and_pipes(tmp_path: Path) -> None:
    write_output(Path("/dev/null"), b"x")  # a character device: written directly, nothing to replace
    with pytest.raises(OutputFileError, match="folder"):
        write_output(tmp_path, b"x", force=True)
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(OutputFileError, match="pipe"):
        write_output(tmp_path / "pipe", b"x", force=True)
    with pytest.raises(OutputFileError, match="no such file"):
        write_output(tmp_path / "missing" / "out.json", b"x")


def _stale(folder: Path, name: str = "game.referee", body: bytes = b"half") -> Path:
    path = folder / f".{name}.0123456789ab{TEMP_SUFFIX}"
    path.write_bytes(body)
    return path


def test_the_temporaries_of_a_killed_writer_are_swept(tmp_path: Path) -> None:
    stale = _stale(tmp_path)
    journal = stale.with_name(stale.name + "-journal")
    journal.write_bytes(b"j")
    orphan = tmp_path / f".x.fedcba987654{TEMP_SUFFIX}-journal"
    orphan.write_bytes(b"j")
    mine = tmp_path / ".game.referee.12345678.tmp"  # not our pattern: never touched
    mine.write_bytes(b"keep")
    assert is_temporary(stale.name) and not is_temporary(mine.name) and not is_temporary("game.referee")
    assert sweep_temporaries(tmp_path) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name]


def test_a_live_writers_temporary_is_left_alone(tmp_path: Path) -> None:
    with temporary_beside(tmp_path / "out.json") as tmp:
        assert tmp.exists() and sweep_temporaries(tmp_path) == 0  # locked before its name appeared
        tmp.write_bytes(b"being written")
        assert sweep_temporaries(tmp_path) == 0 and tmp.exists()
    assert not tmp.exists()  # not installed: removed as the block ends
    empty = _stale(tmp_path, body=b"")  # a writer killed as it began: empty, unlocked
    assert sweep_temporaries(tmp_path) == 1 and not empty.exists()


def test_the_next_write_and_the_next_open_sweep(game: Path) -> None:
    folder = game.parent
    _stale(folder, "out.png")
    write_output(folder / "picture.png", b"png")
    assert sorted(p.name for p in folder.iterdir()) == ["out.json", "picture.png"]
    _stale(folder, "out.json")
    GameFile.open(game, find_game).close()
    assert sorted(p.name for p in folder.iterdir()) == ["out.json", "picture.png"]
