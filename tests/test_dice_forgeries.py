"""Every dice forgery of issues 8 and 17, made by an informed forger (hashes recomputed), is refused
by ``referee dice verify`` and ``referee import``: in a game file and in an export."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.games import find_game
from referee.journal import GameFile
from tests.runner import CliRunner

sys.path.insert(0, str(Path(__file__).parent))
from forge import reforge_export, reforge_file
from race_game import race_tables, register


def cli(*args: str) -> tuple[int, str]:
    reset_consoles()
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    reset_consoles()
    return result.exit_code, result.stderr


@pytest.fixture
def played(tmp_path: Path) -> Iterator[Path]:
    """A race game: digital rolls, a reveal, more digital rolls, a physical roll."""
    engine = register()
    with GameFile.create(tmp_path / "race.referee", engine, race_tables()) as gf:
        gf.do("double")
        gf.do("roll")
        gf.do("step")
        gf.do("roll")
        gf.reveal()
        gf.do("roll")
        gf.do("double", faces=[2, 5])
        gf.do("roll")
    yield tmp_path / "race.referee"


def _rolls(conn: sqlite3.Connection) -> list[tuple[int, list[dict[str, Any]]]]:
    rows = conn.execute("SELECT seq, rolls FROM journal WHERE rolls != '[]' ORDER BY seq").fetchall()
    return [(seq, json.loads(r)) for seq, r in rows]


def _set_rolls(conn: sqlite3.Connection, seq: int, rolls: list[dict[str, Any]]) -> None:
    record = json.loads(conn.execute("SELECT record FROM journal WHERE seq = ?", (seq,)).fetchone()[0])
    record["rolls"] = rolls
    conn.execute("UPDATE journal SET rolls = ?, record = ? WHERE seq = ?", (json.dumps(rolls), json.dumps(record), seq))


def relabel_physical(conn: sqlite3.Connection) -> None:
    seq, rolls = _rolls(conn)[1]  # 'roll' in epoch 0
    rolls[0].update(source="physical", index=None, epoch=None, faces=[7 - rolls[0]["faces"][0]])
    _set_rolls(conn, seq, rolls)


def other_face_and_epoch(conn: sqlite3.Connection) -> None:
    seq, rolls = _rolls(conn)[0]
    rolls[0].update(epoch=7, faces=[7 - f for f in rolls[0]["faces"]])
    _set_rolls(conn, seq, rolls)


def revealed_roll_other_epoch(conn: sqlite3.Connection) -> None:
    seq, rolls = _rolls(conn)[1]
    rolls[0]["epoch"] = 1
    _set_rolls(conn, seq, rolls)


def moved_to_unused_index(conn: sqlite3.Connection) -> None:
    seq, rolls = _rolls(conn)[-1]  # the last roll moved to a later, unused number
    rolls[0]["index"] += 5
    _set_rolls(conn, seq, rolls)
    conn.execute("UPDATE meta SET value = CAST(value + 5 AS TEXT) WHERE key = 'next_roll_index'")


def deleted_roll(conn: sqlite3.Connection) -> None:
    seq, _ = _rolls(conn)[1]
    conn.execute("DELETE FROM journal WHERE seq = ?", (seq,))
    conn.execute("UPDATE journal SET seq = seq - 1 WHERE seq > ?", (seq,))


def duplicated_entry(conn: sqlite3.Connection) -> None:
    seq, _ = _rolls(conn)[0]
    last = conn.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    conn.execute("INSERT INTO journal SELECT ? + 0, kind, side, text, action, verdict, rolls, record, reason,"
                  " state_hash, time, undone, refers, forced, detail, chain FROM journal WHERE seq = ?",
                  (last + 1, seq))


def appended_from_revealed_seed(conn: sqlite3.Connection) -> None:
    from referee.dice import derive_faces

    seed, = conn.execute("SELECT seed FROM seeds WHERE epoch = 0").fetchone()
    game_id, = conn.execute("SELECT value FROM meta WHERE key = 'game_id'").fetchone()
    seq, rolls = _rolls(conn)[-1]
    index = int(conn.execute("SELECT value FROM meta WHERE key = 'next_roll_index'").fetchone()[0])
    faces = derive_faces(bytes.fromhex(seed), game_id, index, rolls[0]["purpose"], 1, 6)
    rolls.append(dict(rolls[0], faces=list(faces), index=index, epoch=0))
    _set_rolls(conn, seq, rolls)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'next_roll_index'", (str(index + 1),))


def seed_zero_deleted(conn: sqlite3.Connection) -> None:
    conn.execute("DELETE FROM seeds WHERE epoch = 0")


def seed_and_commitment_swapped(conn: sqlite3.Connection) -> None:
    conn.execute("UPDATE seeds SET seed = commitment, commitment = seed WHERE epoch = 0")


def commitment_replaced(conn: sqlite3.Connection) -> None:
    import hashlib
    import os

    seed = os.urandom(32)
    conn.execute("UPDATE seeds SET seed = ?, commitment = ? WHERE epoch = 1",
                 (seed.hex(), hashlib.sha256(seed).hexdigest()))


FILE_FORGERIES: list[Callable[[sqlite3.Connection], None]] = [
    relabel_physical, other_face_and_epoch, revealed_roll_other_epoch, moved_to_unused_index, deleted_roll,
    duplicated_entry, appended_from_revealed_seed, seed_zero_deleted, seed_and_commitment_swapped,
    commitment_replaced,
]


@pytest.mark.parametrize("forge", FILE_FORGERIES, ids=lambda f: f.__name__)
def test_a_forged_game_file_is_refused(played: Path, forge: Callable[[sqlite3.Connection], None]) -> None:
    assert cli("dice", "verify", str(played))[0] == 0
    conn = sqlite3.connect(played)
    forge(conn)
    conn.commit()
    conn.close()
    reforge_file(played)
    before = played.read_bytes()
    for args in (("dice", "verify", str(played)), ("show", "--file", str(played)),
                 ("dice", "status", "--file", str(played)), ("undo", "--force", "--file", str(played))):
        code, err = cli(*args)
        assert code == 1, (args, err)
        assert err.count("\n") == 1 and str(played) in " ".join(err.split()), err
    assert played.read_bytes() == before


def _export(played: Path) -> dict[str, Any]:
    with GameFile.open(played, find_game) as gf:
        data: dict[str, Any] = json.loads(json.dumps(gf.export()))
    return data


def _digital(data: dict[str, Any]) -> list[tuple[int, int]]:
    return [(i, j) for i, e in enumerate(data["entries"]) for j, r in enumerate(e["rolls"])
            if r["source"] == "digital"]


def _roll(data: dict[str, Any], at: tuple[int, int]) -> dict[str, Any]:
    roll: dict[str, Any] = data["entries"][at[0]]["rolls"][at[1]]
    return roll


def _sync(data: dict[str, Any], i: int) -> None:
    data["entries"][i]["record"]["rolls"] = data["entries"][i]["rolls"]


def x_relabel_physical(data: dict[str, Any]) -> None:
    at = _digital(data)[2]
    _roll(data, at).update(source="physical", index=None, epoch=None, faces=[7 - _roll(data, at)["faces"][0]])
    _sync(data, at[0])


def x_empty_seeds(data: dict[str, Any]) -> None:
    data["seeds"] = []


def x_epoch_99(data: dict[str, Any]) -> None:
    at = _digital(data)[0]
    _roll(data, at)["epoch"] = 99
    _sync(data, at[0])


def x_deleted_roll(data: dict[str, Any]) -> None:
    at = _digital(data)[1]
    del data["entries"][at[0]]
    for n, e in enumerate(data["entries"], 1):
        e["seq"] = n


def x_duplicated_entry(data: dict[str, Any]) -> None:
    at = _digital(data)[1]
    data["entries"].insert(at[0] + 1, dict(data["entries"][at[0]]))


def x_revealed_roll_other_epoch(data: dict[str, Any]) -> None:
    at = _digital(data)[0]
    _roll(data, at)["epoch"] = 1
    _sync(data, at[0])


def x_moved_to_unused_index(data: dict[str, Any]) -> None:
    at = _digital(data)[-1]
    _roll(data, at)["index"] += 3
    data["next_roll_index"] += 3
    _sync(data, at[0])


def x_appended_from_revealed_seed(data: dict[str, Any]) -> None:
    from referee.dice import derive_faces

    at = _digital(data)[-1]
    seed = data["seeds"][0]["seed"]
    roll = dict(_roll(data, at))
    index = data["next_roll_index"]
    roll.update(index=index, epoch=0,
                faces=list(derive_faces(bytes.fromhex(seed), data["game_id"], index, roll["purpose"], 1, 6)))
    data["entries"][at[0]]["rolls"].append(roll)
    data["next_roll_index"] += 1
    _sync(data, at[0])


def x_seed_and_commitment_swapped(data: dict[str, Any]) -> None:
    s = data["seeds"][0]
    s["seed"], s["commitment"] = s["commitment"], s["seed"]


EXPORT_FORGERIES: list[Callable[[dict[str, Any]], None]] = [
    x_relabel_physical, x_empty_seeds, x_epoch_99, x_deleted_roll, x_duplicated_entry, x_revealed_roll_other_epoch,
    x_moved_to_unused_index, x_appended_from_revealed_seed, x_seed_and_commitment_swapped,
]


@pytest.mark.parametrize("forge", EXPORT_FORGERIES, ids=lambda f: f.__name__)
def test_a_forged_export_is_refused(played: Path, tmp_path: Path, forge: Callable[[dict[str, Any]], None]) -> None:
    data = _export(played)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(data), encoding="utf-8")
    assert cli("dice", "verify", str(good))[0] == 0
    forge(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(reforge_export(data)), encoding="utf-8")
    code, err = cli("dice", "verify", str(bad))
    assert code == 1 and err.count("\n") == 1 and "bad.json" in err, err
    target = tmp_path / "imported.referee"
    code, err = cli("import", str(bad), "--file", str(target))
    assert code == 1 and err.count("\n") == 1 and "bad.json" in err, err
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "good.json",
                                                                                   "race.referee"]


def test_an_honest_export_imports_and_verifies(played: Path, tmp_path: Path) -> None:
    data = _export(played)
    src = tmp_path / "game.json"
    src.write_text(json.dumps(data), encoding="utf-8")
    code, err = cli("import", str(src), "--file", str(tmp_path / "copy.referee"))
    assert code == 0, err
    assert cli("dice", "verify", str(tmp_path / "copy.referee"))[0] == 0
    with GameFile.open(tmp_path / "copy.referee", find_game) as gf:
        gf.do("roll")  # the fresh seed committed at import rolls on
        assert gf.entries()[-1].rolls[0].epoch == 2
        gf.reveal()
    assert cli("dice", "verify", str(tmp_path / "copy.referee"))[0] == 0
