"""Cyrus & Pyxis (Editions UGO): rules engine. Combat is deterministic (no dice).

Vocabulary: *legion* (a counter), *line N* (the cells numbered N; West is 1, East is 12),
*pending combat* (a cell holding one legion of each side), *support* (an archer's +1, IV.2).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.games.cyrus_pyxis.engine import CyrusEngine

    GAME: CyrusEngine


def __getattr__(name: str) -> Any:
    """Builds the engine on first use, so importing the package (its CLI commands) stays cheap."""
    if name == "GAME":
        from referee.games.cyrus_pyxis.engine import CyrusEngine

        engine = CyrusEngine()
        globals()["GAME"] = engine
        return engine
    raise AttributeError(name)

__all__ = ["GAME"]
