"""SIGKILL at random moments (issue 29): every writing command of the console script, killed part-way.

Each case runs one command on a real Cyrus & Pyxis game file through the installed ``referee``
script, kills it with SIGKILL after a random delay (or lets it finish), then runs the next command
(``dice verify``) and judges by one oracle:

* the file still opens, checks and replays (``dice verify`` exits 0, and the state replays);
* no acknowledged entry is lost: the journal before the case is a prefix of the journal after it
  (``new --force`` may replace the whole game, and then only by a complete new one);
* a finished command that said yes added its entries; a killed one added all of them or none (a
  turn read from a photo is 4 entries: never 1 to 3);
* an output (the export, the picture) is the old file or a complete new one, never half of one;
* once the next command has run, nothing is left beside the game file (no temporary, no SQLite
  journal).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from referee.files import sqlite_uri
from referee.games import find_game
from referee.journal import GameFile

REFEREE = str(Path(sys.executable).parent / "referee")
SETUP = Path(__file__).parents[2] / "samples" / "cyrus-pyxis" / "setup.yaml"
TURN = ("Pyxis F4", "Samos G5", "Praxitèle A6", "done")
"""The turn the photo shows, played from the sample set-up."""
COMMANDS = ("do", "undo", "redo", "adjust", "dice reveal", "new --force", "export", "show --png", "capture --apply")
PNG_END = b"IEND\xaeB`\x82"
KEEP = {"game.referee", "out.json", "board.png", "after.png"}


@dataclass
class KillTally:
    cases: Counter[str] = field(default_factory=Counter)
    killed: Counter[str] = field(default_factory=Counter)
    finished: Counter[str] = field(default_factory=Counter)
    defects: list[str] = field(default_factory=list)

    def defect(self, what: str) -> None:
        if len(self.defects) < 20:
            self.defects.append(what)


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    out["COLUMNS"] = "100"
    return out


def referee(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([REFEREE, *args], cwd=folder, capture_output=True, text=True, env=env(), timeout=timeout)


def photo_of_the_turn(folder: Path) -> Path:
    """Renders the photo of the sample set-up after :data:`TURN` (a clean 1280 x 960 shot)."""
    sys.path.insert(0, str(Path(__file__).parents[2]))
    from tests.vision.helpers import play, scene_of, setup_state, shoot

    path, _ = shoot(folder, scene_of(play(setup_state(), *TURN)), 72, "clean", (1280, 960), name="after", hands=0)
    for extra in folder.glob("after.json"):
        extra.unlink()  # the renderer's truth file: not ours to keep
    return path


def journal(game: Path) -> list[tuple[int, str]]:
    """Returns (seq, chain) of every journal row (read-only, as a bystander)."""
    conn = sqlite3.connect(sqlite_uri(game, "ro"), uri=True)
    try:
        return [(int(s), str(c)) for s, c in conn.execute("SELECT seq, chain FROM journal ORDER BY seq")]
    finally:
        conn.close()


def _args(command: str, game: Path, rng: random.Random) -> list[str]:
    """Returns the command line of a case (a legal move for ``do``, when there is one)."""
    if command == "do":
        engine = find_game("cyrus-pyxis")
        with GameFile.open(game, find_game) as gf:
            legal = engine.legal_actions(gf.state())
        text = rng.choice(legal).text() if legal else "Pyxis F2"
        return ["do", text]
    return {
        "undo": ["undo", "--force"], "redo": ["redo"],
        "adjust": ["adjust", f"terrain {rng.choice('ABCDEFGHIJKL')}{rng.randint(3, 10)} forest", "--reason", "slip"],
        "dice reveal": ["dice", "reveal"],
        "new --force": ["new", "cyrus-pyxis", "--setup", str(SETUP), "--force"],
        "export": ["export", "out.json", "--force"],
        "show --png": ["show", "--png", "board.png", "--force"],
        "capture --apply": ["capture", "after.png", "--apply"],
    }[command]


GROWTH = {"do": 1, "undo": 1, "redo": 1, "adjust": 1, "dice reveal": 1, "capture --apply": 4, "export": 0,
          "show --png": 0}


def _complete_output(path: Path, before: bytes | None) -> bool:
    """True when an output is the old one, absent as before, or a complete new one."""
    if not path.exists():
        return before is None
    data = path.read_bytes()
    if data == before:
        return True
    if path.suffix == ".png":
        return data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(PNG_END)
    try:
        return json.loads(data).get("format") == "referee-export/2"
    except ValueError:
        return False


def kill_case(tally: KillTally, folder: Path, command: str, rng: random.Random, base: bytes,
              durations: dict[str, float], delay: float | None = None) -> None:
    """One case: the command, killed after ``delay`` seconds (random when None), then the oracle."""
    game = folder / "game.referee"
    if command == "capture --apply":
        game.write_bytes(base)  # the photo shows the turn played from the set-up
    before = journal(game)
    outputs = {name: (folder / name).read_bytes() if (folder / name).exists() else None
               for name in ("out.json", "board.png")}
    args = _args(command, game, rng)
    if delay is None:
        delay = rng.uniform(0.1, 1.1) * durations.get(command, 1.0)
    proc = subprocess.Popen([REFEREE, *args], cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env())
    killed = _kill_after(proc, delay)
    _, err = proc.communicate(timeout=120)
    label = f"{command} {args!r} {'killed' if killed else f'exit {proc.returncode}'} after {delay:.2f} s"
    tally.cases[command] += 1
    (tally.killed if killed else tally.finished)[command] += 1
    acknowledged = not killed and proc.returncode == 0
    if not killed and (proc.returncode not in (0, 1) or b"Traceback" in err):
        tally.defect(f"{label}: {err.decode(errors='replace')[-300:]}")
    check = referee(folder, "dice", "verify", "game.referee")  # the next command
    if check.returncode != 0:
        tally.defect(f"{label}: the next command refused the file: {check.stderr[-300:]}")
        return
    left = set(os.listdir(folder)) - KEEP
    if left:
        tally.defect(f"{label}: left {sorted(left)} after the next command")
    after = journal(game)
    _judge_journal(tally, label, command, before, after, acknowledged, killed)
    for name, old in outputs.items():
        if not _complete_output(folder / name, old):
            tally.defect(f"{label}: {name} is neither the old file nor a complete new one")
    try:
        with GameFile.open(game, find_game) as gf:
            gf.state()  # replays to the recorded state hashes
    except Exception as exc:  # the harness must report, not hide
        tally.defect(f"{label}: does not replay: {exc}")


def _kill_after(proc: subprocess.Popen[bytes], delay: float) -> bool:
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        time.sleep(min(0.01, max(0.0, deadline - time.monotonic())))
    if proc.poll() is not None:
        return False
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return True


def _judge_journal(tally: KillTally, label: str, command: str, before: list[tuple[int, str]],
                   after: list[tuple[int, str]], acknowledged: bool, killed: bool) -> None:
    if command == "new --force":
        fresh = len(after) == 80 and (not before or after[0] != before[0])
        if after != before and not fresh:
            tally.defect(f"{label}: the game is neither the old one nor a complete new one ({len(after)} rows)")
        if acknowledged and not fresh:
            tally.defect(f"{label}: said yes but the old game is still there")
        return
    if after[: len(before)] != before:
        tally.defect(f"{label}: an acknowledged entry was lost or changed")
        return
    grown = len(after) - len(before)
    full = GROWTH[command]
    if acknowledged and grown != full:
        tally.defect(f"{label}: said yes but the journal grew by {grown}, not {full}")
    elif killed and grown not in (0, full):
        tally.defect(f"{label}: a partial write: {grown} of {full} entries")
    elif not killed and not acknowledged and grown:
        tally.defect(f"{label}: refused but the journal grew by {grown}")


def measure(folder: Path, base: bytes, rng: random.Random, commands: tuple[str, ...] = COMMANDS) -> dict[str, float]:
    """Times each command once, unkilled (the kills are spread over these durations)."""
    out: dict[str, float] = {}
    for command in commands:
        if command == "capture --apply":
            (folder / "game.referee").write_bytes(base)
        start = time.monotonic()
        referee(folder, *_args(command, folder / "game.referee", rng))
        out[command] = time.monotonic() - start
    (folder / "game.referee").write_bytes(base)
    for name in ("out.json", "board.png"):
        (folder / name).unlink(missing_ok=True)
    return out


def prepare(folder: Path, template: Path | None = None) -> bytes:
    """Makes the case folder (the sample game, the photo of its first turn; copied from ``template``
    when given); returns the game's bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    if template is not None:
        for name in ("game.referee", "after.png"):
            shutil.copy(template / name, folder / name)
    else:
        made = referee(folder, "new", "cyrus-pyxis", "--setup", str(SETUP))
        assert made.returncode == 0, made.stderr
        photo_of_the_turn(folder)
    return (folder / "game.referee").read_bytes()


