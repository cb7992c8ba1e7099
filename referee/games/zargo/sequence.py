"""Zargo's Lords rules: every check ``judge`` runs and every change ``apply`` makes.

One function per rule; the engine, the position reader and the bot call these, never a copy.
Checks return a list of violations (empty: legal). Sections are cited by their printed headings.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from referee.dice import Dice
from referee.games.zargo import actions as act
from referee.games.zargo.combat import charge_bonus, combat_result, hex_direction, shot_hits
from referee.games.zargo.movement import Mover, Reach, Surroundings, reach, why_not
from referee.games.zargo.rules import (
    ARCHERS,
    CALENDAR,
    CITIES,
    COMBAT,
    COUNTERS,
    DRAGONS,
    ESCORTS,
    FLAMERS,
    ILLUSIONISTS,
    KNIGHTS,
    MONKS,
    MOVEMENT,
    RECONSTRUCTION,
    SERPENTS,
    SETUP,
    TERRAIN,
    TURN,
    WINGED,
)
from referee.games.zargo.state import (
    GARRISON_MAX,
    MONTHS,
    City,
    Occupancy,
    Phase,
    Shot,
    Unit,
    ZargoState,
    terrain_of,
)
from referee.games.zargo.world import Terrain
from referee.geometry.search import Cell
from referee.i18n import N_
from referee.rulings import Ruling
from referee.sealed import Opening, check_reveal, revealed_event, sealed_event

__all__ = ["apply_action", "judge_action"]

PARALYSIS = 3
SHOT_POWERS = {"arrow": ("arrows",), "flame": ("flames", "flames-after-move"), "vision": ("visions",)}

Found = list[Ruling]


# ---- small helpers --------------------------------------------------------------------------


def key(hex_name: str, label: str) -> str:
    """The id of a counter during a turn: its hex and label."""
    return f"{hex_name}:{label}"


def unit(state: ZargoState, label: str) -> Unit:
    """Returns a counter type by label."""
    return state.tables.units[label]


def occ(state: ZargoState) -> Occupancy:
    """Returns the occupancy of a state (cached on the state object)."""
    if _LAST and _LAST[0][0] is state:
        return _LAST[0][1]
    found = Occupancy(state)
    _LAST[:] = [(state, found)]
    return found


_LAST: list[tuple[ZargoState, Occupancy]] = []
"""The last state's occupancy (states are frozen, so it stays right while that state is used)."""


def cell(state: ZargoState, name: str) -> Cell:
    """Returns a hex's cell."""
    return state.tables.world.grid.parse(name)


def adjacent(state: ZargoState, a: str, b: str) -> bool:
    """Whether two hexes touch (side by side, or across a lettered edge; a cloud bridge is a way
    across the sea, not a shared side: rules.yaml ``bridge-adjacency``)."""
    world = state.tables.world
    ca, cb = cell(state, a), cell(state, b)
    if cb not in world.grid.neighbours(ca):
        return False
    return (ca, cb) not in world.bridges and (cb, ca) not in world.bridges


def own_turn(state: ZargoState) -> Found:
    """COMMENT ON JOUE: moves, attacks and shots belong to the people whose turn it is, in the
    movement phase, once any alliance proposal is answered."""
    if state.phase is not Phase.MOVE:
        return [
            Ruling.violation(
                "wrong-phase", "not now: the game is in its {phase} phase", (TURN,), phase=state.phase.value
            )
        ]
    if state.proposal is not None:
        return [
            Ruling.violation(
                "proposal-pending",
                "{people} must first accept or refuse the alliance",
                (TURN,),
                people=state.proposal[1],
            )
        ]
    return []


def active_stack(state: ZargoState, hex_name: str) -> tuple[str, ...] | Found:
    """Returns the active people's stack on a hex, or why it cannot act now (not its turn, no
    counter there, another people's counters): the preamble of every move, attack and shot."""
    out = own_turn(state)
    if out:
        return out
    stack = stack_of(state, hex_name, state.active)
    return [stack] if isinstance(stack, Ruling) else stack


def stack_of(state: ZargoState, hex_name: str, people: str | None) -> tuple[str, ...] | Ruling:
    """Returns the stack on a hex when it belongs to ``people``, else the violation."""
    stack = state.board.get(hex_name)
    if not stack:
        return Ruling.violation("no-counter", "no counter stands on {hex}", (MOVEMENT,), hex=hex_name)
    owner = unit(state, stack[0]).people
    if people is not None and owner != people:
        return Ruling.violation(
            "not-yours",
            "the counters on {hex} belong to the {owner}, not to the {people}",
            (TURN,),
            hex=hex_name,
            owner=owner,
            people=people,
        )
    return stack


def fighters(state: ZargoState, hex_name: str) -> str:
    """ESCORTES: the counter that fights for a stack (the escort)."""
    return state.board[hex_name][0]


def manifest_left(state: ZargoState, label: str) -> int:
    """LES PIONS DU JEU: counters of a type not yet on the board, lost, or shown in a garrison."""
    memo = occ(state).memo
    found = memo.get(("left", label))
    if isinstance(found, int):
        return found
    used = sum(stack.count(label) for stack in state.board.values())
    used += state.eliminated.get(label, 0)
    used += sum((c.garrison or ()).count(label) for c in state.cities.values())
    used += sum(1 for lab, _ in state.vanished.values() if lab == label)
    memo[("left", label)] = left = unit(state, label).count - used
    return left


# ---- players and set-up ---------------------------------------------------------------------


def check_players(state: ZargoState, a: act.Players) -> Found:
    """PRÉPARATION DU JEU: 2 to 4 players; two play two peoples on two continents each, three or
    four one continent each; every continent at most once."""
    if state.phase is not Phase.PLAYERS:
        return [
            Ruling.violation(
                "wrong-phase", "not now: the game is in its {phase} phase", (SETUP,), phase=state.phase.value
            )
        ]
    if not 2 <= a.players <= 4:
        return [
            Ruling.violation("players", "Zargo's Lords is played by 2 to 4 players, not {n}", (SETUP,), n=a.players)
        ]
    if a.assign is None:
        return []
    conts = state.tables.world.continents
    out: Found = []
    peoples = [p for p, _ in a.assign]
    if len(peoples) != a.players or len(set(peoples)) != len(peoples):
        out.append(Ruling.violation("peoples", "{n} players play {n} different peoples", (SETUP,), n=a.players))
    per = 2 if a.players == 2 else 1
    seen: list[str] = []
    for people, cs in a.assign:
        if len(cs) != per:
            out.append(
                Ruling.violation(
                    "continents",
                    "with {n} players each people holds {per} continent(s); {people} has {got}",
                    (SETUP,),
                    n=a.players,
                    per=per,
                    people=people,
                    got=len(cs),
                )
            )
        for c in cs:
            if c not in conts:
                out.append(
                    Ruling.violation(
                        "continent",
                        "there is no continent {c} (the map has {known})",
                        (SETUP,),
                        c=c,
                        known=", ".join(conts),
                    )
                )
            seen.append(c)
    if len(set(seen)) != len(seen):
        out.append(Ruling.violation("continent-twice", "each continent goes to one people only", (SETUP,)))
    return out


