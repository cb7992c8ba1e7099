"""Two writers and a reader on one game file, at the same time (issue 29).

Two processes each play ``writes`` digital rolls (``roll``, one die: 200 of them stay short of the
race's end at 1000; every one moves the roll counter), opening the file for each write as a command
does; a third process reads the game the way ``status``, ``log`` and ``dice verify`` do, as fast as
it can, until both writers are done.

The oracle: the reader never sees a healthy file as damaged (no false alarm such as "the counter
says 4 but the rolls end at 4", read between another writer's commits), no write is lost (every
journal number a writer was given holds that writer's action), and the file checks and verifies at
the end.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import RefereeError
from referee.games import find_game
from referee.journal import GameFile

sys.path.insert(0, str(Path(__file__).parents[1]))
from race_game import race_tables, register


@dataclass
class RaceTally:
    writes: int = 0
    reads: int = 0
    false_alarms: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    seconds: float = 0.0


def _writer(path: str, action: str, writes: int, out: multiprocessing.SimpleQueue) -> None:  # type: ignore[type-arg]
    done: list[int] = []
    problems: list[str] = []
    for _ in range(writes):
        try:
            with GameFile.open(Path(path), find_game) as gf:
                gf.do(action)
                done.append(gf.entries()[-1].seq)
        except RefereeError as exc:
            problems.append(f"{action}: {exc}")
    out.put((action, done, problems))


def _reader(path: str, stop: multiprocessing.synchronize.Event, out: multiprocessing.SimpleQueue) -> None:  # type: ignore[type-arg]
    reads = 0
    alarms: list[str] = []
    while not stop.is_set():
        try:
            with GameFile.open(Path(path), find_game) as gf:
                gf.entries()
                gf.state()
                gf.epochs()
                report = gf.verify_dice()
                if not report.ok:
                    alarms.append("the dice did not verify")
            reads += 1
        except RefereeError as exc:
            alarms.append(str(exc)[:300])
    out.put((reads, alarms))


def run_race(folder: Path, writes: int) -> RaceTally:
    """Runs the race; returns what the reader and the writers saw."""
    engine = register()
    path = folder / "race.referee"
    GameFile.create(path, engine, race_tables()).close()
    ctx = multiprocessing.get_context("fork")
    out = ctx.SimpleQueue()
    stop = ctx.Event()
    start = time.monotonic()
    reader = ctx.Process(target=_reader, args=(str(path), stop, out))
    reader.start()
    writers = [ctx.Process(target=_writer, args=(str(path), action, writes, out)) for action in ("roll", "roll")]
    for w in writers:
        w.start()
    for w in writers:
        w.join(timeout=600)
    stop.set()
    reader.join(timeout=600)
    tally = RaceTally(seconds=time.monotonic() - start)
    given: dict[int, str] = {}
    for _ in range(3):
        item = out.get()
        if len(item) == 2:
            tally.reads, tally.false_alarms = item
            continue
        action, done, problems = item
        tally.lost += problems
        tally.writes += len(done)
        for seq in done:
            given[seq] = action
    with GameFile.open(path, find_game) as gf:
        entries = {e.seq: e for e in gf.entries()}
        if not gf.verify_dice().ok:
            tally.lost.append("the final file does not verify")
    for seq, action in sorted(given.items()):
        entry = entries.get(seq)
        if entry is None or entry.text != action:
            tally.lost.append(f"journal entry {seq} was given to {action!r} but holds {entry and entry.text!r}")
    if len(entries) != 2 * writes:
        tally.lost.append(f"{len(entries)} journal entries after {2 * writes} writes")
    return tally
