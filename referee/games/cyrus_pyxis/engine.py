"""The Cyrus & Pyxis engine: the game protocol wired to the checks of each rule module."""

from __future__ import annotations

from collections.abc import Sequence

from referee.bot import Bot
from referee.dice import Dice
from referee.errors import PositionError, UnknownNameError
from referee.game import (
    Applied,
    BoardView,
    Engine,
    GameInfo,
    Outcome,
    validate_file,
)
from referee.games.cyrus_pyxis import actions as act
from referee.games.cyrus_pyxis import declarations
from referee.games.cyrus_pyxis.bot import RandomBot
from referee.games.cyrus_pyxis.combat import resolve_all
from referee.games.cyrus_pyxis.display import STEP_WORDS, LegalReport, UmpireResolution, board_view, status_lines
from referee.games.cyrus_pyxis.movement import (
    LEGION_CHECKS,
    MAX_INFANTRY_MOVES,
    MOVE_CHECKS,
    MoveContext,
    destinations,
    edge_name,
    movement_disclosures,
)
from referee.games.cyrus_pyxis.position import (
    CyrusPosition,
    SetupFile,
    TerrainSpec,
    cell_key,
    read_position,
    write_position,
)
from referee.games.cyrus_pyxis.rules import (
    COMBAT,
    GAME_END,
    GOAL,
    LEGION_COUNTERS,
    MOVEMENT,
    SETUP,
    SUPPORT_DECLARATION,
)
from referee.games.cyrus_pyxis.sequence import (
    SETUP_CHECKS,
    SetupContext,
    advance_support,
    apply_setup,
    check_done,
    check_resolve,
    check_setup_step,
    end_movement,
    end_turn,
    finish_declarations,
    legal_setup_cells,
    setup_progress,
)
from referee.games.cyrus_pyxis.state import CyrusState, Occupancy, english, occupancy, remember
from referee.games.cyrus_pyxis.support import SUPPORT_CHECKS, SupportContext, possible_supports, support_disclosures
from referee.games.cyrus_pyxis.tables import (
    SETUP_STEPS,
    CyrusTables,
    Kind,
    Legion,
    LegionId,
    Phase,
    Side,
    Terrain,
    load_tables,
)
from referee.rulings import Ruling, Verdict
from referee.tables import TableSet

INFO = GameInfo(
    slug="cyrus-pyxis", package="cyrus_pyxis", title="Cyrus & Pyxis", sides=("greek", "persian"),
    dice=None, rulebook="Editions UGO (French)", players=(2, 2),
    decisive=("combat_results.csv", "combat_values.csv"),
)


