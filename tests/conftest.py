"""Shared fixtures: a seeded RNG (never module-level random), English unless a test says otherwise."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest

# Tests read English output unless they choose a language: the machine's locale must not leak in
# (subprocesses inherit this too; tests of the language choice pass their own environment).
os.environ["REFEREE_LANG"] = "en"


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Each test starts in English (an in-process CLI call with ``--lang`` must not leak)."""
    from referee.i18n import use

    use("en")
    yield
    use("en")


@pytest.fixture
def rng() -> random.Random:
    """A seeded random generator for playouts and tie-breaks."""
    return random.Random(0)
