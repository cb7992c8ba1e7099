"""Solo rules § 6 (PERS.IA supply), base 8 (Greek supply), base 9-10 and § 7-8 (scoring, victory)."""

from __future__ import annotations

from referee.dice import NoDice
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.supply import supplied
from referee.games.earth_water.tables import Phase, Side
from referee.tables import TableSet, packaged_table_set


def _supply(engine: EarthWaterEngine, state):
    return engine.persia(state, "supply", NoDice())


def test_6_A_persia_discards_its_whole_hand(engine: EarthWaterEngine, position) -> None:
    state = position(hands={"persia": 5, "greece": 3}, cities={"Abydos": {"persian_armies": 2}})
    new, report = _supply(engine, state)
    assert new.hands.persia == 0 and new.hands.greece == 3
    assert report.steps[0].rule == "6.A"


def test_6_B_unsupplied_armies_go_first(engine: EarthWaterEngine, position) -> None:
    # Athenai is last in the 6.B list, but its Persian armies have no line (Greek Thebai and
    # Korinthos block the roads, no Persian fleet there), so attrition takes them first.
    state = position(cities={
        "Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Larissa": {"persian_armies": 2},
        "Pella": {"persian_armies": 1}, "Delphi": {"persian_armies": 1},
        "Thebai": {"greek_armies": 2}, "Korinthos": {"greek_armies": 1}, "Sparta": {"greek_armies": 1},
        "Athenai": {"persian_armies": 3}})
    assert "Athenai" not in supplied(state, Side.PERSIA)
    new, report = _supply(engine, state)
    attrition = next(s for s in report.steps if s.rule == "6.B")
    # Outside the Majors: 2+1+1+3 = 7 armies for 1+1+1+2 = 5 amphorae -> 2 removed, from Athenai.
    assert attrition.counts == {"Athenai": -2}
    assert "unsupplied-first" in attrition.interpretations
    lines = next(s for s in report.steps if s.rule == "6.C")
    assert lines.counts == {"Athenai": -1}
    assert new.at("Athenai").persian_armies == 0
    assert new.at("Larissa").persian_armies == 2


def test_6_B_armies_that_cost_no_city_come_next(engine: EarthWaterEngine, position) -> None:
    state = position(cities={
        "Abydos": {"persian_armies": 2}, "Pella": {"persian_armies": 1}, "Larissa": {"persian_armies": 1},
        "Delphi": {"persian_armies": 1}, "Thebai": {"persian_armies": 4}})
    new, report = _supply(engine, state)
    attrition = next(s for s in report.steps if s.rule == "6.B")
    # 7 armies outside the Majors for 4 amphorae: 3 go. Delphi comes before Thebai in the list,
    # but losing its only army would lose the city; Thebai's spare armies go instead.
    assert attrition.counts == {"Thebai": -3}
    assert "no-points-armies" in attrition.interpretations
    assert new.at("Delphi").persian_armies == 1


def test_6_B_then_one_at_a_time_in_list_order(engine: EarthWaterEngine) -> None:
    # With every army alone and supplied, only the list decides; a table override that starves
    # two cities (no amphorae) makes that case happen.
    base = packaged_table_set("300-solo")
    text = base.text("map.yaml")
    for city in ("Korinthos", "Pella"):
        text = text.replace(f"{city + ':':<11}{{amphorae: 1", f"{city + ':':<11}{{amphorae: 0")
    tables = TableSet.from_texts("300-solo", {**base.texts(), "map.yaml": text}, "test")
    state = engine.from_position(tables, {"cities": {
        "Abydos": {"persian_armies": 2}, "Pella": {"persian_armies": 1}, "Larissa": {"persian_armies": 1},
        "Thebai": {"persian_armies": 1}, "Korinthos": {"persian_armies": 1}}}, "test")
    _new, report = _supply(engine, state)
    attrition = next(s for s in report.steps if s.rule == "6.B")
    # 4 armies, 2 amphorae: Korinthos then Thebai (list: Korinthos > Delphi > Thebai > ...).
    assert attrition.counts == {"Korinthos": -1, "Thebai": -1}
    assert "(list order)" in attrition.text


def test_6_B_never_from_abydos_or_ephesos(engine: EarthWaterEngine, position) -> None:
    state = position(cities={"Abydos": {"persian_armies": 9}, "Ephesos": {"persian_armies": 9},
                             "Korinthos": {"persian_armies": 2}, "Thebai": {"greek_armies": 1},
                             "Athenai": {"greek_armies": 1}})
    new, report = _supply(engine, state)
    step = next(s for s in report.steps if s.rule == "6.B")
    # Korinthos: 2 armies for 1 amphora -> 1 removed; the 18 in the Majors count for nothing.
    assert step.counts == {"Korinthos": -1}
    assert "persian-attrition-majors" in step.interpretations
    assert new.at("Abydos").persian_armies == 9 and new.at("Ephesos").persian_armies == 9


def test_6_C_lines_of_communication_and_the_sea(engine: EarthWaterEngine, position) -> None:
    state = position(bridge=False, cities={
        "Abydos": {"persian_armies": 2}, "Pella": {"persian_armies": 1}, "Naxos": {"persian_armies": 1},
        "Eretria": {"persian_armies": 1, "persian_fleets": 1}})
    new, report = _supply(engine, state)
    lines = next(s for s in report.steps if s.rule == "6.C")
    # Without the bridge Pella has no road line; Naxos has no fleet; Eretria is fed by sea.
    assert lines.counts == {"Pella": -1, "Naxos": -1}
    assert new.at("Eretria").persian_armies == 1
    assert "sea-supply" in lines.interpretations