def draw_players(state: ZargoState, n: int, dice: Dice) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """PRÉPARATION DU JEU: the peoples (with fewer than four players, rules.yaml ``peoples-in-play``)
    and their continents drawn by lot, one die per draw."""
    peoples = list(state.tables.order)
    while len(peoples) > n:
        gone = dice.roll(1, len(peoples), "people left out").faces[0] - 1
        peoples.pop(gone)
    conts = sorted(state.tables.world.continents)
    per = 2 if n == 2 else 1
    out = []
    for people in peoples:
        mine = []
        for _ in range(per):
            pick = dice.roll(1, len(conts), f"continent of the {people}").faces[0] - 1 if len(conts) > 1 else 0
            mine.append(conts.pop(pick))
        out.append((people, tuple(sorted(mine))))
    return tuple(out)


def all_assignments(state: ZargoState) -> Iterator[act.Players]:
    """Every explicit players action (for legal_actions)."""
    order = state.tables.order
    conts = sorted(state.tables.world.continents)
    for n in (2, 3, 4):
        for peoples in itertools.combinations(order, n):
            if n == 2:
                for first in itertools.combinations(conts, 2):
                    rest = tuple(c for c in conts if c not in first)
                    if len(rest) == 2:
                        yield act.Players(players=2, assign=((peoples[0], first), (peoples[1], rest)))
            else:
                for picks in itertools.permutations(conts, n):
                    yield act.Players(players=n, assign=tuple((p, (c,)) for p, c in zip(peoples, picks, strict=True)))


def own_land(state: ZargoState, people: str, hex_name: str) -> bool:
    """Whether a hex is land of one of the people's continents."""
    world = state.tables.world
    c = cell(state, hex_name)
    return world.continent[c] in state.continents.get(people, ())


def setup_turn(state: ZargoState) -> Found:
    """PRÉPARATION DU JEU: placements happen in set-up, by the people whose set-up it is."""
    if state.phase is not Phase.SETUP or state.active is None:
        return [
            Ruling.violation(
                "wrong-phase", "not now: the game is in its {phase} phase", (SETUP,), phase=state.phase.value
            )
        ]
    return []


def check_city(state: ZargoState, a: act.BuildCity) -> Found:
    """PRÉPARATION DU JEU, LA CONQUÊTE D'UNE VILLE: a city on a free, non-coastal hex of one's own
    continent (not a magic chasm: rules.yaml ``city-terrain``), at most the people's city counters."""
    out = setup_turn(state)
    if out:
        return out
    people = state.active
    assert people is not None
    world = state.tables.world
    c = cell(state, a.hex)
    mine = [h for h, city in state.cities.items() if city.founder == people]
    limit = state.tables.peoples.peoples[people].city_counters  # type: ignore[index]
    if len(mine) >= limit:
        out.append(
            Ruling.violation(
                "cities-full", "the {people} have built their {n} cities", (SETUP,), people=people, n=limit
            )
        )
    if not own_land(state, people, a.hex):
        out.append(
            Ruling.violation(
                "not-own-continent", "{hex} is not on a continent of the {people}", (SETUP,), hex=a.hex, people=people
            )
        )
    elif world.coastal(c):
        out.append(Ruling.violation("coastal-city", "{hex} is on the coast; cities stand inland", (CITIES,), hex=a.hex))
    elif world.terrain[c] is Terrain.CHASM:
        out.append(
            Ruling.violation("chasm-city", "{hex} is a magic chasm; no city stands there", (SETUP, TERRAIN), hex=a.hex)
        )
    if a.hex in state.board or a.hex in state.cities:
        out.append(Ruling.violation("occupied", "{hex} is already taken", (SETUP,), hex=a.hex))
    return out


def check_place(state: ZargoState, a: act.Place) -> Found:
    """PRÉPARATION DU JEU: after the cities, counters face up on one's own continent (mountains,
    woods and chasms too), one per hex except an infantry escort; no more than the box holds."""
    out = setup_turn(state)
    if out:
        return out
    people = state.active
    assert people is not None
    u = unit(state, a.label)
    if u.people != people:
        return [
            Ruling.violation(
                "not-yours",
                "{label} is a counter of the {owner}, not of the {people}",
                (SETUP,),
                label=a.label,
                owner=u.people,
                people=people,
            )
        ]
    built = sum(1 for c in state.cities.values() if c.founder == people)
    if built < state.tables.peoples.peoples[people].city_counters:  # type: ignore[index]
        out.append(Ruling.violation("cities-first", "build the {people}' cities first", (SETUP,), people=people))
    if manifest_left(state, a.label) <= 0:
        out.append(
            Ruling.violation(
                "none-left",
                "every {label} counter is already in play (the box holds {n})",
                (COUNTERS,),
                label=a.label,
                n=u.count,
            )
        )
    if not own_land(state, people, a.hex):
        out.append(
            Ruling.violation(
                "not-own-continent", "{hex} is not on a continent of the {people}", (SETUP,), hex=a.hex, people=people
            )
        )
    if a.hex in state.cities:
        out.append(
            Ruling.violation("city-hex", "{hex} holds a city; its garrison is sealed, not placed", (CITIES,), hex=a.hex)
        )
    stack = state.board.get(a.hex)
    if stack and not escort_fits(state, a.label, stack):
        out.append(
            Ruling.violation(
                "stacking",
                "{hex} already holds a counter; only a foot soldier may stand on a lone "
                "non-infantry counter as its escort",
                (ESCORTS,),
                hex=a.hex,
            )
        )
    return out


def escort_fits(state: ZargoState, label: str, stack: tuple[str, ...]) -> bool:
    """ESCORTES: a foot soldier may join a lone own counter that is not infantry."""
    u = unit(state, label)
    if not u.infantry or len(stack) != 1:
        return False
    other = unit(state, stack[0])
    return other.people == u.people and not other.infantry


def check_ready(state: ZargoState) -> Found:
    """PRÉPARATION DU JEU: a people's set-up ends once its cities stand."""
    out = setup_turn(state)
    if out:
        return out
    people = state.active
    built = sum(1 for c in state.cities.values() if c.founder == people)
    need = state.tables.peoples.peoples[people].city_counters  # type: ignore[index]
    if built < need:
        out.append(
            Ruling.violation(
                "cities-missing",
                "the {people} have built {n} of their {need} cities",
                (SETUP,),
                people=str(people),
                n=built,
                need=need,
            )
        )
    return out


def check_start(state: ZargoState) -> Found:
    """LE CALENDRIER: the first month begins once every people has set up."""
    if state.phase is not Phase.SETUP or state.active is not None:
        return [Ruling.violation("not-set-up", "every people must finish its set-up first", (SETUP, CALENDAR))]
    return []


def check_seal(state: ZargoState, a: act.SealGarrison) -> Found:
    """PRÉPARATION DU JEU: a garrison is sealed face down during set-up, once per city, by its owner."""
    p = a.public
    if state.phase is not Phase.SETUP:
        return [
            Ruling.violation(
                "wrong-phase",
                "garrisons are sealed during set-up, not in the {phase} phase",
                (SETUP,),
                phase=state.phase.value,
            )
        ]
    if p.owner not in state.peoples:
        return [Ruling.violation("not-playing", "{owner} is not a people in play", (SETUP,), owner=p.owner)]
    hex_name = p.label.removeprefix("garrison-")
    city = state.cities.get(hex_name)
    if not p.label.startswith("garrison-") or city is None:
        return [
            Ruling.violation(
                "no-city",
                "a garrison is sealed as garrison-HEX for a city; {label} names none",
                (CITIES,),
                label=p.label,
            )
        ]
    if city.owner != p.owner:
        return [
            Ruling.violation(
                "not-yours", "the city on {hex} belongs to the {owner}", (CITIES,), hex=hex_name, owner=city.owner
            )
        ]
    if city.seal is not None:
        return [Ruling.violation("sealed-twice", "the garrison of {hex} is already sealed", (CITIES,), hex=hex_name)]
    return []


