"""Zargo's Lords actions and their notation (English, French and Italian words).

Hexes are named column then row (``0512``); a counter type by its label (``FCh``, ``DRA``) or its
name (``fantassin``: the active people's). Canonical notation (what the journal keeps):

- ``players 4`` — draw the peoples' continents by lot (dice); ``players 2 chevaliers:1,2
  dragons:3,4`` — or say who plays where;
- set-up: ``city 0512``, ``FCh 0512`` (a counter face up), ``ready``, then ``start``;
  garrisons are sealed privately (``referee seal garrison-0512 --as moines``);
- a turn: ``ally dragons`` / ``accept`` / ``refuse`` / ``break dragons``; ``0512 0614`` (move a
  counter or a whole escorted stack, the referee finds the route), ``0512 0513 0514`` (the route
  stated: the start, then every hex entered), ``FCh 0512 0614`` (one counter of a stack);
  ``attack 0614 0714``; ``arrow 0512 0516`` / ``flame ...`` / ``vision ...``; from a city's open
  garrison ``flame DRA 2503 2504``, ``attack FDr 2503 2504`` (a sally; the label may be left out
  when one counter could); ``vanish 0512`` / ``appear 0512 0716``; ``resolve`` (shots, then
  combats; then the next people); ``carry`` (a Serpent carries on past the enemy it beat);
- ``reveal moines garrison-0512 SALT [...]`` (``referee reveal``) when a city is attacked, or by
  its owner in its turn before the garrison acts; ``referee seal`` again to turn it face down.
"""

from __future__ import annotations

import difflib
import re

from pydantic import JsonValue

from referee.base import fold
from referee.errors import NotationError, UnknownNameError
from referee.game import Action
from referee.games.zargo.state import ZargoState
from referee.i18n import N_, _, ngettext
from referee.notation import Form, Grammar, Keyword
from referee.sealed import Commitment, parse_reveal, parse_seal, reveal_text, seal_text

__all__ = ["GRAMMAR", "ZargoAction", "parse_action", "parse_adjust"]

PEOPLE_WORDS = (
    Keyword("chevaliers", en=("knights",), fr=("chevaliers", "chevalier"), it=("cavalieri",)),
    Keyword("dragons", en=("dragon",), fr=("dragons",), it=("draghi",)),
    Keyword("ailes", en=("winged",), fr=("ailés", "aile"), it=("alati",)),
    Keyword("moines", en=("monks",), fr=("moines",), it=("monaci",)),
)

