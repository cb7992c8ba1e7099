"""Seeded random playouts (random legal Greek play against PERS.IA) and properties of PERS.IA.

Every game must end, with no exception, no negative count, the Greek piece limits kept, and
``judge`` agreeing with the legal-action generator.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dice import Roll
from referee.games.earth_water.actions import Draw, Event
from referee.games.earth_water.bot import PersiaBot
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.state import EarthWaterState
from referee.games.earth_water.tables import Phase
from referee.tables import packaged_table_set

BOT = PersiaBot()
GAMES = 500
MAX_ACTIONS = 2000
CITIES = ("Abydos", "Ephesos", "Athenai", "Sparta", "Korinthos", "Thebai", "Delphi", "Larissa", "Pella", "Eretria",
          "Naxos")
PORTS = ("Abydos", "Ephesos", "Athenai", "Sparta", "Thebai", "Pella", "Eretria", "Naxos")


class SeededDice:
    """Dice drawn from an injected random.Random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        return Roll(purpose=purpose, sides=sides, faces=tuple(self.rng.randint(1, sides) for _ in range(count)),
                    source="digital")


def check_invariants(state: EarthWaterState) -> None:
    """No negative count, the Greek piece limits, the score track, the hands within the deck."""
    for city, g in state.cities.items():
        for n in (g.greek_armies, g.greek_fleets, g.persian_armies, g.persian_fleets):
            assert n >= 0, (city, g)
        if not state.tables.row(city).port:
            assert g.greek_fleets == 0 and g.persian_fleets == 0, city
    armies, fleets = state.greek_reserve()
    assert armies >= 0 and fleets >= 0, (armies, fleets)
    assert -6 <= state.score <= 6
    assert state.hands.persia >= 0 and state.hands.greece >= 0 and state.deck_left() >= 0
    assert 3 <= state.campaign <= 5
    # the cards: a named card is in the Greek hand once, never more named cards than the hand holds
    assert len(set(state.greek_cards)) == len(state.greek_cards) <= state.hands.greece, state.greek_cards
    assert all(1 <= c <= 16 for c in (*state.greek_cards, *state.played_once))
    assert len(set(state.played_once)) == len(state.played_once) and state.free_moves >= 0
    if state.battle is None and state.phase is not Phase.OVER:
        for city, g in state.cities.items():
            assert not (g.greek_armies and g.persian_armies), f"unresolved land battle in {city}"


def play_one(engine: EarthWaterEngine, rng: random.Random, judge_every: bool,
             cards_first: bool = False) -> tuple[EarthWaterState, int]:
    state = engine.new_state(packaged_table_set("300-solo"))
    dice = SeededDice(rng)
    for n in range(MAX_ACTIONS):
        if engine.outcome(state) is not None:
            return state, n
        legal = engine.legal_actions(state)
        assert legal, f"dead end: {engine.status(state)}"
        action = rng.choice(legal)
        card_play = [a for a in legal if isinstance(a, Event | Draw)]
        if cards_first and card_play and rng.random() < 0.7:
            action = rng.choice(card_play)  # the Greek side plays its cards as often as it can
        if engine.to_act(state) == "persia":
            action = BOT.choose(state, rng).action  # PERS.IA picks only from the legal list
            assert action in legal, action.text()
        if judge_every:
            assert engine.judge(state, action).legal, action.text()
            assert engine.parse(state, action.text()) == action or action.text().startswith("event")
        state = engine.apply(state, action, dice).state
        check_invariants(state)
    raise AssertionError(f"no end after {MAX_ACTIONS} actions: {engine.status(state)}")


@pytest.mark.parametrize("games", [100, pytest.param(GAMES, marks=pytest.mark.playouts)])
def test_playouts_end_cleanly(engine: EarthWaterEngine, games: int) -> None:
    rng = random.Random(300)
    winners: dict[str | None, int] = {}
    lengths = []
    for game in range(games):
        state, length = play_one(engine, rng, judge_every=game < 40)
        assert state.phase is Phase.OVER
        winners[state.winner] = winners.get(state.winner, 0) + 1
        lengths.append(length)
    assert sum(winners.values()) == games
    assert winners.get("persia", 0) > 0  # random Greek play loses often, but the games do end
    assert max(lengths) < MAX_ACTIONS


@pytest.mark.parametrize("games", [300])
def test_playouts_with_random_legal_cards(engine: EarthWaterEngine, games: int) -> None:
    # issue 15: the Greek side draws and plays random legal cards; no exception, no negative
    # count, no card in two places (check_invariants after every action)
    rng = random.Random(15)
    played: set[int] = set()
    for game in range(games):
        state, _length = play_one(engine, rng, judge_every=game < 20, cards_first=True)
        assert state.phase is Phase.OVER
        played |= set(state.played_once)
    assert played  # once-per-game events were played and tracked


garrison = st.fixed_dictionaries({
    "greek_armies": st.integers(0, 2), "persian_armies": st.integers(0, 6),
})


@st.composite
def positions(draw: st.DrawFn) -> dict[str, object]:
    cities: dict[str, dict[str, int]] = {}
    greek_armies = greek_fleets = 0
    for city in CITIES:
        g = dict(draw(garrison))
        if g["greek_armies"] and g["persian_armies"]:
            g[draw(st.sampled_from(["greek_armies", "persian_armies"]))] = 0
        g["greek_armies"] = min(g["greek_armies"], 9 - greek_armies)
        greek_armies += g["greek_armies"]
        if city in PORTS:
            g["persian_fleets"] = draw(st.integers(0, 2))
            g["greek_fleets"] = 0 if g["persian_fleets"] else min(draw(st.integers(0, 1)), 5 - greek_fleets)
            greek_fleets += g["greek_fleets"]
        cities[city] = g
    if cities["Athenai"]["persian_armies"] and cities["Sparta"]["persian_armies"]:
        cities["Sparta"]["persian_armies"] = 0  # Persia holding both Greek Majors has already won (3.F)
    return {"score": draw(st.integers(-6, 6)), "bridge": draw(st.booleans()),
            "hands": {"persia": draw(st.integers(0, 6)), "greece": draw(st.integers(0, 6))}, "cities": cities}


@settings(max_examples=300, deadline=None)
@given(data=positions(), face=st.integers(1, 6))
def test_5_every_operation_ends_in_an_action_or_a_pass(engine: EarthWaterEngine, data: dict[str, object],
                                                      face: int) -> None:
    from referee.dice import PhysicalDice

    state = engine.from_position(packaged_table_set("300-solo"), data, "hypothesis")
    new, report = engine.persia(state, "operate", PhysicalDice([face]))
    kinds = [s.kind for s in report.steps if s.kind != "victory"]
    acted = {"move", "destroy-army", "destroy-fleet", "place", "pass"} & set(kinds)
    assert acted, kinds
    if state.hands.persia:
        assert kinds[-1] == "discard"
        assert new.hands.persia == state.hands.persia - 1
    else:
        assert kinds == ["pass"]
    check_invariants_loose(new)
    if new.battle is not None:
        assert report.pending == new.battle
    for procedure in ("prepare", "supply"):
        after, rep = engine.persia(state, procedure, PhysicalDice([]))
        assert rep.steps
        check_invariants_loose(after)


def check_invariants_loose(state: EarthWaterState) -> None:
    for g in state.cities.values():
        assert min(g.greek_armies, g.greek_fleets, g.persian_armies, g.persian_fleets) >= 0
    armies, fleets = state.greek_reserve()
    assert armies >= 0 and fleets >= 0
