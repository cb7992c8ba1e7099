"""Benchmarks of the Iliad referee (figures for the README; not a test).

1. Exact duel odds (full enumeration with Fractions): median and worst time over every pair of
   hero values 2-9, unhurt and wounded (target ≤ 20 ms a duel), plus open-battle odds.
2. In-process ``judge`` of a move and ``legal`` report of a counter: median and p99 over
   positions drawn from seeded random games.
3. Seeded random full four-day games (the playout policy of referee.games.iliad.bot) per second
   on one core, with actions per game.
4. Cold ``referee odds iliad --position ... --json`` process time (median of runs).

Run: ``python bench/bench_iliad.py [--games N] [--runs N]``.
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

from referee.dice import CommittedDice
from referee.games import find_game
from referee.games.iliad.bot import RandomPolicy
from referee.games.iliad.engine import IliadEngine
from referee.games.iliad.odds import battle_distribution, duel_distribution
from referee.games.iliad.state import IliadState, Phase
from referee.tables import data_root

ENGINE = find_game("iliad")
assert isinstance(ENGINE, IliadEngine)


def start() -> IliadState:
    state = ENGINE.sample_start()
    assert isinstance(state, IliadState)
    return state


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


def bench_odds(repeats: int) -> dict[str, float]:
    """Exact duel odds for every pair of hero values, unhurt and wounded; battle odds."""
    tables = start().tables
    times: list[float] = []
    for a in range(2, 10):
        for d in range(2, 10):
            for wounded in ((False, False), (True, False), (False, True)):
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    dist = duel_distribution(tables, (a, d), wounded)
                    times.append(time.perf_counter() - t0)
                    assert sum(dist.values()) == 1
    battle: list[float] = []
    for a in range(1, 12):
        t0 = time.perf_counter()
        battle_distribution((a, 2), (False, False))
        battle.append(time.perf_counter() - t0)
    state = start()
    report: list[float] = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        ENGINE.odds(state, "Menelao x Paride")
        report.append(time.perf_counter() - t0)
    return {
        "duel_odds_median_ms": ms(statistics.median(times)), "duel_odds_max_ms": ms(max(times)),
        "duel_odds_p99_ms": ms(sorted(times)[int(0.99 * (len(times) - 1))]), "duels_timed": len(times),
        "odds_report_median_ms": ms(statistics.median(report)),
        "battle_odds_median_ms": ms(statistics.median(battle)),
    }


def bench_judge(samples: int) -> dict[str, float]:
    """Median and p99 of judge() on a move and of a legal report, from positions of random games."""
    rng = random.Random(1)
    initial = start()
    policy = RandomPolicy(ENGINE, rng)
    dice = CommittedDice(b"bench-judge", "bench")
    grid = initial.tables.board.grid
    judge_times: list[float] = []
    legal_times: list[float] = []
    state = initial
    while len(judge_times) < samples:
        if state.phase is Phase.OVER:
            state = initial
        if state.phase is Phase.MOVE:
            movers = ENGINE.movable(state)
            if movers:
                counter = rng.choice(movers)
                here = state.where[counter.id]
                r, c = grid.rc(here)
                cell = grid.cell(min(grid.rows - 1, max(0, r + rng.randint(-8, 8))),
                                 min(grid.cols - 1, max(0, c + rng.randint(-8, 8))))
                action = ENGINE.parse(state, f"{counter.id} {grid.name(cell)}")
                t0 = time.perf_counter()
                ENGINE.judge(state, action)
                judge_times.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                ENGINE.legal_report(state, counter.id)
                legal_times.append(time.perf_counter() - t0)
        state = ENGINE.apply(state, policy.choose(state), dice).state  # type: ignore[assignment]
    judge_times.sort()
    legal_times.sort()
    p99 = int(0.99 * (len(judge_times) - 1))
    return {"judge_median_ms": ms(statistics.median(judge_times)), "judge_p99_ms": ms(judge_times[p99]),
            "legal_median_ms": ms(statistics.median(legal_times)), "legal_p99_ms": ms(legal_times[p99]),
            "samples": len(judge_times)}


def bench_games(games: int) -> dict[str, float]:
    """Seeded random four-day games per second through the engine API (one core)."""
    initial = start()
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        policy = RandomPolicy(ENGINE, rng)
        dice = CommittedDice(seed.to_bytes(8, "big"), f"bench-{seed}")
        state = initial
        while state.phase is not Phase.OVER:
            state = ENGINE.apply(state, policy.choose(state), dice).state  # type: ignore[assignment]
            actions += 1
    elapsed = time.perf_counter() - t0
    return {"games": games, "games_per_second": round(games / elapsed, 2),
            "ms_per_game": ms(elapsed / games), "actions_per_game": round(actions / games, 1)}


def bench_cli(runs: int) -> dict[str, float]:
    """Cold process time of ``referee odds iliad --position FILE ATTACK --json``."""
    exe = shutil.which("referee") or str(Path(sys.executable).with_name("referee"))
    position = data_root("samples") / "iliad" / "duel-example.yaml"
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([exe, "odds", "iliad", "--position", str(position), "Menelao x Antimaco", "--json"],
                           check=True, capture_output=True, cwd=tmp)
            times.append(time.perf_counter() - t0)
    return {"odds_cli_median_ms": ms(statistics.median(times)), "runs": runs}


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    machine = {"python": platform.python_version(), "machine": platform.machine(), "cpu": _cpu(),
               "system": platform.system(), "cpus": os.cpu_count(), "load_average": os.getloadavg()[0]}
    out = {"machine": machine, "odds": bench_odds(5), "judge": bench_judge(args.samples),
           "games": bench_games(args.games), "cli": bench_cli(args.runs)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
