"""The Iliad engine: the game protocol wired to the checks and procedures of each rule module."""

from __future__ import annotations

from collections.abc import Sequence

from referee.bot import Bot
from referee.dice import Dice
from referee.errors import IllegalActionError, PositionError, RefereeError
from referee.game import Applied, BoardView, Engine, GameInfo, Outcome, validate_file
from referee.games.iliad import actions as act
from referee.games.iliad import declarations
from referee.games.iliad.bot import IliadBot
from referee.games.iliad.combat import Board, carry_wounded, fight_duel, resolve_move
from referee.games.iliad.display import IliadResolution, LegalReport, board_view, status_lines
from referee.games.iliad.movement import (
    ATTACK_CHECKS,
    MOVE_CHECKS,
    READY_CHECKS,
    SHOT_CHECKS,
    TURN_CHECKS,
    MoveContext,
    Situation,
    allowance,
    destinations,
    god_doubled,
    in_range,
    judge_checks,
)
from referee.games.iliad.odds import OddsReport, odds
from referee.games.iliad.position import IliadPosition, SetupFile, position_of, state_from_position
from referee.games.iliad.roster import Counter, CounterId, Side
from referee.games.iliad.rules import CALENDAR, DUEL, SETUP, TURN, VICTORY, ZONES
from referee.games.iliad.sequence import (
    apply_night,
    auto_revive,
    begin,
    end_move,
    event_disclosures,
    finish,
    leaving_by_morning,
    night_problems,
    outcome_ruling,
    setup_problem,
    termination,
    victory,
)
from referee.games.iliad.state import IliadState, Phase, Shot, occupancy
from referee.games.iliad.tables import load_tables
from referee.geometry.search import Cell
from referee.i18n import N_, _
from referee.phrases import form
from referee.rulings import Ruling, Verdict
from referee.tables import TableSet

INFO = GameInfo(
    slug="iliad", package="iliad", title="Iliad", sides=("greek", "trojan"), dice="1d6",
    rulebook="International Team (Italian and French)", players=(2, 2), decisive=("roster.yaml",),
)



