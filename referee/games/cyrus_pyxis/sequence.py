"""II, III: set-up order, the steps of a turn, and the checks of set-up, ``done`` and ``resolve``.

Set-up: Greek then Persian lay 14 forests each, then 6 hills each (never on lines 1, 2, 11, 12),
then the Greek deploys on lines 1–2 and the Persian on 11–12; the Greek plays first. A turn is
movement, support declarations (attacker, then defender), combat; then the other side. A step in
which nobody can act is skipped, and the skip is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from referee.games.cyrus_pyxis.actions import Deploy, PlaceTerrain
from referee.games.cyrus_pyxis.movement import game_over
from referee.games.cyrus_pyxis.rules import (
    COMBAT_STEP,
    FIRST_PLAYER,
    MOVE_STEP,
    OTHER_SIDE,
    SETUP,
    SETUP_FORESTS,
    SETUP_GREEK,
    SETUP_HILLS,
    SETUP_PERSIAN,
    SUPPORT_DECLARATION,
    SUPPORT_STEP,
    TERRAIN_TOKENS,
    TURN,
)
from referee.games.cyrus_pyxis.state import CyrusState, Occupancy, occupancy
from referee.games.cyrus_pyxis.support import possible_supports
from referee.games.cyrus_pyxis.tables import (
    HOME_NUMBERS,
    NO_TERRAIN_NUMBERS,
    PLURAL,
    SETUP_STEPS,
    Legion,
    Phase,
    Side,
    Terrain,
)
from referee.geometry.search import Cell
from referee.rulings import RuleRef, Ruling

_STEP_RULE: dict[str, tuple[RuleRef, ...]] = {
    "forest": (SETUP_FORESTS,),
    "hill": (SETUP_HILLS,),
}


def setup_progress(state: CyrusState) -> tuple[Side, str, int, int]:
    """II: the side, the item ('forest', 'hill', 'legions'), the count due, and how many are laid."""
    side, what, count = SETUP_STEPS[state.setup_step]
    if what == "legions":
        placed = sum(1 for n in state.where if state.tables.by_id[n].side is side)
    else:
        earlier = sum(c for s_, w, c in SETUP_STEPS[: state.setup_step] if w == what)
        placed = sum(1 for t in state.terrain.values() if t.value == what) - earlier
    return side, what, count, placed


def setup_rule(side: Side, what: str) -> tuple[RuleRef, ...]:
    """II.1–II.4: the section governing a set-up step."""
    if what == "legions":
        return (SETUP_GREEK,) if side is Side.GREEK else (SETUP_PERSIAN,)
    return _STEP_RULE[what]


def number_of(state: CyrusState, cell: Cell) -> int:
    """Matériel II.1: the printed number (line) of a cell."""
    return state.tables.grid.rc(cell)[1] + 1


# ---------------------------------------------------------------------------------------------
# Set-up checks


@dataclass
class SetupContext:
    """One set-up placement being judged."""

    state: CyrusState
    occ: Occupancy
    cell: Cell
    terrain: str | None = None
    legion: Legion | None = None


def check_setup_step(ctx: SetupContext) -> Ruling | None:
    """II: placements follow the set-up order (forests, hills, Greek legions, Persian legions)."""
    state = ctx.state
    if state.phase is not Phase.SETUP:
        return Ruling.violation("wrong-phase", "the set-up is over; legions now move instead", (SETUP, FIRST_PLAYER))
    side, what, count, placed = setup_progress(state)
    wanted = ctx.terrain if ctx.terrain else "legions"
    if wanted == what:
        if ctx.legion is not None and ctx.legion.side is not side:
            return Ruling.violation(
                "not-your-legion", "{legion} is {side}; the {active} deploys now", setup_rule(side, what),
                legion=ctx.legion.name, side=ctx.legion.side.label, active=side.label,
            )
        return None
    return Ruling.violation(
        "wrong-phase", "the {side} lays {what} now ({placed} of {count} done); {wanted} come later or are done",
        (SETUP, *setup_rule(side, what)), side=side.label, what=PLURAL[what], placed=placed, count=count,
        wanted=PLURAL[wanted],
    )


def check_terrain_line(ctx: SetupContext) -> Ruling | None:
    """II.1, II.2: no terrain token on lines 1, 2, 11 and 12."""
    if ctx.terrain is None:
        return None
    number = number_of(ctx.state, ctx.cell)
    if number not in NO_TERRAIN_NUMBERS:
        return None
    return Ruling.violation(
        "terrain-line", "{cell} is on line {line}; lines 1, 2, 11 and 12 take no terrain", _STEP_RULE[ctx.terrain],
        cell=ctx.state.name(ctx.cell), line=number,
    )


def check_cell_free(ctx: SetupContext) -> Ruling | None:
    """Matériel II.2, II.3–II.4: one terrain token per cell; one legion per cell at deployment."""
    state, name = ctx.state, ctx.state.name(ctx.cell)
    if ctx.terrain is not None:
        there = state.terrain.get(ctx.cell)
        if there is None:
            return None
        return Ruling.violation("cell-occupied", "{cell} already holds a {terrain} token", (TERRAIN_TOKENS,),
                                cell=name, terrain=there.value)
    others = ctx.occ.at(ctx.cell)
    if not others:
        return None
    assert ctx.legion is not None
    return Ruling.violation(
        "cell-occupied", "{legion} already stands on {cell}", setup_rule(ctx.legion.side, "legions"),
        legion=others[0].name, cell=name,
    )


def check_home_line(ctx: SetupContext) -> Ruling | None:
    """II.3, II.4: Greeks deploy on lines 1–2, Persians on lines 11–12."""
    if ctx.legion is None:
        return None
    number = number_of(ctx.state, ctx.cell)
    lines = HOME_NUMBERS[ctx.legion.side]
    if number in lines:
        return None
    first, last = sorted(lines)
    return Ruling.violation(
        "setup-line", "the {side} deploys on lines {first} and {last}; {cell} is on line {line}",
        setup_rule(ctx.legion.side, "legions"), side=ctx.legion.side.label, first=first, last=last,
        cell=ctx.state.name(ctx.cell), line=number,
    )


def check_not_deployed(ctx: SetupContext) -> Ruling | None:
    """II.3, II.4: each legion is deployed once."""
    if ctx.legion is None or ctx.legion.name not in ctx.state.where:
        return None
    cell = ctx.state.where[ctx.legion.name]
    return Ruling.violation(
        "already-placed", "{legion} is already deployed on {cell}", setup_rule(ctx.legion.side, "legions"),
        legion=ctx.legion.name, cell=ctx.state.name(cell),
    )


SETUP_CHECKS: tuple[Callable[[SetupContext], Ruling | None], ...] = (
    check_setup_step,
    check_terrain_line,
    check_cell_free,
    check_home_line,
    check_not_deployed,
)


def apply_setup(state: CyrusState, action: PlaceTerrain | Deploy) -> tuple[CyrusState, list[Ruling]]:
    """II: lays a token or deploys a legion, then moves to the next step when this one is done."""
    cell = state.tables.grid.parse(action.cell)
    if isinstance(action, PlaceTerrain):
        state = state.model_copy(update={"terrain": {**state.terrain, cell: Terrain(action.terrain)}})
    else:
        legion = state.tables.legion(action.legion)
        state = state.model_copy(update={"where": {**state.where, legion.name: cell}})
    events: list[Ruling] = []
    while state.phase is Phase.SETUP:
        side, what, count, placed = setup_progress(state)
        if placed < count:
            break
        if state.setup_step + 1 < len(SETUP_STEPS):
            state = state.model_copy(update={"setup_step": state.setup_step + 1})
            nside, nwhat, ncount, _ = setup_progress(state)
            events.append(Ruling.event(
                "setup-step", "the {side} has laid {count} {what}; the {next} lays {next_count} {next_what} next",
                setup_rule(nside, nwhat), side=side.label, count=count, what=PLURAL[what], next=nside.label,
                next_count=ncount, next_what=PLURAL[nwhat]))
        else:
            state = state.model_copy(update={"phase": Phase.MOVE, "active": Side.GREEK, "turn": 1})
            events.append(Ruling.event("setup-complete", "set-up complete; the Greek plays first", (FIRST_PLAYER,)))
    return state, events


def legal_setup_cells(state: CyrusState, occ: Occupancy) -> list[Cell]:
    """II: the cells the current set-up step may use."""
    side, what, _, _ = setup_progress(state)
    out: list[Cell] = []
    for cell in state.tables.grid.cells():
        number = number_of(state, cell)
        if what == "legions":
            if number in HOME_NUMBERS[side] and not occ.at(cell):
                out.append(cell)
        elif number not in NO_TERRAIN_NUMBERS and cell not in state.terrain:
            out.append(cell)
    return out


# ---------------------------------------------------------------------------------------------
# Steps of a turn


def check_done(state: CyrusState) -> Ruling | None:
    """III: 'done' ends the movement step or a side's support declarations."""
    if state.phase in (Phase.MOVE, Phase.SUPPORT, Phase.ANY):
        return None
    if state.phase is Phase.SETUP:
        side, what, count, placed = setup_progress(state)
        return Ruling.violation(
            "wrong-phase", "the set-up ends by itself once all is laid: the {side} has {placed} of {count} {what}",
            (SETUP,), side=side.label, placed=placed, count=count, what=PLURAL[what],
        )
    if state.phase is Phase.OVER:
        return game_over(state)
    return Ruling.violation("wrong-phase", "the combats wait to be resolved: type resolve", (COMBAT_STEP,))


