"""Fuzz: hostile input files, action strings, arguments and terminals, for the three games.

A short run is part of the default suite (seconds); ``pytest -m fuzz`` runs the long one
(>= 70,000 cases: mostly in-process, a few hundred through the real console script). Every case
is seeded (``random.Random(f"{kind}:{seed}:{i}")``), so a defect is replayed by its seed and
number. Set ``FUZZ_LOG=FILE`` to append each run's figures (cases, defects, seconds) to FILE.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from .input_cli import referee_exe, run_cases
from .input_harness import Report, run

SHORT = {"position": 300, "setup": 300, "table": 120, "action": 150}
LONG_CHUNKS = {"position": (4, 7_000), "setup": (4, 5_000), "table": (4, 1_750), "action": (4, 2_500)}
"""kind: (chunks, cases per chunk) — chunks spread the long run over the xdist workers."""
LONG_CLI = (4, 1_250)
LONG_SCRIPT = 100


def log(kind: str, cases: int, defects: list[str], seconds: float, accepted: int | None = None) -> None:
    target = os.environ.get("FUZZ_LOG")
    if target:
        with open(target, "a", encoding="utf-8") as f:
            f.write(json.dumps({"kind": kind, "cases": cases, "defects": len(defects), "accepted": accepted,
                                "seconds": round(seconds, 1)}) + "\n")


def assert_clean(report: Report, kind: str) -> None:
    log(kind, report.cases, report.defects, report.seconds, report.accepted)
    assert not report.defects, "\n".join(report.defects[:10])
    assert report.refused > 0
    if kind in ("position", "action", "table"):
        assert report.accepted > 0  # the mutations do not only produce garbage


@pytest.mark.parametrize("kind", sorted(SHORT))
def test_short_run_of_hostile_inputs(kind: str) -> None:
    assert_clean(run(kind, SHORT[kind], seed=0), kind)


def test_short_run_of_hostile_commands_in_process(tmp_path: Path) -> None:
    cases, defects, seconds = run_cases(60, seed=0, store=tmp_path)
    log("cli", cases, defects, seconds)
    assert cases == 60 and not defects, "\n".join(defects[:10])


def test_short_run_of_hostile_commands_through_the_console_script(tmp_path: Path) -> None:
    cases, defects, seconds = run_cases(5, seed=0, store=tmp_path, exe=referee_exe())
    log("script", cases, defects, seconds)
    assert cases == 5 and not defects, "\n".join(defects)


@pytest.mark.fuzz
@pytest.mark.parametrize(("kind", "chunk"), [(k, c) for k, (n, _) in LONG_CHUNKS.items() for c in range(n)])
def test_long_run_of_hostile_inputs(kind: str, chunk: int) -> None:
    assert_clean(run(kind, LONG_CHUNKS[kind][1], seed=1_000 + chunk), kind)


@pytest.mark.fuzz
@pytest.mark.parametrize("chunk", range(LONG_CLI[0]))
def test_long_run_of_hostile_commands_in_process(tmp_path: Path, chunk: int) -> None:
    names: Counter[str] = Counter()
    cases, defects, seconds = run_cases(LONG_CLI[1], seed=1_000 + chunk, store=tmp_path, names=names)
    log("cli", cases, defects, seconds)
    target = os.environ.get("FUZZ_LOG")
    if target:  # how often each game-file name (URI syntax included, issue 29) was tried
        with open(target, "a", encoding="utf-8") as f:
            f.write(json.dumps({"kind": "cli-game-file-names", "chunk": chunk, "names": dict(names)}) + "\n")
    assert cases == LONG_CLI[1] and not defects, "\n".join(defects[:10])


@pytest.mark.fuzz
def test_long_run_of_hostile_commands_through_the_console_script(tmp_path: Path) -> None:
    cases, defects, seconds = run_cases(LONG_SCRIPT, seed=2_000, store=tmp_path, exe=referee_exe())
    log("script", cases, defects, seconds)
    assert cases == LONG_SCRIPT and not defects, "\n".join(defects[:10])
