"""Shared fixtures: a seeded RNG (never module-level random), English unless a test says otherwise."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

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


SampleGame = Callable[..., Path]


@pytest.fixture(scope="session")
def sample_game(tmp_path_factory: pytest.TempPathFactory) -> SampleGame:
    """``sample_game(folder, slug="cyrus-pyxis", name="game.referee")`` puts in ``folder`` a copy of
    the game file ``referee new SLUG --setup <the game's sample set-up>`` writes, made once per
    session in process, for tests whose subject comes after the new game (not ``new`` itself)."""
    from referee.tables import data_root
    from tests.inprocess import run_main

    made: dict[str, Path] = {}

    def copy(folder: Path, slug: str = "cyrus-pyxis", name: str = "game.referee") -> Path:
        if slug not in made:
            where = tmp_path_factory.mktemp(f"new-{slug}")
            setup = data_root("samples") / slug / "setup.yaml"
            env = {k: v for k, v in os.environ.items() if k not in ("REFEREE_FILE", "REFEREE_TABLES")}
            done = run_main(["new", slug, "--setup", str(setup), "--file", "game.referee"], where, env)
            assert done.code == 0, done.err
            made[slug] = where / "game.referee"
        target = folder / name
        shutil.copyfile(made[slug], target)
        return target

    return copy
