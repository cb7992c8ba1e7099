"""The game-file and dice side of the fuzz: mutated game files, mutated exports, random sessions.

Every case runs a real command (typer's CliRunner, in-process, for speed; the console script in
a few cases) on a real SQLite file and judges it by one oracle:

* nothing escapes that is not a referee error (no traceback) and the exit code is 0 or 1;
* a refusal (exit 1) says something on stderr, and leaves every file byte-identical;
* nothing is left beside the game file (no ``-journal``, ``-wal``, ``-shm``, no temporary file);
* the case ends within :data:`CASE_SECONDS` (a hang is a failure);
* in honest sessions, ``dice verify`` always passes.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.games import find_game
from referee.journal import GameFile
from tests.runner import CliRunner

sys.path.insert(0, str(Path(__file__).parents[1]))
from forge import reforge_export, reforge_file
from race_game import race_tables, register

CASE_SECONDS = 20.0
SETUP = Path(__file__).parents[2] / "samples" / "cyrus-pyxis" / "setup.yaml"


class Hang(Exception):
    """A case ran past its time."""


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Tally:
    cases: int = 0
    exits: Counter[int] = field(default_factory=Counter)
    defects: list[str] = field(default_factory=list)
    wal: int = 0
    """Cases whose game file was left with a WAL by a (simulated) crash."""

    def defect(self, what: str) -> None:
        if len(self.defects) < 20:
            self.defects.append(what)


_runner = CliRunner()


def cli(*args: str) -> tuple[int, str, BaseException | None]:
    """Runs one command in-process; returns exit code, stderr and any exception that escaped."""
    reset_consoles()
    result = _runner.invoke(app, list(args), catch_exceptions=True)
    reset_consoles()
    exc = result.exception if not isinstance(result.exception, SystemExit) else None
    return result.exit_code, result.stderr, exc


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def judge(tally: Tally, label: str, folder: Path, args: tuple[str, ...], writes_allowed: bool = True) -> int:
    """Runs ``args`` in ``folder`` and checks the oracle; returns the exit code."""
    before = snapshot(folder)
    old = Path.cwd()
    os.chdir(folder)
    try:
        with deadline(CASE_SECONDS):
            code, err, exc = cli(*args)
    except Hang as hang:
        tally.defect(f"{label} {args}: {hang}")
        return -1
    finally:
        os.chdir(old)
    tally.cases += 1
    tally.exits[code] += 1
    if exc is not None:
        tally.defect(f"{label} {args}: {type(exc).__name__}: {exc}"[:300])
    elif code not in (0, 1):
        tally.defect(f"{label} {args}: exit {code}")
    elif code == 1 and not err.strip():
        tally.defect(f"{label} {args}: refused without a word")
    elif "Traceback" in err:
        tally.defect(f"{label} {args}: traceback on stderr")
    after = snapshot(folder)
    names = set(after) - set(before)
    side = [n for n in names if n.startswith(".") or n.endswith(("-journal", "-wal", "-shm", ".tmp"))]
    for name in [n for n in after if n.endswith("-shm") and n in before]:  # SQLite's WAL index: not data
        before.pop(name)
        after.pop(name)
    if code == 1 and after != before:
        tally.defect(f"{label} {args}: refused but files changed {sorted(set(after) ^ set(before)) or 'bytes'}")
    if side:
        tally.defect(f"{label} {args}: left {side}")
    return code


# ---- corpus -------------------------------------------------------------------------------------


def race_game(folder: Path, gen: random.Random, moves: int = 8) -> Path:
    """A race game with digital and physical rolls, undos, redos and a reveal."""
    engine = register()
    path = folder / "game.referee"
    with GameFile.create(path, engine, race_tables()) as gf:
        for n in range(moves):
            pick = gen.random()
            if pick < 0.15:
                gf.reveal()
            elif pick < 0.3 and any(e.active for e in gf.entries()):
                gf.undo(force=True)
                if gen.random() < 0.5:
                    gf.redo()
            elif pick < 0.45:
                gf.do("double", faces=[gen.randint(1, 6), gen.randint(1, 6)])
            elif pick < 0.55:
                gf.do("score 3", adjust_reason=f"fix {n}")
            else:
                gf.do(gen.choice(["roll", "double", "step"]))
    return path


def cyrus_game(folder: Path) -> Path:
    engine_path = folder / "game.referee"
    code, err, exc = cli("new", "cyrus-pyxis", "--setup", str(SETUP), "--file", str(engine_path))
    assert code == 0 and exc is None, err
    for args in (("do", "Pergame L7", "--file", str(engine_path)), ("undo", "--file", str(engine_path))):
        cli(*args)
    return engine_path


# ---- mutations of a game file ---------------------------------------------------------------

JUNK: list[object] = [
    None, 0, -1, 1, 2**62, "", "x", "null", "[]", "{}", "5", "[1, 2]", '{"a": 1}', "[" * 200,
    b"\xff\xfe", b"\x00", "nan", "1e400", "é" * 50, '{"purpose": 1}', "0" * 64, "g" * 64, "referee-game/2",
    '[{"purpose": "x", "sides": 6, "faces": [9], "source": "digital", "index": 1, "epoch": 0}]',
]


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _mutate_json(value: Any, gen: random.Random, depth: int = 0) -> Any:
    """Returns ``value`` with one random change somewhere inside."""
    if isinstance(value, dict) and value and depth < 6:
        key = gen.choice(list(value))
        out = dict(value)
        roll = gen.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.25:
            out[key + "_x"] = 1
        else:
            out[key] = _mutate_json(value[key], gen, depth + 1)
        return out
    if isinstance(value, list) and value and depth < 6:
        i = gen.randrange(len(value))
        out_list = list(value)
        roll = gen.random()
        if roll < 0.15:
            del out_list[i]
        elif roll < 0.3:
            out_list.insert(i, value[i])
        else:
            out_list[i] = _mutate_json(value[i], gen, depth + 1)
        return out_list
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return gen.choice([value + 1, value - 1, 0, -value, 10**12, 10**20, None, str(value)])
    if isinstance(value, str):
        return gen.choice(["", value + "x", value[::-1], "digital", "physical", None, 7, "[/bold]", "0" * 64])
    return gen.choice([None, 1, "x", [], {}])


def mutate_file(path: Path, gen: random.Random) -> str:
    """Alters a game file at the SQL or byte level; returns what was done."""
    kind = gen.random()
    if kind < 0.08:
        data = bytearray(path.read_bytes())
        for _ in range(gen.randint(1, 8)):
            data[gen.randrange(len(data))] = gen.randrange(256)
        path.write_bytes(bytes(data))
        return "bytes flipped"
    if kind < 0.12:
        data = path.read_bytes()
        path.write_bytes(data[: gen.randrange(len(data))])
        return "truncated"
    conn = sqlite3.connect(path)
    conn.text_factory = bytes
    what = "?"
    try:
        tables = _tables(conn)
        table = gen.choice(tables)
        cols = _columns(conn, table)
        if kind < 0.16:
            conn.execute(f"DROP TABLE {table}")
            if gen.random() < 0.5:
                conn.execute(f"CREATE VIEW {table} AS SELECT 1 AS {cols[0]}")
            what = f"drop {table}"
        elif kind < 0.2:
            col = gen.choice(cols)
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {col}")
            what = f"drop {table}.{col}"
        elif kind < 0.3:
            conn.execute(f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} ORDER BY random() LIMIT 1)")
            what = f"delete a {table} row"
        elif kind < 0.55:
            col = gen.choice(cols)
            value = gen.choice(JUNK)
            conn.execute(f"UPDATE {table} SET {col} = ? WHERE rowid IN "
                         f"(SELECT rowid FROM {table} ORDER BY random() LIMIT 1)", (value,))
            what = f"{table}.{col} = {value!r}"[:80]
        else:
            col = gen.choice([c for c in cols if c in ("rolls", "record", "verdict", "detail", "value", "action")]
                             or cols)
            rows = conn.execute(f"SELECT rowid, {col} FROM {table}").fetchall()
            rows = [r for r in rows if isinstance(r[1], bytes) and r[1][:1] in (b"[", b"{")]
            if rows:
                rowid, raw = gen.choice(rows)
                changed = json.dumps(_mutate_json(json.loads(raw), gen), ensure_ascii=False)
                conn.execute(f"UPDATE {table} SET {col} = ? WHERE rowid = ?", (changed, rowid))
            what = f"json in {table}.{col}"
        conn.commit()
    except sqlite3.Error as exc:
        what = f"sql refused ({exc})"
    finally:
        conn.close()
    if kind >= 0.55 and gen.random() < 0.6:
        try:
            reforge_file(path, rehash=gen.random() < 0.5)
            what += " + reforged"
        except Exception:
            pass  # the forger's own tool gave up on this file: the mutation stands as it is
    return what


READ_COMMANDS: list[tuple[str, ...]] = [
    ("log",), ("show",), ("export",), ("dice", "status"), ("dice", "verify", "game.referee"), ("log", "--json"),
]
WRITE_COMMANDS: list[tuple[str, ...]] = [
    ("do", "roll"), ("do", "step"), ("do", "double", "--dice", "3,4"), ("undo",), ("undo", "--force"), ("redo",),
    ("dice", "reveal"), ("adjust", "score 5", "--reason", "fix"), ("export", "out.json"),
]


def game_file_case(tally: Tally, base: Path, work: Path, gen: random.Random) -> None:
    """One case: a copy of a real game file, mutated, then one command on it."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    shutil.copy(base, work / "game.referee")
    what = mutate_file(work / "game.referee", gen)
    if gen.random() < 0.06:
        crashed = crash_with_a_wal(work / "game.referee")
        tally.wal += crashed.startswith(" + ")
        what += crashed
    args = gen.choice(READ_COMMANDS + WRITE_COMMANDS)
    judge(tally, f"file[{what}]", work, args)


