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

ROOT = Path(__file__).resolve().parents[1]


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main() -> int:
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                            capture_output=True, text=True)
    wall = time.perf_counter() - start
    summary = next((ln for ln in reversed(result.stdout.splitlines()) if re.search(r"\d+ passed", ln)), "")
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|xfailed|deselected|error)",
                                                       summary)}
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"date: {now}")
    print(f"machine: {_cpu()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
          f"Python {platform.python_version()}")
    print(f"load average: {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"tests: {counts} (pytest: {summary.strip() or 'no summary'})")
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min)")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
