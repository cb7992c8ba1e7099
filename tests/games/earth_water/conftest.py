"""Fixtures for the 300-solo tests: the engine, positions built from dicts, scripted dice."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.dice import PhysicalDice, Roll
from referee.games import find_game
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.state import EarthWaterState
from referee.tables import load_table_set, packaged_table_set
from tests.readings import Reading, override_with, readings

Position = Callable[..., EarthWaterState]


@pytest.fixture(scope="session")
def engine() -> EarthWaterEngine:
    """The registered 300-solo engine."""
    game = find_game("300-solo")
    assert isinstance(game, EarthWaterEngine)
    return game


@pytest.fixture
def position(engine: EarthWaterEngine) -> Position:
    """Builds a state from position-file fields: position(cities={...}, score=0, ...)."""

    def build(**fields: object) -> EarthWaterState:
        data: dict[str, object] = {"game": "300-solo", **fields}
        return engine.from_position(packaged_table_set("300-solo"), data, "test")

    return build


@pytest.fixture
def read_as(engine: EarthWaterEngine, tmp_path: Path) -> Callable[..., Position]:
    """Returns a position builder under one reading's other option: read_as("die-pass", "keeps-card")."""

    def under(ident: str, option: str) -> Position:
        found: Reading = next(r for r in readings("300-solo") if r.ident == ident)
        assert option in found.options, (ident, option, found.options)
        folder = override_with(tmp_path / f"{ident}-{option}", found, option)
        table_set = load_table_set("300-solo", folder)

        def build(**fields: object) -> EarthWaterState:
            return engine.from_position(table_set, {"game": "300-solo", **fields}, "test")

        return build

    return under


class RandomDice:
    """Digital-like dice from an injected random.Random (playouts only)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, count: int, sides: int, purpose: str) -> Roll:
        faces = tuple(self.rng.randint(1, sides) for _ in range(count))
        return Roll(purpose=purpose, sides=sides, faces=faces, source="digital")


@pytest.fixture
def typed() -> Callable[..., PhysicalDice]:
    """Typed dice, consumed in order: typed(4) or typed(5, 3, 2)."""
    return lambda *faces: PhysicalDice(list(faces))


@pytest.fixture
def random_dice(rng: random.Random) -> RandomDice:
    """Dice drawn from the seeded rng fixture."""
    return RandomDice(rng)
