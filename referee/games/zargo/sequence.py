"""Zargo's Lords sequence of play: players and continents, set-up, alliances, the resolution of a
turn, the calendar and victory (rulebook "PRÉPARATION DU JEU", "COMMENT ON JOUE", "LE CALENDRIER
ET LE BUT DU JEU").

A turn: alliances first, then moves, attacks and shots, then ``resolve`` settles the shots and
the combats one by one and hands over to the next people. The resolution pauses where a player
must act: a city's garrison to be shown, a Serpent's choice to carry on. After the last people
the month ends; after month 25 the people holding most cities wins.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from referee.dice import Dice
from referee.games.zargo import actions as act
from referee.games.zargo.acting import Found, own_turn
from referee.games.zargo.cities import assault
from referee.games.zargo.combat import field_combat
from referee.games.zargo.movement import escort_fits
from referee.games.zargo.rules import CALENDAR, CITIES, COMBAT, COUNTERS, ESCORTS, SERPENTS, SETUP, TERRAIN, TURN
from referee.games.zargo.serpents import carry_on
from referee.games.zargo.shots import resolve_shots
from referee.games.zargo.state import (
    MONTHS,
    City,
    Phase,
    Turn,
    ZargoState,
    cell,
    key,
    manifest_left,
    occ,
    split_key,
    unit,
)
from referee.games.zargo.tables import UNRECORDED, Reads
from referee.games.zargo.world import Terrain
from referee.i18n import N_
from referee.phrases import form
from referee.rulings import Ruling

__all__ = [
    "all_assignments", "apply_players", "check_alliance", "check_answer", "check_city", "check_place",
    "check_players", "check_ready", "check_resolve", "check_start", "city_counts", "month_event", "resolve",
    "turn_untouched",
]


# ---- players and set-up ---------------------------------------------------------------------


CONTINENT_ROLL = form(N_("continent of the {people}"))  # a roll's purpose: its words seed a digital roll

def _wrong_phase(state: ZargoState) -> Ruling:
    return Ruling.violation("wrong-phase", "not now: the game is in its {phase} phase", (SETUP,),
                            phase=state.phase.value)


def check_players(state: ZargoState, a: act.Players, reads: Reads = UNRECORDED) -> Found:
    """PRÉPARATION DU JEU: 2 to 4 players; two play two peoples on two continents each, three or
    four one continent each; every continent at most once."""
    if state.phase is not Phase.PLAYERS:
        return [_wrong_phase(state)]
    if not 2 <= a.players <= 4:
        return [Ruling.violation("players", "Zargo's Lords is played by 2 to 4 players, not {n}", (SETUP,),
                                 n=a.players)]
    if a.players < 4:
        reads.use("peoples-in-play")
    if a.players == 2:
        reads.use("two-players")
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
            out.append(Ruling.counted(
                "continents", "with {players} players each people holds {n} continent; the {people} have {got}",
                "with {players} players each people holds {n} continents; the {people} have {got}", per, (SETUP,),
                players=a.players, people=people, got=len(cs)))
        for c in cs:
            if c not in conts:
                out.append(Ruling.violation("continent", "there is no continent {c} (the map has {known})", (SETUP,),
                                            c=c, known=", ".join(conts)))
            seen.append(c)
    if len(set(seen)) != len(seen):
        out.append(Ruling.violation("continent-twice", "each continent goes to one people only", (SETUP,)))
    return out


def _draw(state: ZargoState, n: int, dice: Dice) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """PRÉPARATION DU JEU: the peoples (with fewer than four players, rules.yaml ``peoples-in-play``)
    and their continents drawn by lot, one die per draw."""
    peoples = list(state.tables.order)
    while len(peoples) > n:
        gone = dice.roll(1, len(peoples), N_("people left out")).faces[0] - 1
        peoples.pop(gone)
    conts = sorted(state.tables.world.continents)
    per = 2 if n == 2 else 1
    out = []
    for people in peoples:
        mine = []
        for _ in range(per):
            pick = dice.roll(1, len(conts), CONTINENT_ROLL.format(people=people)).faces[0] - 1 if len(conts) > 1 else 0
            mine.append(conts.pop(pick))
        out.append((people, tuple(sorted(mine))))
    return tuple(out)


def apply_players(state: ZargoState, a: act.Players, w: Turn, dice: Dice) -> None:
    """PRÉPARATION DU JEU: the peoples in play and their continents; set-up begins."""
    assign = a.assign if a.assign is not None else _draw(state, a.players, dice)
    peoples = tuple(p for p in state.tables.order if p in dict(assign))
    w.update = {"phase": Phase.SETUP, "players": a.players, "peoples": peoples, "continents": dict(assign),
                "active": peoples[0]}
    for p, cs in assign:
        w.events.append(Ruling.counted("continents", "the {people} hold continent {cs}",
                                       "the {people} hold continents {cs}", len(cs), (SETUP,), people=p,
                                       cs=", ".join(cs)))


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
    return world.continent[cell(state, hex_name)] in state.continents.get(people, ())


def _setup_turn(state: ZargoState) -> Found:
    """PRÉPARATION DU JEU: placements happen in set-up, by the people whose set-up it is."""
    if state.phase is not Phase.SETUP or state.active is None:
        return [_wrong_phase(state)]
    return []


def _cities_of(state: ZargoState, people: str) -> int:
    return sum(1 for c in state.cities.values() if c.founder == people)


def check_city(state: ZargoState, a: act.BuildCity, reads: Reads = UNRECORDED) -> Found:
    """PRÉPARATION DU JEU, LA CONQUÊTE D'UNE VILLE: a city on a free, non-coastal hex of one's own
    continent (a magic chasm as rules.yaml ``city-terrain`` reads it), at most the people's
    city counters."""
    out = _setup_turn(state)
    if out:
        return out
    people = str(state.active)
    world = state.tables.world
    c = cell(state, a.hex)
    limit = state.tables.peoples.peoples[people].city_counters  # type: ignore[index]
    if _cities_of(state, people) >= limit:
        out.append(Ruling.counted("cities-full", "the {people} have built their {n} city",
                                  "the {people} have built their {n} cities", limit, (SETUP,), people=people))
    if not own_land(state, people, a.hex):
        out.append(Ruling.violation("not-own-continent", "{hex} is not on a continent of the {people}", (SETUP,),
                                    hex=a.hex, people=people))
    elif world.coastal(c):
        out.append(Ruling.violation("coastal-city", "{hex} is on the coast; cities stand inland", (CITIES,),
                                    hex=a.hex))
    elif world.terrain[c] is Terrain.CHASM and reads.choice(state.tables, "city-terrain") == "not-in-chasm":
        out.append(Ruling.violation("chasm-city", "{hex} is a magic chasm; no city stands there", (SETUP, TERRAIN),
                                    hex=a.hex))
    if a.hex in state.board or a.hex in state.cities:
        out.append(Ruling.violation("occupied", "{hex} is already taken", (SETUP,), hex=a.hex))
    return out


def check_place(state: ZargoState, a: act.Place, reads: Reads = UNRECORDED) -> Found:
    """PRÉPARATION DU JEU: after the cities, counters face up on one's own continent (mountains,
    woods and chasms too), one per hex except an escort; no more than the box holds (the game
    file counts the sealed garrisons too)."""
    out = _setup_turn(state)
    if out:
        return out
    people = str(state.active)
    u = unit(state, a.label)
    if u.people != people:
        return [Ruling.violation("not-yours", "{label} is a counter of the {owner}, not of the {people}", (SETUP,),
                                 label=a.label, owner=u.people, people=people)]
    if _cities_of(state, people) < state.tables.peoples.peoples[people].city_counters:  # type: ignore[index]
        out.append(Ruling.violation("cities-first", "build the {people}' cities first", (SETUP,), people=people))
    if manifest_left(state, a.label) <= 0:
        out.append(Ruling.violation("none-left", "every {label} counter is already in play (the box holds {n})",
                                    (COUNTERS,), label=a.label, n=u.count))
    if not own_land(state, people, a.hex):
        out.append(Ruling.violation("not-own-continent", "{hex} is not on a continent of the {people}", (SETUP,),
                                    hex=a.hex, people=people))
    if a.hex in state.cities:
        out.append(Ruling.violation("city-hex", "{hex} holds a city; its garrison is sealed, not placed", (CITIES,),
                                    hex=a.hex))
    stack = state.board.get(a.hex)
    if stack and not escort_fits(state, a.label, stack, reads):
        out.append(Ruling.violation(
            "stacking", "{hex} already holds a counter; only a foot soldier may stand on a lone non-infantry "
            "counter as its escort", (ESCORTS,), hex=a.hex))
    return out


def check_ready(state: ZargoState, reads: Reads = UNRECORDED) -> Found:
    """PRÉPARATION DU JEU: a people's set-up ends once its cities stand (rules.yaml
    ``setup-order``: counters left out stay in the box)."""
    out = _setup_turn(state)
    if out:
        return out
    people = str(state.active)
    reads.use("setup-order")
    need = state.tables.peoples.peoples[people].city_counters  # type: ignore[index]
    built = _cities_of(state, people)
    if built < need:
        out.append(Ruling.violation("cities-missing", "the {people} have built {n} of their {need} cities", (SETUP,),
                                    people=people, n=built, need=need))
    return out


def check_start(state: ZargoState) -> Found:
    """LE CALENDRIER: the first month begins once every people has set up."""
    if state.phase is not Phase.SETUP or state.active is not None:
        return [Ruling.violation("not-set-up", "every people must finish its set-up first", (SETUP, CALENDAR))]
    return []


# ---- alliances ------------------------------------------------------------------------------


def turn_untouched(state: ZargoState) -> bool:
    """Whether the active people has done nothing yet this turn (alliance phase)."""
    return not (state.moved or state.acted or state.attacks or state.shots)


def check_alliance(state: ZargoState, a: act.Alliance, reads: Reads = UNRECORDED) -> Found:
    """COMMENT ON JOUE: alliances are proposed (or broken) first thing in a turn, between two
    peoples (rules.yaml ``alliance-shape``)."""
    out = own_turn(state)
    if out:
        return out
    me = str(state.active)
    reads.use("alliance-shape")
    if not turn_untouched(state):
        out.append(Ruling.violation("alliance-late", "alliances come first in a turn, before any move", (TURN,)))
    if a.people not in state.peoples or a.people == me:
        out.append(Ruling.violation("alliance-people", "{people} is not another people in play", (TURN,),
                                    people=a.people))
    elif a.verb == "ally" and state.allied(me, a.people):
        out.append(Ruling.violation("already-allied", "the {me} and the {people} are already allies", (TURN,),
                                    me=me, people=a.people))
    elif a.verb == "break" and not state.allied(me, a.people):
        out.append(Ruling.violation("not-allied", "the {me} and the {people} are not allies", (TURN,), me=me,
                                    people=a.people))
    return out


def check_answer(state: ZargoState) -> Found:
    """COMMENT ON JOUE: a proposed alliance is accepted or refused by the people it was offered to."""
    if state.phase is not Phase.MOVE or state.proposal is None:
        return [Ruling.violation("no-proposal", "no alliance is proposed now", (TURN,))]
    return []


# ---- resolution -----------------------------------------------------------------------------


def _must_attack(state: ZargoState) -> list[str]:
    """The counters that moved into an enemy's zone this turn and have not attacked or shot."""
    zones = occ(state).zones_against(str(state.active))
    out = []
    for k in state.moved:
        hex_name, label = split_key(k)
        stack = state.board.get(hex_name, ())
        acted = any(x.startswith(hex_name + ":") for x in state.acted)
        if label in stack and cell(state, hex_name) in zones and not acted and hex_name not in state.paralysed:
            out.append(hex_name)
    return sorted(set(out))


