"""Iliad actions and their notation (:data:`GRAMMAR`: every word in English, French and Italian).

Names and words are matched in Italian, French or English, ignoring case and accents; squares
are named like ``H7``. The canonical (journal) notation is English:

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

The same in Italian: ``Menelao F7 attacca Paride``, ``Teucro tira Ettore``, ``risolvi``, ``notte
greci: Patroclo; troiani: nessuno``, ``Ettore morto``, ``muro costruito``, ``orologio 2 5 troiani``;
in French: ``Ménélas F7 attaque Pâris``, ``Teucer tire Hector``, ``résoudre``, ``nuit grecs:
Patrocle; troyens: aucun``, ``Hector mort``, ``mur construit``, ``horloge 2 5 troyens``.
"""

from __future__ import annotations

import re
from typing import Literal

from referee.errors import NotationError, UnknownNameError
from referee.game import Action
from referee.games.iliad.roster import Side
from referee.games.iliad.state import IliadState, Phase
from referee.i18n import N_, _
from referee.notation import Form, Grammar, Keyword

GRAMMAR = Grammar(
    words=(
        Keyword("x", en=("attacks", "attack", "vs"), fr=("attaque", "x", "attaquer", "contre"),
                it=("attacca", "x", "attaccare", "contro")),
        Keyword("shoots", en=("shoot", "fires"), fr=("tire", "tirer", "flèche"),
                it=("tira", "tirare", "scocca", "freccia")),
        Keyword("resolve", en=("done", "pass", "end"), fr=("résoudre", "résous", "fin", "terminé", "passe"),
                it=("risolvi", "risolvere", "fine", "fatto", "passo")),
        Keyword("night", fr=("nuit",), it=("notte",)),
        Keyword("greek", en=("greeks",), fr=("grecs", "grec"), it=("greci", "greco")),
        Keyword("trojan", en=("trojans",), fr=("troyens", "troyen"), it=("troiani", "troiano")),
        Keyword("camp", fr=("camp",), it=("campo", "accampamento")),
        Keyword("none", en=("nobody",), fr=("aucun", "personne"), it=("nessuno",)),
        Keyword("auto", fr=("auto",), it=("auto",)),
        Keyword("and", fr=("et",), it=("e", "ed")),
        Keyword("dead", en=("killed", "eliminated", "off"), fr=("mort", "tué", "éliminé"),
                it=("morto", "ucciso", "eliminato")),
        Keyword("wounded", fr=("blessé",), it=("ferito",)),
        Keyword("healed", fr=("soigné", "guéri"), it=("guarito", "curato")),
        Keyword("wall", fr=("mur",), it=("muro",)),
        Keyword("built", en=("up",), fr=("construit", "bâti", "debout"), it=("costruito", "eretto", "in-piedi")),
        Keyword("down", fr=("absent", "détruit", "abattu"), it=("assente", "abbattuto", "distrutto")),
        Keyword("achilles", fr=("achille",), it=("achille",)),
        Keyword("sulks", en=("sulking",), fr=("boude", "bouder"), it=("sdegnato", "astenuto", "ritirato")),
        Keyword("in-play", en=("inplay", "fights"), fr=("en-jeu", "combat"), it=("in-gioco", "combatte")),
        Keyword("clock", fr=("horloge", "heure"), it=("orologio", "ora")),
    ),
    forms=(
        Form("HERO SQUARE", "Menelao C14",
             N_("set-up: put a counter on its start square; in play: move it there (its attacks come with it)"),
             ("Preparazione del gioco", "Movimento: regole generali")),
        Form("HERO SQUARE {x} ENEMY", "Menelao F7 {x} Paride",
             N_("move and name the enemies attacked (several separated by commas)"),
             ("Combattimento: regole generali",)),
        Form("HERO {x} ENEMY", "Diomede {x} Ettore", N_("attack from where the counter stands"),
             ("Combattimento: regole generali",)),
        Form("ARCHER [SQUARE] {shoots} ENEMY", "Teucro {shoots} Ettore",
             N_("an archer shoots (after moving, with its square before the verb)"), ("Combattimento: arcieri",)),
        Form("{resolve}", "{resolve}",
             N_("end the move: arrows, then battles and duels (or the hour's scheduled duel)"), ("Come si gioca",)),
        Form("{night} {greek}: NAMES; {trojan}: NAMES; {camp}: HERO SQUARE",
             "{night} {greek}: Patroclo; {trojan}: {none}",
             N_("the night: the counters each side revives (omitted: the referee picks) and new camp squares"),
             ("La notte tra un giorno e l'altro",)),
        Form("HERO SQUARE", "Ettore F7", N_("put a counter on a square"), ("Preparazione del gioco",), adjust=True),
        Form("HERO {dead}", "Ettore {dead}", N_("take a counter off the map, dead"), ("Combattimento: duello",),
             adjust=True),
        Form("HERO {wounded}", "Ettore {wounded}", N_("wound a counter"), ("Combattimento: duello",), adjust=True),
        Form("HERO {healed}", "Ettore {healed}", N_("heal a wounded counter"), ("Combattimento: duello",),
             adjust=True),
        Form("{wall} {built}|{down}", "{wall} {built}", N_("the Greek wall stands or not"), ("Il calendario",),
             adjust=True),
        Form("{achilles} {sulks}|{in-play}", "{achilles} {in-play}", N_("Achilles sulks or fights"),
             ("Il calendario",), adjust=True),
        Form("{clock} DAY HOUR {greek}|{trojan}", "{clock} 2 5 {trojan}",
             N_("set the day, the hour and the side to move (that move starts afresh)"), ("Il calendario",),
             adjust=True),
    ),
)
"""Iliad's notation in English, French and Italian (canonical text stays English)."""