GRAMMAR = Grammar(
    words=(
        Keyword("players", fr=("joueurs",), it=("giocatori",)),
        Keyword("city", fr=("ville",), it=("città", "citta")),
        Keyword("ready", fr=("prêt", "pret"), it=("pronto",)),
        Keyword("start", fr=("début", "commencer"), it=("inizio", "comincia")),
        Keyword("ally", en=("alliance",), fr=("allié", "alliance"), it=("alleanza", "alleato")),
        Keyword("accept", fr=("accepte", "accepter"), it=("accetta",)),
        Keyword("refuse", fr=("refuse", "refuser"), it=("rifiuta",)),
        Keyword("break", fr=("rompre", "rupture"), it=("rompi", "rottura")),
        Keyword("attack", en=("x",), fr=("attaque", "attaquer"), it=("attacca", "attacco")),
        Keyword("arrow", en=("arrows", "shoot"), fr=("flèche", "flèches", "tir"), it=("freccia", "frecce")),
        Keyword("flame", en=("flames",), fr=("flamme", "flammes"), it=("fiamma", "fiamme")),
        Keyword("vision", en=("visions",), fr=("vision", "visions"), it=("visione", "visioni")),
        Keyword("vanish", fr=("disparaît", "disparait", "disparition"), it=("scompare", "sparisce")),
        Keyword("appear", fr=("reparaît", "reparait", "réapparaît"), it=("riappare", "ricompare")),
        Keyword("resolve", en=("done", "end"), fr=("résoudre", "fin"), it=("risolvi", "fine")),
        Keyword("carry", en=("carry-on",), fr=("poursuivre", "poursuit"), it=("prosegui", "prosegue")),
        Keyword("garrison", fr=("garnison",), it=("guarnigione",)),
        Keyword("lost", fr=("perdue", "perdu"), it=("persa", "perso")),
        Keyword("off", en=("remove",), fr=("retirer", "retiré", "hors"), it=("via", "togli", "rimuovi")),
        *PEOPLE_WORDS,
    ),
    forms=(
        Form("{players} N", "{players} 4", N_("how many play; continents drawn by lot"), ("PRÉPARATION DU JEU",)),
        Form("{players} N PEOPLE:CONTINENTS ...", "{players} 2 {chevaliers}:1,2 {dragons}:3,4",
             N_("how many play, and which people holds which continents"), ("PRÉPARATION DU JEU",)),
        Form("{city} HEX", "{city} 0807", N_("set-up: build a city"), ("PRÉPARATION DU JEU",)),
        Form("LABEL HEX", "FCh 0906", N_("set-up: place a counter face up"), ("PRÉPARATION DU JEU",)),
        Form("{ready}", "{ready}", N_("set-up: this people has placed its forces"), ("PRÉPARATION DU JEU",)),
        Form("{start}", "{start}", N_("set-up over: the first month begins"), ("LE CALENDRIER ET LE BUT DU JEU",)),
        Form("{ally} PEOPLE", "{ally} {dragons}", N_("propose an alliance (then accept or refuse)"),
             ("COMMENT ON JOUE",)),
        Form("{accept}", "{accept}", N_("accept the alliance proposed to you"), ("COMMENT ON JOUE",)),
        Form("{refuse}", "{refuse}", N_("refuse the alliance proposed to you"), ("COMMENT ON JOUE",)),
        Form("{break} PEOPLE", "{break} {dragons}", N_("break an alliance"), ("COMMENT ON JOUE",)),
        Form("HEX HEX", "0906 1006", N_("move a counter (or an escorted stack)"), ("MOUVEMENTS — RÈGLES GÉNÉRALES",)),
        Form("HEX HEX HEX ...", "0904 0905 0906", N_("move along a stated route: the start, then every hex entered"),
             ("MOUVEMENTS — RÈGLES GÉNÉRALES",)),
        Form("LABEL HEX HEX ...", "FCh 0906 1006", N_("move one counter out of a stack"), ("ESCORTES",)),
        Form("{attack} HEX HEX", "{attack} 1006 1106", N_("declare an attack on an adjacent enemy or city"),
             ("COMBAT — RÈGLES GÉNÉRALES",)),
        Form("{attack} [LABEL] CITY HEX", "{attack} FDr 2503 2504",
             N_("a garrison counter attacks a besieger next to its city (a sally)"), ("LA CONQUÊTE D'UNE VILLE",)),
        Form("{flame} [LABEL] CITY HEX", "{flame} DRA 2503 2604", N_("a garrison counter shoots from its city"),
             ("LA CONQUÊTE D'UNE VILLE",)),
        Form("{arrow} HEX HEX", "{arrow} 0906 0910", N_("an archer shoots along a hex row"),
             ("DÉTAIL DES CAPACITÉS — FANTARCHERS AILÉS",)),
        Form("{flame} HEX HEX", "{flame} 0906 1108", N_("a Dragon or flame-thrower burns a target"),
             ("DÉTAIL DES CAPACITÉS — DRAGONS",)),
        Form("{vision} HEX HEX", "{vision} 0906 0908", N_("a sorcerer or illusionist casts a vision"),
             ("DÉTAIL DES CAPACITÉS — MOINES ILLUSIONNISTES",)),
        Form("{vanish} HEX", "{vanish} 0906", N_("a Monk vanishes (a marker stays)"),
             ("DÉTAIL DES CAPACITÉS — MOINES",)),
        Form("{appear} HEX HEX", "{appear} 0906 1208", N_("a vanished Monk reappears"),
             ("DÉTAIL DES CAPACITÉS — MOINES",)),
        Form("{resolve}", "{resolve}", N_("end the moves: shots, then combats, then the next people"),
             ("COMMENT ON JOUE",)),
        Form("{carry}", "{carry}", N_("a Serpent that beat the enemy ahead carries on along its line"),
             ("DÉTAIL DES CAPACITÉS — SERPENTS",)),
        Form("LABEL HEX [PEOPLE]", "FCh 0906", N_("override: put a counter on a hex (or in a city's open garrison)"),
             ("LES PIONS DU JEU",), adjust=True),
        Form("HEX {off}", "0906 {off}", N_("override: take the counters of a hex off"), ("LES PIONS DU JEU",),
             adjust=True),
        Form("{city} HEX PEOPLE", "{city} 0807 {dragons}", N_("override: give a city to another people"),
             ("LA CONQUÊTE D'UNE VILLE",), adjust=True),
        Form("{garrison} HEX {lost}", "{garrison} 0807 {lost}",
             N_("override: a sealed garrison's secret is lost; its owner seals it again"), ("LA CONQUÊTE D'UNE VILLE",),
             adjust=True),
    ),
)

