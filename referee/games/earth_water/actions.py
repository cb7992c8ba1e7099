"""300-solo actions and their notation (city names in any accepted spelling, case-insensitive).

Greek player:

- preparation: ``buy 2 cards``, ``buy 1 army Athenai``, ``buy 1 fleet Sparta``, ``done``;
- operations: ``move 2 Athenai Thebai`` (a road route, optional middle cities; ``to`` or an
  arrow between cities is allowed), ``sail 2 Athenai Eretria carry 1``, ``event Wrath of
  Poseidon`` (spend a card on its event), ``pass``;
- battles: ``fight`` (one round), ``resolve`` (to the end), ``retreat Thebai``; ``burn bridge``;
- supply: ``keep 3`` (cards kept), ``remove 1 Thebai`` (attrition), ``done``.

PERS.IA: ``persia prepare``, ``persia operate``, ``persia supply``. Start from a position:
``setup {JSON position}``. Overrides (``referee adjust``): ``set Athenai greek armies 2``,
``add Ephesos persian armies -1``, ``score -1``, ``bridge built|destroyed``, ``hand greece 3``,
``portraits greece 1``, ``campaign 4``, ``talents 5``, ``turn greece|persia``.

Every keyword has French and Italian words (:data:`GRAMMAR`): ``déplacer 2 Thebai Larissa``,
``acheter 2 cartes``, ``muovi 2 Thebai Larissa``; the journal keeps the English notation.
"""

from __future__ import annotations

import json
import re
from typing import Literal

from pydantic import Field

from referee.errors import NotationError
from referee.game import Action
from referee.games.earth_water.cards import find_card, split_name
from referee.games.earth_water.movement import auto_path
from referee.games.earth_water.state import EarthWaterState, many
from referee.games.earth_water.tables import CityName, Side
from referee.i18n import N_, _
from referee.notation import Form, Grammar, Keyword

_ARROWS = re.compile(r"\s*(?:->|→|=>|,)\s*")
Unit = Literal["armies", "fleets"]


class Setup(Action):
    """Start the game file from a position (before any other action)."""

    position: str

    def text(self) -> str:
        return f"setup {self.position}"


class Persia(Action):
    """PERS.IA runs a procedure: preparation (4), an operation (5) or supply (6)."""

    procedure: Literal["prepare", "operate", "supply"]

    def text(self) -> str:
        return f"persia {self.procedure}"


class Buy(Action):
    """base 5: buy cards, or raise armies or fleets in a city."""

    what: Literal["cards", "army", "fleet"]
    count: int
    city: CityName | None = None

    def text(self) -> str:
        if self.what == "cards":
            return f"buy {many(self.count, 'card')}"
        return f"buy {many(self.count, self.what)} {self.city}"


class Done(Action):
    """End the Greek preparation or supply."""

    def text(self) -> str:
        return "done"


def _paid(name: str) -> str:
    return f" card {name}" if name else ""


class LandMove(Action):
    """base 6.4: move armies by road along a route (``card``: the named card that pays for it)."""

    count: int
    path: tuple[CityName, ...]
    card: int | None = None
    card_name: str = ""

    def text(self) -> str:
        return f"move {self.count} {' -> '.join(self.path)}" + _paid(self.card_name)


class NavalMove(Action):
    """base 6.5: sail fleets to another port, carrying armies (``card``: the named card paying)."""

    fleets: int
    start: CityName
    goal: CityName
    armies: int = 0
    card: int | None = None
    card_name: str = ""

    def text(self) -> str:
        return (f"sail {self.fleets} {self.start} -> {self.goal}" + (f" carry {self.armies}" if self.armies else "")
                + _paid(self.card_name))


class Event(Action):
    """base 6, cards.yaml: play a card of the Greek hand for its Greek event.

    ``card`` is the card's number; ``targets`` the cities its effect asks for; ``count`` and
    ``path`` the land move of a card that moves (Leonidas, Evangelion).
    """

    card: int
    name: str = Field(description="The card's English Greek name (the journal's notation).")
    targets: tuple[CityName, ...] = ()
    count: int | None = None
    path: tuple[CityName, ...] = ()

    def text(self) -> str:
        extra = [*([str(self.count)] if self.count is not None else []), *self.targets]
        if self.path:
            extra.append(" -> ".join(self.path))
        return " ".join(["event", self.name, *extra])


