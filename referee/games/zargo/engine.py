"""The Zargo's Lords engine: the game protocol wired to the rules of :mod:`sequence`."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from referee.bot import Bot
from referee.dice import Dice
from referee.errors import NotationError, PositionError
from referee.game import Applied, BoardView, Counter, Engine, GameInfo, Outcome, validate_file
from referee.games.zargo import actions as act
from referee.games.zargo import sequence as seq
from referee.games.zargo.actions import GRAMMAR
from referee.games.zargo.adjust import apply_adjust, check_adjust
from referee.games.zargo.combat import combat_odds, shot_odds
from referee.games.zargo.display import world_view
from referee.games.zargo.position import SetupFile, ZargoPosition, read_position, write_position
from referee.games.zargo.rules import (
    CALENDAR,
    COMBAT,
    FALCONS,
    MAP,
    MONK_KNIGHTS,
    SERPENTS,
    WINGED_FOOT,
)
from referee.games.zargo.state import MONTHS, Phase, ZargoState, load_tables
from referee.i18n import _
from referee.rulings import RuleRef, Ruling, Verdict
from referee.tables import TableSet

INFO = GameInfo(
    slug="zargo",
    package="zargo",
    title="Zargo's Lords",
    sides=("chevaliers", "dragons", "ailes", "moines"),
    dice="1d6",
    rulebook="International Team 1979 (French copy)",
    players=(2, 4),
    information="imperfect",
)

POWERS: dict[str, RuleRef] = {"FAU": FALCONS, "FAi": WINGED_FOOT, "SER": SERPENTS, "MCh": MONK_KNIGHTS}
"""Counter types whose abilities a section of their own describes (cited by ``referee legal``)."""


class LegalReport(BaseModel):
    """``referee legal zargo HEX``: what the counters on a hex may do now."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    hex: str
    counters: tuple[str, ...]
    moves: tuple[str, ...] = Field(default=(), description="Hexes the stack (or lone counter) may end on.")
    attacks: tuple[str, ...] = ()
    shots: tuple[str, ...] = ()
    sections: tuple[RuleRef, ...] = ()
    why_not: tuple[Ruling, ...] = ()

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        lines = [f"{self.hex}: {' + '.join(self.counters) or '-'}"]
        if self.moves:
            lines.append(_("may move to {n} hex(es): {hexes}").format(n=len(self.moves), hexes=" ".join(self.moves)))
        if self.attacks:
            lines.append(_("may attack: {hexes}").format(hexes=" ".join(self.attacks)))
        if self.shots:
            lines.append(_("may shoot: {shots}").format(shots=" ".join(self.shots)))
        lines += [f"✗ {r.message} [{r.code}]" for r in self.why_not]
        return lines


class Resolution(BaseModel):
    """``referee resolve zargo``: what the shots and combats did, and the position after."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    events: tuple[Ruling, ...]
    provisional: tuple[str, ...] = ()
    position: ZargoPosition

    def explain(self) -> list[str]:
        """Returns the resolution as lines for the terminal."""
        return [f"→ {e.message}" for e in self.events] + [f"⚠ {p}" for p in self.provisional]


class Odds(BaseModel):
    """``referee odds zargo``: the exact chances of a combat or a shot (every die face counted)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    action: str
    attack: int | None = None
    defence: int | None = None
    chances: dict[str, str]
    provisional: tuple[str, ...] = (seq.RECONSTRUCTION_NOTE,)

    def explain(self) -> list[str]:
        """Returns the odds as lines."""
        head = self.action + (f": {self.attack} against {self.defence}" if self.attack is not None else "")
        return [head] + [f"  {k}: {v}" for k, v in self.chances.items()]


