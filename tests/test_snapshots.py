"""Verified snapshots: a state kept at each write, trusted on open only when it verifies, and
checked against the full replay by the audit (docs/decisions/snapshots.md)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
import yaml

from referee.capabilities import bot_of
from referee.games import find_game
from referee.journal import GameFile
from referee.journal.snapshots import digest, state_from_json, state_json
from referee.tables import data_root, load_table_set

GAMES = ("cyrus-pyxis", "iliad", "zargo", "300-solo")


def _bot_game(path: Path, slug: str, seed: int, moves: int) -> GameFile:
    """Plays a seeded bot game into a new file, one write per move (as ``referee bot`` does)."""
    engine = find_game(slug)
    gf = GameFile.create(path, engine, load_table_set(slug), games=find_game)
    if slug == "zargo":
        gf.do("players 2")
    elif slug in ("cyrus-pyxis", "iliad"):  # their bots play from a finished set-up
        setup = yaml.safe_load((data_root("samples") / slug / "setup.yaml").read_text(encoding="utf-8"))
        gf.do_all(engine.setup_actions(gf.state(), setup, "setup.yaml"))
    chooser = bot_of(engine)
    assert chooser is not None
    rng = random.Random(seed)
    for _n in range(moves):
        state = gf.state()
        if engine.outcome(state) is not None or (engine.info.bot_sides and engine.to_act(state)
                                                 not in engine.info.bot_sides):
            break
        gf.play_choice(chooser.choose(state, rng).action)
    return gf


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_a_snapshot_loads_back_to_the_replayed_state(tmp_path: Path, slug: str, seed: int) -> None:
    with _bot_game(tmp_path / "g.referee", slug, seed, 30) as gf:
        opened = gf.state()
        replayed = gf.replayed_state()
        assert opened == replayed
        assert gf.game.state_hash(opened) == gf.game.state_hash(replayed)
        text = state_json(replayed)
        again = state_from_json(gf.game, gf.table_set, text)
        assert again == replayed and state_json(again) == text
        assert gf.verify() == []


def test_opening_after_a_write_replays_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.referee"
    _bot_game(path, "300-solo", 3, 12).close()
    with GameFile.open(path, find_game) as gf:
        audit, state = gf._load()
        assert audit.entries == [] and audit.count > 0  # resumed after the snapshot: no row re-read
        assert state == gf.replayed_state()


def _corrupt_snapshot(path: Path) -> int:
    """Changes the newest snapshot's state and re-derives its digest (the rest left consistent)."""
    conn = sqlite3.connect(path)
    seq, tip, state, state_hash, rows = conn.execute(
        "SELECT seq, tip, state, state_hash, rows FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
    forged = state.replace('"score":', '"score":1', 1) if '"score":0' in state else state.replace("3", "4", 1)
    assert forged != state
    conn.execute("UPDATE snapshots SET state = ?, digest = ? WHERE seq = ?",
                 (forged, digest(seq, tip, forged, state_hash, rows), seq))
    conn.commit()
    conn.close()
    return int(seq)


def test_a_corrupted_snapshot_is_reported_and_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "g.referee"
    with _bot_game(path, "300-solo", 4, 10) as gf:
        truth = gf.game.state_hash(gf.state())
    seq = _corrupt_snapshot(path)
    before = path.read_bytes()
    with GameFile.open(path, find_game) as gf:
        assert gf.game.state_hash(gf.state()) == truth  # the bad snapshot was passed over
        problems = gf.verify()
    assert problems == [f"{path}: snapshot after journal row {seq}: its state does not hash to its state hash "
                        "(altered)"]
    assert path.read_bytes() == before  # reading and verifying never write


def test_dice_verify_reports_a_snapshot_that_disagrees_with_the_replay(tmp_path: Path) -> None:
    from referee.dice_verify import verify_file

    path = tmp_path / "g.referee"
    _bot_game(path, "300-solo", 5, 6).close()
    seq = _corrupt_snapshot(path)
    report = verify_file(path, find_game)
    assert not report.ok
    assert report.snapshots and f"snapshot after journal row {seq}" in report.snapshots[0]


def test_a_snapshot_over_altered_rows_is_not_trusted(tmp_path: Path) -> None:
    path = tmp_path / "g.referee"
    _bot_game(path, "cyrus-pyxis", 1, 8).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE journal SET time = '2000-01-01T00:00:00+00:00' WHERE seq = 2")
    conn.commit()
    conn.close()
    with GameFile.open(path, find_game) as gf, pytest.raises(Exception, match="journal row 2: its chain hash"):
        gf.state()


def test_a_file_without_snapshots_opens_and_gains_one_at_its_next_write(tmp_path: Path) -> None:
    path = tmp_path / "g.referee"
    _bot_game(path, "cyrus-pyxis", 2, 6).close()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE snapshots")
    conn.commit()
    conn.execute("VACUUM")
    conn.close()
    before = path.read_bytes()
    with GameFile.open(path, find_game) as gf:
        state = gf.state()
        assert gf._load()[0].complete  # replayed from the start
    assert path.read_bytes() == before  # a read never creates the table
    with GameFile.open(path, find_game) as gf:
        action = bot_of(gf.game).choose(state, random.Random(0)).action  # type: ignore[union-attr]
        gf.do(action.text())
    conn = sqlite3.connect(path)
    kept = [r[0] for r in conn.execute("SELECT seq FROM snapshots")]
    conn.close()
    with GameFile.open(path, find_game) as gf:
        assert kept and max(kept) == len(gf.entries())



@pytest.mark.parametrize("bad", [b"\xff\xfe", 7, "[" * 200_000, '{"phase": 1}', '"x"'])
def test_a_hostile_snapshot_never_crashes_an_open(tmp_path: Path, bad: object) -> None:
    path = tmp_path / "g.referee"
    with _bot_game(path, "cyrus-pyxis", 3, 4) as gf:
        truth = gf.game.state_hash(gf.state())
    conn = sqlite3.connect(path)
    seq, tip, state_hash, rows = conn.execute(
        "SELECT seq, tip, state_hash, rows FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
    sealed = digest(seq, tip, bad, state_hash, rows) if isinstance(bad, str) else "0" * 64  # reaches the parser
    conn.execute("UPDATE snapshots SET state = ?, digest = ? WHERE seq = ?", (bad, sealed, seq))
    conn.commit()
    conn.close()
    with GameFile.open(path, find_game) as gf:
        assert gf.game.state_hash(gf.state()) == truth
        problems = gf.verify()
    assert len(problems) == 1 and f"snapshot after journal row {seq}" in problems[0]


def test_a_snapshot_holds_no_sealed_secret(tmp_path: Path) -> None:
    path = tmp_path / "g.referee"
    with _bot_game(path, "zargo", 1, 14) as gf:
        seals = [s for owner in gf.game.viewers() for s in gf.secrets(owner)]
    assert seals, "the bot's set-up seals its garrisons"
    conn = sqlite3.connect(path)
    stored = " ".join(tip + state for tip, state in conn.execute("SELECT tip, state FROM snapshots"))
    conn.close()
    for seal in seals:
        assert seal.salt.hex() not in stored  # only the commitment, which the journal holds too