class Draw(Action):
    """cards.yaml: the player names a card drawn into the Greek hand (bought face down)."""

    card: int
    name: str

    def text(self) -> str:
        return f"draw {self.name}"


class Discard(Action):
    """base 8.1: Greece discards a named card of its hand (trimming the hand in its supply)."""

    card: int
    name: str

    def text(self) -> str:
        return f"discard {self.name}"


class Pass(Action):
    """base 6: pass the operation."""

    def text(self) -> str:
        return "pass"


class Fight(Action):
    """base 7: fight one round (``to_end``: until the battle is over)."""

    to_end: bool = False

    def text(self) -> str:
        return "resolve" if self.to_end else "fight"


class Retreat(Action):
    """base 7: the Greek units of the battle retreat."""

    city: CityName

    def text(self) -> str:
        return f"retreat {self.city}"


class BurnBridge(Action):
    """base 7 bridge: Greece destroys the bridge after taking Abydos."""

    def text(self) -> str:
        return "burn bridge"


class Keep(Action):
    """base 8.1: Greece keeps this many cards."""

    count: int

    def text(self) -> str:
        return f"keep {self.count}"


class Remove(Action):
    """base 8.2: Greece removes armies for attrition."""

    count: int
    city: CityName

    def text(self) -> str:
        return f"remove {self.count} {self.city}"


class Adjust(Action):
    """Base of every umpire override."""

    def is_adjust(self) -> bool:
        return True


class SetUnits(Adjust):
    """Override: set (or change by) a count of units in a city."""

    city: CityName
    side: Side
    unit: Unit
    count: int
    relative: bool = False

    def text(self) -> str:
        return f"{'add' if self.relative else 'set'} {self.city} {self.side} {self.unit} {self.count}"


class SetValue(Adjust):
    """Override: the score, campaign, Greek talents, a hand, portraits, bridge or turn."""

    field: Literal["score", "campaign", "talents", "hand", "portraits", "bridge", "turn"]
    value: int
    side: Side | None = None

    def text(self) -> str:
        if self.field == "bridge":
            return f"bridge {'built' if self.value else 'destroyed'}"
        if self.field == "turn":
            return f"turn {self.side}"
        if self.side is not None:
            return f"{self.field} {self.side} {self.value}"
        return f"{self.field} {self.value}"


EarthWaterAction = (Setup | Persia | Buy | Done | LandMove | NavalMove | Event | Draw | Discard | Pass | Fight
                    | Retreat | BurnBridge | Keep | Remove | SetUnits | SetValue)

