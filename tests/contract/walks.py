"""Seeded walks through a game, the way the contract tests and the goldens play every game.

A walk starts from the game's sample set-up (``samples/<slug>/``), picks random legal actions
with a seeded ``random.Random`` and rolls seeded digital dice, so the same seed gives the same
game on every machine. A game that waits for a secret (a garrison shown when its city is
attacked) has no legal action to list at that moment: the walk asks the game's bot, which names
the secret it needs (:class:`~referee.sealed.RevealRequest`), and opens it from the seals it
holds, as a game file's private table would.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.capabilities import bot_of
from referee.dice import CommittedDice, Dice, NoDice
from referee.game import Action, AnyEngine, GameState
from referee.sealed import RevealRequest, Seal, SealRequest, reveal_text, seal_text

SAMPLE_SETUP = {"300-solo": "solo-setup.yaml"}
"""Each game's sample set-up under samples/<slug>/ (setup.yaml unless named here)."""


def _zargo_sealed_garrisons(engine: AnyEngine, state: Any) -> tuple[Any, dict[str, Seal]]:
    """Zargo's sample set-up with every city's garrison sealed (fixed salts and garrisons, so the
    goldens replay), the seals held by label as a game file's private table holds them."""
    seals: dict[str, Seal] = {}
    for i, (hex_name, city) in enumerate(sorted(state.cities.items())):
        infantry = [lab for lab, u in state.tables.units.items() if u.people == city.owner and u.kind == "infantry"]
        made = Seal.make(city.owner, f"garrison-{hex_name}", infantry * (i % 3), salt=bytes([i + 1]) * 16)
        state = engine.apply(state, engine.parse(state, seal_text(made.public)), NoDice()).state
        seals[made.public.label] = made
    return state, seals


SEALED_START: dict[str, Callable[[AnyEngine, Any], tuple[Any, dict[str, Seal]]]] = {
    "zargo": _zargo_sealed_garrisons,
}
"""Games whose sample set-up leaves secrets to seal before play: how the walks seal them."""


def start(engine: AnyEngine) -> tuple[GameState, dict[str, Seal]]:
    """Returns the state after the game's sample set-up, with its secrets sealed, and the seals."""
    slug = engine.info.slug
    state = engine.sample_start(SAMPLE_SETUP.get(slug, "setup.yaml"))
    sealing = SEALED_START.get(slug)
    return sealing(engine, state) if sealing else (state, {})


def secret_step(engine: AnyEngine, state: GameState, seals: dict[str, Seal]) -> Action | None:
    """Returns the seal or reveal the game waits for, or None when it waits for no secret.

    The game's bot names the secret: a seal is made with a salt fixed by its owner and label (and
    held in ``seals``), a reveal opens a seal held there."""
    bot = bot_of(engine)
    if bot is None or engine.outcome(state) is not None:
        return None
    try:
        wanted = bot.choose(state, random.Random(0)).action
    except Exception:  # a bot with nothing to choose: the caller reports the stuck state
        return None
    if isinstance(wanted, SealRequest):
        salt = hashlib.sha256(f"{wanted.owner}/{wanted.label}/{len(seals)}".encode()).digest()[:16]
        made = Seal.make(wanted.owner, wanted.label, wanted.secret, salt=salt)
        seals[made.public.label] = made
        sealed: Action = engine.parse(state, seal_text(made.public))
        return sealed
    if not isinstance(wanted, RevealRequest) or wanted.label not in seals:
        return None
    made = seals[wanted.label]
    parsed: Action = engine.parse(state, reveal_text(made.public.owner, made.public.label, made.salt, made.secret))
    return parsed


@dataclass
class Step:
    """One state met on a walk, with its legal actions and the action played from it (if any)."""

    state: GameState
    legal: list[Action]
    played: Action | None = None
    rolls: list[list[int]] = field(default_factory=list)
    awaited: Action | None = None
    """The seal or reveal the state waits for (when no action is legal), played or not."""


def walk(engine: AnyEngine, seed: int, steps: int, dice: Dice | None = None,
         begin: tuple[GameState, dict[str, Seal]] | None = None) -> Iterator[Step]:
    """Yields the states of a seeded random game (legal actions sorted by text, one picked at
    random; a secret the game waits for is revealed from the held seals). Stops at the end of the
    game, after ``steps`` actions, or at a state with no legal action and no secret awaited."""
    rng = random.Random(seed)
    dice = dice or CommittedDice(b"golden" * 6, f"golden-{engine.info.slug}")
    state, seals = begin if begin is not None else start(engine)
    for _ in range(steps):
        legal = sorted(engine.legal_actions(state), key=lambda a: a.text())
        secret = secret_step(engine, state, seals) if not legal else None
        if not legal and secret is None:
            yield Step(state, legal)
            return
        action = secret if secret is not None else rng.choice(legal)
        after, record = engine.play(state, action, dice)
        yield Step(state, legal, action, [list(r.faces) for r in record.rolls], secret)
        state = after
    legal = sorted(engine.legal_actions(state), key=lambda a: a.text())
    yield Step(state, legal, awaited=None if legal else secret_step(engine, state, dict(seals)))
