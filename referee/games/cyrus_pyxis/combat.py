"""VI: combat resolution (deterministic: Cyrus & Pyxis has no dice); archer support (IV.2) is
judged in :mod:`~referee.games.cyrus_pyxis.support`.

Values by type and the combat cell's terrain (a phalanx uses its mounted value against cavalry
and elephants), plus support; the difference attacker − defender selects a band of the result
table; combats go eastmost first when the Greek attacks, westmost first when the Persian does,
each result standing for the next. Entry point: :func:`resolve_all`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from referee.games.cyrus_pyxis.rules import (
    BOARD,
    COMBAT,
    COMBAT_RESULT,
    COMBAT_VALUES,
    GAME_END,
    GOAL,
    PHALANX,
    SUPPORT_EFFECT,
    VALUE_TABLES,
)
from referee.games.cyrus_pyxis.state import CyrusState, english, occupancy
from referee.games.cyrus_pyxis.support import SUPPORT_BONUS
from referee.games.cyrus_pyxis.tables import Kind, Legion, LegionId, Phase, Result, Side, Terrain
from referee.geometry.search import Cell
from referee.rulings import RuleRef, Ruling


def combat_order(state: CyrusState, cells: list[Cell]) -> list[Cell]:
    """VI: eastmost first when the Greek attacks, westmost first when the Persian attacks;
    on one number line, letter order A→L (interpretation same-line-order)."""
    grid = state.tables.grid
    if state.active is Side.GREEK:
        return sorted(cells, key=lambda c: (-grid.rc(c)[1], grid.rc(c)[0]))
    return sorted(cells, key=lambda c: (grid.rc(c)[1], grid.rc(c)[0]))


# ---------------------------------------------------------------------------------------------
# Resolution


class Strength(BaseModel):
    """One side of a combat: base value from the table, the support bonus, the total."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    legion: str
    side: Side
    kind: Kind
    base: int
    base_source: str
    base_provenance: str
    support: str | None = None
    bonus: int = 0
    total: int


class Retreat(BaseModel):
    """VI: where a retreating legion went, or why it was eliminated."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    legion: str
    start: str
    path: tuple[str, ...]
    to: str | None
    eliminated: bool
    off_board: bool = False
    reason: str = ""


class CombatResult(BaseModel):
    """One resolved combat, carrying its own explanation."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    order: int
    cell: str
    terrain: Terrain
    attacker: Strength
    defender: Strength
    difference: int
    outcome: Result
    band: str
    retreat: Retreat | None = None
    eliminated: tuple[str, ...] = ()
    victory: Side | None = None
    provisional: tuple[str, ...] = ()
    cites: tuple[RuleRef, ...] = ()

    def summary(self) -> str:
        """Returns the one-line explanation shown to players."""
        def side(s: Strength) -> str:
            return f"{s.legion} {s.base} +{s.bonus} {s.support} = {s.total}" if s.support else f"{s.legion} {s.base}"

        head = (
            f"{self.cell} ({self.terrain}): {side(self.attacker)} vs {side(self.defender)}, "
            f"difference {signed(self.difference)} (band {self.band})"
        )
        return f"{head}: {outcome_text(self)}"


_HEAD = "{order}. {cell} ({terrain}): {attacker} vs {defender}, difference {difference} (band {band}): "


def result_ruling(result: CombatResult, holder: str | None = None) -> Ruling:
    """Returns the combat-result event: the explanation of :meth:`CombatResult.summary` as a
    template, so a log says it again in the reader's language. ``holder``: the enemy that
    blocked a retreat, if one did."""
    def side(s: Strength) -> str:
        return f"{s.legion} {s.base} +{s.bonus} {s.support} = {s.total}" if s.support else f"{s.legion} {s.base}"

    args: dict[str, str | int] = {
        "order": result.order, "cell": result.cell, "terrain": result.terrain.value, "attacker": side(result.attacker),
        "defender": side(result.defender), "difference": signed(result.difference), "band": result.band,
    }
    r, cites = result.retreat, result.cites
    if r is None:
        return Ruling.event(
            "combat-result", "{order}. {cell} ({terrain}): {attacker} vs {defender}, difference {difference} "
            "(band {band}): {loser} is eliminated", cites, loser=result.eliminated[0] if result.eliminated else "?",
            **args)
    if r.eliminated and r.off_board:
        return Ruling.event(
            "combat-result", "{order}. {cell} ({terrain}): {attacker} vs {defender}, difference {difference} "
            "(band {band}): {loser} must retreat but is eliminated: the retreat leaves the board", cites,
            loser=r.legion, **args)
    if r.eliminated:
        return Ruling.event(
            "combat-result", "{order}. {cell} ({terrain}): {attacker} vs {defender}, difference {difference} "
            "(band {band}): {loser} must retreat but is eliminated: {holder} holds {to}", cites,
            loser=r.legion, holder=holder or "?", to=r.path[-1] if r.path else "?", **args)
    if len(r.path) > 1:
        return Ruling.event(
            "combat-result", "{order}. {cell} ({terrain}): {attacker} vs {defender}, difference {difference} "
            "(band {band}): {loser} retreats {start} → {to} over {over}", cites,
            loser=r.legion, start=r.start, to=r.to or "?", over=", ".join(r.path[:-1]), **args)
    return Ruling.event(
        "combat-result", "{order}. {cell} ({terrain}): {attacker} vs {defender}, difference {difference} "
        "(band {band}): {loser} retreats {start} → {to}", cites, loser=r.legion, start=r.start, to=r.to or "?",
        **args)


