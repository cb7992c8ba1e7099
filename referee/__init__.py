"""referee: a table-side referee for physical board wargames.

The engine (this package minus ``cli/`` and ``render.py``) imports neither typer, rich nor cv2.
Entry points: :func:`referee.games.find_game` for a game's engine, :class:`referee.journal.GameFile`
for a game file, and the ``referee`` console script (:mod:`referee.cli`).
"""

__version__ = "0.1.0"