K = Keyword
GRAMMAR = Grammar(
    words=(
        K("setup"),
        K("persia", en=("pers.ia", "persian", "persians"), fr=("perse", "pers.ia", "perses"),
          it=("persia", "pers.ia", "persiano", "persiani")),
        K("greece", en=("greek", "greeks"), fr=("grèce", "grec", "grecs"), it=("grecia", "greco", "greci")),
        K("prepare", en=("preparation",), fr=("prépare", "préparer", "préparation"),
          it=("prepara", "preparare", "preparazione")),
        K("operate", en=("operation",), fr=("opère", "opérer", "opération"), it=("opera", "operare", "operazione")),
        K("supply", fr=("ravitaille", "ravitailler", "ravitaillement"),
          it=("rifornisci", "rifornire", "rifornimento")),
        K("done", en=("end",), fr=("fini", "fin", "terminé"), it=("fatto", "fine", "finito")),
        K("pass", fr=("passe", "passer"), it=("passa", "passo")),
        K("fight", fr=("combattre", "combat"), it=("combatti", "combattere")),
        K("resolve", fr=("résoudre", "résous"), it=("risolvi", "risolvere")),
        K("retreat", fr=("retraite", "retraiter"), it=("ritirata", "ritirati", "ritira")),
        K("burn", fr=("brûler", "brûle"), it=("brucia", "bruciare")),
        K("bridge", fr=("pont",), it=("ponte",)),
        K("the", fr=("le",), it=("il",)),
        K("keep", fr=("garder", "garde", "conserver"), it=("tieni", "tenere", "conserva")),
        K("remove", fr=("retirer", "retire", "enlever"), it=("rimuovi", "rimuovere", "togli")),
        K("event", en=("play",), fr=("événement", "évènement", "jouer", "joue"), it=("evento", "gioca", "giocare")),
        K("draw", fr=("piocher", "pioche"), it=("pesca", "pescare")),
        K("discard", fr=("défausser", "défausse"), it=("scarta", "scartare")),
        K("buy", fr=("acheter", "achète"), it=("compra", "comprare", "acquista")),
        K("cards", en=("card",), fr=("cartes", "carte"), it=("carte", "carta")),
        K("army", en=("armies",), fr=("armée", "armées"), it=("armata", "armate", "esercito", "eserciti")),
        K("fleet", en=("fleets",), fr=("flotte", "flottes"), it=("flotta", "flotte")),
        K("move", fr=("déplacer", "déplace", "bouger"), it=("muovi", "muovere", "sposta", "spostare")),
        K("sail", fr=("naviguer", "navigue"), it=("naviga", "navigare", "salpa")),
        K("carry", en=("with",), fr=("transporte", "transporter", "avec"), it=("trasporta", "trasportare", "con")),
        K("to", fr=("à", "vers", "jusqu'à"), it=("a", "verso", "fino")),
        K("set", fr=("fixer", "fixe", "mettre"), it=("imposta", "impostare", "metti")),
        K("add", fr=("ajouter", "ajoute"), it=("aggiungi", "aggiungere")),
        K("score", fr=("points",), it=("punteggio", "punti")),
        K("campaign", fr=("campagne", "expédition"), it=("campagna", "spedizione")),
        K("talents", en=("talent",), fr=("talents", "talent"), it=("talenti", "talento")),
        K("hand", fr=("main",), it=("mano",)),
        K("portraits", fr=("portraits",), it=("ritratti",)),
        K("built", en=("on",), fr=("construit",), it=("costruito",)),
        K("destroyed", en=("off",), fr=("détruit",), it=("distrutto",)),
        K("turn", fr=("tour",), it=("turno",)),
    ),
    forms=(
        Form("{buy} N {cards}", "{buy} 2 {cards}", N_("buy cards in the Greek preparation"), ("base 5",)),
        Form("{buy} N {army}|{fleet} CITY", "{buy} 1 {army} Athenai",
             N_("raise armies or fleets in a city Greece controls"), ("base 5",)),
        Form("{done}", "{done}", N_("end the Greek preparation or supply"), ("base 5", "base 8")),
        Form("{move} N CITY [{to}] CITY", "{move} 2 Athenai Thebai",
             N_("land move by road (costs a card); middle cities may be listed"), ("base 6.4",)),
        Form("{sail} N PORT [{to}] PORT [{carry} M]", "{sail} 2 Athenai Eretria {carry} 1",
             N_("naval move carrying armies (costs a card)"), ("base 6.5",)),
        Form("{event} CARD [CITY ...]", "{event} Wrath of Poseidon Ephesos",
             N_("play a card of the hand for its Greek event; cities its effect asks for follow"), ("base 6",)),
        Form("{draw} CARD", "{draw} Triremes", N_("name a card drawn into the Greek hand"), ("base 5",)),
        Form("{discard} CARD", "{discard} Triremes", N_("discard a named card in the Greek supply"), ("base 8.1",)),
        Form("{pass}", "{pass}", N_("pass the operation"), ("base 6",)),
        Form("{fight}", "{fight}", N_("fight one battle round"), ("base 7",)),
        Form("{resolve}", "{resolve}", N_("fight the battle to the end"), ("base 7",)),
        Form("{retreat} CITY", "{retreat} Thebai", N_("the Greek units retreat after a round"), ("base 7",)),
        Form("{burn} {bridge}", "{burn} {bridge}", N_("burn the bridge after taking Abydos"), ("base 7 bridge",)),
        Form("{keep} N", "{keep} 3", N_("keep N cards in the Greek supply"), ("base 8.1",)),
        Form("{remove} N CITY", "{remove} 1 Thebai", N_("remove armies for attrition"), ("base 8.2",)),
        Form("{persia} {prepare}|{operate}|{supply}", "{persia} {operate}", N_("PERS.IA's procedures"),
             ("4", "5", "6")),
        Form("{set} CITY {greece}|{persia} {army}|{fleet} N", "{set} Athenai {greece} {army} 2",
             N_("override: set a count of units"), adjust=True),
        Form("{add} CITY {greece}|{persia} {army}|{fleet} ±N", "{add} Ephesos {persia} {army} -1",
             N_("override: change a count of units"), adjust=True),
        Form("{score}|{campaign}|{talents} N", "{score} -1", N_("override: the score, campaign or talents"),
             adjust=True),
        Form("{hand}|{portraits} {greece}|{persia} N", "{hand} {greece} 3",
             N_("override: a hand size or the portraits"), adjust=True),
        Form("{bridge} {built}|{destroyed}", "{bridge} {destroyed}", N_("override: the bridge"), adjust=True),
        Form("{turn} {greece}|{persia}", "{turn} {greece}", N_("override: whose turn it is"), adjust=True),
    ),
)
"""The 300-solo notation in English, French and Italian (the journal keeps the English)."""