def garrison_problem(state: ZargoState, owner: str, secret: object) -> Ruling | None:
    """LA CONQUÊTE D'UNE VILLE: a garrison is a list of at most four counters of the owner's
    people, no more of a type than the box holds."""
    if not isinstance(secret, list) or not all(isinstance(x, str) for x in secret):
        return Ruling.violation(
            "garrison-form", 'a garrison is a list of counter labels, e.g. ["FMo", "MCh"]', (CITIES,)
        )
    if len(secret) > GARRISON_MAX:
        return Ruling.violation(
            "garrison-too-big",
            "a garrison holds at most {max} counters, not {n}",
            (CITIES,),
            max=GARRISON_MAX,
            n=len(secret),
        )
    for label in secret:
        u = state.tables.units.get(label)
        if u is None or u.people != owner:
            return Ruling.violation(
                "garrison-label", "{label} is not a counter of the {owner}", (CITIES,), label=label, owner=owner
            )
    for label in set(secret):
        if secret.count(label) > manifest_left(state, label):
            return Ruling.violation(
                "garrison-manifest",
                "the garrison holds more {label} than are left in the box",
                (COUNTERS,),
                label=label,
            )
    return None


def check_reveal_garrison(state: ZargoState, a: act.RevealGarrison) -> Found:
    """LA CONQUÊTE D'UNE VILLE: the attacked city's owner shows its garrison; it must open the seal."""
    if state.phase is not Phase.REVEAL or state.reveal_wait is None:
        return [Ruling.violation("no-reveal", "no garrison is awaited now", (CITIES,))]
    city = state.cities[state.reveal_wait]
    if a.owner != city.owner or a.label != f"garrison-{state.reveal_wait}":
        return [
            Ruling.violation(
                "wrong-reveal",
                "the garrison of {hex} ({owner}) is awaited",
                (CITIES,),
                hex=state.reveal_wait,
                owner=city.owner,
            )
        ]
    wrong = check_reveal(city.seal, Opening(a.owner, a.label, bytes.fromhex(a.salt), a.secret), (CITIES,))
    if wrong is not None:
        return [wrong]
    problem = garrison_problem(state, a.owner, a.secret)
    return [problem] if problem else []


# ---- alliances ------------------------------------------------------------------------------


def turn_untouched(state: ZargoState) -> bool:
    """Whether the active people has done nothing yet this turn (alliance phase)."""
    return not (state.moved or state.acted or state.attacks or state.shots)


def check_alliance(state: ZargoState, a: act.Alliance) -> Found:
    """COMMENT ON JOUE: alliances are proposed (or broken) first thing in a turn."""
    out = own_turn(state)
    if out:
        return out
    me = state.active
    assert me is not None
    if not turn_untouched(state):
        out.append(Ruling.violation("alliance-late", "alliances come first in a turn, before any move", (TURN,)))
    if a.people not in state.peoples or a.people == me:
        out.append(
            Ruling.violation("alliance-people", "{people} is not another people in play", (TURN,), people=a.people)
        )
    elif a.verb == "ally" and state.allied(me, a.people):
        out.append(
            Ruling.violation(
                "already-allied", "the {me} and the {people} are already allies", (TURN,), me=me, people=a.people
            )
        )
    elif a.verb == "break" and not state.allied(me, a.people):
        out.append(
            Ruling.violation("not-allied", "the {me} and the {people} are not allies", (TURN,), me=me, people=a.people)
        )
    return out


def check_answer(state: ZargoState) -> Found:
    """COMMENT ON JOUE: a proposed alliance is accepted or refused by the people it was offered to."""
    if state.phase is not Phase.MOVE or state.proposal is None:
        return [Ruling.violation("no-proposal", "no alliance is proposed now", (TURN,))]
    return []


# ---- movement -------------------------------------------------------------------------------


def moving(state: ZargoState, a: act.Move) -> tuple[tuple[str, ...], Mover] | Found:
    """Returns the labels that move and their :class:`Mover`, or the violations."""
    out: Found = []
    stack = active_stack(state, a.source)
    if not isinstance(stack, tuple):
        return stack
    if a.label is not None:
        if a.label not in stack:
            return [
                Ruling.violation("not-there", "no {label} stands on {hex}", (MOVEMENT,), label=a.label, hex=a.source)
            ]
        if len(stack) == 1:
            return [
                Ruling.violation(
                    "lone-counter",
                    "{label} stands alone on {hex}: move it as {hex} TO",
                    (MOVEMENT,),
                    label=a.label,
                    hex=a.source,
                )
            ]
        labels: tuple[str, ...] = (a.label,)
    else:
        labels = stack
    for label in labels:
        k = key(a.source, label)
        if k in state.moved:
            out.append(
                Ruling.violation(
                    "moved-twice",
                    "{label} on {hex} has already moved this turn",
                    (MOVEMENT,),
                    label=label,
                    hex=a.source,
                )
            )
        elif k in state.acted and not _flames_before(state, label):
            out.append(
                Ruling.violation(
                    "already-engaged",
                    "{label} on {hex} has declared an attack or a shot and stays put",
                    (COMBAT, FLAMERS),
                    label=label,
                    hex=a.source,
                )
            )
    if a.source in state.paralysed:
        out.append(
            Ruling.violation(
                "paralysed",
                "{hex} is held in a magic chasm for {n} more turn(s)",
                (TERRAIN,),
                hex=a.source,
                n=state.paralysed[a.source],
            )
        )
    if out:
        return out
    units = [unit(state, lab) for lab in labels]
    flies = len(labels) == 1 and units[0].flies
    points = min(u.move for u in units)
    return labels, Mover(cell(state, a.source), points, flies)


def _flames_before(state: ZargoState, label: str) -> bool:
    """DRAGONS: a Dragon lord may burn before moving (a flame-thrower only after)."""
    return "flames" in unit(state, label).powers


def surroundings(state: ZargoState, labels: tuple[str, ...]) -> Surroundings:
    """What the moving counters meet: enemies, friends, zones, and where an escort may join."""
    o = occ(state)
    people = unit(state, labels[0]).people
    escort = len(labels) == 1 and unit(state, labels[0]).infantry
    memo_key = ("around", f"{people}:{labels[0] if escort else ''}")
    found = o.memo.get(memo_key)
    if isinstance(found, Surroundings):
        return found
    stack_ok: frozenset[Cell] = frozenset()
    if escort:
        stack_ok = frozenset(
            cell(state, h)
            for h, stack in state.board.items()
            if h not in state.paralysed and escort_fits(state, labels[0], stack)
        )
    o.memo[memo_key] = around = Surroundings(
        enemies=o.enemies_of(people), friends=o.friends_of(people), zones=o.zones_against(people), stack_ok=stack_ok
    )
    return around


