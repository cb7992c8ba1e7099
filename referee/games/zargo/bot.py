"""A random Zargo player for ``referee bot``, seeded playouts and benchmarks, and the playout itself.

The bot never invents an action: every move, attack or shot it picks is one the legal lists give
for one hex (:func:`~referee.games.zargo.legal.hex_actions`), and its set-up choices are judged by
the same checks. It sets up in the rulebook's order: cities, then each city's garrison sealed
(:class:`~referee.sealed.SealRequest`: the game file keeps the secret), then counters face up. It
reveals a garrison when its city is attacked (:class:`~referee.sealed.RevealRequest`), now and
then reveals one in its own turn so that it sallies or shoots, and seals an open garrison again.

The box is shared between garrisons the bot cannot see once sealed (each ``referee bot`` is a
new process): a garrison takes at most half of a counter type's box, split between the people's
cities, and the counters face up at most the other half, so no choice can exceed the box.

:func:`playout` plays a whole game in one process, holding the secrets as a game file would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee.bot import Choice
from referee.dice import CommittedDice, Dice
from referee.errors import RefereeError
from referee.game import Action, ActionRecord, GameState
from referee.games import find_game
from referee.games.zargo import actions as act
from referee.games.zargo.legal import city_actions, hex_actions, legal_actions
from referee.games.zargo.movement import appear_reach, check_appear
from referee.games.zargo.rules import CITIES, COMBAT, MOVEMENT, SERPENTS, SETUP, TURN
from referee.games.zargo.sequence import check_city, check_place, check_resolve, turn_untouched
from referee.games.zargo.state import GARRISON_MAX, Phase, ZargoState, manifest_left, unit
from referee.i18n import _
from referee.sealed import RevealRequest, Seal, SealRequest, canonical
from referee.tables import load_table_set

__all__ = ["PLACED", "Playout", "RandomBot", "playout"]

PLACED = 14
"""Counters the bot places face up per people (a short game; the rest stay in the box)."""


def _cap(state: ZargoState, label: str) -> int:
    """How many of a counter type one of its people's garrisons may hold (half the box, split
    between the people's cities)."""
    u = unit(state, label)
    cities = state.tables.peoples.peoples[u.people].city_counters  # type: ignore[index]
    return min(GARRISON_MAX, (u.count // 2) // cities)


def garrison_for(state: ZargoState, owner: str, rng: random.Random) -> list[str]:
    """A random garrison of 0 to 4 counters within the bot's share of the box."""
    slots = [lab for lab in state.tables.labels_of[owner] for _ in range(_cap(state, lab))]
    rng.shuffle(slots)
    return sorted(slots[: rng.randint(0, min(GARRISON_MAX, len(slots)))])


class RandomBot:
    """Plays random legal actions, one hex at a time."""

    def __init__(self, placed: int = PLACED) -> None:
        self.placed = placed
        self._done: set[tuple[int, str | None, str]] = set()

    def choose(self, state: GameState, rng: random.Random) -> Choice:
        """Returns a random legal action (or a request to seal or reveal through the game file)."""
        assert isinstance(state, ZargoState)
        s = state
        lost = [h for h, c in sorted(s.cities.items()) if c.lost and c.owner == _acting(s)]
        if lost:
            return self._seal(s, lost[0], rng, list(s.cities[lost[0]].garrison or ()) or None)
        if s.phase is Phase.PLAYERS:
            return Choice(action=act.Players(players=rng.choice((2, 3, 4))), reason="players drawn", cites=(SETUP,))
        if s.phase is Phase.SETUP:
            return self._setup(s, rng)
        if s.phase is Phase.REVEAL:
            hex_name = str(s.reveal_wait)
            return Choice(action=RevealRequest(owner=s.cities[hex_name].owner, label=f"garrison-{hex_name}"),
                          reason="the city is attacked: its garrison is shown", cites=(CITIES,))
        if s.phase is Phase.RESOLVE:
            if s.carry is not None and rng.random() < 0.5:
                return Choice(action=act.Word(word="carry"), reason="the Serpent carries on", cites=(SERPENTS,))
            return Choice(action=act.Word(word="resolve"), reason="the resolution goes on", cites=(TURN,))
        if s.phase is not Phase.MOVE:
            raise RefereeError(_("the bot has nothing to play: the game is over"))
        if s.proposal is not None:
            word = rng.choice(("accept", "refuse"))
            return Choice(action=act.Word(word=word), reason="answers the alliance", cites=(TURN,))
        return self._turn(s, rng)

    def _turn(self, s: ZargoState, rng: random.Random) -> Choice:
        me = str(s.active)
        if turn_untouched(s) and rng.random() < 0.05:
            p = rng.choice([p for p in s.peoples if p != me])
            verb = "break" if s.allied(me, p) else "ally"
            return Choice(action=act.Alliance(verb=verb, people=p), reason="diplomacy", cites=(TURN,))
        found = self._cities(s, rng)
        if found is not None:
            return found
        stamp = (s.month, s.active)
        hexes = [h for h, stack in s.board.items()
                 if unit(s, stack[0]).people == me and (*stamp, h) not in self._done]
        rng.shuffle(hexes)
        for h in hexes:
            self._done.add((*stamp, h))
            options = hex_actions(s, h)
            strikes = [a for a in options if isinstance(a, act.Attack | act.Shoot)]
            if strikes:
                return Choice(action=rng.choice(strikes), reason="strikes an enemy", cites=(COMBAT,))
            moves = [a for a in options if not isinstance(a, act.Attack | act.Shoot)]
            if moves and rng.random() < 0.8:
                return Choice(action=rng.choice(moves), reason="random move", cites=(MOVEMENT,))
        for marker in sorted(s.vanished):
            targets = appear_reach(s, marker)
            a = act.Appear(marker=marker, target=rng.choice(targets)) if targets else None
            if a is not None and not check_appear(s, a):
                return Choice(action=a, reason="the Monk reappears", cites=(MOVEMENT,))
        if check_resolve(s):  # rules.yaml zone-entry must-attack: strike first
            strikes = [a for a in legal_actions(s) if isinstance(a, act.Attack)]
            if strikes:
                return Choice(action=rng.choice(strikes), reason="must attack", cites=(COMBAT,))
        return Choice(action=act.Word(word="resolve"), reason="ends the turn", cites=(TURN,))

    def _cities(self, s: ZargoState, rng: random.Random) -> Choice | None:
        """Now and then a garrison acts: shown, it sallies or shoots; open, it is sealed again."""
        me = str(s.active)
        for h, city in sorted(s.cities.items()):
            if city.owner != me or (s.month, me, h) in self._done:
                continue
            self._done.add((s.month, me, h))
            if city.hidden and city.seal is not None and _besieged(s, h) and rng.random() < 0.3:
                return Choice(action=RevealRequest(owner=me, label=f"garrison-{h}"),
                              reason="shows its garrison to act from the city", cites=(CITIES,))
            if not city.hidden and city.garrison:
                strikes = city_actions(s, h)
                if strikes and rng.random() < 0.7:
                    return Choice(action=rng.choice(strikes), reason="the garrison strikes from its city",
                                  cites=(CITIES,))
                if rng.random() < 0.3 and not any(k.startswith(h + ":") for k in s.acted):
                    return self._seal(s, h, rng, list(city.garrison))
        return None

    def _seal(self, s: ZargoState, hex_name: str, rng: random.Random, garrison: list[str] | None) -> Choice:
        owner = s.cities[hex_name].owner
        secret = garrison if garrison is not None else garrison_for(s, owner, rng)
        return Choice(action=SealRequest(owner=owner, label=f"garrison-{hex_name}", secret=secret),
                      reason="a garrison face down", cites=(SETUP, CITIES))

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
                if not check_city(s, city):
                    return Choice(action=city, reason="builds a city", cites=(SETUP,))
        unsealed = [h for h, c in sorted(s.cities.items()) if c.owner == people and c.seal is None]
        if unsealed:
            return self._seal(s, unsealed[0], rng, None)
        placed = sum(1 for stack in s.board.values() for lab in stack if unit(s, lab).people == people)
        labels = [lab for lab in s.tables.labels_of[people] if self._face_up_room(s, lab)]
        for _attempt in range(40 if placed < self.placed and labels else 0):
            place = act.Place(label=rng.choice(labels), hex=rng.choice(own))
            if not check_place(s, place):
                return Choice(action=place, reason="places a counter", cites=(SETUP,))
        return Choice(action=act.Word(word="ready"), reason="set-up done", cites=(SETUP,))

    @staticmethod
    def _face_up_room(s: ZargoState, label: str) -> bool:
        u = unit(s, label)
        cities = s.tables.peoples.peoples[u.people].city_counters  # type: ignore[index]
        face_up = sum(stack.count(label) for stack in s.board.values())
        return face_up < u.count - _cap(s, label) * cities and manifest_left(s, label) > 0


def _acting(s: ZargoState) -> str | None:
    if s.phase is Phase.REVEAL and s.reveal_wait is not None:
        return s.cities[s.reveal_wait].owner
    return s.active


def _besieged(s: ZargoState, hex_name: str) -> bool:
    grid = s.tables.world.grid
    me = s.cities[hex_name].owner
    return any((p := s.people_of(grid.name(n))) is not None and not s.allied(p, me)
               for n in grid.neighbours(grid.parse(hex_name)))


@dataclass
class Playout:
    """A finished (or stopped) playout: the last state, the records, the secrets it sealed."""

    state: ZargoState
    records: list[ActionRecord] = field(default_factory=list)
    seals: dict[str, Seal] = field(default_factory=dict)
    reveals: int = 0


def secret_action(state: ZargoState, request: Action, seals: dict[str, Seal], rng: random.Random) -> act.ZargoAction:
    """Turns a bot's seal or reveal request into the action a game file would journal, holding
    the secrets in ``seals`` (hex -> seal) as the file's private table does."""
    if isinstance(request, SealRequest):
        made = Seal.make(request.owner, request.label, request.secret, salt=rng.randbytes(16))
        seals[request.label.removeprefix("garrison-")] = made
        return act.SealGarrison(public=made.public)
    assert isinstance(request, RevealRequest)
    sealed = seals[request.label.removeprefix("garrison-")]
    secret = canonical(sealed.secret).decode("utf-8")
    return act.parse_action(state, f"reveal {request.owner} {request.label} {sealed.salt.hex()} {secret}")


def playout(
    seed: int,
    players: int | None = None,
    max_actions: int = 20_000,
    dice: Dice | None = None,
) -> Playout:
    """Plays a seeded game with the random bot to its end (every action judged, then played),
    sealing and revealing garrisons as ``referee bot`` does through a game file."""
    engine = find_game("zargo")
    rng = random.Random(seed)
    dice = dice or CommittedDice(b"zargo-playout-seed-0123456789abc", f"playout-{seed}")
    state = engine.new_state(load_table_set("zargo"))
    assert isinstance(state, ZargoState)
    bot = RandomBot()
    out = Playout(state)
    for _attempt in range(max_actions):
        if engine.outcome(state) is not None:
            break
        action: Action
        if state.phase is Phase.PLAYERS and players is not None:
            action = act.Players(players=players)
        else:
            action = bot.choose(state, rng).action
        if isinstance(action, SealRequest | RevealRequest):
            out.reveals += isinstance(action, RevealRequest)
            action = secret_action(state, action, out.seals, rng)
        state, record = engine.play(state, action, dice)
        out.records.append(record)
    out.state = state
    return out
