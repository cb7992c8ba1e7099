"""300: Earth & Water solo: the tracked state (its sides, phases and tables are in ``tables.py``).

Vocabulary: a *Major* is one of the four Major cities (Abydos and Ephesos for Persia, Athenai
and Sparta for Greece); *control* follows "base control"; a *garrison* is the four unit counts
of one city (Greek and Persian armies and fleets). Scores are signed: positive favours Persia.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.game import GameState
from referee.games.earth_water.tables import CityName, EarthWaterTables, Phase, Portraits, Side
from referee.i18n import ngettext

# ---------------------------------------------------------------------------------------------
# State


class Garrison(BaseModel):
    """The units of one city and its port."""

    model_config = ConfigDict(frozen=True)

    greek_armies: int = 0
    greek_fleets: int = 0
    persian_armies: int = 0
    persian_fleets: int = 0

    def armies(self, side: Side) -> int:
        """Returns a side's armies here."""
        return self.greek_armies if side is Side.GREECE else self.persian_armies

    def fleets(self, side: Side) -> int:
        """Returns a side's fleets in the port."""
        return self.greek_fleets if side is Side.GREECE else self.persian_fleets

    def plus(self, side: Side, armies: int = 0, fleets: int = 0) -> Garrison:
        """Returns the garrison with a side's counts changed by the given amounts."""
        if side is Side.GREECE:
            return self.model_copy(update={"greek_armies": self.greek_armies + armies,
                                           "greek_fleets": self.greek_fleets + fleets})
        return self.model_copy(update={"persian_armies": self.persian_armies + armies,
                                       "persian_fleets": self.persian_fleets + fleets})

    @property
    def empty_of_armies(self) -> bool:
        """True when no army of either side stands in the city."""
        return self.greek_armies == 0 and self.persian_armies == 0


class Hands(BaseModel):
    """Cards in each hand (counts only; the cards themselves stay on the table)."""

    model_config = ConfigDict(frozen=True)

    persia: int = 0
    greece: int = 0

    def of(self, side: Side) -> int:
        """Returns a side's hand size."""
        return self.persia if side is Side.PERSIA else self.greece

    def plus(self, side: Side, count: int) -> Hands:
        """Returns the hands with one side's count changed."""
        return self.model_copy(update={side.value: self.of(side) + count})


class Battle(BaseModel):
    """A battle waiting to be fought (base 7): where, by whom, and how the attacker came."""

    model_config = ConfigDict(frozen=True)

    city: CityName
    kind: Literal["land", "naval"]
    attacker: Side
    origin: CityName | None = Field(default=None, description="Where the attacker came from.")
    by_sea: bool = Field(default=False, description="A land battle after a landing.")
    carried: int = Field(default=0, ge=0, description="Naval: Greek armies aboard the attacking fleets.")
    fleets: int = Field(default=0, ge=0, description="Fleets that carried a landing (they retreat with it).")
    rounds: int = Field(default=0, ge=0, description="Rounds fought so far.")
    greek_dice: int | None = Field(default=None, ge=1, le=6, description="Greek dice a card gives (replacing the "
                                   "usual count).")
    card: int | None = Field(default=None, ge=1, description="The card whose move started the battle, if any.")
    persian_lost: int = Field(default=0, ge=0, description="Persian units lost in the last round.")


