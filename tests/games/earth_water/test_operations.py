"""Solo rules § 5: PERS.IA operations, every step, die face and fallback."""

from __future__ import annotations

from referee.dice import NoDice
from referee.games.earth_water.engine import EarthWaterEngine
from referee.tables import TableSet, packaged_table_set

HOME = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}}


def _operate(engine: EarthWaterEngine, state, dice):
    return engine.persia(state, "operate", dice)


def test_5_1_no_card_passes_without_rolling(engine: EarthWaterEngine, position) -> None:
    state = position(hands={"persia": 0}, cities=HOME)
    new, report = _operate(engine, state, NoDice())
    assert [s.kind for s in report.steps] == ["pass"]
    assert report.steps[0].rule == "5.1"
    assert new.hands.persia == 0


def test_5_2_defence_moves_a_third_rounded_up(engine: EarthWaterEngine, position) -> None:
    state = position(hands={"persia": 2}, cities={
        "Abydos": {"greek_armies": 2}, "Ephesos": {"persian_armies": 7}, "Pella": {"persian_armies": 7}})
    new, report = _operate(engine, state, NoDice())
    move = report.steps[0]
    assert move.rule == "5.2"
    # Ephesos and Pella tie at 7: Ephesos comes first in the activation order; 7/3 rounded up = 3.
    assert move.path == ("Ephesos", "Abydos")
    assert new.at("Ephesos").persian_armies == 4
    assert new.battle is not None and new.battle.city == "Abydos" and new.battle.attacker == "persia"
    assert report.pending is not None
    assert [s.kind for s in report.steps] == ["move", "discard"]
    assert new.hands.persia == 1


def test_5_2_defence_always_leaves_two_in_a_persian_major(engine: EarthWaterEngine, position, typed) -> None:
    # A third of Abydos' 2 would leave 1: the two armies a Persian Major always keeps stop it, and
    # with no other Persian army the die is rolled (reading defence-keeps-none always-two).
    state = position(hands={"persia": 1}, cities={"Ephesos": {"greek_armies": 1}, "Abydos": {"persian_armies": 2}})
    new, report = _operate(engine, state, typed(1))
    assert [s.kind for s in report.steps] == ["fallback", "roll", "pass", "discard"]
    assert new.at("Abydos").persian_armies == 2
    assert "defence-keeps-none" in report.steps[0].interpretations


def test_5_2_defence_sends_what_leaves_two(engine: EarthWaterEngine, position) -> None:
    # Abydos 4: a third rounded up is 2, which leaves exactly the two it keeps.
    state = position(hands={"persia": 1}, cities={"Ephesos": {"greek_armies": 1}, "Abydos": {"persian_armies": 4}})
    _new, report = _operate(engine, state, NoDice())
    assert report.steps[0].counts == {"Abydos": -2, "Ephesos": 2}
    assert "defence-keeps-none" not in report.steps[0].interpretations


def test_5_2_defence_march_only_reading_leaves_one(engine: EarthWaterEngine, read_as) -> None:
    position = read_as("defence-keeps-none", "march-only")
    state = position(hands={"persia": 1}, cities={"Ephesos": {"greek_armies": 1}, "Abydos": {"persian_armies": 2}})
    _new, report = _operate(engine, state, NoDice())
    assert report.steps[0].counts == {"Abydos": -1, "Ephesos": 1}
    assert "defence-keeps-none" in report.steps[0].interpretations


def test_5_2_defence_crosses_the_bridge_from_the_most_armed_city(engine: EarthWaterEngine, position) -> None:
    state = position(hands={"persia": 1}, cities={
        "Abydos": {"greek_armies": 1}, "Ephesos": {"persian_armies": 1}, "Larissa": {"persian_armies": 6},
        "Pella": {"persian_armies": 1}})
    new, report = _operate(engine, state, NoDice())
    assert report.steps[0].path == ("Larissa", "Pella", "Abydos")
    assert new.at("Abydos").persian_armies == 2


