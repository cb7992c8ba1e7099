"""Zargo's Lords cities: garrisons sealed face down, shown when attacked or when they act, sealed
again, and assaults (rulebook "PRÉPARATION DU JEU", "LA CONQUÊTE D'UNE VILLE").

A garrison is at most four of its people's counters, sealed face down at set-up (its commitment
in the journal, the counters in the owner's private table). It is shown when besiegers attack the
city (rules.yaml ``garrison-knowledge``), or by its owner in its own turn so that it shoots or
sallies from the city (``sally``); the owner may turn it face down again in a later turn of its
own (``reseal``). The box is never exceeded: a seal is checked together with that people's other
sealed garrisons and its face-up counters, and a refusal says only that the box is short.

An assault needs at least as many attackers as the garrison has counters (``too-few-besiegers``);
a garrison's factors add up; an attack below the table's first column kills the besiegers; a
beaten garrison is eliminated and the city falls (``garrison-retreat``). An empty city falls with
no roll.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from referee.dice import Dice
from referee.games.zargo import actions as act
from referee.games.zargo.acting import Found
from referee.games.zargo.combat import RECONSTRUCTION_NOTE, attack_total, combat_result, die
from referee.games.zargo.results import RESULT_MEANING, apply_result, attacker_value, lose_attacker
from referee.games.zargo.rules import CALENDAR, CITIES, COUNTERS, RECONSTRUCTION, SETUP, TURN
from referee.games.zargo.state import GARRISON_MAX, City, Phase, Turn, ZargoState, manifest_left, unit
from referee.games.zargo.tables import UNRECORDED, Reads
from referee.i18n import N_
from referee.phrases import form
from referee.rulings import Ruling
from referee.sealed import Opening, Seal, check_reveal, revealed_event, sealed_event

__all__ = [
    "apply_reveal", "apply_seal", "assault", "check_reveal_garrison", "check_seal", "city_of_label", "conquer",
    "garrison_problem", "hidden_garrisons", "placement_problem",
]


ASSAULT_ROLL = form(N_("assault on {target}"))  # a roll's purpose: its words seed a digital roll

def city_of_label(label: str) -> str | None:
    """Returns the hex a garrison's secret label names (``garrison-0512`` → ``0512``)."""
    return label.removeprefix("garrison-") if label.startswith("garrison-") else None


def _short(people: str) -> Ruling:
    # never name a label: the refusal is seen at the table and must not hint at a garrison
    return Ruling.violation(
        "box-short",
        "the box of the {people} cannot supply this together with their sealed garrisons and face-up counters",
        (COUNTERS, CITIES), people=people,
    )


# ---- sealing ------------------------------------------------------------------------------------


def check_seal(state: ZargoState, a: act.SealGarrison, reads: Reads = UNRECORDED) -> Found:
    """PRÉPARATION DU JEU: a garrison is sealed face down during set-up, once per city, by its
    owner; LA CONQUÊTE D'UNE VILLE (rules.yaml ``reseal``): an open garrison is sealed again by its
    owner in its own turn, and a garrison whose secret was lost is sealed again at any time."""
    p = a.public
    if p.owner not in state.peoples:
        return [Ruling.violation("not-playing", "{owner} is not a people in play", (SETUP,), owner=p.owner)]
    hex_name = city_of_label(p.label)
    city = state.cities.get(hex_name or "")
    if hex_name is None or city is None:
        return [
            Ruling.violation(
                "no-city", "a garrison is sealed as garrison-HEX for a city; {label} names none", (CITIES,),
                label=p.label,
            )
        ]
    if city.owner != p.owner:
        return [
            Ruling.violation("not-yours", "the city on {hex} belongs to the {owner}", (CITIES,), hex=hex_name,
                             owner=city.owner)
        ]
    if state.phase is Phase.SETUP:
        if city.seal is not None:
            return [Ruling.violation("sealed-twice", "the garrison of {hex} is already sealed", (CITIES,),
                                     hex=hex_name)]
        return []
    if city.lost:
        reads.use("reseal")
        return []
    if city.hidden:
        return [Ruling.violation("sealed-twice", "the garrison of {hex} is already sealed", (CITIES,), hex=hex_name)]
    if city.seal is None:
        return [Ruling.violation("wrong-phase", "garrisons are sealed during set-up, not in the {phase} phase",
                                 (SETUP,), phase=state.phase.value)]
    if any(k.startswith(hex_name + ":") for k in state.acted):
        return [Ruling.violation("garrison-engaged", "the garrison of {hex} acts this turn; it is sealed again in a "
                                 "later turn of its owner's", (CITIES,), hex=hex_name)]
    own_turn = state.phase is Phase.MOVE and state.active == p.owner and state.proposal is None
    if not own_turn:
        return [
            Ruling.violation(
                "wrong-phase", "an open garrison is sealed again by its owner in its own turn, not in the {phase} "
                "phase", (CITIES, TURN), phase=state.phase.value,
            )
        ]
    reads.use("reseal")
    return []