NAME_KINDS = (N_("hero"), N_("square"), N_("side"), N_("hero or action"))
"""What an unknown name was taken for, in the errors that suggest the closest names."""

CELL_TEXT = re.compile(r"^[A-Za-z]{1,2}-?\d{1,3}$")
_ARROWS = re.compile(r"\s*(?:->|→|=>)\s*")


def is_attack(word: str) -> bool:
    """True for the word that names the attacked enemies (``x``, ``attacks``, ``attacca``, ``attaque``)."""
    return GRAMMAR.is_(word, "x")


def is_shot(word: str) -> bool:
    """True for the word of an archer's shot (``shoots``, ``tira``, ``tire``)."""
    return GRAMMAR.is_(word, "shoots")


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

def usage() -> str:
    """Returns how to write an action, in the active language."""
    return _("write 'HERO SQUARE' (e.g. 'Menelao F7'), 'HERO SQUARE {x} ENEMY', 'HERO {x} ENEMY', "
             "'ARCHER {shoots} ENEMY', '{resolve}' or '{night} ...'").format(
        x=GRAMMAR.word("x"), shoots=GRAMMAR.word("shoots"), resolve=GRAMMAR.word("resolve"),
        night=GRAMMAR.word("night"))


def adjust_usage() -> str:
    """Returns how to write an override, in the active language."""
    w = GRAMMAR.word
    return _("write 'HERO SQUARE', 'HERO {dead}', 'HERO {wounded}', 'HERO {healed}', '{wall} {built}|{down}', "
             "'{achilles} {sulks}|{in_play}' or '{clock} DAY HOUR {greek}|{trojan}'").format(
        dead=w("dead"), wounded=w("wounded"), healed=w("healed"), wall=w("wall"), built=w("built"), down=w("down"),
        achilles=w("achilles"), sulks=w("sulks"), in_play=w("in-play"), clock=w("clock"), greek=w("greek"),
        trojan=w("trojan"))


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
        err.hint = _("the map runs from A1 to {last}").format(last=grid.name(grid.size - 1))
        raise err from None


def hero(state: IliadState, words: list[str]) -> str:
    """Returns the canonical name of the counter some words name.

    Raises:
        NotationError: no name given.
        UnknownNameError: unknown counter, with the closest names.
    """
    if not words:
        raise NotationError(_("a counter's name is missing; {usage}").format(usage=usage()))
    return state.tables.counter(" ".join(words)).id


def words_of(text: str) -> list[str]:
    """Returns the words of an action text, commas as separate words, arrows dropped."""
    return _ARROWS.sub(" ", text.replace(",", " , ")).split()


def names_of(state: IliadState, tokens: list[str]) -> tuple[str, ...]:
    """Returns the counters named in words separated by commas (or 'and', 'et', 'e').

    Raises:
        NotationError: no name given.
        UnknownNameError: an unknown counter.
    """
    groups: list[list[str]] = [[]]
    for tok in tokens:
        if tok == "," or GRAMMAR.is_(tok, "and"):
            groups.append([])
        else:
            groups[-1].append(tok)
    names = [hero(state, g) for g in groups if g]
    if not names:
        raise NotationError(_("no enemy named; {usage}").format(usage=usage()))
    return tuple(dict.fromkeys(names))


def _unknown_head(state: IliadState, tokens: list[str]) -> None:
    """Raises the error of an action whose first words name no counter: the closest counters,
    and for a single word the closest words of the notation too ('risolv' → 'risolvi')."""
    try:
        hero(state, tokens)
    except UnknownNameError as exc:
        if len(tokens) == 1:
            words = GRAMMAR.close(tokens[0])
            if words:
                raise UnknownNameError("hero or action", tokens[0], [*words, *exc.suggestions][:4]) from None
        raise


