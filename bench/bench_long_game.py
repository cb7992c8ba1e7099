"""A long game costs what a short one does: ``status``, ``do`` and ``legal`` on a Zargo's Lords
file after 840+ bot moves against the same commands after 10 (docs/performance.md).

Builds the long game with ``referee bot --moves 840`` on a four-player set-up (a game still going,
so ``do`` and ``legal`` have something to judge), trying bot seeds until one gets there (a game
that ends sooner is reported, and the longest one still going is used), and a 10-move game; then
times each command on both, paired and interleaved (median of 9 paired runs, CPU time of the
child process: user + system), and prints the ratios. ``do`` runs on a fresh copy each time with
the action the bot would play there; ``legal`` asks about the hex that action starts from.

    python bench/bench_long_game.py [--runs 9] [--target 840]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REFEREE = [sys.executable, "-m", "referee"]


def run(args: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Runs ``referee ARGS`` and returns the child's CPU seconds (user + system) and the result."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(REFEREE + args, cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "REFEREE_LANG": "en"}, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def entries(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
    finally:
        conn.close()


def build(folder: Path, name: str, moves: int, seed: int) -> Path:
    path = folder / name
    run(["new", "zargo", "--players", "4", "--file", str(path), "--force"], folder)
    run(["bot", "--file", str(path), "--seed", str(seed), "--moves", str(moves), "--json"], folder)
    return path


def next_action(path: Path, folder: Path) -> str | None:
    """Returns the action the bot would play next (None when the game is over)."""
    _cpu, done = run(["bot", "--file", str(path), "--seed", "0", "--dry-run", "--json"], folder)
    try:
        return str(json.loads(done.stdout)["action"])
    except (ValueError, KeyError):
        return None


def a_unit(action: str) -> str:
    """Returns the hex a move starts from (for ``legal``), else a hex of the board."""
    first = action.split()[0]
    return first if first.isdigit() and len(first) == 4 else "0512"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--target", type=int, default=840)
    opts = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-long-"))
    try:
        best: tuple[Path, str] | None = None
        for seed in range(1, 13):
            path = build(folder, f"long-{seed}.referee", opts.target, seed)
            action = next_action(path, folder)
            if action is not None and (best is None or entries(path) > entries(best[0])):
                best = (path, action)
            if best is not None and entries(best[0]) >= opts.target:
                break
        assert best is not None, "no long game still going"
        short = build(folder, "short.referee", 10, 3)
        short_action = next_action(short, folder)
        assert short_action is not None
        print(f"long game: {entries(best[0])} journal entries ({best[0].stem}, still going); "
              f"short game: {entries(short)}"
              + ("" if entries(best[0]) >= opts.target else f" — no game still going reached {opts.target}"))
        games = {"short": short, "long": best[0]}
        acts = {"short": short_action, "long": best[1]}
        units = {k: a_unit(a) for k, a in acts.items()}
        commands = {
            "status": lambda k, p: ["status", "--file", str(p)],
            "legal": lambda k, p: ["legal", units[k], "--file", str(p)],
            "do": lambda k, p: ["do", *acts[k].split(), "--file", str(p)],
        }
        for name, args in commands.items():
            times: dict[str, list[float]] = {"short": [], "long": []}
            for _i in range(opts.runs):
                for key, path in games.items():
                    target = path
                    if name == "do":
                        target = folder / f"copy-{key}.referee"
                        shutil.copyfile(path, target)
                    cpu, done = run(args(key, target), folder)
                    if done.returncode not in (0, 1):
                        raise SystemExit(f"{name} on {key}: exit {done.returncode}: {done.stderr[:300]}")
                    times[key].append(cpu)
            s, lg = statistics.median(times["short"]), statistics.median(times["long"])
            print(f"{name:7} short {s * 1000:7.1f} ms  long {lg * 1000:7.1f} ms  ratio {lg / s:.2f}x "
                  f"(median of {opts.runs} paired runs, child CPU)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