def hidden_garrisons(state: ZargoState, owner: str, secrets: Sequence[Seal], skip: str | None = None) -> Counter[str]:
    """Returns the counters in the owner's sealed garrisons still face down (from its private
    secrets, matched to the cities' commitments), leaving out the city ``skip``."""
    by_digest = {s.public.digest: s.secret for s in secrets}
    held: Counter[str] = Counter()
    for h, city in state.cities.items():
        if h == skip or city.owner != owner or city.seal is None or not city.hidden:
            continue
        secret = by_digest.get(city.seal.digest)
        if isinstance(secret, list):
            held.update(str(x) for x in secret)
    return held


def _form(state: ZargoState, owner: str, secret: object) -> Ruling | None:
    """LA CONQUÊTE D'UNE VILLE: a garrison is a list of at most four of the owner's counters."""
    if not isinstance(secret, list) or not all(isinstance(x, str) for x in secret):
        return Ruling.violation("garrison-form", 'a garrison is a list of counter labels, e.g. ["FMo", "MCh"]',
                                (CITIES,))
    if len(secret) > GARRISON_MAX:
        return Ruling.violation("garrison-too-big", "a garrison holds at most {max} counters, not {n}", (CITIES,),
                                max=GARRISON_MAX, n=len(secret))
    for lab in secret:
        u = state.tables.units.get(lab)
        if u is None or u.people != owner:
            return Ruling.violation("garrison-label", "{label} is not a counter of the {owner}", (CITIES,),
                                    label=lab, owner=owner)
    return None


def garrison_problem(
    state: ZargoState, owner: str, label: str, secret: object, secrets: Sequence[Seal] = ()
) -> Ruling | None:
    """LA CONQUÊTE D'UNE VILLE: what is wrong with a garrison before it is sealed: not a list of
    at most four of the owner's counters, more than the box holds together with the owner's
    other sealed garrisons (``secrets``) and its face-up counters, or, sealing an open garrison
    again, other counters than it showed."""
    wrong = _form(state, owner, secret)
    if wrong is not None:
        return wrong
    assert isinstance(secret, list)
    hex_name = city_of_label(label)
    city = state.cities.get(hex_name or "")
    shown = Counter(city.garrison or ()) if city is not None else Counter()
    if city is not None and not city.hidden and state.phase is not Phase.SETUP and Counter(secret) != shown:
        return Ruling.violation("reseal-other", "a garrison is sealed again with the counters it showed",
                                (CITIES,))
    held = hidden_garrisons(state, owner, secrets, skip=hex_name)
    for lab, n in Counter(secret).items():
        if n + held[lab] > manifest_left(state, lab) + shown[lab]:
            return _short(owner)
    return None


def placement_problem(state: ZargoState, label: str, secrets: Sequence[Seal]) -> Ruling | None:
    """LES PIONS DU JEU: a counter laid face up (in set-up, or by an umpire) after its people
    sealed garrisons must leave the box enough for them."""
    owner = unit(state, label).people
    held = hidden_garrisons(state, owner, secrets)
    if held[label] and manifest_left(state, label) - held[label] <= 0:
        return _short(owner)
    return None


def apply_seal(state: ZargoState, a: act.SealGarrison, w: Turn) -> None:
    """The garrison is face down: the state keeps its commitment only."""
    hex_name = str(city_of_label(a.public.label))
    w.cities[hex_name] = w.cities[hex_name].model_copy(update={"seal": a.public, "garrison": None})
    w.events.append(sealed_event(a.public, (CITIES,)))


# ---- revealing ----------------------------------------------------------------------------------


def check_reveal_garrison(state: ZargoState, a: act.RevealGarrison, reads: Reads = UNRECORDED) -> Found:
    """LA CONQUÊTE D'UNE VILLE: the attacked city's owner shows its garrison, or the owner shows
    it in its own turn so that it acts; it must open the seal and fit the box."""
    hex_name = city_of_label(a.label)
    city = state.cities.get(hex_name or "")
    awaited = state.phase is Phase.REVEAL and state.reveal_wait is not None
    if awaited:
        assert state.reveal_wait is not None
        city = state.cities[state.reveal_wait]
        if a.owner != city.owner or hex_name != state.reveal_wait:
            return [Ruling.violation("wrong-reveal", "the garrison of {hex} ({owner}) is awaited", (CITIES,),
                                     hex=state.reveal_wait, owner=city.owner)]
    else:
        if state.phase is not Phase.MOVE or state.proposal is not None or city is None or a.owner != state.active:
            return [Ruling.violation("no-reveal", "no garrison is awaited now; an owner shows its own in its turn",
                                     (CITIES,))]
        reads.use("sally")
    assert city is not None and hex_name is not None
    if not city.hidden:
        return [Ruling.violation("garrison-open", "the garrison of {hex} is already shown", (CITIES,), hex=hex_name)]
    if city.seal is None:
        return [Ruling.violation("nothing-sealed", "the garrison of {hex} is not sealed: its owner seals it first",
                                 (CITIES,), hex=hex_name)]
    wrong = check_reveal(city.seal, Opening(a.owner, a.label, bytes.fromhex(a.salt), a.secret), (CITIES,))
    if wrong is not None:
        return [wrong]
    wrong_form = _form(state, a.owner, a.secret)
    if wrong_form is not None:
        return [wrong_form]
    assert isinstance(a.secret, list)
    if any(n > manifest_left(state, str(lab)) for lab, n in Counter(a.secret).items()):
        return [_short(a.owner)]
    return []


