"""Position files are judged (issue 9): every declaration goes through the checks of the game.

Each case below is a declaration that the referee used to apply without a word; now the file
is refused with one line naming the field and the rule, or the missing part is derived.
"""

from __future__ import annotations

import pytest

from referee.dice import PhysicalDice
from referee.errors import PositionError
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.tables import Phase, Side

HOME = {"Abydos": {"persian_armies": 2}, "Ephesos": {"persian_armies": 2}, "Athenai": {"greek_armies": 1},
        "Sparta": {"greek_armies": 1}}
THEBAI_ATTACKED = {**HOME, "Thebai": {"greek_armies": 2, "persian_armies": 1}}


def _with(**cities: dict[str, int]) -> dict[str, dict[str, int]]:
    return {**HOME, **cities}


IMPOSSIBLE = [
    # Pending battles, replayed as the move that started them (base 6.4, 6.5, 7, solo 5).
    ("greek attack from a city with no road to the battle",
     {"battle": {"city": "Thebai", "attacker": "greece", "origin": "Sparta"}, "cities": THEBAI_ATTACKED},
     "battle.origin", "base 6.4"),
    ("greek attack from a Persian-held city",
     {"battle": {"city": "Thebai", "attacker": "greece", "origin": "Larissa"},
      "cities": {**THEBAI_ATTACKED, "Larissa": {"persian_armies": 1}}}, "battle.origin", "base 7"),
    ("greek attack coming from the battle city itself",
     {"battle": {"city": "Thebai", "attacker": "greece", "origin": "Thebai"}, "cities": THEBAI_ATTACKED},
     "battle.origin", "base 6.4"),
    ("greek land attack on a city without roads",
     {"battle": {"city": "Naxos", "attacker": "greece"},
      "cities": _with(Naxos={"greek_armies": 1, "persian_armies": 1})}, "battle", "base 6.5"),
    ("three armies aboard one fleet",
     {"battle": {"city": "Naxos", "kind": "naval", "attacker": "greece", "origin": "Athenai", "carried": 3},
      "cities": _with(Naxos={"greek_fleets": 1, "persian_fleets": 1})}, "battle.carried", "base 6.5"),
    ("five armies landed by two fleets",
     {"battle": {"city": "Pella", "attacker": "greece", "origin": "Athenai", "by_sea": True},
      "cities": _with(Pella={"greek_armies": 5, "greek_fleets": 2, "persian_armies": 1})}, "battle", "base 6.5"),
    ("a landing whose fleets are not in the port",
     {"battle": {"city": "Pella", "attacker": "greece", "origin": "Athenai", "by_sea": True, "fleets": 3},
      "cities": _with(Pella={"greek_armies": 1, "greek_fleets": 1, "persian_armies": 1})}, "battle.fleets",
     "base 6.5"),
    ("a landing onto a port still held by Persian fleets",
     {"battle": {"city": "Pella", "attacker": "greece", "origin": "Athenai", "by_sea": True},
      "cities": _with(Pella={"greek_armies": 1, "greek_fleets": 1, "persian_armies": 1, "persian_fleets": 1})},
     "battle", "base 7"),
    ("more Greek fleets sunk than rounds fought",
     {"battle": {"city": "Naxos", "kind": "naval", "attacker": "greece", "origin": "Athenai", "fleets": 4},
      "cities": _with(Naxos={"greek_fleets": 1, "persian_fleets": 1})}, "battle.fleets", "base 7"),
    ("carried armies in a land battle",
     {"battle": {"city": "Thebai", "attacker": "greece", "origin": "Athenai", "carried": 1},
      "cities": THEBAI_ATTACKED}, "battle.carried", "base 6.5"),
    ("PERS.IA shipping armies",
     {"battle": {"city": "Thebai", "attacker": "persia", "by_sea": True}, "cities": THEBAI_ATTACKED},
     "battle.by_sea", "5.3.2-3"),
    ("a PERS.IA naval battle coming from a port",
     {"battle": {"city": "Athenai", "kind": "naval", "attacker": "persia", "origin": "Sparta"},
      "cities": _with(Athenai={"greek_armies": 1, "greek_fleets": 1, "persian_fleets": 1})}, "battle.origin",
     "5.3.5"),
    ("a PERS.IA march that no operation makes (nothing left behind, away from Sparta)",
     {"battle": {"city": "Thebai", "attacker": "persia", "origin": "Korinthos"},
      "cities": {**HOME, "Thebai": {"greek_armies": 1, "persian_armies": 1}}}, "battle", "5.3.2-3"),
    ("a PERS.IA naval battle in a port that is not first on its list",
     {"battle": {"city": "Athenai", "kind": "naval", "attacker": "persia"},
      "cities": _with(Athenai={"greek_armies": 1, "greek_fleets": 1, "persian_fleets": 1},
                      Naxos={"greek_fleets": 1})}, "battle", "5.3.5"),
    ("a battle in the Greek preparation",
     {"phase": "greek-preparation", "battle": {"city": "Thebai", "attacker": "greece", "origin": "Athenai"},
      "cities": THEBAI_ATTACKED}, "battle", "base 6"),
    ("a Greek attack during Persia's turn",
     {"phase": "operations", "active": "persia", "hands": {"persia": 2},
      "battle": {"city": "Thebai", "attacker": "greece", "origin": "Athenai"}, "cities": THEBAI_ATTACKED},
     "active", "base 6"),
    ("a Greek attack paid with a seventeenth card",
     {"hands": {"greece": 8, "persia": 8}, "battle": {"city": "Thebai", "attacker": "greece", "origin": "Athenai"},
      "cities": THEBAI_ATTACKED}, "hands", "base pieces"),
    # The board (base pieces, base 7, 3.F).
    ("armies of both sides sharing a city with no battle", {"cities": THEBAI_ATTACKED}, "cities.Thebai", "base 7"),
    ("Persia holding both Greek Majors with the game going on",
     {"cities": {**HOME, "Athenai": {"persian_armies": 1}, "Sparta": {"persian_armies": 1}}}, "cities", "3.F"),
    ("a tenth Greek army aboard a fleet",
     {"battle": {"city": "Naxos", "kind": "naval", "attacker": "greece", "origin": "Athenai", "carried": 1},
      "cities": _with(Athenai={"greek_armies": 8}, Naxos={"greek_fleets": 1, "persian_fleets": 1})},
     "battle.carried", "base pieces"),
    ("four Greek armies on three hero portraits", {"portraits": {"greece": 4}, "cities": HOME},
     "portraits.greece", "base pieces"),
    ("the Persian kings off their portraits", {"portraits": {"persia": 0}, "cities": HOME}, "portraits.persia", "2"),
    ("campaign 1 in the solo game", {"campaign": 1, "cities": HOME}, "campaign", "2"),
    # The phase against the turn, the hands and the talents (base 5, 6, 8.1, 10, solo 4, 6.A).
    ("a winner nothing gives", {"winner": "greece", "campaign": 3, "score": 0, "cities": HOME}, "winner", "base 10"),
    ("a draw before the last campaign", {"phase": "over", "campaign": 4, "score": 0, "cities": HOME}, "winner",
     "base 10"),
    ("a winner in the middle of operations", {"phase": "operations", "winner": "persia", "cities": HOME},
     "winner", ""),
    ("operations with no side to act", {"phase": "operations", "hands": {"persia": 1}, "cities": HOME}, "active",
     "base 6"),
    ("operations with both hands empty", {"phase": "operations", "active": "greece", "cities": HOME}, "hands",
     "base 6"),
    ("a turn outside operations", {"phase": "greek-preparation", "active": "greece", "cities": HOME}, "active",
     "base 6"),
    ("a pass outside operations", {"phase": "persian-supply", "passes": 1, "cities": HOME}, "passes", ""),
    ("talents beyond the Greek budget", {"phase": "greek-preparation", "greek_talents": 9, "cities": HOME},
     "greek_talents", "base 5"),
    ("talents left in operations",
     {"phase": "operations", "active": "greece", "greek_talents": 2, "hands": {"greece": 1}, "cities": HOME},
     "greek_talents", ""),
    ("a Persian hand before PERS.IA prepares", {"phase": "persian-preparation", "hands": {"persia": 3},
                                               "cities": HOME}, "hands.persia", "6.A"),
    ("a Persian hand after PERS.IA supplied", {"phase": "greek-supply", "hands": {"persia": 1}, "cities": HOME},
     "hands.persia", "6.A"),
    ("a Greek hand beyond the four kept", {"phase": "persian-preparation", "hands": {"greece": 6},
                                          "cities": HOME}, "hands.greece", "base 8.1"),
    ("Greek cards bought without talents spent", {"phase": "greek-preparation", "hands": {"greece": 6, "persia": 5},
                                                  "cities": HOME}, "hands.greece", "base 5"),
    ("a Persian hand PERS.IA's preparation did not draw",
     {"phase": "greek-preparation", "score": 0, "hands": {"persia": 2}, "cities": HOME}, "hands.persia", "4"),
]


