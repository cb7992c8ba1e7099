"""What a combat result does to the counters (rulebook "COMBAT — RÈGLES GÉNÉRALES", "ESCORTES",
"LA CONQUÊTE D'UNE VILLE"): eliminations, exchanges and retreats.

The result codes of the combat table: **AE** the attackers are eliminated, **AR** they retreat,
**-** nothing happens, **EX** both sides lose their weakest counter, **DR** the defender
retreats, **DE** the defender is eliminated. A retreat goes, one hex at a time, to the first free
plain hex farther from the enemy (rules.yaml ``retreat-path``); a counter that meets only sea,
woods, mountains, chasms, cities or counters dies (``retreat-obstacles``). An escort dies alone
and its escorted counter retreats (``escorted-retreat`` says how far). A garrison counter that
sallied and must retreat goes back inside, or dies (``sally-retreat``).
"""

from __future__ import annotations

from referee.games.zargo.rules import CITIES, COMBAT, ESCORTS
from referee.games.zargo.state import Turn, ZargoState, cell, split_key, unit
from referee.games.zargo.world import Terrain
from referee.i18n import N_
from referee.rulings import Ruling

__all__ = ["RESULT_MEANING", "apply_result", "lose_attacker", "lose_fighter", "retreat"]

RESULT_MEANING = {
    "AE": N_("the attackers are eliminated"),
    "AR": N_("the attackers retreat"),
    "-": N_("nothing happens"),
    "EX": N_("each side loses its weakest counter"),
    "DR": N_("the defender retreats"),
    "DE": N_("the defender is eliminated"),
}
"""What each result code of the combat table means (shown by ``odds`` and the combat events)."""


def retreat(state: ZargoState, w: Turn, hex_name: str, steps: int, away: list[str], why: str) -> str | None:
    """Moves a stack ``steps`` hexes away from ``away``, each step to the first free plain hex
    farther from all of them; a stack with nowhere to go is eliminated. Returns its hex."""
    world = state.tables.world
    grid = world.grid
    w.reads.use("retreat-path", "retreat-obstacles")
    far = [cell(state, h) for h in away]
    here = cell(state, hex_name)
    labels = w.board[hex_name]
    for _ in range(steps):
        now = min(grid.distance(here, f) for f in far)
        nxt = None
        for n in grid.neighbours(here):
            if grid.distance(here, n) != 1:  # side by side only: never over a bridge or a lettered edge
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
        w.board[grid.name(nxt)] = w.board.pop(grid.name(here))
        here = nxt
    w.events.append(
        Ruling.event(
            "retreat", "{what} on {start} retreats to {end}", (COMBAT,),
            what=" + ".join(labels), start=hex_name, end=grid.name(here),
        )
    )
    return grid.name(here)


def lose_fighter(state: ZargoState, w: Turn, hex_name: str, away: list[str], why: str) -> None:
    """ESCORTES: the escort (or a lone counter) dies; an escorted counter left alone retreats
    its full move, or as a combat retreat (rules.yaml ``escorted-retreat``)."""
    stack = w.board.get(hex_name)
    if not stack:
        return
    w.eliminate(hex_name, stack[0], why)
    rest = w.board.get(hex_name)
    if rest:
        how = w.reads.choice(state.tables, "escorted-retreat")
        steps = unit(state, rest[0]).move if how == "full-move" else state.tables.tables.combat.retreat_hexes
        w.events.append(
            Ruling.event("escort-lost", "{label} on {hex} loses its escort and retreats", (ESCORTS,),
                         label=rest[0], hex=hex_name)
        )
        retreat(state, w, hex_name, steps, away, why)


def lose_attacker(state: ZargoState, w: Turn, ident: str, target: str, why: str) -> None:
    """An attacker dies: a counter on the board as :func:`lose_fighter`; a garrison counter
    that sallied leaves its city's garrison."""
    hex_name, label = split_key(ident)
    if label is None:
        lose_fighter(state, w, hex_name, [target], why)
        return
    city = w.cities[hex_name]
    garrison = list(city.garrison or ())
    if label in garrison:
        garrison.remove(label)
        w.cities[hex_name] = city.model_copy(update={"garrison": tuple(garrison)})
        w.lose(label)
        w.events.append(
            Ruling.event("eliminated", "{label} on {hex} is eliminated ({why})", (CITIES,), label=label, hex=hex_name,
                         why=why)
        )


def _retreat_attacker(state: ZargoState, w: Turn, ident: str, target: str) -> None:
    hex_name, label = split_key(ident)
    if label is None:
        if hex_name in w.board:
            retreat(state, w, hex_name, state.tables.tables.combat.retreat_hexes, [target], N_("retreat"))
        return
    if w.reads.choice(state.tables, "sally-retreat") == "eliminated":
        lose_attacker(state, w, ident, target, N_("retreat"))
    else:
        w.events.append(
            Ruling.event("sally-back", "{label} falls back into the city on {hex}", (CITIES,), label=label,
                         hex=hex_name)
        )


def attacker_value(state: ZargoState, ident: str) -> tuple[int, str]:
    """The combat factor of an attacker and a tie-break, to find the weakest."""
    hex_name, label = split_key(ident)
    lab = label if label is not None else state.board[hex_name][0]
    return unit(state, lab).combat, ident


def _alive(w: Turn, ident: str) -> bool:
    hex_name, label = split_key(ident)
    if label is None:
        return hex_name in w.board
    return label in (w.cities[hex_name].garrison or ()) if hex_name in w.cities else False


def apply_result(state: ZargoState, w: Turn, result: str, target: str, attackers: list[str]) -> None:
    """Applies a combat table result against a counter on the board."""
    steps = state.tables.tables.combat.retreat_hexes
    alive = [i for i in attackers if _alive(w, i)]
    if result == "DE":
        lose_fighter(state, w, target, [split_key(i)[0] for i in alive], N_("combat"))
    elif result == "DR":
        retreat(state, w, target, steps, [split_key(i)[0] for i in alive], N_("retreat"))
    elif result == "EX":
        lose_fighter(state, w, target, [split_key(i)[0] for i in alive], N_("exchange"))
        if alive:
            weakest = min(alive, key=lambda i: attacker_value(state, i))
            lose_attacker(state, w, weakest, target, N_("exchange"))
    elif result == "AR":
        for i in alive:
            _retreat_attacker(state, w, i, target)
    elif result == "AE":
        for i in alive:
            lose_attacker(state, w, i, target, N_("combat"))