def apply_reveal(state: ZargoState, a: act.RevealGarrison, w: Turn) -> None:
    """The garrison is open; an awaited reveal lets the resolution go on."""
    hex_name = str(city_of_label(a.label))
    assert isinstance(a.secret, list)
    w.cities[hex_name] = w.cities[hex_name].model_copy(update={"garrison": tuple(str(x) for x in a.secret)})
    if state.phase is Phase.REVEAL:
        w.update = {"phase": Phase.RESOLVE, "reveal_wait": None}
    w.events.append(revealed_event(Opening(a.owner, a.label, bytes.fromhex(a.salt), a.secret), (CITIES,)))


# ---- assaults -----------------------------------------------------------------------------------


def conquer(state: ZargoState, w: Turn, target: str, people: str) -> None:
    """LA CONQUÊTE D'UNE VILLE: the city changes hands, its garrison empty and open."""
    city = w.cities[target]
    w.cities[target] = City(owner=people, founder=city.founder, seal=None, garrison=())
    w.events.append(
        Ruling.event("city-taken", "the {people} take the city on {hex}", (CITIES, CALENDAR), people=people, hex=target)
    )


def assault(state: ZargoState, w: Turn, dice: Dice, target: str, attackers: list[str]) -> None:
    """LA CONQUÊTE D'UNE VILLE: an attack on a city with an open garrison, step by step."""
    city = state.cities[target]
    people = str(state.active)
    garrison = list(city.garrison or ())
    if not garrison:
        w.events.append(Ruling.event("empty-city", "the city on {hex} has no garrison: it falls with no roll",
                                     (CITIES,), hex=target))
        conquer(state, w, target, people)
        return
    w.reads.use("garrison-knowledge")
    w.notes.append(RECONSTRUCTION_NOTE)
    attack, _charged = attack_total(state, attackers, target, w.reads)
    defence = sum(unit(state, g).combat for g in garrison)
    if len(attackers) < len(garrison):
        if w.reads.choice(state.tables, "too-few-besiegers") == "refused":
            w.events.append(Ruling.event(
                "assault-called-off", "the garrison of {hex} has {n} counters, the besiegers {m}: the assault is "
                "called off", (CITIES,), hex=target, n=len(garrison), m=len(attackers)))
            return
        _besiegers_lost(state, w, target, attackers, Ruling.counted(
            "besiegers-too-few", "the garrison of {hex} has {garrison} counters, more than the {n} besieger: it is "
            "eliminated", "the garrison of {hex} has {garrison} counters, more than the {n} besiegers: they are "
            "eliminated", len(attackers), (CITIES,), hex=target, garrison=len(garrison)))
        return
    table = state.tables.tables.combat
    by = w.reads.choice(state.tables, "combat-by-difference")
    if table.column(attack, defence, by) is None:
        _besiegers_lost(state, w, target, attackers, Ruling.event(
            "besiegers-too-weak", "the besiegers of {hex} ({a}) fall below the table's first column against the "
            "garrison ({d}): they are eliminated", (CITIES, RECONSTRUCTION), hex=target, a=attack, d=defence))
        return
    face = die(dice, ASSAULT_ROLL.format(target=target))
    result = combat_result(table, attack, defence, face, by)
    assert result is not None
    w.events.append(Ruling.event(
        "assault", "assault on {hex}: {a} against {d}, die {die}: {result} ({meaning})", (CITIES,),
        hex=target, a=attack, d=defence, die=face, result=result, meaning=RESULT_MEANING[result]))
    if result == "DR" and w.reads.choice(state.tables, "garrison-retreat") == "holds":
        w.events.append(Ruling.event("garrison-holds", "the garrison of {hex} holds its city", (CITIES,),
                                     hex=target))
    elif result in ("DE", "DR"):
        if result == "DR":
            w.reads.use("garrison-retreat")
        for g in garrison:
            w.lose(g)
        w.cities[target] = city.model_copy(update={"garrison": ()})
        conquer(state, w, target, people)
    elif result == "EX":
        weakest = min(garrison, key=lambda g: (unit(state, g).combat, g))
        garrison.remove(weakest)
        w.lose(weakest)
        w.cities[target] = city.model_copy(update={"garrison": tuple(garrison)})
        loser = min(attackers, key=lambda i: attacker_value(state, i))
        lose_attacker(state, w, loser, target, N_("exchange"))
    else:
        apply_result(state, w, result, target, attackers)


def _besiegers_lost(state: ZargoState, w: Turn, target: str, attackers: list[str], event: Ruling) -> None:
    w.events.append(event)
    for h in attackers:
        for label in list(w.board.get(h, ())):
            w.eliminate(h, label, N_("siege"))
