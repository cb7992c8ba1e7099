"""What checking the whole journal before every write costs (issues 8, 17): a 300-action game.

A Cyrus & Pyxis game of 300 journaled actions (set-up, then seeded RandomBot moves and combats with
digital dice) is built with the code under test; then one more action is played the way the
command line plays it: open the file, ``do``, close (the journal is checked and replayed on each
open). The same is timed with an older tree (``--before``, e.g. a checkout of main before the
hardening) in a separate process, and the ratio reported.

Run: ``python bench/bench_chain_check.py [--before /path/to/old/tree] [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, random, shutil, statistics, sys, tempfile, time
from pathlib import Path
from referee.games import find_game
from referee.games.cyrus_pyxis.bot import RandomBot
from referee.games import find_game
from referee.journal import GameFile
from referee.tables import data_root, load_table_set
import yaml

actions, runs = int(sys.argv[1]), int(sys.argv[2])
engine = find_game("cyrus-pyxis")
folder = Path(tempfile.mkdtemp())
path = folder / "game.referee"
setup = yaml.safe_load((data_root("samples") / "cyrus-pyxis" / "setup.yaml").read_text(encoding="utf-8"))
rng = random.Random(3)
bot = RandomBot(engine)
with GameFile.create(path, engine, load_table_set("cyrus-pyxis")) as gf:
    for text in engine.setup_actions(gf.state(), setup, "setup.yaml"):
        gf.do(text)
    done = rolls = 0
    while done < actions:
        state = gf.state()
        if engine.outcome(state) is not None:  # take the ending back (a forced undo) and play on
            gf.undo(force=True)
            continue
        record = gf.do(bot.choose(state, rng).action.text())
        rolls += len(record.rolls)
        done += 1
    if engine.outcome(gf.state()) is not None:
        gf.undo(force=True)
    entries = len(gf.entries())
    nxt = bot.choose(gf.state(), rng).action.text()
times, opens = [], []
for _ in range(runs):
    copy = folder / "run.referee"
    shutil.copy(path, copy)
    t0 = time.perf_counter()
    with GameFile.open(copy, find_game) as gf:
        gf.entries()
        gf.state()
    opens.append(time.perf_counter() - t0)
    shutil.copy(path, copy)
    t0 = time.perf_counter()
    with GameFile.open(copy, find_game) as gf:
        gf.do(nxt)
    times.append(time.perf_counter() - t0)
shutil.rmtree(folder)
print(json.dumps({"entries": entries, "bot_actions": done, "digital_rolls": rolls,
                  "do_ms": statistics.median(times) * 1000, "read_ms": statistics.median(opens) * 1000}))
"""


def measure(tree: Path | None, actions: int, runs: int) -> dict[str, float]:
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    out = subprocess.run([sys.executable, "-c", CHILD, str(actions), str(runs)], capture_output=True, text=True,
                         env=env, cwd=tempfile.gettempdir())
    if out.returncode != 0:
        raise SystemExit(f"the timed process failed:\n{out.stderr[-2000:]}")
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an older source tree to compare with")
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    after = measure(None, args.actions, args.runs)
    report: dict[str, object] = {"cpus": os.cpu_count(), "after": after}
    if args.before is not None:
        before = measure(args.before, args.actions, args.runs)
        report["before"] = before
        report["do_ratio"] = round(after["do_ms"] / before["do_ms"], 2)
        report["read_ratio"] = round(after["read_ms"] / before["read_ms"], 2)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
