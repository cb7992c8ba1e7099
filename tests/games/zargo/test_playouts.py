"""Seeded random playouts of whole Zargo games (2, 3 and 4 players): the bot sets up in the
rulebook's order, seals every garrison, reveals it when the city is attacked, shows and seals
garrisons again to act from their cities; no exception, every invariant holds after every action,
every bot choice is one the judge accepts and the legal lists hold, and a revealed garrison is
the one sealed. A few games run by default, the full run behind ``-m playouts``."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.dice import CommittedDice
from referee.games.zargo.bot import Playout, RandomBot, secret_action
from referee.games.zargo.movement import escort_fits
from referee.games.zargo.state import GARRISON_MAX, MONTHS, PARALYSIS, Phase, ZargoState, manifest_left
from referee.games.zargo.world import Terrain
from referee.sealed import RevealRequest, SealRequest
from tests.games.zargo.helpers import GAME, TABLES

GAMES = 210


def invariants(s: ZargoState, p: Playout) -> None:
    """Stacking, garrisons, nobody at sea, paralysis counted, the box never exceeded (sealed
    garrisons counted from the secrets the playout holds)."""
    world = s.tables.world
    for h, stack in s.board.items():
        assert world.terrain[world.grid.parse(h)] is not Terrain.SEA, h
        assert 1 <= len(stack) <= 2, (h, stack)
        if len(stack) == 2:
            assert escort_fits(s, stack[0], (stack[1],)), (h, stack)
        assert h not in s.cities, h
    sealed: Counter[str] = Counter()
    for h, c in s.cities.items():
        assert c.garrison is None or len(c.garrison) <= GARRISON_MAX
        if c.hidden and c.seal is not None:
            secret = p.seals[h].secret
            assert p.seals[h].public == c.seal and isinstance(secret, list)
            sealed.update(str(x) for x in secret)
    for h, n in s.paralysed.items():
        assert h in s.board and 1 <= n <= PARALYSIS, (h, n)
    for label in s.tables.units:
        assert manifest_left(s, label) - sealed[label] >= 0, label
    assert 1 <= s.month <= MONTHS


def play_checked(seed: int, players: int) -> Playout:
    """One game through the bot; every state checked; every tenth choice checked against the
    legal lists; every seal and reveal made as a game file makes it."""
    rng = random.Random(seed)
    dice = CommittedDice(b"zargo-playouts-test-seed-0000000", f"g{seed}")
    s = GAME.new_state(TABLES)
    s, _ = GAME.play(s, GAME.parse(s, f"players {players}"), dice)
    bot = RandomBot()
    out = Playout(s)
    for step in range(20_000):
        if GAME.outcome(s) is not None:
            break
        choice = bot.choose(s, rng)
        action = choice.action
        if isinstance(action, SealRequest | RevealRequest):
            out.reveals += isinstance(action, RevealRequest)
            action = secret_action(s, action, out.seals, rng)
        elif step % 10 == 0 and s.phase in (Phase.MOVE, Phase.RESOLVE):
            assert action.text() in {a.text() for a in GAME.legal_actions(s)}, action.text()
        s, record = GAME.play(s, action, dice)  # type: ignore[arg-type]
        out.records.append(record)
        invariants(s, out)
    out.state = s
    return out


@pytest.mark.parametrize("games", [3, pytest.param(GAMES, marks=pytest.mark.playouts)])
def test_seeded_playouts_reach_month_25_sealing_and_revealing(games: int) -> None:
    kinds: Counter[str] = Counter()
    for seed in range(games):
        p = play_checked(seed, (2, 3, 4)[seed % 3])
        out = GAME.outcome(p.state)
        assert out is not None, seed
        assert p.state.month == MONTHS or out.termination == "all-cities"
        assert out.winners  # shared-victory reading: somebody always wins
        for record in p.records:
            kinds.update(e.code for e in record.events)
        # a garrison revealed is exactly the one sealed (exchanges and sallies only remove counters)
        for h, sealed in p.seals.items():
            city = p.state.cities[h]
            if city.seal == sealed.public and city.garrison is not None:
                assert isinstance(sealed.secret, list)
                assert not Counter(city.garrison) - Counter(sealed.secret)
    assert kinds["secret-sealed"] and kinds["secret-revealed"] and kinds["month"]
    if games == GAMES:  # the long run reaches every kind of event the bot can make happen
        for code in ("assault", "city-taken", "flames", "arrow", "vision", "retreat", "paralysed", "appeared"):
            assert kinds[code], code
