"""300: Earth & Water, solo mode: rules engine and PERS.IA, the die-driven Persian opponent.

Vocabulary: *Major* (Abydos, Ephesos for Persia; Athenai, Sparta for Greece), *garrison* (the
units of one city and its port), *PERS.IA* (the automated Persian of the solo rules).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.games.earth_water.engine import EarthWaterEngine

    GAME: EarthWaterEngine


def __getattr__(name: str) -> Any:
    """Builds the engine on first use, so importing the package (its CLI commands) stays cheap."""
    if name == "GAME":
        from referee.games.earth_water.engine import EarthWaterEngine

        engine = EarthWaterEngine()
        globals()["GAME"] = engine
        return engine
    raise AttributeError(name)

__all__ = ["GAME"]