def crash_with_a_wal(path: Path) -> str:
    """Leaves the file as a program using SQLite's WAL mode leaves it when it dies after a commit:
    the commit is in the ``-wal`` file only (issue 29: a refused command must not rewrite the file)."""
    import subprocess

    code = ("import os, sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.execute('PRAGMA journal_mode=WAL')\n"
            "c.execute('CREATE TABLE crash_note (x)')\nc.commit()\nos._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, timeout=60)
    return " + a WAL left by a crash" if done.returncode == 0 else " (no WAL: not a database)"


# ---- mutations of an export ---------------------------------------------------------------------


def export_case(tally: Tally, export: dict[str, Any], work: Path, gen: random.Random) -> None:
    """One case: a real export, mutated (and often reforged), then verified and imported."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    data = _mutate_json(export, gen)
    for _ in range(gen.randint(0, 2)):
        data = _mutate_json(data, gen)
    if isinstance(data, dict) and gen.random() < 0.6:
        with suppress(Exception):  # when the forger's tool cannot rebuild one, it goes in as it is
            data = reforge_export(data)
    text = json.dumps(data, ensure_ascii=False)
    if gen.random() < 0.05:
        text = text[: gen.randrange(len(text) + 1)]
    (work / "x.json").write_text(text, encoding="utf-8")
    judge(tally, "export", work, ("dice", "verify", "x.json"))
    judge(tally, "export", work, ("import", "x.json", "--file", "new.referee"))


# ---- honest random sessions ---------------------------------------------------------------------

SESSION: list[tuple[str, ...]] = [
    ("do", "roll"), ("do", "double"), ("do", "step"), ("do", "double", "--dice", "6,1"), ("do", "roll", "--dice", "9"),
    ("do", "fly"), ("undo",), ("undo", "--force"), ("redo",), ("dice", "reveal"), ("dice", "status"),
    ("adjust", "score 2", "--reason", "house rule"), ("adjust", "score 2", "--reason", " "),
    ("export", "out.json"), ("export", "out.json", "--force"),
    ("import", "out.json", "--file", "game.referee", "--force"),
    ("import", "out.json", "--file", "copy.referee", "--force"), ("log",),
]


def session_case(tally: Tally, work: Path, gen: random.Random, steps: int = 12) -> None:
    """A random honest session on a race game: every command judged, dice always verifying."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    race_game(work, gen, moves=gen.randint(0, 4))
    for _ in range(steps):
        args = gen.choice(SESSION)
        judge(tally, "session", work, args)
        if args[0] in ("do", "undo", "redo", "dice", "import", "adjust"):
            code = judge(tally, "session", work, ("dice", "verify", "game.referee"))
            if code != 0:
                tally.defect(f"session: an honest game stopped verifying after {args}")
                return


def run_mix(tmp: Path, seed: int, cases: int) -> Tally:
    """Runs about ``cases`` cases: mutated files (race and Cyrus & Pyxis), mutated exports, sessions."""
    gen = random.Random(seed)
    tally = Tally()
    corpus = tmp / "corpus"
    corpus.mkdir()
    bases: list[Path] = []
    for n in range(3):
        folder = corpus / f"race{n}"
        folder.mkdir()
        bases.append(race_game(folder, gen, moves=10 + 5 * n))
    cyrus = corpus / "cyrus"
    cyrus.mkdir()
    bases.append(cyrus_game(cyrus))
    exports = []
    for base in bases:
        with GameFile.open(base, find_game) as gf:
            exports.append(json.loads(json.dumps(gf.export())))
    work = tmp / "work"
    start = time.monotonic()
    while tally.cases < cases:
        pick = gen.random()
        if pick < 0.55:
            base = bases[-1] if gen.random() < 0.05 else gen.choice(bases[:-1])
            game_file_case(tally, base, work, gen)
        elif pick < 0.9:
            export_case(tally, exports[-1] if gen.random() < 0.05 else gen.choice(exports[:-1]), work, gen)
        else:
            session_case(tally, work, gen)
    tally.exits[-99] = int(time.monotonic() - start)  # seconds, reported by the test
    return tally