class IliadEngine(Engine[IliadState, act.IliadAction]):
    """Iliad (International Team): duels, open battles, archers, the calendar and the night."""

    info = INFO
    position_model = IliadPosition
    grammar = act.GRAMMAR

    # ---- state ------------------------------------------------------------------------------

    def new_state(self, table_set: TableSet) -> IliadState:
        return IliadState(tables=load_tables(table_set), phase=Phase.SETUP)

    def setup_actions(self, state: IliadState, data: object, label: str) -> list[str]:
        s = state
        setup = validate_file(SetupFile, data, label)
        assert isinstance(setup, SetupFile)
        texts: list[str] = []
        for side in Side:
            for name, cell in getattr(setup, side.value).items():
                try:
                    counter = s.tables.counter(name)
                    cell_name = act.square(s, cell)
                except RefereeError as exc:
                    raise PositionError(label, f"{side.value}.{name}", str(exc)) from None
                if counter.side is not side:
                    raise PositionError(label, f"{side.value}.{name}", _("{counter} is {adjective}").format(
                        counter=counter.id, adjective=_(counter.side.adjective)))
                texts.append(f"{counter.id} {cell_name}")
        return texts

    def from_position(self, table_set: TableSet, data: object, label: str) -> IliadState:
        state, declared = state_from_position(load_tables(table_set), data, label)
        return declarations.judge_declarations(self, state, declared, label)

    def to_position(self, state: IliadState) -> IliadPosition:
        return position_of(state)

    def outcome(self, state: IliadState) -> Outcome | None:
        s = state
        if s.phase is not Phase.OVER:
            return None
        return Outcome(termination=termination(s), winners=(s.winner.value,) if s.winner else (),
                       ruling=outcome_ruling(s))


    def to_act(self, state: IliadState) -> str | None:
        s = state
        if s.phase is Phase.OVER:
            return None
        if s.phase is Phase.SETUP:
            placed = set(s.where)
            greek_left = any(c.id not in placed for c in s.tables.roster.side(Side.GREEK))
            return (Side.GREEK if greek_left else Side.TROJAN).value
        return s.side.value

    # ---- actions ----------------------------------------------------------------------------

    def parse(self, state: IliadState, text: str) -> act.IliadAction:
        return act.parse_action(state, text)

    def parse_adjust(self, state: IliadState, text: str) -> act.IliadAction:
        return act.parse_adjust(state, text)

    def context(self, s: IliadState, action: act.Move | act.Attack | act.Shoot) -> MoveContext:
        """The judging context of a move, an attack in place or a shot."""
        sit = Situation(s)
        if isinstance(action, act.Move):
            named = None if action.targets is None else tuple(CounterId(t) for t in action.targets)
            return MoveContext(s, sit, s.tables.counter(action.counter), s.tables.board.grid.parse(action.cell),
                               named, CounterId(action.shoot) if action.shoot else None)
        if isinstance(action, act.Attack):
            return MoveContext(s, sit, s.tables.counter(action.counter), None,
                               tuple(CounterId(t) for t in action.targets))
        return MoveContext(s, sit, s.tables.counter(action.archer), None, (), CounterId(action.target))

    def judge(self, state: IliadState, action: act.IliadAction) -> Verdict:
        s = state
        text = action.text()
        notes: list[Ruling] = []
        provisional: list[str] = []
        if isinstance(action, act.Move | act.Attack | act.Shoot):
            ctx = self.context(s, action)
            checks = MOVE_CHECKS if isinstance(action, act.Move) else (
                ATTACK_CHECKS if isinstance(action, act.Attack) else SHOT_CHECKS)
            violations = judge_checks(ctx, checks)
            # a counter that may not act at all now is refused before any reading matters
            provisional = [] if judge_checks(ctx, TURN_CHECKS) else self._move_disclosures(ctx, action)
            if not violations:
                notes = _move_notes(ctx)
        elif isinstance(action, act.Deploy):
            cell = s.tables.board.grid.parse(action.cell)
            problem = setup_problem(s, CounterId(action.counter), cell)
            violations = [problem] if problem else []
            provisional = [s.tables.map_disclosure()]
        elif isinstance(action, act.Resolve):
            violations = self._resolve_problems(s)
            if not violations:
                notes = _resolve_notes(s)
        elif isinstance(action, act.Night):
            chosen, camp = self._night_choice(s, action)
            violations = night_problems(s, chosen, camp)
            due = s.phase is Phase.NIGHT and None in (action.greek, action.trojan)
            provisional = [s.tables.interpretation("night-choice")] if due else []
        else:
            violations = self._adjust_problems(s, action)
        return Verdict(action=text, violations=tuple(violations), notes=tuple(notes),
                       provisional=tuple(dict.fromkeys(provisional)))

    def _move_disclosures(self, ctx: MoveContext, action: act.IliadAction) -> list[str]:
        tables = ctx.state.tables
        out = [tables.map_disclosure()]
        if ctx.counter.id in ctx.state.moved:
            out.append(tables.interpretation("move-once"))
        if isinstance(action, act.Move):
            out.append(tables.interpretation("diagonal-movement"))
            if ctx.state.wall:
                out.append(tables.interpretation("wall-zones"))
            out += _zone_disclosures(ctx)
        if isinstance(action, act.Attack):
            out.append(tables.interpretation("attack-in-place"))
        if isinstance(action, act.Shoot) or (isinstance(action, act.Move) and action.shoot):
            out += [tables.interpretation("archer-line"), tables.interpretation("archer-zone")]
        if ctx.counter.archer:
            out.append(tables.interpretation("archer-value"))
        if any(ctx.state.sulking(t) for t in (*ctx.targets, *([ctx.shoot] if ctx.shoot else []))):
            out.append(tables.interpretation("achilles-zone"))
        if ctx.counter.id in ctx.state.wounded:
            out.append(tables.interpretation("wounded-idle"))
        if ctx.targets:
            out.append(tables.interpretation("battle-sides"))
        return out

    def _resolve_problems(self, s: IliadState) -> list[Ruling]:
        if s.phase in (Phase.MOVE, Phase.DUEL):
            return []
        if s.phase is Phase.NIGHT:
            return [Ruling.violation("night", "day {day} is over; play the night first (referee night)", (TURN,),
                                     day=s.day)]
        if s.phase is Phase.SETUP:
            return [Ruling.violation("setup-not-finished", "the set-up is not finished", (SETUP,))]
        return [Ruling.violation("game-over", "the game is over: {reason}", (VICTORY,),
                                 reason=outcome_ruling(s).message)]

    def _night_choice(
        self, s: IliadState, action: act.Night
    ) -> tuple[dict[Side, tuple[CounterId, ...]], tuple[tuple[CounterId, Cell], ...]]:
        chosen: dict[Side, tuple[CounterId, ...]] = {}
        for side in Side:
            named = action.revived(side)
            if s.phase is not Phase.NIGHT:
                chosen[side] = tuple(CounterId(n) for n in named or ())
            else:
                chosen[side] = auto_revive(s, side) if named is None else tuple(CounterId(n) for n in named)
        grid = s.tables.board.grid
        camp = tuple((CounterId(n), grid.parse(c)) for n, c in action.camp)
        return chosen, camp

    def _adjust_problems(self, s: IliadState, action: act.IliadAction) -> list[Ruling]:
        if isinstance(action, act.AdjustCounter) and action.to not in ("dead", "wounded", "healed"):
            cell = s.tables.board.grid.parse(action.to)
            holder = occupancy(s).get(cell)
            if holder is not None and holder != action.counter:
                return [Ruling.violation("square-occupied", "{counter} already stands on {square}", (SETUP,),
                                         counter=holder, square=action.to)]
            if s.terrain(cell).value == "sea":
                return [Ruling.violation("sea", "{square} is open sea", (SETUP,), square=action.to)]
        if isinstance(action, act.AdjustCounter) and action.to in ("wounded", "healed") and \
                action.counter not in s.where:
            return [Ruling.violation("counter-dead", "{counter} is not on the map", (DUEL,), counter=action.counter)]
        if isinstance(action, act.AdjustClock):
            cal = s.tables.calendar
            if not (1 <= action.day <= cal.days and 1 <= action.hour <= cal.hours):
                return [Ruling.violation("no-such-hour", "the calendar has {days} days of {hours} hours",
                                         (CALENDAR,), days=cal.days, hours=cal.hours)]
        if s.phase is Phase.SETUP and not isinstance(action, act.AdjustCounter):
            return [Ruling.violation("setup-not-finished", "finish the set-up first", (SETUP,))]
        return []

    def apply(self, state: IliadState, action: act.IliadAction, dice: Dice) -> Applied[IliadState]:
        s = state
        if isinstance(action, act.Move | act.Attack | act.Shoot):
            return self._apply_declaration(s, action)
        if isinstance(action, act.Deploy):
            cell = s.tables.board.grid.parse(action.cell)
            new = s.model_copy(update={"where": {**s.where, CounterId(action.counter): cell}})
            if len(new.where) == len(s.tables.roster.counters):
                new, events = begin(new)
                return Applied(new, tuple(events))
            return Applied(new)
        if isinstance(action, act.Resolve):
            return self._apply_resolve(s, dice)
        if isinstance(action, act.Night):
            chosen, camp = self._night_choice(s, action)
            new, events = apply_night(s, chosen, camp)
            provisional = [s.tables.interpretation("night-rounding")]
            if None in (action.greek, action.trojan):
                provisional.append(s.tables.interpretation("night-choice"))
            if leaving_by_morning(s):
                provisional.append(s.tables.interpretation("thracian-losses"))
            provisional.append(s.tables.interpretation("wound-heals"))
            if camp:
                provisional.append(s.tables.interpretation("camp-start"))
            provisional += event_disclosures(new, events)
            return Applied(new, tuple(events), tuple(dict.fromkeys(provisional)))
        return Applied(self._apply_adjust(s, action))

    def _apply_declaration(self, s: IliadState, action: act.Move | act.Attack | act.Shoot) -> Applied[IliadState]:
        ctx = self.context(s, action)
        ident = ctx.counter.id
        update: dict[str, object] = {"moved": (*s.moved, ident) if ident not in s.moved else s.moved}
        if isinstance(action, act.Move):
            assert ctx.target is not None
            update["where"] = {**s.where, ident: ctx.target}
        attack = ctx.attack()
        events: list[Ruling] = []
        if attack is not None:
            update["attacks"] = (*s.attacks, attack)
        if ctx.shoot is not None:
            update["shots"] = (*s.shots, Shot(archer=ident, target=ctx.shoot))
        struck = [*(attack.targets if attack else ()), *([ctx.shoot] if ctx.shoot else [])]
        if any(s.sulking(t) for t in struck):
            update["achilles_sulks"] = False
            events.append(Ruling.event("achilles-attacked", "{counter} attacks Achilles in his tent: he joins the "
                                       "fight at once", (CALENDAR,), counter=ident))
        return Applied(s.model_copy(update=update), tuple(events))

    def _apply_resolve(self, s: IliadState, dice: Dice) -> Applied[IliadState]:
        new, board, events = self._resolve(s, dice)
        details = tuple(r.model_dump(mode="json") for r in board.results)
        return Applied(new, tuple(events), tuple(board.provisional), details)

    def _resolve(self, s: IliadState, dice: Dice) -> tuple[IliadState, Board, list[Ruling]]:
        """Come si gioca (III): the hour's duel, or the move's arrows, battles and duels; then
        the next move begins."""
        if s.phase is Phase.DUEL:
            duel = s.tables.calendar.duel(s.day, s.hour)
            assert duel is not None
            board = Board(s)
            fight_duel(board, duel.greek, duel.trojan, dice, scheduled=True)
            carry_wounded(board)
            board.disclose(s.tables.interpretation("duel-hour"),
                           DUEL_HOUR.format(day=s.day, hour=s.hour, provenance=duel.provenance))
            after_duel = True
        else:
            board = resolve_move(s, dice)
            after_duel = False
            if not board.results:
                board.events.append(Ruling.event("no-combat", "the {side} end their move without combat", (TURN,),
                                                 side=s.side.label))
        new, more = end_move(board.finish(), after_duel=after_duel)
        events = [*board.events, *more]
        if new.phase is Phase.OVER and new.win_reason:
            events.append(outcome_ruling(new))
            board.disclose(s.tables.interpretation("victory-timing"))
        board.disclose(*event_disclosures(new, events))
        return new, board, events

    def _apply_adjust(self, s: IliadState, action: act.IliadAction) -> IliadState:
        if isinstance(action, act.AdjustCounter):
            ident = CounterId(action.counter)
            where = dict(s.where)
            wounded = [w for w in s.wounded if w != ident]
            dead = [d for d in s.dead if d != ident]
            if action.to == "dead":
                where.pop(ident, None)
                dead.append(ident)
            elif action.to == "wounded":
                wounded.append(ident)
            elif action.to != "healed":
                where[ident] = s.tables.board.grid.parse(action.to)
                if ident in s.wounded:
                    wounded.append(ident)
            new = s.model_copy(update={"where": where, "wounded": tuple(wounded), "dead": tuple(dead),
                                       "removed": tuple(r for r in s.removed if r not in where)})
        elif isinstance(action, act.AdjustFlag):
            new = s.model_copy(update={"wall" if action.flag == "wall" else "achilles_sulks": action.on})
        elif isinstance(action, act.AdjustClock):
            new = s.model_copy(update={"day": action.day, "hour": action.hour, "side": action.side,
                                       "phase": Phase.MOVE, "moved": (), "attacks": (), "shots": (),
                                       "winner": None, "win_reason": None})
        else:
            raise TypeError(f"not an Iliad action: {action!r}")
        if new.phase is not Phase.SETUP:
            won = victory(new)
            if won is not None:
                new = finish(new, won.side, won.reason)
            elif new.phase is Phase.OVER:
                new = new.model_copy(update={"phase": Phase.MOVE, "winner": None, "win_reason": None})
        return new

    def legal_actions(self, state: IliadState) -> list[act.IliadAction]:
        s = state
        out: list[act.IliadAction] = []
        if s.phase is Phase.OVER:
            return out
        if s.phase is Phase.SETUP:
            grid = s.tables.board.grid
            for c in s.tables.roster.counters:
                if c.id in s.where:
                    continue
                for cell in s.tables.board.starts(c.side):
                    if setup_problem(s, c.id, cell) is None:
                        out.append(act.Deploy(counter=c.id, cell=grid.name(cell)))
            return out
        if s.phase is Phase.NIGHT:
            return [act.Night()]
        if s.phase is Phase.MOVE:
            sit = Situation(s)
            for c in self.movable(s):
                out += self.moves(s, sit, c)
        out.append(act.Resolve())
        return out

    def movable(self, s: IliadState) -> list[Counter]:
        """Movimento: the counters of the side to move that may still move, attack or shoot."""
        if s.phase is not Phase.MOVE:
            return []
        shot = {x.archer for x in s.shots}
        return [c for c in s.tables.roster.side(s.side)
                if c.id in s.where and c.id not in s.wounded and not s.sulking(c.id)
                and (c.id not in s.moved or (c.archer and c.id not in shot
                                             and not any(a.attacker == c.id for a in s.attacks)))]

    def moves(self, s: IliadState, sit: Situation, counter: Counter, with_moves: bool = True) -> list[act.IliadAction]:
        """Every move (one per destination), attack in place and shot a counter may declare now."""
        grid = s.tables.board.grid
        out: list[act.IliadAction] = []
        here = s.where[counter.id]
        if counter.id not in s.moved:
            if with_moves:
                out += [act.Move(counter=counter.id, cell=grid.name(cell)) for cell, _ in destinations(s, sit, counter)]
            zone = [e for e in sit.zone_of(here) if s.counter(e).side is not counter.side]
            for e in zone:
                ctx = MoveContext(s, sit, counter, None, (e,))
                if not judge_checks(ctx, ATTACK_CHECKS):
                    out.append(act.Attack(counter=counter.id, targets=(e,)))
        if counter.archer and not any(x.archer == counter.id for x in s.shots) and \
                not any(a.attacker == counter.id for a in s.attacks):
            out += [act.Shoot(archer=counter.id, target=t) for t in in_range(s, here, counter.side)]
        return out

    # ---- umpire -----------------------------------------------------------------------------

    def legal_report(self, state: IliadState, unit: str) -> LegalReport:
        s = state
        counter = s.tables.counter(unit)
        here = s.where.get(counter.id)
        sit = Situation(s)
        why: list[Ruling] = []
        cells: list[str] = []
        attacks: dict[str, tuple[str, ...]] = {}
        here_attacks: list[str] = []
        shots: list[str] = []
        ctx = MoveContext(s, sit, counter, None, ())
        why = judge_checks(ctx, READY_CHECKS)
        grid = s.tables.board.grid
        if not why:
            for cell, targets in sorted(destinations(s, sit, counter), key=lambda ct: ct[0]):
                cells.append(grid.name(cell))
                if targets:
                    attacks[grid.name(cell)] = targets
        for action in self.moves(s, sit, counter) if here is not None and not why else []:
            if isinstance(action, act.Attack):
                here_attacks += action.targets
            elif isinstance(action, act.Shoot):
                shots.append(action.target)
        if why and counter.archer and here is not None and why[0].code == "already-moved":
            shot_ctx = MoveContext(s, sit, counter, None, (), None)
            if not judge_checks(shot_ctx, TURN_CHECKS):
                why = []
                shots = list(in_range(s, here, counter.side))
        provisional = _legal_disclosures(s, sit, counter, [grid.parse(c) for c in cells], bool(shots))
        return LegalReport(
            counter=counter.id, side=counter.side, value=counter.value_label,
            square=grid.name(here) if here is not None else None, allowance=allowance(counter, s),
            cells=tuple(cells), attacks=attacks, attack_here=tuple(here_attacks), shots=tuple(shots),
            why_not=tuple(why) if not (cells or here_attacks or shots) else (), provisional=provisional,
        )

    def resolve_pending(self, state: IliadState, dice: Dice) -> tuple[IliadState, IliadResolution]:
        s = state
        problems = self._resolve_problems(s)
        if problems:
            raise IllegalActionError(Verdict(action="resolve", violations=tuple(problems)))
        new, board, events = self._resolve(s, dice)
        out = IliadResolution(results=tuple(board.results), events=tuple(events), winner=new.winner,
                              provisional=tuple(board.provisional), position=position_of(new))
        return new, out

    def open_declarations(self, state: IliadState) -> tuple[Ruling, ...]:
        """What an umpire position leaves open: attacks from where counters stand beside enemies
        and shots archers could still take (the umpire's resolve notes them)."""
        return declarations.open_declarations(self, state)

    def odds(self, state: IliadState, text: str) -> OddsReport:
        """Returns the exact odds of a duel, battle or shot (``referee odds``)."""
        return odds(state, text)

    # ---- display ----------------------------------------------------------------------------

    def board_view(self, state: IliadState) -> BoardView:
        return board_view(state)

    def status(self, state: IliadState) -> list[str]:
        return status_lines(state)

    def bot(self) -> Bot:
        """A random legal player that prefers to fight (``referee bot``, playouts)."""
        return IliadBot(self)

    def help_actions(self) -> Sequence[tuple[str, str]]:
        return [(example, summary) for _syntax, example, summary in act.GRAMMAR.usage()]


