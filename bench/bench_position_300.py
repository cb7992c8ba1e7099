"""Benchmark: loading a 300-solo position file with every declaration judged (issue 9).

Times ``EarthWaterEngine.from_position`` (schema, every count and value through the ``adjust``
checks, board and phase invariants, a pending battle replayed as the move that started it) on
four positions, side by side with the schema validation alone (``validate_position``, the part
that was all a load did before), and prints medians, the 90th percentile and the ratio.

    python bench/bench_position_300.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable

from referee.games import find_game
from referee.games.earth_water.position import validate_position
from referee.tables import packaged_table_set

HOME = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Athenai": {"greek_armies": 1},
        "Sparta": {"greek_armies": 1}}
POSITIONS: dict[str, dict[str, object]] = {
    "operations, no battle": {"phase": "operations", "active": "persia", "hands": {"persia": 3, "greece": 2},
                              "cities": {**HOME, "Pella": {"persian_armies": 3, "persian_fleets": 1}}},
    "Greek preparation (PERS.IA's draw derived)": {"phase": "greek-preparation", "score": 0, "cities": HOME},
    "Greek attack, origin derived": {"battle": {"city": "Larissa", "attacker": "greece"}, "cities": {
        **HOME, "Larissa": {"greek_armies": 1, "persian_armies": 2}, "Pella": {"persian_armies": 1},
        "Delphi": {"persian_armies": 1}}},
    "PERS.IA march after 2 rounds": {"hands": {"persia": 1}, "battle": {"city": "Thebai", "attacker": "persia",
                                                                         "rounds": 2},
                                     "cities": {**HOME, "Thebai": {"greek_armies": 4, "persian_armies": 3},
                                                "Larissa": {"persian_armies": 4}}},
}


def _time(fn: Callable[[], object], repeat: int) -> list[float]:
    fn()
    out: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn()
        out.append((time.perf_counter_ns() - start) / 1e6)
    return out


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    engine = find_game("300-solo")
    tables = packaged_table_set("300-solo")
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'position':45} {'schema only':>16} {'judged load':>16} {'ratio':>6}")
    for name, fields in POSITIONS.items():
        data = {"game": "300-solo", **fields}
        schema = _time(lambda d=data: validate_position(d, "bench"), args.repeat)  # type: ignore[misc]
        judged = _time(lambda d=data: engine.from_position(tables, d, "bench"), args.repeat)  # type: ignore[misc]
        ratio = statistics.median(judged) / statistics.median(schema)
        print(f"{name:45} {statistics.median(schema):7.3f} / {_p90(schema):5.3f}  "
              f"{statistics.median(judged):7.3f} / {_p90(judged):5.3f}  {ratio:5.1f}x   (ms: median / p90)")


if __name__ == "__main__":
    main()
