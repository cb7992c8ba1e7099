"""Position files of 300-solo (``referee schema 300-solo``): YAML or JSON, validated here.

Cities not listed are empty; city names are matched case- and accent-insensitively, French
spellings included (Thèbai, Athènes → Athenai). Every problem becomes one
:class:`~referee.errors.PositionError` naming the file and the field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.errors import PositionError, UnknownNameError
from referee.game import validate_file
from referee.games.earth_water.state import (
    Battle,
    CityName,
    EarthWaterState,
    EarthWaterTables,
    Garrison,
    Hands,
    Phase,
    Portraits,
    Side,
)


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

    persia: int = Field(default=0, ge=0)
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
    origin: str | None = Field(default=None, description="City the attacker came from (its retreat).")
    by_sea: bool = False
    carried: int = Field(default=0, ge=0, description="Naval: Greek armies aboard the attacking fleets.")
    fleets: int = Field(default=0, ge=0)
    rounds: int = Field(default=0, ge=0)


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
    active: Side | None = Field(default=None, description="In operations: whose turn it is.")
    passes: int = Field(default=0, ge=0, le=1, description="Operations: passes in a row so far.")
    greek_talents: int | None = Field(default=None, ge=0, description="Greek preparation: talents left.")
    battle: BattleSpec | None = None
    winner: Side | None = None


def validate_position(data: object, label: str) -> EarthWaterPosition:
    """Returns a validated position, or raises one error naming file and field.

    Raises:
        PositionError: the data does not fit the schema.
    """
    return validate_file(EarthWaterPosition, data, label)


def state_from_position(tables: EarthWaterTables, data: object, label: str) -> EarthWaterState:
    """Returns the state a position file describes.

    Raises:
        PositionError: malformed or impossible (a Greek piece limit broken, unknown city).
    """
    pos = validate_position(data, label)

    def city(text: str, field: str) -> CityName:
        try:
            return tables.city(text)
        except UnknownNameError as exc:
            raise PositionError(label, field, str(exc)) from None

    cities = {c: Garrison() for c in tables.cities}
    for name, units in pos.cities.items():
        where = city(name, f"cities.{name}")
        if cities[where] != Garrison():
            raise PositionError(label, f"cities.{name}", f"{where} is listed twice")
        if (units.greek_fleets or units.persian_fleets) and not tables.row(where).port:
            raise PositionError(label, f"cities.{name}", f"{where} has no port for fleets")
        cities[where] = Garrison(**units.model_dump())
    battle = None
    if pos.battle is not None:
        b = pos.battle
        battle = Battle(city=city(b.city, "battle.city"), kind=b.kind, attacker=b.attacker,
                        origin=city(b.origin, "battle.origin") if b.origin else None, by_sea=b.by_sea,
                        carried=b.carried, fleets=b.fleets, rounds=b.rounds)
    phase = pos.phase or Phase.ANY
    if pos.winner is not None:
        phase = Phase.OVER
    state = EarthWaterState(
        tables=tables, phase=phase, active=pos.active or Side.PERSIA, campaign=pos.campaign, score=pos.score,
        bridge=pos.bridge, hands=Hands(persia=pos.hands.persia, greece=pos.hands.greece), cities=cities,
        portraits=Portraits(persia=pos.portraits.persia, greece=pos.portraits.greece), passes=pos.passes,
        greek_talents=pos.greek_talents if pos.greek_talents is not None else
        (tables.base.greek_talents.value if phase is Phase.GREEK_PREPARATION else 0),
        battle=battle, winner=pos.winner,
        end_reason=f"{pos.winner.label} has won" if pos.winner else None,
    )
    _check_limits(state, label)
    return state


def _check_limits(state: EarthWaterState, label: str) -> None:
    base = state.tables.base
    armies, fleets = state.greek_reserve()
    if armies < 0:
        raise PositionError(label, "cities", f"Greece owns {base.greek_armies.value} armies; the position puts "
                            f"{base.greek_armies.value - armies} in play (portraits included)")
    if fleets < 0:
        raise PositionError(label, "cities", f"Greece owns {base.greek_fleets.value} fleets; the position has "
                            f"{base.greek_fleets.value - fleets}")
    if state.deck_left() < 0:
        raise PositionError(label, "hands", f"the hands hold more than the {base.deck.value} cards")
    b = state.battle
    if b is not None:
        g = state.at(b.city)
        both = (g.greek_armies and g.persian_armies) if b.kind == "land" else (g.greek_fleets and g.persian_fleets)
        if not both:
            raise PositionError(label, "battle", f"a {b.kind} battle in {b.city} needs units of both sides there")


def position_of(state: EarthWaterState) -> EarthWaterPosition:
    """Returns the position-file model of a state (empty cities left out)."""
    cities = {c: CityUnits(**g.model_dump()) for c, g in state.cities.items() if g != Garrison()}
    b = state.battle
    battle = None if b is None else BattleSpec(
        city=b.city, kind=b.kind, attacker=b.attacker, origin=b.origin, by_sea=b.by_sea, carried=b.carried,
        fleets=b.fleets, rounds=b.rounds)
    phase = None if state.phase is Phase.ANY else state.phase
    return EarthWaterPosition(
        campaign=state.campaign, score=state.score, bridge=state.bridge,
        hands=HandsSpec(persia=state.hands.persia, greece=state.hands.greece),
        portraits=PortraitsSpec(persia=state.portraits.persia, greece=state.portraits.greece), cities=cities,
        phase=phase, active=state.active if state.phase is Phase.OPERATIONS else None, passes=state.passes,
        greek_talents=state.greek_talents if state.phase is Phase.GREEK_PREPARATION else None,
        battle=battle, winner=state.winner,
    )