class CyrusEngine(Engine[CyrusState, act.CyrusAction]):
    """Cyrus & Pyxis (Editions UGO). Combat is deterministic: no dice."""

    info = INFO
    position_model = CyrusPosition
    grammar = act.GRAMMAR

    # ---- state ------------------------------------------------------------------------------

    def tables(self, table_set: TableSet) -> CyrusTables:
        """Returns the validated tables."""
        return load_tables(table_set)

    def new_state(self, table_set: TableSet) -> CyrusState:
        return CyrusState(tables=load_tables(table_set), phase=Phase.SETUP)

    def setup_actions(self, state: CyrusState, data: object, label: str) -> list[str]:
        s = state
        setup = validate_file(SetupFile, data, label)
        texts: list[str] = []
        for what in ("forest", "hill"):
            for side in Side:
                spec = setup.terrain.get(side, TerrainSpec())
                texts += [f"{what} {c}" for c in getattr(spec, what)]
        for side, placed in ((Side.GREEK, setup.greek), (Side.PERSIAN, setup.persian)):
            for name, cell in placed.items():
                try:
                    legion = s.tables.legion(name)
                except UnknownNameError as exc:
                    raise PositionError(label, f"{side}.{name}", str(exc)) from None
                texts.append(f"{legion.name} {cell}")
        return texts

    def from_position(self, table_set: TableSet, data: object, label: str) -> CyrusState:
        state, pos = read_position(load_tables(table_set), data, label)
        return declarations.judge_declarations(self, state, label, declaring=pos.declaring, phase=pos.phase)

    def to_position(self, state: CyrusState) -> CyrusPosition:
        return write_position(state)

    def outcome(self, state: CyrusState) -> Outcome | None:
        s = state
        if s.phase is not Phase.OVER:
            return None
        ruling = s.win or Ruling.event("victory", s.win_reason or "the game is over", (GOAL, GAME_END))
        return Outcome(termination=termination(s), winners=(s.winner.value,) if s.winner else (), ruling=ruling)


    def to_act(self, state: CyrusState) -> str | None:
        s = state
        if s.phase is Phase.SETUP:
            return setup_progress(s)[0].value
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.SUPPORT and s.declaring is not None:
            return s.declaring.value
        return s.active.value

    # ---- actions ----------------------------------------------------------------------------

    def parse(self, state: CyrusState, text: str) -> act.CyrusAction:
        return act.parse_action(state, text)

    def parse_adjust(self, state: CyrusState, text: str) -> act.CyrusAction:
        return act.parse_adjust(state, text)

    def acting_side(self, state: CyrusState, action: act.CyrusAction) -> str | None:
        """An override of a legion is journaled under the legion's side, a terrain override under
        nobody's; everything else under the side to act."""
        if isinstance(action, act.AdjustLegion):
            return state.tables.legion(action.legion).side.value
        if isinstance(action, act.AdjustTerrain):
            return None
        return self.to_act(state)

    def judge(self, state: CyrusState, action: act.CyrusAction) -> Verdict:
        s = state
        occ = occupancy(s)
        text = action.text()
        violations: list[Ruling] = []
        notes: list[Ruling] = []
        provisional: tuple[str, ...] = ()
        if isinstance(action, act.Move):
            legion = s.tables.legion(action.legion)
            target = None if action.cell == act.OFF else s.tables.grid.parse(action.cell)
            ctx = MoveContext(s, occ, legion, target)
            violations = [r for check in MOVE_CHECKS if (r := check(ctx)) is not None]
            if not violations or any(v.code in ("too-far", "enemy-in-path") for v in violations):
                provisional = movement_disclosures(s)
            if not violations:
                notes = _move_notes(ctx)
                if target is None:
                    provisional += (s.tables.rules.interpretation("king-exit").label(),)
                if s.phase is Phase.ANY:  # no step written: judged as in the movement step
                    provisional += (s.tables.rules.interpretation("umpire-phase").label(),)
        elif isinstance(action, act.Support):
            sctx = SupportContext(s, occ, s.tables.legion(action.archer), s.tables.legion(action.legion))
            violations = [r for check in SUPPORT_CHECKS if (r := check(sctx)) is not None]
            provisional = support_disclosures(sctx, violations)
            if s.phase is Phase.ANY and not violations:  # refused anyway, the reading decides nothing
                provisional += (s.tables.rules.interpretation("umpire-phase").label(),)
        elif isinstance(action, act.PlaceTerrain | act.Deploy):
            cell = s.tables.grid.parse(action.cell)
            if isinstance(action, act.PlaceTerrain):
                sctx2 = SetupContext(s, occ, cell, terrain=action.terrain)
            else:
                sctx2 = SetupContext(s, occ, cell, legion=s.tables.legion(action.legion))
            violations = [r for check in SETUP_CHECKS if (r := check(sctx2)) is not None]
        elif isinstance(action, act.Done):
            violations = [r] if (r := check_done(s)) else []
        elif isinstance(action, act.Resolve):
            violations = [r] if (r := check_resolve(s)) else []
            if not violations and occ.combats():
                notes = [Ruling.counted("combat", "{n} combat to resolve", "{n} combats to resolve",
                                        len(occ.combats()), (COMBAT,))]
        elif isinstance(action, act.AdjustLegion):
            violations = _check_adjust_legion(s, occ, action)
        elif isinstance(action, act.AdjustTerrain | act.AdjustActive):
            violations = []
        else:
            raise TypeError(f"not a Cyrus & Pyxis action: {action!r}")
        return Verdict(action=text, violations=tuple(violations), notes=tuple(notes), provisional=provisional)

    def apply(self, state: CyrusState, action: act.CyrusAction, dice: Dice) -> Applied[CyrusState]:
        s = state
        grid = s.tables.grid
        if isinstance(action, act.Move):
            legion = s.tables.legion(action.legion)
            if action.cell == act.OFF:
                where = {k: v for k, v in s.where.items() if k != legion.name}
                won = Ruling.event("victory", "{legion} left the board by the {edge} edge: the {side} wins",
                                   (GOAL, GAME_END), legion=legion.name, edge=edge_name(legion.side),
                                   side=legion.side.label)
                new = s.model_copy(update={"where": where, "moved": (*s.moved, legion.name), "phase": Phase.OVER,
                                           "winner": legion.side, "win_reason": english(won), "win": won})
                return Applied(new, (won,))
            cell = grid.parse(action.cell)
            start = s.where[legion.name]
            new = s.model_copy(update={"where": {**s.where, legion.name: cell}, "moved": (*s.moved, legion.name)})
            remember(occupancy(s).after_move(new, legion, start, cell))
            return Applied(new)
        if isinstance(action, act.Support):
            new = s.model_copy(update={"supports": {**s.supports, LegionId(action.archer): LegionId(action.legion)}})
            events: list[Ruling] = []
            if new.phase is Phase.SUPPORT and new.declaring is not None and not possible_supports(
                new, occupancy(new), new.declaring
            ):
                events.append(Ruling.event(
                    "support-closed", "no other {side} support is possible", (SUPPORT_DECLARATION,),
                    side=new.declaring.label))
                new, events = advance_support(finish_declarations(new), events)
            return Applied(new, tuple(events))
        if isinstance(action, act.PlaceTerrain | act.Deploy):
            new, events = apply_setup(s, action)
            return Applied(new, tuple(events))
        if isinstance(action, act.Done):
            if s.phase in (Phase.MOVE, Phase.ANY):
                new, events = end_movement(s)
            else:
                new, events = advance_support(finish_declarations(s), [])
            return Applied(new, tuple(events))
        if isinstance(action, act.Resolve):
            res = resolve_all(s)
            new = res.state
            events = list(res.events)
            if not res.results:
                events.append(Ruling.event("no-combat", "no combat to resolve", (COMBAT,)))
            if new.phase is not Phase.OVER:
                new, more = end_turn(new)
                events += more
            details = tuple(r.model_dump(mode="json") for r in res.results)
            return Applied(new, tuple(events), tuple(res.provisional), details)
        if isinstance(action, act.AdjustLegion):
            legion = s.tables.legion(action.legion)
            if action.cell == act.OFF:
                where = {k: v for k, v in s.where.items() if k != legion.name}
                supports = {a: lg for a, lg in s.supports.items() if legion.name not in (a, lg)}
                return Applied(s.model_copy(update={"where": where, "supports": supports}))
            return Applied(s.model_copy(update={"where": {**s.where, legion.name: grid.parse(action.cell)}}))
        if isinstance(action, act.AdjustTerrain):
            cell = grid.parse(action.cell)
            terrain = {k: v for k, v in s.terrain.items() if k != cell}
            if action.terrain is not Terrain.PLAIN:
                terrain[cell] = action.terrain
            return Applied(s.model_copy(update={"terrain": terrain}))
        if isinstance(action, act.AdjustActive):
            new = s.model_copy(update={"active": action.side, "phase": Phase.MOVE, "moved": (), "supports": {},
                                       "declaring": None, "winner": None, "win_reason": None})
            return Applied(new)
        raise TypeError(f"not a Cyrus & Pyxis action: {action!r}")

    def legal_actions(self, state: CyrusState) -> list[act.CyrusAction]:
        s = state
        if s.phase is Phase.OVER:
            return []
        occ = occupancy(s)
        grid = s.tables.grid
        out: list[act.CyrusAction] = []
        if s.phase is Phase.SETUP:
            side, what, _, _ = setup_progress(s)
            cells = legal_setup_cells(s, occ)
            if what == "legions":
                for lg in s.tables.legions:
                    if lg.side is side and lg.name not in s.where:
                        out += [act.Deploy(legion=lg.name, cell=grid.name(c)) for c in cells]
            else:
                out += [act.PlaceTerrain(terrain="forest" if what == "forest" else "hill", cell=grid.name(c))
                        for c in cells]
            return out
        if s.phase in (Phase.MOVE, Phase.ANY):
            for lid in self.movable(s):
                out += [act.Move.model_construct(legion=lid, cell=c) for c in destinations(s, occ, s.tables.by_id[lid])]
            out.append(act.Done())
        if s.phase in (Phase.SUPPORT, Phase.ANY):
            sides = [s.declaring] if s.phase is Phase.SUPPORT and s.declaring else list(Side)
            for side in sides:
                out += [act.Support(archer=a, legion=lg) for a, lg in possible_supports(s, occ, side)]
            if s.phase is Phase.SUPPORT:
                out.append(act.Done())
        if check_resolve(s) is None:
            out.append(act.Resolve())
        return out

    def movable(self, state: CyrusState) -> list[LegionId]:
        """V: the legions of the side to play that may still move this turn (as check_moves_once
        and check_quota decide; a contract test keeps them in step)."""
        where = state.where
        legions = state.tables.of_side[state.active]
        if not state.moved:
            return [lg.name for lg in legions if lg.name in where]
        by_id = state.tables.by_id
        kinds = [by_id[name].kind for name in state.moved]
        full: set[Kind] = {k for k in set(kinds) if k is not Kind.INFANTRY}  # V: one of each other type
        if kinds.count(Kind.INFANTRY) >= MAX_INFANTRY_MOVES:
            full.add(Kind.INFANTRY)
        moved = set(state.moved)
        return [lg.name for lg in legions if lg.kind not in full and lg.name not in moved and lg.name in where]

    # ---- umpire -----------------------------------------------------------------------------

    def legal_report(self, state: CyrusState, unit: str) -> LegalReport:
        s = state
        legion = s.tables.legion(unit)
        occ = occupancy(s)
        cell = s.where.get(legion.name)
        why: list[Ruling] = []
        cells: list[str] = []
        attacks: list[str] = []
        if s.phase in (Phase.MOVE, Phase.ANY) and cell is not None:
            ctx = MoveContext(s, occ, legion, None)
            for check in LEGION_CHECKS:
                if (r := check(ctx)) is not None:
                    why.append(r)
            if not why:
                for name in destinations(s, occ, legion):
                    cells.append(name)
                    if name != act.OFF and occ.has_enemy(s.tables.grid.parse(name), legion.side):
                        attacks.append(name)
        supports: tuple[str, ...] | None = None
        if legion.kind is Kind.ARCHER:
            supports = ()
            if s.phase in (Phase.SUPPORT, Phase.ANY):
                supports = tuple(lg for a, lg in possible_supports(s, occ, legion.side) if a == legion.name)
                if s.phase is Phase.SUPPORT and s.declaring is not legion.side:
                    supports = ()
        elif s.phase not in (Phase.MOVE, Phase.ANY) and not why:
            why.append(Ruling.violation("wrong-phase", "no move now: the game is in its {step} step", (MOVEMENT,),
                                        step=STEP_WORDS[s.phase]))
        if cell is None and s.phase is Phase.SETUP:
            return self._deploy_report(s, occ, legion)
        if cell is None:
            why = [Ruling.violation("legion-eliminated", "{legion} is out of the game", (COMBAT,), legion=legion.name)]
        return LegalReport(
            legion=legion.name, side=legion.side, cell=s.tables.grid.name(cell) if cell is not None else None,
            cells=tuple(sorted(cells, key=cell_key)), attacks=tuple(sorted(attacks, key=cell_key)),
            supports=supports, why_not=tuple(why) if not cells and not supports else (),
            provisional=_legal_disclosures(s, occ, legion, cells, supports is not None),
        )

    def _deploy_report(self, s: CyrusState, occ: Occupancy, legion: Legion) -> LegalReport:
        """II.3, II.4: where a legion not yet placed may be deployed, by the set-up checks
        (the step check apart: when it fails, it is why the cells must wait)."""
        grid = s.tables.grid
        cells: list[str] = []
        for cell in grid.cells():
            ctx = SetupContext(s, occ, cell, legion=legion)
            if all(check(ctx) is None for check in SETUP_CHECKS if check is not check_setup_step):
                cells.append(grid.name(cell))
        step = check_setup_step(SetupContext(s, occ, next(iter(grid.cells())), legion=legion))  # any cell: the
        # step check reads only the set-up's progress and the legion's side
        return LegalReport(legion=legion.name, side=legion.side, cell=None, cells=tuple(sorted(cells, key=cell_key)),
                           why_not=(step,) if step is not None else (), deploy=True)

    def setup_file(self, state: CyrusState) -> dict[str, object]:
        """Returns the set-up so far as a set-up file (``referee export --setup``; ``new --setup``
        plays it back). A token's owner is not part of the position: each side is given, in cell
        order, as many of each kind as its set-up step lays (II.1, II.2), which replays alike."""
        s = state
        grid = s.tables.grid
        terrain: dict[str, dict[str, list[str]]] = {side.value: {"forest": [], "hill": []} for side in Side}
        for what in ("forest", "hill"):
            laid = sorted((grid.name(c) for c, t in s.terrain.items() if t.value == what), key=cell_key)
            for side, step_what, count in SETUP_STEPS:
                if step_what == what:
                    terrain[side.value][what], laid = laid[:count], laid[count:]
            terrain[Side.PERSIAN.value][what] += laid  # more than the rule lays (an override): kept
        legions = {side.value: {lg.name: grid.name(s.where[lg.name]) for lg in s.tables.of_side[side]
                                if lg.name in s.where} for side in Side}
        return {"game": self.info.slug, "terrain": terrain, **legions}

    def setup_done(self, state: CyrusState) -> bool:
        """II: the set-up is over once the last Persian legion is deployed."""
        return state.phase is not Phase.SETUP

    def resolve_pending(self, state: CyrusState, dice: Dice) -> tuple[CyrusState, UmpireResolution]:
        s = state
        res = resolve_all(s)
        new = res.state
        events = list(res.events)
        if new.phase is not Phase.OVER:
            new, more = end_turn(new)
            events += more
        occ = occupancy(s)
        used: list[str] = []
        for archer, legion in s.supports.items():  # judged on load; the resolution is the first ruling to use them
            used += support_disclosures(SupportContext(s, occ, s.tables.by_id[archer], s.tables.by_id[legion]))
        if s.supports and s.phase is Phase.ANY:  # they were judged as in the support step
            used.append(s.tables.rules.interpretation("umpire-phase").label())
        out = UmpireResolution(
            results=tuple(res.results), events=tuple(events), unresolved=tuple(res.unresolved),
            winner=new.winner, provisional=tuple(dict.fromkeys(used + res.provisional)),
            position=self.to_position(new),
        )
        return new, out

    def open_declarations(self, state: CyrusState) -> tuple[Ruling, ...]:
        """Returns the archer supports a position could still declare before its combats
        (``referee resolve`` notes them, ``--strict`` refuses); none once it says ``phase: combat``."""
        return declarations.open_declarations(state)

    # ---- display ----------------------------------------------------------------------------

    def board_view(self, state: CyrusState) -> BoardView:
        return board_view(state)

    def status(self, state: CyrusState) -> list[str]:
        return status_lines(state)

    capture_rules = "referee.games.cyrus_pyxis.capture"
    """The rules side of reading a photo (``referee capture``): labels and turn inference. Named,
    not imported: the capture rules use the engine, never the reverse."""

    def bot(self) -> Bot:
        """A random legal player, one legion at a time (``referee bot``, playouts)."""
        return RandomBot(self)

    def help_actions(self) -> Sequence[tuple[str, str]]:
        """The action forms of :data:`~referee.games.cyrus_pyxis.actions.GRAMMAR`, in the active language."""
        return [(example, summary) for _syntax, example, summary in act.GRAMMAR.usage()]




