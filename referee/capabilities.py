"""Optional capabilities a game engine may offer beyond the core protocol.

The command line asks an engine for a capability with ``isinstance(engine, ExactOdds)`` (these
are runtime-checkable protocols, as OpenSpiel's games declare optional features) instead of
asking which game it is, so ``referee odds GAME`` works for every game that can enumerate odds
and says plainly which ones do when a game cannot.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from pydantic import BaseModel

    from referee.bot import Bot
    from referee.capture import CaptureReport, CellContent, SeenCell
    from referee.game import GameState

S_contra = TypeVar("S_contra", bound="GameState", contravariant=True)
"""The state type a game's capture rules read (its own state class)."""

__all__ = ["CAPTURE_FUNCTIONS", "CaptureRules", "ExactOdds", "PhotoCapture", "Playable", "SetupExport", "bot_of",
           "capture_of", "exact_odds", "setup_of"]


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

    The game names the module of its capture rules as plain data (``capture_rules``): the capture
    rules import the engine, so the engine cannot import them, and a command that reads no photo
    never loads them. That module is a :class:`CaptureRules`.
    """

    capture_rules: str
    """Dotted name of the game's capture rules module."""


@runtime_checkable
class CaptureRules(Protocol[S_contra]):
    """The rules side of reading a photo: the functions a game's capture rules module offers.

    The cells a photo reader sees (:class:`~referee.capture.SeenCell`) and the report the rules
    give back (:class:`~referee.capture.CaptureReport`) are core shapes, so the command line and
    ``vision`` handle every game alike. Cell contents are ``(side or None, terrain)``; a counter's
    label is ``(side, printed label)``.
    """

    def legion_labels(self, state: S_contra) -> dict[str, tuple[str, str]]:
        """Returns counter name → (side, printed label) for every counter in play (what the
        reader compares a counter's picture with)."""
        ...

    def infer_turn(self, state: S_contra, seen: Mapping[str, SeenCell], *,
                   answers: Mapping[str, str] | None = None,
                   identity: Mapping[str, Mapping[str, float]] | None = None) -> CaptureReport:
        """Returns the legal turns of the side to play that explain what the photo shows.

        Args:
            state: the position before.
            seen: cell name → what the photo shows there (cells left out could not be read).
            answers: the user's answers to earlier questions (``CELL=COUNTER`` and the like).
            identity: cell name → {counter name: label score 0..1}, when the reader read labels.
        """
        ...

    def settled_cells(self, state: S_contra, report: CaptureReport) -> dict[str, tuple[str | None, str]] | None:
        """Returns what every cell holds once the turn a report explains is played, or None when
        the report settles no single turn."""
        ...

    def cell_contents(self, state: S_contra) -> dict[str, tuple[str | None, str]]:
        """Returns cell name → (side standing there or None, terrain): what a perfect photo shows."""
        ...

    def legion_cells(self, state: S_contra) -> dict[str, str]:
        """Returns cell name → the counter standing there alone."""
        ...

    def cell_priors(self, state: S_contra) -> dict[str, dict[CellContent, float]]:
        """Returns cell name → content → probability, from the rules alone, of what the photo taken
        after one turn of the side to play shows there (a :data:`~referee.capture.CellPriors`).

        1 on the present content where no legal turn can change the cell; spread over every
        content some legal turn may leave there where one can (it may over-include a content, but
        never leaves one out). Computed without enumerating the turns.
        """
        ...


def capture_of(engine: object) -> CaptureRules[Any] | None:
    """Returns the engine's capture rules (imported now) when it offers photo capture, else None.

    Raises:
        TypeError: the module the game names lacks a function of :class:`CaptureRules` (a fault
            of the game's package, which the contract tests catch).
    """
    if not isinstance(engine, PhotoCapture):
        return None
    rules = importlib.import_module(engine.capture_rules)
    if not isinstance(rules, CaptureRules):
        missing = [name for name in CAPTURE_FUNCTIONS if not callable(getattr(rules, name, None))]
        raise TypeError(f"{engine.capture_rules} lacks the capture rules' {', '.join(missing)}")
    return rules


CAPTURE_FUNCTIONS = ("legion_labels", "infer_turn", "settled_cells", "cell_contents", "legion_cells", "cell_priors")
"""The functions of :class:`CaptureRules`, in the order they are declared."""


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
