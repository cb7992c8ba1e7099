"""The command-line side of the input fuzz: random commands with hostile arguments and files.

:func:`random_command` draws one command (an action typed, an override with a hostile reason, a
position or set-up or table override that was mutated, a special path, garbage options, a
terminal width); :func:`check` judges what came back, the same way whether the command ran
in-process (typer's runner, fast) or as the real console script (a subprocess).

The oracle: no traceback, no signal, exit code 0, 1 or 2, a refusal (1) always says something,
in one ``error:`` line (plus an optional ``hint:``) or one ``✗`` line per violation, no control
character from the input on the terminal, and files byte-identical after any refusal.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from referee.cli import app
from referee.cli.common import reset_consoles
from tests.runner import CliRunner

from .input_harness import random_action, sample_states
from .input_mutations import HOSTILE_TEXT, POSITIONS, SETUPS, mutate_csv, mutate_text, table_files

GAMES = tuple(POSITIONS)
WRITING = {"do", "adjust", "undo", "redo", "resolve", "night", "new"}
GAME_FILE_NAMES = ("g.referee",) * 6 + ("g#copy", "g?mode=ro", "g%41.referee", ":memory:", "g game.referee",
                                        "two\nlines", "g\udcff")
"""Game-file names: mostly plain, sometimes holding URI syntax (issue 29: each is the file it names)."""


@dataclass
class Command:
    """One command line to run in a case folder, and what it may change."""

    args: list[str]
    columns: str = "100"
    stdin: str | None = None
    watched: list[Path] = field(default_factory=list)
    """Files that must be byte-identical after a refusal."""
    must_not_appear: list[Path] = field(default_factory=list)
    """Files a refused command must not leave behind."""


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    crash: str | None = None


_BASES: dict[str, Path] = {}


def base_game(game: str, store: Path) -> Path:
    """Returns a game file of the game after its shipped set-up (made once per folder)."""
    key = f"{store}:{game}"
    if key not in _BASES:
        path = store / f"base-{game}.referee"
        if not path.exists():
            outcome = run_inprocess(["new", game, "--setup", str(SETUPS[game]), "--file", str(path)], store)
            assert outcome.code == 0, outcome.err
        _BASES[key] = path
    return _BASES[key]


def _hostile(rng: random.Random) -> str:
    return rng.choice(HOSTILE_TEXT[:9]) + rng.choice(("", " ok", "é", "x" * rng.choice((1, 999, 1_001))))


def _special_path(rng: random.Random, folder: Path) -> str:
    choice = rng.randrange(8)
    if choice == 0:
        return rng.choice(("/dev/zero", "/dev/urandom", "/dev/null"))
    if choice == 1:
        fifo = folder / "pipe.yaml"
        if not fifo.exists():
            os.mkfifo(fifo)
        return str(fifo)
    if choice == 2:
        return str(folder)
    if choice == 3:
        return str(folder / ("n" * 300 + ".yaml"))
    if choice == 4:
        link = folder / "link.yaml"
        if not link.is_symlink():
            link.symlink_to("/dev/urandom")
        return str(link)
    if choice == 5:
        return str(folder / "missing" / "p.yaml")
    if choice == 6:
        return str(folder / "[/bold]\x1b[31m.yaml")
    return ""


def random_command(rng: random.Random, folder: Path, store: Path) -> Command:
    """Returns a random hostile command to run in ``folder`` (game files copied from ``store``)."""
    game = rng.choice(GAMES)
    gfile = folder / rng.choice(GAME_FILE_NAMES)
    shutil.copyfile(base_game(game, store), gfile)
    state = rng.choice(sample_states(game))
    words = random_action(game, state, rng).split(" ")
    columns = rng.choice(("100", "100", "100", "0", "1", "-3", "abc"))
    kind = rng.randrange(12)
    watched = [gfile]
    if kind == 0:
        return Command(["do", *words, "--file", str(gfile)], columns, watched=watched)
    if kind == 1:
        reason = _hostile(rng)
        return Command(["adjust", *words, "--reason", reason, "--file", str(gfile)], columns, watched=watched)
    if kind == 2:
        return Command([rng.choice(("judge", "legal")), *words, "--file", str(gfile)], columns, watched=watched)
    if kind in (3, 4):
        position = folder / rng.choice(("p.yaml", "p.json", "[p].yaml"))
        position.write_bytes(mutate_text(rng.choice(POSITIONS[game]).read_bytes(), rng))
        path = str(position) if rng.random() < 0.85 else _special_path(rng, folder)
        verb = rng.choice(("judge", "legal", "resolve", "show"))
        if verb == "show":
            args = ["show", "--position", path, "--game", game]
        elif verb == "resolve":
            args = ["resolve", game, "--position", path, "--seed", _hostile(rng)]
        else:
            args = [verb, game, "--position", path, *words]
        return Command(args, columns, watched=[position])
    if kind == 5:
        setup = folder / "s.yaml"
        setup.write_bytes(mutate_text(SETUPS[game].read_bytes(), rng))
        path = str(setup) if rng.random() < 0.85 else _special_path(rng, folder)
        return Command(["new", game, "--setup", path, "--file", str(folder / "n.referee")], columns,
                       watched=[setup], must_not_appear=[folder / "n.referee"])
    if kind == 6:
        table = rng.choice(table_files(game))
        over = folder / "over" / game
        over.mkdir(parents=True, exist_ok=True)
        raw = table.read_bytes()
        (over / table.name).write_bytes(mutate_csv(raw, rng) if table.suffix == ".csv" else mutate_text(raw, rng))
        position = rng.choice(POSITIONS[game])
        args = rng.choice((["tables", game], ["judge", game, "--position", str(position), *words],
                           ["new", game, "--file", str(folder / "n.referee")]))
        return Command([*args, "--tables", str(folder / "over")], columns, watched=[over / table.name],
                       must_not_appear=[folder / "n.referee"] if args[0] == "new" else [])
    if kind == 7:
        # a hostile override first, then every command that prints the journal or the board
        first = run_inprocess(["adjust", *words, "--reason", _hostile(rng), "--file", str(gfile)], folder)
        assert first.crash is None, first.crash
        verb = rng.choice((["log"], ["show"], ["export"], ["undo"], ["redo"], ["dice", "status"]))
        return Command([*verb, "--file", str(gfile)], columns, watched=watched)
    if kind == 8:
        photo = folder / rng.choice(("ph.jpg", "ph.png"))
        photo.write_bytes(rng.choice((b"", b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n" + os.urandom(64), os.urandom(200))))
        path = str(photo) if rng.random() < 0.7 else _special_path(rng, folder)
        return Command(["capture", path, "--game", game], columns, watched=[photo])
    if kind == 9:
        garbage = [rng.choice(("--bogus", "-x", "--file", "--json", "--dice", "1,2,99", "--seed", "--", "-",
                               _hostile(rng), "0", "--tables", "--position")) for _ in range(rng.randint(1, 5))]
        verb = rng.choice(("do", "judge", "legal", "show", "log", "undo", "tables", "schema", "dice", "odds",
                           "night", "persia", "capture", "new", "export"))
        return Command([verb, *garbage], columns, watched=watched)
    if kind == 10:
        dice = rng.choice(("1", "6,6", "0", "7", "-1", "1,,2", "x", "9" * 30, _hostile(rng)))
        return Command(["do", *words, "--dice", dice, "--file", str(gfile)], columns, watched=watched)
    lines = "\n".join(" ".join(random_action(game, state, rng).split()) for _ in range(rng.randint(1, 4)))
    return Command(["play", str(gfile)], columns, stdin=lines + "\nquit\n", watched=watched)


def referee_exe() -> list[str]:
    """Returns the command that runs the installed console script (or the module, failing that)."""
    exe = shutil.which("referee", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-c", "from referee.cli import main; main()"]


def run_inprocess(args: list[str], folder: Path, columns: str = "100", stdin: str | None = None) -> Outcome:
    """Runs a command through typer's runner (the same app as the console script)."""
    reset_consoles()
    env = {"COLUMNS": columns, "REFEREE_FILE": None, "REFEREE_TABLES": None, "HOME": str(folder)}
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(app, args, input=stdin, env=env, catch_exceptions=True)
    finally:
        os.chdir(cwd)
        reset_consoles()
    crash = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        crash = f"{type(exc).__name__}: {exc!s:.200}"
    return Outcome(result.exit_code, result.stdout, result.stderr, crash)