def usage(adjust: bool = False) -> str:
    """Returns the notation's forms in the active language, for error messages."""
    head = _("overrides") if adjust else _("actions")
    return f"{head}: " + " | ".join(syntax for syntax, _example, _summary in GRAMMAR.usage(adjust))


def _words(text: str) -> list[str]:
    return [w for w in _ARROWS.sub(" ", text.strip()).split() if w]


def _count(word: str, text: str, signed: bool = False) -> int:
    try:
        value = int(word)
    except ValueError:
        raise NotationError(_("{text}: {word} is not a whole number").format(text=repr(text), word=repr(word))) \
            from None
    if value < 1 and not signed:
        raise NotationError(_("{text}: a count is a whole number from 1, not {n}").format(text=repr(text), n=value))
    return value


def _natural(word: str, text: str) -> int:
    value = _count(word, text, signed=True)
    if value < 0:
        raise NotationError(_("{text}: a count is a whole number from 0, not {n}").format(text=repr(text), n=value))
    return value


def _side(word: str) -> Side:
    key = GRAMMAR.keyword(word)
    if key == "greece":
        return Side.GREECE
    if key == "persia":
        return Side.PERSIA
    raise NotationError(_("{word} is not a side: {greece} or {persia}").format(
        word=repr(word), greece=GRAMMAR.word("greece"), persia=GRAMMAR.word("persia")))


def _unit(word: str) -> Unit:
    key = GRAMMAR.keyword(word)
    if key == "army":
        return "armies"
    if key == "fleet":
        return "fleets"
    raise NotationError(_("{word} is not a unit: {army} or {fleet}").format(
        word=repr(word), army=GRAMMAR.word("army"), fleet=GRAMMAR.word("fleet")))


def _cities(state: EarthWaterState, words: list[str]) -> tuple[CityName, ...]:
    """Returns the cities of a route, skipping 'to' (any language) and a unit word after the count."""
    return tuple(state.tables.city(w) for w in words if not GRAMMAR.is_(w, "to"))


