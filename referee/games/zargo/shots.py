"""Arrows, flames and visions (rulebook "DÉTAIL DES CAPACITÉS — FANTARCHERS AILÉS", "— DRAGONS",
"— LANCE-FLAMMES", "— MOINES ILLUSIONNISTES", "LA CONQUÊTE D'UNE VILLE").

A shot replaces a combat: the shooter stands alone (an escorted counter has no power) and
reaches its target within its range, read on the printed map (rules.yaml ``shots-plane``);
arrows fly along a straight hex row (``arrow-line``) and the two archers' ranges follow
``archer-ranges``. Shots never touch a city, but a city's open garrison shoots at the besiegers
from inside (``city-shot-targets`` says which enemies it reaches). Shots are settled before the
combats: arrows and flames hit when die + modifiers reaches the table's number for the
distance, flames on one target add up (``flames-add-up``), a vision may force a retreat.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.dice import Dice
from referee.games.zargo import actions as act
from referee.games.zargo.acting import Found, active_stack, engaged, garrison_actor
from referee.games.zargo.combat import RECONSTRUCTION_NOTE, attackable, die
from referee.games.zargo.paths import hex_direction
from referee.games.zargo.results import lose_fighter, retreat
from referee.games.zargo.rules import ARCHERS, CITIES, DRAGONS, ESCORTS, FLAMERS, ILLUSIONISTS, RECONSTRUCTION
from referee.games.zargo.state import Shot, Turn, ZargoState, adjacent, cell, key, unit
from referee.games.zargo.tables import UNRECORDED, Reads, ShotTable, Unit, VisionTable
from referee.i18n import N_
from referee.phrases import form
from referee.rulings import RuleRef, Ruling

__all__ = ["SHOT_POWERS", "check_shot", "resolve_shots", "shooter_of", "shot_range"]

SHOT_POWERS = {"arrow": ("arrows",), "flame": ("flames", "flames-after-move"), "vision": ("visions",)}
"""The powers that throw each kind of shot (peoples.yaml ``powers``)."""
CITES: dict[str, tuple[RuleRef, ...]] = {"arrow": (ARCHERS,), "flame": (DRAGONS, FLAMERS), "vision": (ILLUSIONISTS,)}


FLAMES_ROLL = form(N_("flames at {target}"))  # a roll's purpose: its words seed a digital roll

ARROW_ROLL = form(N_("arrow at {target}"))  # a roll's purpose: its words seed a digital roll

VISION_ROLL = form(N_("vision at {target}"))  # a roll's purpose: its words seed a digital roll

def table_of(state: ZargoState, kind: str) -> ShotTable | VisionTable:
    """Returns the table of a kind of shot."""
    t = state.tables.tables
    return t.visions if kind == "vision" else t.arrows if kind == "arrow" else t.flames


def shot_range(state: ZargoState, kind: str, shooter: Unit, reads: Reads) -> int:
    """Returns how far a counter's shot reaches: its range, within its table's, the Winged
    archers' shorter where rules.yaml ``archer-ranges`` says so."""
    limit = min(shooter.range or 0, table_of(state, kind).max_range)
    if kind == "arrow":
        reading = reads.choice(state.tables, "archer-ranges")
        short = state.tables.tables.arrows.short_range
        if reading == "knights-eight-winged-five" and shooter.people == "ailes" and short is not None:
            limit = min(limit, short)
    return limit


def _able(kind: str) -> Callable[[Unit], bool]:
    return lambda u: bool(set(SHOT_POWERS[kind]) & set(u.powers))


def shooter_of(state: ZargoState, a: act.Shoot, reads: Reads) -> tuple[str, bool] | Found:
    """Returns the label of the counter that shoots and whether it shoots from its city, or why
    it may not (not its turn, escorted, no such power, already engaged, held in a chasm)."""
    from_city = a.label is not None or (a.source in state.cities and a.source not in state.board)
    if from_city:
        actor = garrison_actor(state, a.source, a.label, _able(a.kind), reads)
        if isinstance(actor, list):
            return actor
        busy = engaged(state, a.source, reads, actor)
        return busy if busy else (actor, True)
    stack = active_stack(state, a.source)
    if not isinstance(stack, tuple):
        return stack
    out: Found = []
    if len(stack) != 1:
        out.append(Ruling.violation("escorted-power", "the counter on {hex} is escorted and has no power",
                                    (ESCORTS,), hex=a.source))
    shooter = unit(state, stack[0])
    if not set(SHOT_POWERS[a.kind]) & set(shooter.powers):
        out.append(Ruling.violation("no-power", "{label} cannot throw {kind}", CITES[a.kind], label=shooter.label,
                                    kind=a.kind))
    out += engaged(state, a.source, reads)
    return out if out else (stack[0], False)