def pending_declarers(state: CyrusState) -> list[Side]:
    """III.2: the sides that may still declare supports before combat."""
    if state.phase in (Phase.MOVE, Phase.ANY):
        return [state.active, state.active.other]
    if state.phase is Phase.SUPPORT and state.declaring is not None:
        return [state.declaring] if state.declaring is not state.active else [state.active, state.active.other]
    return []


def check_resolve(state: CyrusState) -> Ruling | None:
    """III.3: combats are resolved once no side can still declare a support."""
    if state.phase in (Phase.COMBAT, Phase.ANY):
        return None
    if state.phase is Phase.OVER:
        return game_over(state)
    if state.phase is Phase.SETUP:
        return Ruling.violation("wrong-phase", "no combat during the set-up", (SETUP,))
    if state.phase is Phase.MOVE:  # III.1-3: resolving now would end the movement unasked
        return Ruling.violation("still-moving", "the {side} is still moving: type done to end the movement, then "
                                "declare supports; combats are resolved after", (MOVE_STEP, SUPPORT_STEP, COMBAT_STEP),
                                side=state.active.label)
    occ = occupancy(state)
    for side in pending_declarers(state):
        options = possible_supports(state, occ, side)
        if options:
            archer, legion = options[0]
            return Ruling.violation(
                "supports-pending", "{archer} could still support {legion}: the {side} declares supports or types "
                "done first", (SUPPORT_STEP, SUPPORT_DECLARATION), archer=archer, legion=legion, side=side.label,
            )
    return None


