"""The 300-solo engine: the game protocol wired to the rule modules and to PERS.IA."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, JsonValue

from referee.bot import Bot
from referee.dice import CommittedDice, Dice, PhysicalDice, new_seed
from referee.errors import DiceError, InputFileError, NotationError
from referee.files import parse_json
from referee.game import Applied, Engine, GameInfo, MapView, Outcome, canonical
from referee.games.earth_water import actions as act
from referee.games.earth_water import bot, declarations, preparation
from referee.games.earth_water.announce import Announcer, PersiaReport, Procedure, relies_on
from referee.games.earth_water.combat import (
    RoundResult,
    close_battle,
    fight_round,
    fight_to_end,
    land_armies,
    offer_burning,
    one_side_gone,
    retreat,
    retreat_options,
    start_battle,
)
from referee.games.earth_water.display import board_view, status_lines
from referee.games.earth_water.layout import load_layout
from referee.games.earth_water.legal import city_report, legal_actions
from referee.games.earth_water.play_cards import cards_out, pay_for_move, play_event
from referee.games.earth_water.position import EarthWaterPosition, apply_override, position_of, state_from_position
from referee.games.earth_water.rules import (
    BASE_OPERATIONS,
    BATTLE,
    BRIDGE_BURNING,
    GAME_END,
    NO_RETREAT,
    SUDDEN_VICTORY,
    VICTORY,
)
from referee.games.earth_water.sequence import (
    begin_greek_preparation,
    begin_greek_supply,
    begin_operations,
    end_campaign,
    end_turn,
    reason_text,
    sudden_victory,
)
from referee.games.earth_water.state import Battle, EarthWaterState, Garrison
from referee.games.earth_water.supply import holds_both_enemy_majors
from referee.games.earth_water.tables import EarthWaterTables, Phase, Side, load_tables
from referee.games.earth_water.verdicts import disclosures, violations
from referee.i18n import N_, _
from referee.rulings import Ruling, Verdict
from referee.tables import TableSet

CARD_FIELDS: dict[str, object] = {"greek_cards": [], "played_once": [], "free_moves": 0, "extra_preparation": False}
CARD_BATTLE_FIELDS: dict[str, object] = {"greek_dice": None, "card": None, "persian_lost": 0}
"""State fields the cards added, with their empty values (left out of the hash when empty)."""

INFO = GameInfo(
    slug="300-solo", package="earth_water", title="300: Earth & Water — solo (PERS.IA)",
    sides=("greece", "persia"), dice="1d6",
    rulebook="solo rules (French, Arié Zarka) on the Nuts! 2020 base rules",
    players=(1, 1), bot_sides=("persia",),
)


class BattleReport(BaseModel):
    """``referee resolve 300-solo``: the rounds fought and the resulting position."""

    model_config = ConfigDict(frozen=True)

    rounds: tuple[RoundResult, ...]
    events: tuple[Ruling, ...]
    position: EarthWaterPosition
    provisional: tuple[str, ...] = ()

    def explain(self) -> list[str]:
        """Returns the resolution as lines for the terminal."""
        lines = [r.text() for r in self.rounds] or [_("no battle to fight")]
        lines += [f"→ {e.text()}" for e in self.events if e.code != "battle-round"]
        return lines + ([relies_on(self.provisional)] if self.provisional else [])



class EarthWaterEngine(Engine[EarthWaterState, act.EarthWaterAction]):
    """300: Earth & Water, solo mode: the player's Greeks against PERS.IA."""

    info = INFO
    position_model = EarthWaterPosition
    grammar = act.GRAMMAR

    # ---- state ------------------------------------------------------------------------------

    def tables(self, table_set: TableSet) -> EarthWaterTables:
        """Returns the validated tables."""
        return load_tables(table_set)

    def new_state(self, table_set: TableSet) -> EarthWaterState:
        """2: the solo set-up, campaign 3, PERS.IA to prepare."""
        tables = load_tables(table_set)
        load_layout(table_set)  # the map's drawing too: a bad layout.yaml is refused before a file is made
        setup = tables.setup
        cities = {c: Garrison() for c in tables.cities}
        for name, row in setup.cities.items():
            cities[tables.city(name)] = Garrison(**row.model_dump(exclude={"provenance"}))
        return EarthWaterState(
            tables=tables, phase=Phase.PERSIAN_PREPARATION, campaign=setup.campaign.value, score=setup.score.value,
            bridge=setup.bridge.value, cities=cities, fresh=True,
            portraits={"persia": setup.portraits.persia, "greece": setup.portraits.greece},
        )

    def setup_actions(self, state: EarthWaterState, data: object, label: str) -> list[str]:
        s = state
        self._set_up(s.tables, data, label)  # reports problems against the file
        assert isinstance(data, dict)
        return [act.setup_text(data)]

    def _set_up(self, tables: EarthWaterTables, data: object, label: str) -> EarthWaterState:
        """2: the state a set-up file starts a game in, judged in the phase it will be in (PERS.IA's
        preparation unless the file names one)."""
        if isinstance(data, dict) and data.get("phase") is None and data.get("winner") is None:
            data = {**data, "phase": Phase.PERSIAN_PREPARATION.value}
        return state_from_position(self, tables, data, label)

    def from_position(self, table_set: TableSet, data: object, label: str) -> EarthWaterState:
        return state_from_position(self, load_tables(table_set), data, label)

    def state_hash(self, state: EarthWaterState) -> str:
        """Returns the state's hash; the card fields added with the cards (issue 15) count only
        when they hold something, so games journaled before them keep their hashes."""
        data = canonical(state)
        assert isinstance(data, dict)
        for key, empty in CARD_FIELDS.items():
            if data.get(key) == empty:
                data.pop(key, None)
        battle = data.get("battle")
        if isinstance(battle, dict):
            for key, empty in CARD_BATTLE_FIELDS.items():
                if battle.get(key) == empty:
                    battle.pop(key, None)
        blob = json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    def to_position(self, state: EarthWaterState) -> EarthWaterPosition:
        return position_of(state)

    def outcome(self, state: EarthWaterState) -> Outcome | None:
        s = state
        if s.phase is not Phase.OVER:
            return None
        reason = reason_text(s.end_reason)
        code = termination(s)
        cites = (SUDDEN_VICTORY, VICTORY) if code == "sudden-victory" else (GAME_END, VICTORY)
        return Outcome(termination=code, winners=(s.winner.value,) if s.winner else (),
                       ruling=Ruling.event("victory", reason, cites))


    def to_act(self, state: EarthWaterState) -> str | None:
        s = state
        if s.phase is Phase.OVER:
            return None
        if s.battle is not None or s.may_burn:
            return Side.GREECE.value
        if s.phase in (Phase.PERSIAN_PREPARATION, Phase.PERSIAN_SUPPLY):
            return Side.PERSIA.value
        if s.phase in (Phase.GREEK_PREPARATION, Phase.GREEK_SUPPLY):
            return Side.GREECE.value
        return s.active.value

    # ---- actions ----------------------------------------------------------------------------

    def parse(self, state: EarthWaterState, text: str) -> act.EarthWaterAction:
        s = state
        parsed = act.parse_action(s, text)
        if isinstance(parsed, act.Setup):
            try:  # the guarded JSON parser: depth and integer length capped (typed text, like a file)
                data = parse_json("setup", parsed.position)
            except InputFileError as exc:
                raise NotationError(_("setup: not a JSON position ({problem})").format(problem=exc.problem)) from None
            self._set_up(s.tables, data, "setup")
            assert isinstance(data, dict)  # _set_up refuses anything but a mapping
            return act.Setup(position=act.setup_text(data)[len("setup "):])
        return parsed

    def parse_adjust(self, state: EarthWaterState, text: str) -> act.EarthWaterAction:
        return act.parse_adjust(state, text)

    def judge(self, state: EarthWaterState, action: act.EarthWaterAction) -> Verdict:
        s, a = state, action
        found = violations(s, a)
        return Verdict(action=a.text(), violations=tuple(found), provisional=disclosures(s, a))

    def apply(self, state: EarthWaterState, action: act.EarthWaterAction, dice: Dice) -> Applied[EarthWaterState]:
        s, a = state, action
        if not isinstance(a, act.BurnBridge) and (s.may_burn or s.fresh):
            s = s.model_copy(update={"may_burn": False, "fresh": False})
        if isinstance(a, act.Persia):
            new, report, says = self._persia(s, a.procedure, dice)
            details: tuple[JsonValue, ...] = (report.model_dump(mode="json"),)
            return Applied(new, says.events(), says.labels(), details)
        new, events, used, details = self._apply(s, a, dice)
        spent = None if isinstance(a, act.Event) else cards_out(s, new)  # an event names its own card
        if spent is not None:
            events = [*events, spent]
        if new.phase is not Phase.OVER:
            new, more = sudden_victory(new)
            events += more
        return Applied(new, tuple(events), tuple(dict.fromkeys(used)), details)

    def persia(self, state: EarthWaterState, procedure: Procedure, dice: Dice) -> tuple[EarthWaterState, PersiaReport]:
        """Runs a PERS.IA procedure on any state (umpire mode) and returns its report."""
        new, report, _ = self._persia(state.model_copy(update={"may_burn": False, "fresh": False}), procedure, dice)
        return new, report

    def _persia(self, s: EarthWaterState, procedure: Procedure,
                dice: Dice) -> tuple[EarthWaterState, PersiaReport, Announcer]:
        after: list[Ruling] = []
        if procedure == "prepare":
            out = preparation.prepare(s)
            new = out.state if s.phase is Phase.ANY else begin_greek_preparation(out.state)
        elif procedure == "supply":
            out = bot.supply(s)
            new, after = begin_greek_supply(out.state)
        else:
            out = bot.operate(s, dice)
            new = out.state
            if new.battle is None:
                new, after = end_turn(new, Side.PERSIA, out.passed)
        for event in after:
            out.says.add(event.cites[0], "phase", event.template or event.message, args=dict(event.args))
        new, won = sudden_victory(new)
        if won:
            out.says.add(SUDDEN_VICTORY, "victory", N_("Persia holds both Greek Major cities: PERS.IA wins"))
        report = PersiaReport(
            procedure=procedure, situation=out.situation, die=out.die, die_source=out.source,
            steps=tuple(out.says.steps), pending=new.battle, interpretations=out.says.labels(),
            winner=new.winner.value if new.winner else None,
            position=position_of(new).model_dump(mode="json", exclude_none=True),
        )
        return new, report, out.says

    def _apply(self, s: EarthWaterState, a: act.EarthWaterAction,
               dice: Dice) -> tuple[EarthWaterState, list[Ruling], list[str], tuple[JsonValue, ...]]:
        events: list[Ruling] = []
        used: list[str] = []
        if isinstance(a, act.Setup):
            data = json.loads(a.position)
            return self._set_up(s.tables, data, "setup"), events, used, ()
        if isinstance(a, act.Buy):
            return self._buy(s, a), events, used, ()
        if isinstance(a, act.Done) and (s.free_moves or s.extra_preparation):
            # Triremes' free moves or Mines of Laurion's preparation end, and with them the Greek turn
            new = s.model_copy(update={"free_moves": 0, "extra_preparation": False, "phase": Phase.OPERATIONS,
                                       "active": Side.GREECE, "greek_talents": 0})
            new, more = end_turn(new, Side.GREECE, False)
            return new, more, used, ()
        if isinstance(a, act.Draw):
            return s.model_copy(update={"greek_cards": (*s.greek_cards, a.card)}), events, used, ()
        if isinstance(a, act.Discard):
            return s.model_copy(update=s.greek_hand_after(s.hands.greece - 1, spent=a.card)), events, used, ()
        if isinstance(a, act.Event):
            new, events, goes_on = play_event(s, a)
            if not goes_on and new.battle is None and new.phase is Phase.OPERATIONS and new.active is Side.GREECE:
                new, more = end_turn(new, Side.GREECE, False)
                events += more
            return new, events, used, ()
        if isinstance(a, act.Done):
            if s.phase is Phase.GREEK_PREPARATION:
                new = begin_operations(s)
                events.append(Ruling.event("operations", "operations begin: PERS.IA operates first "
                                           "('referee persia operate')", (BASE_OPERATIONS,)))
                return new, events, used, ()
            new, events, labels = end_campaign(s)
            return new, events, list(labels), ()
        if isinstance(a, act.LandMove | act.NavalMove | act.Pass):
            return self._operate(s, a)
        if isinstance(a, act.Fight):
            battle = s.battle
            assert battle is not None
            if a.to_end or one_side_gone(s):
                new, rounds, events = fight_to_end(s, dice)
            else:
                new, one, events = fight_round(s, dice)
                rounds = [one]
            used += _landing_burn(new, rounds)
            if new.battle is None:
                new, more = end_turn(new, battle.attacker, False)
                events += more
            return new, events, used, tuple(r.model_dump(mode="json") for r in rounds)
        if isinstance(a, act.Retreat):
            battle = s.battle
            assert battle is not None
            new, events, labels = retreat(s, a.city)
            new, more = end_turn(new, battle.attacker, False)
            return new, events + more, list(labels), ()
        if isinstance(a, act.BurnBridge):
            events.append(Ruling.event("bridge-burnt", "Greece burns the bridge: Abydos and Pella are no longer "
                                       "joined", (BRIDGE_BURNING,)))
            return s.model_copy(update={"bridge": False, "may_burn": False}), events, used, ()
        if isinstance(a, act.Keep):
            return s.model_copy(update=s.greek_hand_after(a.count)), events, used, ()
        if isinstance(a, act.Remove):
            g = s.at(a.city).plus(Side.GREECE, armies=-a.count)
            new = s.model_copy(update={"cities": s.with_city(a.city, g),
                                       "attrition_due": max(0, s.attrition_due - a.count)})
            return new, events, [s.tables.interpretation("attrition-once").label()], ()
        assert isinstance(a, act.SetUnits | act.SetValue)
        new = apply_override(s, a)
        if new.battle is not None and one_side_gone(new):
            # base 7: an override that leaves one side of a pending battle empty ends that battle
            attacker = new.battle.attacker
            new, events = close_battle(new)
            if new.battle is None:
                new, more = end_turn(new, attacker, False)
                events += more
        return new, events, used, ()

    def _buy(self, s: EarthWaterState, a: act.Buy) -> EarthWaterState:
        costs = s.tables.base.greek_costs
        if a.what == "cards":
            return s.model_copy(update={"hands": s.hands.plus(Side.GREECE, a.count),
                                        "greek_cards_bought": s.greek_cards_bought + a.count,
                                        "greek_talents": s.greek_talents - a.count * costs.card.value})
        assert a.city is not None
        if a.what == "army":
            g = s.at(a.city).plus(Side.GREECE, armies=a.count)
            cost = a.count * costs.army.value
            fleets = 0
        else:
            g = s.at(a.city).plus(Side.GREECE, fleets=a.count)
            cost = a.count * costs.fleet.value
            fleets = a.count
        return s.model_copy(update={"cities": s.with_city(a.city, g), "greek_talents": s.greek_talents - cost,
                                    "greek_units_bought": True, "greek_fleets_bought": s.greek_fleets_bought + fleets})

    def _operate(self, s: EarthWaterState, a: act.LandMove | act.NavalMove | act.Pass
                 ) -> tuple[EarthWaterState, list[Ruling], list[str], tuple[JsonValue, ...]]:
        events: list[Ruling] = []
        used: list[str] = []
        if isinstance(a, act.Pass):
            new, events = end_turn(s, Side.GREECE, True)
            return new, events, used, ()
        s = pay_for_move(s, a)
        if isinstance(a, act.LandMove):
            start, goal = a.path[0], a.path[-1]
            cities = {**s.cities, start: s.at(start).plus(Side.GREECE, armies=-a.count),
                      goal: s.at(goal).plus(Side.GREECE, armies=a.count)}
            s = s.model_copy(update={"cities": cities})
            if s.at(goal).persian_armies:
                s, event = start_battle(s, Battle(city=goal, kind="land", attacker=Side.GREECE, origin=a.path[-2]))
                events.append(event)
            else:
                s, more = offer_burning(s, goal)
                events += more
                used += [s.tables.interpretation("bridge-burning").label()] if more else []
        elif isinstance(a, act.NavalMove):
            s = s.model_copy(update={"cities": {
                **s.cities, a.start: s.at(a.start).plus(Side.GREECE, armies=-a.armies, fleets=-a.fleets),
                a.goal: s.at(a.goal).plus(Side.GREECE, fleets=a.fleets)}})
            if s.at(a.goal).persian_fleets:
                battle = Battle(city=a.goal, kind="naval", attacker=Side.GREECE, origin=a.start, carried=a.armies,
                                fleets=a.fleets)
                s, event = start_battle(s, battle)
                events.append(event)
            elif a.armies:
                s, events = land_armies(s, a.goal, a.armies, a.start, events)
                used += [s.tables.interpretation("bridge-burning").label()] if s.may_burn else []
        if s.battle is not None:
            # provisional: a battle ends Triremes' remaining free moves (the turn ends with the battle)
            return s.model_copy(update={"free_moves": 0}), events, used, ()
        if s.free_moves:
            return s, events, used, ()  # Triremes: the Greek turn goes on
        s, more = end_turn(s, Side.GREECE, False)
        return s, events + more, used, ()

    def legal_actions(self, state: EarthWaterState) -> list[act.EarthWaterAction]:
        return list(legal_actions(state))

    # ---- umpire -----------------------------------------------------------------------------

    def legal_report(self, state: EarthWaterState, unit: str) -> BaseModel:
        s = state
        return city_report(s, s.tables.city(unit))

    def resolve_pending(self, state: EarthWaterState, dice: Dice) -> tuple[EarthWaterState, BattleReport]:
        s = state
        if s.battle is None:
            return s, BattleReport(rounds=(), events=(), position=position_of(s))
        battle = s.battle
        used: list[str] = []
        notes: list[Ruling] = []
        after_a_round = s.model_copy(update={"battle": battle.model_copy(update={"rounds": max(1, battle.rounds)})})
        options = retreat_options(after_a_round)
        if options:
            notes.append(Ruling.event("no-retreat", "resolve fights on to the end: Greece does not retreat (after "
                                      "any round it could go to {cities})", (BATTLE, NO_RETREAT),
                                      cities=_(" or ").join(options)))
            used.append(s.tables.interpretation(
                "attacker-retreat" if battle.attacker is Side.GREECE else "sea-retreat").label())
        new, rounds, events = fight_to_end(s, dice)
        used += _landing_burn(new, rounds)
        new, more = end_turn(new, battle.attacker, False)
        new, won = sudden_victory(new)
        return new, BattleReport(rounds=tuple(rounds), events=tuple(notes + events + more + won),
                                 position=position_of(new), provisional=tuple(dict.fromkeys(used)))

    def open_declarations(self, state: EarthWaterState) -> tuple[Ruling, ...]:
        """Returns what a position leaves open that resolving it would need (``referee resolve``
        notes them, ``--strict`` refuses): the origin of a Greek attack when several cities fit."""
        return declarations.open_declarations(self, state)

    # ---- display ----------------------------------------------------------------------------

    def board_view(self, state: EarthWaterState) -> MapView:
        return board_view(state)

    def status(self, state: EarthWaterState) -> list[str]:
        return status_lines(state)

    def bot(self) -> Bot:
        """PERS.IA, for the Persian side (``referee bot`` names the procedure due and plays it)."""
        return bot.PersiaBot()

    def help_actions(self) -> Sequence[tuple[str, str]]:
        """Returns (example, meaning) pairs of the notation in the active language."""
        return tuple((example, summary) for _syntax, example, summary in act.GRAMMAR.usage())


