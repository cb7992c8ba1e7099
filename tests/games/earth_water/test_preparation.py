"""Solo rules § 4: PERS.IA preparation, situations A to D and the worked example."""

from __future__ import annotations

from referee.dice import NoDice
from referee.games.earth_water.engine import EarthWaterEngine


def _prepare(engine: EarthWaterEngine, state):
    return engine.persia(state, "prepare", NoDice())


def test_4_preparation_example(engine: EarthWaterEngine, position) -> None:
    # Solo rules § 4, the example: score 0, bridge destroyed, Persia controls only Abydos and
    # Ephesos -> 5 cards, the bridge, then armies Abydos, Ephesos, Abydos.
    state = position(score=0, bridge=False, cities={
        "Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2},
        "Athenai": {"greek_armies": 1}, "Sparta": {"greek_armies": 1}, "Korinthos": {"greek_armies": 1}})
    new, report = _prepare(engine, state)
    assert report.situation == "situation C"
    assert new.hands.persia == 5
    assert new.bridge is True
    assert new.at("Abydos").persian_armies == 2 + 2
    assert new.at("Ephesos").persian_armies == 2 + 1
    kinds = [s.kind for s in report.steps]
    assert kinds == ["draw", "bridge", "armies"]
    assert report.steps[2].counts == {"Abydos": 2, "Ephesos": 1}
    assert [s.rule for s in report.steps] == ["4.C", "3.D", "4.C"]


def test_4A_invaded_major_draws_3_and_raises_9(engine: EarthWaterEngine, position) -> None:
    state = position(score=3, cities={"Abydos": {"greek_armies": 1}, "Ephesos": {"persian_armies": 2}})
    new, report = _prepare(engine, state)
    assert report.situation == "situation A"
    assert new.hands.persia == 3
    assert new.at("Ephesos").persian_armies == 11
    assert report.steps[0].rule == "4.A"


def test_4A_both_majors_invaded_goes_on_to_the_score_situation(engine: EarthWaterEngine, position) -> None:
    state = position(score=-2, bridge=True, cities={
        "Abydos": {"greek_armies": 1}, "Ephesos": {"greek_armies": 1}, "Thebai": {"persian_armies": 1}})
    new, report = _prepare(engine, state)
    assert report.situation == "situation A then D"
    # A: 3 cards, no Major for the 9 armies; D: 6 more cards, no army in Abydos (Greek-held).
    assert new.hands.persia == 9
    assert "situations-continue" in report.steps[1].interpretations
    assert report.steps[-1].kind == "unspent"
    assert "3 talents" in report.steps[-1].text


def test_4B_fleets_in_occupied_ports_then_armies_cycle(engine: EarthWaterEngine, position) -> None:
    state = position(score=2, cities={
        "Abydos": {"persian_armies": 3, "persian_fleets": 2}, "Ephesos": {"persian_armies": 3},
        "Thebai": {"persian_armies": 1}, "Delphi": {"persian_armies": 2}, "Athenai": {"greek_armies": 1}})
    new, report = _prepare(engine, state)
    assert report.situation == "situation B"
    assert new.hands.persia == 4
    # Fleets: Ephesos and Thebai are occupied port cities with empty ports; Abydos has fleets.
    assert new.at("Ephesos").persian_fleets == 1
    assert new.at("Thebai").persian_fleets == 1
    assert new.at("Abydos").persian_fleets == 2
    # 12 - 4 cards - 2 fleets = 6 armies: Abydos, Ephesos, Thebai (to 2), then Delphi is capped,
    # round 2: Abydos, Ephesos, (Thebai capped), round 3: Abydos.
    assert new.at("Thebai").persian_armies == 2
    assert new.at("Delphi").persian_armies == 2
    assert new.at("Abydos").persian_armies == 3 + 3
    assert new.at("Ephesos").persian_armies == 3 + 2
    armies = next(s for s in report.steps if s.kind == "armies")
    assert "minor-city" in armies.interpretations


