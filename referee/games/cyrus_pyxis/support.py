"""IV.2: archer support: its range, the checks of one support declaration, and the supports a
side may still declare.

An archer adds one to a friendly legion in a combat within range (2 squares from a plain, 3
from a hill, none from a forest), along orthogonal steps that may pass over legions but never
through forest or hill; once per archer per turn, one archer per legion, no support for a combat
in forest, none from an engaged archer. Entry points: :data:`SUPPORT_CHECKS`,
:func:`possible_supports`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.games.cyrus_pyxis.movement import game_over, kind_word
from referee.games.cyrus_pyxis.rules import (
    ARCHER_SUPPORT,
    ARCHERS,
    COMBAT,
    COMBAT_STEP,
    MOVE_STEP,
    SETUP,
    SUPPORT_DECLARATION,
    SUPPORT_STEP,
)
from referee.games.cyrus_pyxis.state import CyrusState, Occupancy
from referee.games.cyrus_pyxis.tables import PLURAL, SETUP_STEPS, Kind, Legion, LegionId, Phase, Side, Terrain
from referee.geometry.search import Cell, SearchResult
from referee.rulings import Ruling

ARCHER_RANGE: dict[Terrain, int] = {Terrain.PLAIN: 2, Terrain.HILL: 3, Terrain.FOREST: 0}  # IV.2-1
SUPPORT_BONUS = 1  # IV.2-2


def arrow_reach(state: CyrusState, archer_cell: Cell, not_over: frozenset[Cell] = frozenset()) -> SearchResult:
    """IV.2-1: cells an archer's support reaches: orthogonal steps within range, over legions,
    never through a forest or hill cell (such a cell may still be the last one). ``not_over``:
    cells the arrows may not fly over either (to test the other reading of arrows-over-enemies)."""
    limit = ARCHER_RANGE[state.terrain_at(archer_cell)]
    return state.tables.grid.search(
        archer_cell, limit, lambda c: True, lambda c: state.terrain_at(c) is Terrain.PLAIN and c not in not_over
    )


# ---------------------------------------------------------------------------------------------
# Support checks


@dataclass
class SupportContext:
    """One support declaration being judged."""

    state: CyrusState
    occ: Occupancy
    archer: Legion
    legion: Legion

    def cell(self, legion: Legion) -> Cell | None:
        return self.state.where.get(legion.name)

    def name(self, cell: Cell) -> str:
        return self.state.tables.grid.name(cell)


def check_support_phase(ctx: SupportContext) -> Ruling | None:
    """III.2, VI.1: supports are declared after movement, the attacker first, then the defender."""
    state = ctx.state
    if state.phase is Phase.ANY:
        return None
    if state.phase is Phase.SUPPORT:
        if state.declaring is None or ctx.archer.side is state.declaring:
            return None
        args: dict[str, str] = {"side": state.declaring.label, "other": ctx.archer.side.label}
        if state.declaring is state.active:
            return Ruling.violation(
                "not-declaring", "the {side} declares supports now (the attacker declares first); {other} "
                "supports wait their turn", (SUPPORT_STEP, SUPPORT_DECLARATION), **args)
        return Ruling.violation(
            "not-declaring", "the {side} declares supports now (the attacker has finished); {other} "
            "supports wait their turn", (SUPPORT_STEP, SUPPORT_DECLARATION), **args)
    if state.phase is Phase.SETUP:
        side, what, _ = SETUP_STEPS[state.setup_step]
        return Ruling.violation("wrong-phase", "the set-up is not finished: the {side} lays {what}", (SETUP,),
                                side=side.label, what=PLURAL[what])
    if state.phase is Phase.OVER:
        return game_over(state)
    if state.phase is Phase.MOVE:
        return Ruling.violation("wrong-phase", "supports are declared once the {side} movement is over (type done)",
                                (MOVE_STEP, SUPPORT_STEP), side=state.active.label)
    return Ruling.violation(
        "wrong-phase", "the support step is over; the combats wait to be resolved", (SUPPORT_STEP, COMBAT_STEP)
    )


def check_is_archer(ctx: SupportContext) -> Ruling | None:
    """IV.2: only archers support."""
    if ctx.archer.kind is Kind.ARCHER:
        return None
    return Ruling.violation("not-an-archer", "{legion} is a {kind}, not an archer", (ARCHERS,),
                            legion=ctx.archer.name, kind=kind_word(ctx.state, ctx.archer.kind))


def check_both_in_play(ctx: SupportContext) -> Ruling | None:
    """VI: eliminated legions neither support nor fight."""
    gone = [lg.name for lg in (ctx.archer, ctx.legion) if ctx.cell(lg) is None]
    if not gone:
        return None
    if len(gone) == 1:
        return Ruling.violation("legion-eliminated", "{legion} is no longer in play", (COMBAT,), legion=gone[0])
    return Ruling.violation("legion-eliminated", "{legion} and {other} are no longer in play", (COMBAT,),
                            legion=gone[0], other=gone[1])


def check_same_side(ctx: SupportContext) -> Ruling | None:
    """IV.2: an archer supports a friendly legion."""
    if ctx.archer.side is ctx.legion.side:
        return None
    return Ruling.violation(
        "support-enemy", "{archer} is {side} and {legion} {other}; an archer supports only its own side", (ARCHERS,),
        archer=ctx.archer.name, side=ctx.archer.side.label, legion=ctx.legion.name, other=ctx.legion.side.label,
    )


def check_target_engaged(ctx: SupportContext) -> Ruling | None:
    """IV.2: the supported legion must be engaged in a combat."""
    cell = ctx.cell(ctx.legion)
    if cell is None or ctx.occ.combat_of(ctx.legion) is not None:
        return None
    return Ruling.violation(
        "not-in-combat", "{legion} on {cell} is not in a combat", (ARCHERS,), legion=ctx.legion.name,
        cell=ctx.name(cell),
    )


def archer_engaged(state: CyrusState, occ: Occupancy, archer: Legion) -> bool:
    """IV.2-1 (interpretation engaged-archer): whether an archer is barred from supporting."""
    cell = occ.combat_of(archer)
    if cell is None:
        return False
    if state.tables.interpretation_choice("engaged-archer") == "attacked-only":
        return archer.side is not state.active
    return True


def check_archer_free(ctx: SupportContext) -> Ruling | None:
    """IV.2-1: an archer in a combat cannot support (interpretation engaged-archer)."""
    if ctx.archer is ctx.legion or not archer_engaged(ctx.state, ctx.occ, ctx.archer):
        if ctx.archer is ctx.legion and ctx.occ.combat_of(ctx.archer) is not None:
            return Ruling.violation(
                "archer-engaged", "{archer} is in a combat and cannot support itself", (ARCHER_SUPPORT,),
                archer=ctx.archer.name,
            )
        return None
    cell = ctx.occ.combat_of(ctx.archer)
    assert cell is not None
    if ctx.archer.side is not ctx.state.active:
        return Ruling.violation("archer-engaged", "{archer} is attacked on {cell} and cannot support",
                                (ARCHER_SUPPORT,), archer=ctx.archer.name, cell=ctx.name(cell))
    return Ruling.violation("archer-engaged", "{archer} is attacking on {cell} and cannot support",
                            (ARCHER_SUPPORT,), archer=ctx.archer.name, cell=ctx.name(cell))


def check_archer_once(ctx: SupportContext) -> Ruling | None:
    """IV.2-1: one support per archer per turn."""
    already = ctx.state.supports.get(ctx.archer.name)
    if already is None:
        return None
    return Ruling.violation(
        "archer-already-supporting", "{archer} already supports {legion} this turn", (ARCHER_SUPPORT,),
        archer=ctx.archer.name, legion=already,
    )


def check_legion_once(ctx: SupportContext) -> Ruling | None:
    """IV.2-1: a legion in combat receives at most one support."""
    for archer, legion in ctx.state.supports.items():
        if legion == ctx.legion.name and archer != ctx.archer.name:
            return Ruling.violation(
                "already-supported", "{legion} already has {archer}'s support; one per legion", (ARCHER_SUPPORT,),
                legion=ctx.legion.name, archer=archer,
            )
    return None


def check_archer_terrain(ctx: SupportContext) -> Ruling | None:
    """IV.2-1: an archer in a forest cannot support."""
    cell = ctx.cell(ctx.archer)
    if cell is None or ctx.state.terrain_at(cell) is not Terrain.FOREST:
        return None
    return Ruling.violation(
        "archer-in-forest", "{archer} stands in the forest on {cell} and cannot support", (ARCHER_SUPPORT,),
        archer=ctx.archer.name, cell=ctx.name(cell),
    )


def check_combat_terrain(ctx: SupportContext) -> Ruling | None:
    """IV.2-1: a combat in a forest receives no support."""
    cell = ctx.occ.combat_of(ctx.legion)
    if cell is None or ctx.state.terrain_at(cell) is not Terrain.FOREST:
        return None
    return Ruling.violation(
        "combat-in-forest", "{legion} fights in the forest on {cell}; no support there", (ARCHER_SUPPORT,),
        legion=ctx.legion.name, cell=ctx.name(cell),
    )


def check_range(ctx: SupportContext) -> Ruling | None:
    """IV.2-1: the combat lies within range along a line of fire clear of forest and hill."""
    start, target = ctx.cell(ctx.archer), ctx.occ.combat_of(ctx.legion)
    if start is None or target is None:
        return None
    terrain = ctx.state.terrain_at(start)
    limit = ARCHER_RANGE[terrain]
    grid = ctx.state.tables.grid
    distance = grid.manhattan(start, target)
    farthest = max(ARCHER_RANGE.values())
    if limit == 0:  # the forest itself is reported by check_archer_terrain
        if distance <= farthest:
            return None
        return Ruling.violation(
            "out-of-range", "{legion}'s combat on {cell} is {distance} squares from {archer}, beyond the {farthest} "
            "an archer reaches even from a hill", (ARCHER_SUPPORT,), legion=ctx.legion.name, cell=ctx.name(target),
            distance=distance, archer=ctx.archer.name, farthest=farthest,
        )
    if distance > limit:  # said even when the combat is in a forest: every reason counts
        return Ruling.violation(
            "out-of-range", "{archer} on {terrain} at {start} reaches {limit} squares; {legion}'s combat on {cell} "
            "is {distance} away", (ARCHER_SUPPORT,), archer=ctx.archer.name, terrain=terrain.value,
            start=ctx.name(start), limit=limit, legion=ctx.legion.name, cell=ctx.name(target), distance=distance,
        )
    if ctx.state.terrain_at(target) is Terrain.FOREST or target in arrow_reach(ctx.state, start).distance:
        return None  # a combat in a forest is reported by check_combat_terrain
    return Ruling.violation(
        "arrows-blocked", "every line of fire of at most {limit} squares from {start} to {cell} passes through "
        "forest or hill", (ARCHER_SUPPORT,), limit=limit, start=ctx.name(start), cell=ctx.name(target),
    )


SUPPORT_CHECKS: tuple[Callable[[SupportContext], Ruling | None], ...] = (
    check_support_phase,
    check_is_archer,
    check_both_in_play,
    check_same_side,
    check_target_engaged,
    check_archer_free,
    check_archer_once,
    check_legion_once,
    check_archer_terrain,
    check_combat_terrain,
    check_range,
)


RANGE_CODES = frozenset({"out-of-range", "arrows-blocked"})


def support_disclosures(ctx: SupportContext, violations: Sequence[Ruling] = ()) -> tuple[str, ...]:
    """Interpretations that decide a support verdict: each is named only where the other reading
    would rule otherwise (``violations``: what the checks found; none for an applied support).

    - engaged-archer: the archer is attacking (an attacked archer is barred under both readings);
    - arrows-over-enemies: every line of fire in range flies over an enemy legion;
    - support-range-steps: counting diagonals as one square would reach a combat the steps do not;
    - support-once-per-turn: the Persian half of a turn (the archer may have supported in the
      Greek half, which a whole-turn reading would count).
    """
    rules, state = ctx.state.tables.rules, ctx.state
    codes = {v.code for v in violations}
    out: list[str] = []
    engaged = ctx.occ.combat_of(ctx.archer)
    if engaged is not None and ctx.archer is not ctx.legion and ctx.archer.side is state.active \
            and not codes - {"archer-engaged"}:
        out.append(rules.interpretation("engaged-archer").label())
    start, target = ctx.cell(ctx.archer), ctx.occ.combat_of(ctx.legion)
    if start is not None and target is not None and not codes - RANGE_CODES:
        grid = state.tables.grid
        limit = ARCHER_RANGE[state.terrain_at(start)]
        reach = arrow_reach(state, start)
        if target in reach.distance:
            if target not in arrow_reach(state, start, ctx.occ.enemy_of[ctx.archer.side]).distance:
                out.append(rules.interpretation("arrows-over-enemies").label())
        elif grid.chebyshev(start, target) <= limit:  # (within 3 squares a reached cell is never a detour)
            out.append(rules.interpretation("support-range-steps").label())
    if not codes and state.active is Side.PERSIAN:
        out.append(rules.interpretation("support-once-per-turn").label())
    return tuple(out)


def possible_supports(state: CyrusState, occ: Occupancy, side: Side) -> list[tuple[LegionId, LegionId]]:
    """Returns every (archer, legion) support a side may still declare (the checks' rules)."""
    engaged = [occ.side_at(c, side) for c in occ.combats()]
    targets = [lg for lg in engaged if lg is not None]
    out: list[tuple[LegionId, LegionId]] = []
    if not targets:
        return out
    supported = set(state.supports.values())
    for archer in state.tables.legions:
        if archer.side is not side or archer.kind is not Kind.ARCHER or archer.name in state.supports:
            continue
        cell = state.where.get(archer.name)
        if cell is None or ARCHER_RANGE[state.terrain_at(cell)] == 0 or archer_engaged(state, occ, archer):
            continue
        reach = arrow_reach(state, cell).distance
        for legion in targets:
            combat_cell = state.where[legion.name]
            if (
                legion.name not in supported
                and legion is not archer
                and state.terrain_at(combat_cell) is not Terrain.FOREST
                and combat_cell in reach
            ):
                out.append((archer.name, legion.name))
    return out
