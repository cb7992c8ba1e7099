"""300: Earth & Water, solo mode: rules engine and PERS.IA, the die-driven Persian opponent.

Vocabulary: *Major* (Abydos, Ephesos for Persia; Athenai, Sparta for Greece), *garrison* (the
units of one city and its port), *PERS.IA* (the automated Persian of the solo rules).
"""

from typing import TYPE_CHECKING

from referee.games import lazy_engine

if TYPE_CHECKING:
    from referee.games.earth_water.engine import EarthWaterEngine

    GAME: EarthWaterEngine

__getattr__ = lazy_engine(__name__, "referee.games.earth_water.engine", "EarthWaterEngine")

__all__ = ["GAME"]
