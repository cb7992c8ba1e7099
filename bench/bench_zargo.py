"""Benchmarks of the Zargo's Lords referee (figures for docs/zargo.md; not a test).

1. In-process judge of a move on a full four-people position (every people's set-up placed
   until its continent is full or its box empty): median and p99, the occupancy cache cleared
   before each call (the cost a fresh state pays).
2. Legal moves of a flying lord (a Winged ``AIL``) on that position: median time of the search.
3. Seeded random full 25-month four-player games per second on one core (the random bot, sealed
   garrisons revealed when attacked, shown to act from their city and sealed again).
4. ``referee bot --until-end`` on a new four-people game file, in one process: seconds for the
   whole game (wall-clock and CPU), every action a committed transaction of the game file.

Run: ``python bench/bench_zargo.py [--samples N] [--games N] [--file-games N]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from referee.dice import NoDice
from referee.games import find_game
from referee.games.zargo import state as zstate
from referee.games.zargo.bot import RandomBot, playout, secret_action
from referee.games.zargo.engine import ZargoEngine
from referee.games.zargo.movement import destinations
from referee.games.zargo.state import Phase, ZargoState, unit
from referee.sealed import Seal, SealRequest
from referee.tables import load_table_set

ENGINE = find_game("zargo")
assert isinstance(ENGINE, ZargoEngine)


def full_position(seed: int = 3) -> ZargoState:
    """A four-people game just started, each people having placed as many counters as it could."""
    rng = random.Random(seed)
    bot = RandomBot(placed=1_000)
    s = ENGINE.new_state(load_table_set("zargo"))
    s = ENGINE.apply(s, ENGINE.parse(s, "players 4 chevaliers:1 dragons:2 ailes:3 moines:4"), NoDice()).state
    seals: dict[str, Seal] = {}
    while s.phase is Phase.SETUP:
        action = bot.choose(s, rng).action
        if isinstance(action, SealRequest):  # held here as a game file's private table holds it
            action = secret_action(s, action, seals, rng)
        s = ENGINE.apply(s, action, NoDice()).state  # type: ignore[arg-type]
    return s


def bench_judge(state: ZargoState, samples: int) -> dict[str, float]:
    rng = random.Random(1)
    grid = state.tables.world.grid
    own = [h for h, stack in state.board.items() if unit(state, stack[0]).people == state.active]
    cells = [grid.name(c) for c in grid.cells()]
    times = []
    for _ in range(samples):
        action = ENGINE.parse(state, f"{rng.choice(own)} {rng.choice(cells)}")
        zstate._LAST.clear()
        t0 = time.perf_counter()
        ENGINE.judge(state, action)
        times.append(time.perf_counter() - t0)
    times.sort()
    return {"median_ms": statistics.median(times) * 1e3, "p99_ms": times[int(len(times) * 0.99) - 1] * 1e3}


def bench_flyer(state: ZargoState, samples: int) -> dict[str, float]:
    s = state
    for _ in range(3):  # the Winged play third
        if s.active == "ailes":
            break
        s = ENGINE.apply(s, ENGINE.parse(s, "resolve"), NoDice()).state
    lords = [h for h, stack in s.board.items() if stack == ("AIL",)]
    times = []
    count = 0
    for i in range(samples):
        zstate._LAST.clear()
        t0 = time.perf_counter()
        count = len(destinations(s, lords[i % len(lords)], None)[0])
        times.append(time.perf_counter() - t0)
    return {"median_ms": statistics.median(times) * 1e3, "hexes": count}


def bench_games(games: int) -> dict[str, float]:
    t0 = time.perf_counter()
    c0 = time.process_time()
    actions = 0
    for seed in range(games):
        out = playout(seed, 4)
        assert ENGINE.outcome(out.state) is not None
        actions += len(out.records)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    return {"games_per_s": games / elapsed, "games_per_cpu_s": games / cpu, "actions_per_game": actions / games}


def bench_file_games(games: int) -> dict[str, float]:
    """Whole four-people games played by ``referee bot --until-end`` in a game file."""
    import resource
    import subprocess
    import sys
    import tempfile

    walls, cpus = [], []
    for seed in range(games):
        with tempfile.TemporaryDirectory() as folder:
            cli = [sys.executable, "-m", "referee"]
            subprocess.run([*cli, "new", "zargo", "--players", "4"], cwd=folder, check=True, capture_output=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([*cli, "bot", "--until-end", "--seed", str(seed), "--json"], cwd=folder, check=True,
                           capture_output=True)
            walls.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {"wall_s": statistics.median(walls), "cpu_s": statistics.median(cpus)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--file-games", type=int, default=3)
    args = parser.parse_args()
    state = full_position()
    counters = sum(len(stack) for stack in state.board.values())
    print(f"python {platform.python_version()} on {platform.machine()}; full position: {counters} counters")
    judge = bench_judge(state, args.samples)
    print(
        f"1. judge of a move, full four-people position: median {judge['median_ms']:.3f} ms, "
        f"p99 {judge['p99_ms']:.3f} ms (target median <= 1 ms)"
    )
    flyer = bench_flyer(state, args.samples)
    print(
        f"2. legal moves of a flying lord: median {flyer['median_ms']:.3f} ms for {flyer['hexes']} hexes "
        f"(target <= 5 ms)"
    )
    games = bench_games(args.games)
    print(
        f"3. seeded random full 25-month four-player games: {games['games_per_s']:.2f} per second on one core "
        f"({games['games_per_cpu_s']:.2f} per CPU second), "
        f"{games['actions_per_game']:.0f} actions each (target >= 1)"
    )
    if args.file_games:
        file = bench_file_games(args.file_games)
        print(f"4. referee bot --until-end, a whole four-people game in a game file: median {file['wall_s']:.1f} s "
              f"wall-clock, {file['cpu_s']:.1f} s CPU")


if __name__ == "__main__":
    main()