def test_5_2_fallback_rolls_the_die_when_no_army_can_reach(engine: EarthWaterEngine, position, typed) -> None:
    # The rules' own case: bridge destroyed, no army in the other Major.
    state = position(hands={"persia": 1}, bridge=False, cities={
        "Abydos": {"greek_armies": 1}, "Pella": {"persian_armies": 5}})
    new, report = _operate(engine, state, typed(1))
    assert [s.kind for s in report.steps] == ["fallback", "roll", "pass", "discard"]
    assert report.steps[0].rule == "5.2"
    assert report.die == 1 and report.die_source == "physical"
    assert new.at("Pella").persian_armies == 5


def test_5_3_1_die_one_passes_and_discards(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 3}, cities=HOME)
    new, report = _operate(engine, state, typed(1))
    assert [s.rule for s in report.steps] == ["5.3", "5.3.1", "5.4"]
    assert new.hands.persia == 2
    assert "die-pass" in report.steps[1].interpretations


def test_5_3_2_march_half_to_the_nearest_empty_city(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={"Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 7}})
    new, report = _operate(engine, state, typed(2))
    move = report.steps[1]
    assert move.rule == "5.3.2-3"
    assert move.path == ("Ephesos", "Abydos", "Pella")
    assert move.counts == {"Ephesos": -3, "Pella": 3}
    assert new.battle is None


def test_5_3_3_march_keeps_two_in_each_persian_major(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={"Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 2}})
    new, report = _operate(engine, state, typed(3))
    # Abydos: 3 // 2 = 1, and 3 - 1 = 2 stay; Ephesos (2) cannot send any.
    assert report.steps[1].counts == {"Abydos": -1, "Pella": 1}
    assert new.at("Abydos").persian_armies == 2


def test_5_3_2_march_prefers_thebai_to_delphi(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={**HOME, "Pella": {"persian_armies": 4},
                                                 "Larissa": {"persian_armies": 1}})
    _, report = _operate(engine, state, typed(2))
    assert report.steps[1].path == ("Pella", "Larissa", "Thebai")


def test_5_3_2_march_into_a_greek_city_when_no_empty_city_is_ahead(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={**HOME, "Larissa": {"persian_armies": 4},
                                                 "Thebai": {"greek_armies": 1}, "Delphi": {"greek_armies": 1}})
    new, report = _operate(engine, state, typed(2))
    assert report.steps[1].path == ("Larissa", "Thebai")
    assert new.battle is not None and new.battle.city == "Thebai"
    assert report.pending is not None


def test_5_3_2_march_falls_back_to_destroying_an_army(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1, "greece": 1}, bridge=False, cities={
        "Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 2}, "Sparta": {"greek_armies": 1}})
    new, report = _operate(engine, state, typed(2))
    assert [s.kind for s in report.steps] == ["roll", "fallback", "destroy-army", "greek-discard", "discard"]
    assert new.at("Sparta").greek_armies == 0
    assert new.hands.greece == 0


def test_5_3_4_destroys_the_first_lone_army(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1, "greece": 2}, cities={
        **HOME, "Athenai": {"greek_armies": 3}, "Korinthos": {"greek_armies": 1}, "Sparta": {"greek_armies": 1}})
    new, report = _operate(engine, state, typed(4))
    assert report.steps[1].counts == {"Korinthos": -1}
    assert "isolated-army" in report.steps[1].interpretations
    assert new.hands.greece == 1


def test_5_3_4_without_a_lone_army_destroys_the_first_listed(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={**HOME, "Sparta": {"greek_armies": 2},
                                                 "Athenai": {"greek_armies": 3}})
    new, report = _operate(engine, state, typed(4))
    assert report.steps[1].counts == {"Athenai": -1}
    assert report.steps[2].text == "Greece has no card to discard"
    assert new.at("Athenai").greek_armies == 2


def test_5_3_4_falls_back_to_destroying_a_fleet_without_discard(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1, "greece": 2}, cities={**HOME, "Naxos": {"greek_fleets": 1}})
    new, report = _operate(engine, state, typed(4))
    assert [s.kind for s in report.steps] == ["roll", "fallback", "destroy-fleet", "discard"]
    assert new.hands.greece == 2
    assert new.at("Naxos").persian_fleets == 1 and new.at("Naxos").greek_fleets == 0


def test_5_3_5_destroys_a_fleet_and_fights_the_rest(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={**HOME, "Athenai": {"greek_fleets": 3}, "Naxos": {"greek_fleets": 1}})
    new, report = _operate(engine, state, typed(5))
    # Naxos comes before Athenai in the list; one fleet there, so no battle.
    assert report.steps[1].counts == {"Naxos": 1}
    assert new.battle is None
    state = position(hands={"persia": 1}, cities={**HOME, "Athenai": {"greek_fleets": 3}})
    new, report = _operate(engine, state, typed(5))
    assert new.at("Athenai").greek_fleets == 2 and new.at("Athenai").persian_fleets == 1
    assert new.battle is not None and new.battle.kind == "naval" and new.battle.attacker == "persia"
    assert [s.kind for s in report.steps] == ["roll", "destroy-fleet", "battle", "discard"]


def test_5_3_5_falls_back_to_placing(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 1}, cities={**HOME, "Athenai": {"greek_armies": 1}})
    new, report = _operate(engine, state, typed(5))
    assert [s.kind for s in report.steps] == ["roll", "fallback", "place", "discard"]
    # Athenai holds a Greek army: the first free port city is Sparta.
    assert report.steps[2].counts == {"Sparta": 1}
    assert new.at("Sparta").persian_armies == 1 and new.at("Sparta").persian_fleets == 1


def test_5_3_6_places_in_the_first_port_city_free_of_greeks(engine: EarthWaterEngine, position, typed) -> None:
    greeks = {c: {"greek_fleets": 1} for c in ("Athenai", "Sparta", "Thebai")}
    state = position(hands={"persia": 1}, cities={**HOME, **greeks})
    new, report = _operate(engine, state, typed(6))
    assert report.steps[1].counts == {"Eretria": 1}
    assert new.at("Eretria").persian_armies == 1


def test_5_3_6_second_branch_army_under_a_persian_fleet(engine: EarthWaterEngine, position, typed) -> None:
    cities = {c: {"greek_armies": 1} for c in ("Athenai", "Sparta", "Thebai", "Eretria", "Pella")}
    cities.update({"Abydos": {"greek_fleets": 1}, "Ephesos": {"greek_fleets": 1},
                   "Naxos": {"greek_fleets": 1, "persian_fleets": 1}})
    state = position(hands={"persia": 1}, cities=cities)
    new, report = _operate(engine, state, typed(6))
    assert report.steps[1].counts == {"Naxos": 1}
    assert "minor-fleet-city" in report.steps[1].interpretations
    assert new.at("Naxos").persian_armies == 1


def test_5_3_6_falls_back_to_marching(engine: EarthWaterEngine, position, typed) -> None:
    cities = {c: {"greek_armies": 1} for c in ("Athenai", "Sparta", "Thebai", "Pella")}
    cities.update({"Eretria": {"greek_fleets": 1}, "Naxos": {"greek_fleets": 1},
                   "Abydos": {"persian_armies": 3, "greek_fleets": 1}, "Ephesos": {"greek_fleets": 1}})
    state = position(hands={"persia": 1}, cities=cities)
    new, report = _operate(engine, state, typed(6))
    assert [s.kind for s in report.steps] == ["roll", "fallback", "move", "discard"]
    assert report.steps[2].path == ("Abydos", "Pella")
    assert new.battle is not None and new.battle.city == "Pella"


def test_5_3_fallback_loop_ends_in_a_pass(engine: EarthWaterEngine, position, typed) -> None:
    # With tables overridden so that the chain only cycles between march and place, a position
    # where both fail must end in a pass that names the failed branches (fallback-loop).
    base = packaged_table_set("300-solo")
    text = base.text("persia.yaml").replace(
        "march: {then: destroy-army, provenance: rulebook}", "march: {then: place, provenance: rulebook}")
    tables = TableSet.from_texts("300-solo", {**base.texts(), "persia.yaml": text}, "test")
    cities = {c: {"greek_armies": 1} for c in ("Athenai", "Sparta", "Thebai", "Eretria", "Naxos", "Pella")}
    cities.update({"Abydos": {"greek_fleets": 1}, "Ephesos": {"greek_fleets": 1}})
    state = engine.from_position(tables, {"hands": {"persia": 1}, "cities": cities}, "test")
    new, report = _operate(engine, state, typed(2))
    assert [s.kind for s in report.steps] == ["roll", "fallback", "fallback", "pass", "discard"]
    assert "fallback-loop" in report.steps[3].interpretations
    assert new.cities == state.cities


def test_5_4_discard_after_every_operation(engine: EarthWaterEngine, position, typed) -> None:
    state = position(hands={"persia": 2}, cities={**HOME, "Athenai": {"greek_armies": 2}})
    new, report = _operate(engine, state, typed(4))
    assert report.steps[-1].rule == "5.4"
    assert new.hands.persia == 1


PELLA_FIVE = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Pella": {"persian_armies": 5},
              "Larissa": {"persian_armies": 1}, "Thebai": {"persian_armies": 1}, "Athenai": {"greek_armies": 1},
              "Sparta": {"greek_armies": 1}}


def test_5_3_2_march_follows_the_thebai_road_to_the_first_empty_city(engine: EarthWaterEngine, position,
                                                                     typed) -> None:
    # Pella 5 armies, Larissa and Thebai Persian: the road to Sparta by Thebai first meets an empty
    # city in Korinthos (Delphi lies off it).
    new, report = _operate(engine, position(hands={"persia": 1}, cities=PELLA_FIVE), typed(2))
    move = report.steps[1]
    assert move.path == ("Pella", "Larissa", "Thebai", "Korinthos")
    assert new.at("Korinthos").persian_armies == 2
    assert "march-toward-sparta" in move.interpretations


def test_5_3_2_march_stops_in_the_first_greek_city_on_the_road(engine: EarthWaterEngine, position, typed) -> None:
    # No empty city before Korinthos, where a Greek army stands: the march attacks it there.
    cities = {**PELLA_FIVE, "Korinthos": {"greek_armies": 1}}
    new, report = _operate(engine, position(hands={"persia": 1}, cities=cities), typed(3))
    assert report.steps[1].path == ("Pella", "Larissa", "Thebai", "Korinthos")
    assert new.battle is not None and new.battle.city == "Korinthos"


def test_5_3_2_march_nearest_closer_reading_leaves_the_road(engine: EarthWaterEngine, read_as, typed) -> None:
    position = read_as("march-toward-sparta", "nearest-closer")
    _new, report = _operate(engine, position(hands={"persia": 1}, cities=PELLA_FIVE), typed(2))
    assert report.steps[1].path == ("Pella", "Larissa", "Delphi")


def test_5_3_2_most_armed_only_reading_falls_back_when_it_cannot_march(engine: EarthWaterEngine, read_as,
                                                                       typed) -> None:
    # Eretria, the most armed, has no road: the march falls back to face 4 instead of Ephesos moving.
    position = read_as("activation-reachable", "most-armed-only")
    cities = {**PELLA_FIVE, "Pella": {}, "Eretria": {"persian_armies": 6}, "Ephesos": {"persian_armies": 4}}
    _new, report = _operate(engine, position(hands={"persia": 1}, cities=cities), typed(2))
    assert [s.kind for s in report.steps][:3] == ["roll", "fallback", "destroy-army"]
    assert "activation-reachable" in report.steps[1].interpretations


def test_5_3_1_keeps_card_reading_spares_the_discard(engine: EarthWaterEngine, read_as, typed) -> None:
    position = read_as("die-pass", "keeps-card")
    new, report = _operate(engine, position(hands={"persia": 3}, cities=HOME), typed(1))
    assert new.hands.persia == 3
    assert "die-pass" in report.steps[-1].interpretations
