"""Position files of 300-solo (``referee schema 300-solo``): YAML or JSON, validated and judged here.

Cities not listed are empty; city names are matched case- and accent-insensitively, French
spellings included (Thèbai, Athènes → Athenai). The state is built the way an umpire would set
the table up with ``referee adjust``: every count, hand, portrait, score and turn goes through
the same checks as that override, then :mod:`~referee.games.earth_water.declarations` judges the
rest (the phase, a pending battle replayed as the move that started it). Every problem becomes
one :class:`~referee.errors.PositionError` naming the file and the field.
"""

from __future__ import annotations

from typing import Literal, Protocol, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from referee.errors import PositionError, UnknownNameError
from referee.game import Engine, validate_file
from referee.games.earth_water import actions as act
from referee.games.earth_water.actions import EarthWaterAction
from referee.games.earth_water.cards import find_card
from referee.games.earth_water.declarations import judge_declarations, problem
from referee.games.earth_water.play_cards import draw_violations
from referee.games.earth_water.rules import BASE_OPERATIONS, BASE_PREPARATION, GAME_END
from referee.games.earth_water.sequence import HAS_WON, PHASE_NAMES
from referee.games.earth_water.state import Battle, EarthWaterState, Garrison
from referee.games.earth_water.tables import CityName, EarthWaterTables, Phase, Portraits, Side
from referee.games.earth_water.verdicts import violations
from referee.i18n import _

Rules: TypeAlias = Engine[EarthWaterState, EarthWaterAction]
"""The engine as these checks use it (``judge``, ``apply``): the core protocol, so this module needs
no import of the engine that calls it."""

MAX_ROUNDS = 999
"""A bound on ``battle.rounds`` checked before anything else (each round costs a unit)."""


class CityUnits(BaseModel):
    """The units of one city (its port included)."""

    model_config = ConfigDict(extra="forbid")

    greek_armies: int = Field(default=0, ge=0, description="Greek armies in the city.")
    greek_fleets: int = Field(default=0, ge=0, description="Greek fleets in its port.")
    persian_armies: int = Field(default=0, ge=0, description="Persian armies in the city.")
    persian_fleets: int = Field(default=0, ge=0, description="Persian fleets in its port.")


class HandsSpec(BaseModel):
    """Cards in each hand."""

    model_config = ConfigDict(extra="forbid")

    persia: int | None = Field(default=None, ge=0, description=(
        "Omitted: 0, except in the Greek preparation, where it is the number of cards PERS.IA drew."))
    greece: int = Field(default=0, ge=0)


class PortraitsSpec(BaseModel):
    """Armies taken out of play on portraits."""

    model_config = ConfigDict(extra="forbid")

    persia: int = Field(default=2, ge=0, description="Persian armies on Darius and Xerxes (2 in the solo set-up).")
    greece: int = Field(default=0, ge=0, description="Greek armies on Miltiades, Themistocles, Leonidas.")


class BattleSpec(BaseModel):
    """A battle still to fight."""

    model_config = ConfigDict(extra="forbid")

    city: str
    kind: Literal["land", "naval"] = "land"
    attacker: Side
    origin: str | None = Field(default=None, description=(
        "City the attacker entered the battle city from (a Greek attacker retreats there); omitted, it is "
        "derived when only one city fits."))
    by_sea: bool = False
    carried: int = Field(default=0, ge=0, description="Naval: Greek armies aboard the attacking fleets.")
    fleets: int = Field(default=0, ge=0, description=(
        "Greek fleets of a naval attack (as they sailed) or of a landing; omitted, those in the port."))
    rounds: int = Field(default=0, ge=0, le=MAX_ROUNDS, description="Rounds fought so far.")


class EarthWaterPosition(BaseModel):
    """A moment of a 300: Earth & Water solo game (Greece against PERS.IA)."""

    model_config = ConfigDict(extra="forbid")

    game: Literal["300-solo"] = "300-solo"
    campaign: int = Field(default=3, ge=1, le=5, description="Campaign 1-5 (the solo game starts on 3).")
    score: int = Field(default=0, ge=-6, le=6, description="Signed score: + Persian side, - Greek side.")
    bridge: bool = Field(default=True, description="Whether the Hellespont bridge stands.")
    hands: HandsSpec = Field(default_factory=HandsSpec)
    portraits: PortraitsSpec = Field(default_factory=PortraitsSpec)
    cities: dict[str, CityUnits] = Field(default_factory=dict, description="City -> units; unlisted cities are empty.")
    phase: Phase | None = Field(default=None, description="Omitted: an umpire position in no particular phase.")
    active: Side | None = Field(default=None, description=(
        "In operations: whose turn it is (the attacker's while a battle is pending)."))
    passes: int = Field(default=0, ge=0, le=1, description="Operations: passes in a row so far.")
    greek_talents: int | None = Field(default=None, ge=0, description="Greek preparation: talents left.")
    battle: BattleSpec | None = None
    winner: Side | None = None
    greek_cards: list[str] | None = Field(default=None, max_length=16, description=(
        "Cards named in the Greek hand (any language); the rest of hands.greece are unnamed."))
    played_once: list[str] | None = Field(default=None, max_length=16, description=(
        "Once-per-game cards whose Greek event has been played."))


