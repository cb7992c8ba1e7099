"""A random Zargo player for seeded playouts and benchmarks, and the playout itself.

The bot never invents an action: every choice is one the engine's own generators list for one
hex (``hex_actions``), or the set-up candidates judged by the same checks. It prefers an attack
or a shot when one is open (a little greed keeps games moving), otherwise moves at random.

:func:`playout` plays a whole game with the bot; with ``garrisons`` it also seals a random
garrison in every city (holding the secrets as a game file would) and reveals it when the city
is attacked, so the hidden-information path runs in every game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee.bot import Choice
from referee.dice import CommittedDice, Dice
from referee.errors import RefereeError
from referee.game import ActionRecord, GameState
from referee.games.zargo import actions as act
from referee.games.zargo import sequence as seq
from referee.games.zargo.engine import ZargoEngine
from referee.games.zargo.rules import CITIES, COMBAT, MOVEMENT, SETUP, TURN
from referee.games.zargo.state import GARRISON_MAX, Phase, ZargoState
from referee.i18n import _
from referee.sealed import Seal

PLACED = 14
"""Counters the bot places face up per people (a short game; the rest stay in the box)."""


class RandomBot:
    """Plays random legal actions, one hex at a time."""

    def __init__(self, engine: ZargoEngine, placed: int = PLACED) -> None:
        self.engine = engine
        self.placed = placed
        self._done: set[tuple[int, str | None, str]] = set()

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        """Returns a random legal action."""
        assert isinstance(state, ZargoState)
        s = state
        if s.phase is Phase.PLAYERS:
            return Choice(action=act.Players(players=rng.choice((2, 3, 4))), reason="players drawn", cites=(SETUP,))
        if s.phase is Phase.SETUP:
            return self._setup(s, rng)
        if s.phase is Phase.RESOLVE:
            return Choice(action=act.Word(word="resolve"), reason="the garrison is shown: go on", cites=(CITIES,))
        if s.phase is not Phase.MOVE:
            raise RefereeError(_("the bot cannot act now: a garrison's owner must reveal it (referee reveal)"))
        if s.proposal is not None:
            word = rng.choice(("accept", "refuse"))
            return Choice(action=act.Word(word=word), reason="answers the alliance", cites=(TURN,))
        me = str(s.active)
        if seq.turn_untouched(s) and rng.random() < 0.05:
            others = [p for p in s.peoples if p != me]
            p = rng.choice(others)
            verb = "break" if s.allied(me, p) else "ally"
            return Choice(action=act.Alliance(verb=verb, people=p), reason="diplomacy", cites=(TURN,))
        stamp = (s.month, s.active)
        hexes = [
            h
            for h, stack in s.board.items()
            if seq.unit(s, stack[0]).people == me and (s.month, s.active, h) not in self._done
        ]
        rng.shuffle(hexes)
        for h in hexes:
            self._done.add((*stamp, h))
            options = self.engine.hex_actions(s, h)
            strikes = [a for a in options if isinstance(a, act.Attack | act.Shoot)]
            if strikes:
                return Choice(action=rng.choice(strikes), reason="strikes an enemy", cites=(COMBAT,))
            moves = [a for a in options if not isinstance(a, act.Attack | act.Shoot)]
            if moves and rng.random() < 0.8:
                return Choice(action=rng.choice(moves), reason="random move", cites=(MOVEMENT,))
        for marker in sorted(s.vanished):
            targets = seq.appear_reach(s, marker)
            a = act.Appear(marker=marker, target=rng.choice(targets)) if targets else None
            if a is not None and not seq.check_appear(s, a):
                return Choice(action=a, reason="the Monk reappears", cites=(MOVEMENT,))
        return Choice(action=act.Word(word="resolve"), reason="ends the turn", cites=(TURN,))

    def _setup(self, s: ZargoState, rng: random.Random) -> Choice:
        if s.active is None:
            return Choice(action=act.Word(word="start"), reason="set-up over", cites=(SETUP,))
        people = s.active
        world = s.tables.world
        own = [world.grid.name(c) for cont in s.continents[people] for c in world.hexes_of(cont)]
        built = sum(1 for c in s.cities.values() if c.founder == people)
        if built < s.tables.peoples.peoples[people].city_counters:  # type: ignore[index]
            rng.shuffle(own)
            for h in own:
                city = act.BuildCity(hex=h)
                if not seq.check_city(s, city):
                    return Choice(action=city, reason="builds a city", cites=(SETUP,))
        placed = sum(1 for stack in s.board.values() for lab in stack if seq.unit(s, lab).people == people)
        labels = list(s.tables.labels_of[people])
        for _attempt in range(40 if placed < self.placed else 0):
            place = act.Place(label=rng.choice(labels), hex=rng.choice(own))
            if not seq.check_place(s, place):
                return Choice(action=place, reason="places a counter", cites=(SETUP,))
        return Choice(action=act.Word(word="ready"), reason="set-up done", cites=(SETUP,))


@dataclass
class Playout:
    """A finished (or stopped) playout: the last state, the records, the secrets it sealed."""

    state: ZargoState
    records: list[ActionRecord] = field(default_factory=list)
    seals: dict[str, Seal] = field(default_factory=dict)
    reveals: int = 0


def random_garrison(state: ZargoState, owner: str, rng: random.Random, taken: dict[str, int]) -> list[str]:
    """A garrison of 0 to 4 of the owner's counters that the box can still supply, counting those
    already sealed in other cities (``taken``, updated)."""
    garrison: list[str] = []
    for _attempt in range(rng.randint(0, GARRISON_MAX)):
        spare = [lab for lab in state.tables.labels_of[owner] if seq.manifest_left(state, lab) - taken.get(lab, 0) > 0]
        if not spare:
            break
        label = rng.choice(spare)
        taken[label] = taken.get(label, 0) + 1
        garrison.append(label)
    return sorted(garrison)


def playout(
    engine: ZargoEngine,
    seed: int,
    players: int | None = None,
    garrisons: bool = True,
    max_actions: int = 20_000,
    dice: Dice | None = None,
) -> Playout:
    """Plays a seeded game with the random bot to its end (every action judged, then played)."""
    rng = random.Random(seed)
    dice = dice or CommittedDice(b"zargo-playout-seed-0123456789abc", f"playout-{seed}")
    from referee.tables import load_table_set

    state = engine.new_state(load_table_set("zargo"))
    bot = RandomBot(engine)
    out = Playout(state)
    taken: dict[str, int] = {}
    for _attempt in range(max_actions):
        if engine.outcome(state) is not None:
            break
        if state.phase is Phase.PLAYERS and players is not None:
            action: act.ZargoAction = act.Players(players=players)
        elif state.phase is Phase.REVEAL:
            hex_name = str(state.reveal_wait)
            sealed = out.seals[hex_name]
            action = engine.parse(
                state,
                f"reveal {sealed.public.owner} {sealed.public.label} {sealed.salt.hex()} {seq_json(sealed.secret)}",
            )
            out.reveals += 1
        elif state.phase is Phase.SETUP and state.active is None and garrisons and _unsealed(state, out):
            hex_name = _unsealed(state, out)[0]
            owner = state.cities[hex_name].owner
            made = Seal.make(
                owner,
                f"garrison-{hex_name}",
                random_garrison(state, owner, rng, taken),  # type: ignore[arg-type]
                salt=rng.randbytes(16),
            )
            out.seals[hex_name] = made
            action = act.SealGarrison(public=made.public)
        else:
            choice = bot.choose(state, rng)
            action = choice.action  # type: ignore[assignment]
        state, record = engine.play(state, action, dice)
        out.records.append(record)
    out.state = state
    return out


def _unsealed(state: ZargoState, out: Playout) -> list[str]:
    return sorted(h for h in state.cities if h not in out.seals)


def seq_json(secret: object) -> str:
    """The canonical JSON of a secret (as a reveal writes it)."""
    from referee.sealed import canonical

    return canonical(secret).decode("utf-8")  # type: ignore[arg-type]