def check_resolve(state: ZargoState, reads: Reads = UNRECORDED) -> Found:
    """COMMENT ON JOUE: the third phase, shots then combats, closes the turn (and goes on after a
    pause); COMBAT (rules.yaml ``zone-entry``): a counter that entered an enemy's zone may have
    to attack first."""
    if state.phase is Phase.RESOLVE:
        return []
    out = own_turn(state)
    if out:
        return out
    stuck = _must_attack(state)
    if stuck and reads.choice(state.tables, "zone-entry") == "must-attack":
        out.append(Ruling.violation(
            "must-attack", "the counters on {hexes} entered an enemy's zone this turn and must attack first",
            (COMBAT,), hexes=", ".join(stuck)))
    return out


def resolve(state: ZargoState, dice: Dice, w: Turn | None = None) -> Turn:
    """COMMENT ON JOUE: shots first, then the combats one by one; a city whose garrison is face
    down, or a Serpent's choice, pauses the resolution; then the next people's turn."""
    w = w or Turn(state)
    if state.carry is not None:
        w.update["carry"] = None
        w.events.append(Ruling.event("serpent-stops", "the Serpent on {hex} stops", (SERPENTS,),
                                     hex=state.carry[0]))
    resolve_shots(state, w, dice)
    attacks = dict(state.attacks)
    for target in list(attacks):
        now = w.state()
        alive = [i for i in attacks[target] if _alive(now, i)]
        hidden = target in now.cities and target not in now.board and now.cities[target].hidden
        if hidden and alive:
            owner = now.cities[target].owner
            w.update.update({"attacks": attacks, "shots": (), "phase": Phase.REVEAL, "reveal_wait": target})
            w.events.append(Ruling.event("reveal-awaited", "the {owner} must reveal the garrison of {hex}",
                                         (CITIES,), owner=owner, hex=target))
            return w
        del attacks[target]
        if not alive:
            continue
        if target in now.cities and target not in now.board:
            assault(now, w, dice, target, alive)
        elif field_combat(now, w, dice, target, alive) is not None:
            w.update.update({"attacks": attacks, "shots": (), "phase": Phase.RESOLVE})
            return w
    w.update.update({"attacks": {}, "shots": (), "carry": None})
    return end_turn(w)