def _legal_disclosures(s: CyrusState, occ: Occupancy, legion: Legion, cells: list[str],
                       archer: bool) -> tuple[str, ...]:
    """The stand-ins and readings a legal report relies on: the movement values when it lists
    cells (and king-exit for 'off'), the support readings an archer's possible supports depend
    on, and umpire-phase on a position that names no step."""
    rules = s.tables.rules
    out: list[str] = list(movement_disclosures(s)) if cells else []
    if act.OFF in cells:
        out.append(rules.interpretation("king-exit").label())
    if archer and s.phase in (Phase.SUPPORT, Phase.ANY):
        engaged = [lg for lg in (occ.side_at(c, legion.side) for c in occ.combats()) if lg is not None]
        for target in engaged:
            ctx = SupportContext(s, occ, legion, target)
            out += support_disclosures(ctx, [r for check in SUPPORT_CHECKS if (r := check(ctx)) is not None])
    if s.phase is Phase.ANY and out:
        out.append(rules.interpretation("umpire-phase").label())
    return tuple(dict.fromkeys(out))


def _move_notes(ctx: MoveContext) -> list[Ruling]:
    grid = ctx.state.tables.grid
    route = ctx.route
    assert route is not None
    squares, cells = route
    path = " → ".join(grid.name(c) for c in cells)
    legion = ctx.legion.name
    if ctx.target is None:
        side = ctx.legion.side
        return [Ruling.counted("route", "{legion}: {path} → off ({n} square)", "{legion}: {path} → off ({n} squares)",
                               squares, (MOVEMENT,), legion=legion, path=path),
                Ruling.event("victory", "{legion} leaves the board by the {edge} edge: the {side} wins",
                             (GOAL, GAME_END), legion=legion, edge=edge_name(side), side=side.label)]
    notes = [Ruling.counted("route", "{legion}: {path} ({n} of {limit} squares)", "{legion}: {path} ({n} of {limit} "
                            "squares)", squares, (MOVEMENT,), legion=legion, path=path, limit=ctx.limit)]
    enemy = ctx.occ.side_at(ctx.target, ctx.legion.side.other)
    if enemy is not None:
        notes.append(Ruling.event(
            "attack", "{legion} attacks {enemy} on {cell}; the combat is resolved after movement", (COMBAT,),
            legion=legion, enemy=enemy.name, cell=grid.name(ctx.target)))
    return notes


def _check_adjust_legion(state: CyrusState, occ: Occupancy, action: act.AdjustLegion) -> list[Ruling]:
    """Overrides may not create an impossible position (Matériel II.3: one legion per side per cell)."""
    if action.cell == act.OFF:
        if action.legion not in state.where:
            return [Ruling.violation("legion-eliminated", "{legion} is not on the board", (COMBAT,),
                                     legion=action.legion)]
        return []
    cell = state.tables.grid.parse(action.cell)
    legion = state.tables.legion(action.legion)
    friend = occ.side_at(cell, legion.side)
    if friend is not None and friend.name != legion.name:
        return [Ruling.violation("impossible-position", "{legion} already stands on {cell}", (LEGION_COUNTERS, SETUP),
                                 legion=friend.name, cell=action.cell)]
    return []


def termination(state: CyrusState) -> str:
    """I: how a finished game ended, read off the board: the winner's king left by its edge
    (``king-escaped``) or the loser's king fell in combat (``king-killed``)."""
    if state.winner is None:
        return "no-winner"
    kings = {lg.side: lg.name for lg in state.tables.legions if lg.kind is Kind.KING}
    if kings.get(state.winner) not in state.where:
        return "king-escaped"
    return "king-killed"


