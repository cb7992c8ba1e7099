"""Cyrus & Pyxis actions and their notation.

Notation (names are matched case- and accent-insensitively; cells like ``H7``):

- ``forest C5`` / ``hill F6`` — lay a terrain token (set-up, II.1–II.2);
- ``Pyxis A6`` — in set-up, deploy a legion; in play, move it (ending on an enemy attacks it);
- ``Pyxis off`` — take a king off the board by its winning edge (I);
- ``support Messène Athéna`` — an archer supports a legion in combat (IV.2);
- ``done`` — end the current movement or support step; ``resolve`` — resolve the combats.

Overrides (``referee adjust``): ``Athéna C5``, ``Athéna off`` (remove), ``terrain C5 forest``
(or ``plain`` to clear), ``active persian`` (hand the move to a side, start of its turn).
"""

from __future__ import annotations

import re
from typing import Literal

from referee.base import fold
from referee.errors import NotationError, UnknownNameError
from referee.game import Action
from referee.games.cyrus_pyxis.schemas import Phase, Side, Terrain
from referee.games.cyrus_pyxis.state import CyrusState

OFF = "off"
_KEYWORDS = ("done", "resolve", "support", "forest", "hill", "place", "move", OFF)
_ARROWS = re.compile(r"\s*(?:->|→|=>|\bto\b)\s*", re.IGNORECASE)


class PlaceTerrain(Action):
    """II.1–II.2: lay a forest or hill token."""

    terrain: Literal["forest", "hill"]
    cell: str

    def text(self) -> str:
        return f"{self.terrain} {self.cell}"


class Deploy(Action):
    """II.3–II.4: put a legion on its starting cell."""

    legion: str
    cell: str

    def text(self) -> str:
        return f"{self.legion} {self.cell}"


class Move(Action):
    """V: move a legion to a cell (``off`` for a king leaving the board)."""

    legion: str
    cell: str

    def text(self) -> str:
        return f"{self.legion} {self.cell}"


class Support(Action):
    """IV.2: an archer supports a friendly legion engaged in a combat."""

    archer: str
    legion: str

    def text(self) -> str:
        return f"support {self.archer} {self.legion}"


class Done(Action):
    """III: end the current movement or support step."""

    def text(self) -> str:
        return "done"


class Resolve(Action):
    """III.3: resolve the pending combats."""

    def text(self) -> str:
        return "resolve"


class AdjustLegion(Action):
    """Override: put a legion on a cell, or remove it (``off``)."""

    legion: str
    cell: str

    def text(self) -> str:
        return f"{self.legion} {self.cell}"

    def is_adjust(self) -> bool:
        return True


class AdjustTerrain(Action):
    """Override: set a cell's terrain."""

    cell: str
    terrain: Terrain

    def text(self) -> str:
        return f"terrain {self.cell} {self.terrain}"

    def is_adjust(self) -> bool:
        return True


class AdjustActive(Action):
    """Override: start the turn of a side (movement step, nothing moved yet)."""

    side: Side

    def text(self) -> str:
        return f"active {self.side}"

    def is_adjust(self) -> bool:
        return True


CyrusAction = PlaceTerrain | Deploy | Move | Support | Done | Resolve | AdjustLegion | AdjustTerrain | AdjustActive


def _words(text: str) -> list[str]:
    cleaned = _ARROWS.sub(" ", text.strip())
    return [w for w in cleaned.replace(",", " ").split() if w]


def _cell(state: CyrusState, word: str) -> str:
    return state.tables.grid.name(state.tables.grid.parse(word))


def _legion(state: CyrusState, word: str) -> str:
    try:
        return state.tables.legion(word).name
    except UnknownNameError as exc:
        if not exc.suggestions:
            keywords = [k for k in _KEYWORDS if fold(k).startswith(fold(word)[:2])]
            raise UnknownNameError("legion or action", word, keywords) from None
        raise


def parse_action(state: CyrusState, text: str) -> CyrusAction:
    """Returns the action a text names in this state.

    Raises:
        NotationError: not an action of Cyrus & Pyxis.
        UnknownNameError: an unknown legion or cell, with suggestions.
    """
    words = _words(text)
    if not words:
        raise NotationError("empty action; try 'Pyxis C5', 'support Messène Athéna', 'done' or 'resolve'")
    head = fold(words[0])
    if head in ("done", "end", "pass") and len(words) == 1:
        return Done()
    if head == "resolve" and len(words) == 1:
        return Resolve()
    if head == "support":
        if len(words) != 3:
            raise NotationError(f"{text!r}: write 'support ARCHER LEGION', e.g. 'support Messène Athéna'")
        return Support(archer=_legion(state, words[1]), legion=_legion(state, words[2]))
    if head in ("forest", "hill"):
        if len(words) != 2:
            raise NotationError(f"{text!r}: write '{head} CELL', e.g. '{head} C5'")
        return PlaceTerrain(terrain="forest" if head == "forest" else "hill", cell=_cell(state, words[1]))
    if head in ("place", "move", "deploy"):
        words = words[1:]
    if len(words) != 2:
        raise NotationError(
            f"{text!r}: write 'LEGION CELL' (e.g. 'Pyxis C5'), 'support ARCHER LEGION', 'done' or 'resolve'"
        )
    legion = _legion(state, words[0])
    target = fold(words[1])
    cell = OFF if target in (OFF, "exit", "out") else _cell(state, words[1])
    if state.phase is Phase.SETUP:
        if cell == OFF:
            raise NotationError(f"{text!r}: during set-up a legion goes on a cell, not off the board")
        return Deploy(legion=legion, cell=cell)
    return Move(legion=legion, cell=cell)


def parse_adjust(state: CyrusState, text: str) -> CyrusAction:
    """Returns the override a text names.

    Raises:
        NotationError: not an override of Cyrus & Pyxis.
        UnknownNameError: an unknown legion, cell or side.
    """
    words = _words(text)
    usage = "write 'LEGION CELL', 'LEGION off', 'terrain CELL forest|hill|plain' or 'active greek|persian'"
    if not words:
        raise NotationError(f"empty override; {usage}")
    head = fold(words[0])
    if head == "terrain":
        if len(words) != 3:
            raise NotationError(f"{text!r}: {usage}")
        try:
            terrain = Terrain(fold(words[2]))
        except ValueError:
            raise UnknownNameError("terrain", words[2], [t.value for t in Terrain]) from None
        return AdjustTerrain(cell=_cell(state, words[1]), terrain=terrain)
    if head == "active":
        if len(words) != 2:
            raise NotationError(f"{text!r}: {usage}")
        try:
            side = Side(fold(words[1]))
        except ValueError:
            raise UnknownNameError("side", words[1], [s.value for s in Side]) from None
        return AdjustActive(side=side)
    if len(words) != 2:
        raise NotationError(f"{text!r}: {usage}")
    legion = _legion(state, words[0])
    target = fold(words[1])
    cell = OFF if target in (OFF, "remove", "dead", "eliminated") else _cell(state, words[1])
    return AdjustLegion(legion=legion, cell=cell)
