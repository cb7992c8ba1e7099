"""300: Earth & Water, solo mode: rules engine and PERS.IA, the die-driven Persian opponent.

Vocabulary: *Major* (Abydos, Ephesos for Persia; Athenai, Sparta for Greece), *garrison* (the
units of one city and its port), *PERS.IA* (the automated Persian of the solo rules).
"""

from referee.games.earth_water.engine import EarthWaterEngine

GAME = EarthWaterEngine()

__all__ = ["GAME"]
