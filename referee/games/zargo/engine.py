"""The Zargo's Lords engine: the game protocol wired to the rules, one check and one effect per
action type (:data:`CHECKS`, :data:`EFFECTS`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.bot import Bot
from referee.dice import Dice
from referee.game import Applied, BoardView, Engine, GameInfo, Outcome
from referee.games.zargo import actions as act
from referee.games.zargo import cities, combat, movement, sequence, serpents, shots
from referee.games.zargo.acting import Found
from referee.games.zargo.actions import GRAMMAR
from referee.games.zargo.adjust import apply_adjust, check_adjust
from referee.games.zargo.bot import RandomBot
from referee.games.zargo.declarations import Resolution, read_position, setup_texts
from referee.games.zargo.display import board_view, status
from referee.games.zargo.legal import LegalReport, legal_actions, legal_report
from referee.games.zargo.odds import Odds, odds
from referee.games.zargo.position import ZargoPosition, write_position
from referee.games.zargo.rules import CALENDAR, MAP
from referee.games.zargo.state import MONTHS, Phase, Turn, ZargoState
from referee.games.zargo.tables import Reads, load_tables
from referee.i18n import _
from referee.rulings import RuleRef, Ruling, Verdict
from referee.sealed import Seal
from referee.tables import TableSet

__all__ = ["CHECKS", "EFFECTS", "INFO", "ZargoEngine"]

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

Check = Callable[[ZargoState, Any, Reads], Found]
Effect = Callable[[ZargoState, Any, Turn, Dice], Turn | None]

WORD_CHECKS: dict[str, Check] = {
    "ready": lambda s, _a, r: sequence.check_ready(s, r),
    "start": lambda s, _a, _r: sequence.check_start(s),
    "accept": lambda s, _a, _r: sequence.check_answer(s),
    "refuse": lambda s, _a, _r: sequence.check_answer(s),
    "resolve": lambda s, _a, r: sequence.check_resolve(s, r),
    "carry": lambda s, _a, r: serpents.check_carry(s, r),
}
CHECKS: dict[type, Check] = {
    act.Players: sequence.check_players,
    act.BuildCity: sequence.check_city,
    act.Place: sequence.check_place,
    act.Word: lambda s, a, r: WORD_CHECKS[a.word](s, a, r),
    act.Alliance: sequence.check_alliance,
    act.Move: movement.check_move,
    act.Attack: combat.check_attack,
    act.Shoot: shots.check_shot,
    act.Vanish: movement.check_vanish,
    act.Appear: movement.check_appear,
    act.SealGarrison: cities.check_seal,
    act.RevealGarrison: cities.check_reveal_garrison,
}
"""The check of each action type: the judge, the position reader and the legal lists all call these."""


def _declare_attack(s: ZargoState, a: act.Attack, w: Turn, _d: Dice) -> None:
    ident = combat.attacker_id(s, a)
    w.update = {"attacks": {**s.attacks, a.target: (*s.attacks.get(a.target, ()), ident)},
                "acted": (*s.acted, *combat.acted_keys(s, ident))}


def _declare_shot(s: ZargoState, a: act.Shoot, w: Turn, _d: Dice) -> None:
    w.update = shots.declare_shot(s, a)


WORD_EFFECTS: dict[str, Effect] = {
    "resolve": lambda s, _a, w, d: sequence.resolve(s, d, w),
    "carry": lambda s, _a, _w, d: sequence.carry_then_resolve(s, d),
}
EFFECTS: dict[type, Effect] = {
    act.Players: lambda s, a, w, d: sequence.apply_players(s, a, w, d),
    act.BuildCity: lambda s, a, w, _d: sequence.build_city(s, a, w),
    act.Place: lambda s, a, w, _d: w.board.__setitem__(a.hex, (a.label, *w.board.get(a.hex, ()))),
    act.Word: lambda s, a, w, d: WORD_EFFECTS.get(a.word, sequence.apply_word)(s, a, w, d),
    act.Alliance: lambda s, a, w, _d: sequence.apply_alliance(s, a, w),
    act.Move: lambda s, a, w, _d: movement.apply_move(s, a, w),
    act.Attack: _declare_attack,
    act.Shoot: _declare_shot,
    act.Vanish: lambda s, a, w, _d: movement.apply_vanish(s, a, w),
    act.Appear: lambda s, a, w, _d: movement.apply_appear(s, a, w),
    act.SealGarrison: lambda s, a, w, _d: cities.apply_seal(s, a, w),
    act.RevealGarrison: lambda s, a, w, _d: cities.apply_reveal(s, a, w),
}
"""What each legal action does; an effect returns a new working copy when it replaces the one given."""


def judge_action(state: ZargoState, action: act.ZargoAction, reads: Reads) -> Found:
    """Returns the violations of an action (the readings it relied on go into ``reads``)."""
    if state.phase is Phase.OVER:
        return [Ruling.violation("game-over", "the game is over", (CALENDAR,))]
    return CHECKS[type(action)](state, action, reads)


def apply_action(state: ZargoState, action: act.ZargoAction, dice: Dice) -> Turn:
    """Returns the working copy after a legal action: the new state, its events, its disclosures."""
    w = Turn(state)
    return EFFECTS[type(action)](state, action, w, dice) or w


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
        return setup_texts(state, data, label)

    def from_position(self, table_set: TableSet, data: object, label: str) -> ZargoState:
        return read_position(self, load_tables(table_set), data, label)

    def to_position(self, state: ZargoState) -> ZargoPosition:
        return write_position(state)

    def outcome(self, state: ZargoState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        counts = sequence.city_counts(state)
        best = max(counts.values())
        winners = tuple(p for p in state.peoples if counts[p] == best)
        if len(winners) > 1 and state.tables.choice("most-cities-tie") == "draw":
            winners = ()
        text = ", ".join(f"{p} {counts[p]}" for p in state.peoples)
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
        if isinstance(action, act.Adjust):
            return Verdict(action=action.text(), violations=tuple(check_adjust(state, action)))
        reads = Reads()
        violations = judge_action(state, action, reads)
        return Verdict(action=action.text(), violations=tuple(violations), provisional=reads.labels(state.tables))

    def apply(self, state: ZargoState, action: act.ZargoAction, dice: Dice) -> Applied[ZargoState]:
        if isinstance(action, act.Adjust):
            return Applied(apply_adjust(state, action))
        w = apply_action(state, action, dice)
        return Applied(w.state(), tuple(w.events), tuple(w.provisional()))

    def legal_actions(self, state: ZargoState) -> list[act.ZargoAction]:
        return legal_actions(state)

    # ---- umpire -----------------------------------------------------------------------------

    def legal_report(self, state: ZargoState, unit: str) -> LegalReport:
        return legal_report(state, unit)

    def resolve_pending(self, state: ZargoState, dice: Dice) -> tuple[ZargoState, Resolution]:
        w = apply_action(state, act.Word(word="resolve"), dice)
        new = w.state()
        return new, Resolution(events=tuple(w.events), provisional=tuple(w.provisional()),
                               position=write_position(new))

    def odds(self, state: ZargoState, text: str) -> Odds:
        """Exact odds of the attack or shot a text names (``attack A B``, ``flame A B``...), or of
        every attack already declared on a target (``attack TARGET``)."""
        return odds(state, text)

    # ---- secrets ----------------------------------------------------------------------------

    def secret_problem(
        self, state: ZargoState, owner: str, label: str, secret: object, secrets: Sequence[Seal] = ()
    ) -> Ruling | None:
        """LA CONQUÊTE D'UNE VILLE: what is wrong with a garrison before it is sealed (more than
        four counters, another people's counter, more than the box holds with the owner's other
        sealed garrisons ``secrets`` and face-up counters), checked by ``GameFile.seal`` on the
        owner's machine; the reveal is checked again by the judge."""
        if cities.city_of_label(label) is None:
            return None
        return cities.garrison_problem(state, owner, label, secret, secrets)

    def sealed_problem(
        self, state: ZargoState, action: act.ZargoAction, secrets_of: Callable[[str], Sequence[Seal]]
    ) -> Ruling | None:
        """LES PIONS DU JEU: a counter laid face up (set-up, or an umpire's override) after its
        people sealed garrisons is checked against them too (the game file holds the secrets)."""
        if not isinstance(action, act.Place | act.AdjustCounter):
            return None
        people = state.tables.units[action.label].people
        if not any(c.owner == people and c.seal is not None and c.hidden for c in state.cities.values()):
            return None
        return cities.placement_problem(state, action.label, secrets_of(people))

    # ---- display ----------------------------------------------------------------------------

    def board_view(self, state: ZargoState) -> BoardView:
        return board_view(state, self.status(state))

    def status(self, state: ZargoState) -> list[str]:
        done = self.outcome(state)
        return status(state, None if done is None else done.winners)

    def help_actions(self) -> Sequence[tuple[str, str]]:
        return tuple((GRAMMAR.spell(f.example), _(f.summary)) for f in GRAMMAR.forms)

    def bot(self) -> Bot:
        """A random legal player (``referee bot``, playouts)."""
        return RandomBot()

    def map_section(self) -> RuleRef:
        """The section describing the map (cited by the board's legend)."""
        return MAP
