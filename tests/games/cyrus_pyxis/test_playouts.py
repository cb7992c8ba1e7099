"""Seeded random playouts through the public engine API: no exception, invariants hold, and
``judge`` agrees with ``legal_actions`` (the Definition of Done's contract, 1,000 games)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.dice import NoDice
from referee.games.cyrus_pyxis.actions import Done, Move, Resolve, Support
from referee.games.cyrus_pyxis.bot import RandomBot
from referee.games.cyrus_pyxis.movement import MAX_INFANTRY_MOVES
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Kind, Phase, Side

from .helpers import ENGINE

GAMES = 1000
TURN_CAP = 400
CROSS_CHECK_EVERY = 25  # one full judge-vs-legal comparison in every 25th game


def start() -> CyrusState:
    state = ENGINE.sample_start()
    assert isinstance(state, CyrusState)
    return state


def check_invariants(state: CyrusState) -> None:
    tables = state.tables
    by_id, size = tables.by_id, tables.grid.size
    names = list(state.where)
    cells = list(state.where.values())
    sides = [by_id[n].side for n in names]
    assert all(0 <= c < size for c in cells)
    assert len(set(zip(cells, sides, strict=True))) == len(cells), "two legions of one side share a cell"
    if state.phase is Phase.MOVE:  # a pending combat's attacker belongs to the side to play and has moved
        greek = {c for c, s in zip(cells, sides, strict=True) if s is Side.GREEK}
        persian = {c for c, s in zip(cells, sides, strict=True) if s is Side.PERSIAN}
        for name, cell, side in zip(names, cells, sides, strict=True):
            if side is state.active and cell in greek and cell in persian:
                assert name in state.moved
    kinds = [by_id[n].kind for n in state.moved]
    assert kinds.count(Kind.INFANTRY) <= MAX_INFANTRY_MOVES
    others = [k for k in kinds if k is not Kind.INFANTRY]
    assert len(others) == len(set(others))
    assert all(by_id[n].side is state.active for n in state.moved)
    supported = list(state.supports.values())
    assert len(supported) == len(set(supported))
    for archer, legion in state.supports.items():
        assert by_id[archer].kind is Kind.ARCHER and by_id[archer].side is by_id[legion].side
    if state.phase is Phase.OVER:
        assert state.winner is not None and state.win_reason
    else:
        kings = {by_id[n].side for n in names if by_id[n].kind is Kind.KING}
        assert kings == {Side.GREEK, Side.PERSIAN}, "a king left the game but nobody won"


def candidates(state: CyrusState) -> list[str]:
    """Every action text worth asking judge about: all moves, supports, done, resolve."""
    grid = state.tables.grid
    cells = [grid.name(c) for c in grid.cells()] + ["off"]
    texts = [f"{lg.name} {cell}" for lg in state.tables.legions if lg.side is state.active for cell in cells]
    archers = [lg.name for lg in state.tables.legions if lg.kind is Kind.ARCHER]
    texts += [f"support {a} {lg.name}" for a in archers for lg in state.tables.legions]
    return [*texts, "done", "resolve"]


def cross_check(state: CyrusState) -> int:
    legal = {a.text() for a in ENGINE.legal_actions(state)}
    for text in candidates(state):
        verdict = ENGINE.judge(state, ENGINE.parse(state, text))
        assert verdict.legal == (text in legal), (text, verdict.codes(), ENGINE.status(state))
    return len(legal)


@pytest.mark.parametrize("games", [100, pytest.param(GAMES, marks=pytest.mark.playouts)])
def test_seeded_random_playouts_keep_every_invariant(games: int) -> None:
    initial = start()
    bot = RandomBot(ENGINE)
    ended = 0
    kinds: Counter[str] = Counter()
    checked = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = initial
        cross_at = rng.randrange(150) if seed % CROSS_CHECK_EVERY == 0 else -1
        step = 0
        while state.phase is not Phase.OVER and state.turn <= TURN_CAP:
            if step == cross_at:
                checked += cross_check(state)
            action = bot.choose(state, rng).action
            verdict = ENGINE.judge(state, action)
            assert verdict.legal, (seed, action.text(), verdict.codes())
            kinds[type(action).__name__] += 1
            state = ENGINE.apply(state, action, NoDice()).state  # type: ignore[assignment]
            check_invariants(state)
            step += 1
        if state.phase is Phase.OVER:
            ended += 1
            assert ENGINE.legal_actions(state) == []
    assert checked > 0
    assert ended == games, f"{games - ended} games still running after {TURN_CAP} turns"
    assert all(kinds[k.__name__] > 0 for k in (Move, Support, Done, Resolve))
