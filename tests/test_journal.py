"""The game file: journal, replay, transactions, undo/redo rules, reveal, export/import, corruption."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from referee.dice_verify import verify_file
from referee.errors import DiceError, GameFileError, IllegalActionError, UndoError, UnknownNameError
from referee.games import find_game
from referee.journal import GameFile
from referee.tables import data_root, load_table_set

sys.path.insert(0, str(Path(__file__).parent))
from forge import reforge_file
from race_game import race_tables, register

TESTS = Path(__file__).parent


@pytest.fixture
def race(tmp_path: Path) -> Iterator[GameFile]:
    engine = register()
    gf = GameFile.create(tmp_path / "race.referee", engine, race_tables())
    yield gf
    gf.close()


@pytest.fixture(scope="session")
def cyrus_set_up(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Cyrus & Pyxis game file with the sample set-up played, one action at a time, made once
    per session (80 journaled actions); each test opens a copy of it."""
    engine = find_game("cyrus-pyxis")
    path = tmp_path_factory.mktemp("cyrus") / "cyrus.referee"
    with GameFile.create(path, engine, load_table_set("cyrus-pyxis")) as gf:
        setup = yaml.safe_load((data_root("samples") / "cyrus-pyxis" / "setup.yaml").read_text(encoding="utf-8"))
        for text in engine.setup_actions(gf.state(), setup, "setup.yaml"):
            gf.do(text)
    return path


@pytest.fixture
def cyrus(tmp_path: Path, cyrus_set_up: Path) -> Iterator[GameFile]:
    path = tmp_path / "cyrus.referee"
    shutil.copyfile(cyrus_set_up, path)
    gf = GameFile.open(path, find_game)
    yield gf
    gf.close()


def test_state_survives_reopening(cyrus: GameFile) -> None:
    cyrus.do("Pergame L7")
    before = cyrus.game.state_hash(cyrus.state())
    path = cyrus.path
    cyrus.close()
    with GameFile.open(path, find_game) as again:
        assert again.game.state_hash(again.state()) == before
        assert again.entries()[-1].text == "Pergame L7"


def test_rejected_action_leaves_the_file_byte_identical(cyrus: GameFile) -> None:
    before = cyrus.path.read_bytes()
    with pytest.raises(IllegalActionError) as info:
        cyrus.do("Centaure B6")
    assert info.value.verdict.codes() == ("too-far",)
    with pytest.raises(UnknownNameError):
        cyrus.do("Athna B3")
    assert cyrus.path.read_bytes() == before


def test_deterministic_undo_is_free_and_redo_replays(cyrus: GameFile) -> None:
    start = cyrus.game.state_hash(cyrus.state())
    cyrus.do("Pergame L7")
    after = cyrus.game.state_hash(cyrus.state())
    result = cyrus.undo()
    assert result.target.text == "Pergame L7" and not result.forced
    assert cyrus.game.state_hash(cyrus.state()) == start
    cyrus.redo()
    assert cyrus.game.state_hash(cyrus.state()) == after
    kinds = [e.kind for e in cyrus.entries()[-3:]]
    assert kinds == ["action", "undo", "redo"]


def test_redo_is_refused_after_a_new_action(cyrus: GameFile) -> None:
    cyrus.do("Pergame L7")
    cyrus.undo()
    cyrus.do("Demis K5")
    with pytest.raises(UndoError, match="nothing to redo"):
        cyrus.redo()


def test_nothing_to_undo(race: GameFile) -> None:
    with pytest.raises(UndoError, match="nothing to undo"):
        race.undo()


def test_undo_across_a_roll_needs_force_and_is_logged(race: GameFile) -> None:
    race.do("roll")
    before = race.path.read_bytes()
    with pytest.raises(UndoError, match="rolled dice"):
        race.undo()
    assert race.path.read_bytes() == before
    result = race.undo(force=True)
    assert result.forced
    last = race.entries()[-1]
    assert last.kind == "undo" and last.forced and "rolled dice" in (last.reason or "")


def test_undo_across_a_reveal_needs_force(race: GameFile) -> None:
    race.do("step")
    race.reveal()
    with pytest.raises(UndoError, match="revealed"):
        race.undo()
    assert race.undo(force=True).forced


