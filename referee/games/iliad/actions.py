"""Iliad actions and their notation.

Names are matched in Italian, French or English, ignoring case and accents; squares are named
like ``H7``. Notation:

- ``Menelao C14`` — set-up: put a counter on its start square; in play: move it there (its
  attack on the enemies whose zone it enters is declared with it);
- ``Menelao F7 x Paride`` — move and name the enemies attacked (``x`` or ``attacks``; several
  separated by commas), e.g. to join an attack on an enemy already engaged;
- ``Diomede x Ettore`` — attack from where the counter stands;
- ``Teucro shoots Ettore`` / ``Teucro F7 shoots Ettore`` — an archer's shot (after a move);
- ``resolve`` (or ``done``) — end the move: arrows, then battles and duels; in a duel hour,
  fight the scheduled duel;
- ``night greek: Patroclo, Macaone; trojan: none; camp: Achille E14`` — the night: the counters
  each side revives (omitted: the referee picks), and new Greek start squares inside the wall.

Overrides (``referee adjust``): ``Ettore F7``, ``Ettore dead``, ``Ettore wounded``, ``Ettore
healed``, ``wall built`` / ``wall down``, ``achilles sulks`` / ``achilles in-play``, ``clock 2 5
trojan`` (day, hour, side to move; starts that move afresh).
"""

from __future__ import annotations

import re
from typing import Literal

from referee.base import fold_words as fold
from referee.errors import NotationError, UnknownNameError
from referee.game import Action
from referee.games.iliad.roster import Side
from referee.games.iliad.state import IliadState, Phase

ATTACK_WORDS = frozenset({"x", "attacks", "attack", "attacca", "attaque", "vs"})
SHOOT_WORDS = frozenset({"shoots", "shoot", "tira", "tire", "fires"})
DEAD_WORDS = frozenset({"dead", "killed", "eliminated", "off", "morto", "mort"})
CELL_TEXT = re.compile(r"^[A-Za-z]{1,2}-?\d{1,3}$")
_ARROWS = re.compile(r"\s*(?:->|→|=>)\s*")


class Deploy(Action):
    """Preparazione del gioco: put a counter on its start square."""

    counter: str
    cell: str

    def text(self) -> str:
        return f"{self.counter} {self.cell}"


class Move(Action):
    """Movimento: move a counter; ``targets`` None attacks every enemy whose zone it must attack."""

    counter: str
    cell: str
    targets: tuple[str, ...] | None = None
    shoot: str | None = None

    def text(self) -> str:
        out = f"{self.counter} {self.cell}"
        if self.targets:
            out += " x " + ", ".join(self.targets)
        if self.shoot:
            out += f" shoots {self.shoot}"
        return out


class Attack(Action):
    """Combattimento: regole generali (interpretation attack-in-place): attack without moving."""

    counter: str
    targets: tuple[str, ...]

    def text(self) -> str:
        return f"{self.counter} x {', '.join(self.targets)}"


class Shoot(Action):
    """Combattimento: arcieri: an archer shoots an enemy within range."""

    archer: str
    target: str

    def text(self) -> str:
        return f"{self.archer} shoots {self.target}"


class Resolve(Action):
    """Come si gioca: end the move (arrows, then battles and duels) or fight the hour's duel."""

    def text(self) -> str:
        return "resolve"


class Night(Action):
    """La notte: revive fallen counters and go back to the start squares."""

    greek: tuple[str, ...] | None = None
    trojan: tuple[str, ...] | None = None
    camp: tuple[tuple[str, str], ...] = ()

    def revived(self, side: Side) -> tuple[str, ...] | None:
        """The counters a side names (None: the referee picks)."""
        return self.greek if side is Side.GREEK else self.trojan

    def text(self) -> str:
        parts: list[str] = []
        for side in Side:
            chosen = self.revived(side)
            if chosen is not None:
                parts.append(f"{side.value}: {', '.join(chosen) if chosen else 'none'}")
        if self.camp:
            parts.append("camp: " + ", ".join(f"{n} {c}" for n, c in self.camp))
        return "night" + (" " + "; ".join(parts) if parts else "")


