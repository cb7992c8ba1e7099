"""Helpers for the Zargo engine tests: positions written as data, played with typed dice."""

from __future__ import annotations

from typing import Any

from referee.dice import PhysicalDice
from referee.games import find_game
from referee.games.zargo.engine import ZargoEngine
from referee.games.zargo.state import ZargoState
from referee.tables import load_table_set

GAME = find_game("zargo")
assert isinstance(GAME, ZargoEngine)
TABLES = load_table_set("zargo")

CITIES = {"0505": {"owner": "chevaliers", "founder": "chevaliers"}, "2503": {"owner": "dragons", "founder": "dragons"}}
"""Two cities of two peoples, so that no test position is already won."""


def position(board: dict[str, list[str]], active: str = "chevaliers", **more: Any) -> ZargoState:
    """A four-people position in the movement phase, month 1 unless said."""
    data: dict[str, Any] = {
        "game": "zargo",
        "phase": "move",
        "players": 4,
        "peoples": ["chevaliers", "dragons", "ailes", "moines"],
        "continents": {"chevaliers": ["1"], "dragons": ["2"], "ailes": ["3"], "moines": ["4"]},
        "ready": ["chevaliers", "dragons", "ailes", "moines"],
        "month": 1,
        "active": active,
        "board": board,
        "cities": dict(CITIES),
    }
    data.update(more)
    return GAME.from_position(TABLES, data, "test-position")


def play(state: ZargoState, text: str, *faces: int) -> ZargoState:
    """Plays one action (judged) with typed dice; returns the new state."""
    new, _record = GAME.play(state, GAME.parse(state, text), PhysicalDice(list(faces)))
    return new


def codes(state: ZargoState, text: str) -> tuple[str, ...]:
    """The violation codes of an action (empty: legal)."""
    return GAME.judge(state, GAME.parse(state, text)).codes()


def events(state: ZargoState, text: str, *faces: int) -> tuple[ZargoState, list[str]]:
    """Plays an action and returns the new state with its event codes."""
    new, record = GAME.play(state, GAME.parse(state, text), PhysicalDice(list(faces)))
    return new, [e.code for e in record.events]