def test_undone_roll_is_not_rerolled_identically(race: GameFile) -> None:
    first = race.do("double").rolls[0]
    race.undo(force=True)
    second = race.do("double").rolls[0]
    assert second.index == first.index + 1  # a fresh roll number: no re-rolling the same dice


def test_physical_dice_are_tagged_and_checked(race: GameFile) -> None:
    record = race.do("double", faces=[3, 4])
    assert record.rolls[0].faces == (3, 4) and record.rolls[0].source == "physical"
    before = race.path.read_bytes()
    with pytest.raises(DiceError):
        race.do("roll", faces=[9])
    with pytest.raises(DiceError, match="needs only"):
        race.do("roll", faces=[2, 2])
    assert race.path.read_bytes() == before


def test_reveal_then_verify(race: GameFile) -> None:
    for _ in range(3):
        race.do("double")
    report = race.verify_dice()
    assert {c.status for c in report.checks} == {"unrevealed"}
    revealed = race.reveal()
    assert revealed.rolls == 3 and revealed.next_commitment != revealed.commitment
    report = race.verify_dice()
    assert report.ok and {c.status for c in report.checks} == {"ok"}
    race.do("roll")  # from the fresh seed
    assert race.entries()[-1].rolls[0].epoch == 1


def test_verify_detects_a_tampered_roll(race: GameFile) -> None:
    race.do("double")
    race.reveal()
    row = race.conn.execute("SELECT seq, rolls FROM journal WHERE kind = 'action'").fetchone()
    rolls = json.loads(row[1])
    rolls[0]["faces"] = [7 - f for f in rolls[0]["faces"]]
    record = json.loads(race.conn.execute("SELECT record FROM journal WHERE seq = ?", (row[0],)).fetchone()[0])
    record["rolls"] = rolls
    race.conn.execute("UPDATE journal SET rolls = ?, record = ? WHERE seq = ?",
                      (json.dumps(rolls), json.dumps(record), row[0]))
    with pytest.raises(GameFileError, match="journal row 1: its chain hash does not match"):
        verify_file(race.path, find_game)
    reforge_file(race.path)  # an informed forger recomputes every hash: the faces still give it away
    report = verify_file(race.path, find_game)
    assert not report.ok and [c.status for c in report.checks] == ["mismatch"]


def test_export_import_round_trips_the_state_hash(cyrus: GameFile, tmp_path: Path) -> None:
    cyrus.do("Pergame L7")
    cyrus.do("Demis K5")
    cyrus.undo()
    data = cyrus.export()
    blob = json.loads(json.dumps(data))
    with GameFile.import_(blob, tmp_path / "copy.referee", "export.json", find_game) as copy:
        assert copy.game.state_hash(copy.state()) == data["state_hash"]
        assert len(copy.entries()) == len(cyrus.entries()) + 1  # plus the note about the seed
        assert copy.entries()[-1].kind == "note"


def test_import_refuses_an_altered_export(cyrus: GameFile, tmp_path: Path) -> None:
    cyrus.do("Pergame L7")
    data = json.loads(json.dumps(cyrus.export()))
    data["entries"][-1]["text"] = "Pergame L6"
    with pytest.raises(GameFileError, match=r"export\.json: journal row 81: its chain hash does not match"):
        GameFile.import_(data, tmp_path / "bad.referee", "export.json", find_game)
    assert not (tmp_path / "bad.referee").exists()
    data["format"] = "nope"
    with pytest.raises(GameFileError, match="format"):
        GameFile.import_(data, tmp_path / "bad.referee", "export.json", find_game)


def test_not_a_game_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.referee"
    junk.write_bytes(os.urandom(4096))
    with pytest.raises(GameFileError, match="not a referee game file"):
        GameFile.open(junk, find_game)
    other = tmp_path / "other.referee"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(GameFileError, match="not a referee game file"):
        GameFile.open(other, find_game)
    with pytest.raises(GameFileError, match="no game file"):
        GameFile.open(tmp_path / "missing.referee", find_game)


def test_truncated_game_file_is_reported(cyrus: GameFile) -> None:
    path = cyrus.path
    cyrus.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(GameFileError), GameFile.open(path, find_game) as gf:
        gf.state()