@pytest.mark.parametrize(("case", "fields", "field", "section"), IMPOSSIBLE, ids=[c[0] for c in IMPOSSIBLE])
def test_impossible_declaration_is_refused_naming_field_and_rule(position, case: str, fields: dict[str, object],
                                                                 field: str, section: str) -> None:
    with pytest.raises(PositionError) as caught:
        position(**fields)
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"test: {field}: "), text
    if section:
        assert f"({section} " in text or f"; {section} " in text, text


def test_origin_of_a_greek_attack_is_derived_when_one_city_fits(engine: EarthWaterEngine, position, typed) -> None:
    # Larissa borders Pella, Delphi and Thebai; Persian armies hold the first two, so the Greek
    # armies can only have come from Thebai.
    state = position(battle={"city": "Larissa", "attacker": "greece"}, cities={
        **HOME, "Larissa": {"greek_armies": 1, "persian_armies": 2}, "Pella": {"persian_armies": 1},
        "Delphi": {"persian_armies": 1}})
    assert state.battle is not None and state.battle.origin == "Thebai"
    after_round, _ = engine.play(state, engine.parse(state, "fight"), typed(6, 1, 1))
    assert engine.judge(after_round, engine.parse(after_round, "retreat Thebai")).legal


def test_origin_left_open_is_said_not_guessed(engine: EarthWaterEngine, position, typed) -> None:
    state = position(battle={"city": "Thebai", "attacker": "greece"}, cities={
        **HOME, "Thebai": {"greek_armies": 1, "persian_armies": 2}, "Delphi": {"greek_armies": 1}})
    assert state.battle is not None and state.battle.origin is None  # Athenai, Delphi or Korinthos...
    notes = engine.open_declarations(state)
    assert [n.code for n in notes] == ["origin-open"]
    assert "Athenai" in notes[0].message and "Delphi" in notes[0].message
    after_round, _ = engine.play(state, engine.parse(state, "fight"), typed(6, 1, 1))
    assert engine.judge(after_round, engine.parse(after_round, "retreat Athenai")).codes() == ("no-origin",)
    declared = position(battle={"city": "Thebai", "attacker": "greece", "origin": "Delphi"},
                        cities={**HOME, "Thebai": {"greek_armies": 1, "persian_armies": 2},
                                "Delphi": {"greek_armies": 1}})
    assert engine.open_declarations(declared) == ()


