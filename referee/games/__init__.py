"""The registry of games: plain data (slug, title, aliases, package), each engine imported on first use.

Each game package exports ``GAME``, an :class:`~referee.game.Engine`. Importing lazily keeps
``referee judge cyrus-pyxis ...`` from loading every other game's tables at start-up, and the
registry itself imports no model: ``referee --help``, ``--version`` and shell completion read it
without loading pydantic (a contract test checks it against each engine's ``GameInfo``).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.errors import UnknownNameError

if TYPE_CHECKING:
    from referee.game import AnyEngine


@dataclass(frozen=True)
class GameEntry:
    """A game the referee knows of, as the command line needs it before any engine is built."""

    slug: str
    """CLI id, as in ``game:`` of a position file and ``tables/<slug>/``."""
    package: str
    """Python package under ``referee.games`` (also accepted as a name, ``cyrus_pyxis``)."""
    title: str
    """The game's title, the same as its engine's ``GameInfo.title``."""
    aliases: tuple[str, ...] = ()
    """Other names a user may type for it, in lower case (the slug and package are always accepted)."""

    @property
    def module(self) -> str:
        """The module to import for the game's engine (``GAME``)."""
        return f"referee.games.{self.package}"


REGISTRY: tuple[GameEntry, ...] = (
    GameEntry("cyrus-pyxis", "cyrus_pyxis", "Cyrus & Pyxis"),
    GameEntry("iliad", "iliad", "Iliad"),
    GameEntry("zargo", "zargo", "Zargo's Lords", aliases=("zargos-lords",)),
    GameEntry("300-solo", "earth_water", "300: Earth & Water — solo (PERS.IA)", aliases=("earth-water",)),
)
"""Every game the referee knows of: the one mapping of slug and package."""

GAME_PACKAGES: dict[str, str] = {entry.slug: entry.package for entry in REGISTRY}
"""Slug → package of every game the referee knows of.
A game whose package is not in this installation is reported as not available."""

_ENTRIES: dict[str, GameEntry] = {entry.slug: entry for entry in REGISTRY}

_NAMES: dict[str, str] = {name: e.slug for e in REGISTRY for name in (e.slug, e.package, *e.aliases)}
"""Every name a game may be given (slug, package, aliases) → its slug."""

_loaded: dict[str, AnyEngine] = {}


def game_slug(name: str) -> str | None:
    """Returns the slug of the game a name means (its slug, package or an alias), else None.

    >>> game_slug("Earth-Water"), game_slug("cyrus_pyxis"), game_slug("Pyxis")
    ('300-solo', 'cyrus-pyxis', None)
    """
    return _NAMES.get(name.strip().lower())


def find_game(name: str) -> AnyEngine:
    """Returns the engine of a game by slug (or package name, or alias).

    Raises:
        UnknownNameError: no such game; suggests close slugs.
    """
    # Imported here, not at module level, for a measured start-up cost: the registry must load
    # no pydantic model (with rich's console, half of `referee --help`'s CPU time before issue 33;
    # bench/bench_startup.py).
    from referee.game import Engine  # lazy: pydantic models

    key = name.strip().lower()
    slug = game_slug(key) or key
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
        module = importlib.import_module(_ENTRIES[slug].module)
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
    module = _ENTRIES[slug].module
    return importlib.util.find_spec(module) is not None and importlib.util.find_spec(f"{module}.engine") is not None


def available_games() -> list[str]:
    """Returns the slugs of the games this installation can referee."""
    return [slug for slug in GAME_PACKAGES if available(slug)]


def all_games() -> list[AnyEngine]:
    """Returns the engine of every available game (imports them all)."""
    return [find_game(slug) for slug in available_games()]
