"""Zargo position files (umpire mode) and set-up files: schema, reading and writing.

A position holds everything a state does: month, phase, who acts, alliances, each hex's stack
(escort first), cities with their garrison (a revealed list, or a commitment while hidden),
counters held in chasms, vanished Monks, and the attacks and shots declared this turn. Reading
checks what a placement would (the same checks as the actions: :mod:`sequence`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from referee.errors import PositionError, RefereeError
from referee.game import validate_file
from referee.games.zargo import sequence as seq
from referee.games.zargo.state import GARRISON_MAX, MONTHS, City, Phase, Shot, ZargoState, ZargoTables
from referee.games.zargo.world import Terrain
from referee.sealed import Commitment

__all__ = ["SetupFile", "ZargoPosition", "read_position", "write_position"]

PEOPLE_KEYS = ("chevaliers", "dragons", "ailes", "moines")


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CityEntry(_Strict):
    """A city: owner, builder, garrison (a list once public) or the commitment of a sealed one."""

    owner: str
    founder: str
    garrison: list[str] | None = Field(default_factory=list, max_length=GARRISON_MAX)
    commitment: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")


class MarkerEntry(_Strict):
    """A vanished Monk: its label and the month it vanished."""

    label: str
    month: int = Field(ge=1, le=MONTHS)


class ShotEntry(_Strict):
    """A declared shot."""

    kind: str = Field(pattern=r"^(arrow|flame|vision)$")
    source: str
    target: str


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
    attacks: dict[str, list[str]] = Field(default_factory=dict, max_length=500)
    shots: list[ShotEntry] = Field(default_factory=list, max_length=500)
    eliminated: dict[str, int] = Field(default_factory=dict, max_length=32)
    reveal_wait: str | None = None


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
        shots=[ShotEntry(kind=x.kind, source=x.source, target=x.target) for x in s.shots],
        eliminated=dict(s.eliminated),
        reveal_wait=s.reveal_wait,
    )


def read_position(tables: ZargoTables, data: object, label: str) -> ZargoState:
    """Returns the state a position file describes.

    Raises:
        PositionError: malformed, or a position the rules cannot reach (names the field).
    """
    pos = validate_file(ZargoPosition, data, label)
    grid = tables.world.grid

    def hex_of(text: str, where: str) -> str:
        try:
            return grid.name(grid.parse(text))
        except RefereeError as exc:
            raise PositionError(label, where, str(exc)) from None

    def people(p: str, where: str) -> str:
        if p not in PEOPLE_KEYS:
            raise PositionError(label, where, f"unknown people {p!r} (one of {', '.join(PEOPLE_KEYS)})")
        return p

    peoples = tuple(people(p, "peoples") for p in pos.peoples)
    if list(peoples) != [p for p in tables.order if p in peoples]:
        raise PositionError(label, "peoples", f"list the peoples in turn order: {', '.join(tables.order)}")
    for p in (*pos.ready, *(pos.proposal or ()), *([pos.active] if pos.active else [])):
        if p not in peoples:
            raise PositionError(label, "active", f"{p!r} is not a people in play")
    board: dict[str, tuple[str, ...]] = {}
    for h, stack in pos.board.items():
        name = hex_of(h, f"board.{h}")
        if not stack or len(stack) > 2:
            raise PositionError(label, f"board.{h}", "a hex holds one counter, or an escort and its escorted")
        for lab in stack:
            if lab not in tables.units:
                raise PositionError(label, f"board.{h}", f"unknown counter {lab!r}")
        if tables.world.terrain[grid.parse(name)] is Terrain.SEA:
            raise PositionError(label, f"board.{h}", "a counter in the sea")
        board[name] = tuple(stack)
    cities: dict[str, City] = {}
    for h, c in pos.cities.items():
        name = hex_of(h, f"cities.{h}")
        people(c.owner, f"cities.{h}.owner"), people(c.founder, f"cities.{h}.founder")
        if name in board:
            raise PositionError(label, f"cities.{h}", "a counter stands on the city's hex")
        if c.garrison is None and c.commitment is None:
            raise PositionError(label, f"cities.{h}", "a hidden garrison needs its commitment")
        seal = Commitment(owner=c.owner, label=f"garrison-{name}", digest=c.commitment) if c.commitment else None
        cities[name] = City(
            owner=c.owner, founder=c.founder, seal=seal, garrison=None if c.garrison is None else tuple(c.garrison)
        )
        for g in c.garrison or ():
            if tables.units.get(g) is None or tables.units[g].people != c.owner:
                raise PositionError(label, f"cities.{h}.garrison", f"{g!r} is not a counter of the {c.owner}")
    state = ZargoState(
        tables=tables,
        phase=pos.phase,
        players=pos.players,
        peoples=peoples,
        continents={people(p, "continents"): tuple(v) for p, v in pos.continents.items()},
        ready=tuple(pos.ready),
        month=pos.month,
        active=pos.active,
        board=board,
        cities=cities,
        paralysed={hex_of(h, "paralysed"): n for h, n in pos.paralysed.items()},
        vanished={hex_of(h, "vanished"): (m.label, m.month) for h, m in pos.vanished.items()},
        alliances=tuple(sorted(pos.alliances)),
        proposal=(pos.proposal[0], pos.proposal[1]) if pos.proposal else None,
        moved={k: tuple(v) for k, v in pos.moved.items()},
        acted=tuple(pos.acted),
        attacks={hex_of(t, "attacks"): tuple(hex_of(x, f"attacks.{t}") for x in v) for t, v in pos.attacks.items()},
        shots=tuple(
            Shot(kind=x.kind, source=hex_of(x.source, "shots"), target=hex_of(x.target, "shots")) for x in pos.shots
        ),
        eliminated=dict(pos.eliminated),
        reveal_wait=pos.reveal_wait,
    )
    _check_invariants(state, label)
    return _judge_declarations(state, label)


def _judge_declarations(state: ZargoState, label: str) -> ZargoState:
    """Declared attacks and shots are judged as if typed now, in order (the same checks as the
    ``attack`` and ``arrow``/``flame``/``vision`` actions); a refused one names its field."""
    from referee.dice import NoDice
    from referee.games.zargo import actions as act

    if not state.attacks and not state.shots:
        return state
    if state.phase is not Phase.MOVE:
        if state.phase in (Phase.REVEAL, Phase.RESOLVE):
            return state  # a resolution under way: its declarations were judged when typed
        raise PositionError(label, "attacks", "attacks and shots are declared in the movement phase")
    bare = state.model_copy(update={"attacks": {}, "shots": (), "acted": ()})
    declared: list[tuple[str, act.ZargoAction]] = [
        (f"shots[{i}]", act.Shoot(kind=x.kind, source=x.source, target=x.target)) for i, x in enumerate(state.shots)
    ]
    declared += [(f"attacks.{t}", act.Attack(source=h, target=t)) for t, hs in state.attacks.items() for h in hs]
    for field, action in declared:
        wrong = seq.judge_action(bare, action)[0]
        if wrong:
            raise PositionError(label, field, f"{wrong[0].message} [{wrong[0].code}]")
        bare = seq.apply_action(bare, action, NoDice())[0]
    acted = tuple(dict.fromkeys((*state.acted, *bare.acted)))
    return bare.model_copy(update={"acted": acted})


def _check_invariants(state: ZargoState, label: str) -> None:
    """The facts every reachable position keeps: stacks are escorts, no more counters than the box,
    paralysed counters exist, an awaited reveal names a sealed city."""
    for h, stack in state.board.items():
        if len(stack) == 2 and not seq.escort_fits(state, stack[0], (stack[1],)):
            raise PositionError(
                label,
                f"board.{h}",
                "only a foot soldier may stand on a lone non-infantry counter of its people (ESCORTES)",
            )
    for lab in state.tables.units:
        if seq.manifest_left(state, lab) < 0:
            raise PositionError(label, "board", f"more {lab} counters than the box holds")
    for h in state.paralysed:
        if h not in state.board:
            raise PositionError(label, f"paralysed.{h}", "no counter stands there")
    if state.reveal_wait is not None:
        city = state.cities.get(state.reveal_wait)
        if city is None or not city.hidden or state.phase is not Phase.REVEAL:
            raise PositionError(label, "reveal_wait", "names no hidden garrison awaited in the reveal phase")
    if state.phase in (Phase.MOVE, Phase.REVEAL, Phase.RESOLVE) and state.active is None:
        raise PositionError(label, "active", "whose turn it is")