def test_4B_fleet_order_when_talents_run_short(engine: EarthWaterEngine, position) -> None:
    # Persia holds every port city but Athenai (holding Athenai too would have won the game, 3.F).
    ports = {c: {"persian_armies": 1} for c in ("Abydos", "Ephesos", "Sparta", "Thebai", "Eretria", "Naxos",
                                                "Pella")}
    ports["Athenai"] = {"greek_armies": 1}
    state = position(score=1, cities=ports)
    _, report = _prepare(engine, state)
    step = next(s for s in report.steps if s.kind == "fleets")
    # 12 - 4 cards = 8 talents, one fleet in each of the 7 occupied ports, in the fleet-order list.
    assert list(step.counts) == ["Abydos", "Ephesos", "Sparta", "Thebai", "Eretria", "Naxos", "Pella"]
    short = position(score=1, bridge=False, cities=ports)
    _new, report = _prepare(engine, short)
    step = next(s for s in report.steps if s.kind == "fleets")
    assert list(step.counts) == ["Abydos", "Ephesos", "Sparta", "Thebai"]  # 12 - 4 - bridge 4 = 4 fleets
    assert "fleet-order" in step.interpretations


def test_4C_longer_list_includes_eretria_and_naxos(engine: EarthWaterEngine, position) -> None:
    state = position(score=0, cities={
        "Abydos": {"persian_armies": 5}, "Ephesos": {"persian_armies": 5}, "Eretria": {"persian_armies": 1},
        "Naxos": {"persian_armies": 1}})
    new, _ = _prepare(engine, state)
    assert new.at("Eretria").persian_armies == 2
    assert new.at("Naxos").persian_armies == 2
    b_state = state.model_copy(update={"score": 1})
    new_b, _ = _prepare(engine, b_state)
    assert new_b.at("Eretria").persian_armies == 1  # B's list has neither


def test_4D_remaining_talents_in_abydos(engine: EarthWaterEngine, position) -> None:
    state = position(score=-3, bridge=False, cities={"Abydos": {"persian_armies": 1}, "Ephesos": {"persian_armies": 1}})
    new, report = _prepare(engine, state)
    assert report.situation == "situation D"
    assert new.hands.persia == 6
    assert new.bridge
    assert new.at("Abydos").persian_armies == 1 + 2  # 12 - 6 - 4
    assert new.at("Ephesos").persian_armies == 1


def test_4_bridge_needs_a_persian_army_in_abydos(engine: EarthWaterEngine, position) -> None:
    state = position(score=0, bridge=False, cities={"Ephesos": {"persian_armies": 2}})
    new, report = _prepare(engine, state)
    assert not new.bridge
    bridge = next(s for s in report.steps if s.kind == "bridge")
    assert "bridge-needs-army" in bridge.interpretations
    # The 4 bridge talents go to armies: 12 - 5 = 7 armies around Abydos (controlled, empty) and Ephesos.
    assert new.at("Abydos").persian_armies + new.at("Ephesos").persian_armies == 2 + 7


def test_4_draws_are_capped_by_the_deck(engine: EarthWaterEngine, position) -> None:
    state = position(score=0, hands={"greece": 14}, cities={"Abydos": {"persian_armies": 1}})
    new, report = _prepare(engine, state)
    assert new.hands.persia == 2
    assert "persia-purchase-caps" in report.steps[0].interpretations
    assert new.at("Abydos").persian_armies + new.at("Ephesos").persian_armies == 1 + 10


def test_4_game_file_prepare_hands_over_to_greece(engine: EarthWaterEngine) -> None:
    from referee.tables import packaged_table_set

    state = engine.new_state(packaged_table_set("300-solo"))
    new, record = engine.play(state, engine.parse(state, "persia prepare"), NoDice())
    assert engine.to_act(new) == "greece"
    assert new.greek_talents == 6
    assert record.events[0].cites[0].section == "4.B"