class EarthWaterState(GameState):
    """Everything the referee tracks in a solo game."""

    tables: EarthWaterTables = Field(exclude=True, repr=False)
    phase: Phase
    active: Side = Side.PERSIA
    campaign: int = 3
    score: int = 0
    bridge: bool = True
    hands: Hands = Hands()
    cities: dict[CityName, Garrison]
    portraits: Portraits = Portraits()
    passes: int = 0
    greek_talents: int = 0
    greek_cards_bought: int = 0
    greek_fleets_bought: int = 0
    greek_units_bought: bool = False
    attrition_due: int = 0
    battle: Battle | None = None
    may_burn: bool = False
    fresh: bool = False
    winner: Side | None = None
    end_reason: str | None = None
    greek_cards: tuple[int, ...] = ()
    """Cards the player has named in the Greek hand (``draw NAME``); the others are unnamed."""
    played_once: tuple[int, ...] = ()
    """Once-per-game cards whose Greek event has been played."""
    free_moves: int = 0
    """Naval moves without armies Greece still makes this turn, costing no card (Triremes)."""
    extra_preparation: bool = False
    """Greece is in a preparation inside its operation turn (Mines of Laurion)."""

    def at(self, city: CityName) -> Garrison:
        """Returns the garrison of a city."""
        return self.cities[city]

    def with_city(self, city: CityName, garrison: Garrison) -> dict[CityName, Garrison]:
        """Returns the city map with one garrison replaced."""
        return {**self.cities, city: garrison}

    def controls(self, side: Side, city: CityName) -> bool:
        """base control: own armies and no enemy army, or an own Major free of enemy armies."""
        g = self.cities[city]
        if g.armies(side.other) > 0:
            return False
        return g.armies(side) > 0 or self.tables.map.cities[city].major is side

    def controller(self, city: CityName) -> Side | None:
        """Returns the side controlling a city, if any."""
        for side in Side:
            if self.controls(side, city):
                return side
        return None

    def total_armies(self, side: Side) -> int:
        """Returns a side's armies on the map."""
        return sum(g.armies(side) for g in self.cities.values())

    def total_fleets(self, side: Side) -> int:
        """Returns a side's fleets on the map."""
        return sum(g.fleets(side) for g in self.cities.values())

    def greek_reserve(self) -> tuple[int, int]:
        """base pieces: Greek armies and fleets still in reserve (portraits are out for good)."""
        base = self.tables.base
        armies = base.greek_armies.value - self.portraits.greece - self.total_armies(Side.GREECE)
        fleets = base.greek_fleets.value - self.total_fleets(Side.GREECE)
        if self.battle is not None:
            armies -= self.battle.carried
        return armies, fleets

    def occupied_persian_majors(self) -> tuple[CityName, ...]:
        """5.2, 4.A: Persian Majors holding at least one Greek army."""
        return tuple(c for c in self.tables.majors(Side.PERSIA) if self.cities[c].greek_armies > 0)

    def unnamed_greek_cards(self) -> int:
        """Cards in the Greek hand the player has not named."""
        return self.hands.greece - len(self.greek_cards)

    def greek_hand_after(self, count: int, spent: int | None = None) -> dict[str, object]:
        """Returns the update of a Greek hand that drops to ``count`` cards: ``spent`` leaves the
        named cards; other losses take unnamed cards first, then the latest named ones."""
        named = [c for c in self.greek_cards if c != spent] if spent is not None else list(self.greek_cards)
        return {"hands": self.hands.model_copy(update={"greece": count}), "greek_cards": tuple(named[:max(0, count)])}

    def deck_left(self) -> int:
        """base pieces: cards not in a hand (draw pile and discards together)."""
        return self.tables.base.deck.value - self.hands.persia - self.hands.greece


_PLURALS = {"army": "armies", "fleet": "fleets", "card": "cards", "talent": "talents", "amphora": "amphorae"}


def many(count: int, noun: str) -> str:
    """Returns '1 army', '2 armies', '0 fleets'.

    >>> many(2, "army"), many(1, "fleet"), many(3, "Greek army"), many(1, "amphora")
    ('2 armies', '1 fleet', '3 Greek armies', '1 amphora')
    """
    if count == 1:
        return f"1 {noun}"
    head, _, last = noun.rpartition(" ")
    plural = _PLURALS.get(last, last + "s")
    return f"{count} {head + ' ' if head else ''}{plural}"


def units(count: int, noun: str) -> str:
    """Returns a count of a noun in the active language ('2 armées', '1 flotta greca').

    ``noun`` is one of army, fleet, card, talent, round, amphora, Greek army, Persian army, Greek fleet,
    Persian fleet; any other noun falls back to :func:`many` (English).
    """
    forms = {
        "army": lambda n: ngettext("{n} army", "{n} armies", n),
        "fleet": lambda n: ngettext("{n} fleet", "{n} fleets", n),
        "card": lambda n: ngettext("{n} card", "{n} cards", n),
        "talent": lambda n: ngettext("{n} talent", "{n} talents", n),
        "round": lambda n: ngettext("{n} round", "{n} rounds", n),
        "amphora": lambda n: ngettext("{n} amphora", "{n} amphorae", n),
        "Greek army": lambda n: ngettext("{n} Greek army", "{n} Greek armies", n),
        "Persian army": lambda n: ngettext("{n} Persian army", "{n} Persian armies", n),
        "Greek fleet": lambda n: ngettext("{n} Greek fleet", "{n} Greek fleets", n),
        "Persian fleet": lambda n: ngettext("{n} Persian fleet", "{n} Persian fleets", n),
    }
    form = forms.get(noun)
    if form is None:
        return many(count, noun)
    return form(count).format(n=count)


def interp(state: EarthWaterState, ident: str) -> str:
    """Returns the disclosure label of an interpretation ('interpretation id: choice')."""
    return state.tables.interpretation(ident).label()