class ZargoEngine(Engine[ZargoState, act.ZargoAction]):
    """Zargo's Lords (International Team, 1979): 2 to 4 players, hidden garrisons, one d6."""

    info = INFO
    position_model = ZargoPosition
    grammar = GRAMMAR

    # ---- state ------------------------------------------------------------------------------

    def new_state(self, table_set: TableSet) -> ZargoState:
        return ZargoState(tables=load_tables(table_set))

    def players_actions(self, players: int) -> list[str]:
        """PRÉPARATION DU JEU: the first action says how many play (continents then drawn by lot)."""
        super().players_actions(players)
        return [act.Players(players=players).text()]

    def setup_actions(self, state: ZargoState, data: object, label: str) -> list[str]:
        setup = validate_file(SetupFile, data, label)
        if setup.continents:
            parts = " ".join(f"{p}:{','.join(c)}" for p, c in setup.continents.items())
            texts = [f"players {setup.players} {parts}"]
            order = [p for p in state.tables.order if p in setup.continents]
        else:
            raise PositionError(label, "continents", "a set-up file says which people holds which continents")
        for people in order:
            for h in setup.cities.get(people, []):
                texts.append(f"city {h}")
            for lab, where in setup.counters.get(people, {}).items():
                for h in [where] if isinstance(where, str) else where:
                    texts.append(f"{lab} {h}")
            texts.append("ready")
        unknown = set(setup.cities) | set(setup.counters)
        if unknown - set(order):
            raise PositionError(label, "cities", f"{sorted(unknown - set(order))[0]!r} is not a people in play")
        return texts

    def from_position(self, table_set: TableSet, data: object, label: str) -> ZargoState:
        return read_position(load_tables(table_set), data, label)

    def to_position(self, state: ZargoState) -> ZargoPosition:
        return write_position(state)

    def outcome(self, state: ZargoState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        counts = seq.city_counts(state)
        best = max(counts.values())
        winners = tuple(p for p in state.peoples if counts[p] == best)
        text = ", ".join(f"{p} {counts[p]}" for p in state.peoples)
        tie = len(winners) > 1
        if tie and state.tables.choice("most-cities-tie") == "draw":
            winners = ()
        ruling = Ruling.event("most-cities", "cities held: {counts}", (CALENDAR,), counts=text)
        code = "all-cities" if len([n for n in counts.values() if n]) == 1 and state.month < MONTHS else "most-cities"
        return Outcome(termination=code, winners=winners, ruling=ruling)

    def to_act(self, state: ZargoState) -> str | None:
        if state.phase is Phase.OVER:
            return None
        if state.phase is Phase.PLAYERS:
            return state.tables.order[0]
        if state.phase is Phase.REVEAL and state.reveal_wait is not None:
            return state.cities[state.reveal_wait].owner
        if state.proposal is not None:
            return state.proposal[1]
        if state.active is None:
            return state.peoples[0]
        return state.active

    # ---- actions ----------------------------------------------------------------------------

    def parse(self, state: ZargoState, text: str) -> act.ZargoAction:
        return act.parse_action(state, text)

    def parse_adjust(self, state: ZargoState, text: str) -> act.ZargoAction:
        return act.parse_adjust(state, text)

    def judge(self, state: ZargoState, action: act.ZargoAction) -> Verdict:
        if isinstance(action, act.AdjustCounter | act.AdjustOff | act.AdjustCity):
            return Verdict(action=action.text(), violations=tuple(check_adjust(state, action)))
        violations, provisional = seq.judge_action(state, action)
        return Verdict(action=action.text(), violations=tuple(violations), provisional=provisional)

    def apply(self, state: ZargoState, action: act.ZargoAction, dice: Dice) -> Applied[ZargoState]:
        if isinstance(action, act.AdjustCounter | act.AdjustOff | act.AdjustCity):
            return Applied(apply_adjust(state, action))
        new, events, provisional = seq.apply_action(state, action, dice)
        return Applied(new, tuple(events), tuple(provisional))

    def legal_actions(self, state: ZargoState) -> list[act.ZargoAction]:
        s = state
        out: list[act.ZargoAction] = []
        if s.phase is Phase.PLAYERS:
            out += [act.Players(players=n) for n in (2, 3, 4)]
            out += list(seq.all_assignments(s))
            return out
        if s.phase is Phase.SETUP:
            return self._setup_actions(s)
        if s.phase is Phase.RESOLVE:
            return [act.Word(word="resolve")]
        if s.phase is not Phase.MOVE:
            return []  # OVER; REVEAL waits for the owner's reveal (a salt cannot be enumerated)
        if s.proposal is not None:
            return [act.Word(word="accept"), act.Word(word="refuse")]
        me = str(s.active)
        if seq.turn_untouched(s):
            for p in s.peoples:
                if p != me:
                    out.append(act.Alliance(verb="break" if s.allied(me, p) else "ally", people=p))
        for h, stack in sorted(s.board.items()):
            if seq.unit(s, stack[0]).people != me:
                continue
            out += self.hex_actions(s, h)
        for marker in sorted(s.vanished):
            out += [
                a
                for t in seq.appear_reach(s, marker)
                if not seq.check_appear(s, a := act.Appear(marker=marker, target=t))
            ]
        out.append(act.Word(word="resolve"))
        return out

    def hex_actions(self, s: ZargoState, h: str) -> list[act.ZargoAction]:
        """Every legal action of the counters on one own hex: moves, attacks, shots, vanishing."""
        out: list[act.ZargoAction] = []
        stack = s.board[h]
        out += [act.Move(source=h, target=t) for t in seq.destinations(s, h, None)]
        if len(stack) == 2:
            for lab in stack:
                out += [act.Move(source=h, target=t, label=lab) for t in seq.destinations(s, h, lab)]
        grid = s.tables.world.grid
        me = str(s.active)
        for n in grid.neighbours(seq.cell(s, h)):
            t = grid.name(n)
            a = act.Attack(source=h, target=t)
            if s.people_of(t) not in (None, me) and not seq.check_attack(s, a):
                out.append(a)
        u = seq.unit(s, stack[0])
        for kind, powers in seq.SHOT_POWERS.items():
            if len(stack) == 1 and set(powers) & set(u.powers):
                for n in grid.within(seq.cell(s, h), u.range or 0):
                    t = grid.name(n)
                    if t in s.board and not s.allied(s.people_of(t) or me, me):
                        shot = act.Shoot(kind=kind, source=h, target=t)
                        if not seq.check_shot(s, shot):
                            out.append(shot)
        if "vanish" in u.powers and not seq.check_vanish(s, act.Vanish(hex=h)):
            out.append(act.Vanish(hex=h))
        return out

    def _setup_actions(self, s: ZargoState) -> list[act.ZargoAction]:
        out: list[act.ZargoAction] = []
        if s.active is None:
            return [act.Word(word="start")]
        people = s.active
        world = s.tables.world
        grid = world.grid
        own = [grid.name(c) for cont in s.continents[people] for c in world.hexes_of(cont)]
        built = sum(1 for c in s.cities.values() if c.founder == people)
        if built < s.tables.peoples.peoples[people].city_counters:  # type: ignore[index]
            return [c for h in own if not seq.check_city(s, c := act.BuildCity(hex=h))]
        for lab in s.tables.labels_of[people]:
            if seq.manifest_left(s, lab) <= 0:
                continue
            out += [a for h in own if not seq.check_place(s, a := act.Place(label=lab, hex=h))]
        out.append(act.Word(word="ready"))
        return out

    # ---- umpire -----------------------------------------------------------------------------

    def legal_report(self, state: ZargoState, unit: str) -> LegalReport:
        h = act.hex_word(state, unit)
        stack = state.board.get(h, ())
        actions = self.hex_actions(state, h) if stack and state.phase is Phase.MOVE else []
        why: list[Ruling] = []
        if not stack:
            why.append(Ruling.violation("no-counter", "no counter stands on {hex}", (COMBAT,), hex=h))
        elif not actions:
            found = seq.moving(state, act.Move(source=h, target=h))
            why += found if isinstance(found, list) else []
        sections = tuple(POWERS[lab] for lab in stack if lab in POWERS)
        return LegalReport(
            hex=h,
            counters=stack,
            moves=tuple(a.target for a in actions if isinstance(a, act.Move) and a.label is None),
            attacks=tuple(a.target for a in actions if isinstance(a, act.Attack)),
            shots=tuple(f"{a.kind}:{a.target}" for a in actions if isinstance(a, act.Shoot)),
            sections=sections,
            why_not=tuple(why),
        )

    def resolve_pending(self, state: ZargoState, dice: Dice) -> tuple[ZargoState, Resolution]:
        new, events, provisional = seq.apply_action(state, act.Word(word="resolve"), dice)
        return new, Resolution(events=tuple(events), provisional=tuple(provisional), position=self.to_position(new))

    def odds(self, state: ZargoState, text: str) -> Odds:
        """Exact odds of the attack or shot a text names (``attack A B``, ``flame A B``...), or of
        every attack already declared on a target (``attack TARGET``)."""
        action = act.parse_action(state, text)
        if isinstance(action, act.Attack):
            attackers = [*state.attacks.get(action.target, ()), action.source]
            attackers = list(dict.fromkeys(attackers))
            attack, _charged = seq._attack_total(state, attackers, action.target)
            city = state.cities.get(action.target)
            if city is not None and action.target not in state.board:
                if city.hidden:
                    raise NotationError(
                        _("the garrison of {hex} is hidden: no odds before its reveal").format(hex=action.target)
                    )
                defence = sum(seq.unit(state, g).combat for g in city.garrison or ())
            else:
                stack = state.board.get(action.target)
                if not stack:
                    raise NotationError(_("no counter on {hex}").format(hex=action.target))
                du = seq.unit(state, stack[0])
                defence = du.combat + seq._bonus(state, action.target, du.people)
            odds = combat_odds(state.tables.tables.combat, attack, defence)
            return Odds(
                action=action.text(),
                attack=attack,
                defence=defence,
                chances={k: str(v) for k, v in sorted(odds.items())} or {"not allowed": "1"},
            )
        if isinstance(action, act.Shoot):
            grid = state.tables.world.grid
            d = grid.distance(seq.cell(state, action.source), seq.cell(state, action.target))
            table = seq._table(state, action.kind)
            if action.kind == "vision":
                chances: dict[str, Fraction] = {}
                for die in range(1, 7):
                    score = max(1, min(6, die + table.distance_modifier * (d - 1)))
                    r = table.results[score]
                    chances[r] = chances.get(r, Fraction(0)) + Fraction(1, 6)
                return Odds(action=action.text(), chances={k: str(v) for k, v in chances.items()})
            extra = 0
            if action.kind == "flame":
                others = [
                    x
                    for x in state.shots
                    if x.kind == "flame" and x.target == action.target and x.source != action.source
                ]
                extra = (table.extra_flame_modifier or 0) * len(others)
            hit = shot_odds(table, d, extra)
            if hit is None:
                return Odds(action=action.text(), chances={"out of range": "1"})
            return Odds(action=action.text(), chances={"hit": str(hit), "miss": str(1 - hit)})
        raise NotationError(_("odds: give an attack (attack FROM TO) or a shot (arrow/flame/vision FROM TO)"))

    # ---- display ----------------------------------------------------------------------------

    def board_view(self, state: ZargoState) -> BoardView:
        t = state.tables
        stacks: dict[str, list[Counter]] = {}
        for h, stack in state.board.items():
            stacks[h] = [Counter(side=t.units[lab].people, label=lab) for lab in stack]
        for h, city in state.cities.items():
            label = "V?" if city.hidden else f"V{len(city.garrison or ())}"
            stacks[h] = [Counter(side=city.owner, label=label, hidden=False)]
        for h, (lab, _m) in state.vanished.items():
            stacks.setdefault(h, []).append(Counter(side=t.units[lab].people, label="MD"))
        marks = {h: ["combat"] for h in state.attacks}
        return world_view(t.world, t.display, t.peoples, stacks, marks, self.status(state))

    def status(self, state: ZargoState) -> list[str]:
        s = state
        lines: list[str] = []
        if s.phase is Phase.PLAYERS:
            return [_("Zargo's Lords: how many players? (players 2, players 3, players 4)")]
        if s.phase is Phase.SETUP:
            if s.active is None:
                return [_("set-up done; seal garrisons (referee seal garrison-HEX --as PEOPLE), then: start")]
            return [_("set-up of the {people}: cities, then counters, then ready").format(people=_(s.active))]
        done = self.outcome(s)
        counts = seq.city_counts(s)
        cities = ", ".join(f"{_(p)} {counts[p]}" for p in s.peoples)
        if done is not None:
            winners = ", ".join(_(w) for w in done.winners) or _("nobody")
            return [_("game over: {winners} win(s); cities {cities}").format(winners=winners, cities=cities)]
        lines.append(
            _("month {month} of {months}: the {people} play").format(
                month=s.month, months=MONTHS, people=_(str(s.active))
            )
        )
        lines.append(_("cities held: {cities}").format(cities=cities))
        if s.alliances:
            lines.append(_("alliances: {pairs}").format(pairs=", ".join(s.alliances)))
        if s.proposal:
            lines.append(
                _("awaiting the {b}: accept or refuse the {a}' alliance").format(a=s.proposal[0], b=s.proposal[1])
            )
        if s.phase is Phase.REVEAL and s.reveal_wait:
            lines.append(
                _(
                    "awaiting the {owner}: reveal the garrison of {hex} (referee reveal garrison-{hex} --as {owner})"
                ).format(owner=s.cities[s.reveal_wait].owner, hex=s.reveal_wait)
            )
        if s.attacks or s.shots:
            lines.append(_("declared: {n} attack(s), {m} shot(s)").format(n=len(s.attacks), m=len(s.shots)))
        return lines

    def help_actions(self) -> Sequence[tuple[str, str]]:
        return tuple((GRAMMAR.spell(f.example), _(f.summary)) for f in GRAMMAR.forms)

    def secret_problem(self, state: ZargoState, owner: str, label: str, secret: object) -> Ruling | None:
        """LA CONQUÊTE D'UNE VILLE: what is wrong with a garrison before it is sealed (more than
        four counters, another people's counter, more than the box holds), checked by
        ``GameFile.seal`` on the owner's machine; the reveal is checked again by the judge."""
        if not label.startswith("garrison-"):
            return None
        return seq.garrison_problem(state, owner, secret)

    def bot(self) -> Bot:
        """A random legal player (``referee bot``, playouts)."""
        from referee.games.zargo.bot import RandomBot

        return RandomBot(self)

    def map_section(self) -> RuleRef:
        """The section describing the map (cited by the board's legend)."""
        return MAP