class AdjustCounter(Action):
    """Override: put a counter on a square, kill it, wound or heal it."""

    counter: str
    to: str
    """A square, ``dead``, ``wounded`` or ``healed``."""

    def text(self) -> str:
        return f"{self.counter} {self.to}"

    def is_adjust(self) -> bool:
        return True


class AdjustFlag(Action):
    """Override: the wall (built/down) or Achilles (sulks/in-play)."""

    flag: Literal["wall", "achilles"]
    on: bool

    def text(self) -> str:
        if self.flag == "wall":
            return f"wall {'built' if self.on else 'down'}"
        return f"achilles {'sulks' if self.on else 'in-play'}"

    def is_adjust(self) -> bool:
        return True


class AdjustClock(Action):
    """Override: set the day, hour and side to move (that move starts afresh)."""

    day: int
    hour: int
    side: Side

    def text(self) -> str:
        return f"clock {self.day} {self.hour} {self.side.value}"

    def is_adjust(self) -> bool:
        return True


IliadAction = Deploy | Move | Attack | Shoot | Resolve | Night | AdjustCounter | AdjustFlag | AdjustClock

USAGE = ("write 'HERO SQUARE' (e.g. 'Menelao F7'), 'HERO SQUARE x ENEMY', 'HERO x ENEMY', "
         "'ARCHER shoots ENEMY', 'resolve' or 'night ...'")


def square(state: IliadState, word: str) -> str:
    """Returns the canonical name of a square.

    Raises:
        UnknownNameError: not a square of the map (with the map's extent).
    """
    grid = state.tables.board.grid
    try:
        return grid.name(grid.parse(word))
    except UnknownNameError as exc:
        err = UnknownNameError("square", word, exc.suggestions)
        err.hint = f"the map runs from A1 to {grid.name(grid.size - 1)}"
        raise err from None


def hero(state: IliadState, words: list[str]) -> str:
    """Returns the canonical name of the counter some words name.

    Raises:
        NotationError: no name given.
        UnknownNameError: unknown counter, with the closest names.
    """
    if not words:
        raise NotationError(f"a counter's name is missing; {USAGE}")
    return state.tables.counter(" ".join(words)).id


def words_of(text: str) -> list[str]:
    """Returns the words of an action text, commas as separate words, arrows dropped."""
    return _ARROWS.sub(" ", text.replace(",", " , ")).split()


def names_of(state: IliadState, tokens: list[str]) -> tuple[str, ...]:
    """Returns the counters named in words separated by commas (or 'and').

    Raises:
        NotationError: no name given.
        UnknownNameError: an unknown counter.
    """
    groups: list[list[str]] = [[]]
    for tok in tokens:
        if tok == "," or fold(tok) in ("and", "e", "et"):
            groups.append([])
        else:
            groups[-1].append(tok)
    names = [hero(state, g) for g in groups if g]
    if not names:
        raise NotationError(f"no enemy named; {USAGE}")
    return tuple(dict.fromkeys(names))


def parse_action(state: IliadState, text: str) -> IliadAction:
    """Returns the action a text names in this state.

    Raises:
        NotationError: not an action of Iliad.
        UnknownNameError: an unknown counter or square, with suggestions.
    """
    tokens = words_of(text)
    if not tokens:
        raise NotationError(f"empty action; {USAGE}")
    head = fold(tokens[0])
    if head in ("resolve", "done", "pass", "end") and len(tokens) == 1:
        return Resolve()
    if head == "night":
        return _night(state, text.strip()[len(tokens[0]):])
    split = next((i for i, t in enumerate(tokens) if fold(t) in ATTACK_WORDS | SHOOT_WORDS or CELL_TEXT.match(t)), None)
    if split is None:
        hero(state, tokens)  # an unknown name gets its suggestions
        raise NotationError(f"{text!r}: {USAGE}")
    name = hero(state, tokens[:split])
    rest = tokens[split:]
    cell: str | None = None
    if CELL_TEXT.match(rest[0]):
        cell = square(state, rest[0])
        rest = rest[1:]
    if state.phase is Phase.SETUP:
        if cell is None or rest:
            raise NotationError(f"{text!r}: during set-up write 'HERO SQUARE', e.g. 'Menelao C14'")
        return Deploy(counter=name, cell=cell)
    if not rest:
        if cell is None:
            raise NotationError(f"{text!r}: {USAGE}")
        return Move(counter=name, cell=cell)
    word = fold(rest[0])
    if word in SHOOT_WORDS:
        target = hero(state, rest[1:])
        return Move(counter=name, cell=cell, shoot=target) if cell else Shoot(archer=name, target=target)
    if word not in ATTACK_WORDS:
        raise NotationError(f"{text!r}: {USAGE}")
    targets, shoot = rest[1:], None
    shot_at = next((i for i, t in enumerate(targets) if fold(t) in SHOOT_WORDS), None)
    if shot_at is not None:
        raise NotationError(f"{text!r}: a counter either attacks or shoots in a move, not both")
    found = names_of(state, targets)
    if cell is None:
        return Attack(counter=name, targets=found)
    return Move(counter=name, cell=cell, targets=found, shoot=shoot)