def run_script(args: list[str], folder: Path, exe: list[str], columns: str = "100",
               stdin: str | None = None) -> Outcome:
    """Runs the real console script; a signal or a timeout is reported as a crash."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env.update(COLUMNS=columns, HOME=str(folder))
    args = [a.replace("\x00", "") for a in args]  # no process can be given a NUL in its arguments
    try:
        result = subprocess.run([*exe, *args], cwd=folder, input=stdin, capture_output=True, text=True,
                                env=env, timeout=60, errors="replace")
    except subprocess.TimeoutExpired:
        return Outcome(-1, "", "", "hang: no answer after 60 s")
    crash = f"killed by signal {-result.returncode}" if result.returncode < 0 else None
    return Outcome(result.returncode, result.stdout, result.stderr, crash)


def check(command: Command, outcome: Outcome, before: dict[Path, bytes | None]) -> str | None:
    """Returns what is wrong with an outcome, or None."""
    if outcome.crash:
        return outcome.crash
    text = outcome.out + outcome.err
    if "Traceback" in text:
        return "a traceback reached the terminal"
    if outcome.code not in (0, 1, 2):
        return f"exit code {outcome.code}"
    if outcome.code != 2 and ("\x1b" in text or "\u202e" in text):  # click's usage errors stay as they are
        return "a control character reached the terminal"
    if outcome.code != 0:
        for path, content in before.items():
            now = path.read_bytes() if path.is_file() else None
            if now != content:
                return f"{path.name} changed by a refused command"
        for path in command.must_not_appear:
            if path.exists():
                return f"{path.name} left behind by a refused command"
    if outcome.code == 1 and command.args[0] != "play":
        lines = outcome.err.strip().splitlines()
        if not lines:
            return "refused without a word on stderr"
        if lines[0].startswith("error: "):
            if len(lines) > 2 or (len(lines) == 2 and not lines[1].startswith("hint: ")):
                return f"a refusal of {len(lines)} lines: {outcome.err[:300]!r}"
        elif not lines[0].startswith("✗ ") or not all(line.startswith(("✗ ", "  ⚠ ")) for line in lines):
            # one ✗ line per violation, each followed by what it rests on (a ⚠ line, issue 35)
            return f"a refusal that is not our line: {outcome.err[:300]!r}"
    return None


def snapshot(command: Command) -> dict[Path, bytes | None]:
    return {p: (p.read_bytes() if p.is_file() else None) for p in command.watched}


def run_cases(cases: int, seed: int, store: Path, exe: list[str] | None = None,
              budget: float | None = None, names: Counter[str] | None = None) -> tuple[int, list[str], float]:
    """Runs random commands (in-process, or through ``exe`` when given); returns cases, defects, seconds
    (and counts in ``names`` the cases whose game file had each of :data:`GAME_FILE_NAMES`)."""
    import time

    start = time.perf_counter()
    defects: list[str] = []
    done = 0
    for i in range(cases):
        rng = random.Random(f"cli:{seed}:{i}")
        folder = store / f"case-{i}"
        folder.mkdir()
        try:
            command = random_command(rng, folder, store)
            if names is not None:
                names[next((n for n in GAME_FILE_NAMES if str(folder / n) in command.args), "other")] += 1
            before = snapshot(command)
            if exe is None:
                outcome = run_inprocess(command.args, folder, command.columns, command.stdin)
            else:
                outcome = run_script(command.args, folder, exe, command.columns, command.stdin)
            problem = check(command, outcome, before)
        except Exception as exc:  # the harness itself must not hide a defect
            problem = f"{type(exc).__name__}: {exc!s:.200}"
            command = Command(["?"])
        if problem:
            shown = [a if len(a) < 80 else a[:40] + f"...({len(a)} chars)" for a in command.args]
            defects.append(f"cli seed={seed} case={i} COLUMNS={command.columns} {shown!r}: {problem}")
        shutil.rmtree(folder, ignore_errors=True)
        done += 1
        if budget is not None and time.perf_counter() - start > budget:
            break
    return done, defects, time.perf_counter() - start