def test_6_C_sea_supply_fails_when_enemy_fleets_sit_in_every_major(engine: EarthWaterEngine, position) -> None:
    state = position(cities={
        "Abydos": {"persian_armies": 2, "greek_fleets": 1}, "Ephesos": {"persian_armies": 2, "greek_fleets": 1},
        "Eretria": {"persian_armies": 1, "persian_fleets": 1}})
    assert "Eretria" not in supplied(state, Side.PERSIA)
    state = position(cities={
        "Abydos": {"persian_armies": 2, "greek_fleets": 1}, "Ephesos": {"persian_armies": 2},
        "Eretria": {"persian_armies": 1, "persian_fleets": 1}})
    assert "Eretria" in supplied(state, Side.PERSIA)


def test_base_8_greek_supply_then_scoring(engine: EarthWaterEngine, position) -> None:
    state = position(phase="persian-supply", campaign=3, score=0, hands={"persia": 2, "greece": 6}, cities={
        "Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 3},
        "Athenai": {"greek_armies": 4}, "Sparta": {"greek_armies": 2}, "Korinthos": {"greek_armies": 1}})
    state, _ = engine.play(state, engine.parse(state, "persia supply"), NoDice())
    assert state.phase is Phase.GREEK_SUPPLY
    assert state.attrition_due == 2  # 7 armies, 5 amphorae
    verdict = engine.judge(state, engine.parse(state, "done"))
    assert verdict.codes() == ("attrition-due",)
    assert engine.judge(state, engine.parse(state, "remove 3 Athenai")).codes() == ("too-many",)
    state, _ = engine.play(state, engine.parse(state, "remove 2 Athenai"), NoDice())
    assert engine.judge(state, engine.parse(state, "keep 5")).codes() == ("keep-limit",)
    # keeping the whole hand (6 cards) discards nothing: judge and legal_actions agree it is no action
    assert engine.judge(state, engine.parse(state, "keep 6")).codes() == ("keeps-all",)
    assert "keep 6" not in {a.text() for a in engine.legal_actions(state)}
    state, record = engine.play(state, engine.parse(state, "done"), NoDice())
    assert state.hands.greece == 4
    # Scoring: Greece 2+2+1 = 5, Persia 2+2 = 4 -> 1 toward Greece.
    assert state.score == -1
    assert state.campaign == 4 and state.phase is Phase.PERSIAN_PREPARATION
    assert any(e.code == "scoring" and e.cites[0].section == "7" for e in record.events)


def test_base_9_scoring_example(engine: EarthWaterEngine, position) -> None:
    # Base rules' scoring example: if Persia also holds Athenai it scores 6 against 3 -> 3 toward Persia.
    state = position(phase="greek-supply", score=0, cities={
        "Abydos": {"persian_armies": 1}, "Ephesos": {"persian_armies": 1}, "Athenai": {"persian_armies": 1},
        "Sparta": {"greek_armies": 1}, "Korinthos": {"greek_armies": 1}})
    state, _ = engine.play(state, engine.parse(state, "done"), NoDice())
    assert state.score == 3


def test_base_10_last_campaign_decides(engine: EarthWaterEngine, position) -> None:
    cities = {"Abydos": {"persian_armies": 1}, "Ephesos": {"persian_armies": 1}, "Athenai": {"greek_armies": 1},
              "Sparta": {"greek_armies": 1}}
    for score, winner in ((-1, "greece"), (0, None), (2, "persia")):
        state = position(phase="greek-supply", campaign=5, score=score, cities=cities)
        state, record = engine.play(state, engine.parse(state, "done"), NoDice())
        assert state.phase is Phase.OVER
        assert state.winner == winner
        outcome = engine.outcome(state)
        assert outcome is not None and outcome.winners == ((winner,) if winner else ())
        assert outcome.termination == "final-scoring"
        assert record.events[-1].code == "victory"


def test_base_10_both_enemy_majors_at_scoring(engine: EarthWaterEngine, position) -> None:
    state = position(phase="greek-supply", campaign=3, score=-6, cities={
        "Abydos": {"greek_armies": 1}, "Ephesos": {"greek_armies": 1}, "Athenai": {"greek_armies": 1}})
    state, _ = engine.play(state, engine.parse(state, "done"), NoDice())
    assert state.phase is Phase.OVER and state.winner == "greece"


def test_3_F_sudden_victory_when_persia_holds_both_greek_majors(engine: EarthWaterEngine, position, typed) -> None:
    state = position(phase="operations", active="persia", hands={"persia": 2, "greece": 1}, cities={
        "Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2},
        "Athenai": {"persian_armies": 1, "greek_fleets": 1}, "Thebai": {"greek_armies": 1}})
    assert engine.outcome(state) is None
    # Die 6: Athenai has a Greek fleet, so the fleet and army go to Sparta, which is empty.
    state, record = engine.play(state, engine.parse(state, "persia operate"), typed(6))
    assert state.phase is Phase.OVER and state.winner == "persia"
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.ruling.cites[0].section == "3.F"
    assert outcome.termination == "sudden-victory" and outcome.winners == ("persia",)
    assert record.events[-1].code == "victory"
    assert engine.legal_actions(state) == []
