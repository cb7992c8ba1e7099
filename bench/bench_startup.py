"""Start-up: the CPU time of cold ``referee`` commands against ``python -c "import typer, rich, pydantic"``.

Each round runs every command once, one after the other, after one warm-up run of each (the file
cache and the bytecode are warm for all); the order of the commands turns by one place each round,
so drift in the machine's load falls on all of them alike. A command's figure is the CPU time
(user + system) of the child process, read from ``wait4``; a ratio is the median over the rounds of
the command's time divided by its pair's time *in the same round* (paired runs). A benchmark, not a
test: the machine's load moves the figures, the ratios much less.

Pairs and their goals (issue 33):

* ``judge --json`` (a real position, the README's) against the baseline import: ≤ 1.8×;
* ``--help`` against the baseline import: ≤ 1.3×;
* the same two in French (``--lang fr``) against English, with the catalogs as they stand.

It also times ``--version`` and the *floor*: the least a typer command that reads a YAML file
and validates it with a pydantic model can cost, before any code of ours — typer, rich and
PyYAML imported, one two-field frozen model defined and validated from a two-line YAML text,
pydantic's plugin loader stood in for as ``referee.cli.lean.no_pydantic_plugins`` does. DESIGN
validates every position file with its pydantic schema, so ``judge --position`` cannot cost less
(docs/decisions/startup-floor.md).

Run: ``python bench/bench_startup.py [--runs N] [--tree DIR] [--pair DIR] [--steps]``; ``--tree``
runs the referee of another source tree (for example an export of an earlier commit: ``git archive
COMMIT | tar -x -C DIR``) with the same interpreter, for before/after figures; ``--pair DIR``
instead times ``judge --json`` and ``--help`` of the tree against DIR's in paired rounds (the
before/after ratio itself). Each command runs with its tree as working directory (``python -m``
puts the working directory first on the import path). ``--steps`` instead splits a
cold ``judge --json`` into the steps it takes, each step's CPU time measured inside a fresh
process (median over the runs): where the time over the baseline goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench_cyrus import machine  # the same machine line as every bench

ROOT = Path(__file__).resolve().parent.parent
POSITION = "samples/cyrus-pyxis/umpire.yaml"  # the README's umpire example
PAIRS = {  # command: (its pair, goal or None)
    "judge --json": ("baseline", 1.8),
    "--help": ("baseline", 1.3),
    "--version": ("baseline", None),
    "floor": ("baseline", None),
    "judge --json --lang fr": ("judge --json", None),
    "--help --lang fr": ("--help", None),
}


FLOOR = """
import sys, types
loader = types.ModuleType("pydantic.plugin._loader")  # no plugin search, as referee.cli.lean does
loader.get_plugins = lambda: ()
sys.modules["pydantic.plugin._loader"] = loader
import typer, rich, yaml
from pydantic import BaseModel, ConfigDict
class Position(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    game: str
    turn: int = 1
Position.model_validate(yaml.safe_load("game: cyrus-pyxis\\nturn: 2\\n"))
"""
"""The floor: a typer program that validates a YAML file with one pydantic model (no code of ours)."""


def commands(tree: Path) -> dict[str, list[str]]:
    """Returns each command line to time, by name."""
    referee = [sys.executable, "-m", "referee"]
    judge = [*referee, "judge", "cyrus-pyxis", "--position", str(tree / POSITION), "Pyxis C6", "--json"]
    return {
        "baseline": [sys.executable, "-c", "import typer, rich, pydantic"],
        "floor": [sys.executable, "-c", FLOOR],
        "judge --json": judge,
        "judge --json --lang fr": [*judge, "--lang", "fr"],
        "--help": [*referee, "--help"],
        "--help --lang fr": [*referee, "--lang", "fr", "--help"],
        "--version": [*referee, "--version"],
    }


def cpu_time(cmd: list[str], env: dict[str, str], cwd: Path | None = None) -> float:
    """Runs a command and returns the CPU time (user + system, seconds) its process used.

    Raises:
        RuntimeError: the command failed.
    """
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd) as proc:
        stderr = proc.stderr.read() if proc.stderr else b""
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {stderr.decode(errors='replace')[-400:]}")
    return usage.ru_utime + usage.ru_stime


def environment(tree: Path) -> dict[str, str]:
    """Returns the environment to run ``tree``'s referee in: English, bytecode written."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "REFEREE_LANG")}
    env["PYTHONPATH"] = str(tree)  # the tree's referee before any installed one
    env["LC_ALL"] = env["LANG"] = "C.UTF-8"  # English unless --lang says otherwise
    return env


def measure(runs: int, tree: Path) -> dict[str, list[float]]:
    """Returns the CPU times (seconds) of each command over ``runs`` rounds."""
    env = environment(tree)
    cmds = commands(tree)
    for cmd in cmds.values():  # warm-up: bytecode written, files cached
        cpu_time(cmd, env, tree)
    names = list(cmds)
    times: dict[str, list[float]] = {k: [] for k in names}
    for i in range(runs):
        for name in names[i % len(names):] + names[:i % len(names)]:
            times[name].append(cpu_time(cmds[name], env, tree))  # in the tree: ``-m`` puts the cwd first
    return times


STEPS = """
import sys, time
marks = [("", time.process_time())]
def mark(name): marks.append((name, time.process_time()))
import typer, rich, pydantic; mark("import typer, rich, pydantic (the baseline's imports)")
import referee.cli; mark("import referee.cli (every command group, the registry)")
from referee.cli.lean import no_pydantic_plugins
no_pydantic_plugins()  # as main() does
import pydantic.main; mark("pydantic.main (model classes at all)")
from pathlib import Path
from typer._adapters import try_build_adapter
from typer.models import ArgumentInfo, OptionInfo
try_build_adapter(Path, OptionInfo()); try_build_adapter(list[str], ArgumentInfo())
mark("typer's validators of judge's values (the first pydantic schemas: its schema machinery loads)")
import yaml; mark("import yaml")
from referee.cli.common import read_data_file
data = read_data_file(Path(sys.argv[1])); mark("read the position file")
import referee.game, referee.rulings; mark("import referee.game, referee.rulings (core models)")
import referee.games.cyrus_pyxis.rules; mark("the game's rules index (rules.yaml, validated)")
import referee.games.cyrus_pyxis.engine; mark("import the game's engine (its models and tables' schemas)")
from referee.games import find_game
from referee.tables import load_table_set
engine = find_game("cyrus-pyxis"); tables = load_table_set("cyrus-pyxis", None)
mark("build the engine, load the table set")
state = engine.from_position(tables, data, sys.argv[1])
mark("read the position (tables validated, declarations judged)")
verdict = engine.judge(state, engine.parse(state, "Pyxis C6")); mark("parse and judge the action")
verdict.model_dump_json(); mark("the verdict as JSON")
for (_, before), (name, after) in zip(marks, marks[1:]):
    print(f"{(after - before) * 1000:.2f}\t{name}")
"""


def steps(runs: int, tree: Path) -> None:
    """Prints the median CPU time of each step of a cold ``judge --json``, measured in ``runs`` fresh processes."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "REFEREE_LANG")}
    env["PYTHONPATH"] = str(tree)
    env["LC_ALL"] = env["LANG"] = "C.UTF-8"
    cmd = [sys.executable, "-c", STEPS, str(tree / POSITION)]
    subprocess.run(cmd, capture_output=True, check=True, env=env, cwd=tree)  # warm-up
    times: dict[str, list[float]] = {}
    for _ in range(runs):
        out = subprocess.run(cmd, capture_output=True, check=True, text=True, env=env, cwd=tree).stdout
        for line in out.splitlines():
            ms, name = line.split("\t")
            times.setdefault(name, []).append(float(ms))
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}; {runs} processes; tree {tree}")
    for name, values in times.items():
        print(f"{statistics.median(values):6.1f} ms  {name}")
    print(f"{sum(statistics.median(v) for v in times.values()):6.1f} ms  in all (after the interpreter's own start)")


def against(runs: int, tree: Path, other: Path) -> None:
    """Prints ``judge --json`` and ``--help`` of ``tree`` against the same of ``other``, in paired
    rounds (the order of the two turns each round)."""
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}; {runs} paired rounds; {tree} against {other}")
    for name in ("judge --json", "--help"):
        runs_of = {t: (commands(t)[name], environment(t)) for t in (tree, other)}
        for t, (cmd, env) in runs_of.items():  # warm-up
            cpu_time(cmd, env, t)
        times: dict[Path, list[float]] = {tree: [], other: []}
        for i in range(runs):
            for t in (tree, other) if i % 2 else (other, tree):
                times[t].append(cpu_time(runs_of[t][0], runs_of[t][1], t))
        ratio = statistics.median(a / b for a, b in zip(times[tree], times[other], strict=True))
        print(f"{name:>14}: {statistics.median(times[tree]) * 1000:.0f} ms against "
              f"{statistics.median(times[other]) * 1000:.0f} ms CPU, ratio {ratio:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--tree", type=Path, default=ROOT, help="source tree whose referee to run (default: this one)")
    parser.add_argument("--steps", action="store_true", help="split a cold judge --json into its steps instead")
    parser.add_argument("--pair", type=Path, metavar="DIR",
                        help="time judge --json and --help of --tree against those of DIR instead")
    args = parser.parse_args()
    if args.steps:
        steps(args.runs, args.tree.resolve())
        return
    if args.pair:
        against(args.runs, args.tree.resolve(), args.pair.resolve())
        return
    load = os.getloadavg()[0]
    times = measure(args.runs, args.tree.resolve())
    print(f"machine: {machine()}; load average {load:.2f} -> {os.getloadavg()[0]:.2f}; "
          f"{args.runs} paired rounds, CPU time of the child; tree {args.tree}")
    for name, values in times.items():
        print(f"{name:>24}: median {statistics.median(values) * 1000:4.0f} ms CPU (min {min(values) * 1000:.0f} ms)")
    for name, (pair, goal) in PAIRS.items():
        ratio = statistics.median(a / b for a, b in zip(times[name], times[pair], strict=True))
        target = f" (goal <= {goal}x: {'met' if ratio <= goal else 'not met'})" if goal else ""
        print(f"{name:>24} / {pair}: {ratio:.2f}x{target}")


if __name__ == "__main__":
    main()