SHOTS = (N_("arrow"), N_("flame"), N_("vision"))


class Players(Action):
    """PRÉPARATION DU JEU: how many play; ``assign`` None draws the continents by lot."""

    players: int
    assign: tuple[tuple[str, tuple[str, ...]], ...] | None = None

    def text(self) -> str:
        if self.assign is None:
            return f"players {self.players}"
        parts = " ".join(f"{p}:{','.join(c)}" for p, c in self.assign)
        return f"players {self.players} {parts}"


class BuildCity(Action):
    """PRÉPARATION DU JEU: a city on a hex of one's continent."""

    hex: str

    def text(self) -> str:
        return f"city {self.hex}"


class Place(Action):
    """PRÉPARATION DU JEU: a counter face up."""

    label: str
    hex: str

    def text(self) -> str:
        return f"{self.label} {self.hex}"


class Word(Action):
    """A one-word action: ready, start, accept, refuse, resolve."""

    word: str

    def text(self) -> str:
        return self.word


class Alliance(Action):
    """COMMENT ON JOUE: propose (``ally``) or break (``break``) an alliance."""

    verb: str
    people: str

    def text(self) -> str:
        return f"{self.verb} {self.people}"


class Move(Action):
    """MOUVEMENTS: a counter (or a whole stack when ``label`` is None) from a hex to a hex, by a
    route the referee finds, or along ``path`` (the start, then every hex entered)."""

    source: str
    target: str
    label: str | None = None
    path: tuple[str, ...] | None = None

    def text(self) -> str:
        hexes = " ".join(self.path) if self.path else f"{self.source} {self.target}"
        return f"{self.label + ' ' if self.label else ''}{hexes}"


class Attack(Action):
    """COMBAT: the counter on ``source`` attacks the adjacent ``target``; ``label``: the garrison
    counter that sallies from its city on ``source``."""

    source: str
    target: str
    label: str | None = None

    def text(self) -> str:
        return f"attack {self.label + ' ' if self.label else ''}{self.source} {self.target}"


class Shoot(Action):
    """Arrows, flames or a vision from ``source`` at ``target``; ``label``: the garrison counter
    that shoots from its city on ``source``."""

    kind: str
    source: str
    target: str
    label: str | None = None

    def text(self) -> str:
        return f"{self.kind} {self.label + ' ' if self.label else ''}{self.source} {self.target}"


class Vanish(Action):
    """MOINES: a Monk vanishes, leaving a marker."""

    hex: str

    def text(self) -> str:
        return f"vanish {self.hex}"


class Appear(Action):
    """MOINES: a vanished Monk reappears within its move."""

    marker: str
    target: str

    def text(self) -> str:
        return f"appear {self.marker} {self.target}"


class SealGarrison(Action):
    """LA CONQUÊTE D'UNE VILLE: a garrison committed face down (its counters are not here)."""

    public: Commitment

    def text(self) -> str:
        return seal_text(self.public)


class RevealGarrison(Action):
    """LA CONQUÊTE D'UNE VILLE: the garrison of an attacked city shown, checked against its seal."""

    owner: str
    label: str
    salt: str
    secret: JsonValue

    def text(self) -> str:
        return reveal_text(self.owner, self.label, bytes.fromhex(self.salt), self.secret)


class _Override(Action):
    """An umpire's override (``referee adjust``), journaled with its reason."""

    def is_adjust(self) -> bool:
        return True


class AdjustCounter(_Override):
    """Override: a counter put on a hex (in a city: into its open garrison)."""

    label: str
    hex: str

    def text(self) -> str:
        return f"{self.label} {self.hex}"


class AdjustOff(_Override):
    """Override: the counters of a hex (or a city's open garrison) taken off."""

    hex: str

    def text(self) -> str:
        return f"{self.hex} off"


class AdjustCity(_Override):
    """Override: a city given to another people."""

    hex: str
    people: str

    def text(self) -> str:
        return f"city {self.hex} {self.people}"


class AdjustLost(_Override):
    """Override: a sealed garrison whose secret is lost; its owner seals it again."""

    hex: str

    def text(self) -> str:
        return f"garrison {self.hex} lost"


Adjust = AdjustCounter | AdjustOff | AdjustCity | AdjustLost