def validate_position(data: object, label: str) -> EarthWaterPosition:
    """Returns a validated position, or raises one error naming file and field.

    Raises:
        PositionError: the data does not fit the schema.
    """
    return validate_file(EarthWaterPosition, data, label)


def state_from_position(engine: Rules, tables: EarthWaterTables, data: object,
                        label: str) -> EarthWaterState:
    """Returns the state a position file describes, every declaration judged.

    Raises:
        PositionError: malformed, or a declaration the rules make impossible (names the field
            and the rule).
    """
    pos = validate_position(data, label)

    def city(text: str, field: str) -> CityName:
        try:
            return tables.city(text)
        except UnknownNameError as exc:
            raise PositionError(label, field, str(exc)) from None

    def judged(state: EarthWaterState, action: act.SetUnits | act.SetValue, field: str) -> EarthWaterState:
        found = violations(state, action)
        if found:
            raise PositionError(label, field, problem(found[0]))
        return apply_override(state, action)

    state = EarthWaterState(tables=tables, phase=Phase.ANY, campaign=tables.setup.campaign.value,
                            cities={c: Garrison() for c in tables.cities},
                            portraits=Portraits(persia=tables.setup.portraits.persia, greece=0))
    seen: set[CityName] = set()
    for name, units in pos.cities.items():
        where = city(name, f"cities.{name}")
        if where in seen:
            raise PositionError(label, f"cities.{name}", f"{where} is listed twice")
        seen.add(where)
        for side in Side:
            for unit in ("armies", "fleets"):
                count = getattr(units, f"{side.adjective.lower()}_{unit}")
                if count:
                    state = judged(state, act.SetUnits(city=where, side=side, unit=unit, count=count),
                                   f"cities.{name}.{side.adjective.lower()}_{unit}")
    for side in Side:
        state = judged(state, act.SetValue(field="portraits", side=side, value=getattr(pos.portraits, side.value)),
                       f"portraits.{side.value}")
    state = judged(state, act.SetValue(field="hand", side=Side.GREECE, value=pos.hands.greece), "hands.greece")
    state = judged(state, act.SetValue(field="hand", side=Side.PERSIA, value=pos.hands.persia or 0), "hands.persia")
    state = judged(state, act.SetValue(field="campaign", value=pos.campaign), "campaign")
    state = judged(state, act.SetValue(field="score", value=pos.score), "score")
    state = judged(state, act.SetValue(field="bridge", value=int(pos.bridge)), "bridge")
    state = _phase(state, pos, label, judged)
    state = _cards(state, pos, label)
    if pos.battle is not None:
        b = pos.battle
        battle = Battle(city=city(b.city, "battle.city"), kind=b.kind, attacker=b.attacker,
                        origin=city(b.origin, "battle.origin") if b.origin else None, by_sea=b.by_sea,
                        carried=b.carried, fleets=b.fleets, rounds=b.rounds)
        state = state.model_copy(update={"battle": battle})
    return judge_declarations(engine, state, label, active_declared=pos.active is not None,
                              persian_hand_declared=pos.hands.persia is not None)


def _phase(state: EarthWaterState, pos: EarthWaterPosition, label: str, judged: _Judged) -> EarthWaterState:
    """base 5, base 6, base 10: the phase and what only some phases have (turn, passes, talents)."""
    phase = pos.phase or Phase.ANY
    if pos.winner is not None:
        if phase not in (Phase.ANY, Phase.OVER):
            raise PositionError(label, "winner", _("a game with a winner is over, not in the {phase} ({rule})")
                                .format(phase=_(PHASE_NAMES[phase]), rule=GAME_END))
        phase = Phase.OVER
    state = state.model_copy(update={
        "phase": phase, "winner": pos.winner,
        "end_reason": HAS_WON.format(side=pos.winner.label) if pos.winner else None})
    if pos.active is not None:
        state = judged(state, act.SetValue(field="turn", side=pos.active, value=0), "active")
    if pos.passes:
        if phase not in (Phase.OPERATIONS, Phase.ANY):
            raise PositionError(label, "passes", _("passes are counted in operations, not in the {phase} ({rule})")
                                .format(phase=_(PHASE_NAMES[phase]), rule=BASE_OPERATIONS))
        state = state.model_copy(update={"passes": pos.passes})
    talents = pos.greek_talents
    if talents is None:
        talents = state.tables.base.greek_talents.value if phase is Phase.GREEK_PREPARATION else 0
    elif phase not in (Phase.GREEK_PREPARATION, Phase.ANY):
        raise PositionError(label, "greek_talents", _("Greek talents are spent in the Greek preparation and the "
                                                      "rest are lost, so the {phase} has none ({rule})").format(
            phase=_(PHASE_NAMES[phase]), rule=BASE_PREPARATION))
    return judged(state, act.SetValue(field="talents", value=talents), "greek_talents")


