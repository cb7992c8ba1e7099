"""Shared builders for the Cyrus & Pyxis tests: positions from dicts, judging by text."""

from __future__ import annotations

import random
from typing import Any

from referee.dice import NoDice
from referee.games import find_game
from referee.games.cyrus_pyxis.bot import RandomBot
from referee.games.cyrus_pyxis.engine import CyrusEngine
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Phase
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


def turn_pairs(count: int, seed: int) -> list[tuple[CyrusState, CyrusState]]:
    """(before, after) pairs: a random point of a seeded random game (a turn's start or a turn
    under way), and the state once the bot has played the rest of that side's turn."""
    start = ENGINE.sample_start()
    assert isinstance(start, CyrusState)
    rng = random.Random(seed)
    bot = RandomBot(ENGINE)
    pairs: list[tuple[CyrusState, CyrusState]] = []
    state = start
    while len(pairs) < count:
        for _ in range(rng.randrange(1, 40)):
            if state.phase is Phase.OVER:
                state = start
            state = ENGINE.apply(state, bot.choose(state, rng).action, NoDice()).state
        if state.phase is Phase.OVER:
            continue
        before = after = state
        while after.phase is not Phase.OVER and (after.active is before.active or after.phase is not Phase.MOVE):
            after = ENGINE.apply(after, bot.choose(after, rng).action, NoDice()).state
        pairs.append((before, after))
        state = after
    return pairs