def carry_then_resolve(state: ZargoState, dice: Dice) -> Turn:
    """SERPENTS: the Serpent carries on; unless it may carry on again, the resolution goes on."""
    w = Turn(state)
    carry_on(state, w, dice)
    if w.update.get("carry") is not None:
        return w
    mid = w.state()
    rest = Turn(mid, w.reads)
    rest.events, rest.notes = w.events, w.notes
    return resolve(mid, dice, rest)


def _alive(state: ZargoState, ident: str) -> bool:
    """Whether a declared attacker still stands (a shot may have removed it) and is the active
    people's."""
    hex_name, label = split_key(ident)
    if label is None:
        stack = state.board.get(hex_name, ())
        return bool(stack) and unit(state, stack[0]).people == state.active
    city = state.cities.get(hex_name)
    return city is not None and city.owner == state.active and label in (city.garrison or ())


def end_turn(w: Turn) -> Turn:
    """COMMENT ON JOUE, LE CALENDRIER: the next people in turn order; after the last one the month
    ends; after month 25 the game is over, or as soon as one people holds every city (rules.yaml
    ``early-end``)."""
    state = w.state()
    me = str(state.active)
    paralysed = {}
    for h, n in state.paralysed.items():
        stack = state.board.get(h)
        if stack and unit(state, stack[0]).people == me and not any(key(h, lab) in state.moved for lab in stack):
            n -= 1
        if n > 0:
            paralysed[h] = n
    update: dict[str, object] = {"paralysed": paralysed, "moved": {}, "acted": (), "attacks": {}, "shots": (),
                                 "reveal_wait": None, "phase": Phase.MOVE, "carry": None}
    owners = {c.owner for c in state.cities.values()}
    if len(owners) == 1 and state.cities and w.reads.choice(state.tables, "early-end") == "ends-at-once":
        update["phase"] = Phase.OVER
        w.events.append(Ruling.event("all-cities", "the {people} hold every city", (CALENDAR,),
                                     people=next(iter(owners))))
        _tie(state, w)
        w.update.update(update)
        return w
    i = state.peoples.index(me)
    if i + 1 < len(state.peoples):
        update["active"] = state.peoples[i + 1]
    elif state.month >= MONTHS:
        update["phase"] = Phase.OVER
        w.events.append(Ruling.event("calendar-over", "month {months} is over", (CALENDAR,), months=MONTHS))
        _tie(state, w)
    else:
        update["active"] = state.peoples[0]
        update["month"] = state.month + 1
        w.events.append(month_event(state.month + 1, state.peoples[0]))
    w.update.update(update)
    return w


