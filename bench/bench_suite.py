"""Benchmark: what the default test suite costs, and how many tests it runs (the README's test
command, without its install step).

Runs ``python -m pytest`` (the default suite: two workers, long runs left out by their markers)
from the repository root, then prints the count pytest reported, the wall time, the CPU time of
the whole run (user + system of pytest, its workers and every subprocess they waited for), the
load average before and after, the date and the machine. The figures go in docs/performance.md
and the README's "about N minutes".

``--per-file N`` also records each test's CPU time (bench/suite_cpu.py, a pytest plugin) and
prints the N costliest test files: CPU time, its share spent in subprocesses, how many
subprocesses they spawned, and how many tests they hold. ``--save FILE`` writes that per-file
table as JSON and ``--compare FILE`` prints it beside one saved earlier.

    python bench/bench_suite.py
    python bench/bench_suite.py --per-file 15 --save /tmp/after.json --compare /tmp/before.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench_cyrus import machine  # run as a script: bench/ is on the path

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def per_file(folder: Path) -> dict[str, dict[str, float]]:
    """Sum the plugin's per-test lines by test file."""
    files: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for path in folder.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            row = files[record["test"].split("::", 1)[0]]
            row["cpu"] += record["own"] + record["children"]
            row["children"] += record["children"]
            row["spawned"] += record["spawned"]
            row["wall"] += record["wall"]
            row["tests"] += 1
    return {name: dict(row) for name, row in files.items()}


def print_files(files: dict[str, dict[str, float]], top: int, before: dict[str, dict[str, float]]) -> None:
    total = sum(row["cpu"] for row in files.values())
    print(f"CPU time inside tests: {total:.0f} s (set-up and teardown included; the rest is start-up and"
          " collection)")
    header = f"{'file':58} {'CPU s':>7} {'in subpr.':>9} {'spawned':>7} {'tests':>5}"
    print(header + (f" {'before':>7}" if before else ""))
    names = sorted(set(files) | set(before), key=lambda n: -max(files.get(n, {}).get("cpu", 0),
                                                               before.get(n, {}).get("cpu", 0)))
    for name in names[:top]:
        row = files.get(name, {"cpu": 0, "children": 0, "spawned": 0, "tests": 0})
        line = (f"{name:58} {row['cpu']:7.1f} {row['children']:9.1f} {row['spawned']:7.0f}"
                f" {row['tests']:5.0f}")
        if before:
            line += f" {before.get(name, {}).get('cpu', 0):7.1f}"
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-file", type=int, default=0, metavar="N", help="print the N costliest files")
    parser.add_argument("--save", type=Path, help="write the per-file table as JSON")
    parser.add_argument("--compare", type=Path, help="a per-file table saved earlier, printed beside")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest")
    args = parser.parse_args()
    env = dict(os.environ)
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args.pytest_args]
    folder = Path(tempfile.mkdtemp(prefix="suite-cpu-"))
    if args.per_file or args.save:
        command[3:3] = ["-p", "suite_cpu"]
        env["SUITE_CPU_DIR"] = str(folder)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(BENCH), env.get("PYTHONPATH")]))
    load_before = os.getloadavg()[0]
    cpu_before = children_cpu()
    start = time.perf_counter()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    cpu = children_cpu() - cpu_before
    out = result.stdout + result.stderr
    summary = next((ln for ln in reversed(out.splitlines()) if re.search(r"\d+ (passed|failed|error)", ln)), "")
    counts = {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|xfailed|deselected|error)",
                                                       summary)}
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"date: {now}")
    print(f"machine: {machine()} {platform.release()}")
    print(f"command: {' '.join(command[1:])}")
    print(f"load average: {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"PYTHONDONTWRITEBYTECODE: {os.environ.get('PYTHONDONTWRITEBYTECODE') or 'not set'}"
          " (when set, every process compiles our modules and rewrites the tests' asserts again)")
    print(f"tests: {counts} (pytest: {summary.strip() or 'no summary'})")
    print(f"wall time: {wall:.0f} s ({wall / 60:.1f} min)")
    print(f"CPU time: {cpu:.0f} s (user + system, all workers and their subprocesses)")
    if args.per_file or args.save:
        files = per_file(folder)
        before = json.loads(args.compare.read_text(encoding="utf-8")) if args.compare else {}
        if args.save:
            args.save.write_text(json.dumps(files, indent=1, sort_keys=True), encoding="utf-8")
        print_files(files, args.per_file or 15, before)
    if result.returncode:
        failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        print("pytest failed:", *(failed or out.splitlines()[-20:]), sep="\n  ")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