DUEL_HOUR = form(N_("calendar.yaml: duel at day {day} hour {hour} ({provenance})"))
"""A stand-in line stored in English, said again in the reader's language by phrases.say."""

def _legal_disclosures(s: IliadState, sit: Situation, counter: Counter, cells: list[Cell],
                       shots: bool) -> tuple[str, ...]:
    """The readings a legal report relies on: the map and diagonal steps always, god doubling when
    it applies, the zone readings when a listed square lies beside an enemy attacked or shot at,
    the wall's zones once it stands, and the archer readings for an archer's shots."""
    tables = s.tables
    out = [tables.map_disclosure(), tables.interpretation("diagonal-movement")]
    if god_doubled(s, counter):
        out.append(tables.interpretation("doubled-movement"))
    if s.wall and cells:
        out.append(tables.interpretation("wall-zones"))
    attacked = {t for a in s.attacks for t in a.targets}
    beside = {e for c in cells for e in sit.zone_of(c)}
    if beside & attacked:
        out.append(tables.interpretation("zone-stop"))
    if beside & ({x.target for x in s.shots} - attacked):
        out.append(tables.interpretation("arrow-target-zones"))
    if counter.archer:
        out.append(tables.interpretation("archer-value"))
        if shots:
            out += [tables.interpretation("archer-line"), tables.interpretation("archer-zone")]
    if counter.id in s.wounded:
        out.append(tables.interpretation("wounded-idle"))
    return tuple(dict.fromkeys(out))


