"""Reading a Zargo position or set-up file: nothing in it is taken on trust.

A position must be one play can reach: players and peoples that match (two to four players; no
people set before the players are known), continents of the map dealt as the set-up deals them,
alliances between two different peoples in play, every hex on the map and on land, cities inland
on their builder's continent, no more counters than the box holds, stacks that are escorts.
Then what it declares was done this turn is replayed through the engine's own ``judge`` and
``apply``, as the actions it stands for: each route in ``moved`` as a stated route from its start
(the other moves set aside), then the shots, then the attacks. The first problem refuses the
file: one :class:`~referee.errors.PositionError` naming the file and the field.

A set-up file becomes the actions a group would type (:func:`setup_texts`). Entry points:
:func:`read_position`, :func:`setup_texts`.
"""

from __future__ import annotations

from typing import TypeAlias

from pydantic import BaseModel, ConfigDict

from referee.dice import NoDice
from referee.disclosures import relies_on_lines
from referee.errors import PositionError, RefereeError
from referee.game import Engine, validate_file
from referee.games.zargo import actions as act
from referee.games.zargo.actions import ZargoAction
from referee.games.zargo.movement import escort_fits
from referee.games.zargo.position import SetupFile, ZargoPosition
from referee.games.zargo.state import GARRISON_MAX, City, Phase, Shot, ZargoState, manifest_left, split_key
from referee.games.zargo.tables import ZargoTables
from referee.games.zargo.world import Terrain
from referee.rulings import Ruling
from referee.sealed import Commitment

Rules: TypeAlias = Engine[ZargoState, ZargoAction]
"""The engine as these checks use it (``judge``, ``apply``): the core protocol, so this module needs
no import of the engine that calls it."""

__all__ = ["Resolution", "read_position", "setup_texts"]

PEOPLE_KEYS = ("chevaliers", "dragons", "ailes", "moines")