def end_turn(state: CyrusState) -> tuple[CyrusState, list[Ruling]]:
    """III.4: the other side's turn begins (a new turn number after the Persian's)."""
    nxt = state.active.other
    turn = state.turn + 1 if state.active is Side.PERSIAN else state.turn
    new = state.model_copy(
        update={"phase": Phase.MOVE, "active": nxt, "turn": turn, "moved": (), "supports": {}, "declaring": None}
    )
    return new, [Ruling.event("turn", "turn {turn}: the {side} moves", (OTHER_SIDE, TURN), turn=turn, side=nxt.label)]


def end_movement(state: CyrusState) -> tuple[CyrusState, list[Ruling]]:
    """III.1–III.2: after movement, supports if there is a combat, else the next turn."""
    occ = occupancy(state)
    if not occ.combats():
        new, events = end_turn(state)
        return new, [Ruling.event("no-combat", "the {side} made no attack", (MOVE_STEP,), side=state.active.label),
                     *events]
    new = state.model_copy(update={"phase": Phase.SUPPORT, "declaring": state.active})
    count = len(occ.combats())
    opened = Ruling.counted(
        "support-step", "movement over with {n} combat; archer supports are declared, the {side} first",
        "movement over with {n} combats; archer supports are declared, the {side} first", count,
        (SUPPORT_STEP, SUPPORT_DECLARATION), side=state.active.label,
    )
    return advance_support(new, [opened])


def advance_support(state: CyrusState, events: list[Ruling]) -> tuple[CyrusState, list[Ruling]]:
    """III.2: skips the declarations of a side none of whose archers can support."""
    while state.phase is Phase.SUPPORT and state.declaring is not None:
        side = state.declaring
        if possible_supports(state, occupancy(state), side):
            return state, events
        events.append(
            Ruling.event("support-skipped", "no {side} archer can support a combat now", (SUPPORT_STEP,),
                         side=side.label)
        )
        state = finish_declarations(state)
    return state, events


def finish_declarations(state: CyrusState) -> CyrusState:
    """VI.1: attacker then defender; after the defender, combat."""
    if state.declaring is state.active:
        return state.model_copy(update={"declaring": state.active.other})
    return state.model_copy(update={"phase": Phase.COMBAT, "declaring": None})

