"""Benchmarks of the Cyrus & Pyxis referee (figures for the README; not a test).

1. In-process judge of a move: median and p99 over moves drawn from seeded random games.
2. Cold ``referee judge ... --json`` process time against ``python -c "import typer, rich,
   pydantic"`` on the same machine, as a ratio (medians of interleaved runs).
3. Seeded random full games per second through the engine API (RandomBot, one core).

Run: ``python bench/bench_cyrus.py [--games N] [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.dice import NoDice
from referee.games import find_game
from referee.games.cyrus_pyxis.bot import RandomBot
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Phase

ENGINE = find_game("cyrus-pyxis")
assert isinstance(ENGINE, CyrusEngine)


def start() -> CyrusState:
    state = ENGINE.sample_start()
    assert isinstance(state, CyrusState)
    return state


def bench_judge(samples: int) -> dict[str, float]:
    """Median and p99 time of judge() on a move, over positions from random games."""
    rng = random.Random(1)
    bot = RandomBot(ENGINE)
    initial = start()
    cells = [initial.tables.grid.name(c) for c in initial.tables.grid.cells()]
    pairs = []
    state = initial
    while len(pairs) < samples:
        if state.phase is Phase.OVER:
            state = initial
        if state.phase is Phase.MOVE:
            movers = ENGINE.movable(state) or [lg.name for lg in state.tables.legions if lg.name in state.where]
            action = ENGINE.parse(state, f"{rng.choice(movers)} {rng.choice(cells)}")
            pairs.append((state, action))
        state = ENGINE.apply(state, bot.choose(state, rng).action, NoDice()).state  # type: ignore[assignment]
    times = []
    legal = 0
    for st, action in pairs:
        t0 = time.perf_counter()
        verdict = ENGINE.judge(st, action)
        times.append(time.perf_counter() - t0)
        legal += verdict.legal
    times.sort()
    return {"samples": samples, "legal_share": legal / samples,
            "median_ms": statistics.median(times) * 1000, "p99_ms": times[int(0.99 * len(times))] * 1000}


def bench_games(games: int) -> dict[str, float]:
    """Seeded random full games per second through the engine API (set-up excluded)."""
    initial = start()
    bot = RandomBot(ENGINE)
    actions = 0
    turns = []
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = initial
        while state.phase is not Phase.OVER:
            state = ENGINE.apply(state, bot.choose(state, rng).action, NoDice()).state  # type: ignore[assignment]
            actions += 1
        turns.append(state.turn)
    elapsed = time.perf_counter() - t0
    return {"games": games, "games_per_s": games / elapsed, "actions_per_game": actions / games,
            "turns_median": statistics.median(turns), "us_per_action": elapsed / actions * 1e6}


def bench_cold(runs: int) -> dict[str, float]:
    """Cold process time of `referee judge --json` against importing typer, rich and pydantic."""
    exe = shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"
    with tempfile.TemporaryDirectory() as tmp:
        pos = Path(tmp) / "pos.json"
        pos.write_text(json.dumps({"game": "cyrus-pyxis", "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},
                                   "persian": {"Cyrus": "L6", "Amatonte": "B6"}}), encoding="utf-8")
        commands = {
            "baseline": [sys.executable, "-c", "import typer, rich, pydantic"],
            "judge_json": [exe, "judge", "cyrus-pyxis", "--position", str(pos), "Pyxis C6", "--json"],
            "judge_text": [exe, "judge", "cyrus-pyxis", "--position", str(pos), "Pyxis C6"],
        }
        for cmd in commands.values():  # warm the file cache and bytecode
            subprocess.run(cmd, capture_output=True, check=True)
        times: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(runs):
            for name, cmd in commands.items():
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True, check=True)
                times[name].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    return {"runs": runs, "baseline_ms": med["baseline"], "judge_json_ms": med["judge_json"],
            "judge_text_ms": med["judge_text"], "ratio_json": med["judge_json"] / med["baseline"],
            "ratio_text": med["judge_text"] / med["baseline"]}


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--samples", type=int, default=5000)
    args = parser.parse_args()
    results = {"machine": machine(), "judge": bench_judge(args.samples), "games": bench_games(args.games),
               "cold": bench_cold(args.runs)}
    j, g, c = results["judge"], results["games"], results["cold"]
    print(f"machine: {results['machine']}")
    print(f"judge a move in-process: median {j['median_ms']:.3f} ms, p99 {j['p99_ms']:.3f} ms "
          f"({j['samples']} moves, {j['legal_share']:.0%} legal; target median <= 0.2 ms)")
    print(f"cold `referee judge --json`: {c['judge_json_ms']:.0f} ms vs baseline {c['baseline_ms']:.0f} ms "
          f"= {c['ratio_json']:.2f}x (text output {c['judge_text_ms']:.0f} ms = {c['ratio_text']:.2f}x; "
          "target <= 1.5x)")
    print(f"random full games: {g['games_per_s']:.1f} games/s on one core ({g['games']} games, "
          f"{g['actions_per_game']:.0f} actions and {g['turns_median']:.0f} turns per game, "
          f"{g['us_per_action']:.0f} us per action; target >= 50 games/s)")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
