"""SIGKILL at random moments and concurrent writers (issue 29): no acknowledged entry lost, no file
that fails to open or verify, no partial turn, no leftover file, no false alarm, no lost write.

Small versions run with the default suite (a few kills, a short race); ``pytest -m fuzz`` runs the
full ones (at least 200 kills over every writing command; two writers of 100 writes and a reader).
See docs/fuzz.md for the figures.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from .kills_harness import COMMANDS, KillTally, kill_at_first_commit, kill_case, measure, prepare, run_kills
from .races_harness import run_race

LONG_KILLS = (4, 55)
"""chunks x cases: 220 kills, spread over the xdist workers."""


def log(kind: str, **figures: object) -> None:
    """Appends a run's figures to $FUZZ_LOG (as tests/fuzz/test_inputs.py does)."""
    target = os.environ.get("FUZZ_LOG")
    if target:
        with open(target, "a", encoding="utf-8") as f:
            f.write(json.dumps({"kind": kind, **figures}) + "\n")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample game and the photo of its first turn, made once."""
    folder = tmp_path_factory.mktemp("kills")
    prepare(folder)
    return folder


def test_capture_apply_killed_at_its_first_commit_leaves_all_the_turn_or_none(tmp_path: Path, template: Path) -> None:
    """The issue's example: killed after its first commit, capture --apply left 1 to 3 of 4 moves."""
    prepare(tmp_path, template)
    added, code = kill_at_first_commit(tmp_path)
    assert added in (0, 4), f"a partial turn: {added} of 4 moves journaled (exit {code})"


def test_a_few_kills(tmp_path: Path, template: Path) -> None:
    rng = random.Random(29)
    base = prepare(tmp_path, template)
    few = ("new --force", "do", "export")
    durations = measure(tmp_path, base, rng, few)
    tally = KillTally()
    for command in few:
        kill_case(tally, tmp_path, command, rng, base, durations, delay=0.8 * durations[command])
    assert sum(tally.cases.values()) == len(few)
    assert not tally.defects, "\n".join(tally.defects)


def test_a_short_race() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tally = run_race(Path(tmp), writes=12)
    assert tally.writes == 24 and tally.reads > 0
    assert not tally.false_alarms, tally.false_alarms[:3]
    assert not tally.lost, tally.lost[:3]


@pytest.mark.fuzz
@pytest.mark.parametrize("chunk", range(LONG_KILLS[0]))
def test_long_run_of_kills(tmp_path: Path, chunk: int) -> None:
    tally = run_kills(tmp_path / "case", seed=2900 + chunk, cases=LONG_KILLS[1])
    log("kills", chunk=chunk, cases=dict(tally.cases), killed=dict(tally.killed), finished=dict(tally.finished),
        defects=len(tally.defects))
    assert set(tally.cases) == set(COMMANDS)
    assert not tally.defects, "\n".join(tally.defects)


@pytest.mark.fuzz
def test_long_race() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tally = run_race(Path(tmp), writes=100)
    log("race", writes=tally.writes, reads=tally.reads, false_alarms=len(tally.false_alarms), lost=len(tally.lost),
        seconds=round(tally.seconds, 1))
    assert tally.writes == 200 and tally.reads > 0
    assert not tally.false_alarms, tally.false_alarms[:3]
    assert not tally.lost, tally.lost[:3]