def _tie(state: ZargoState, w: Turn) -> None:
    counts = city_counts(state)
    best = max(counts.values())
    if sum(1 for n in counts.values() if n == best) > 1:
        w.reads.use("most-cities-tie")


def month_event(month: int, first: str) -> Ruling:
    """LE CALENDRIER: the month crossed off before the first people moves."""
    return Ruling.event("month", "month {month} of {months} begins (the {first} move first)", (CALENDAR, TURN),
                        month=month, months=MONTHS, first=first)


def city_counts(state: ZargoState) -> dict[str, int]:
    """LE CALENDRIER: cities held by each people in play (own and conquered)."""
    counts = dict.fromkeys(state.peoples, 0)
    for c in state.cities.values():
        counts[c.owner] = counts.get(c.owner, 0) + 1
    return counts


def build_city(state: ZargoState, a: act.BuildCity, w: Turn) -> None:
    """PRÉPARATION DU JEU: the city stands, its garrison empty until sealed."""
    people = str(state.active)
    w.cities[a.hex] = City(owner=people, founder=people)


def apply_word(state: ZargoState, a: act.Word, w: Turn, _dice: Dice) -> None:
    """PRÉPARATION DU JEU, COMMENT ON JOUE: ``ready``, ``start``, ``accept`` and ``refuse``."""
    if a.word == "ready":
        ready = (*state.ready, str(state.active))
        left = [p for p in state.peoples if p not in ready]
        w.update = {"ready": ready, "active": left[0] if left else None}
    elif a.word == "start":
        w.update = {"phase": Phase.MOVE, "month": 1, "active": state.peoples[0]}
        w.events.append(month_event(1, state.peoples[0]))
    else:
        assert state.proposal is not None
        first, second = state.proposal
        if a.word == "accept":
            w.update = {"alliances": tuple(sorted({*state.alliances, "+".join(sorted((first, second)))})),
                        "proposal": None}
            w.events.append(Ruling.event("allied", "the {a} and the {b} are allies", (TURN,), a=first, b=second))
        else:
            w.update = {"proposal": None}
            w.events.append(Ruling.event("alliance-refused", "the {b} refuse the {a}' alliance", (TURN,), a=first,
                                         b=second))


def apply_alliance(state: ZargoState, a: act.Alliance, w: Turn) -> None:
    """COMMENT ON JOUE: an alliance proposed (then answered) or broken."""
    me = str(state.active)
    if a.verb == "ally":
        w.update = {"proposal": (me, a.people)}
        return
    pair = "+".join(sorted((me, a.people)))
    w.update = {"alliances": tuple(x for x in state.alliances if x != pair)}
    w.events.append(Ruling.event("alliance-broken", "the {a} break their alliance with the {b}", (TURN,), a=me,
                                 b=a.people))