def test_edited_journal_is_detected(cyrus: GameFile) -> None:
    cyrus.do("Pergame L7")
    cyrus.conn.execute("UPDATE journal SET text = 'Pergame L6' WHERE text = 'Pergame L7'")
    with pytest.raises(GameFileError, match="journal row 81: its chain hash"):
        GameFile.open(cyrus.path, find_game).state()
    reforge_file(cyrus.path, rehash=False)  # chain recomputed, state hashes left: replay catches it
    with pytest.raises(GameFileError, match="journal row 81: 'Pergame L6' replays to a different state"), \
            GameFile.open(cyrus.path, find_game) as gf:
        gf.state()


def test_create_refuses_to_overwrite(cyrus: GameFile) -> None:
    with pytest.raises(GameFileError, match="already there"):
        GameFile.create(cyrus.path, cyrus.game, cyrus.table_set)


_WRITER = """
import sys
sys.path.insert(0, {tests!r})
from pathlib import Path
from race_game import register
from referee.games import find_game
from referee.journal import GameFile
register()
with GameFile.open(Path({path!r}), find_game) as gf:
    print("ready", flush=True)
    n = 0
    while True:
        n += 1
        if n % 15 == 0:
            gf.do("score 0", adjust_reason="reset")
        else:
            gf.do("roll" if n % 3 else "step")
"""


def _writer(path: Path) -> subprocess.Popen[str]:
    code = _WRITER.format(tests=str(TESTS), path=str(path))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def test_sigkill_during_writes_never_corrupts(race: GameFile) -> None:
    import random

    path = race.path
    race.close()
    gen = random.Random(7)
    seen = 0
    for _ in range(6):
        proc = _writer(path)
        time.sleep(gen.uniform(0.05, 0.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        with GameFile.open(path, find_game) as gf:
            entries = gf.entries()
            gf.state()  # every entry replays to the hash it recorded
            assert all(e.record is not None and e.state_hash for e in entries if e.kind in ("action", "adjust"))
            assert len(entries) >= seen
            seen = len(entries)
    assert seen > 0


def test_two_writers_are_serialised(race: GameFile) -> None:
    path = race.path
    race.close()
    procs = [_writer(path), _writer(path)]
    time.sleep(0.6)
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
        proc.wait()
        assert proc.stdout is not None
        proc.stdout.close()
    with GameFile.open(path, find_game) as gf:
        entries = gf.entries()
        gf.state()
        seqs = [e.seq for e in entries]
        assert seqs == sorted(set(seqs)) and len(seqs) > 2


def test_an_empty_journal_left_by_a_write_killed_as_it_began_goes_with_the_next_open(race: GameFile) -> None:
    """Killed between creating its journal and writing the header, a write leaves an empty (or
    zeroed) ``-journal`` that SQLite never rolls back nor removes (issue 29: no leftover file)."""
    race.do("step")
    path = race.path
    race.close()
    before = path.read_bytes()
    for leftover in (b"", b"\x00" * 512):
        side = path.with_name(path.name + "-journal")
        side.write_bytes(leftover)
        with GameFile.open(path, find_game) as gf:
            assert [e.text for e in gf.entries()] == ["step"]
        assert not side.exists() and path.read_bytes() == before


def test_a_live_writers_journal_is_left_alone(race: GameFile) -> None:
    path = race.path
    side = path.with_name(path.name + "-journal")
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN IMMEDIATE")  # another process's write, begun
        side.write_bytes(b"")
        start = time.monotonic()
        with GameFile.open(path, find_game) as gf:
            assert gf.path == path
        assert side.exists() and time.monotonic() - start < 5  # neither removed nor waited for
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        side.unlink(missing_ok=True)


def test_a_hot_journal_of_the_replaced_game_never_reaches_the_new_one(race: GameFile) -> None:
    """A write killed mid-way leaves a hot journal; ``new --force`` (create) then renames a new game
    under that name. The old journal must not be rolled back into the new file (issue 29)."""
    for _ in range(3):
        race.do("roll")
    path = race.path
    race.close()
    code = ("import os, sqlite3, sys\n"
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE')\n"
            "c.execute(\"UPDATE journal SET text = text || ' changed'\")\n"
            "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True)
    assert path.with_name(path.name + "-journal").stat().st_size > 0  # hot: the old pages
    with GameFile.create(path, register(), race_tables(), force=True, actions=["step"]) as gf:
        assert [e.text for e in gf.entries()] == ["step"]
        assert gf.verify_dice().ok
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