def check_move(state: ZargoState, a: act.Move) -> Found:
    """MOUVEMENTS (general and terrain), COMBAT (zones), ESCORTES, AILÉS: one move of a counter or
    an escorted stack, by the search of :mod:`movement`."""
    found = moving(state, a)
    if isinstance(found, list):
        return found
    labels, mover = found
    goal = cell(state, a.target)
    if goal in reach_of(state, a.source, labels, mover).ends:
        return []
    reason = why_not(state.tables.world, mover, surroundings(state, labels), goal)
    if reason is None:  # pragma: no cover - why_not agrees with reach (both ask the one search)
        return []
    cites = (MOVEMENT, TERRAIN, COMBAT) + ((WINGED,) if mover.flies else ()) + ((ESCORTS,) if len(labels) > 1 else ())
    return [
        Ruling.violation(
            "move-refused",
            "{what} cannot end on {hex}: {reason}",
            cites,
            what=" + ".join(labels),
            hex=a.target,
            reason=reason,
        )
    ]


def destinations(state: ZargoState, source: str, label: str | None) -> list[str]:
    """Every hex a move from ``source`` may end on (the same search as :func:`check_move`)."""
    found = moving(state, act.Move(source=source, target=source, label=label))
    if isinstance(found, list):
        return []
    labels, mover = found
    ends = reach_of(state, source, labels, mover).ends
    grid = state.tables.world.grid
    return sorted(grid.name(c) for c in ends)


def reach_of(state: ZargoState, source: str, labels: tuple[str, ...], mover: Mover) -> Reach:
    """The search of :func:`movement.reach` for these counters, done once per state."""
    memo = occ(state).memo
    found = memo.get(("reach", f"{source}:{'+'.join(labels)}"))
    if not isinstance(found, Reach):
        found = reach(state.tables.world, mover, surroundings(state, labels))
        memo[("reach", f"{source}:{'+'.join(labels)}")] = found
    return found


# ---- attacks and shots ----------------------------------------------------------------------


def attackable(state: ZargoState, people: str, target: str) -> Ruling | None:
    """COMBAT, TERRAIN: whether an enemy stands on ``target`` that may be attacked."""
    owner = state.people_of(target)
    if owner is None:
        return Ruling.violation("no-target", "nothing to attack on {hex}", (COMBAT,), hex=target)
    if state.allied(owner, people):
        return Ruling.violation(
            "friendly-target", "{hex} holds the {owner}, own or allied", (COMBAT, TURN), hex=target, owner=owner
        )
    if target in state.paralysed:
        return Ruling.violation(
            "paralysed-target", "{hex} is held in a magic chasm and cannot be attacked", (TERRAIN,), hex=target
        )
    return None


def engaged(state: ZargoState, hex_name: str) -> Found:
    """A counter attacks or shoots once a turn, and not while held in a chasm."""
    out: Found = []
    if any(k.startswith(hex_name + ":") for k in state.acted):
        out.append(
            Ruling.violation(
                "acted-twice", "the counter on {hex} has already attacked or shot this turn", (COMBAT,), hex=hex_name
            )
        )
    if hex_name in state.paralysed:
        out.append(
            Ruling.violation(
                "paralysed",
                "{hex} is held in a magic chasm for {n} more turn(s)",
                (TERRAIN,),
                hex=hex_name,
                n=state.paralysed[hex_name],
            )
        )
    return out


def check_attack(state: ZargoState, a: act.Attack) -> Found:
    """COMBAT: the attacker stands next to its target (its zone) and declares; the escort fights."""
    out: Found = []
    stack = active_stack(state, a.source)
    if not isinstance(stack, tuple):
        return stack
    out += engaged(state, a.source)
    if not adjacent(state, a.source, a.target):
        out.append(
            Ruling.violation(
                "not-adjacent",
                "{target} is not next to {source}; move next to it first",
                (COMBAT,),
                target=a.target,
                source=a.source,
            )
        )
    wrong = attackable(state, str(state.active), a.target)
    if wrong is not None:
        out.append(wrong)
    return out


def check_shot(state: ZargoState, a: act.Shoot) -> Found:
    """Arrows (straight hex rows), flames (any hex within the radius) and visions, instead of a
    combat; never at a city; an escorted counter has no power."""
    cites = {"arrow": (ARCHERS,), "flame": (DRAGONS, FLAMERS), "vision": (ILLUSIONISTS,)}[a.kind]
    out: Found = []
    stack = active_stack(state, a.source)
    if not isinstance(stack, tuple):
        return stack
    shooter = unit(state, stack[0])
    if len(stack) != 1:
        out.append(
            Ruling.violation(
                "escorted-power", "the counter on {hex} is escorted and has no power", (ESCORTS,), hex=a.source
            )
        )
    if not set(SHOT_POWERS[a.kind]) & set(shooter.powers):
        out.append(Ruling.violation("no-power", "{label} cannot throw {kind}", cites, label=shooter.label, kind=a.kind))
    out += engaged(state, a.source)
    if a.target in state.cities and a.target not in state.board:
        out.append(Ruling.violation("city-immune", "arrows, flames and visions do not touch a city", (CITIES,)))
    else:
        wrong = attackable(state, str(state.active), a.target)
        if wrong is not None:
            out.append(wrong)
    if out:
        return out
    grid = state.tables.world.grid
    d = grid.distance(cell(state, a.source), cell(state, a.target))
    limit = min(shooter.range or 0, _table(state, a.kind).max_range)
    if d > limit:
        out.append(
            Ruling.violation(
                "out-of-range",
                "{target} is {d} hexes away; {label} reaches {limit}",
                (*cites, RECONSTRUCTION),
                target=a.target,
                d=d,
                label=shooter.label,
                limit=limit,
            )
        )
    straight = hex_direction(grid, cell(state, a.source), cell(state, a.target)) is not None
    if a.kind == "arrow" and state.tables.choice("arrow-line") == "six-directions" and not straight:
        out.append(
            Ruling.violation(
                "not-straight",
                "{target} is not on a straight hex row from {source}",
                cites,
                target=a.target,
                source=a.source,
            )
        )
    return out


def _table(state: ZargoState, kind: str):  # type: ignore[no-untyped-def]
    t = state.tables.tables
    return {"arrow": t.arrows, "flame": t.flames, "vision": t.visions}[kind]


def check_vanish(state: ZargoState, a: act.Vanish) -> Found:
    """MOINES: a Monk lord that has not moved vanishes; that is its whole turn."""
    out: Found = []
    stack = active_stack(state, a.hex)
    if not isinstance(stack, tuple):
        return stack
    if len(stack) != 1 or "vanish" not in unit(state, stack[0]).powers:
        return [Ruling.violation("cannot-vanish", "only a lone Monk lord may vanish", (MONKS,))]
    if key(a.hex, stack[0]) in state.moved:
        out.append(Ruling.violation("moved-then-vanish", "a Monk that moved cannot vanish in the same turn", (MONKS,)))
    out += engaged(state, a.hex)
    return out


def appear_reach(state: ZargoState, marker: str) -> list[str]:
    """MOINES: where a vanished Monk may reappear: within its move, over anything but open sea
    (bridges aside) and chasms, on a free hex."""
    label, _ = state.vanished[marker]
    world = state.tables.world
    o = occ(state)
    start = cell(state, marker)

    def enter(c: Cell) -> bool:
        return world.terrain[c] not in (Terrain.SEA, Terrain.CHASM)

    found = world.grid.search(start, unit(state, label).move, enter, lambda c: True)
    return sorted(
        world.grid.name(c)
        for c in found.distance
        if c != start and o.land_free(c) and world.grid.name(c) not in state.vanished
    ) + ([marker] if o.land_free(start) else [])