def run_kills(folder: Path, seed: int, cases: int) -> KillTally:
    """Runs ``cases`` kill cases, the commands drawn at random (each at least once)."""
    rng = random.Random(seed)
    base = prepare(folder)
    durations = measure(folder, base, rng)
    tally = KillTally()
    order = list(COMMANDS) + [rng.choice(COMMANDS) for _ in range(max(0, cases - len(COMMANDS)))]
    rng.shuffle(order)
    for command in order[:cases]:
        kill_case(tally, folder, command, rng, base, durations)
    shutil.rmtree(folder, ignore_errors=True)
    return tally


def kill_at_first_commit(folder: Path) -> tuple[int, int]:
    """Runs ``capture --apply`` and kills it the moment its first write transaction ends (its SQLite
    journal, ``game.referee-journal``, appeared and went: watched without taking a lock); returns
    (entries added, exit code or -9). All four moves or none may be there: never one to three."""
    game = folder / "game.referee"
    side = folder / "game.referee-journal"
    n = len(journal(game))
    proc = subprocess.Popen([REFEREE, "capture", "after.png", "--apply"], cwd=folder, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env())
    began = False
    try:
        while proc.poll() is None:
            there = os.path.exists(side)
            if began and not there:
                proc.send_signal(signal.SIGKILL)
                break
            began = began or there
            time.sleep(0.0001)
    finally:
        proc.wait()
    return len(journal(game)) - n, proc.returncode
