"""Fuzz of game files and dice records (issues 8 and 17): mutated real game files and exports,
random honest sessions, through the real CLI. Seeded and bounded; see docs/fuzz.md for figures."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .game_files_harness import SETUP, run_mix

REFEREE = str(Path(sys.executable).parent / "referee")



def test_short_fuzz_of_game_files_and_dice(tmp_path: Path) -> None:
    tally = run_mix(tmp_path, seed=20261125, cases=300)
    assert tally.cases >= 300
    assert tally.exits[0] > 50 and tally.exits[1] > 60  # both honest answers and refusals were reached
    assert not tally.defects, "\n".join(tally.defects)


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(8))
def test_long_fuzz_of_game_files_and_dice(tmp_path: Path, seed: int) -> None:
    tally = run_mix(tmp_path, seed=1000 + seed, cases=3750)
    target = os.environ.get("FUZZ_LOG")
    if target:
        with open(target, "a", encoding="utf-8") as f:
            f.write(json.dumps({"kind": "game-files", "seed": 1000 + seed, "cases": tally.cases, "wal": tally.wal,
                                "exits": {str(k): v for k, v in tally.exits.items()},
                                "defects": len(tally.defects)}) + "\n")
    assert not tally.defects, "\n".join(tally.defects)


def test_console_script_on_mutated_game_files() -> None:
    """A few cases through the real console script: the same oracle, in a fresh process each time."""
    import random
    import sqlite3

    gen = random.Random(17)
    folder = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    try:
        env = {**os.environ, "COLUMNS": "80"}
        env.pop("REFEREE_FILE", None)
        base = folder / "base.referee"
        done = subprocess.run([REFEREE, "new", "cyrus-pyxis", "--setup", str(SETUP), "--file", str(base)],
                              capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 0, done.stderr
        statements = [
            "UPDATE journal SET rolls = 'null' WHERE seq = 2", "DROP TABLE seeds",
            "UPDATE seeds SET seed = NULL", "UPDATE journal SET undone = 1 WHERE seq = 3",
            "UPDATE meta SET value = '{\"a\": []}' WHERE key = 'tables'", "DELETE FROM journal WHERE seq = 5",
        ]
        for sql in statements:
            game = folder / "game.referee"
            shutil.copy(base, game)
            conn = sqlite3.connect(game)
            conn.executescript(sql)
            conn.close()
            before = game.read_bytes()
            args = gen.choice([["undo", "--force"], ["do", "Pergame L7"], ["dice", "reveal"], ["redo"], ["log"]])
            proc = subprocess.run([REFEREE, *args, "--file", str(game)], capture_output=True, text=True, env=env,
                                  timeout=60)
            assert proc.returncode == 1, (sql, args, proc.stderr)
            assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
            assert game.read_bytes() == before
            assert sorted(p.name for p in folder.iterdir()) == ["base.referee", "game.referee"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