ZargoAction = (
    Players
    | BuildCity
    | Place
    | Word
    | Alliance
    | Move
    | Attack
    | Shoot
    | Vanish
    | Appear
    | SealGarrison
    | RevealGarrison
    | AdjustCounter
    | AdjustOff
    | AdjustCity
    | AdjustLost
)

MAX_ROUTE = 40
"""The longest route a move may state (no counter moves so far)."""

_PAIR = re.compile(r"^([^:\s]+):([0-9,]+)$")


def people_word(word: str) -> str:
    """Returns the people a typed word names.

    Raises:
        UnknownNameError: not a people (with suggestions).
    """
    key = GRAMMAR.keyword(word)
    if key in ("chevaliers", "dragons", "ailes", "moines"):
        return key
    close = difflib.get_close_matches(fold(word), ["chevaliers", "dragons", "ailes", "moines"], n=2, cutoff=0.5)
    raise UnknownNameError("people", word, close or ["chevaliers", "dragons", "ailes", "moines"])


def counter_label(state: ZargoState, word: str) -> str:
    """Returns the label of a typed counter type: a label (any case) or a name of the active people.

    Raises:
        UnknownNameError: no such counter type (with suggestions).
    """
    units = state.tables.units
    folded = fold(word)
    for label in units:
        if fold(label) == folded:
            return label
    spec = state.tables.peoples.peoples
    found = []
    for people, p in spec.items():
        for key, c in p.counters.items():
            names = {fold(key), fold(c.fr), fold(c.it), fold(c.en)}
            names |= {n.replace(" ", "-") for n in names}
            if folded in names:
                found.append((people, c.short))
    if found:
        mine = [lab for people, lab in found if people == state.active]
        return mine[0] if mine else found[0][1]
    close = difflib.get_close_matches(word, list(units), n=3, cutoff=0.4)
    raise UnknownNameError("counter type", word, close or sorted(units))


def hex_word(state: ZargoState, word: str) -> str:
    """Returns a hex's canonical name.

    Raises:
        UnknownNameError: not a hex of the map (with suggestions).
    """
    grid = state.tables.world.grid
    return grid.name(grid.parse(word))


def parse_action(state: ZargoState, text: str) -> ZargoAction:
    """Returns the action a text names.

    Raises:
        NotationError: not an action of this game.
        UnknownNameError: unknown hex, counter type or people (with suggestions).
    """
    if len(text) > 5_000:
        raise NotationError(_("an action is at most 5,000 characters"))
    public = parse_seal(text)
    if public is not None:
        return SealGarrison(public=public)
    opening = parse_reveal(text)
    if opening is not None:
        return RevealGarrison(owner=opening.owner, label=opening.label, salt=opening.salt.hex(), secret=opening.secret)
    words = text.replace("->", " ").replace("→", " ").split()
    if not words:
        raise NotationError(_("empty action"))
    grid = state.tables.world.grid
    head = GRAMMAR.keyword(words[0])
    rest = words[1:]

    def need(n: int) -> None:
        if len(rest) != n:
            raise NotationError(
                ngettext("{word}: expected {n} more word, got {got}", "{word}: expected {n} more words, got {got}",
                         n).format(word=words[0], n=n, got=len(rest))
            )

    if head == "players":
        if not rest or not rest[0].isdigit() or len(rest[0]) > 1:
            raise NotationError(_("players: give the number of players, 2 to 4"))
        n = int(rest[0])
        if len(rest) == 1:
            return Players(players=n)
        assign: list[tuple[str, tuple[str, ...]]] = []
        for part in rest[1:]:
            m = _PAIR.match(part)
            if m is None:
                raise NotationError(_("players: write each people as people:continents, e.g. dragons:3,4"))
            conts = tuple(c for c in m[2].split(",") if c)
            assign.append((people_word(m[1]), conts))
        return Players(players=n, assign=tuple(assign))
    if head in ("ready", "start", "accept", "refuse", "resolve", "carry"):
        need(0)
        return Word(word=head)
    if head == "city":
        need(1)
        return BuildCity(hex=hex_word(state, rest[0]))
    if head in ("ally", "break"):
        need(1)
        return Alliance(verb=head, people=people_word(rest[0]))
    if head == "attack" or head in SHOTS:
        if len(rest) not in (2, 3):
            raise NotationError(_("{word}: write [LABEL] FROM TO, e.g. {word} 1006 1106").format(word=words[0]))
        label = counter_label(state, rest[0]) if len(rest) == 3 else None
        source, target = hex_word(state, rest[-2]), hex_word(state, rest[-1])
        if head == "attack":
            return Attack(source=source, target=target, label=label)
        return Shoot(kind=head, source=source, target=target, label=label)
    if head == "vanish":
        need(1)
        return Vanish(hex=hex_word(state, rest[0]))
    if head == "appear":
        need(2)
        return Appear(marker=hex_word(state, rest[0]), target=hex_word(state, rest[1]))
    if grid.is_cell_name(words[0]):
        if len(words) < 2:
            raise NotationError(_("a move is: FROM TO, or the route FROM HEX ... TO, e.g. 0906 1006"))
        return _move(state, None, words)
    if len(words) >= 2 and all(any(ch.isdigit() for ch in w) for w in words[1:]):
        try:
            label = counter_label(state, words[0])
        except UnknownNameError:
            close = GRAMMAR.close(words[0])
            if not close:
                raise
            raise NotationError(
                _("{word} is neither a counter type nor an action word (did you mean {words}?)").format(
                    word=words[0], words=" / ".join(close)
                )
            ) from None
        if len(words) == 2:
            return Place(label=label, hex=hex_word(state, words[1]))
        return _move(state, label, words[1:])
    close = GRAMMAR.close(words[0])
    hint = _(" (did you mean {words}?)").format(words=" / ".join(close)) if close else ""
    raise NotationError(
        _(
            "{word} does not start a Zargo action{hint}; try: players, city, LABEL HEX, ready, "
            "start, HEX HEX, attack, arrow, flame, vision, vanish, appear, resolve, carry"
        ).format(word=words[0], hint=hint)
    )


