"""300 solo cards (issue 15): the deck as data, the Greek hand, card events and reactions, and the
override-during-a-battle crash."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from tests.runner import CliRunner

BATTLE = {"phase": "operations", "active": "greece", "hands": {"persia": 2, "greece": 1},
          "battle": {"city": "Thebai", "attacker": "greece", "origin": "Athenai"},
          "cities": {"Thebai": {"greek_armies": 1, "persian_armies": 1}, "Athenai": {"greek_armies": 1},
                     "Abydos": {"persian_armies": 3}, "Ephesos": {"persian_armies": 3}}}


@pytest.fixture
def runner() -> CliRunner:
    reset_consoles()
    return CliRunner()


def _game(tmp_path: Path, runner: CliRunner, position: dict[str, object]) -> str:
    game = str(tmp_path / "solo.referee")
    assert runner.invoke(app, ["new", "300-solo", "--file", game]).exit_code == 0
    result = runner.invoke(app, ["do", "setup " + json.dumps(position), "--file", game])
    assert result.exit_code == 0, result.output
    return game


@pytest.mark.parametrize(("override", "then", "winner"), [
    ("set Thebai greek armies 0", "fight", "Persia"), ("set Thebai persian armies 0", "resolve", "Greece"),
    ("add Thebai greek armies -1", "resolve", "Persia")])
def test_an_override_that_empties_a_battle_side_ends_the_battle(tmp_path: Path, runner: CliRunner, override: str,
                                                               then: str, winner: str) -> None:
    # issue 15: this used to crash fight/resolve with "max() arg is an empty sequence"
    game = _game(tmp_path, runner, BATTLE)
    result = runner.invoke(app, ["adjust", override, "--reason", "card effect", "--file", game])
    assert result.exit_code == 0, result.output
    assert f"{winner} wins the battle of Thebai" in result.output
    before = Path(game).read_bytes()
    result = runner.invoke(app, ["do", then, "--file", game])
    assert result.exit_code == 1, result.output  # refused like any action out of its moment, no traceback
    assert "no-battle" in result.output
    assert Path(game).read_bytes() == before
    status = runner.invoke(app, ["status", "--file", game])
    assert status.exit_code == 0 and "Battle in" not in status.output


# ---------------------------------------------------------------------------------------------
# The deck, the hand and each card's Greek event (in-process, through engine.judge/play)

from referee.dice import CommittedDice, NoDice, PhysicalDice  # noqa: E402
from referee.errors import DiceError, IllegalActionError, UnknownNameError  # noqa: E402
from referee.games.earth_water import actions as act  # noqa: E402
from referee.games.earth_water.cards import find_card  # noqa: E402
from referee.games.earth_water.engine import EarthWaterEngine  # noqa: E402
from referee.games.earth_water.state import Battle, EarthWaterState  # noqa: E402
from referee.games.earth_water.tables import Side  # noqa: E402
from referee.i18n import language  # noqa: E402

HOME = {"Abydos": {"persian_armies": 3, "persian_fleets": 2}, "Ephesos": {"persian_armies": 3, "persian_fleets": 2}}


def _turn(position, greek: int = 2, **cities: dict[str, int]) -> EarthWaterState:
    """A Greek operation turn with ``greek`` unnamed cards in hand."""
    return position(phase="operations", active="greece", hands={"greece": greek, "persia": 3},
                    cities={**HOME, "Athenai": {"greek_armies": 2, "greek_fleets": 1}, **cities})


def _codes(engine: EarthWaterEngine, state: EarthWaterState, text: str) -> tuple[str, ...]:
    return engine.judge(state, engine.parse(state, text)).codes()


def _play(engine: EarthWaterEngine, state: EarthWaterState, *texts: str, dice=None) -> EarthWaterState:
    for text in texts:
        state, _ = engine.play(state, engine.parse(state, text), dice or NoDice())
    return state


def _persian_attack(state: EarthWaterState, greek: int = 2, persian: int = 3) -> EarthWaterState:
    """A PERS.IA land attack on Thebai waiting for its first round (as die 2-3 or defence leave it)."""
    cities = {**state.cities, "Thebai": state.at("Thebai").model_copy(update={"greek_armies": greek,
                                                                              "persian_armies": persian})}
    return state.model_copy(update={"cities": cities, "active": Side.PERSIA, "battle": Battle(
        city="Thebai", kind="land", attacker=Side.PERSIA, origin="Larissa")})


def test_the_deck_as_data_names_in_three_languages(engine: EarthWaterEngine, position) -> None:
    cards = _turn(position).tables.cards
    assert len(cards.cards) == 16 and all(c.provenance == "secondary" for c in cards.cards.values())
    assert all(c.movement == 1 for c in cards.cards.values())
    assert find_card(cards, "Wrath of Poseidon") == find_card(cards, "colère de poséidon") == (3, "greek")
    assert find_card(cards, "Ira di Poseidone") == (3, "greek")
    assert find_card(cards, "Tribute of Earth and Water")[1] == "persian"
    assert [n for n, c in cards.cards.items() if c.when == "reaction"] == [4, 5, 6, 9, 12, 15]
    assert [n for n, c in cards.cards.items() if c.once] == [4, 5, 8, 9]
    assert [n for n, c in cards.cards.items() if c.sparta] == [6, 8, 11, 15]
    with pytest.raises(UnknownNameError, match="Wrath of Poseidon"):
        find_card(cards, "Wrath of Poseidn")


def test_the_greek_hand_draw_name_refuse_and_spend(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, greek=2)
    state = _play(engine, state, "draw Wrath of Poseidon", "piocher Trières")
    assert state.greek_cards == (3, 13) and state.unnamed_greek_cards() == 0
    assert _codes(engine, state, "draw Leonidas") == ("no-card-to-name",)
    assert _codes(engine, state, "event Desertion of Greek Soldiers Ephesos") == ("not-in-hand",)
    assert _codes(engine, state, "move 1 Athenai Thebai") == ("which-card",)
    assert _codes(engine, state, "move 1 Athenai Thebai card Leonidas") == ("not-in-hand",)
    moved = _play(engine, state, "move 1 Athenai Thebai card Triremes")
    assert moved.greek_cards == (3,) and moved.hands.greece == 1 and moved.active is Side.PERSIA
    # a PERS.IA die 4 makes Greece discard: unnamed cards first, then the latest named one
    half = state.model_copy(update={"greek_cards": (3,)})
    assert half.model_copy(update=half.greek_hand_after(1)).greek_cards == (3,)
    assert half.model_copy(update=half.greek_hand_after(0)).greek_cards == ()
    # hand size (base 8.1): named cards are discarded by name, then 'keep' trims the unnamed ones
    supply = position(phase="greek-supply", hands={"greece": 6, "persia": 0}, cities={**HOME})
    supply = _play(engine, supply, "draw Triremes")
    assert _codes(engine, supply, "discard Leonidas") == ("not-in-hand",)
    after = _play(engine, supply, "défausser Trières")
    assert after.hands.greece == 5 and after.greek_cards == ()


def test_moment_once_and_hand_refusals(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Thebai={"greek_armies": 1})
    persia_turn = state.model_copy(update={"active": Side.PERSIA})
    assert "not-your-turn" in _codes(engine, persia_turn, "event Wrath of Poseidon Ephesos")
    assert _codes(engine, state, "event Miltiades") == ("not-now",)  # no battle waiting
    assert _codes(engine, state, "event Themistocles") == ("no-moment",)
    assert _codes(engine, state, "event Pausanias") == ("no-moment",)
    assert _codes(engine, state, "event Molon Labe") == ("no-moment",)
    # a card whose event never comes still pays for a move
    named = _play(engine, state, "draw Themistocles", "draw Molon Labe")
    assert _play(engine, named, "move 1 Athenai Korinthos card Molon Labe").greek_cards == (5,)
    empty = state.model_copy(update={"hands": state.hands.model_copy(update={"greece": 0})})
    assert _codes(engine, empty, "event Wrath of Poseidon Ephesos") == ("no-card",)
    with pytest.raises(Exception, match="Persian event"):
        engine.parse(state, "event Ostracism")


@pytest.mark.parametrize(("text", "city", "unit"), [
    ("event Ionian Revolt Abydos", "Abydos", "persian_armies"),
    ("event Wrath of Poseidon Ephesos", "Ephesos", "persian_fleets"),
    ("event Desertion of Greek Soldiers Larissa", "Larissa", "persian_armies")])
def test_removal_events_take_the_named_unit(engine: EarthWaterEngine, position, text: str, city: str,
                                           unit: str) -> None:
    state = _turn(position, Larissa={"persian_armies": 2})
    new = _play(engine, state, text)
    assert getattr(new.at(city), unit) == getattr(state.at(city), unit) - 1
    assert new.hands.greece == 1 and new.active is Side.PERSIA
    assert _codes(engine, state, text.rsplit(" ", 1)[0] + " Athenai") == ("bad-target",)
    assert _codes(engine, state, text.rsplit(" ", 1)[0]) == ("needs-target",)


def test_ionian_revolt_only_in_the_persian_majors(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Larissa={"persian_armies": 2})
    assert _codes(engine, state, "event Révolte de l'Ionie Larissa") == ("bad-target",)


def test_melas_zomos_and_syracuse_place_from_reserve(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Sparta={"greek_armies": 1})
    new = _play(engine, state, "event Melas Zomos")
    assert new.at("Sparta").greek_armies == 2
    held = _turn(position, Sparta={"persian_armies": 1})
    assert _codes(engine, held, "event Melas Zomos") == ("not-controlled",)
    fleets = state.greek_reserve()[1]
    assert fleets == 4
    assert _codes(engine, state, "event Support from Syracuse Athenai") == ("needs-target",)
    syracuse = _play(engine, state, "event Soutien de Syracuse " + " ".join(["Athenai", "Athenai", "Sparta", "Sparta"]))
    assert syracuse.at("Athenai").greek_fleets == 3 and syracuse.at("Sparta").greek_fleets == 2
    assert "not-a-port" in _codes(engine, state, "event Support from Syracuse Athenai Athenai Athenai Korinthos")


def test_syracuse_with_every_fleet_on_the_board_places_nothing(engine: EarthWaterEngine, position) -> None:
    # found by the 500-game playout: with no fleet in reserve the card once put a fleet in the
    # first city anyway, and the reserve went to -1
    state = _turn(position, Athenai={"greek_armies": 2, "greek_fleets": 5})
    assert state.greek_reserve()[1] == 0
    assert _codes(engine, state, "event Support from Syracuse") == ()
    after, record = engine.play(state, engine.parse(state, "event Support from Syracuse"), NoDice())
    assert after.greek_reserve()[1] == 0
    assert sum(g.greek_fleets for g in after.cities.values()) == 5
    assert any("nothing is placed" in e.message for e in record.events)


def test_oracle_of_delphi_redraws(engine: EarthWaterEngine, position) -> None:
    state = _play(engine, _turn(position, greek=3), "draw Oracle of Delphi", "draw Triremes")
    new = _play(engine, state, "event Oracle of Delphi")
    assert new.hands.greece == 3 and new.greek_cards == ()  # 2 others discarded, 3 drawn, unnamed


def test_triremes_two_free_naval_moves(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Eretria={"greek_armies": 1})
    state = state.model_copy(update={"cities": {**state.cities, "Athenai": state.at("Athenai").model_copy(
        update={"greek_fleets": 2})}})
    new = _play(engine, state, "event Triremes")
    assert new.free_moves == 2 and new.active is Side.GREECE and new.hands.greece == 1
    assert _codes(engine, new, "sail 1 Athenai Eretria carry 1") == ("triremes",)
    assert _codes(engine, new, "move 1 Athenai Thebai") == ("triremes",)
    once = _play(engine, new, "sail 1 Athenai Eretria")
    assert once.free_moves == 1 and once.active is Side.GREECE and once.hands.greece == 1
    twice = _play(engine, once, "naviguer 1 Athenai Naxos")
    assert twice.free_moves == 0 and twice.active is Side.PERSIA and twice.hands.greece == 1
    stopped = _play(engine, once, "done")
    assert stopped.active is Side.PERSIA and stopped.free_moves == 0


def test_mines_of_laurion_a_preparation_inside_the_turn(engine: EarthWaterEngine, position) -> None:
    new = _play(engine, _turn(position), "event Mines of Laurion")
    assert new.phase == "greek-preparation" and new.greek_talents == 3
    new = _play(engine, new, "buy 2 fleets Athenai", "buy 1 fleet Athenai")  # no two-fleet cap here
    assert new.at("Athenai").greek_fleets == 4 and new.greek_talents == 0
    back = _play(engine, new, "done")
    assert back.phase == "operations" and back.active is Side.PERSIA and not back.extra_preparation


@pytest.mark.parametrize("card", ["Miltiades", "300 Spartans"])
def test_three_dice_reactions_in_a_persia_attack_typed_and_digital(engine: EarthWaterEngine, position,
                                                                    card: str) -> None:
    state = _persian_attack(_turn(position))
    new = _play(engine, state, f"event {card}")
    assert new.battle is not None and new.battle.greek_dice == 3 and new.active is Side.PERSIA
    assert new.portraits.greece == state.portraits.greece + (1 if card == "Miltiades" else 0)
    typed = PhysicalDice([6, 1, 1, 2, 2, 2])  # 3 Greek dice, then 3 Persian
    applied = engine.apply(new, act.Fight(), typed)
    typed.check_all_used()
    assert applied.details[0]["greek_faces"] == [6, 1, 1] and applied.details[0]["persian_faces"] == [2, 2, 2]
    digital = engine.apply(new, act.Fight(), CommittedDice.from_text("cards"))
    assert len(digital.details[0]["greek_faces"]) == 3
    too_many = PhysicalDice([6, 1, 1, 2, 2, 2, 3])
    engine.apply(new, act.Fight(), too_many)
    with pytest.raises(DiceError):
        too_many.check_all_used()  # the game file refuses the seventh face, unchanged
    # out of its moment: after the first round
    assert state.battle is not None
    fought = state.model_copy(update={"battle": state.battle.model_copy(update={"rounds": 1})})
    assert _codes(engine, fought, f"event {card}") == ("not-now",)
    assert _codes(engine, new, "event Miltiades" if card != "Miltiades" else "event 300 Spartans") == ("dice-set",)


def test_300_spartans_only_against_a_persian_attack_and_miltiades_once(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Thebai={"persian_armies": 1})
    attack = _play(engine, state, "move 2 Athenai Thebai")
    assert attack.battle is not None and attack.battle.attacker is Side.GREECE
    assert _codes(engine, attack, "event 300 Spartans") == ("not-now",)
    with_miltiades = _play(engine, attack, "event Miltiade")
    assert with_miltiades.battle.greek_dice == 3 and with_miltiades.played_once == (4,)
    again = _persian_attack(with_miltiades.model_copy(update={"battle": None, "hands": state.hands}))
    assert _codes(engine, again, "event Miltiades") == ("once-per-game",)


def test_leonidas_two_dice_and_a_portrait(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Thebai={"persian_armies": 2})
    assert _codes(engine, state, "event Leonidas 2 Athenai Thebai") == ("needs-move",)
    new = _play(engine, state, "event Leonidas Athenai Thebai")
    assert new.battle is not None and new.battle.greek_dice == 2 and new.battle.card == 8
    assert new.portraits.greece == 1 and new.at("Thebai").greek_armies == 1 and new.active is Side.GREECE
    typed = PhysicalDice([5, 6, 1, 1])
    engine.apply(new, act.Fight(), typed)
    typed.check_all_used()
    assert _codes(engine, new.model_copy(update={"battle": None}), "event Leonidas Athenai Thebai") \
        == ("once-per-game",)


def test_evangelion_points_after_its_battle(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Thebai={"persian_armies": 1})
    new = _play(engine, state, "event Evangelion 2 Athenai Thebai")
    assert new.battle is not None and new.battle.card == 10
    won = _play(engine, new, "resolve", dice=PhysicalDice([6, 6, 1]))
    assert won.score == state.score - 1  # a point for Greece
    lost = _play(engine, new, "resolve", dice=PhysicalDice([1, 1, 4, 1, 4]))
    assert lost.score == state.score + 1  # a point for Persia: Greece does not hold Thebai


def test_artemisia_after_a_persian_naval_loss(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, Eretria={"persian_fleets": 3})
    state = state.model_copy(update={"cities": {**state.cities, "Athenai": state.at("Athenai").model_copy(
        update={"greek_fleets": 3})}})
    attack = _play(engine, state, "sail 3 Athenai Eretria")
    assert _codes(engine, attack, "event Artemisia I") == ("not-now",)
    after = _play(engine, attack, "fight", dice=PhysicalDice([6, 1, 1, 2, 2, 2]))
    assert after.battle is not None and after.battle.persian_lost == 1 and after.at("Eretria").persian_fleets == 2
    new = _play(engine, after, "event Artemisia I")
    assert new.at("Eretria").persian_fleets == 1 and new.played_once == (9,)
    assert _codes(engine, new, "event Artemisia I") != ()


def test_french_and_italian_card_words(engine: EarthWaterEngine, position) -> None:
    state = _turn(position, greek=1)
    named = _play(engine, state, "draw Triremes")
    with language("fr"):
        ruling = engine.judge(named, engine.parse(named, "jouer Colère de Poséidon Ephesos")).violations[0]
    assert ruling.message == "« Colère de Poséidon » n'est pas dans la main grecque (cartes nommées : Trières)"
    assert ruling.cites[0].label() == "base cards Cards"
    with language("it"):
        assert ruling.cites[0].label() == "Cartes"  # the rulebook's (French) title alone: "base cards" is our key
        verdict = engine.judge(state, engine.parse(state, "gioca Ira di Poseidone Ephesos"))
    assert verdict.legal and verdict.action == "event Wrath of Poseidon Ephesos"
    with pytest.raises(IllegalActionError):
        engine.play(named, engine.parse(named, "event Wrath of Poseidon Ephesos"), NoDice())


def test_operate_with_a_roll_when_no_die_is_due_plays_and_notes(tmp_path: Path, runner: CliRunner) -> None:
    # issue 15: an empty Persian hand means PERS.IA passes (5.1): the typed die is not needed
    position = {**BATTLE, "battle": None, "active": "persia", "hands": {"persia": 0, "greece": 1},
                "cities": {**BATTLE["cities"], "Thebai": {"greek_armies": 1}}}  # type: ignore[dict-item]
    game = _game(tmp_path, runner, position)
    result = runner.invoke(app, ["persia", "operate", "--dice", "4", "--file", game])
    assert result.exit_code == 0, result.output
    assert "was not needed" in result.stderr and "PERS.IA holds no card" in result.stdout
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"game": "300-solo", **position}), encoding="utf-8")
    result = runner.invoke(app, ["persia", "operate", "--position", str(path), "--dice", "4"])
    assert result.exit_code == 0 and "was not needed" in result.stderr, result.output


MARCH = {"phase": "operations", "active": "persia", "hands": {"persia": 2, "greece": 3},
         "cities": {"Abydos": {"persian_armies": 3, "persian_fleets": 2},
                    "Ephesos": {"persian_armies": 3, "persian_fleets": 2},
                    "Pella": {"persian_armies": 6}, "Larissa": {"greek_armies": 2}, "Athenai": {"greek_armies": 1}}}


@pytest.mark.parametrize(("card", "greek_dice"), [("300 Spartans", 3), ("Milziade", 3)])
def test_reactions_in_a_real_persia_attack_through_the_game_file(tmp_path: Path, runner: CliRunner, card: str,
                                                                 greek_dice: int) -> None:
    game = _game(tmp_path, runner, MARCH)
    result = runner.invoke(app, ["persia", "operate", "--dice", "2", "--file", game, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["pending"]["city"] == "Larissa"  # PERS.IA marched into the Greek army
    assert runner.invoke(app, ["do", "event", card, "--file", game]).exit_code == 0
    # typed dice: the Greek side now rolls 3 (not 2), then Persia 3
    typed = ",".join(["6"] * greek_dice + ["1", "1", "1"])
    result = runner.invoke(app, ["do", "fight", "--dice", typed, "--file", game, "--json"])
    assert result.exit_code == 0, result.output
    assert "6,6,6" in result.stdout
    # digital dice: the next round also rolls 3 Greek dice, all shown in the journal
    result = runner.invoke(app, ["do", "fight", "--file", game, "--json"])
    assert result.exit_code == 0, result.output
    rolls = json.loads(result.stdout)
    greek = [r for r in rolls["record"]["rolls"] if r["purpose"].endswith("Greece")]
    assert len(greek[0]["faces"]) == greek_dice


def test_the_march_says_when_the_most_armed_city_is_skipped(engine: EarthWaterEngine, position) -> None:
    # issue 15: with the bridge down Abydos (8 armies) has no road toward Sparta; Pella marches
    state = position(phase="operations", active="persia", bridge=False, hands={"persia": 2, "greece": 1},
                     cities={"Abydos": {"persian_armies": 8}, "Ephesos": {"persian_armies": 3},
                             "Pella": {"persian_armies": 4}, "Athenai": {"greek_armies": 1}})
    _new, report = engine.persia(state, "operate", PhysicalDice([2]))
    kinds = [s.kind for s in report.steps]
    assert kinds[:3] == ["roll", "skipped", "move"], kinds
    assert "Abydos holds the most Persian armies (8)" in report.steps[1].text
    assert report.steps[2].path[0] == "Pella"


def test_too_few_battle_dice_say_how_many_each_side_rolls(engine: EarthWaterEngine, position) -> None:
    state = _persian_attack(_turn(position), greek=3, persian=3)
    with pytest.raises(DiceError, match="rolls 6 dice: 3 Greek, then 3 Persian"):
        engine.apply(state, act.Fight(), PhysicalDice([6, 5, 4, 3]))


def test_named_cards_in_a_position_file(engine: EarthWaterEngine, position) -> None:
    state = position(phase="operations", active="greece", hands={"greece": 2, "persia": 1},
                     greek_cards=["Trières", "Leonidas"], played_once=["Miltiades"], cities={**HOME})
    assert state.greek_cards == (13, 8) and state.played_once == (4,)
    again = engine.from_position(state.tables.table_set, engine.to_position(state).model_dump(exclude_none=True), "x")
    assert again.greek_cards == state.greek_cards and again.played_once == state.played_once
    from referee.errors import PositionError
    with pytest.raises(PositionError, match=r"greek_cards.1"):
        position(hands={"greece": 1}, greek_cards=["Triremes", "Leonidas"])
    with pytest.raises(PositionError, match=r"greek_cards.0: unknown card"):
        position(hands={"greece": 1}, greek_cards=["Tirremes"])
    with pytest.raises(PositionError, match=r"played_once.0"):
        position(played_once=["Triremes"])


# ---------------------------------------------------------------------------------------------
# Every card's Greek event through a real game file: its legal moment and effect, a refusal out
# of its moment, a refusal when it is not in the hand (the file unchanged after each refusal)

from referee.games import find_game  # noqa: E402
from referee.journal import GameFile  # noqa: E402
from referee.tables import packaged_table_set  # noqa: E402

TURN = {"phase": "operations", "active": "greece", "hands": {"greece": 2, "persia": 2},
        "cities": {**HOME, "Athenai": {"greek_armies": 2, "greek_fleets": 2}, "Sparta": {"greek_armies": 1},
                   "Thebai": {"persian_armies": 1}, "Larissa": {"persian_armies": 2},
                   "Eretria": {"persian_fleets": 2}}}


def _file(tmp_path: Path, position: dict[str, object], *steps: tuple[str, list[int] | None]) -> GameFile:
    path = tmp_path / f"g{len(list(tmp_path.iterdir()))}.referee"
    game = find_game("300-solo")
    gf = GameFile.create(path, game, packaged_table_set("300-solo"), actions=["setup " + json.dumps(position)])
    with gf:
        for text, faces in steps:
            gf.do(text, faces)
    return GameFile.open(path, find_game)


NAVAL = (("sail 2 Athenai Eretria", None), ("fight", [6, 6, 1, 1]))  # Persia loses a fleet and keeps one
ATTACK = (("persia operate", [2]),)  # PERS.IA marches from Pella into Larissa (MARCH below)
CASES = {  # card -> (position, steps to its moment, play, check of the effect)
    "Mines of Laurion": (TURN, (), "event Mines of Laurion", lambda s: s.greek_talents == 3),
    "Ionian Revolt": (TURN, (), "event Ionian Revolt Ephesos", lambda s: s.at("Ephesos").persian_armies == 2),
    "Wrath of Poseidon": (TURN, (), "event Wrath of Poseidon Eretria", lambda s: s.at("Eretria").persian_fleets == 1),
    "Miltiades": ("MARCH", ATTACK, "event Miltiades", lambda s: s.battle.greek_dice == 3),
    "Oracle of Delphi": (TURN, (), "event Oracle of Delphi", lambda s: s.hands.greece == 2),
    "Leonidas": (TURN, (), "event Leonidas Athenai Thebai", lambda s: s.battle.greek_dice == 2),
    "Artemisia I": (TURN, NAVAL, "event Artemisia I",
                    lambda s: s.battle is None or s.at("Eretria").persian_fleets == 0),
    "Evangelion": (TURN, (), "event Evangelion 2 Athenai Thebai", lambda s: s.battle.card == 10),
    "Melas Zomos": (TURN, (), "event Melas Zomos", lambda s: s.at("Sparta").greek_armies == 2),
    "Triremes": (TURN, (), "event Triremes", lambda s: s.free_moves == 2),
    "Support from Syracuse": (TURN, (), "event Support from Syracuse Athenai Athenai Athenai",
                              lambda s: s.at("Athenai").greek_fleets == 5),
    "300 Spartans": ("MARCH", ATTACK, "event 300 Spartans", lambda s: s.battle.greek_dice == 3),
    "Desertion of Greek Soldiers": (TURN, (), "event Desertion of Greek Soldiers Larissa",
                                    lambda s: s.at("Larissa").persian_armies == 1),
    # their moment never comes against PERS.IA: refused in its turn and in a battle alike
    "Themistocles": (TURN, (), None, None),
    "Pausanias": ("MARCH", ATTACK, None, None),
    "Molon Labe": (TURN, (), None, None),
}


@pytest.mark.parametrize("card", list(CASES))
def test_each_card_through_the_game_file(tmp_path: Path, card: str) -> None:
    position, steps, play, effect = CASES[card]
    position = MARCH if position == "MARCH" else position
    gf = _file(tmp_path, position, *steps)
    with gf:
        if play is None:
            before = gf.path.read_bytes()
            with pytest.raises(IllegalActionError, match=r"no-moment|never happens"):
                gf.do(f"event {card}")
            assert gf.path.read_bytes() == before
            return
        gf.do(play)
        assert effect(gf.state()), card
    # out of its moment: a turn card during PERS.IA's turn, a reaction with no battle waiting
    reaction = card in ("Miltiades", "Artemisia I", "300 Spartans")
    other = _file(tmp_path, {**TURN, "active": "persia"} if not reaction else TURN)
    with other:
        before = other.path.read_bytes()
        with pytest.raises(IllegalActionError):
            other.do(play)
        assert other.path.read_bytes() == before
    # not in the hand: every card of the hand is named, and not this one
    named = "Themistocles" if card != "Themistocles" else "Pausanias"
    absent = _file(tmp_path, {**position, "hands": {**position["hands"], "greece": 1}, "greek_cards": [named]},
                   *steps)
    with absent:
        before = absent.path.read_bytes()
        with pytest.raises(IllegalActionError, match=r"not-in-hand|not in the Greek hand"):
            absent.do(play)
        assert absent.path.read_bytes() == before


# ---------------------------------------------------------------------------------------------
# The Greek hand by name (issue 35): status, show and --json list it; every card that leaves it is named

OPERATIONS = {"phase": "operations", "active": "greece", "cities": {
    "Athenai": {"greek_armies": 2}, "Sparta": {"greek_armies": 1}, "Abydos": {"persian_armies": 3},
    "Ephesos": {"persian_armies": 3}}}


def test_cards_status_and_show_list_the_greek_hand_by_name(engine, position) -> None:  # type: ignore[no-untyped-def]
    state = position(**OPERATIONS, hands={"persia": 1, "greece": 3}, greek_cards=["Miltiades", "Leonidas"])
    hand = next(line for line in engine.status(state) if line.startswith("Greek hand"))
    assert "Miltiades" in hand and "Leonidas" in hand and "1 card not named" in hand
    assert any("Miltiades" in line for line in engine.board_view(state).status)


def test_cards_a_move_paid_with_the_only_named_card_names_it(engine, position) -> None:  # type: ignore[no-untyped-def]
    # The newcomer's slip: one card in hand, named Miltiades; a move without 'card NAME' spends it.
    state = position(**OPERATIONS, hands={"persia": 1, "greece": 1}, greek_cards=["Miltiades"])
    new, record = engine.play(state, engine.parse(state, "move 1 Athenai Thebai"), NoDice())
    spent = [e for e in record.events if e.code == "greek-cards"]
    assert len(spent) == 1 and "Miltiades" in spent[0].message
    assert new.greek_cards == ()


def test_cards_a_discard_names_the_card(engine, position) -> None:  # type: ignore[no-untyped-def]
    supply = {"phase": "greek-supply", "cities": OPERATIONS["cities"]}
    state = position(**supply, hands={"persia": 0, "greece": 3}, greek_cards=["Miltiades", "Leonidas"])
    _new, record = engine.play(state, engine.parse(state, "discard Leonidas"), NoDice())
    assert any(e.code == "greek-cards" and "Leonidas" in e.message for e in record.events)


def test_cards_pers_ia_face_4_names_the_card_taken(engine, position) -> None:  # type: ignore[no-untyped-def]
    # Every Greek card is named: face 4's discard takes one of them, and the step says which.
    state = position(hands={"persia": 1, "greece": 1}, greek_cards=["Miltiades"],
                     cities={"Athenai": {"greek_armies": 1}, "Abydos": {"persian_armies": 2},
                             "Ephesos": {"persian_armies": 2}})
    _new, report = engine.persia(state, "operate", PhysicalDice([4]))
    discard = next(s for s in report.steps if s.kind == "greek-discard")
    assert "Miltiades" in discard.text