def check_appear(state: ZargoState, a: act.Appear) -> Found:
    """MOINES: a Monk vanished in an earlier month reappears within its move."""
    out = own_turn(state)
    if out:
        return out
    found = state.vanished.get(a.marker)
    if found is None:
        return [Ruling.violation("no-marker", "no vanished Monk's marker lies on {hex}", (MONKS,), hex=a.marker)]
    label, month = found
    if unit(state, label).people != state.active:
        return [
            Ruling.violation(
                "not-yours",
                "the marker on {hex} belongs to the {owner}",
                (MONKS,),
                hex=a.marker,
                owner=unit(state, label).people,
            )
        ]
    if month >= state.month:
        out.append(Ruling.violation("vanished-now", "a Monk reappears the month after it vanished", (MONKS,)))
    elif a.target not in appear_reach(state, a.marker):
        out.append(
            Ruling.violation(
                "appear-far", "{hex} is out of the Monk's reach, or not a free land hex", (MONKS,), hex=a.target
            )
        )
    return out


def check_resolve(state: ZargoState) -> Found:
    """COMMENT ON JOUE: the third phase, shots then combats, closes the turn (and goes on after a
    garrison's reveal)."""
    if state.phase is Phase.RESOLVE:
        return []
    return own_turn(state)


# ---- judge ----------------------------------------------------------------------------------


def judge_action(state: ZargoState, a: act.ZargoAction) -> tuple[Found, tuple[str, ...]]:
    """Returns the violations of an action and the interpretations the ruling relies on."""
    t = state.tables
    if state.phase is Phase.OVER:
        return [Ruling.violation("game-over", "the game is over", (CALENDAR,))], ()
    if isinstance(a, act.Players):
        few = ("peoples-in-play",) if a.players < 4 else ()
        return check_players(state, a), t.disclose(*few, *(("two-players",) if a.players == 2 else ()))
    if isinstance(a, act.BuildCity):
        return check_city(state, a), t.disclose("city-terrain")
    if isinstance(a, act.Place):
        return check_place(state, a), ()
    if isinstance(a, act.Word):
        if a.word == "ready":
            return check_ready(state), t.disclose("setup-order")
        if a.word == "start":
            return check_start(state), ()
        if a.word in ("accept", "refuse"):
            return check_answer(state), ()
        return check_resolve(state), ()
    if isinstance(a, act.Alliance):
        return check_alliance(state, a), ()
    if isinstance(a, act.Move):
        used: list[str] = []
        if a.source in state.board and terrain_of(state, a.source) is Terrain.MOUNTAINS:
            used.append("mountain-descent")
        if a.label is None and len(state.board.get(a.source, ())) == 2:
            used.append("escort-move")
        target = cell(state, a.target)
        if a.source in state.board and target in occ(state).zones_against(unit(state, state.board[a.source][0]).people):
            used.append("zone-entry")
        if t.world.terrain[target] is Terrain.CHASM:
            used.append("paralysis-count")
        if any(t.world.grid.name(n) in state.cities for n in t.world.grid.neighbours(target)):
            used.append("city-zone")
        return check_move(state, a), t.disclose(*used)
    if isinstance(a, act.Attack):
        ends = {h for pair in t.world.bridges for h in pair}
        across = ends & {cell(state, a.source), cell(state, a.target)}
        return check_attack(state, a), t.disclose("bridge-adjacency") if across else ()
    if isinstance(a, act.Shoot):
        extra = ("arrow-line", "archer-ranges", "shots-plane") if a.kind == "arrow" else ("shots-plane",)
        return check_shot(state, a), (*t.disclose(*extra), "provisional: ranges (peoples.yaml)")
    if isinstance(a, act.Vanish):
        return check_vanish(state, a), ()
    if isinstance(a, act.Appear):
        return check_appear(state, a), ()
    if isinstance(a, act.SealGarrison):
        return check_seal(state, a), ()
    if isinstance(a, act.RevealGarrison):
        return check_reveal_garrison(state, a), ()
    raise TypeError(f"not a Zargo action: {a!r}")


# ---- apply ----------------------------------------------------------------------------------


class Turn:
    """A mutable working copy of a state's changing parts, frozen again by :meth:`state`."""

    def __init__(self, state: ZargoState) -> None:
        self.base = state
        self.board = dict(state.board)
        self.cities = dict(state.cities)
        self.paralysed = dict(state.paralysed)
        self.eliminated = dict(state.eliminated)
        self.events: list[Ruling] = []
        self.provisional: list[str] = []
        self.update: dict[str, object] = {}

    def remove(self, hex_name: str, label: str) -> None:
        stack = list(self.board[hex_name])
        stack.remove(label)
        if stack:
            self.board[hex_name] = tuple(stack)
        else:
            del self.board[hex_name]
            self.paralysed.pop(hex_name, None)

    def eliminate(self, hex_name: str, label: str, why: str) -> None:
        self.remove(hex_name, label)
        self.eliminated[label] = self.eliminated.get(label, 0) + 1
        self.events.append(
            Ruling.event(
                "eliminated", "{label} on {hex} is eliminated ({why})", (COMBAT,), label=label, hex=hex_name, why=why
            )
        )

    def state(self) -> ZargoState:
        return self.base.model_copy(
            update={
                "board": self.board,
                "cities": self.cities,
                "paralysed": self.paralysed,
                "eliminated": self.eliminated,
                **self.update,
            }
        )


