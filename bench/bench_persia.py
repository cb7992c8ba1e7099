"""Benchmark: one PERS.IA operation in-process (target: median ≤ 1 ms).

Times ``EarthWaterEngine.persia(state, "operate", dice)`` (the umpire path behind
``referee persia operate --position``) and ``engine.play`` of ``persia operate`` (the game-file
path: judge, then apply) on three positions, each die face in turn, plus preparation and supply.
Prints the median and 90th percentile of each and the machine it ran on.

    python bench/bench_persia.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from referee.dice import PhysicalDice
from referee.games import find_game
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.state import EarthWaterState
from referee.tables import packaged_table_set

POSITIONS: dict[str, dict[str, object]] = {
    "solo set-up after preparation": {
        "phase": "operations", "active": "persia", "score": 2, "hands": {"persia": 4, "greece": 2},
        "cities": {"Abydos": {"persian_armies": 7, "persian_fleets": 2},
                   "Ephesos": {"persian_armies": 7, "persian_fleets": 2},
                   "Athenai": {"greek_armies": 3, "greek_fleets": 1}, "Sparta": {"greek_armies": 2, "greek_fleets": 2},
                   "Korinthos": {"greek_armies": 1}}},
    "mid-game": {
        "phase": "operations", "active": "persia", "campaign": 4, "score": 1, "hands": {"persia": 3, "greece": 3},
        "cities": {"Abydos": {"persian_armies": 4, "persian_fleets": 2}, "Ephesos": {"persian_armies": 3},
                   "Pella": {"persian_armies": 3, "persian_fleets": 1}, "Larissa": {"persian_armies": 2},
                   "Thebai": {"greek_armies": 2, "greek_fleets": 1}, "Athenai": {"greek_armies": 2, "greek_fleets": 1},
                   "Sparta": {"greek_armies": 1, "greek_fleets": 1}, "Eretria": {"greek_armies": 1},
                   "Naxos": {"persian_fleets": 1}}},
    "Persian Major invaded": {
        "phase": "operations", "active": "persia", "campaign": 5, "score": -1, "hands": {"persia": 2, "greece": 1},
        "cities": {"Abydos": {"greek_armies": 2, "greek_fleets": 1}, "Ephesos": {"persian_armies": 5},
                   "Pella": {"persian_armies": 4}, "Athenai": {"greek_armies": 2}, "Sparta": {"greek_armies": 1}}},
}


def _time(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()  # warm caches
    out: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - start) / 1e6)
    return out


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000, help="timed calls per case")
    args = parser.parse_args()
    engine = find_game("300-solo")
    assert isinstance(engine, EarthWaterEngine)
    tables = packaged_table_set("300-solo")
    print(f"machine: {_cpu()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}")
    print(f"{'case':<72} {'median ms':>10} {'p90 ms':>8}")
    all_ops: list[float] = []
    for name, data in POSITIONS.items():
        state = engine.from_position(tables, {"game": "300-solo", **data}, name)
        assert isinstance(state, EarthWaterState)
        for face in range(1, 7):
            samples = _time(lambda s=state, f=face: engine.persia(s, "operate", PhysicalDice([f])), args.repeat)
            all_ops += samples
            _row(f"operate, {name}, die {face}", samples)
        action = engine.parse(state, "persia operate")
        _row(f"play 'persia operate' (judge + apply), {name}, die 4",
             _time(lambda s=state, a=action: engine.play(s, a, PhysicalDice([4])), args.repeat))
        _row(f"prepare, {name}", _time(lambda s=state: engine.persia(s, "prepare", PhysicalDice([])), args.repeat))
        _row(f"supply, {name}", _time(lambda s=state: engine.persia(s, "supply", PhysicalDice([])), args.repeat))
    _row("ALL operations (every position and face)", all_ops)


def _row(name: str, samples: list[float]) -> None:
    p90 = statistics.quantiles(samples, n=10)[-1]
    print(f"{name:<72} {statistics.median(samples):>10.3f} {p90:>8.3f}")


if __name__ == "__main__":
    main()
