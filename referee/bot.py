"""Bots: a bot picks an action and says why; it never invents an action the rules forbid.

:class:`Choice` is an action plus its reason and the rule section behind it (PERS.IA in
``referee.games.earth_water.bot`` announces its choices this way). Randomness comes only from
an injected ``random.Random``.
"""

from __future__ import annotations

import random
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from referee.game import Action, GameState
from referee.rulings import RuleRef


class Choice(BaseModel):
    """An action chosen by a bot, with its reason and the section that dictated it."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    action: Action
    reason: str
    cites: tuple[RuleRef, ...] = ()


class Bot(Protocol):
    """Something that chooses the next action of a side."""

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        """Returns the next action (one the rules allow)."""
        ...
