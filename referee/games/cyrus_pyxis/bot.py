"""A random Cyrus & Pyxis player for seeded playouts and benchmarks.

It draws uniformly among the legions that may still move (or ending the step), then among that
legion's destinations, so each step costs one path search instead of listing every legal
action. Every choice comes from the engine's own destination and support generators.
"""

from __future__ import annotations

import random
from typing import Protocol

from referee.bot import Choice
from referee.game import GameState
from referee.games.cyrus_pyxis.actions import CyrusAction, Deploy, Done, Move, PlaceTerrain, Resolve, Support
from referee.games.cyrus_pyxis.movement import OFF, destination_cells
from referee.games.cyrus_pyxis.rules import COMBAT_STEP, MOVEMENT, SETUP, SUPPORT_STEP
from referee.games.cyrus_pyxis.state import CyrusState, occupancy
from referee.games.cyrus_pyxis.support import possible_supports
from referee.games.cyrus_pyxis.tables import LegionId, Phase, Side
from referee.i18n import _


class Rules(Protocol):
    """What the bot asks of the engine that builds it: the legal actions, the legions that may move."""

    def legal_actions(self, state: CyrusState) -> list[CyrusAction]: ...

    def movable(self, state: CyrusState) -> list[LegionId]: ...


class RandomBot:
    """Plays uniformly random legal actions, one legion at a time."""

    def __init__(self, engine: Rules, stop_chance: float | None = None) -> None:
        self.engine = engine
        self.stop_chance = stop_chance
        self._moves: dict[tuple[str, str], Choice] = {}  # actions are frozen: one object per move

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        """Returns a random legal action."""
        assert isinstance(state, CyrusState)
        if state.phase is Phase.SETUP:
            options = self.engine.legal_actions(state)
            action = rng.choice(options)
            assert isinstance(action, PlaceTerrain | Deploy)
            return Choice(action=action, reason=_("random set-up placement"), cites=(SETUP,))
        if state.phase is Phase.COMBAT:
            return Choice(action=Resolve(), reason=_("combats to resolve"), cites=(COMBAT_STEP,))
        occ = occupancy(state)
        if state.phase is Phase.SUPPORT:
            side = state.declaring or state.active
            supports = possible_supports(state, occ, side)
            if supports and rng.random() < len(supports) / (len(supports) + 1):
                archer, legion = rng.choice(supports)
                return Choice(action=Support(archer=archer, legion=legion), reason=_("random support"),
                              cites=(SUPPORT_STEP,))
            return Choice(action=Done(), reason=_("no (more) support"), cites=(SUPPORT_STEP,))
        movers = self.engine.movable(state)
        stop = self.stop_chance if self.stop_chance is not None else 1 / (len(movers) + 1)
        if state.phase is Phase.ANY:
            supports = possible_supports(state, occ, Side.GREEK) + possible_supports(state, occ, Side.PERSIAN)
            if supports and rng.random() < 0.2:
                archer, legion = rng.choice(supports)
                return Choice(action=Support(archer=archer, legion=legion), reason=_("random support"),
                              cites=(SUPPORT_STEP,))
        keep_moving = rng.random() >= stop
        while keep_moving and movers:
            legion = movers.pop(rng.randrange(len(movers)))
            cells, exit_cost = destination_cells(state, occ, state.tables.by_id[legion])
            count = len(cells) + (exit_cost is not None)
            if count:
                pick = rng.randrange(count)
                cell = state.tables.grid.name(cells[pick]) if pick < len(cells) else OFF
                choice = self._moves.get((legion, cell))
                if choice is None:
                    move = Move(legion=legion, cell=cell)
                    choice = Choice(action=move, reason=_("random move"), cites=(MOVEMENT,))
                    self._moves[(legion, cell)] = choice
                return choice
        return Choice(action=Done(), reason=_("ends movement"), cites=(MOVEMENT,))
