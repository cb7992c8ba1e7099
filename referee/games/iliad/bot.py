"""A random playout policy for Iliad: it picks only among the engine's legal actions.

Used by the seeded playout tests and the benchmarks. Each move it gives a few counters a legal
move (preferring attacks and squares nearer the enemy, so that armies meet), lets archers shoot,
then resolves; at night it lets the referee pick the revived. Randomness comes only from the
injected :class:`random.Random`.
"""

from __future__ import annotations

import random
from typing import Protocol

from referee.bot import Choice
from referee.dice import CommittedDice, Dice
from referee.game import Applied, GameState
from referee.games.iliad import actions as act
from referee.games.iliad.movement import Situation, destinations
from referee.games.iliad.roster import Counter
from referee.games.iliad.rules import TURN
from referee.games.iliad.state import IliadState, Phase
from referee.geometry.search import Cell
from referee.i18n import _


class Rules(Protocol):
    """What the bot asks of the engine that builds it: who may move, the moves of one counter, and
    playing an action."""

    def movable(self, s: IliadState) -> list[Counter]: ...

    def moves(self, s: IliadState, sit: Situation, counter: Counter,
              with_moves: bool = True) -> list[act.IliadAction]: ...

    def apply(self, state: IliadState, action: act.IliadAction, dice: Dice) -> Applied[IliadState]: ...


class RandomPolicy:
    """Chooses a random legal action, biased towards fighting."""

    def __init__(self, engine: Rules, rng: random.Random, moves_per_turn: int = 4,
                 attack_bias: float = 0.6) -> None:
        self.engine = engine
        self.rng = rng
        self.moves_per_turn = moves_per_turn
        self.attack_bias = attack_bias
        self._budget: tuple[int, int, str, int] | None = None

    def choose(self, state: IliadState) -> act.IliadAction:
        """Returns the next action to play (always one the engine generates as legal)."""
        if state.phase is Phase.NIGHT:
            return act.Night()
        if state.phase is not Phase.MOVE:
            return act.Resolve()
        key = (state.day, state.hour, state.side.value)
        if self._budget is None or self._budget[:3] != key:
            self._budget = (*key, self.rng.randint(0, self.moves_per_turn))
        left = self._budget[3]
        candidates = self.engine.movable(state)
        self.rng.shuffle(candidates)
        if left <= 0 or not candidates:
            return act.Resolve()
        sit = Situation(state)
        for counter in candidates:
            options = self._options(state, sit, counter)
            if not options:
                continue
            self._budget = (*key, left - 1)
            return self._pick(state, options)
        return act.Resolve()

    def _options(
        self, state: IliadState, sit: Situation, counter: Counter
    ) -> list[tuple[Cell | act.IliadAction, bool]]:
        """The counter's legal declarations: destination squares (flagged when the move attacks),
        attacks in place and shots (flagged)."""
        out: list[tuple[Cell | act.IliadAction, bool]] = []
        if counter.id not in state.moved:
            out += [(cell, bool(targets)) for cell, targets in destinations(state, sit, counter)]
        out += [(a, True) for a in self.engine.moves(state, sit, counter, with_moves=False)]
        self._counter = counter
        return out

    def _pick(self, state: IliadState, options: list[tuple[Cell | act.IliadAction, bool]]) -> act.IliadAction:
        grid = state.tables.board.grid
        counter = self._counter

        def action(choice: Cell | act.IliadAction) -> act.IliadAction:
            return act.Move(counter=counter.id, cell=grid.name(choice)) if isinstance(choice, int) else choice

        shots = [a for a, _ in options if isinstance(a, act.Shoot)]
        if shots and self.rng.random() < 0.8:
            return self.rng.choice(shots)
        fights = [a for a, fights in options if fights]
        if fights and self.rng.random() < self.attack_bias:
            return action(self.rng.choice(fights))
        cells = [c for c, _ in options if isinstance(c, int)]
        if not cells:
            return action(self.rng.choice(options)[0])
        enemy = [c for i, c in state.where.items() if state.counter(i).side is not state.side]
        if not enemy or self.rng.random() < 0.3:
            return action(self.rng.choice(cells))
        goal = self.rng.choice(enemy)
        sample = self.rng.sample(cells, min(len(cells), 12))
        best = sorted(sample, key=lambda c: grid.chebyshev(c, goal))
        return action(self.rng.choice(best[:3]))


def playout(engine: Rules, state: IliadState, rng: random.Random, max_actions: int = 20000) -> IliadState:
    """Plays a game to its end with the random policy and seeded digital dice; returns the final state."""
    dice = CommittedDice(rng.randbytes(16), "playout")
    policy = RandomPolicy(engine, rng)
    for _step in range(max_actions):
        if state.phase is Phase.OVER:
            return state
        applied = engine.apply(state, policy.choose(state), dice)
        state = applied.state
    raise RuntimeError(f"the game did not end within {max_actions} actions")


class IliadBot:
    """The random policy as a :class:`~referee.bot.Bot`: one choice at a time, for either side."""

    def __init__(self, engine: Rules) -> None:
        self.engine = engine

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        """Returns a random legal action, biased towards fighting."""
        assert isinstance(state, IliadState)
        action = RandomPolicy(self.engine, rng).choose(state)
        return Choice(action=action, reason=_("a random legal action (the bot prefers to fight)"), cites=(TURN,))
