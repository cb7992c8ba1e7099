"""Seeded random playouts of whole Zargo games (2, 3 and 4 players, sealed garrisons revealed
when attacked): no exception, every invariant holds after every action, and the bot's choices
are among the engine's legal actions (the judge and the generator agree)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.dice import CommittedDice
from referee.games.zargo import sequence as seq
from referee.games.zargo.bot import RandomBot, playout
from referee.games.zargo.state import GARRISON_MAX, MONTHS, Phase, ZargoState
from referee.games.zargo.world import Terrain
from tests.games.zargo.helpers import GAME, TABLES

GAMES = 210


def invariants(s: ZargoState) -> None:
    """Stacking, garrisons, nobody at sea, paralysis counted, the box never exceeded."""
    world = s.tables.world
    for h, stack in s.board.items():
        assert world.terrain[world.grid.parse(h)] is not Terrain.SEA, h
        assert 1 <= len(stack) <= 2, (h, stack)
        if len(stack) == 2:
            assert seq.escort_fits(s, stack[0], (stack[1],)), (h, stack)
        assert h not in s.cities, h
    for c in s.cities.values():
        assert c.garrison is None or len(c.garrison) <= GARRISON_MAX
    for h, n in s.paralysed.items():
        assert h in s.board and 1 <= n <= seq.PARALYSIS, (h, n)
    for label in s.tables.units:
        assert seq.manifest_left(s, label) >= 0, label
    assert 1 <= s.month <= MONTHS


def play_checked(seed: int, players: int) -> tuple[ZargoState, int]:
    """One game; every state checked; every tenth bot choice checked against legal_actions."""
    rng = random.Random(seed)
    dice = CommittedDice(b"zargo-playouts-test-seed-0000000", f"g{seed}")
    s = GAME.new_state(TABLES)
    s, _ = GAME.play(s, GAME.parse(s, f"players {players}"), dice)
    bot = RandomBot(GAME)
    steps = 0
    while GAME.outcome(s) is None and steps < 20_000:
        choice = bot.choose(s, rng)
        if steps % 10 == 0 and s.phase is Phase.MOVE:
            assert choice.action.text() in {a.text() for a in GAME.legal_actions(s)}, choice.action.text()
        s, _ = GAME.play(s, choice.action, dice)  # type: ignore[arg-type]
        invariants(s)
        steps += 1
    return s, steps


@pytest.mark.parametrize("games", [2, pytest.param(GAMES, marks=pytest.mark.playouts)])
def test_seeded_playouts_reach_month_25_with_every_invariant(games: int) -> None:
    winners = 0
    for seed in range(games):
        s, _ = play_checked(seed, (2, 3, 4)[seed % 3])
        out = GAME.outcome(s)
        assert out is not None, seed
        assert s.month == MONTHS or out.termination == "all-cities"
        winners += bool(out.winners)
    assert winners == games  # shared-victory reading: somebody always wins


@pytest.mark.parametrize("games", [3, pytest.param(GAMES, marks=pytest.mark.playouts)])
def test_seeded_playouts_with_sealed_garrisons(games: int) -> None:
    reveals = 0
    for seed in range(games):
        p = playout(GAME, 1000 + seed, (2, 3, 4)[seed % 3])
        assert GAME.outcome(p.state) is not None
        invariants(p.state)
        reveals += p.reveals
        # a revealed garrison is exactly the one sealed
        for h, sealed in p.seals.items():
            city = p.state.cities[h]
            if city.seal == sealed.public and city.garrison is not None:
                assert isinstance(sealed.secret, list)
                assert not Counter(city.garrison) - Counter(sealed.secret)  # exchanges only remove counters
    assert reveals > 0
