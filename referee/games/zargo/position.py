"""Zargo position files (umpire mode) and set-up files: their schemas, and a state written as one.

A position holds everything a state does: month, phase, who acts, alliances, each hex's stack
(escort first), cities with their garrison (a revealed list, or a commitment while hidden),
counters held in chasms, vanished Monks, the routes moved and the attacks and shots declared
this turn, and a Serpent's pending choice. Reading one is judging it:
:mod:`~referee.games.zargo.declarations`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from referee.games.zargo.state import GARRISON_MAX, MONTHS, Phase, ZargoState

__all__ = ["CarryEntry", "CityEntry", "MarkerEntry", "SetupFile", "ShotEntry", "ZargoPosition", "write_position"]

PEOPLE_KEYS = ("chevaliers", "dragons", "ailes", "moines")


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CityEntry(_Strict):
    """A city: owner, builder, garrison (a list once public) or the commitment of a sealed one
    (both null: its secret was lost and its owner seals it again)."""

    owner: str
    founder: str
    garrison: list[str] | None = Field(default_factory=list, max_length=GARRISON_MAX)
    commitment: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")


class MarkerEntry(_Strict):
    """A vanished Monk: its label and the month it vanished."""

    label: str
    month: int = Field(ge=1, le=MONTHS)


class ShotEntry(_Strict):
    """A declared shot (``label``: the garrison counter shooting from its city)."""

    kind: str = Field(pattern=r"^(arrow|flame|vision)$")
    source: str
    target: str
    label: str | None = None


class CarryEntry(_Strict):
    """A Serpent that may carry on along its line."""

    hex: str
    direction: int = Field(ge=0, le=5, description="0 = north, clockwise.")
    points: int = Field(ge=1, le=20)


class ZargoPosition(_Strict):
    """Schema of a Zargo position file (``referee schema zargo``)."""

    game: str = "zargo"
    phase: Phase = Phase.MOVE
    players: int = Field(default=4, ge=0, le=4)
    peoples: list[str] = Field(default_factory=list, max_length=4)
    continents: dict[str, list[str]] = Field(default_factory=dict)
    ready: list[str] = Field(default_factory=list, max_length=4)
    month: int = Field(default=1, ge=1, le=MONTHS)
    active: str | None = None
    alliances: list[str] = Field(default_factory=list, max_length=6)
    proposal: list[str] | None = Field(default=None, min_length=2, max_length=2)
    board: dict[str, list[str]] = Field(default_factory=dict, max_length=2_000)
    cities: dict[str, CityEntry] = Field(default_factory=dict, max_length=64)
    paralysed: dict[str, int] = Field(default_factory=dict, max_length=400)
    vanished: dict[str, MarkerEntry] = Field(default_factory=dict, max_length=64)
    moved: dict[str, list[str]] = Field(default_factory=dict, max_length=2_000)
    acted: list[str] = Field(default_factory=list, max_length=2_000)
    attacks: dict[str, list[str]] = Field(
        default_factory=dict, max_length=500, description="target -> attackers: a hex, or CITY:LABEL for a sally")
    shots: list[ShotEntry] = Field(default_factory=list, max_length=500)
    eliminated: dict[str, int] = Field(default_factory=dict, max_length=32)
    reveal_wait: str | None = None
    carry: CarryEntry | None = None


class SetupFile(_Strict):
    """Schema of a set-up file: players and continents, then each people's cities and counters.

    Garrisons are never in a set-up file (it is shared): each owner seals them privately
    (``referee seal garrison-HEX --as PEOPLE``) before ``start``.
    """

    players: int = Field(ge=2, le=4)
    continents: dict[str, list[str]] | None = None
    cities: dict[str, list[str]] = Field(default_factory=dict)
    counters: dict[str, dict[str, str | list[str]]] = Field(
        default_factory=dict, description="people -> label -> hex or list of hexes"
    )


def write_position(state: ZargoState) -> ZargoPosition:
    """Returns the position file of a state."""
    s = state
    return ZargoPosition(
        phase=s.phase,
        players=s.players,
        peoples=list(s.peoples),
        continents={p: list(c) for p, c in s.continents.items()},
        ready=list(s.ready),
        month=s.month,
        active=s.active,
        alliances=list(s.alliances),
        proposal=list(s.proposal) if s.proposal else None,
        board={h: list(v) for h, v in s.board.items()},
        cities={
            h: CityEntry(
                owner=c.owner,
                founder=c.founder,
                garrison=None if c.garrison is None else list(c.garrison),
                commitment=c.seal.digest if c.seal else None,
            )
            for h, c in s.cities.items()
        },
        paralysed=dict(s.paralysed),
        vanished={h: MarkerEntry(label=lab, month=m) for h, (lab, m) in s.vanished.items()},
        moved={k: list(v) for k, v in s.moved.items()},
        acted=list(s.acted),
        attacks={t: list(v) for t, v in s.attacks.items()},
        shots=[ShotEntry(kind=x.kind, source=x.source, target=x.target, label=x.label) for x in s.shots],
        eliminated=dict(s.eliminated),
        reveal_wait=s.reveal_wait,
        carry=CarryEntry(hex=s.carry[0], direction=s.carry[1], points=s.carry[2]) if s.carry else None,
    )
