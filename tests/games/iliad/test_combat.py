"""Combattimento: duello (the rulebook's example included), campo aperto, arcieri, and the
doubling of value-1 counters by the gods (Il calendario) and the wall (Movimento: regole particolari)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games.iliad.combat import BattleResult, DuelResult, ShotResult, duel_throw
from referee.i18n import language
from referee.tables import packaged_table_set

from .helpers import ENGINE, choose, codes, event_codes, faces, judge, play, position, record

H2 = {"day": 1, "hour": 2}  # no duel, no god advantage


def _results(rec_details: tuple[object, ...]) -> list[dict[str, object]]:
    return [d for d in rec_details if isinstance(d, dict)]


def test_duello_rulebook_example_menelao_against_antimaco() -> None:
    # The worked example under "Combattimento: duello": Menelao (4) against Antimaco (3); dice
    # 3-5, then 6-2 (Antimaco wounded), then 5-3 with Antimaco's die halved: 9 against 4.5, killed.
    state = position(**H2, counters={"Menelao": "J15", "Antimaco": "J16"})
    state = play(state, "Menelao x Antimaco")
    dice = faces(3, 5, 6, 2, 5, 3)
    new, rec = record(state, "resolve", dice)
    duel = DuelResult.model_validate(_results(rec.details)[0])
    assert duel.values == (4, 3)
    assert [t.totals for t in duel.throws] == [(7, 8), (10, 5), (9, 4.5)]
    assert [t.result for t in duel.throws] == ["nothing", "wounded", "killed"]
    assert [t.hurt for t in duel.throws] == [None, "Antimaco", "Antimaco"]
    assert duel.outcome == ("unhurt", "killed")
    assert "Antimaco" not in new.where and "Antimaco" in new.dead
    assert dice.used == 6
    assert any("duel-half-points" in p for p in rec.provisional)


@pytest.mark.parametrize(
    ("throw", "difference", "result"),
    [(1, 0, "nothing"), (1, 2, "nothing"), (1, 3, "wounded"), (1, 4, "wounded"), (1, 5, "killed"), (1, 6, "killed"),
     (2, 3, "nothing"), (2, 4, "wounded"), (2, 6, "wounded"), (3, 2, "nothing"), (3, 3, "wounded"),
     (3, 5, "killed")],
)
def test_duello_table_reads_the_difference_on_the_throw_row(throw: int, difference: int, result: str) -> None:
    tables = ENGINE.new_state(packaged_table_set("iliad")).tables
    hurt, band, diff2 = duel_throw(tables, throw, (5, 5), (6, 6 - difference), (False, False))
    assert band == result and diff2 == 2 * difference
    assert hurt == (None if result == "nothing" else 1)


def test_duello_large_differences_and_half_points() -> None:
    tables = ENGINE.new_state(packaged_table_set("iliad")).tables
    assert duel_throw(tables, 1, (9, 2), (6, 1), (False, False))[1] == "killed"  # difference 12
    assert duel_throw(tables, 2, (9, 2), (6, 1), (False, False))[1] == "wounded"  # throw II never kills
    # 2.5 counts in the higher band (3-4: wounded) on throw I; a wounded hero's 5 counts 2.5.
    assert duel_throw(tables, 1, (5, 5), (5, 5), (False, True))[:2] == (1, "wounded")


def test_duello_a_wound_halves_the_later_dice_and_the_wounded_are_carried_home() -> None:
    state = play(position(**H2, counters={"Diomede": "J15", "Ettore": "J16"}), "Diomede x Ettore")
    # throw 1: 8+1 against 9+4: Diomede wounded; throw 2: 8+6/2 = 11 against 9+2: nothing; throw 3: 8+4/2 v 9+2.
    new, rec = record(state, "resolve", faces(1, 4, 6, 2, 4, 2))
    duel = DuelResult.model_validate(_results(rec.details)[0])
    assert [t.totals for t in duel.throws] == [(9, 13), (11, 11), (10, 11)]
    assert duel.outcome == ("wounded", "unhurt")
    assert new.where["Diomede"] == new.start["Diomede"]  # carried behind the Greek lines
    assert "Diomede" in new.wounded and "wounded-carried" in event_codes(rec)
    assert codes(judge(play(new, "resolve"), "resolve")) == []  # the game goes on


def test_duello_the_wounded_stay_put_until_the_next_morning() -> None:
    state = position(day=1, hour=12, counters={"Diomede": "D13", "Ettore": "S19"}, wounded=["Diomede"])
    assert codes(judge(state, "Diomede H13")) == ["wounded"]
    night = play(state, "resolve", "resolve")  # the Greek and Trojan moves of hour 12
    assert night.phase.value == "night" and "Diomede" in night.wounded
    morning = play(night, "night")
    assert morning.wounded == () and judge(morning, "Diomede E13").legal  # the wall stands on day 2


def test_duello_the_wounded_defend_in_place_with_halved_dice(tmp_path: Path) -> None:
    fields = {**H2, "counters": {"Diomede": "R20", "Ettore": "S20"}, "wounded": ["Ettore"]}
    state = play(position(**fields), "Diomede x Ettore")
    _, rec = record(state, "resolve", faces(2, 6, 2, 6, 2, 6))
    duel = DuelResult.model_validate(_results(rec.details)[0])
    assert duel.throws[0].totals == (10, 12)  # 8+2 against 9+6/2
    # throw 3: 10 against 12: difference 2, nothing; the wounded Ettore never left S20.
    assert duel.outcome == ("unhurt", "wounded")
    kills = play(position(choose(tmp_path, "second-wound", "kills"), **fields), "Diomede x Ettore")
    # Diomede rolls 6s, Ettore 1s: 14 against 9.5, difference 4.5: wounded again, and that kills.
    new, rec = record(kills, "resolve", faces(6, 1, 6, 1, 6, 1))
    assert DuelResult.model_validate(_results(rec.details)[0]).outcome == ("unhurt", "killed")
    assert "Ettore" in new.dead


def test_duello_heroes_fight_heroes_one_on_one_only() -> None:
    state = position(**H2, counters={"Diomede": "J15", "Macaone": "K14", "Aiace Telamonio": "I14", "Ettore": "J16"})
    dueling = play(state, "Diomede x Ettore")
    verdict = judge(dueling, "Macaone K16 x Ettore")  # a value-1 counter would join a duel
    assert codes(verdict) == ["duel-one-on-one"]
    assert codes(judge(dueling, "Aiace Telamonio I16 x Ettore")) == ["duel-one-on-one"]


def test_campo_aperto_higher_total_eliminates_every_enemy_of_the_battle() -> None:
    state = position(**H2, counters={"Macaone": "J14", "Podalirio": "K15", "Cebrione": "J16", "Ettore": "S20"})
    state = play(state, "Macaone J15", "Podalirio K16 x Cebrione")
    new, rec = record(state, "resolve", faces(5, 2))  # 1+1+5 against 1+2
    battle = BattleResult.model_validate(_results(rec.details)[0])
    assert battle.values == (2, 1) and battle.totals == (7, 3)
    assert battle.winner == "attackers" and battle.eliminated == ("Cebrione",)
    assert "Cebrione" in new.dead and new.points_lost(new.tables.of("Cebrione").side) == 1


def test_campo_aperto_attackers_are_all_lost_when_they_lose() -> None:
    state = position(**H2, counters={"Macaone": "J14", "Podalirio": "K15", "Cebrione": "J16", "Ettore": "S20"})
    state = play(state, "Macaone J15", "Podalirio K16 x Cebrione")
    new, rec = record(state, "resolve", faces(1, 6))  # 3 against 7
    battle = BattleResult.model_validate(_results(rec.details)[0])
    assert battle.winner == "defenders" and set(battle.eliminated) == {"Macaone", "Podalirio"}
    assert {"Macaone", "Podalirio"} <= set(new.dead) and "Cebrione" in new.where
    assert new.lost[new.tables.of("Macaone").side] == ("Macaone", "Podalirio")  # recorded for the night


def test_campo_aperto_tie_has_no_effect_or_is_rolled_again(tmp_path: Path) -> None:
    fields = {**H2, "counters": {"Macaone": "J15", "Cebrione": "J16", "Ettore": "S20"}}
    state = play(position(**fields), "Macaone x Cebrione")
    new, rec = record(state, "resolve", faces(4, 4))
    assert BattleResult.model_validate(_results(rec.details)[0]).winner is None
    assert {"Macaone", "Cebrione"} <= set(new.where)
    assert any("battle-tie: no-effect" in p for p in rec.provisional)
    again = play(position(choose(tmp_path, "battle-tie", "reroll"), **fields), "Macaone x Cebrione")
    new, rec = record(again, "resolve", faces(4, 4, 3, 1))
    battle = BattleResult.model_validate(_results(rec.details)[0])
    assert battle.faces == ((4, 4), (3, 1)) and battle.winner == "attackers"


def test_campo_aperto_a_hero_with_value_one_helpers_but_one_hero_a_side() -> None:
    state = position(**H2, counters={"Diomede": "J14", "Macaone": "K15", "Aiace Telamonio": "I15",
                                     "Cebrione": "J16", "Ettore": "S20"})
    state = play(state, "Diomede J15")
    # Stopping beside an engaged enemy joins its attack (zone-stop): a second hero may not.
    assert codes(judge(state, "Aiace Telamonio I16")) == ["one-hero-per-side"]
    assert codes(judge(state, "Aiace Telamonio I16 x Cebrione")) == ["one-hero-per-side"]
    helped = play(state, "Macaone K16 x Cebrione")
    _, rec = record(helped, "resolve", faces(1, 6))
    battle = BattleResult.model_validate(_results(rec.details)[0])
    assert battle.values == (9, 1) and battle.winner == "attackers"


def test_calendario_god_advantage_doubles_the_favoured_value_one_counters() -> None:
    def battle_at(hour: int) -> BattleResult:
        state = position(day=1, hour=hour, counters={"Macaone": "J15", "Cebrione": "J16", "Ettore": "S20"})
        _, rec = record(play(state, "Macaone x Cebrione"), "resolve", faces(3, 3))
        return BattleResult.model_validate(_results(rec.details)[0])

    assert battle_at(2).values == (1, 1)  # no god this hour
    assert battle_at(3).values == (2, 1)  # day 1, hours 3-6: the Greeks
    assert battle_at(6).values == (2, 1)
    assert battle_at(7).values == (1, 2)  # day 1, hours 7-9: the Trojans
    assert battle_at(10).values == (1, 1)
    # The advantage holds in both moves of the hour: here the Trojans attack at hour 3.
    reply = position(day=1, hour=3, side="trojan", counters={"Macaone": "J15", "Cebrione": "J16", "Diomede": "D13"})
    _, rec = record(play(reply, "Cebrione x Macaone"), "resolve", faces(3, 3))
    assert BattleResult.model_validate(_results(rec.details)[0]).values == (1, 2)
    hero = position(day=1, hour=3, counters={"Diomede": "J15", "Cebrione": "J16", "Ettore": "S20"})
    _, rec = record(play(hero, "Diomede x Cebrione"), "resolve", faces(3, 3))
    assert BattleResult.model_validate(_results(rec.details)[0]).values == (8, 1)  # heroes never double


def test_movimento_regole_particolari_value_one_defenders_inside_the_wall_double(tmp_path: Path) -> None:
    fields = {"day": 2, "hour": 2, "side": "trojan", "counters": {"Cebrione": "E12", "Macaone": "E15", "Ettore": "S20"}}
    state = play(position(**fields), "Cebrione E14")  # an intruder inside the camp
    _, rec = record(state, "resolve", faces(3, 3))
    assert BattleResult.model_validate(_results(rec.details)[0]).values == (2, 2)
    day1 = play(position(**{**fields, "day": 1}), "Cebrione E14")  # no wall yet
    _, rec = record(day1, "resolve", faces(3, 3))
    assert BattleResult.model_validate(_results(rec.details)[0]).values == (1, 1)
    greek = {"day": 2, "hour": 2, "counters": {"Macaone": "E12", "Cebrione": "E15", "Ettore": "S20"}}
    _, rec = record(play(position(**greek), "Macaone E14"), "resolve", faces(3, 3))
    assert BattleResult.model_validate(_results(rec.details)[0]).values == (1, 2)  # Greek attacker: not an intruder
    anyone = position(choose(tmp_path, "wall-doubling", "anyone-inside"), **greek)
    _, rec = record(play(anyone, "Macaone E14"), "resolve", faces(3, 3))
    assert BattleResult.model_validate(_results(rec.details)[0]).values == (2, 2)


def test_arcieri_three_squares_in_a_straight_line_even_behind_counters(tmp_path: Path) -> None:
    counters = {"Teucro": "J15", "Ettore": "J18", "Cebrione": "J17", "Glauco": "M18", "Enea": "L16",
                "Sarpedonte": "J19"}
    state = position(**H2, counters=counters)
    assert judge(state, "Teucro shoots Ettore").legal  # behind Cebrione
    assert judge(state, "Teucro shoots Glauco").legal  # three squares on a diagonal
    assert codes(judge(state, "Teucro shoots Enea")) == ["out-of-range"]  # not on a line
    assert codes(judge(state, "Teucro shoots Sarpedonte")) == ["out-of-range"]  # four squares
    straight = position(choose(tmp_path, "archer-line", "orthogonal-only"), **H2, counters=counters)
    assert codes(judge(straight, "Teucro shoots Glauco")) == ["out-of-range"]
    assert codes(judge(state, "Teucro shoots Teucro")) == ["not-an-enemy"]
    assert codes(judge(state, "Diomede shoots Ettore")) == ["counter-dead"]


def test_arcieri_shoot_over_the_wall() -> None:
    state = position(day=2, hour=2, counters={"Teucro": "F15", "Ettore": "I15"})
    assert judge(state, "Teucro shoots Ettore").legal


@pytest.mark.parametrize(("face", "result"), [(6, "killed"), (5, "wounded"), (4, "nothing"), (1, "nothing")])
def test_arcieri_six_kills_five_wounds_less_misses(face: int, result: str) -> None:
    state = play(position(**H2, counters={"Teucro": "J15", "Ettore": "J18"}), "Teucro shoots Ettore")
    new, rec = record(state, "resolve", faces(face))
    shot = ShotResult.model_validate(_results(rec.details)[0])
    assert shot.result == result
    assert ("Ettore" in new.dead) == (result == "killed")
    assert ("Ettore" in new.wounded) == (result == "wounded")
    if result == "wounded":  # carried behind the Trojan lines
        assert new.where["Ettore"] == new.start["Ettore"]


def test_arcieri_arrows_fly_before_the_other_combats() -> None:
    state = position(**H2, counters={"Teucro": "J12", "Macaone": "J14", "Cebrione": "J16", "Ettore": "S20"})
    state = play(state, "Macaone J15", "Teucro J13 shoots Cebrione")
    dice = faces(6)
    new, rec = record(state, "resolve", dice)
    assert dice.used == 1  # Cebrione fell to the arrow: no battle left to roll
    assert "combat-cancelled" in event_codes(rec) and "Cebrione" in new.dead


def test_arcieri_an_archer_that_attacks_cannot_shoot() -> None:
    state = position(**H2, counters={"Teucro": "J14", "Cebrione": "J17", "Ettore": "J11"})
    # From J16 Ettore (J11) is also out of range: every violation is reported, the range first.
    assert codes(judge(state, "Teucro J16 shoots Ettore")) == ["out-of-range", "archer-engaged"]
    shot = play(state, "Teucro shoots Ettore")
    assert codes(judge(shot, "Teucro shoots Cebrione")) == ["already-shot"]
    assert codes(judge(state, "Teucro x Ettore")) == ["not-in-zone"]


def test_arcieri_a_shot_at_asteropeo_reads_ad_asteropeo_in_italian() -> None:
    state = position(**H2, counters={"Teucro": "J15", "Asteropeo": "J18"})
    _, rec = record(play(state, "Teucro shoots Asteropeo"), "resolve", faces(6))
    shot = next(e for e in rec.events if e.text().startswith("Teucro shoots Asteropeo"))
    with language("it"):
        assert shot.text().startswith("Teucro tira ad Asteropeo:")  # not 'a Asteropeo'
