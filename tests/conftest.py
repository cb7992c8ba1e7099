"""Shared fixtures: a seeded RNG (never module-level random), temporary game files."""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def rng() -> random.Random:
    """A seeded random generator for playouts and tie-breaks."""
    return random.Random(0)
