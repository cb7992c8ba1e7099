"""Shared builders for the Cyrus & Pyxis tests: positions from dicts, judging by text."""

from __future__ import annotations

from typing import Any

from referee.dice import NoDice
from referee.games import find_game
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.state import CyrusState
from referee.rulings import Verdict
from referee.tables import TableSet, load_table_set

GAME = find_game("cyrus-pyxis")
assert isinstance(GAME, CyrusEngine)
ENGINE: CyrusEngine = GAME


def position(table_set: TableSet | None = None, **data: Any) -> CyrusState:
    """Returns the state of an umpire position given as keyword fields."""
    data.setdefault("game", "cyrus-pyxis")
    state = ENGINE.from_position(table_set or load_table_set("cyrus-pyxis"), data, "test")
    return state


def judge(state: CyrusState, text: str) -> Verdict:
    """Judges an action given in notation."""
    return ENGINE.judge(state, ENGINE.parse(state, text))


def play(state: CyrusState, *texts: str) -> CyrusState:
    """Plays legal actions in order (fails on an illegal one)."""
    for text in texts:
        state, _ = ENGINE.play(state, ENGINE.parse(state, text), NoDice())  # type: ignore[assignment]
    return state


def codes(verdict: Verdict) -> list[str]:
    """The violation codes of a verdict."""
    return [v.code for v in verdict.violations]


def sections(verdict: Verdict) -> set[str]:
    """Every section a verdict's violations cite."""
    return {c.section for v in verdict.violations for c in v.cites}