def parse_action(state: IliadState, text: str) -> IliadAction:
    """Returns the action a text names in this state (words in English, French or Italian).

    Raises:
        NotationError: not an action of Iliad.
        UnknownNameError: an unknown counter or square, with suggestions.
    """
    tokens = words_of(text)
    if not tokens:
        raise NotationError(_("empty action; {usage}").format(usage=usage()))
    if GRAMMAR.is_(tokens[0], "resolve") and len(tokens) == 1:
        return Resolve()
    if GRAMMAR.is_(tokens[0], "night"):
        return _night(state, text.strip()[len(tokens[0]):])
    split = next((i for i, t in enumerate(tokens) if is_attack(t) or is_shot(t) or CELL_TEXT.match(t)), None)
    if split is None:
        _unknown_head(state, tokens)  # an unknown name gets its suggestions
        raise NotationError(f"{text!r}: {usage()}")
    if split == 0:
        raise NotationError(f"{text!r}: {usage()}")
    name = hero(state, tokens[:split])
    rest = tokens[split:]
    cell: str | None = None
    if CELL_TEXT.match(rest[0]):
        cell = square(state, rest[0])
        rest = rest[1:]
    if state.phase is Phase.SETUP:
        if cell is None or rest:
            raise NotationError(_("{text}: during set-up write 'HERO SQUARE', e.g. 'Menelao C14'").format(
                text=repr(text)))
        return Deploy(counter=name, cell=cell)
    if not rest:
        if cell is None:
            raise NotationError(f"{text!r}: {usage()}")
        return Move(counter=name, cell=cell)
    if is_shot(rest[0]):
        target = hero(state, rest[1:])
        return Move(counter=name, cell=cell, shoot=target) if cell else Shoot(archer=name, target=target)
    if not is_attack(rest[0]):
        raise NotationError(f"{text!r}: {usage()}")
    targets = rest[1:]
    if any(is_shot(t) for t in targets):
        raise NotationError(_("{text}: a counter either attacks or shoots in a move, not both").format(
            text=repr(text)))
    found = names_of(state, targets)
    if cell is None:
        return Attack(counter=name, targets=found)
    return Move(counter=name, cell=cell, targets=found)


def _night(state: IliadState, body: str) -> Night:
    chosen: dict[str, tuple[str, ...] | None] = {"greek": None, "trojan": None}
    camp: list[tuple[str, str]] = []
    for clause in (c.strip() for c in body.split(";")):
        if not clause:
            continue
        head, sep, value = clause.partition(":")
        key = GRAMMAR.keyword(head.strip()) if head.strip() else None
        if not sep or key not in ("greek", "trojan", "camp"):
            raise NotationError(_("night: {clause}: write '{greek}: NAMES', '{trojan}: NAMES' or "
                                  "'{camp}: HERO SQUARE, ...'").format(
                clause=repr(clause), greek=GRAMMAR.word("greek"), trojan=GRAMMAR.word("trojan"),
                camp=GRAMMAR.word("camp")))
        if key == "camp":
            for item in (i.strip() for i in value.split(",")):
                words = item.split()
                if len(words) < 2 or not CELL_TEXT.match(words[-1]):
                    raise NotationError(_("night camp: {item}: write 'HERO SQUARE'").format(item=repr(item)))
                camp.append((hero(state, words[:-1]), square(state, words[-1])))
            continue
        words = value.split()
        if not words or (len(words) == 1 and GRAMMAR.is_(words[0], "none")):
            chosen[key] = ()
        elif len(words) == 1 and GRAMMAR.is_(words[0], "auto"):
            chosen[key] = None
        else:
            chosen[key] = names_of(state, words_of(value))
    return Night(greek=chosen["greek"], trojan=chosen["trojan"], camp=tuple(camp))


def parse_adjust(state: IliadState, text: str) -> IliadAction:
    """Returns the override a text names (words in English, French or Italian).

    Raises:
        NotationError: not an override of Iliad.
        UnknownNameError: an unknown counter, square or side.
    """
    tokens = words_of(text)
    if not tokens:
        raise NotationError(_("empty override; {usage}").format(usage=adjust_usage()))
    head = GRAMMAR.keyword(tokens[0])
    tail = "-".join(tokens[1:])
    if head == "wall" and len(tokens) >= 2 and GRAMMAR.keyword(tail) in ("built", "down", "none"):
        return AdjustFlag(flag="wall", on=GRAMMAR.is_(tail, "built"))
    if head == "achilles" and len(tokens) >= 2 and GRAMMAR.keyword(tail) in ("sulks", "in-play"):
        return AdjustFlag(flag="achilles", on=GRAMMAR.is_(tail, "sulks"))
    if head == "clock":
        if len(tokens) != 4 or not tokens[1].isdigit() or not tokens[2].isdigit():
            raise NotationError(f"{text!r}: {adjust_usage()}")
        side = GRAMMAR.keyword(tokens[3])
        if side not in ("greek", "trojan"):
            raise UnknownNameError("side", tokens[3], [GRAMMAR.word("greek"), GRAMMAR.word("trojan")])
        return AdjustClock(day=int(tokens[1]), hour=int(tokens[2]), side=Side(side))
    if len(tokens) < 2:
        raise NotationError(f"{text!r}: {adjust_usage()}")
    name = hero(state, tokens[:-1])
    last = GRAMMAR.keyword(tokens[-1])
    if last in ("dead", "wounded", "healed"):
        return AdjustCounter(counter=name, to=last)
    return AdjustCounter(counter=name, to=square(state, tokens[-1]))
