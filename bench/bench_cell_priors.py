"""Benchmark of the Cyrus & Pyxis priors from the rules (``capture.cell_priors``); not a test.

From seeded random games (RandomBot), takes positions at random points (a turn's start or a turn
under way), plays the rest of that side's turn with the bot (``turn_pairs``, as the property test
of ``tests/games/cyrus_pyxis/test_priors.py`` does), and reports:

1. coverage: cells whose content after the turn had no prior before it (must be 0);
2. how informative the priors are: the share of cells whose prior is certain (1 on one content);
3. how often an uncertain cell really changed, and the mean log-loss of the true content on the
   uncertain cells under the shipped weighting, under equal weights, and for other present-content
   weights (the bot plays at random: a rough guide, not real play);
4. the time of ``cell_priors``: median and p99 over the positions, and over mid-game ones (turn 5+).

Run: ``python bench/bench_cell_priors.py [--positions N] [--seed N] [--out FILE]`` (the report
as JSON, with the commit measured and the date).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from referee.games.cyrus_pyxis.capture import cell_contents, cell_priors
from referee.games.cyrus_pyxis.capture.priors import possible_sides
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Phase

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.games.cyrus_pyxis.helpers import turn_pairs  # noqa: E402  (the property test's positions)


def equal_weight(before: CyrusState, cell_name: str, content: tuple[str | None, str]) -> float:
    """The true content's prior were every possible content weighted alike."""
    grid = before.tables.grid
    sides = possible_sides(before)[grid.parse(cell_name)]
    return 1 / len(sides) if (content[0] in {s.value if s else None for s in sides}) else 0.0


WEIGHTS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
"""Present-content weights whose log-loss the report lists beside the shipped one."""


def measure(pairs: list[tuple[CyrusState, CyrusState]]) -> dict[str, float]:
    missed = certain = cells = uncertain = changed = 0
    starts = start_certain = start_cells = 0
    loss_shipped = loss_equal = 0.0
    loss_at = dict.fromkeys(WEIGHTS, 0.0)
    times: list[float] = []
    mid: list[float] = []
    for before, after in pairs:
        t0 = time.perf_counter()
        priors = cell_priors(before)
        spent = time.perf_counter() - t0
        times.append(spent)
        if before.turn >= 5:
            mid.append(spent)
        present = cell_contents(before)
        if before.phase is Phase.MOVE and not before.moved:
            starts += 1
            start_cells += len(priors)
            start_certain += sum(1 for p in priors.values() if len(p) == 1)
        for cell, content in cell_contents(after).items():
            p = priors[cell].get(content, 0.0)
            missed += p == 0
            cells += 1
            if len(priors[cell]) == 1:
                certain += 1
                continue
            uncertain += 1
            changed += content != present[cell]
            loss_shipped -= math.log(max(p, 1e-12))
            loss_equal -= math.log(max(equal_weight(before, cell, content), 1e-12))
            others = len(priors[cell]) - 1
            for w in WEIGHTS:
                loss_at[w] -= math.log(w if content == present[cell] else (1 - w) / others)
    times.sort()
    mid.sort()
    return {
        "positions": len(pairs), "cells": cells, "missed": missed, "certain_share": certain / cells,
        "turn_starts": starts, "certain_share_turn_start": start_certain / max(start_cells, 1),
        "uncertain_changed_share": changed / max(uncertain, 1),
        "logloss_shipped": loss_shipped / max(uncertain, 1), "logloss_equal": loss_equal / max(uncertain, 1),
        **{f"logloss_present_{w}": loss / max(uncertain, 1) for w, loss in loss_at.items()},
        "median_ms": statistics.median(times) * 1000, "p99_ms": times[int(0.99 * (len(times) - 1))] * 1000,
        "mid_positions": len(mid), "mid_median_ms": statistics.median(mid) * 1000 if mid else math.nan,
        "mid_max_ms": mid[-1] * 1000 if mid else math.nan,
    }


def measured() -> dict[str, object]:
    """The commit measured (and whether the work tree differed from it), the machine, the date."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False).stdout.strip()

    return {"commit": git("rev-parse", "HEAD"), "dirty": bool(git("status", "--porcelain", "--untracked-files=no")),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "machine": platform.machine(), "cpus": len(os.sched_getaffinity(0)), "python": platform.python_version()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="Also write the report there, as JSON.")
    args = parser.parse_args()
    report = {**measured(), "seed": args.seed, **measure(turn_pairs(args.positions, args.seed))}
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for key, value in report.items():
        print(f"{key:>24}: {value:.4f}" if isinstance(value, float) else f"{key:>24}: {value}")


if __name__ == "__main__":
    main()
