"""A deliberately broken made-up game, registered only by the contract's own tests.

It is a real :class:`~referee.game.Engine` with a package of its own, so every contract check can
be run on it; each fault is switched on by name (:data:`engine.FAULTS`), and the tests assert
that the check meant for it fails. Its package lacks most of the game kit on purpose.
"""

from tests.broken_game.engine import BrokenEngine

GAME = BrokenEngine()
