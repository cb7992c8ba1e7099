"""Base rules the Greek player is judged by: preparation (base 5), moves (6.4, 6.5), battles (7)."""

from __future__ import annotations

from referee.dice import NoDice
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.tables import Phase

HOME = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}}


def _codes(engine: EarthWaterEngine, state, text: str) -> tuple[str, ...]:
    return engine.judge(state, engine.parse(state, text)).codes()


def test_base_5_greek_purchases(engine: EarthWaterEngine, position) -> None:
    state = position(phase="greek-preparation", cities={
        **HOME, "Athenai": {"greek_armies": 1, "greek_fleets": 1}, "Thebai": {"persian_armies": 1},
        "Naxos": {"persian_fleets": 1}, "Eretria": {"greek_armies": 1}})
    assert state.greek_talents == 6
    assert _codes(engine, state, "buy 7 cards") == ("card-limit", "no-talents")
    assert _codes(engine, state, "buy 1 army Thebai") == ("not-controlled",)
    assert _codes(engine, state, "buy 1 army Delphi") == ("not-controlled",)
    assert _codes(engine, state, "buy 1 fleet Korinthos") == ("not-a-port", "not-controlled")
    assert _codes(engine, state, "buy 1 fleet Naxos") == ("enemy-fleet", "not-controlled")
    assert _codes(engine, state, "buy 3 fleets Athenai") == ("fleet-limit",)
    assert _codes(engine, state, "buy 2 armies Sparta") == ()  # an empty own Major is controlled
    state, _ = engine.play(state, engine.parse(state, "buy 2 fleets Eretria"), NoDice())
    assert _codes(engine, state, "buy 1 fleet Athenai") == ("fleet-limit",)
    assert _codes(engine, state, "buy 1 card") == ("cards-first",)
    assert _codes(engine, state, "buy 5 armies Athenai") == ("no-talents",)
    state, _ = engine.play(state, engine.parse(state, "buy 4 armies Athenai"), NoDice())
    assert state.greek_talents == 0
    assert state.greek_reserve() == (9 - 6, 5 - 3)


def test_base_pieces_greek_army_limit(engine: EarthWaterEngine, position) -> None:
    state = position(phase="greek-preparation", portraits={"greece": 1}, cities={
        **HOME, "Athenai": {"greek_armies": 6}})
    assert state.greek_reserve()[0] == 2
    assert _codes(engine, state, "buy 3 armies Athenai") == ("no-reserve",)


def test_base_6_4_land_move_stops_in_uncontrolled_cities(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 2}, cities={
        **HOME, "Athenai": {"greek_armies": 3}, "Thebai": {"greek_armies": 1}})
    assert _codes(engine, state, "move 2 Athenai -> Thebai -> Larissa") == ()
    assert _codes(engine, state, "move 2 Athenai -> Korinthos -> Sparta") == ("must-stop",)  # Korinthos is empty
    assert _codes(engine, state, "move 2 Athenai Sparta") == ("no-route",)
    assert _codes(engine, state, "move 4 Athenai Thebai") == ("not-enough-armies",)
    assert _codes(engine, state, "move 1 Athenai Delphi") == ()  # via Thebai, picked automatically
    assert engine.parse(state, "move 1 Athenai Delphi").text() == "move 1 Athenai -> Thebai -> Delphi"
    assert _codes(engine, state, "move 1 Athenai -> Larissa -> Pella") == ("no-road",)


def test_base_6_4_bridge(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 1}, bridge=False, cities={
        **HOME, "Pella": {"greek_armies": 2}})
    assert _codes(engine, state, "move 1 Pella -> Abydos") == ("bridge-down",)
    built = state.model_copy(update={"bridge": True})
    assert _codes(engine, built, "move 1 Pella -> Abydos") == ()
    new, record = engine.play(built, engine.parse(built, "move 2 Pella -> Abydos"), NoDice())
    assert new.battle is not None and new.battle.origin == "Pella"
    assert record.events[0].code == "battle"