def _move(state: ZargoState, label: str | None, words: list[str]) -> Move:
    """A move FROM TO, or along the route written (the start, then every hex entered).

    Raises:
        NotationError: a route longer than any move.
        UnknownNameError: a word is not a hex of the map.
    """
    if len(words) > MAX_ROUTE:
        raise NotationError(_("a route is at most {n} hexes").format(n=MAX_ROUTE))
    hexes = tuple(hex_word(state, w) for w in words)
    path = hexes if len(hexes) > 2 else None
    return Move(source=hexes[0], target=hexes[-1], label=label, path=path)


def _people_label(state: ZargoState, word: str, people: str) -> str:
    """Returns the label of a counter type of one people, typed as a label or a name."""
    label = counter_label(state, word)
    if state.tables.units[label].people == people:
        return label
    for key, c in state.tables.peoples.peoples[people].counters.items():  # type: ignore[index]
        if fold(word) in {fold(key), fold(c.fr), fold(c.it), fold(c.en), fold(c.short)}:
            return c.short
    raise UnknownNameError("counter type", word, list(state.tables.labels_of.get(people, ())))


def parse_adjust(state: ZargoState, text: str) -> Adjust:
    """Returns the override a text names: ``LABEL HEX [PEOPLE]``, ``HEX off``, ``city HEX PEOPLE``
    (keywords in English, French or Italian).

    Raises:
        NotationError: not an override of Zargo.
        UnknownNameError: an unknown hex, counter type or people.
    """
    if len(text) > 500:
        raise NotationError(_("an override is at most 500 characters"))
    words = text.split()
    usage = _("write 'LABEL HEX [PEOPLE]', 'HEX {off}', '{city} HEX PEOPLE' or '{garrison} HEX {lost}'").format(
        off=GRAMMAR.word("off"), city=GRAMMAR.word("city"), garrison=GRAMMAR.word("garrison"),
        lost=GRAMMAR.word("lost")
    )
    if not words:
        raise NotationError(_("empty override; {usage}").format(usage=usage))
    grid = state.tables.world.grid
    if GRAMMAR.is_(words[0], "garrison") and len(words) == 3 and GRAMMAR.is_(words[2], "lost"):
        return AdjustLost(hex=hex_word(state, words[1]))
    if GRAMMAR.is_(words[0], "city") and len(words) == 3:
        return AdjustCity(hex=hex_word(state, words[1]), people=people_word(words[2]))
    if len(words) == 2 and grid.is_cell_name(words[0]) and GRAMMAR.is_(words[1], "off"):
        return AdjustOff(hex=hex_word(state, words[0]))
    if len(words) in (2, 3) and not grid.is_cell_name(words[0]) and not GRAMMAR.is_(words[0], "city", "garrison"):
        if len(words) == 3:
            label = _people_label(state, words[0], people_word(words[2]))
        else:
            label = counter_label(state, words[0])
        return AdjustCounter(label=label, hex=hex_word(state, words[1]))
    raise NotationError(_("{text!r}: {usage}").format(text=text, usage=usage))