def outcome_text(result: CombatResult) -> str:
    """Returns what happened, in words."""
    r = result.retreat
    if r is None:
        loser = result.eliminated[0] if result.eliminated else "?"
        return f"{loser} is eliminated"
    if r.eliminated:
        return f"{r.legion} must retreat but is eliminated ({r.reason})"
    via = " over " + ", ".join(r.path[:-1]) if len(r.path) > 1 else ""
    return f"{r.legion} retreats {r.start} → {r.to}{via}"


def signed(n: int) -> str:
    """Returns a difference with its sign: '+2', '0', '-1'."""
    return f"{n:+d}" if n else "0"


def band_label(lo: int | None, hi: int | None) -> str:
    """Returns a result band as text: 'd ≥ +3', 'd = 0', '-2 ≤ d ≤ -1'."""
    if lo is None and hi is not None:
        return f"d ≤ {signed(hi)}"
    if hi is None and lo is not None:
        return f"d ≥ {signed(lo)}"
    if lo == hi and lo is not None:
        return f"d = {signed(lo)}"
    assert lo is not None and hi is not None
    return f"{signed(lo)} ≤ d ≤ {signed(hi)}"


def strength(state: CyrusState, legion: Legion, opponent: Legion, terrain: Terrain, archer: str | None) -> Strength:
    """VI.2, IV.3, IV.2-2: a legion's combat value on a terrain against an opponent."""
    looked = state.tables.value(legion.kind, terrain, opponent.kind)
    bonus = SUPPORT_BONUS if archer else 0
    return Strength(
        legion=legion.name, side=legion.side, kind=legion.kind, base=looked.value, base_source=looked.source,
        base_provenance=looked.provenance, support=archer, bonus=bonus, total=looked.value + bonus,
    )


@dataclass
class Resolution:
    """What resolving every pending combat produced."""

    state: CyrusState
    results: list[CombatResult]
    events: list[Ruling]
    provisional: list[str]
    unresolved: list[str]