def apply_action(state: ZargoState, a: act.ZargoAction, dice: Dice) -> tuple[ZargoState, list[Ruling], list[str]]:
    """Returns the state after a legal action, its events and the provisional values used."""
    w = Turn(state)
    if isinstance(a, act.Players):
        assign = a.assign if a.assign is not None else draw_players(state, a.players, dice)
        order = state.tables.order
        peoples = tuple(p for p in order if p in dict(assign))
        w.update = {
            "phase": Phase.SETUP,
            "players": a.players,
            "peoples": peoples,
            "continents": dict(assign),
            "active": peoples[0],
        }
        for p, cs in assign:
            w.events.append(
                Ruling.event("continents", "the {people} hold continent(s) {cs}", (SETUP,), people=p, cs=", ".join(cs))
            )
    elif isinstance(a, act.BuildCity):
        people = str(state.active)
        w.cities[a.hex] = City(owner=people, founder=people)
    elif isinstance(a, act.Place):
        w.board[a.hex] = (a.label, *w.board.get(a.hex, ()))
    elif isinstance(a, act.Word) and a.word == "ready":
        ready = (*state.ready, str(state.active))
        left = [p for p in state.peoples if p not in ready]
        w.update = {"ready": ready, "active": left[0] if left else None}
    elif isinstance(a, act.Word) and a.word == "start":
        w.update = {"phase": Phase.MOVE, "month": 1, "active": state.peoples[0]}
        w.events.append(month_event(1, state.peoples[0]))
    elif isinstance(a, act.Word) and a.word in ("accept", "refuse"):
        assert state.proposal is not None
        a_, b_ = state.proposal
        if a.word == "accept":
            w.update = {"alliances": tuple(sorted({*state.alliances, "+".join(sorted((a_, b_)))})), "proposal": None}
            w.events.append(Ruling.event("allied", "the {a} and the {b} are allies", (TURN,), a=a_, b=b_))
        else:
            w.update = {"proposal": None}
            w.events.append(Ruling.event("alliance-refused", "the {b} refuse the {a}' alliance", (TURN,), a=a_, b=b_))
    elif isinstance(a, act.Alliance):
        me = str(state.active)
        if a.verb == "ally":
            w.update = {"proposal": (me, a.people)}
        else:
            pair = "+".join(sorted((me, a.people)))
            w.update = {"alliances": tuple(x for x in state.alliances if x != pair)}
            w.events.append(
                Ruling.event("alliance-broken", "the {a} break their alliance with the {b}", (TURN,), a=me, b=a.people)
            )
    elif isinstance(a, act.Move):
        _apply_move(state, a, w)
    elif isinstance(a, act.Attack):
        labels = state.board[a.source]
        w.update = {
            "attacks": {**state.attacks, a.target: (*state.attacks.get(a.target, ()), a.source)},
            "acted": (*state.acted, *(key(a.source, lab) for lab in labels)),
        }
    elif isinstance(a, act.Shoot):
        w.update = {
            "shots": (*state.shots, Shot(kind=a.kind, source=a.source, target=a.target)),
            "acted": (*state.acted, key(a.source, state.board[a.source][0])),
        }
    elif isinstance(a, act.Vanish):
        label = state.board[a.hex][0]
        w.remove(a.hex, label)
        w.update = {"vanished": {**state.vanished, a.hex: (label, state.month)}}
        w.events.append(Ruling.event("vanished", "the Monk on {hex} vanishes; its marker stays", (MONKS,), hex=a.hex))
    elif isinstance(a, act.Appear):
        label, _ = state.vanished[a.marker]
        w.board[a.target] = (label,)
        w.update = {"vanished": {k: v for k, v in state.vanished.items() if k != a.marker}}
        w.events.append(Ruling.event("appeared", "the Monk reappears on {hex}", (MONKS,), hex=a.target))
    elif isinstance(a, act.SealGarrison):
        hex_name = a.public.label.removeprefix("garrison-")
        w.cities[hex_name] = w.cities[hex_name].model_copy(update={"seal": a.public, "garrison": None})
        w.events.append(sealed_event(a.public, (CITIES,)))
    elif isinstance(a, act.RevealGarrison):
        hex_name = str(state.reveal_wait)
        assert isinstance(a.secret, list)
        w.cities[hex_name] = w.cities[hex_name].model_copy(update={"garrison": tuple(str(x) for x in a.secret)})
        w.update = {"phase": Phase.RESOLVE, "reveal_wait": None}
        w.events.append(revealed_event(Opening(a.owner, a.label, bytes.fromhex(a.salt), a.secret), (CITIES,)))
    elif isinstance(a, act.Word) and a.word == "resolve":
        return _resolve(state, dice, [], [])
    else:  # pragma: no cover - judge refuses everything else
        raise TypeError(f"not a Zargo action: {a!r}")
    return w.state(), w.events, w.provisional


def _apply_move(state: ZargoState, a: act.Move, w: Turn) -> None:
    found = moving(state, a)
    assert not isinstance(found, list)
    labels, mover = found
    result = reach_of(state, a.source, labels, mover)
    grid = state.tables.world.grid
    path = tuple(grid.name(c) for c in result.path(cell(state, a.target)))
    for label in labels:
        w.remove(a.source, label)
    w.board[a.target] = (
        (*w.board.get(a.target, ()), *labels) if a.target not in w.board else (*labels, *w.board[a.target])
    )  # an escort goes first
    moved = dict(state.moved.items())
    acted = list(state.acted)
    for label in labels:
        moved[key(a.target, label)] = path
        old = key(a.source, label)
        if old in acted:  # a Dragon lord that burned first, then moved
            acted[acted.index(old)] = key(a.target, label)
    # the counter left behind keeps its own record under the same hex
    w.update = {"moved": moved, "acted": tuple(acted)}
    if state.tables.world.terrain[cell(state, a.target)] is Terrain.CHASM and not mover.flies:
        w.paralysed[a.target] = PARALYSIS
        w.events.append(
            Ruling.event(
                "paralysed",
                "{hex} is a magic chasm: held for {n} turns, safe from attack",
                (TERRAIN,),
                hex=a.target,
                n=PARALYSIS,
            )
        )
    elif state.tables.world.terrain[cell(state, a.target)] is Terrain.CHASM:
        w.paralysed[a.target] = PARALYSIS
        w.events.append(
            Ruling.event(
                "paralysed",
                "{hex} is a magic chasm: held for {n} turns, safe from attack",
                (TERRAIN, WINGED),
                hex=a.target,
                n=PARALYSIS,
            )
        )


def month_event(month: int, first: str) -> Ruling:
    """LE CALENDRIER: the month crossed off before the first people moves."""
    return Ruling.event(
        "month",
        "month {month} of {months} begins (the {first} move first)",
        (CALENDAR, TURN),
        month=month,
        months=MONTHS,
        first=first,
    )


# ---- resolution -----------------------------------------------------------------------------


def _die(dice: Dice, purpose: str) -> int:
    return dice.roll(1, 6, purpose).faces[0]


def _bonus(state: ZargoState, hex_name: str, people: str) -> int:
    """rules.yaml ``sorcerer-bonus``: +1 to a counter next to a friendly sorcerer (not illusionists)."""
    if state.tables.choice("sorcerer-bonus") != "plus-one-adjacent":
        return 0
    grid = state.tables.world.grid
    for n in grid.neighbours(cell(state, hex_name)):
        stack = state.board.get(grid.name(n))
        if stack and len(stack) == 1:
            u = unit(state, stack[0])
            if u.people == people and "sorcerer-bonus" in u.powers:
                return 1
    return 0


def _retreat(state: ZargoState, w: Turn, hex_name: str, steps: int, away: list[str], why: str) -> str | None:
    """Moves a stack ``steps`` hexes away from ``away`` (rules.yaml ``retreat-path``: each step to
    the first free plain hex farther from all of them); a stack that meets only sea, woods,
    mountains, chasms, cities or counters is eliminated (``retreat-obstacles``). Returns its hex."""
    world = state.tables.world
    grid = world.grid
    far = [cell(state, h) for h in away]
    here = cell(state, hex_name)
    labels = w.board[hex_name]
    for _ in range(steps):
        now = min(grid.distance(here, f) for f in far)
        nxt = None
        for n in grid.neighbours(here):
            if (here, n) in world.bridges or (n, here) in world.bridges:
                continue
            if min(grid.distance(n, f) for f in far) <= now:
                continue
            name = grid.name(n)
            if world.terrain[n] is Terrain.PLAIN and name not in w.board and name not in w.cities:
                nxt = n
                break
        if nxt is None:
            for label in list(labels):
                w.eliminate(grid.name(here), label, why)
            return None
        name_here, name_next = grid.name(here), grid.name(nxt)
        w.board[name_next] = w.board.pop(name_here)
        here = nxt
    w.events.append(
        Ruling.event(
            "retreat",
            "{what} retreat(s) from {start} to {end}",
            (COMBAT,),
            what=" + ".join(labels),
            start=hex_name,
            end=grid.name(here),
        )
    )
    return grid.name(here)


def _lose_fighter(state: ZargoState, w: Turn, hex_name: str, away: list[str], why: str) -> None:
    """ESCORTES: the escort dies; the escorted counter retreats its full move (obstacles kill)."""
    stack = w.board.get(hex_name)
    if not stack:
        return
    w.eliminate(hex_name, stack[0], why)
    rest = w.board.get(hex_name)
    if rest:
        w.provisional.append(state.tables.rules.interpretation("retreat-path").label())
        _retreat(state, w, hex_name, unit(state, rest[0]).move, away, why)


