"""The 16 cards of 300: Earth & Water as data (``tables/300-solo/cards.yaml``) and their names.

Each card has a Greek and a Persian event, names in English, French and Italian, when the Greek
event may be played (its own turn, or a reaction at a moment of a battle), whether it is once per
game, a Sparta card, or costs an army onto a hero portrait, and its effect as one of a few kinds
(the file's header lists them). PERS.IA never resolves events (solo 3.E), so only the Greek half
has effects here. Entry points: :class:`CardsFile`, :func:`find_card`, :func:`split_name`.
"""

from __future__ import annotations

import difflib
from typing import Literal

from pydantic import Field, model_validator

from referee.base import StrictModel, fold
from referee.errors import UnknownNameError
from referee.i18n import current
from referee.rulings import Provenance

EffectKind = Literal["remove", "place", "dice", "move", "naval-moves", "redraw", "extra-loss", "battle-points",
                     "extra-preparation", "none"]


class Names(StrictModel):
    en: str = Field(min_length=1, max_length=60)
    fr: str = Field(min_length=1, max_length=60)
    it: str = Field(min_length=1, max_length=60)

    def say(self, lang: str | None = None) -> str:
        """Returns the name in a language (the active one by default)."""
        found: str = getattr(self, lang or current(), self.en)
        return found


class Effect(StrictModel):
    kind: EffectKind
    side: Literal["greece", "persia"] | None = None
    unit: Literal["armies", "fleets"] | None = None
    count: int | Literal["all"] | None = Field(default=None, description="Units; 'all' = the whole reserve.")
    cities: tuple[str, ...] | Literal["any"] | None = None
    dice: int | None = Field(default=None, ge=1, le=6, description="Greek dice in the battle.")
    armies: int | None = Field(default=None, ge=0, description="Armies moved (0: any number).")
    extra: int | None = Field(default=None, ge=0)
    talents: int | None = Field(default=None, ge=0)
    why: str | None = Field(default=None, description="Why the trigger never arises in solo.")


class BattleFilter(StrictModel):
    kind: Literal["land", "naval"]
    attacker: Literal["greece", "persia", "any"]


class Card(StrictModel):
    greek: Names
    persian: Names
    when: Literal["turn", "reaction"]
    moment: Literal["start", "after-loss"] | None = None
    battle: BattleFilter | None = None
    once: bool = False
    sparta: bool = False
    portrait: bool = Field(default=False, description="Playing the event puts a Greek army on a hero portrait.")
    effect: Effect
    movement: int = Field(ge=0, le=1, description="Movements the card pays for instead of its event (base 6).")
    provenance: Provenance

    @model_validator(mode="after")
    def _check(self) -> Card:
        if self.when == "reaction" and self.moment is None:
            raise ValueError("a reaction needs its moment (start or after-loss)")
        return self


class CardsFile(StrictModel):
    cards: dict[int, Card]

    @model_validator(mode="after")
    def _check(self) -> CardsFile:
        if sorted(self.cards) != list(range(1, len(self.cards) + 1)):
            raise ValueError("cards are numbered 1, 2, 3... without gaps")
        seen: dict[str, int] = {}
        for number, card in self.cards.items():
            for name in (*card.greek.model_dump().values(), *card.persian.model_dump().values()):
                key = fold(name)
                # the same Persian event is printed on several cards (Tribute of Earth and Water)
                if key in seen and seen[key] != number and fold(card.greek.en) == key:
                    raise ValueError(f"card {number}: the name {name!r} is also card {seen[key]}'s")
                seen.setdefault(key, number)
        return self


def _index(cards: CardsFile) -> dict[str, tuple[int, Literal["greek", "persian"]]]:
    found: dict[str, tuple[int, Literal["greek", "persian"]]] = {}
    for number, card in cards.cards.items():
        for name in card.greek.model_dump().values():
            found[fold(name)] = (number, "greek")
        for name in card.persian.model_dump().values():
            found.setdefault(fold(name), (number, "persian"))
    return found


def find_card(cards: CardsFile, text: str) -> tuple[int, Literal["greek", "persian"]]:
    """Returns the card a name means (either event's name, any language, accents and case ignored).

    Raises:
        UnknownNameError: no card has this name; suggests the closest.
    """
    index = _index(cards)
    key = fold(text.strip().strip("'\""))
    if key.isdigit() and int(key) in cards.cards:
        return int(key), "greek"
    if key in index:
        return index[key]
    close = difflib.get_close_matches(key, list(index), n=3, cutoff=0.6)
    names = list(dict.fromkeys(cards.cards[index[c][0]].greek.say() for c in close))
    raise UnknownNameError("card", text, names or [c.greek.say() for c in cards.cards.values()][:5])


def split_name(cards: CardsFile, words: list[str]) -> tuple[int, Literal["greek", "persian"], list[str]]:
    """Returns the card named by the longest run of leading words, and the words left after it.

    Raises:
        UnknownNameError: no leading run of words names a card.
    """
    index = _index(cards)
    for end in range(len(words), 0, -1):
        key = fold(" ".join(words[:end]).strip("'\""))
        if key in index:
            number, half = index[key]
            return number, half, words[end:]
        if end == 1 and key.isdigit() and int(key) in cards.cards:
            return int(key), "greek", words[1:]
    number, half = find_card(cards, " ".join(words))
    return number, half, []