def resolve_all(state: CyrusState) -> Resolution:
    """VI: resolves every pending combat in order; returns the state before the turn passes."""
    tables, grid = state.tables, state.tables.grid
    rules = tables.rules
    occ = occupancy(state)
    cells: dict[Cell, list[Legion]] = {c: list(v) for c, v in occ.cells.items()}
    where = dict(state.where)
    supporter = {legion: archer for archer, legion in state.supports.items()}
    order = combat_order(state, occ.combats())
    lines = [grid.rc(c)[1] for c in order]
    shared_line = len(lines) != len(set(lines))
    results: list[CombatResult] = []
    events: list[Ruling] = []
    provisional: list[str] = []
    winner: Side | None = None
    won: Ruling | None = None
    unresolved: list[str] = []

    for n, cell in enumerate(order, start=1):
        if winner is not None:
            unresolved.append(grid.name(cell))
            continue
        here = cells[cell]
        attacker = next(lg for lg in here if lg.side is state.active)
        defender = next(lg for lg in here if lg.side is not state.active)
        terrain = state.terrain_at(cell)
        a = strength(state, attacker, defender, terrain, supporter.get(attacker.name))
        d = strength(state, defender, attacker, terrain, supporter.get(defender.name))
        diff = a.total - d.total
        band = tables.result(diff)
        used: list[str] = [rules.interpretation("combat-terrain").label()]
        for s in (a, d):
            if s.base_provenance in ("interpretation", "provisional", "reconstruction"):
                used.append(f"{s.base_source} = {s.base} ({s.base_provenance})")
        if band.provenance != "rulebook":
            used.append(
                f"combat_results.csv: {band_label(band.min_difference, band.max_difference)} → "
                f"{band.result} ({band.provenance})"
            )
        if shared_line:
            used.append(rules.interpretation("same-line-order").label())
        phalanx_vs = [
            (p, o) for p, o in ((attacker, defender), (defender, attacker))
            if p.kind is Kind.PHALANX and not o.mounted and o.kind is not Kind.INFANTRY
        ]
        if phalanx_vs:
            used.append(rules.interpretation("foot-for-phalanx").label())
        retreat: Retreat | None = None
        holder: str | None = None
        eliminated: list[str] = []
        if band.result in ("defender-eliminated", "attacker-eliminated"):
            loser = defender if band.result == "defender-eliminated" else attacker
            here.remove(loser)
            del where[loser.name]
            eliminated.append(loser.name)
        else:
            loser = defender if band.result == "defender-retreats" else attacker
            retreat, note, holder = _retreat(state, cells, where, loser, cell)
            if note:
                used.append(note)
            if retreat.eliminated:
                eliminated.append(loser.name)
        cites: tuple[RuleRef, ...] = (COMBAT, COMBAT_VALUES, COMBAT_RESULT, VALUE_TABLES)
        if retreat is not None and retreat.off_board:
            cites += (BOARD,)  # the retreat left the board
        if a.support or d.support:
            cites += (SUPPORT_EFFECT,)
        if any(s.kind is Kind.PHALANX for s in (a, d)):
            cites += (PHALANX,)
        victory: Side | None = None
        for name in eliminated:
            lost = tables.by_id[name]
            if lost.kind is Kind.KING:
                victory = lost.side.other
                winner = victory
                won = Ruling.event("victory", "{legion} was killed in combat on {cell}: the {side} wins",
                                   (GOAL, GAME_END), legion=lost.name, cell=grid.name(cell), side=victory.label)
                cites += (GOAL,)
        result = CombatResult(
            order=n, cell=grid.name(cell), terrain=terrain, attacker=a, defender=d, difference=diff,
            outcome=band.result, band=band_label(band.min_difference, band.max_difference), retreat=retreat,
            eliminated=tuple(eliminated), victory=victory, provisional=tuple(dict.fromkeys(used)), cites=cites,
        )
        results.append(result)
        provisional.extend(used)
        events.append(result_ruling(result, holder))
        if won is not None and victory is not None:
            events.append(won)
    if unresolved:
        provisional.append(rules.interpretation("victory-stops-play").label())
        events.append(Ruling.event("combats-unresolved", "the game ended before combats on {cells}", (GAME_END,),
                                   cells=", ".join(unresolved)))
    new_state = state.model_copy(update={"where": where, "supports": {}, "declaring": None})
    if winner is not None:
        assert won is not None
        new_state = new_state.model_copy(update={"phase": Phase.OVER, "winner": winner, "win_reason": english(won),
                                                 "win": won})
    return Resolution(new_state, results, events, list(dict.fromkeys(provisional)), unresolved)


def _retreat(
    state: CyrusState, cells: dict[Cell, list[Legion]], where: dict[LegionId, Cell], legion: Legion, start: Cell
) -> tuple[Retreat, str, str | None]:
    """VI: one cell toward its own side, over friends, eliminated by an enemy or the edge.

    Returns the retreat, the interpretation it relied on (or ""), and the enemy that blocked it."""
    grid, rules = state.tables.grid, state.tables.rules
    path: list[str] = []
    cell = start
    cells[start].remove(legion)
    note = ""
    while True:
        nxt = grid.step(cell, 0, legion.side.retreat_step)
        if nxt is None:
            del where[legion.name]
            return (
                Retreat(legion=legion.name, start=grid.name(start), path=tuple(path), to=None, eliminated=True,
                        off_board=True, reason="the retreat leaves the board"),
                rules.interpretation("retreat-off-board").label(), None,
            )
        here = cells.get(nxt, [])
        enemy = next((lg for lg in here if lg.side is not legion.side), None)
        if enemy is not None:
            del where[legion.name]
            if len(here) > 1:
                note = rules.interpretation("retreat-into-pending-combat").label()
            return (
                Retreat(legion=legion.name, start=grid.name(start), path=(*path, grid.name(nxt)), to=None,
                        eliminated=True, reason=f"{enemy.name} holds {grid.name(nxt)}"),
                note, enemy.name,
            )
        path.append(grid.name(nxt))
        if here:
            cell = nxt
            continue
        cells.setdefault(nxt, []).append(legion)
        where[legion.name] = nxt
        if state.terrain_at(nxt) is not Terrain.PLAIN:
            note = rules.interpretation("retreat-into-terrain").label()
        return Retreat(legion=legion.name, start=grid.name(start), path=tuple(path), to=grid.name(nxt),
                       eliminated=False), note, None
