"""Zargo's Lords (International Team, 1979): four peoples on a wrapping hex world, alliances,
hidden garrisons. Vocabulary: *label* (a counter type's short name, ``FCh``), *stack* (an escort
and the counter it escorts), *garrison* (up to four counters sealed face down in a city).
"""

from typing import TYPE_CHECKING

from referee.games import lazy_engine

if TYPE_CHECKING:
    from referee.games.zargo.engine import ZargoEngine

    GAME: ZargoEngine

__getattr__ = lazy_engine(__name__, "referee.games.zargo.engine", "ZargoEngine")

__all__ = ["GAME"]