def _resolve(
    state: ZargoState, dice: Dice, events: list[Ruling], provisional: list[str]
) -> tuple[ZargoState, list[Ruling], list[str]]:
    """COMMENT ON JOUE: shots first, then the combats one by one; a city whose garrison is sealed
    stops the resolution until its owner reveals it; then the next people's turn."""
    w = Turn(state)
    w.events = events
    w.provisional = [*provisional, RECONSTRUCTION_NOTE] if (state.shots or state.attacks) else list(provisional)
    _resolve_shots(state, w, dice)
    attacks = dict(state.attacks)
    for target in list(attacks):
        now = w.state()
        hidden = target in now.cities and target not in now.board and now.cities[target].hidden
        if hidden and any(h in now.board for h in attacks[target]):
            w.update = {"attacks": attacks, "shots": (), "phase": Phase.REVEAL, "reveal_wait": target}
            w.events.append(
                Ruling.event(
                    "reveal-awaited",
                    "the {owner} must reveal the garrison of {hex}",
                    (CITIES,),
                    owner=now.cities[target].owner,
                    hex=target,
                )
            )
            return w.state(), w.events, _unique(w.provisional)
        attackers = attacks.pop(target)
        _combat(now, w, dice, target, attackers)
    w.update = {"attacks": {}, "shots": ()}
    new = _end_turn(w.state(), w.events)
    if any(e.code == "all-cities" for e in w.events):
        w.provisional.append(state.tables.rules.interpretation("early-end").label())
    return new, w.events, _unique(w.provisional)


RECONSTRUCTION_NOTE = "provisional: combat, arrow, flame and vision tables (tables.yaml)"


def _unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _resolve_shots(state: ZargoState, w: Turn, dice: Dice) -> None:
    grid = state.tables.world.grid
    tables = state.tables.tables
    flames: dict[str, list[Shot]] = {}
    for shot in state.shots:
        if shot.kind == "flame":
            flames.setdefault(shot.target, []).append(shot)
    done_flames: set[str] = set()
    for shot in state.shots:
        stack = w.board.get(shot.target)
        owner = unit(state, stack[0]).people if stack else None
        if not stack or owner == state.active:
            continue
        if shot.kind == "flame":
            if shot.target in done_flames:
                continue
            done_flames.add(shot.target)
            group = flames[shot.target]
            d = min(grid.distance(cell(state, s.source), cell(state, shot.target)) for s in group)
            extra = (tables.flames.extra_flame_modifier or 0) * (len(group) - 1)
            die = _die(dice, f"flames at {shot.target}")
            hit = shot_hits(tables.flames, d, die, extra)
            w.provisional.append(state.tables.rules.interpretation("flames-add-up").label())
            w.events.append(
                Ruling.event(
                    "flames",
                    "{n} flame(s) at {hex}, {d} hex(es): die {die} + {extra}: {result}",
                    (DRAGONS, FLAMERS),
                    n=len(group),
                    hex=shot.target,
                    d=d,
                    die=die,
                    extra=extra,
                    result=N_("hit") if hit else N_("missed"),
                )
            )
            if hit:
                _lose_fighter(state, w, shot.target, [s.source for s in group], N_("burnt"))
        elif shot.kind == "arrow":
            d = grid.distance(cell(state, shot.source), cell(state, shot.target))
            die = _die(dice, f"arrow at {shot.target}")
            hit = shot_hits(tables.arrows, d, die)
            w.events.append(
                Ruling.event(
                    "arrow",
                    "arrow from {src} at {hex}, {d} hex(es): die {die}: {result}",
                    (ARCHERS,),
                    src=shot.source,
                    hex=shot.target,
                    d=d,
                    die=die,
                    result=N_("hit") if hit else N_("missed"),
                )
            )
            if hit:
                _lose_fighter(state, w, shot.target, [shot.source], N_("shot"))
        else:
            d = grid.distance(cell(state, shot.source), cell(state, shot.target))
            die = _die(dice, f"vision at {shot.target}")
            score = max(1, min(6, die + tables.visions.distance_modifier * (d - 1)))
            result = tables.visions.results[score]
            w.events.append(
                Ruling.event(
                    "vision",
                    "vision from {src} at {hex}: die {die}, {d} hex(es): {result}",
                    (ILLUSIONISTS,),
                    src=shot.source,
                    hex=shot.target,
                    d=d,
                    die=die,
                    result=result,
                )
            )
            if result != "none":
                w.provisional.append(state.tables.rules.interpretation("retreat-path").label())
                _retreat(state, w, shot.target, int(result[1:]), [shot.source], N_("vision"))


def _attack_total(state: ZargoState, attackers: list[str], target: str) -> tuple[int, bool]:
    """Returns the attackers' total and whether a Knight's charge counted in it (CHEVALIERS;
    Monk knights gain nothing: their counters have no charge power)."""
    total = 0
    charged = False
    grid = state.tables.world.grid
    for h in attackers:
        label = fighters(state, h)
        u = unit(state, label)
        total += u.combat + _bonus(state, h, u.people)
        path = state.moved.get(key(h, label))
        if "charge" in u.powers and path and len(state.board[h]) == 1:
            bonus = charge_bonus(grid, [cell(state, p) for p in path], cell(state, target))
            total += bonus
            charged = charged or bonus > 0
    return total, charged


def _combat(state: ZargoState, w: Turn, dice: Dice, target: str, declared: tuple[str, ...]) -> None:
    people = str(state.active)
    attackers = [h for h in declared if h in w.board and unit(state, w.board[h][0]).people == people]
    if not attackers:
        return
    table = state.tables.tables.combat
    now = w.state()
    if target in now.cities and target not in now.board:
        _siege(now, w, dice, target, attackers)
        return
    stack = now.board.get(target)
    if not stack or now.allied(unit(state, stack[0]).people, people):
        return  # the defender was burnt or driven off by a shot
    defender = unit(state, stack[0])
    attack, charged = _attack_total(now, attackers, target)
    defence = defender.combat + _bonus(now, target, defender.people)
    die = _die(dice, f"combat at {target}")
    result = combat_result(table, attack, defence, die)
    if result is None:
        w.events.append(
            Ruling.event(
                "attack-too-weak",
                "attack on {hex}: {a} against {d} is below the table's minimum difference; no combat",
                (COMBAT,),
                hex=target,
                a=attack,
                d=defence,
            )
        )
        w.provisional.append(state.tables.rules.interpretation("weak-attack").label())
        return
    cites = (COMBAT, KNIGHTS) if charged else (COMBAT,)
    w.events.append(
        Ruling.event(
            "combat",
            "combat at {hex}: {a} against {d}, die {die}: {result}",
            cites,
            hex=target,
            a=attack,
            d=defence,
            die=die,
            result=result,
        )
    )
    _outcome(now, w, result, target, attackers)
    if result in ("DE", "DR") and len(attackers) == 1:
        _serpent_line(now, w, dice, attackers[0], target)