def persia_dice(roll: int | None, seed: str | None = None) -> PhysicalDice | CommittedDice:
    """Returns the dice of a PERS.IA command: the face typed with ``--dice``, dice derived from
    ``--seed`` (reproducible), else a fresh digital die.

    Raises:
        DiceError: the typed face is not a face of a six-sided die.
    """
    if roll is None:
        return CommittedDice.from_text(seed) if seed is not None else CommittedDice(new_seed(), "umpire")
    if not 1 <= roll <= 6:
        raise DiceError(_("a die shows 1 to 6, not {n}").format(n=roll))
    return PhysicalDice([roll])


def _landing_burn(state: EarthWaterState, rounds: Sequence[RoundResult]) -> list[str]:
    """Interpretation bridge-burning: a Greek landing won at sea that takes an empty Abydos."""
    if state.may_burn and rounds and rounds[-1].kind == "naval":
        return [state.tables.interpretation("bridge-burning").label()]
    return []


def termination(state: EarthWaterState) -> str:
    """3.F, 7: how a finished game ended: Persia holding both Greek Majors at once
    (``sudden-victory``), else the count after the last campaign (``final-scoring``)."""
    if state.winner is Side.PERSIA and holds_both_enemy_majors(state, Side.PERSIA):
        return "sudden-victory"
    return "final-scoring"
