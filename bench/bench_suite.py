"""Benchmark: how long the default test suite takes, and how many tests it runs (the README's
test command, without its install step).

Runs ``python -m pytest`` (the default suite: two workers, long runs left out by their markers)
from the repository root, then prints the count pytest reported, the wall time, the load
average before and after, the date and the machine. The figure goes in docs/performance.md and
the README's "about N minutes".

    python bench/bench_suite.py
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

from bench_cyrus import machine  # run as a script: bench/ is on the path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider"], cwd=ROOT,
                            capture_output=True, text=True)
    wall = time.perf_counter() - start
    out = result.stdout + result.stderr
    summary = next((ln for ln in reversed(out.splitlines()) if re.search(r"\d+ (passed|failed|error)", ln)), "")
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|xfailed|deselected|error)",
                                                       summary)}
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"date: {now}")
    print(f"machine: {machine()} {platform.release()}")
    print(f"load average: {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"tests: {counts} (pytest: {summary.strip() or 'no summary'})")
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min)")
    if result.returncode:
        failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        print("pytest failed:", *(failed or out.splitlines()[-20:]), sep="\n  ")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
