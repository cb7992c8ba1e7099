"""Deferred imports: what each family of imports kept inside functions would cost at start-up.

An import inside a function in ``referee/`` or ``vision/`` carries a ``# lazy: <family>`` comment
(``tests/test_lazy_imports.py`` checks it against the table in ``docs/performance.md``). This
script measures each family: in a fresh process that has already done ``import referee.cli``
(what every command loads before it runs), the CPU time (``time.process_time``) of importing the
family's modules; the median over the runs. A family with several modules listed is measured
one module per process, and the range is printed. A benchmark, not a test: the machine's load
moves the figures.

Run: ``python bench/bench_lazy_imports.py [--runs N]``; it prints the rows of the table.
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

FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {  # family: (what it defers, modules measured)
    "render": ("the terminal renderer (rich's console and the models it draws)", ("referee.render",)),
    "rich": ("rich's console and text, our terminal", ("referee.cli.terminal", "rich.text")),
    "pydantic models": ("pydantic and the core models (game, dice, tables' bases, notation)",
                        ("referee.game", "referee.dice")),
    "tables": ("the table-file reader (and pydantic, when not yet loaded)", ("referee.tables",)),
    "journal": ("the game file: journal, sealed secrets, viewers, dice audit", ("referee.journal", "referee.viewing")),
    "sqlite3": ("atomic writing of output files (sqlite3)", ("referee.writing",)),
    "engine": ("a game's engine, with its models and tables", (
        "referee.games.cyrus_pyxis.engine", "referee.games.iliad.engine",
        "referee.games.earth_water.engine", "referee.games.zargo.engine")),
    "yaml": ("PyYAML", ("yaml",)),
    "vision": ("the photo reader (OpenCV, NumPy)", ("vision.pipeline", "vision.examples")),
    "cv2": ("OpenCV", ("cv2",)),
    "numpy": ("NumPy (pictures)", ("numpy",)),
    "PIL": ("Pillow (pictures, fonts)", ("PIL.Image", "PIL.ImageFont")),
    "serve": ("the table display: Starlette, uvicorn", ("referee.serve.app", "uvicorn")),
    "segno": ("QR codes of the table display", ("segno",)),
    "babel": ("Babel's PO reader (a stale catalog compiled in memory)", ("babel.messages.pofile",)),
    "hashlib": ("SHA-256 (OpenSSL): the stamp check of a French or Italian catalog", ("hashlib",)),
    "readline": ("line editing in `play` (optional: absent on some systems)", ("readline",)),
    "pillow_heif": ("HEIC photos (an optional extra)", ("pillow_heif",)),
}

PROBE = """
import importlib, sys, time
import referee.cli
before = time.process_time()
importlib.import_module(sys.argv[1])
print((time.process_time() - before) * 1000)
"""


def cost(module: str, runs: int) -> float:
    """Returns the median CPU milliseconds of importing ``module`` after ``import referee.cli``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "REFEREE_LANG")}
    env["PYTHONPATH"] = str(ROOT)
    env["LC_ALL"] = env["LANG"] = "C.UTF-8"
    cmd = [sys.executable, "-c", PROBE, module]
    subprocess.run(cmd, capture_output=True, check=True, env=env, cwd=ROOT)  # warm-up: bytecode written
    times = [float(subprocess.run(cmd, capture_output=True, check=True, text=True, env=env, cwd=ROOT).stdout)
             for _ in range(runs)]
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows = []
    for family, (what, modules) in FAMILIES.items():
        ms = [cost(module, args.runs) for module in modules]
        figure = f"{min(ms):.0f}" if len(ms) == 1 else f"{min(ms):.0f}–{max(ms):.0f}"
        script = "same" if rows else f"`python bench/bench_lazy_imports.py --runs {args.runs}`"
        rows.append(f"| `{family}` | {what} | {', '.join(f'`{m}`' for m in modules)} | {script} | {figure} |")
    print(f"machine: {machine()}; load average {load:.2f} -> {os.getloadavg()[0]:.2f}; "
          f"median of {args.runs} processes each")
    print("| measure: the `# lazy:` family | what it defers | measured by importing | script | CPU ms |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
