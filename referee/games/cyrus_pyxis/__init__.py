"""Cyrus & Pyxis (Editions UGO): rules engine. Combat is deterministic (no dice).

Vocabulary: *legion* (a counter), *line N* (the cells numbered N; West is 1, East is 12),
*pending combat* (a cell holding one legion of each side), *support* (an archer's +1, IV.2).
"""

from typing import TYPE_CHECKING

from referee.games import lazy_engine

if TYPE_CHECKING:
    from referee.games.cyrus_pyxis.engine import CyrusEngine

    GAME: CyrusEngine

__getattr__ = lazy_engine(__name__, "referee.games.cyrus_pyxis.engine", "CyrusEngine")

__all__ = ["GAME"]