def check_shot(state: ZargoState, a: act.Shoot, reads: Reads = UNRECORDED) -> Found:
    """Arrows (straight hex rows), flames (any hex within the radius) and visions, instead of a
    combat; never at a city; from a city's open garrison only at the enemies it reaches."""
    found = shooter_of(state, a, reads)
    if isinstance(found, list):
        return found
    label, from_city = found
    shooter = unit(state, label)
    cites = CITES[a.kind]
    out: Found = []
    reads.use("shots-plane")
    if a.target in state.cities and a.target not in state.board:
        out.append(Ruling.violation("city-immune", "arrows, flames and visions do not touch a city", (CITIES,)))
    else:
        wrong = attackable(state, str(state.active), a.target, reads)
        if wrong is not None:
            out.append(wrong)
    if from_city and not out:
        besieger = adjacent(state, a.source, a.target, UNRECORDED)
        reading = reads.choice(state.tables, "city-shot-targets")
        if reading == "besiegers-only" and not besieger:
            out.append(Ruling.violation("not-a-besieger", "a garrison shoots only at the besiegers next to {hex}",
                                        (CITIES,), hex=a.source))
    if out:
        return out
    grid = state.tables.world.grid
    d = grid.distance(cell(state, a.source), cell(state, a.target))
    limit = shot_range(state, a.kind, shooter, reads)
    if d > limit:
        out.append(
            Ruling.violation(
                "out-of-range", "{target} is at distance {d}; {label} reaches {limit}", (*cites, RECONSTRUCTION),
                target=a.target, d=d, label=shooter.label, limit=limit,
            )
        )
    if a.kind == "arrow":
        straight = hex_direction(grid, cell(state, a.source), cell(state, a.target)) is not None
        if reads.choice(state.tables, "arrow-line") == "six-directions" and not straight:
            out.append(
                Ruling.violation(
                    "not-straight", "{target} is not on a straight hex row from {source}", cites,
                    target=a.target, source=a.source,
                )
            )
    return out


def declare_shot(state: ZargoState, a: act.Shoot) -> dict[str, object]:
    """Returns the changes a legal shot's declaration makes (the shot, the shooter engaged)."""
    found = shooter_of(state, a, UNRECORDED)
    assert not isinstance(found, list)
    label, from_city = found
    shot = Shot(kind=a.kind, source=a.source, target=a.target, label=label if from_city else None)
    return {"shots": (*state.shots, shot), "acted": (*state.acted, key(a.source, label))}


def resolve_shots(state: ZargoState, w: Turn, dice: Dice) -> None:
    """COMMENT ON JOUE: every declared shot, in order, before the combats."""
    done_flames: set[str] = set()
    for shot in state.shots:
        stack = w.board.get(shot.target)
        if not stack or unit(state, stack[0]).people == state.active:
            continue
        w.notes.append(RECONSTRUCTION_NOTE)
        if shot.kind == "flame":
            if shot.target not in done_flames:
                done_flames.add(shot.target)
                _flames(state, w, dice, [s for s in state.shots if s.kind == "flame" and s.target == shot.target])
        elif shot.kind == "arrow":
            _arrow(state, w, dice, shot)
        else:
            _vision(state, w, dice, shot)


def _distance(state: ZargoState, shot: Shot) -> int:
    return state.tables.world.grid.distance(cell(state, shot.source), cell(state, shot.target))


def shot_hits(table: ShotTable, distance: int, face: int, modifier: int = 0) -> bool:
    """Returns whether a shot at ``distance`` hits with this die (never beyond the table)."""
    need = table.hit_on.get(distance)
    return need is not None and face + modifier >= need


def _flames(state: ZargoState, w: Turn, dice: Dice, group: list[Shot]) -> None:
    """DRAGONS: flames on one target add up, as one roll with +1 per extra flame at the nearest
    flamer's distance, or as separate rolls, any hit burning it (rules.yaml ``flames-add-up``)."""
    table = state.tables.tables.flames
    target = group[0].target
    how = w.reads.choice(state.tables, "flames-add-up") if len(group) > 1 else "one-roll-plus-one"
    rolls: list[tuple[int, int, int]] = []  # (distance, face, modifier)
    if how == "separate-rolls":
        for s in group:
            rolls.append((_distance(state, s), die(dice, FLAMES_ROLL.format(target=target)), 0))
    else:
        extra = (table.extra_flame_modifier or 0) * (len(group) - 1)
        rolls.append((min(_distance(state, s) for s in group), die(dice, FLAMES_ROLL.format(target=target)), extra))
    hit = any(shot_hits(table, d, face, extra) for d, face, extra in rolls)
    faces = ", ".join(f"{face}+{extra}" if extra else str(face) for _d, face, extra in rolls)
    w.events.append(
        Ruling.counted(
            "flames", "{n} flame at {hex}, at distance {d}: die {faces}: {result}",
            "{n} flames at {hex}, the nearest at distance {d}: dice {faces}: {result}", len(group),
            (DRAGONS, FLAMERS), hex=target, d=min(d for d, _f, _e in rolls), faces=faces,
            result=N_("hit") if hit else N_("missed"),
        )
    )
    if hit:
        lose_fighter(state, w, target, [s.source for s in group], N_("burnt"))


def _arrow(state: ZargoState, w: Turn, dice: Dice, shot: Shot) -> None:
    d = _distance(state, shot)
    face = die(dice, ARROW_ROLL.format(target=shot.target))
    hit = shot_hits(state.tables.tables.arrows, d, face)
    w.events.append(
        Ruling.event(
            "arrow", "arrow from {src} at {hex}, at distance {d}: die {die}: {result}", (ARCHERS,),
            src=shot.source, hex=shot.target, d=d, die=face, result=N_("hit") if hit else N_("missed"),
        )
    )
    if hit:
        lose_fighter(state, w, shot.target, [shot.source], N_("shot"))


def _vision(state: ZargoState, w: Turn, dice: Dice, shot: Shot) -> None:
    table = state.tables.tables.visions
    d = _distance(state, shot)
    face = die(dice, VISION_ROLL.format(target=shot.target))
    score = max(1, min(6, face + table.distance_modifier * (d - 1)))
    result = table.results[score]
    w.events.append(
        Ruling.event(
            "vision", "vision from {src} at {hex}, at distance {d}: die {die}: {result}", (ILLUSIONISTS,),
            src=shot.source, hex=shot.target, d=d, die=face, result=result,
        )
    )
    if result != "none":
        retreat(state, w, shot.target, int(result[1:]), [shot.source], N_("vision"))
