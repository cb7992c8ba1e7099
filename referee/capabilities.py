"""Optional capabilities a game engine may offer beyond the core protocol.

The command line asks an engine for a capability with ``isinstance(engine, ExactOdds)`` (these
are runtime-checkable protocols, as OpenSpiel's games declare optional features) instead of
asking which game it is, so ``referee odds GAME`` works for every game that can enumerate odds
and says plainly which ones do when a game cannot.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from referee.bot import Bot
    from referee.game import GameState

__all__ = ["ExactOdds", "PhotoCapture", "Playable", "SetupExport", "bot_of", "capture_of", "exact_odds", "setup_of"]


@runtime_checkable
class ExactOdds(Protocol):
    """A game that computes the exact odds of a combat or shot by enumerating every roll."""

    def odds(self, state: GameState, text: str) -> BaseModel:
        """Returns the odds of every outcome of the attack a text names (nothing is rolled).

        Raises:
            NotationError, UnknownNameError: the text names no attack of this game.
        """
        ...


def exact_odds(engine: object) -> ExactOdds | None:
    """Returns the engine as an :class:`ExactOdds` when it offers exact odds, else None."""
    return engine if isinstance(engine, ExactOdds) else None


@runtime_checkable
class Playable(Protocol):
    """A game with a bot that can choose the next action (``referee bot``)."""

    def bot(self) -> Bot:
        """Returns the game's bot (it only ever chooses actions the rules allow)."""
        ...


def bot_of(engine: object) -> Bot | None:
    """Returns the engine's bot when it offers one, else None."""
    return engine.bot() if isinstance(engine, Playable) else None


@runtime_checkable
class PhotoCapture(Protocol):
    """A game whose turns can be read from an overhead photo (``referee capture``).

    The game names the module of its capture rules (``capture_rules``, plain data: the capture
    rules import the engine, so the engine cannot import them): ``legion_labels(state)`` (what
    each counter shows, for the reader), ``infer_turn(state, cells, answers=, identity=)`` (the
    legal turns that explain what the photo shows), ``settled_cells``, ``cell_contents`` and
    ``legion_cells``.
    """

    capture_rules: str
    """Dotted name of the game's capture rules module."""


def capture_of(engine: object) -> ModuleType | None:
    """Returns the engine's capture rules (imported now) when it offers photo capture, else None."""
    if not isinstance(engine, PhotoCapture):
        return None
    return importlib.import_module(engine.capture_rules)


@runtime_checkable
class SetupExport(Protocol):
    """A game that writes its set-up so far as a set-up file (``referee export --setup FILE``)."""

    def setup_file(self, state: GameState) -> dict[str, object]:
        """Returns the set-up of a state as the data of a set-up file ``new --setup`` accepts."""
        ...

    def setup_done(self, state: GameState) -> bool:
        """True once a state's set-up is over (the set-up file is written from the first such state)."""
        ...


def setup_of(engine: object) -> SetupExport | None:
    """Returns the engine as a :class:`SetupExport` when it can write set-up files, else None."""
    return engine if isinstance(engine, SetupExport) else None
