"""Zargo's Lords (International Team, 1979): the world map reader, ahead of the engine.

The engine (``engine.py``, exporting ``GAME``) lands with the core's hex, N-player and hidden
information support; until then ``referee new zargo`` says the game is planned, and this package
offers the map file reader and checker (:mod:`referee.games.zargo.world`, ``referee map check``).
"""
