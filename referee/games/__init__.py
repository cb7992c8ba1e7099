"""The registry of games: CLI slug → package, imported on first use.

Each game package exports ``GAME``, an :class:`~referee.game.Engine`. Importing lazily keeps
``referee judge cyrus-pyxis ...`` from loading every other game's tables at start-up.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from typing import Any

from referee.errors import UnknownNameError
from referee.game import AnyEngine, Engine

GAME_PACKAGES: dict[str, str] = {
    "cyrus-pyxis": "cyrus_pyxis",
    "iliad": "iliad",
    "zargo": "zargo",
    "300-solo": "earth_water",
}
"""Slug → package of every game the referee knows of (HOUSE_STYLE §3: the one mapping).
A game whose package is not in this installation is reported as not available."""

_loaded: dict[str, AnyEngine] = {}


def find_game(name: str) -> AnyEngine:
    """Returns the engine of a game by slug (or package name).

    Raises:
        UnknownNameError: no such game; suggests close slugs.
    """
    key = name.strip().lower()
    by_package = {pkg: slug for slug, pkg in GAME_PACKAGES.items()}
    slug = by_package.get(key.replace("-", "_"), key)
    if slug in _loaded:
        return _loaded[slug]
    if slug not in GAME_PACKAGES:
        close = difflib.get_close_matches(key, available_games(), n=3, cutoff=0.4)
        raise UnknownNameError("game", name, close or available_games())
    if slug not in _loaded:
        if not available(slug):
            err = UnknownNameError("game", name, available_games())
            err.hint = f"{slug} is planned but not available in this version"
            raise err
        module = importlib.import_module(f"referee.games.{GAME_PACKAGES[slug]}")
        engine = module.GAME
        assert isinstance(engine, Engine)
        _loaded[slug] = engine
    return _loaded[slug]


def register_engine(slug: str, engine: AnyEngine) -> None:
    """Makes an engine that is not a shipped game findable by slug (a test's made-up game), so a
    game file made with it opens again. Shipped games are listed in :data:`GAME_PACKAGES` instead.

    Raises:
        ValueError: the slug is a shipped game's, or differs from the engine's own.
    """
    if slug in GAME_PACKAGES or slug != engine.info.slug:
        raise ValueError(f"cannot register {slug!r}: a shipped game's slug, or not the engine's ({engine.info.slug!r})")
    _loaded[slug] = engine


def lazy_engine(package: str, module: str, name: str) -> Callable[[str], Any]:
    """Returns a module ``__getattr__`` that builds a game package's ``GAME`` on first use.

    A game package sets ``__getattr__ = lazy_engine(__name__, "<pkg>.engine", "<Class>")``, so
    importing it (for its command-line commands) does not load its engine and tables.
    """

    def __getattr__(attr: str) -> Any:
        if attr != "GAME":
            raise AttributeError(f"module {package!r} has no attribute {attr!r}")
        engine = getattr(importlib.import_module(module), name)()
        vars(sys.modules[package])["GAME"] = engine  # later lookups skip __getattr__
        return engine

    return __getattr__


def available(slug: str) -> bool:
    """Returns True when the game's package and its engine are part of this installation
    (a package may ship its data readers before its engine, as Zargo's Lords does)."""
    package = f"referee.games.{GAME_PACKAGES[slug]}"
    return importlib.util.find_spec(package) is not None and importlib.util.find_spec(f"{package}.engine") is not None


def available_games() -> list[str]:
    """Returns the slugs of the games this installation can referee."""
    return [slug for slug in GAME_PACKAGES if available(slug)]


def all_games() -> list[AnyEngine]:
    """Returns the engine of every available game (imports them all)."""
    return [find_game(slug) for slug in available_games()]
