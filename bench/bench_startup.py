"""Start-up of a cold ``referee judge ... --json`` against ``python -c "import typer, rich, pydantic"``.

Both commands run side by side (interleaved, after one warm-up run each, so the file cache and the
bytecode are warm for both) and the ratio of their medians is printed with the machine it ran
on. A benchmark, not a test: the machine's load moves both figures.

It also times the floor any run of a command pays before our own code: pydantic's model machinery
(``pydantic.main``: the baseline imports pydantic lazily and never builds a model), YAML (the
tables) and ``importlib.metadata`` (pydantic imports it the first time it builds a validator, and
typer builds one for every parameter of the command it runs).

Run: ``python bench/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_cyrus import machine  # the same machine line as every bench

POSITION = {"game": "cyrus-pyxis", "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},
            "persian": {"Cyrus": "L6", "Amatonte": "B6"}}




def measure(runs: int) -> dict[str, list[float]]:
    """Returns the wall times (seconds) of each command over ``runs`` interleaved rounds."""
    exe = shutil.which("referee", path=str(Path(sys.executable).parent)) or "referee"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # warm bytecode, as documented
    with tempfile.TemporaryDirectory() as tmp:
        pos = Path(tmp) / "pos.json"
        pos.write_text(json.dumps(POSITION), encoding="utf-8")
        commands = {
            "baseline": [sys.executable, "-c", "import typer, rich, pydantic"],
            "floor": [sys.executable, "-c", "import typer, rich, pydantic.main, yaml, importlib.metadata"],
            "judge --json": [exe, "judge", "--position", str(pos), "Pyxis C6", "--json"],
            "judge (text)": [exe, "judge", "--position", str(pos), "Pyxis C6"],
        }
        for cmd in commands.values():  # warm-up
            subprocess.run(cmd, capture_output=True, check=True, env=env)
        times: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(runs):
            for name, cmd in commands.items():
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True, check=True, env=env)
                times[name].append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    times = measure(args.runs)
    base = statistics.median(times["baseline"])
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}; {args.runs} interleaved runs")
    for name, values in times.items():
        med = statistics.median(values)
        print(f"{name:>13}: median {med * 1000:.0f} ms (min {min(values) * 1000:.0f} ms) = {med / base:.2f}x baseline")
    ratio = statistics.median(times["judge --json"]) / base
    print(f"start-up ratio (cold referee judge --json / import typer, rich, pydantic): {ratio:.2f}x (target <= 1.5x)")


if __name__ == "__main__":
    main()