def _serpent_line(state: ZargoState, w: Turn, dice: Dice, source: str, target: str) -> None:
    """SERPENTS (rules.yaml ``serpent-line``): a Serpent that moved straight and beat the enemy
    straight ahead goes on along its line with the points it has left, into free plain hexes,
    fighting each enemy it meets there (one die each); it stops at any obstacle, a friend, a
    combat it does not win, the map's edge or the end of its move."""
    stack = w.board.get(source)
    if stack is None or len(stack) != 1 or "line-charge" not in unit(state, stack[0]).powers:
        return
    label = stack[0]
    u = unit(state, label)
    path = [cell(state, h) for h in state.moved.get(key(source, label), ())]
    grid = state.tables.world.grid
    directions = {hex_direction(grid, x, y) for x, y in itertools.pairwise(path)}
    if len(path) < 2 or len(directions) != 1 or None in directions:
        return
    (direction,) = directions
    assert direction is not None
    here = cell(state, source)
    if grid.step(here, direction) != cell(state, target):
        return
    w.provisional.append(state.tables.rules.interpretation("serpent-line").label())
    left = u.move - (len(path) - 1)
    table = state.tables.tables.combat
    while left > 0:
        nxt = grid.step(here, direction)
        if nxt is None:
            return
        name, here_name = grid.name(nxt), grid.name(here)
        if state.tables.world.terrain[nxt] is not Terrain.PLAIN or name in w.cities:
            return
        enemy = w.board.get(name)
        if enemy is not None:
            foe = unit(state, enemy[0])
            if state.allied(foe.people, u.people) or name in w.paralysed:
                return
            now = w.state()
            attack = u.combat + _bonus(now, here_name, u.people)
            defence = foe.combat + _bonus(now, name, foe.people)
            die = _die(dice, f"serpent at {name}")
            result = combat_result(table, attack, defence, die)
            if result is None:
                return
            w.events.append(
                Ruling.event(
                    "serpent-charge",
                    "the Serpent charges on at {hex}: {a} against {d}, die {die}: {result}",
                    (SERPENTS, COMBAT),
                    hex=name,
                    a=attack,
                    d=defence,
                    die=die,
                    result=result,
                )
            )
            _outcome(now, w, result, name, [here_name])
            if result not in ("DE", "DR") or name in w.board or here_name not in w.board:
                return
        w.board[name] = w.board.pop(here_name)
        here = nxt
        left -= 1


def _outcome(state: ZargoState, w: Turn, result: str, target: str, attackers: list[str]) -> None:
    steps = state.tables.tables.combat.retreat_hexes
    if result in ("AE", "AR", "EX"):
        w.provisional.append(state.tables.rules.interpretation("retreat-path").label())
    if result == "DE":
        _lose_fighter(state, w, target, attackers, N_("combat"))
    elif result == "DR":
        w.provisional.append(state.tables.rules.interpretation("retreat-path").label())
        _retreat(state, w, target, steps, attackers, N_("retreat"))
    elif result == "EX":
        _lose_fighter(state, w, target, attackers, N_("exchange"))
        weakest = min(attackers, key=lambda h: (unit(state, w.board[h][0]).combat, h))
        _lose_fighter(state, w, weakest, [target], N_("exchange"))
    elif result == "AR":
        for h in attackers:
            if h in w.board:
                _retreat(state, w, h, steps, [target], N_("retreat"))
    elif result == "AE":
        for h in attackers:
            _lose_fighter(state, w, h, [target], N_("combat"))


def _siege(state: ZargoState, w: Turn, dice: Dice, target: str, attackers: list[str]) -> None:
    """LA CONQUÊTE D'UNE VILLE: the garrison fights as one; too few besiegers, or too weak once it
    is known, are eliminated; an empty garrison falls at once."""
    city = state.cities[target]
    people = str(state.active)
    garrison = list(city.garrison or ())
    table = state.tables.tables.combat
    if not garrison:
        _conquer(state, w, target, people)
        return
    attack, _charged = _attack_total(state, attackers, target)
    defence = sum(unit(state, g).combat for g in garrison)
    if len(attackers) < len(garrison):
        w.provisional.append(state.tables.rules.interpretation("too-few-besiegers").label())
    if len(attackers) < len(garrison) or attack - defence < table.minimum_difference:
        w.events.append(
            Ruling.event(
                "besiegers-lost",
                "the garrison of {hex} ({n} counters, {d}) outmatches the "
                "besiegers ({m} counters, {a}): they are eliminated",
                (CITIES,),
                hex=target,
                n=len(garrison),
                d=defence,
                m=len(attackers),
                a=attack,
            )
        )
        for h in attackers:
            for label in list(w.board.get(h, ())):
                w.eliminate(h, label, N_("siege"))
        return
    die = _die(dice, f"assault on {target}")
    result = combat_result(table, attack, defence, die)
    assert result is not None
    w.events.append(
        Ruling.event(
            "assault",
            "assault on {hex}: {a} against {d}, die {die}: {result}",
            (CITIES,),
            hex=target,
            a=attack,
            d=defence,
            die=die,
            result=result,
        )
    )
    if result in ("DE", "DR"):
        w.provisional.append(state.tables.rules.interpretation("garrison-retreat").label())
        for g in garrison:
            w.eliminated[g] = w.eliminated.get(g, 0) + 1
        w.cities[target] = city.model_copy(update={"garrison": ()})
        _conquer(state, w, target, people)
    elif result == "EX":
        weakest = min(garrison, key=lambda g: (unit(state, g).combat, g))
        garrison.remove(weakest)
        w.eliminated[weakest] = w.eliminated.get(weakest, 0) + 1
        w.cities[target] = city.model_copy(update={"garrison": tuple(garrison)})
        h = min(attackers, key=lambda x: (unit(state, w.board[x][0]).combat, x))
        _lose_fighter(state, w, h, [target], N_("exchange"))
    else:
        _outcome(state, w, result, target, attackers)


def _conquer(state: ZargoState, w: Turn, target: str, people: str) -> None:
    city = w.cities[target]
    w.cities[target] = City(owner=people, founder=city.founder, seal=None, garrison=())
    w.events.append(
        Ruling.event("city-taken", "the {people} take the city on {hex}", (CITIES, CALENDAR), people=people, hex=target)
    )


def _end_turn(state: ZargoState, events: list[Ruling]) -> ZargoState:
    """COMMENT ON JOUE, LE CALENDRIER: the next people in turn order; after the last one the month
    ends; after month 25, or once one people holds every city, the game is over."""
    me = str(state.active)
    paralysed = {}
    for h, n in state.paralysed.items():
        stack = state.board.get(h)
        if stack and unit(state, stack[0]).people == me and not any(key(h, lab) in state.moved for lab in stack):
            n -= 1
        if n > 0:
            paralysed[h] = n
    i = state.peoples.index(me)
    update: dict[str, object] = {
        "paralysed": paralysed,
        "moved": {},
        "acted": (),
        "attacks": {},
        "shots": (),
        "reveal_wait": None,
        "phase": Phase.MOVE,
    }
    owners = {c.owner for c in state.cities.values()}
    if len(owners) == 1 and len(state.cities) > 0:  # rules.yaml early-end
        update["phase"] = Phase.OVER
        events.append(
            Ruling.event("all-cities", "the {people} hold every city", (CALENDAR,), people=next(iter(owners)))
        )
        return state.model_copy(update=update)
    if i + 1 < len(state.peoples):
        update["active"] = state.peoples[i + 1]
    elif state.month >= MONTHS:
        update["phase"] = Phase.OVER
        events.append(Ruling.event("calendar-over", "month {months} is over", (CALENDAR,), months=MONTHS))
    else:
        update["active"] = state.peoples[0]
        update["month"] = state.month + 1
        events.append(month_event(state.month + 1, state.peoples[0]))
    return state.model_copy(update=update)


def city_counts(state: ZargoState) -> dict[str, int]:
    """LE CALENDRIER: cities held by each people in play (own and conquered)."""
    counts = dict.fromkeys(state.peoples, 0)
    for c in state.cities.values():
        counts[c.owner] = counts.get(c.owner, 0) + 1
    return counts