def _zone_disclosures(ctx: MoveContext) -> list[str]:
    """The readings a move's allowance and end square depend on (doubled-movement, zone-stop,
    arrow-target-zones)."""
    state, tables = ctx.state, ctx.state.tables
    out: list[str] = []
    if god_doubled(state, ctx.counter):
        out.append(tables.interpretation("doubled-movement"))
    end = ctx.target
    if end is None:
        return out
    zone = ctx.sit.zone_of(end)
    attacked = {t for a in state.attacks for t in a.targets}
    if any(e in attacked for e in zone):
        out.append(tables.interpretation("zone-stop"))
    shot_only = {x.target for x in state.shots} - attacked
    if shot_only:
        reached = ctx.search.distance if ctx.search is not None else {}
        # The reading decides when the end square, or a square the move could reach, lies in
        # the zone of an enemy only shot at: attacked or not, it stops the move or not.
        if any(e in shot_only for c in (end, *reached) for e in ctx.sit.zone_of(c)):
            out.append(tables.interpretation("arrow-target-zones"))
    return out


def _move_notes(ctx: MoveContext) -> list[Ruling]:
    state = ctx.state
    notes: list[Ruling] = []
    if ctx.target is not None and ctx.search is not None:
        path = ctx.search.path(ctx.target)
        route = " → ".join(state.name(c) for c in path)
        notes.append(Ruling.event("route", "{counter}: {route} ({cost} of {limit} points)", (),
                                  counter=ctx.counter.id, route=route, cost=ctx.search.distance[ctx.target],
                                  limit=allowance(ctx.counter, state)))
    if ctx.targets:
        args = {"counter": ctx.counter.id, "enemies": ", ".join(ctx.targets)}
        if len(ctx.targets) == 1 and ctx.counter.hero and state.counter(ctx.targets[0]).hero:
            notes.append(Ruling.event("attack", "{counter} attacks {enemies} (a duel, resolved after the move)",
                                      (ZONES,), **args))
        else:
            notes.append(Ruling.event("attack", "{counter} attacks {enemies} (an open battle, resolved after the "
                                      "move)", (ZONES,), **args))
    if ctx.shoot:
        notes.append(Ruling.event("shot", "{counter} will shoot {enemy} before the other combats", (),
                                  counter=ctx.counter.id, enemy=ctx.shoot))
    return notes


def _resolve_notes(s: IliadState) -> list[Ruling]:
    if s.phase is Phase.DUEL:
        duel = s.tables.calendar.duel(s.day, s.hour)
        assert duel is not None
        return [Ruling.event("duel-pending", "{greek} and {trojan} fight the scheduled duel", (CALENDAR,),
                             greek=duel.greek, trojan=duel.trojan)]
    if not s.shots and not s.attacks:
        return []
    if not s.shots:
        return [Ruling.counted("combats", "{n} attack to resolve", "{n} attacks to resolve", len(s.attacks),
                               (TURN,))]
    if not s.attacks:
        return [Ruling.counted("combats", "{n} shot to resolve", "{n} shots to resolve", len(s.shots), (TURN,))]
    if len(s.attacks) == 1:
        return [Ruling.counted("combats", "{n} shot and 1 attack to resolve, arrows first",
                               "{n} shots and 1 attack to resolve, arrows first", len(s.shots), (TURN,))]
    return [Ruling.counted("combats", "{n} shot and {attacks} attacks to resolve, arrows first",
                           "{n} shots and {attacks} attacks to resolve, arrows first", len(s.shots), (TURN,),
                           attacks=len(s.attacks))]