class Resolution(BaseModel):
    """``referee resolve zargo``: what the shots and combats did, and the position after."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    events: tuple[Ruling, ...]
    provisional: tuple[str, ...] = ()
    position: ZargoPosition

    def explain(self) -> list[str]:
        """Returns the resolution as lines for the terminal."""
        return [f"→ {e.text()}" for e in self.events] + relies_on_lines(self.provisional)


class _Reader:
    """Turns the fields of a position into a state, each refusal naming its field."""

    def __init__(self, tables: ZargoTables, label: str) -> None:
        self.tables = tables
        self.grid = tables.world.grid
        self.label = label

    def fail(self, field: str, problem: str) -> PositionError:
        return PositionError(self.label, field, problem)

    def hex(self, text: str, field: str, land: bool = True) -> str:
        try:
            cell = self.grid.parse(text)
        except RefereeError as exc:
            raise self.fail(field, str(exc)) from None
        if land and self.tables.world.terrain[cell] is Terrain.SEA:
            raise self.fail(field, f"{self.grid.name(cell)} is sea")
        return self.grid.name(cell)

    def people(self, p: str, field: str, peoples: tuple[str, ...] | None = None) -> str:
        if p not in PEOPLE_KEYS:
            raise self.fail(field, f"unknown people {p!r} (one of {', '.join(PEOPLE_KEYS)})")
        if peoples is not None and p not in peoples:
            raise self.fail(field, f"the {p} are not in play ({', '.join(peoples) or 'nobody yet'})")
        return p

    def counter(self, ident: str, field: str) -> tuple[str, str]:
        hex_text, label = split_key(ident)
        if label is None or label not in self.tables.units:
            raise self.fail(field, f"{ident!r}: write HEX:LABEL with a counter label")
        return self.hex(hex_text, field), label


def read_position(engine: Rules, tables: ZargoTables, data: object, label: str) -> ZargoState:
    """Returns the state a position file describes.

    Raises:
        PositionError: malformed, or a position the rules cannot reach (names the field).
    """
    pos = validate_file(ZargoPosition, data, label)
    r = _Reader(tables, label)
    peoples = _peoples(r, pos)
    board = _board(r, pos, peoples)
    state = ZargoState(
        tables=tables, phase=pos.phase, players=pos.players, peoples=peoples,
        continents=_continents(r, pos, peoples), ready=tuple(r.people(p, "ready", peoples) for p in pos.ready),
        month=pos.month, active=pos.active, board=board, cities=_cities(r, pos, peoples, board),
        paralysed={r.hex(h, f"paralysed.{h}"): n for h, n in pos.paralysed.items()},
        vanished={r.hex(h, f"vanished.{h}"): (m.label, m.month) for h, m in pos.vanished.items()},
        alliances=_alliances(r, pos, peoples),
        proposal=(pos.proposal[0], pos.proposal[1]) if pos.proposal else None,
        moved={_key(r, k, f"moved.{k}"): tuple(r.hex(h, f"moved.{k}") for h in v) for k, v in pos.moved.items()},
        acted=tuple(_key(r, k, "acted") for k in pos.acted),
        attacks={r.hex(t, f"attacks.{t}"): tuple(_attacker(r, x, f"attacks.{t}") for x in v)
                 for t, v in pos.attacks.items()},
        shots=tuple(Shot(kind=x.kind, source=r.hex(x.source, f"shots[{i}]"), target=r.hex(x.target, f"shots[{i}]"),
                         label=x.label) for i, x in enumerate(pos.shots)),
        eliminated=_eliminated(r, pos),
        reveal_wait=r.hex(pos.reveal_wait, "reveal_wait") if pos.reveal_wait else None,
        carry=(r.hex(pos.carry.hex, "carry.hex"), pos.carry.direction, pos.carry.points) if pos.carry else None,
    )
    _invariants(r, state)
    state = _judge_moves(engine, r, state)
    return _judge_declarations(engine, r, state)


def _key(r: _Reader, ident: str, field: str) -> str:
    hex_name, label = r.counter(ident, field)
    return f"{hex_name}:{label}"


def _attacker(r: _Reader, ident: str, field: str) -> str:
    hex_text, label = split_key(ident)
    return _key(r, ident, field) if label is not None else r.hex(hex_text, field)


def _peoples(r: _Reader, pos: ZargoPosition) -> tuple[str, ...]:
    """PRÉPARATION DU JEU: before the players are known nobody is in play; after, two to four
    players, as many peoples, in turn order."""
    peoples = tuple(r.people(p, "peoples") for p in pos.peoples)
    if pos.phase is Phase.PLAYERS:
        if pos.players or peoples:
            raise r.fail("players", "in the players phase nobody is in play yet (players: 0, no peoples)")
        return peoples
    if not 2 <= pos.players <= 4:
        raise r.fail("players", f"Zargo's Lords is played by 2 to 4 players, not {pos.players}")
    if len(peoples) != pos.players:
        raise r.fail("peoples", f"{pos.players} players play {pos.players} peoples, not {len(peoples)}")
    if list(peoples) != [p for p in r.tables.order if p in peoples]:
        raise r.fail("peoples", f"list the peoples once each, in turn order: {', '.join(r.tables.order)}")
    for field, who in (("active", pos.active), *(("proposal", p) for p in pos.proposal or ())):
        if who is not None:
            r.people(who, field, peoples)
    return peoples


def _continents(r: _Reader, pos: ZargoPosition, peoples: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    known = r.tables.world.continents
    per = 2 if pos.players == 2 else 1
    seen: list[str] = []
    out: dict[str, tuple[str, ...]] = {}
    for p, conts in pos.continents.items():
        r.people(p, f"continents.{p}", peoples)
        for c in conts:
            if c not in known:
                raise r.fail(f"continents.{p}", f"there is no continent {c!r} (the map has {', '.join(known)})")
        if len(conts) != per:
            holds = "two continents" if per == 2 else "one continent"
            raise r.fail(f"continents.{p}", f"with {pos.players} players each people holds {holds}")
        seen += conts
        out[p] = tuple(conts)
    if len(set(seen)) != len(seen):
        raise r.fail("continents", "each continent goes to one people only")
    return out


def _alliances(r: _Reader, pos: ZargoPosition, peoples: tuple[str, ...]) -> tuple[str, ...]:
    """COMMENT ON JOUE (rules.yaml ``alliance-shape``): an alliance joins two different peoples."""
    out = set()
    for i, pair in enumerate(pos.alliances):
        parts = pair.split("+")
        if len(parts) != 2:
            raise r.fail(f"alliances[{i}]", f"{pair!r}: an alliance joins two peoples (written a+b)")
        a, b = (r.people(p, f"alliances[{i}]", peoples) for p in parts)
        if a == b:
            raise r.fail(f"alliances[{i}]", f"{pair!r}: a people cannot be allied with itself")
        out.add("+".join(sorted((a, b))))
    if pos.proposal and "+".join(sorted(pos.proposal)) in out | {f"{pos.proposal[0]}+{pos.proposal[0]}"}:
        raise r.fail("proposal", "an alliance is proposed between two peoples not yet allied")
    return tuple(sorted(out))


def _board(r: _Reader, pos: ZargoPosition, peoples: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    board: dict[str, tuple[str, ...]] = {}
    for h, stack in pos.board.items():
        name = r.hex(h, f"board.{h}")
        if not stack or len(stack) > 2:
            raise r.fail(f"board.{h}", "a hex holds one counter, or an escort and its escorted")
        for lab in stack:
            if lab not in r.tables.units:
                raise r.fail(f"board.{h}", f"unknown counter {lab!r}")
            r.people(r.tables.units[lab].people, f"board.{h}", peoples)
        if name in board:
            raise r.fail(f"board.{h}", f"{name} is written twice")
        board[name] = tuple(stack)
    return board


def _cities(r: _Reader, pos: ZargoPosition, peoples: tuple[str, ...], board: dict[str, tuple[str, ...]]
            ) -> dict[str, City]:
    """PRÉPARATION DU JEU, LA CONQUÊTE D'UNE VILLE: inland on the builder's continent."""
    world = r.tables.world
    cities: dict[str, City] = {}
    for h, c in pos.cities.items():
        field = f"cities.{h}"
        name = r.hex(h, field)
        owner, founder = r.people(c.owner, f"{field}.owner", peoples), r.people(c.founder, f"{field}.founder", peoples)
        cell = r.grid.parse(name)
        if world.coastal(cell):
            raise r.fail(field, f"{name} is on the coast; cities stand inland")
        if founder in pos.continents and world.continent[cell] not in pos.continents[founder]:
            raise r.fail(f"{field}.founder", f"{name} is not on a continent of the {founder}")
        if name in board:
            raise r.fail(field, "a counter stands on the city's hex")
        seal = Commitment(owner=owner, label=f"garrison-{name}", digest=c.commitment) if c.commitment else None
        for g in c.garrison or ():
            if g not in r.tables.units or r.tables.units[g].people != owner:
                raise r.fail(f"{field}.garrison", f"{g!r} is not a counter of the {owner}")
        cities[name] = City(owner=owner, founder=founder, seal=seal,
                            garrison=None if c.garrison is None else tuple(c.garrison))
    return cities


def _eliminated(r: _Reader, pos: ZargoPosition) -> dict[str, int]:
    for lab, n in pos.eliminated.items():
        if lab not in r.tables.units or n < 0:
            raise r.fail(f"eliminated.{lab}", "a counter label and how many of it were lost")
    return dict(pos.eliminated)


def _invariants(r: _Reader, state: ZargoState) -> None:
    """The facts every reachable position keeps: stacks are escorts, no more counters than the box,
    paralysed counters exist, an awaited reveal names a face-down garrison, a Serpent's choice
    waits in the resolution."""
    for h, stack in state.board.items():
        if len(stack) == 2 and not escort_fits(state, stack[0], (stack[1],)):
            raise r.fail(f"board.{h}", "only a foot soldier may stand on a lone non-infantry counter of its people "
                         "(ESCORTES)")
    for lab in state.tables.units:
        if manifest_left(state, lab) < 0:
            raise r.fail("board", f"more {lab} counters than the box holds")
    for h, n in state.paralysed.items():
        if h not in state.board or not 1 <= n <= 3:
            raise r.fail(f"paralysed.{h}", "a counter held in a chasm for 1 to 3 more turns")
    for h, (lab, month) in state.vanished.items():
        u = state.tables.units.get(lab)
        if u is None or "vanish" not in u.powers or u.people not in state.peoples or month > state.month:
            raise r.fail(f"vanished.{h}", "a Monk lord of a people in play, vanished this month or before")
    for h, city in state.cities.items():
        if city.garrison is not None and len(city.garrison) > GARRISON_MAX:
            raise r.fail(f"cities.{h}.garrison", f"at most {GARRISON_MAX} counters")
    if state.reveal_wait is not None:
        awaited = state.cities.get(state.reveal_wait)
        if awaited is None or not awaited.hidden or state.phase is not Phase.REVEAL:
            raise r.fail("reveal_wait", "names no hidden garrison awaited in the reveal phase")
    if state.carry is not None:
        stack = state.board.get(state.carry[0], ())
        if state.phase is not Phase.RESOLVE or not stack or "line-charge" not in state.tables.units[stack[0]].powers:
            raise r.fail("carry", "a Serpent's choice waits in the resolve phase, on the Serpent's hex")
    if state.phase in (Phase.MOVE, Phase.REVEAL, Phase.RESOLVE) and state.active is None:
        raise r.fail("active", "whose turn it is")


def _judge_moves(engine: Rules, r: _Reader, state: ZargoState) -> ZargoState:
    """Each route of ``moved`` is judged as the stated move it stands for, from its start, with
    the other moves of the turn set aside (MOUVEMENTS)."""
    for k, path in state.moved.items():
        hex_name, label = split_key(k)
        stack = state.board.get(hex_name, ())
        field = f"moved.{k}"
        if label not in stack or state.tables.units[str(label)].people != state.active:
            raise r.fail(field, f"no {label} of the {state.active} stands on {hex_name}")
        if not path or path[-1] != hex_name:
            raise r.fail(field, f"the route ends on {hex_name}")
        if len(path) < 2 or state.phase is not Phase.MOVE:
            continue
        together = tuple(lab for lab in stack if state.moved.get(f"{hex_name}:{lab}") == path)
        rest = tuple(lab for lab in stack if lab not in together)
        board = {h: s for h, s in state.board.items() if h != hex_name}
        if rest:
            board[hex_name] = rest
        if path[0] in board:
            if not rest and len(board[path[0]]) == 1 and escort_fits(state, together[0], board[path[0]]):
                board[path[0]] = (*together, *board[path[0]])
            else:
                raise r.fail(field, f"the route starts on {path[0]}, where another counter stands now")
        else:
            board[path[0]] = together
        before = state.model_copy(update={"board": board, "moved": {}, "acted": (), "attacks": {}, "shots": ()})
        move = act.Move(source=path[0], target=hex_name, label=label if rest else None, path=path)
        verdict = engine.judge(before, move)
        if not verdict.legal:
            wrong = verdict.violations[0]
            raise r.fail(field, f"{wrong.message} [{wrong.code}]")
    return state


def _judge_declarations(engine: Rules, r: _Reader, state: ZargoState) -> ZargoState:
    """Declared attacks and shots are judged as if typed now, in order (the same checks as the
    ``attack`` and ``arrow``/``flame``/``vision`` actions); a refused one names its field."""
    if not state.attacks and not state.shots:
        return state
    if state.phase is not Phase.MOVE:
        if state.phase in (Phase.REVEAL, Phase.RESOLVE):
            return state  # a resolution under way: its declarations were judged when typed
        raise r.fail("attacks", "attacks and shots are declared in the movement phase")
    bare = state.model_copy(update={"attacks": {}, "shots": (), "acted": ()})
    declared: list[tuple[str, act.ZargoAction]] = [
        (f"shots[{i}]", act.Shoot(kind=x.kind, source=x.source, target=x.target, label=x.label))
        for i, x in enumerate(state.shots)
    ]
    for t, idents in state.attacks.items():
        for ident in idents:
            hex_name, label = split_key(ident)
            declared.append((f"attacks.{t}", act.Attack(source=hex_name, target=t, label=label)))
    for field, action in declared:
        verdict = engine.judge(bare, action)
        if not verdict.legal:
            wrong = verdict.violations[0]
            raise r.fail(field, f"{wrong.message} [{wrong.code}]")
        bare = engine.apply(bare, action, NoDice()).state
    acted = tuple(dict.fromkeys((*state.acted, *bare.acted)))
    return bare.model_copy(update={"acted": acted})


def setup_texts(state: ZargoState, data: object, label: str) -> list[str]:
    """Returns the actions a set-up file stands for: players and continents, then each people's
    cities, then its counters face up, then ``ready``, in turn order (garrisons are sealed
    privately, never written in a shared file).

    Raises:
        PositionError: the file does not say which people holds which continents, or names a
            people not in play.
    """
    setup = validate_file(SetupFile, data, label)
    if not setup.continents:
        raise PositionError(label, "continents", "a set-up file says which people holds which continents")
    parts = " ".join(f"{p}:{','.join(c)}" for p, c in setup.continents.items())
    texts = [f"players {setup.players} {parts}"]
    order = [p for p in state.tables.order if p in setup.continents]
    unknown = (set(setup.cities) | set(setup.counters)) - set(order)
    if unknown:
        raise PositionError(label, "cities", f"{sorted(unknown)[0]!r} is not a people in play")
    for people in order:
        texts += [f"city {h}" for h in setup.cities.get(people, [])]
        for lab, where in setup.counters.get(people, {}).items():
            texts += [f"{lab} {h}" for h in ([where] if isinstance(where, str) else where)]
        texts.append("ready")
    return texts