def _night(state: IliadState, body: str) -> Night:
    chosen: dict[str, tuple[str, ...] | None] = {"greek": None, "trojan": None}
    camp: list[tuple[str, str]] = []
    for clause in (c.strip() for c in body.split(";")):
        if not clause:
            continue
        key, sep, value = clause.partition(":")
        key = fold(key)
        if not sep or key not in ("greek", "trojan", "camp", "greeks", "trojans"):
            raise NotationError(f"night: {clause!r}: write 'greek: NAMES', 'trojan: NAMES' or 'camp: HERO SQUARE, ...'")
        if key == "camp":
            for item in (i.strip() for i in value.split(",")):
                words = item.split()
                if len(words) < 2 or not CELL_TEXT.match(words[-1]):
                    raise NotationError(f"night camp: {item!r}: write 'HERO SQUARE'")
                camp.append((hero(state, words[:-1]), square(state, words[-1])))
            continue
        key = key.rstrip("s")
        words = value.split()
        if [fold(w) for w in words] in (["none"], ["nobody"], []):
            chosen[key] = ()
        elif [fold(w) for w in words] == ["auto"]:
            chosen[key] = None
        else:
            chosen[key] = names_of(state, words_of(value))
    return Night(greek=chosen["greek"], trojan=chosen["trojan"], camp=tuple(camp))


def parse_adjust(state: IliadState, text: str) -> IliadAction:
    """Returns the override a text names.

    Raises:
        NotationError: not an override of Iliad.
        UnknownNameError: an unknown counter, square or side.
    """
    usage = ("write 'HERO SQUARE', 'HERO dead', 'HERO wounded', 'HERO healed', 'wall built|down', "
             "'achilles sulks|in-play' or 'clock DAY HOUR greek|trojan'")
    tokens = words_of(text)
    if not tokens:
        raise NotationError(f"empty override; {usage}")
    head = fold(tokens[0])
    if head == "wall" and len(tokens) == 2 and fold(tokens[1]) in ("built", "down", "none"):
        return AdjustFlag(flag="wall", on=fold(tokens[1]) == "built")
    if head == "achilles" and len(tokens) == 2 and fold(tokens[1]) in ("sulks", "in play", "inplay", "in-play"):
        return AdjustFlag(flag="achilles", on=fold(tokens[1]) == "sulks")
    if head == "clock":
        if len(tokens) != 4 or not tokens[1].isdigit() or not tokens[2].isdigit():
            raise NotationError(f"{text!r}: {usage}")
        try:
            side = Side(fold(tokens[3]))
        except ValueError:
            raise UnknownNameError("side", tokens[3], [s.value for s in Side]) from None
        return AdjustClock(day=int(tokens[1]), hour=int(tokens[2]), side=side)
    if len(tokens) < 2:
        raise NotationError(f"{text!r}: {usage}")
    name = hero(state, tokens[:-1])
    last = fold(tokens[-1])
    if last in DEAD_WORDS:
        return AdjustCounter(counter=name, to="dead")
    if last in ("wounded", "healed"):
        return AdjustCounter(counter=name, to=last)
    return AdjustCounter(counter=name, to=square(state, tokens[-1]))
