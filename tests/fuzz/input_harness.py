"""The in-process side of the input fuzz: one hostile case, judged by the same oracle every time.

A case feeds one hostile input to the engine's public entry points (the guarded reader, the
position and set-up loaders, table loading, ``parse``/``judge``/``legal_report``, the renderers)
and fails when anything escapes that is not a :class:`~referee.errors.RefereeError` (a
traceback at the command line), when an error message is empty, when rendered output carries a
control character, or when the case runs past :data:`CASE_SECONDS` (a hang).
"""

from __future__ import annotations

import contextlib
import io
import random
import signal
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from referee import render
from referee.cli.terminal import console
from referee.dice import CommittedDice
from referee.errors import RefereeError
from referee.files import decode_text, parse_json, parse_yaml
from referee.game import Engine, GameState
from referee.games import find_game
from referee.tables import TableFile, TableSet, describe_table_set, load_table_set

from .input_mutations import HOSTILE_TEXT, POSITIONS, SETUPS, mutate_csv, mutate_text, table_files

CASE_SECONDS = 10
"""A case running longer than this is a hang."""


class Hang(Exception):
    """A case ran past :data:`CASE_SECONDS`."""


@dataclass
class Report:
    """What a fuzz run saw."""

    cases: int = 0
    refused: int = 0
    accepted: int = 0
    defects: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def add(self, other: Report) -> None:
        self.cases += other.cases
        self.refused += other.refused
        self.accepted += other.accepted
        self.defects += other.defects
        self.kinds.update(other.kinds)
        self.seconds += other.seconds


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Raises :class:`Hang` in the block after ``seconds`` (SIGALRM; main thread only)."""

    def ring(signum: int, frame: object) -> None:
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


_ENGINES: dict[str, Engine] = {}
_TABLES: dict[str, TableSet] = {}
_STATES: dict[str, list[GameState]] = {}


def engine(game: str) -> Engine:
    if game not in _ENGINES:
        _ENGINES[game] = find_game(game)
        _TABLES[game] = load_table_set(_ENGINES[game].info.slug)
    return _ENGINES[game]


def sample_states(game: str) -> list[GameState]:
    """Returns the states of the shipped positions and set-up of a game (loaded once)."""
    if game not in _STATES:
        eng = engine(game)
        states = [eng.from_position(_TABLES[game], _load(p.read_bytes(), str(p)), str(p)) for p in POSITIONS[game]]
        states.append(eng.sample_start(SETUPS[game].name))
        _STATES[game] = states
    return _STATES[game]


def _load(raw: bytes, label: str) -> object:
    text = decode_text(label, raw, "position file")
    return parse_json(label, text) if label.endswith(".json") else parse_yaml(label, text)


def _draw(what: object) -> str:
    """Renders through a CLI console (control characters neutralised) and returns the text."""
    buffer = io.StringIO()
    out = console(file=buffer)
    out.width = 100
    out.print(what, soft_wrap=True)
    return buffer.getvalue()


def _check_drawn(text: str) -> None:
    bad = [c for c in text if (ord(c) < 32 and c not in "\n") or 0x7F <= ord(c) < 0xA0 or c == "\u202e"]
    if bad:
        raise AssertionError(f"control character {bad[0]!r} reached the terminal")


def exercise(game: str, state: GameState, rng: random.Random, actions: int = 3) -> None:
    """Runs the read-only verbs on a state: views, random actions judged, legal reports, rendered."""
    eng = engine(game)
    _check_drawn(_draw(render.board(eng.board_view(state))))
    eng.status(state)
    eng.to_position(state).model_dump_json()
    eng.state_hash(state)
    for _ in range(actions):
        text = random_action(game, state, rng)
        try:
            action = eng.parse(state, text)
            verdict = eng.judge(state, action)
            _check_drawn(_draw(render.verdict(verdict)))
            if verdict.legal and rng.random() < 0.5:
                _, record = eng.play(state, action, CommittedDice.from_text(str(rng.random())))
                _check_drawn(_draw(render.record(record)))
        except RefereeError as exc:
            _refusal(exc)
        try:
            report = eng.legal_report(state, rng.choice(text.split() or ["x"]))
            explain = getattr(report, "explain", None)
            if callable(explain):
                _check_drawn(_draw(render.explains(report)))  # type: ignore[arg-type]
        except RefereeError as exc:
            _refusal(exc)


def random_action(game: str, state: GameState, rng: random.Random) -> str:
    """Returns an action text: a legal one, one bent out of shape, notation from help, or noise."""
    eng = engine(game)
    pick = rng.random()
    if pick < 0.35:
        legal = eng.legal_actions(state)
        if legal:
            return rng.choice(legal).text()
    words: list[str] = []
    for notation, _ in eng.help_actions():
        words += notation.replace("/", " ").split()
    if pick < 0.75 and words:
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
    noise = [*HOSTILE_TEXT[:8], "->", "x", ",", ";", "0", "-1", "99999999999999999999", "A1", "Z99", "done",
             "resolve", "undo", "night", "persia operate", "support", "É", "\u0000"]
    if pick > 0.97:  # typed JSON (300's set-up action): deep, huge numbers, not JSON
        return "setup " + rng.choice(("[" * 990, '{"a":' * 190, '{"campaign": ' + "9" * 900 + "}", "{", "NaN"))
    return " ".join(rng.choice(noise + words) for _ in range(rng.randint(0, 8)))


def _refusal(exc: RefereeError) -> None:
    text = str(exc)
    if not text.strip():
        raise AssertionError(f"{type(exc).__name__} with an empty message")


# ---- the case kinds --------------------------------------------------------------------------


def case_position(rng: random.Random) -> bool:
    """A mutated position file for a random game; returns whether it was accepted."""
    game = rng.choice(list(POSITIONS))
    source = rng.choice(POSITIONS[game])
    label = "case.json" if rng.random() < 0.2 else "case.yaml"
    raw = mutate_text(source.read_bytes(), rng)
    eng = engine(game)
    try:
        state = eng.from_position(_TABLES[game], _load(raw, label), label)
    except RefereeError as exc:
        _refusal(exc)
        return False
    exercise(game, state, rng, actions=1)
    return True


def case_setup(rng: random.Random) -> bool:
    """A mutated set-up file: checked and played on a fresh state."""
    game = rng.choice(list(SETUPS))
    raw = mutate_text(SETUPS[game].read_bytes(), rng)
    eng = engine(game)
    try:
        eng.checked_setup(_TABLES[game], _load(raw, "setup.yaml"), "setup.yaml")
    except RefereeError as exc:
        _refusal(exc)
        return False
    return True


def case_table(rng: random.Random) -> bool:
    """One mutated table file overriding the shipped one; the game is set up and shown with it."""
    game = rng.choice(list(POSITIONS))
    eng = engine(game)
    base = _TABLES[game]
    path: Path = rng.choice(table_files(game))
    raw = path.read_bytes()
    raw = mutate_csv(raw, rng) if path.suffix == ".csv" and rng.random() < 0.7 else mutate_text(raw, rng)
    label = f"over/{game}/{path.name}"
    try:
        text = decode_text(label, raw, "table file")
        table_set = TableSet(base.slug, {**base.files, path.name: TableFile(path.name, text, label, True)})
        state = eng.new_state(table_set)
        _check_drawn(_draw(render.tables(describe_table_set(table_set), game)))
        position = rng.choice(POSITIONS[game])
        state = eng.from_position(table_set, _load(position.read_bytes(), str(position)), str(position))
    except RefereeError as exc:
        _refusal(exc)
        return False
    exercise(game, state, rng, actions=2)
    return True


def case_action(rng: random.Random) -> bool:
    """Random action text and unit names on a shipped state (parse, judge, legal, adjust)."""
    game = rng.choice(list(POSITIONS))
    state = rng.choice(sample_states(game))
    eng = engine(game)
    exercise(game, state, rng, actions=4)
    try:
        eng.judge(state, eng.parse_adjust(state, random_action(game, state, rng)))
    except RefereeError as exc:
        _refusal(exc)
        return False
    return True


CASES: dict[str, Callable[[random.Random], bool]] = {
    "position": case_position,
    "setup": case_setup,
    "table": case_table,
    "action": case_action,
}


def run(kind: str, cases: int, seed: int, budget: float | None = None) -> Report:
    """Runs ``cases`` cases of one kind from ``seed`` (stopping early after ``budget`` seconds)."""
    report = Report()
    start = time.perf_counter()
    case = CASES[kind]
    for i in range(cases):
        rng = random.Random(f"{kind}:{seed}:{i}")
        try:
            with deadline(CASE_SECONDS):
                accepted = case(rng)
        except Exception as exc:  # the oracle: anything that is not a RefereeError is a defect
            where = traceback.format_exc().strip().splitlines()[-3:]
            report.defects.append(f"{kind} seed={seed} case={i}: {type(exc).__name__}: {exc!s:.200} | "
                                  + " / ".join(w.strip() for w in where))
            accepted = False
        report.cases += 1
        report.kinds[kind] += 1
        if accepted:
            report.accepted += 1
        else:
            report.refused += 1
        if budget is not None and time.perf_counter() - start > budget:
            break
    report.seconds = time.perf_counter() - start
    return report
