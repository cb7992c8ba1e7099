"""Iliad (International Team, 1979-80): rules engine.

Vocabulary: a *counter* is a hero with his followers; *heroes* have a value above 1 and fight
each other in duels; *value-1 counters* (archers, showing A, count 1) fight in open battle; the
*zone* (ZOC) of a counter is its four orthogonal neighbours; the *camp* is the ground inside the
Greek wall. Dice: one six-sided die.
"""

from typing import TYPE_CHECKING

from referee.games import lazy_engine

if TYPE_CHECKING:
    from referee.games.iliad.engine import IliadEngine

    GAME: IliadEngine

__getattr__ = lazy_engine(__name__, "referee.games.iliad.engine", "IliadEngine")

__all__ = ["GAME"]