class _Judged(Protocol):
    def __call__(self, state: EarthWaterState, action: act.SetUnits | act.SetValue,
                 field: str) -> EarthWaterState: ...


def apply_override(state: EarthWaterState, action: act.SetUnits | act.SetValue) -> EarthWaterState:
    """Returns the state after an umpire override (``referee adjust``), unchecked."""
    if isinstance(action, act.SetUnits):
        g = state.at(action.city)
        now = g.armies(action.side) if action.unit == "armies" else g.fleets(action.side)
        delta = action.count if action.relative else action.count - now
        g = g.plus(action.side, armies=delta) if action.unit == "armies" else g.plus(action.side, fleets=delta)
        return state.model_copy(update={"cities": state.with_city(action.city, g)})
    if action.field == "hand":
        assert action.side is not None
        if action.side is Side.GREECE:
            return state.model_copy(update=state.greek_hand_after(action.value))
        return state.model_copy(update={"hands": state.hands.model_copy(update={action.side.value: action.value})})
    if action.field == "portraits":
        assert action.side is not None
        return state.model_copy(update={"portraits": state.portraits.model_copy(
            update={action.side.value: action.value})})
    if action.field == "bridge":
        return state.model_copy(update={"bridge": bool(action.value)})
    if action.field == "turn":
        assert action.side is not None
        return state.model_copy(update={"active": action.side, "passes": 0})
    name = {"talents": "greek_talents"}.get(action.field, action.field)
    return state.model_copy(update={name: action.value})


def _cards(state: EarthWaterState, pos: EarthWaterPosition, label: str) -> EarthWaterState:
    """cards: the named Greek cards are drawn as ``draw NAME`` would (same checks)."""
    deck = state.tables.cards
    for i, name in enumerate(pos.greek_cards or ()):
        try:
            number, _half = find_card(deck, name)
        except UnknownNameError as exc:
            raise PositionError(label, f"greek_cards.{i}", str(exc)) from None
        found = draw_violations(state, act.Draw(card=number, name=deck.cards[number].greek.en))
        if found:
            raise PositionError(label, f"greek_cards.{i}", problem(found[0]))
        state = state.model_copy(update={"greek_cards": (*state.greek_cards, number)})
    once: list[int] = []
    for i, name in enumerate(pos.played_once or ()):
        try:
            number, _half = find_card(deck, name)
        except UnknownNameError as exc:
            raise PositionError(label, f"played_once.{i}", str(exc)) from None
        if not deck.cards[number].once or number in once:
            raise PositionError(label, f"played_once.{i}", f"{deck.cards[number].greek.en} is not a once-per-game "
                                "card, or is listed twice")
        once.append(number)
    return state.model_copy(update={"played_once": tuple(once)})


def position_of(state: EarthWaterState) -> EarthWaterPosition:
    """Returns the position-file model of a state (empty cities left out)."""
    cities = {c: CityUnits(**g.model_dump()) for c, g in state.cities.items() if g != Garrison()}
    b = state.battle
    battle = None if b is None else BattleSpec(
        city=b.city, kind=b.kind, attacker=b.attacker, origin=b.origin, by_sea=b.by_sea, carried=b.carried,
        fleets=b.fleets, rounds=b.rounds)
    phase = None if state.phase is Phase.ANY else state.phase
    deck = state.tables.cards.cards
    return EarthWaterPosition(
        campaign=state.campaign, score=state.score, bridge=state.bridge,
        hands=HandsSpec(persia=state.hands.persia, greece=state.hands.greece),
        portraits=PortraitsSpec(persia=state.portraits.persia, greece=state.portraits.greece), cities=cities,
        phase=phase, active=state.active if state.phase is Phase.OPERATIONS else None, passes=state.passes,
        greek_talents=state.greek_talents if state.phase is Phase.GREEK_PREPARATION else None,
        battle=battle, winner=state.winner,
        greek_cards=[deck[c].greek.en for c in state.greek_cards] or None,
        played_once=[deck[c].greek.en for c in state.played_once] or None,
    )