def test_base_6_move_costs_a_card_and_passes_the_turn(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 1, "persia": 2}, cities={
        **HOME, "Athenai": {"greek_armies": 2}})
    new, _ = engine.play(state, engine.parse(state, "move 1 Athenai Thebai"), NoDice())
    assert new.hands.greece == 0 and new.active == "persia"
    assert _codes(engine, new, "move 1 Athenai Korinthos") == ("not-your-turn", "no-card")
    empty = state.model_copy(update={"hands": state.hands.model_copy(update={"greece": 0})})
    assert _codes(engine, empty, "event Oracle of Delphi") == ("no-card",)
    assert _codes(engine, empty, "pass") == ()


def test_base_6_two_passes_end_operations(engine: EarthWaterEngine, position, typed) -> None:
    state = position(phase="operations", active="persia", hands={"greece": 1, "persia": 2}, cities=HOME)
    state, _ = engine.play(state, engine.parse(state, "persia operate"), typed(1))  # die 1: a pass
    assert state.passes == 1 and state.active == "greece"
    state, record = engine.play(state, engine.parse(state, "pass"), NoDice())
    assert state.phase is Phase.PERSIAN_SUPPLY
    assert record.events[0].code == "operations-over"


def test_base_6_5_naval_move_and_carry_limit(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 1}, cities={
        **HOME, "Athenai": {"greek_armies": 5, "greek_fleets": 4}})
    assert _codes(engine, state, "sail 4 Athenai -> Naxos carry 4") == ("carry-limit",)
    assert _codes(engine, state, "sail 2 Athenai -> Naxos carry 3") == ("carry-limit",)
    assert _codes(engine, state, "sail 1 Athenai -> Delphi") == ("not-a-port",)
    assert _codes(engine, state, "sail 5 Athenai -> Naxos") == ("not-enough-fleets",)
    new, record = engine.play(state, engine.parse(state, "sail 3 Athenai -> Naxos carry 3"), NoDice())
    assert new.at("Naxos").greek_armies == 3 and new.at("Naxos").greek_fleets == 3
    assert any(e.code == "landing" for e in record.events)


def test_base_7_persian_dice_are_capped(engine: EarthWaterEngine, position, typed) -> None:
    state = position(battle={"city": "Thebai", "attacker": "greece", "origin": "Athenai"}, cities={
        **HOME, "Thebai": {"greek_armies": 2, "persian_armies": 2}})
    # Greek 4,1 vs Persian 6,6: the Persian 6 counts as 4 -> a tie, both lose one.
    new, record = engine.play(state, engine.parse(state, "fight"), typed(4, 1, 6, 6))
    assert new.at("Thebai").greek_armies == 1 and new.at("Thebai").persian_armies == 1
    assert "counted 4 (cap 4)" in record.events[0].message
    state = position(battle={"city": "Abydos", "attacker": "greece", "origin": "Pella"}, cities={
        "Abydos": {"greek_armies": 1, "persian_armies": 1}, "Pella": {"greek_armies": 1}})
    new, _ = engine.play(state, engine.parse(state, "fight"), typed(5, 6))  # cap 5 at Abydos: tie
    assert new.at("Abydos").greek_armies == 0 and new.at("Abydos").persian_armies == 0
    assert new.battle is None


def test_base_7_three_dice_at_most_and_retreat_after_a_round(engine: EarthWaterEngine, position, typed) -> None:
    # PERS.IA marched 4 of Larissa's 8 armies into Thebai (5.3.2-3).
    state = position(hands={"persia": 1}, battle={"city": "Thebai", "attacker": "persia", "origin": "Larissa"},
                     cities={**HOME, "Thebai": {"greek_armies": 5, "persian_armies": 4},
                             "Larissa": {"persian_armies": 4}, "Athenai": {"greek_armies": 1}})
    assert _codes(engine, state, "retreat Athenai") == ("no-round-yet",)
    new, _ = engine.play(state, engine.parse(state, "fight"), typed(1, 2, 3, 4, 4, 4))
    assert new.at("Thebai").greek_armies == 4
    assert _codes(engine, new, "retreat Larissa") == ("bad-retreat",)
    retreated, record = engine.play(new, engine.parse(new, "retreat Athenai"), NoDice())
    assert retreated.at("Athenai").greek_armies == 5 and retreated.at("Thebai").greek_armies == 0
    assert retreated.battle is None
    assert "sea-retreat" in record.provisional[0]