def parse_action(state: EarthWaterState, text: str) -> EarthWaterAction:
    """Returns the action a text names (keywords in English, French or Italian).

    Raises:
        NotationError: not an action of 300-solo.
        UnknownNameError: an unknown city, with suggestions.
    """
    words = _words(text)
    if not words:
        raise NotationError(_("empty action; {usage}").format(usage=usage()))
    head, rest = GRAMMAR.keyword(words[0]), words[1:]
    keys = [GRAMMAR.keyword(w) for w in rest]
    city = state.tables.city
    if head == "setup" and rest:
        return Setup(position=text.strip()[len(words[0]):].strip())
    if head == "persia" and len(rest) == 1 and keys[0] in ("prepare", "operate", "supply"):
        return Persia(procedure=keys[0])
    if head == "done" and not rest:
        return Done()
    if head == "pass" and not rest:
        return Pass()
    if head == "fight" and not rest:
        return Fight()
    if head == "resolve" and not rest:
        return Fight(to_end=True)
    if head == "burn" and keys in (["bridge"], ["the", "bridge"]):
        return BurnBridge()
    if head == "retreat" and len(rest) == 1:
        return Retreat(city=city(rest[0]))
    if head == "keep" and len(rest) == 1:
        return Keep(count=_natural(rest[0], text))
    if head == "remove" and len(rest) == 2:
        return Remove(count=_count(rest[0], text), city=city(rest[1]))
    if head == "event" and rest:
        return _parse_event(state, rest, text)
    if head in ("draw", "discard") and rest:
        number, _half = find_card(state.tables.cards, " ".join(rest))
        name = state.tables.cards.cards[number].greek.en
        return Draw(card=number, name=name) if head == "draw" else Discard(card=number, name=name)
    if head == "buy":
        return _parse_buy(state, rest, text)
    if head == "move" and len(rest) >= 3:
        rest, card = _paying_card(state, rest)
        count = _count(rest[0], text)
        route_words = rest[1:]
        if route_words and GRAMMAR.is_(route_words[0], "army"):
            route_words = route_words[1:]  # 'move 2 armies Thebai Larissa'
        path = _cities(state, route_words)
        if len(path) < 2:
            raise NotationError(_("{text}: write '{form}'").format(
                text=repr(text), form=GRAMMAR.spell("{move} N CITY [{to}] CITY")))
        if len(path) == 2:
            path = auto_path(state, Side.GREECE, path[0], path[1])
        return LandMove(count=count, path=path, card=card, card_name=_english(state, card))
    if head == "sail" and len(rest) >= 3:
        rest, card = _paying_card(state, rest)
        return _parse_sail(state, rest, text).model_copy(update={"card": card, "card_name": _english(state, card)})
    if head is None:
        close = GRAMMAR.close(words[0])
        hint = _("; did you mean {words}?").format(words=", ".join(repr(c) for c in close)) if close else ""
        raise NotationError(_("{word} is not a 300-solo action{hint} {usage}").format(
            word=repr(words[0]), hint=hint, usage=usage()))
    raise NotationError(_("{text} is not a 300-solo action; {usage}").format(text=repr(text), usage=usage()))


def _english(state: EarthWaterState, card: int | None) -> str:
    return state.tables.cards.cards[card].greek.en if card is not None else ""


def _paying_card(state: EarthWaterState, words: list[str]) -> tuple[list[str], int | None]:
    """Splits 'move 2 A B card Triremes' into the move's words and the card that pays for it."""
    for i, word in enumerate(words):
        if GRAMMAR.is_(word, "cards") and i + 1 < len(words):
            number, _half = find_card(state.tables.cards, " ".join(words[i + 1:]))
            return words[:i], number
    return words, None


def _parse_event(state: EarthWaterState, rest: list[str], text: str) -> Event:
    """'event NAME [CITY ...]', 'event Leonidas FROM TO', 'event Evangelion N FROM [..] TO'."""
    cards = state.tables.cards
    number, half, args = split_name(cards, rest)
    if half == "persian":
        raise NotationError(_("{text}: {name} is the Persian event of card {n}; Greece plays its Greek event, "
                              "{greek}").format(text=repr(text), name=cards.cards[number].persian.say(), n=number,
                                                greek=cards.cards[number].greek.say()))
    effect = cards.cards[number].effect
    if effect.kind in ("move", "battle-points"):
        if effect.kind == "move" and args and not args[0].lstrip("-").isdigit():
            args = [str(effect.armies or 1), *args]
        if len(args) < 3:
            raise NotationError(_("{text}: write '{form}'").format(
                text=repr(text), form=GRAMMAR.spell("{event} CARD N CITY [{to}] CITY")))
        count = _count(args[0], text)
        path = _cities(state, args[1:])
        if len(path) == 2:
            path = auto_path(state, Side.GREECE, path[0], path[1])
        return Event(card=number, name=_english(state, number), count=count, path=path)
    return Event(card=number, name=_english(state, number), targets=_cities(state, args))


