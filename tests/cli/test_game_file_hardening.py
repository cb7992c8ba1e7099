"""Damaged, foreign, altered and read-only game files (issues 8 and 17): every one is refused in one
line naming the file, exit 1, and left byte-identical; nothing is destroyed before a success and
nothing is left beside the game file."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.tables import data_root

from .conftest import SETUP, Referee

sys.path.insert(0, str(Path(__file__).parents[1]))
from forge import reforge_file

from tests.conftest import SampleGame

REFEREE = str(Path(sys.executable).parent / "referee")


def run(*args: str, cwd: Path, user: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs the real console script (as ``nobody`` when ``user`` says so and we are root)."""
    cmd = [REFEREE, *args]
    if user == "nobody" and os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    env = {**os.environ, "COLUMNS": "100", "HOME": str(cwd)}
    env.pop("REFEREE_FILE", None)
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def one_line(err: str, name: str) -> bool:
    return err.count("\n") == 1 and err.startswith("error: ") and name in err


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Cyrus & Pyxis game with moves, an undo and a redo after the set-up (built once)."""
    path = tmp_path_factory.mktemp("template") / "game.referee"
    runner = Referee(path.parent)
    steps = [("new", "cyrus-pyxis", "--setup", str(SETUP)), ("do", "Pergame L7"), ("do", "Telestas L4"), ("undo",),
             ("redo",), ("do", "Demis K5"), ("undo",)]
    for args in steps:
        result = runner(*args, "--file", str(path))
        assert result.code == 0, (args, result.err)
    return path


@pytest.fixture
def played(referee: Referee, template: Path) -> Path:
    path = referee.cwd / "game.referee"
    shutil.copy(template, path)
    return path


def _seq(path: Path, text: str) -> int:
    conn = sqlite3.connect(path)
    seq = conn.execute("SELECT seq FROM journal WHERE text = ? ORDER BY seq LIMIT 1", (text,)).fetchone()[0]
    conn.close()
    return int(seq)


DAMAGE = {
    "journal is a view": "DROP TABLE journal; CREATE VIEW journal AS SELECT * FROM seeds",
    "no journal table": "DROP TABLE journal",
    "no seeds table": "DROP TABLE seeds",
    "no chain column": "ALTER TABLE journal DROP COLUMN chain",
    "null seed": "UPDATE seeds SET seed = NULL",
    "non-hex seed": "UPDATE seeds SET seed = 'not hex at all'",
    "seeds deleted": "DELETE FROM seeds",
    "rolls not a list": "UPDATE journal SET rolls = '5' WHERE seq = 3",
    "rolls null": "UPDATE journal SET rolls = 'null' WHERE seq = 3",
    "verdict a list": "UPDATE journal SET verdict = '[]' WHERE seq = 3",
    "record an int field": "UPDATE journal SET record = '{\"action\": 5}' WHERE seq = 3",
    "deep json": "UPDATE journal SET record = '" + "[" * 5000 + "' WHERE seq = 3",
    "non-utf8 text": "UPDATE journal SET text = CAST(X'C3FF41' AS TEXT) WHERE seq = 3",
    "text a blob": "UPDATE journal SET text = X'00' WHERE seq = 3",
    "seq gap": "UPDATE journal SET seq = 9999 WHERE seq = (SELECT MAX(seq) FROM journal)",
    "undo pointing nowhere": "UPDATE journal SET refers = 99999 WHERE kind = 'undo'",
    "middle action marked undone": "UPDATE journal SET undone = 1 WHERE seq = 4",
    "middle action deleted": "DELETE FROM journal WHERE seq = 4",
    "middle action edited": "UPDATE journal SET text = 'Pergame L6' WHERE text = 'Pergame L7'",
    "rows reordered": "UPDATE journal SET seq = -4 WHERE seq = 4; UPDATE journal SET seq = 4 WHERE seq = 5;"
                      " UPDATE journal SET seq = 5 WHERE seq = -4",
    "slug changed": "UPDATE meta SET value = 'iliad' WHERE key = 'slug'",
    "unknown slug": "UPDATE meta SET value = 'chess' WHERE key = 'slug'",
    "tables a list": "UPDATE meta SET value = '[1, 2]' WHERE key = 'tables'",
    "tables entry not text": "UPDATE meta SET value = '{\"a.yaml\": {\"b\": 1}}' WHERE key = 'tables'",
    "huge next_roll_index": "UPDATE meta SET value = '100000000000000000000' WHERE key = 'next_roll_index'",
    "meta key missing": "DELETE FROM meta WHERE key = 'game_id'",
    "old format": "UPDATE meta SET value = 'referee-game/1' WHERE key = 'format'",
    "foreign format": "UPDATE meta SET value = 'something' WHERE key = 'format'",
    "undone flag not 0/1": "UPDATE journal SET undone = 7 WHERE seq = 4",
    "seq of text type": "UPDATE journal SET refers = 'x' WHERE kind = 'undo'",
}

COMMANDS = [
    ("log",), ("export",), ("dice", "status"), ("dice", "reveal"), ("undo", "--force"), ("redo",), ("do", "Samos G5"),
]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_game_file_is_refused_read_only(referee: Referee, played: Path, damage: str) -> None:
    conn = sqlite3.connect(played)
    conn.executescript(DAMAGE[damage])
    conn.close()
    before = played.read_bytes()
    for args in COMMANDS:
        result = referee(*args)
        assert result.code == 1, (args, result.out, result.err)
        assert one_line(result.err, "game.referee"), (args, result.err)
        assert played.read_bytes() == before, args
    result = referee("dice", "verify", "game.referee")
    assert result.code == 1 and one_line(result.err, "game.referee"), result.err
    assert sorted(p.name for p in played.parent.iterdir()) == ["game.referee"]


def test_messages_name_the_row_and_the_problem(referee: Referee, played: Path) -> None:
    conn = sqlite3.connect(played)
    conn.execute("UPDATE journal SET undone = 1 WHERE seq = 4")
    conn.commit()
    conn.close()
    err = referee("undo").err
    assert "game.referee: journal row 4: its chain hash does not match" not in err  # undone is not chained
    assert "game.referee: journal row 4: marked undone, but its undo and redo entries say otherwise" in err
    conn = sqlite3.connect(played)
    conn.executescript(DAMAGE["old format"])
    conn.close()
    assert "made by an older referee (referee-game/1" in referee("log").err


def test_a_damaged_page_is_one_line(referee: Referee, played: Path) -> None:
    data = bytearray(played.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for n in range(1, len(data) // page):
        data[n * page + 8 : n * page + 40] = b"\xfe" * 32
    played.write_bytes(bytes(data))
    for args in (("log",), ("undo",), ("dice", "status")):
        result = referee(*args)
        assert result.code == 1 and one_line(result.err, "game.referee"), (args, result.err)


def test_undo_force_on_a_journal_that_no_longer_replays_writes_nothing(referee: Referee, played: Path) -> None:
    conn = sqlite3.connect(played)
    conn.execute("UPDATE journal SET text = 'Pergame L6' WHERE text = 'Pergame L7'")
    conn.commit()
    conn.close()
    reforge_file(played, rehash=False)  # the chain holds; the state hashes do not
    before = played.read_bytes()
    for args in (("undo", "--force"), ("redo",), ("dice", "reveal"), ("do", "Samos G5")):
        result = referee(*args)
        assert result.code == 1 and "replays to a different state" in result.err, (args, result.err)
        assert played.read_bytes() == before


def test_redo_with_200000_extra_undone_rows_is_refused_fast(referee: Referee, played: Path) -> None:
    conn = sqlite3.connect(played)
    last, = conn.execute("SELECT MAX(seq) FROM journal").fetchone()
    conn.execute(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
        "INSERT INTO journal (seq, kind, text, action, verdict, rolls, record, state_hash, time, undone, chain) "
        "SELECT ? + i, kind, text, action, verdict, rolls, record, state_hash, time, 1, chain FROM n, journal "
        "WHERE journal.seq = ?", (last, _seq(played, "Pergame L7")))
    conn.commit()
    conn.close()
    before = played.read_bytes()
    start = time.monotonic()
    result = referee("redo")
    assert time.monotonic() - start < 10
    assert result.code == 1 and one_line(result.err, "game.referee"), result.err
    assert played.read_bytes() == before


def _tree(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_no_side_file_after_any_command(referee: Referee, played: Path) -> None:
    for args in (("export", "out.json"), ("undo",), ("redo",), ("do", "Samos G5"), ("log",), ("dice", "reveal"),
                 ("do", "Centaure B6")):
        referee(*args)
        assert _tree(played.parent) == ["game.referee", "out.json"], args


def test_a_wal_mode_file_is_brought_back_and_leaves_no_side_file(referee: Referee, played: Path) -> None:
    conn = sqlite3.connect(played)
    assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    conn.close()
    for args in (("export", "out.json"), ("undo",)):
        result = referee(*args)
        assert result.code == 0, result.err
        assert _tree(played.parent) == ["game.referee", "out.json"], args


def test_new_force_with_a_bad_setup_keeps_the_old_game(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    game = tmp_path / "game.referee"
    before = game.read_bytes()
    bad = tmp_path / "bad.yaml"
    bad.write_text(SETUP.read_text(encoding="utf-8").replace("Athéna: G1", "Athéna: F1"), encoding="utf-8")
    result = run("new", "cyrus-pyxis", "--setup", str(bad), "--force", cwd=tmp_path)
    assert result.returncode == 1 and "cell-occupied" in result.stderr, result.stderr
    assert game.read_bytes() == before
    assert _tree(tmp_path) == ["bad.yaml", "game.referee"]
    ok = run("new", "iliad", "--force", cwd=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert game.read_bytes() != before and _tree(tmp_path) == ["bad.yaml", "game.referee"]


def test_new_force_over_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "somedir").mkdir()
    (tmp_path / "somedir" / "keep.txt").write_text("x", encoding="utf-8")
    result = run("new", "iliad", "--file", "somedir", "--force", cwd=tmp_path)
    assert result.returncode == 1 and one_line(result.stderr, "somedir"), result.stderr
    assert "a folder" in result.stderr and "Traceback" not in result.stderr
    assert _tree(tmp_path) == ["somedir"] and _tree(tmp_path / "somedir") == ["keep.txt"]


def test_a_refused_demo_keeps_no_game_file(referee: Referee, tmp_path: Path) -> None:
    demo = data_root("samples") / "cyrus-pyxis" / "demo.yaml"
    text = demo.read_text(encoding="utf-8")
    assert "expect: illegal" in text
    (tmp_path / "demo.yaml").write_text(text.replace("expect: illegal", "expect: legal"), encoding="utf-8")
    shutil.copy(demo.parent / "setup.yaml", tmp_path / "setup.yaml")
    result = referee("demo", "--script", "demo.yaml", "--keep", "kept.referee")
    assert result.code == 1, result.err
    assert _tree(tmp_path) == ["demo.yaml", "setup.yaml"]
    result = referee("demo", "--keep", "kept.referee")
    assert result.code == 0 and _tree(tmp_path) == ["demo.yaml", "kept.referee", "setup.yaml"]
    assert referee("log", "--file", "kept.referee").code == 0


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder the unprivileged user can enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-ro-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_game_is_read_but_never_written(shared_dir: Path, what: str, sample_game: SampleGame) -> None:
    sample_game(shared_dir)
    game = shared_dir / "game.referee"
    if what == "file":
        shared_dir.chmod(0o777)  # the folder is writable, the file is not
        game.chmod(0o444)
    else:
        game.chmod(0o666)  # the file is writable, the folder (root's, 0755) is not
    before = game.read_bytes()
    for args in (("log",), ("export",)):
        result = run(*args, cwd=shared_dir, user="nobody")
        assert result.returncode == 0, (args, result.stderr)
    for args in (("do", "Pergame L7"), ("dice", "reveal"), ("adjust", "Pergame L7", "--reason", "x")):
        result = run(*args, cwd=shared_dir, user="nobody")
        assert result.returncode == 1, (args, result.stderr)
        assert result.stderr == "error: game.referee is read-only\n", (args, result.stderr)
        assert "OperationalError" not in result.stderr
    assert game.read_bytes() == before
    assert _tree(shared_dir) == ["game.referee"]
    assert stat.S_IMODE(game.stat().st_mode) in (0o444, 0o666)


def _export(referee: Referee, played: Path) -> dict[str, object]:
    result = referee("export")
    assert result.code == 0, result.err
    data: dict[str, object] = json.loads(result.out)
    return data


@pytest.mark.parametrize("change", ["duplicate seq", "next_roll_index 10^20", "rolls null", "entries null",
                                    "seeds a dict", "state_hash 5", "tables entry object", "old format"])
def test_a_malformed_export_is_one_line(referee: Referee, played: Path, tmp_path: Path, change: str) -> None:
    data = _export(referee, played)
    entries = data["entries"]
    assert isinstance(entries, list)
    if change == "duplicate seq":
        entries[5]["seq"] = entries[4]["seq"]
    elif change == "next_roll_index 10^20":
        data["next_roll_index"] = 10**20
    elif change == "rolls null":
        entries[3]["rolls"] = None
    elif change == "entries null":
        data["entries"] = None
    elif change == "seeds a dict":
        data["seeds"] = {"0": 1}
    elif change == "state_hash 5":
        data["state_hash"] = 5
    elif change == "tables entry object":
        data["tables"] = {"a.yaml": {"b": 1}}
    elif change == "old format":
        data["format"] = "referee-export/1"
    (tmp_path / "x.json").write_text(json.dumps(data), encoding="utf-8")
    before = played.read_bytes()
    for target in ("new.referee", "game.referee"):
        result = referee("import", "x.json", "--file", target, "--force")
        assert result.code == 1 and one_line(result.err, "x.json"), (target, result.err)
    result = referee("dice", "verify", "x.json")
    assert result.code == 1 and one_line(result.err, "x.json"), result.err
    assert played.read_bytes() == before
    assert _tree(tmp_path) == ["game.referee", "x.json"]


@pytest.mark.parametrize("special", ["/dev/urandom", "/dev/zero", "fifo", "folder", "link to urandom"])
def test_import_and_verify_refuse_special_files_at_once(tmp_path: Path, special: str) -> None:
    source = special
    if special == "fifo":
        os.mkfifo(tmp_path / "pipe")
        source = "pipe"
    elif special == "folder":
        (tmp_path / "dir").mkdir()
        source = "dir"
    elif special == "link to urandom":
        (tmp_path / "link").symlink_to("/dev/urandom")
        source = "link"
    for args in (("import", source, "--file", "new.referee"), ("dice", "verify", source)):
        result = run(*args, cwd=tmp_path, timeout=20)
        assert result.returncode == 1 and one_line(result.stderr, source), (args, result.stderr)
    assert not (tmp_path / "new.referee").exists()


def test_import_over_an_existing_game_is_atomic(referee: Referee, played: Path, tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text(json.dumps(_export(referee, played)), encoding="utf-8")
    before = played.read_bytes()
    result = referee("import", "x.json")
    assert result.code == 1 and "already there" in result.err and played.read_bytes() == before
    result = referee("import", "x.json", "--force")
    assert result.code == 0, result.err
    assert _tree(tmp_path) == ["game.referee", "x.json"]
    assert referee("log").code == 0 and referee("dice", "verify", "game.referee").code == 0
