"""Seeded random playouts of full four-day games through the engine API.

300 games (split over two worker processes) played by the random policy of
``referee.games.iliad.bot`` with seeded digital dice: no exception, never two counters on a
square, never a counter off the map or at sea, every game ending with a winner by day 4. A few
more games check that ``judge`` agrees with the legal-action generator.
"""

from __future__ import annotations

import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from referee.dice import CommittedDice
from referee.games.iliad.bot import RandomPolicy
from referee.games.iliad.movement import Situation, destinations
from referee.games.iliad.state import IliadState, Phase

from .helpers import ENGINE, started

GAMES = 300
WORKERS = 2
MAX_ACTIONS = 5000


def invariant_problems(state: IliadState) -> list[str]:
    """Stacked counters, counters off the map or at sea, the dead or departed still standing."""
    board = state.tables.board
    problems: list[str] = []
    if len(set(state.where.values())) != len(state.where):
        problems.append("two counters on one square")
    for ident, cell in state.where.items():
        if not 0 <= cell < board.grid.size or not board.land[cell]:
            problems.append(f"{ident} off the map or at sea ({cell})")
    if set(state.where) & (set(state.dead) | set(state.removed)):
        problems.append("a dead or departed counter on the map")
    if not set(state.wounded) <= set(state.where):
        problems.append("a wounded counter off the map")
    return problems


def play_games(seeds: list[int]) -> list[tuple[int, str | None, int, int, int, list[str]]]:
    """Plays one game per seed; returns (seed, winner, day, hour, actions, problems)."""
    start = started()
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        dice = CommittedDice(seed.to_bytes(8, "big"), f"playout-{seed}")
        policy = RandomPolicy(ENGINE, rng)
        state, problems, n = start, [], 0
        while state.phase is not Phase.OVER and n < MAX_ACTIONS:
            applied = ENGINE.apply(state, policy.choose(state), dice)
            assert isinstance(applied.state, IliadState)
            state = applied.state
            n += 1
            problems += invariant_problems(state)
        out.append((seed, state.winner.value if state.winner else None, state.day, state.hour, n, problems[:3]))
    return out


@pytest.mark.parametrize("games", [100, pytest.param(GAMES, marks=pytest.mark.playouts)])
def test_seeded_four_day_playouts_keep_the_invariants_and_end_with_a_winner(games: int) -> None:
    seeds = list(range(games))
    chunks = [seeds[i::WORKERS] for i in range(WORKERS)]
    if "fork" in multiprocessing.get_all_start_methods():
        with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("fork")) as pool:
            results = [r for chunk in pool.map(play_games, chunks) for r in chunk]
    else:  # no fork on this platform: play the same games in this process
        results = [r for chunk in chunks for r in play_games(chunk)]
    assert len(results) == games
    for seed, winner, day, _hour, actions, problems in results:
        assert problems == [], (seed, problems)
        assert winner in ("greek", "trojan"), (seed, actions)
        assert day <= 4
    assert sum(r[4] for r in results) > games * 150  # real games: every hour of four days was played


def test_judge_agrees_with_the_legal_action_generator() -> None:
    rng = random.Random(7)
    dice = CommittedDice(b"judge-agrees", "judge")
    policy = RandomPolicy(ENGINE, rng)
    state = started()
    checked = rejected = 0
    for step in range(600):
        if state.phase is Phase.OVER:
            break
        if step % 4 == 0:
            legal = ENGINE.legal_actions(state)
            for action in rng.sample(legal, min(6, len(legal))):
                assert ENGINE.judge(state, action).legal, action.text()
                checked += 1
        if state.phase is Phase.MOVE and step % 2 == 0:
            movers = ENGINE.movable(state)
            if movers:
                counter = rng.choice(movers)
                if counter.id not in state.moved:
                    ok = {c for c, _ in destinations(state, Situation(state), counter)}
                    grid = state.tables.board.grid
                    for cell in rng.sample(range(grid.size), 8):
                        if cell not in ok and cell != state.where[counter.id]:
                            verdict = ENGINE.judge(state, ENGINE.parse(state, f"{counter.id} {grid.name(cell)}"))
                            assert not verdict.legal, (counter.id, grid.name(cell))
                            rejected += 1
        action = policy.choose(state)
        assert ENGINE.judge(state, action).legal, action.text()
        state, _ = ENGINE.play(state, action, dice)  # type: ignore[assignment]
    assert checked > 100 and rejected > 50
