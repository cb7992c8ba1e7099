"""Who may act now in Zargo's Lords: the preamble every move, attack and shot checks first.

The people whose turn it is acts in the movement phase, once any alliance proposal is answered
(COMMENT ON JOUE); it acts with its own stacks, or with a counter of its own city's open
garrison (LA CONQUÊTE D'UNE VILLE: a garrison shoots and sallies from its city); a counter acts
(attacks or shoots) once a turn, and never while a chasm holds it.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.games.zargo.rules import CITIES, MOVEMENT, TERRAIN, TURN
from referee.games.zargo.state import Phase, ZargoState, key, unit
from referee.games.zargo.tables import Reads, Unit
from referee.rulings import Ruling

__all__ = ["Found", "active_stack", "engaged", "garrison_actor", "own_turn", "paralysed", "stack_of"]

Found = list[Ruling]
"""The violations a check found (empty: legal)."""


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


def stack_of(state: ZargoState, hex_name: str, people: str | None) -> tuple[str, ...] | Ruling:
    """Returns the stack on a hex when it belongs to ``people``, else the violation."""
    stack = state.board.get(hex_name)
    if not stack:
        if hex_name in state.cities:
            return Ruling.violation(
                "garrison-counter",
                "{hex} is a city: its garrison does not move; it attacks or shoots from the city",
                (CITIES,),
                hex=hex_name,
            )
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


def active_stack(state: ZargoState, hex_name: str) -> tuple[str, ...] | Found:
    """Returns the active people's stack on a hex, or why it cannot act now (not its turn, no
    counter there, another people's counters): the preamble of every move, attack and shot."""
    out = own_turn(state)
    if out:
        return out
    stack = stack_of(state, hex_name, state.active)
    return [stack] if isinstance(stack, Ruling) else stack


def paralysed(state: ZargoState, hex_name: str, reads: Reads) -> Ruling | None:
    """MOUVEMENTS — RÈGLES PARTICULIÈRES: a counter held in a chasm does nothing (rules.yaml
    ``paralysis-count`` says for how long)."""
    if hex_name not in state.paralysed:
        return None
    reads.use("paralysis-count")
    n = state.paralysed[hex_name]
    return Ruling.counted(
        "paralysed",
        "{hex} is held in a magic chasm for {n} more turn",
        "{hex} is held in a magic chasm for {n} more turns",
        n,
        (TERRAIN,),
        hex=hex_name,
    )


def engaged(state: ZargoState, hex_name: str, reads: Reads, label: str | None = None) -> Found:
    """COMBAT — RÈGLES GÉNÉRALES: a counter attacks or shoots once a turn, and not while held in
    a chasm. A garrison counter (``label`` in a city) counts the times its type acted."""
    out: Found = []
    if label is not None and hex_name in state.cities:
        done = sum(1 for k in state.acted if k == key(hex_name, label))
        if done >= (state.cities[hex_name].garrison or ()).count(label):
            out.append(
                Ruling.violation(
                    "acted-twice",
                    "every {label} of the garrison of {hex} has already attacked or shot this turn",
                    (CITIES,),
                    label=label,
                    hex=hex_name,
                )
            )
        return out
    if any(k.startswith(hex_name + ":") for k in state.acted):
        out.append(
            Ruling.violation(
                "acted-twice", "the counter on {hex} has already attacked or shot this turn", (TURN,), hex=hex_name
            )
        )
    held = paralysed(state, hex_name, reads)
    if held is not None:
        out.append(held)
    return out


def garrison_actor(
    state: ZargoState, city_hex: str, label: str | None, able: Callable[[Unit], bool], reads: Reads
) -> str | Found:
    """LA CONQUÊTE D'UNE VILLE (rules.yaml ``sally``): returns the garrison counter of the active
    people's city that acts (``label``, or the only one able), or why none may."""
    out = own_turn(state)
    if out:
        return out
    city = state.cities.get(city_hex)
    if city is None:
        return [Ruling.violation("no-city", "no city stands on {hex}", (CITIES,), hex=city_hex)]
    reads.use("sally")
    if city.owner != state.active:
        return [
            Ruling.violation(
                "not-yours", "the city on {hex} belongs to the {owner}", (CITIES,), hex=city_hex, owner=city.owner
            )
        ]
    if city.garrison is None:
        return [
            Ruling.violation(
                "garrison-hidden",
                "the garrison of {hex} is face down: its owner reveals it before it acts",
                (CITIES,),
                hex=city_hex,
            )
        ]
    fit = sorted({g for g in city.garrison if able(unit(state, g))})
    if label is None:
        if len(fit) == 1:
            return fit[0]
        if not fit:
            return [Ruling.violation("no-power", "no counter of the garrison of {hex} can do that", (CITIES,),
                                     hex=city_hex)]
        return [
            Ruling.violation(
                "name-the-counter",
                "several counters of the garrison of {hex} could act ({labels}): name one",
                (CITIES,),
                hex=city_hex,
                labels=", ".join(fit),
            )
        ]
    if label not in city.garrison:
        return [Ruling.violation("not-there", "no {label} stands in the garrison of {hex}", (CITIES,), label=label,
                                 hex=city_hex)]
    if label not in fit:
        return [Ruling.violation("no-power", "{label} cannot do that", (CITIES,), label=label)]
    return label