def test_3_C_persia_never_retreats(engine: EarthWaterEngine, position, typed) -> None:
    state = position(battle={"city": "Thebai", "attacker": "greece", "origin": "Athenai"}, cities={
        **HOME, "Thebai": {"greek_armies": 1, "persian_armies": 3}, "Athenai": {"greek_armies": 1}})
    new, report = engine.resolve_pending(state, typed(6, 1, 1, 1, 6, 1, 1, 6, 1))
    assert new.battle is None
    assert new.at("Thebai").persian_armies == 0 and new.at("Thebai").greek_armies == 1
    assert len(report.rounds) == 3


def test_base_6_5_naval_battle_then_landing_battle(engine: EarthWaterEngine, position, typed) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 1}, cities={
        **HOME, "Athenai": {"greek_armies": 2, "greek_fleets": 3}, "Pella": {"persian_armies": 1, "persian_fleets": 1}})
    state, _ = engine.play(state, engine.parse(state, "sail 3 Athenai -> Pella carry 2"), NoDice())
    assert state.battle is not None and state.battle.kind == "naval" and state.battle.carried == 2
    # Naval round: Greek 6,1,1 vs Persian 2 -> the Persian fleet sinks; 2 armies land: land battle.
    state, _record = engine.play(state, engine.parse(state, "fight"), typed(6, 1, 1, 2))
    assert state.battle is not None and state.battle.kind == "land" and state.battle.by_sea
    assert state.at("Pella").greek_armies == 2
    # Land round lost by Greece (1 vs 3): 1 army left, then it retreats by sea with its fleets.
    state, _ = engine.play(state, engine.parse(state, "fight"), typed(1, 1, 3))
    state, _ = engine.play(state, engine.parse(state, "retreat Athenai"), NoDice())
    assert state.at("Athenai").greek_armies == 1 and state.at("Athenai").greek_fleets == 3
    assert state.at("Pella").greek_fleets == 0 and state.active == "persia"


def test_base_6_5_sunk_fleets_lose_their_armies(engine: EarthWaterEngine, position, typed) -> None:
    state = position(battle={"city": "Naxos", "kind": "naval", "attacker": "greece", "origin": "Athenai",
                             "carried": 1, "fleets": 2},
                     cities={**HOME, "Naxos": {"greek_fleets": 2, "persian_fleets": 2}})
    state, _ = engine.play(state, engine.parse(state, "fight"), typed(1, 1, 4, 4))  # the empty fleet sinks first
    assert state.battle is not None and state.battle.carried == 1
    state, record = engine.play(state, engine.parse(state, "fight"), typed(1, 4, 4))  # then the loaded one
    assert state.battle is None and state.at("Naxos").greek_fleets == 0
    assert any(e.code == "battle-over" for e in record.events)
    assert state.greek_reserve()[0] == 9


def test_base_7_bridge_burning_after_taking_abydos(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 1, "persia": 1}, cities={
        "Ephesos": {"persian_armies": 2}, "Pella": {"greek_armies": 2}})
    state, record = engine.play(state, engine.parse(state, "move 2 Pella -> Abydos"), NoDice())
    assert state.may_burn and engine.to_act(state) == "greece"
    assert any(e.code == "may-burn" for e in record.events)
    burnt, _ = engine.play(state, engine.parse(state, "burn bridge"), NoDice())
    assert not burnt.bridge
    assert _codes(engine, burnt, "burn bridge") == ("cannot-burn",)