def test_side_to_act_during_a_battle_is_the_attacker(position) -> None:
    state = position(phase="operations", hands={"persia": 2, "greece": 1},
                     battle={"city": "Thebai", "attacker": "greece", "origin": "Athenai"}, cities=THEBAI_ATTACKED)
    assert state.active is Side.GREECE


def test_persian_hand_in_the_greek_preparation_is_what_persia_drew(position) -> None:
    # Situation C (score 0): five cards; situation A with both Majors invaded, then D: 3 + 6.
    assert position(phase="greek-preparation", score=0, cities=HOME).hands.persia == 5
    invaded = {"Abydos": {"greek_armies": 1}, "Ephesos": {"greek_armies": 1}, "Athenai": {"greek_armies": 1}}
    assert position(phase="greek-preparation", score=-1, cities=invaded).hands.persia == 9
    assert position(phase="greek-preparation", score=0, hands={"persia": 5}, cities=HOME).hands.persia == 5


def test_greek_attrition_due_is_counted_from_the_board(engine: EarthWaterEngine, position) -> None:
    # 5 Greek armies in Athenai and 1 in Sparta against 4 amphorae: 2 to remove before 'done'.
    state = position(phase="greek-supply", cities={**HOME, "Athenai": {"greek_armies": 5}})
    assert state.attrition_due == 2
    verdict = engine.judge(state, engine.parse(state, "done"))
    assert verdict.codes() == ("attrition-due",)
    assert any("attrition-once" in p for p in verdict.provisional)


def test_battles_persia_could_start_are_accepted(engine: EarthWaterEngine, position) -> None:
    # PERS.IA's die-5 battle: first port of its list with Greek fleets, one Persian fleet placed.
    naval = position(phase="operations", hands={"persia": 1, "greece": 1},
                     battle={"city": "Athenai", "kind": "naval", "attacker": "persia", "rounds": 1},
                     cities=_with(Athenai={"greek_armies": 1, "greek_fleets": 1, "persian_fleets": 1}))
    assert naval.active is Side.PERSIA
    # The 5.2 defence: a third of Ephesos' 6 armies marched on the Greek army in Abydos.
    defence = position(hands={"persia": 1}, battle={"city": "Abydos", "attacker": "persia"}, cities={
        "Abydos": {"greek_armies": 1, "persian_armies": 2}, "Ephesos": {"persian_armies": 4},
        "Athenai": {"greek_armies": 1}})
    assert defence.battle is not None and defence.battle.origin == "Ephesos"
    new, report = engine.resolve_pending(defence, PhysicalDice([1, 3, 2]))
    assert new.battle is None and report.rounds[0].persian_best == 3


def test_adjust_uses_the_same_checks(engine: EarthWaterEngine, position) -> None:
    state = position(phase="greek-preparation", cities=HOME)
    assert engine.judge(state, engine.parse_adjust(state, "portraits greece 4")).codes() == ("out-of-range",)
    assert engine.judge(state, engine.parse_adjust(state, "portraits persia 1")).codes() == ("out-of-range",)
    assert engine.judge(state, engine.parse_adjust(state, "campaign 2")).codes() == ("out-of-range",)
    assert engine.judge(state, engine.parse_adjust(state, "talents 7")).codes() == ("out-of-range",)
    assert engine.judge(state, engine.parse_adjust(state, "talents 6")).legal


def test_a_finished_game_loads_with_its_winner(engine: EarthWaterEngine, position) -> None:
    won = position(winner="persia", cities={**HOME, "Athenai": {"persian_armies": 1},
                                            "Sparta": {"persian_armies": 1}})
    assert won.phase is Phase.OVER and engine.outcome(won) is not None
    drawn = position(phase="over", campaign=5, score=0, cities=HOME)
    outcome = engine.outcome(drawn)
    assert outcome is not None and outcome.winners == () and outcome.draw