def _parse_sail(state: EarthWaterState, rest: list[str], text: str) -> NavalMove:
    fleets = _count(rest[0], text)
    words = rest[1:]
    if words and GRAMMAR.is_(words[0], "fleet"):
        words = words[1:]
    armies = 0
    carry = [i for i, w in enumerate(words) if GRAMMAR.is_(w, "carry")]
    if carry:
        tail = words[carry[0] + 1:]
        if not tail or len(tail) > 2 or (len(tail) == 2 and not GRAMMAR.is_(tail[1], "army")):
            raise NotationError(_("{text}: write '{form}'").format(
                text=repr(text), form=GRAMMAR.spell("{sail} N PORT [{to}] PORT [{carry} M]")))
        armies = _natural(tail[0], text)
        words = words[:carry[0]]
    ports = _cities(state, words)
    if len(ports) != 2:
        raise NotationError(_("{text}: write '{form}'").format(
            text=repr(text), form=GRAMMAR.spell("{sail} N PORT [{to}] PORT [{carry} M]")))
    return NavalMove(fleets=fleets, start=ports[0], goal=ports[1], armies=armies)


def _parse_buy(state: EarthWaterState, rest: list[str], text: str) -> Buy:
    keys = [GRAMMAR.keyword(w) for w in rest]
    if len(rest) == 2 and keys[1] == "cards":
        return Buy(what="cards", count=_count(rest[0], text))
    if len(rest) == 3 and keys[1] in ("army", "fleet"):
        return Buy(what="army" if keys[1] == "army" else "fleet", count=_count(rest[0], text),
                   city=state.tables.city(rest[2]))
    if len(rest) == 2 and keys[0] in ("army", "fleet"):
        return Buy(what="army" if keys[0] == "army" else "fleet", count=1, city=state.tables.city(rest[1]))
    raise NotationError(_("{text}: write '{cards}', '{army}' or '{fleet}'").format(
        text=repr(text), cards=GRAMMAR.spell("{buy} N {cards}"), army=GRAMMAR.spell("{buy} N {army} CITY"),
        fleet=GRAMMAR.spell("{buy} N {fleet} CITY")))


def parse_adjust(state: EarthWaterState, text: str) -> EarthWaterAction:
    """Returns the override a text names (keywords in English, French or Italian).

    Raises:
        NotationError: not an override of 300-solo.
        UnknownNameError: an unknown city.
    """
    words = _words(text)
    if not words:
        raise NotationError(_("empty override; {usage}").format(usage=usage(adjust=True)))
    head, rest = GRAMMAR.keyword(words[0]), words[1:]
    if head in ("set", "add") and len(rest) == 4:
        return SetUnits(city=state.tables.city(rest[0]), side=_side(rest[1]), unit=_unit(rest[2]),
                        count=_count(rest[3], text, signed=True), relative=head == "add")
    if head in ("score", "campaign", "talents") and len(rest) == 1:
        return SetValue(field=head, value=_count(rest[0], text, signed=True))
    if head in ("hand", "portraits") and len(rest) == 2:
        return SetValue(field=head, side=_side(rest[0]), value=_count(rest[1], text, signed=True))
    if head == "bridge" and len(rest) == 1 and GRAMMAR.keyword(rest[0]) in ("built", "destroyed"):
        return SetValue(field="bridge", value=int(GRAMMAR.is_(rest[0], "built")))
    if head == "turn" and len(rest) == 1:
        return SetValue(field="turn", side=_side(rest[0]), value=0)
    raise NotationError(_("{text} is not a 300-solo override; {usage}").format(
        text=repr(text), usage=usage(adjust=True)))


def setup_text(position: dict[str, object]) -> str:
    """Returns the ``setup`` action text of a position (compact JSON)."""
    return "setup " + json.dumps(position, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
