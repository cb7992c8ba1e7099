"""The contract, over every registered game: a game is covered by registering it.

Package shape; seeded goldens and perft (tests/contract/goldens/); the game is over exactly when
no action is legal; every legal action met reads back from its text; a game that hides
information shows no viewer another's secret through :func:`referee.viewing.seen_by`, the one
function behind ``show --as``, ``log``, ``export`` and ``serve``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from referee.capabilities import PhotoCapture
from referee.games import GAME_PACKAGES, available_games, find_game
from tests.contract import checks, goldens
from tests.contract.walks import walk

SLUGS = available_games()
IMPERFECT = [slug for slug in SLUGS if find_game(slug).info.information == "imperfect"]
CAPTURING = [slug for slug in SLUGS if isinstance(find_game(slug), PhotoCapture)]
WALK_STEPS = 40
"""The default suite's walk (cheap); the ``playouts`` marker walks further."""


def _package(slug: str) -> tuple[Path, str]:
    module = importlib.import_module(f"referee.games.{GAME_PACKAGES[slug]}")
    return Path(module.__file__ or "").parent, module.__name__


@pytest.mark.parametrize("slug", SLUGS)
def test_package_has_the_kit(slug: str) -> None:
    checks.check_package_shape(find_game(slug), *_package(slug))


@pytest.mark.parametrize("slug", SLUGS)
def test_seeded_golden_and_perft(slug: str) -> None:
    for name in (f"{slug}-seeded.json", f"{slug}-perft.json"):
        checks.check_golden(goldens.GOLDENS, name, goldens.FILES[name])


@pytest.mark.parametrize("slug", SLUGS)
def test_seeded_walks_keep_the_contract(slug: str) -> None:
    """Over every state of a seeded walk: over exactly when nothing is legal; every legal action
    reads back from its text."""
    engine = find_game(slug)
    steps = list(walk(engine, 3, WALK_STEPS))
    assert checks.check_over_iff_no_legal(engine, steps) > WALK_STEPS // 2
    assert checks.check_parse_round_trip(engine, steps) > WALK_STEPS


@pytest.mark.parametrize("slug", IMPERFECT)
def test_no_viewer_sees_another_viewers_secret(slug: str, tmp_path: Path) -> None:
    with checks.bot_game(find_game(slug), tmp_path / "g.referee", 5, 150) as gf:
        assert checks.check_no_secret_leaks(gf) >= 2


def test_some_game_reads_photos() -> None:
    assert "cyrus-pyxis" in CAPTURING


@pytest.mark.parametrize("slug", CAPTURING)
def test_capture_rules_keep_the_protocol(slug: str) -> None:
    """Every game that declares photo capture: its capture rules keep ``CaptureRules`` (checked on
    a few states of a seeded walk, each read back from a perfect photo of itself)."""
    engine = find_game(slug)
    steps = list(walk(engine, 3, WALK_STEPS))[::8]
    assert checks.check_capture_rules(engine, steps) == len(steps)


@pytest.mark.playouts
@pytest.mark.parametrize("slug", SLUGS)
def test_long_walks_keep_the_contract(slug: str) -> None:
    engine = find_game(slug)
    for seed in range(20):
        steps = list(walk(engine, seed, 400))
        checks.check_over_iff_no_legal(engine, steps)
        checks.check_parse_round_trip(engine, steps)
