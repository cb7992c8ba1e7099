"""The Zargo engine, one test per rulebook paragraph (printed headings of the French copy)."""

from __future__ import annotations

import pytest

from referee.dice import PhysicalDice
from referee.errors import NotationError, PositionError, UnknownNameError
from referee.games.zargo.combat import attack_total
from referee.games.zargo.movement import check_move, surroundings
from referee.games.zargo.sequence import city_counts
from referee.games.zargo.state import Phase
from referee.games.zargo.tables import Reads
from referee.i18n import language
from referee.sealed import Seal, canonical
from tests.games.zargo.helpers import GAME, TABLES, codes, events, play, position


def fresh(text: str, *faces: int):  # type: ignore[no-untyped-def]
    return play(GAME.new_state(TABLES), text, *faces)


# ---- PRÉPARATION DU JEU ---------------------------------------------------------------------


def test_preparation_two_players_two_peoples_on_two_continents_each() -> None:
    s = fresh("players 2 chevaliers:1,3 dragons:2,4")
    assert s.peoples == ("chevaliers", "dragons") and s.continents["chevaliers"] == ("1", "3")
    assert s.phase is Phase.SETUP and GAME.to_act(s) == "chevaliers"
    bad = GAME.new_state(TABLES)
    assert "continents" in codes(bad, "players 2 chevaliers:1 dragons:2")
    assert "continent-twice" in codes(bad, "players 3 chevaliers:1 dragons:1 ailes:3")
    assert "players" in codes(bad, "players 5")


def test_preparation_continents_drawn_by_lot_with_the_die() -> None:
    s = fresh("players 4", 1, 1, 1)  # each people takes the first continent left
    assert s.continents == {"chevaliers": ("1",), "dragons": ("2",), "ailes": ("3",), "moines": ("4",)}
    s = fresh("players 3", 2, 3, 1, 2)  # dragons out; chevaliers draw 3, ailes 1, moines the 2nd of 2, 4
    assert s.peoples == ("chevaliers", "ailes", "moines")
    assert s.continents == {"chevaliers": ("3",), "ailes": ("1",), "moines": ("4",)}


def test_preparation_cities_inland_on_own_continent_then_counters() -> None:
    s = fresh("players 4 chevaliers:1 dragons:2 ailes:3 moines:4")
    assert "coastal-city" in codes(s, "city 0603")
    assert "not-own-continent" in codes(s, "city 2503")
    assert "chasm-city" in codes(s, "city 1407")
    assert "cities-first" in codes(s, "FCh 0907")
    assert "cities-missing" in codes(s, "ready")
    for h in ("1003", "0905", "1207", "0808"):
        s = play(s, f"city {h}")
    assert "cities-full" in codes(s, "city 1107")
    assert "not-yours" in codes(s, "FDr 0907")
    s = play(s, "CHV 0907")
    s = play(s, "FCh 0907")  # an escort on a lone knight
    assert s.board["0907"] == ("FCh", "CHV")
    s = play(s, "SOR 1107")
    assert "stacking" in codes(s, "ACh 1107")
    assert "city-hex" in codes(s, "FCh 0905")
    s = play(s, "ready")
    assert s.active == "dragons"


def test_preparation_no_more_counters_than_the_box() -> None:
    s = fresh("players 4 chevaliers:1 dragons:2 ailes:3 moines:4")
    for h in ("1003", "0905", "1207", "0808"):
        s = play(s, f"city {h}")
    free = [
        "0506",
        "0606",
        "0706",
        "0806",
        "1006",
        "1206",
        "1306",
        "1406",
        "1506",
        "1606",
        "0607",
        "0707",
        "0807",
    ]
    for h in free[:3]:
        s = play(s, f"SOR {h}")  # the box holds three sorcerers
    assert "none-left" in codes(s, f"SOR {free[3]}")


# ---- COMMENT ON JOUE, LE CALENDRIER ---------------------------------------------------------


def test_comment_on_joue_turn_order_and_months() -> None:
    s = position({"0907": ["FCh"]})
    seen = []
    for _ in range(5):
        seen.append((s.month, s.active))
        s = play(s, "resolve")
    assert seen == [(1, "chevaliers"), (1, "dragons"), (1, "ailes"), (1, "moines"), (2, "chevaliers")]


def test_calendrier_the_game_ends_after_month_25_most_cities_win() -> None:
    s = position(
        {"0907": ["FCh"]},
        month=25,
        active="moines",
        cities={
            "0505": {"owner": "chevaliers", "founder": "chevaliers"},
            "0808": {"owner": "chevaliers", "founder": "chevaliers"},
            "2503": {"owner": "dragons", "founder": "dragons"},
        },
    )
    s = play(s, "resolve")
    out = GAME.outcome(s)
    assert out is not None and out.winners == ("chevaliers",) and out.termination == "most-cities"
    assert GAME.legal_actions(s) == []


def test_calendrier_tied_leaders_share_the_win() -> None:
    s = position({"0907": ["FCh"]}, month=25, active="moines")
    out = GAME.outcome(play(s, "resolve"))
    assert out is not None and out.winners == ("chevaliers", "dragons")


def test_comment_on_joue_alliances_first_then_allies_are_crossed() -> None:
    s = position({"0907": ["FCh"], "0908": ["FDr"]})
    assert GAME.to_act(play(s, "ally dragons")) == "dragons"
    s2 = play(play(s, "ally dragons"), "accept")
    assert s2.alliances == ("chevaliers+dragons",)
    # the dragon foot soldier no longer blocks: the knight foot soldier walks through it
    assert check_move(s2, GAME.parse(s2, "0907 0909")) == []
    assert codes(s, "0907 0909") == ("zone",)  # the enemy's zone stops the move before it
    moved = play(s2, "0907 0906")
    assert "alliance-late" in codes(moved, "break dragons")
    assert play(play(play(s, "ally dragons"), "refuse"), "0907 0906").alliances == ()
    broken = play(s2, "break dragons")
    assert broken.alliances == ()


# ---- MOUVEMENTS -----------------------------------------------------------------------------


def test_mouvements_regles_generales_no_stacking_and_no_second_move() -> None:
    s = position({"0907": ["FCh"], "1007": ["CHV"], "0807": ["SOR"]})
    assert "hex-taken" in codes(s, "0807 1007")  # a sorcerer may not share the knight's hex
    s = play(s, "0907 1007")  # a foot soldier may: it escorts the knight
    assert s.board["1007"] == ("FCh", "CHV")
    assert "moved-twice" in codes(s, "1007 1009")


def test_mouvements_regles_particulieres_woods_mountains_chasms() -> None:
    s = position({"0606": ["FCh"], "1206": ["FCh"], "1307": ["FCh"], "2603": ["FDr"]})
    assert "1106" in GAME.legal_report(s, "1206").moves  # climb next to a mountain, a whole move
    s2 = play(s, "1206 1106")
    assert s2.board["1106"] == ("FCh",)
    s3 = play(s, "1307 1407")  # a chasm holds the counter three turns
    assert s3.paralysed == {"1407": 3}
    later = s3
    for _ in range(4):
        later = play(later, "resolve")
    assert later.paralysed == {"1407": 3}  # its own turn has not come again
    assert "paralysed" in codes(later, "1407 1307")
    for _ in range(12):
        later = play(later, "resolve")
    assert later.paralysed == {} and later.month == 5


def test_combat_a_counter_in_a_chasm_cannot_be_attacked() -> None:
    s = position({"1407": ["FDr"], "1307": ["CHV"]}, paralysed={"1407": 2})
    assert "paralysed-target" in codes(s, "attack 1307 1407")


def test_ailes_fly_over_enemies_and_zones() -> None:
    s = position({"0907": ["AIL"], "0908": ["FDr"], "0909": ["FDr"]}, active="ailes")
    assert "0910" in GAME.legal_report(s, "0907").moves
    walker = position({"0907": ["FAi"], "0908": ["FDr"], "0909": ["FDr"]}, active="ailes")
    assert "0910" not in GAME.legal_report(walker, "0907").moves


def test_combat_zone_of_influence_ends_the_move() -> None:
    s = position({"0905": ["FCh"], "0908": ["FDr"]})
    assert "0907" in GAME.legal_report(s, "0905").moves  # next to the enemy: allowed, to attack
    assert "zone" in codes(s, "0905 0909")  # past it: the zone stops the move


# ---- COMBAT ---------------------------------------------------------------------------------


def test_combat_regles_generales_adjacent_attack_and_the_table() -> None:
    s = position({"0907": ["CHV"], "0909": ["FDr"]})
    assert "not-adjacent" in codes(s, "attack 0907 0909")
    s = play(s, "0907 0908")
    assert "friendly-target" in codes(position({"0907": ["CHV"], "0908": ["FCh"]}), "attack 0907 0908")
    s = play(s, "attack 0908 0909")
    assert "moved-twice" in codes(s, "0908 0907")
    after, found = events(s, "resolve", 6)  # 8 + 3 charge against 2: the highest column, die 6: DE
    assert "combat" in found and "0909" not in after.board
    assert after.eliminated == {"FDr": 1}


def test_chevaliers_charge_front_plus_three_moine_chevalier_none() -> None:
    s = position({"0904": ["CHV"], "0907": ["FDr"]})
    assert codes(s, "0904 0906") == ("state-the-path",)  # straight, or round: the player says which
    s = play(play(s, "0904 0905 0906"), "attack 0906 0907")  # straight south, then the target ahead
    assert attack_total(s, ["0906"], "0907", Reads()) == (8 + 3, True)
    crooked = play(play(position({"0904": ["CHV"], "0907": ["FDr"]}), "0904 0804 0805 0906"), "attack 0906 0907")
    assert attack_total(crooked, ["0906"], "0907", Reads()) == (8, False)  # the route turned: no charge
    monk = play(play(position({"0904": ["MCh"], "0907": ["FDr"]}, active="moines"), "0904 0906"), "attack 0906 0907")
    assert attack_total(monk, ["0906"], "0907", Reads()) == (4, False)


def test_combat_retreat_into_woods_eliminates() -> None:
    # FCh on the coast at 0207: every hex farther from 0307 is sea or woods
    r = position({"0207": ["FCh"], "0407": ["DRA"]}, active="dragons")
    r = play(play(r, "0407 0307"), "attack 0307 0207")
    # 6 against 3: column 2, die 4 gives DR
    after, found = events(r, "resolve", 4)
    assert "eliminated" in found and "0207" not in after.board and after.eliminated == {"FCh": 1}
    # on open plain the same result is a plain retreat
    r = position({"0907": ["FCh"], "1007": ["DRA"]}, active="dragons")
    after, found = events(play(r, "attack 1007 0907"), "resolve", 4)
    assert "retreat" in found and "eliminated" not in found


# ---- TIRS: flèches, flammes, visions --------------------------------------------------------


def test_fantarchers_arrows_fly_along_hex_rows_only() -> None:
    s = position({"0904": ["ACh"], "0908": ["FDr"], "1107": ["FDr"]})
    assert codes(s, "arrow 0904 0908") == ()
    assert "not-straight" in codes(s, "arrow 0904 1107")
    after, found = events(play(s, "arrow 0904 0908"), "resolve", 4)  # 4 hexes: hit on 4
    assert "arrow" in found and "0908" not in after.board


def test_dragons_flames_add_up_and_flame_throwers_stay_put() -> None:
    s = position({"2606": ["DRA"], "2608": ["LFl"], "2609": ["FCh"]}, active="dragons")
    s = play(s, "flame 2606 2609")
    s = play(s, "flame 2608 2609")
    assert "already-engaged" in codes(s, "2608 2708")  # a flame-thrower burns at the end of its move
    assert codes(s, "2606 2506") == ()  # a dragon may burn, then move
    after, found = events(s, "resolve", 2)  # one die for both: 2 + 1 at distance 1 (need 2): hit
    assert "flames" in found and "2609" not in after.board


def test_la_conquete_shots_never_touch_a_city() -> None:
    s = position(
        {"0906": ["ACh"]},
        active="chevaliers",
        cities={
            "0908": {"owner": "dragons", "founder": "chevaliers"},
            "0505": {"owner": "chevaliers", "founder": "chevaliers"},
        },
    )
    assert "city-immune" in codes(s, "arrow 0906 0908")


def test_moines_illusionnistes_vision_forces_a_retreat() -> None:
    s = position({"0905": ["ILL"], "0907": ["FCh"]}, active="moines")
    after, found = events(play(s, "vision 0905 0907"), "resolve", 6)  # 6 - 1 = 5: R2
    assert "vision" in found and "0907" not in after.board
    assert any(stack == ("FCh",) for stack in after.board.values())


# ---- MOINES ---------------------------------------------------------------------------------


def test_moines_vanish_then_reappear_next_month_within_the_move() -> None:
    s = position({"0907": ["MOI"], "0606": ["FDr"]}, active="moines")
    s = play(s, "vanish 0907")
    assert "0907" not in s.board and s.vanished == {"0907": ("MOI", 1)}
    assert "vanished-now" in codes(s, "appear 0907 0909")
    for _ in range(4):
        s = play(s, "resolve")
    assert s.active == "moines" and s.month == 2
    assert "appear-far" in codes(s, "appear 0907 1707")
    s = play(s, "appear 0907 0909")
    assert s.board["0909"] == ("MOI",) and s.vanished == {}
    assert codes(s, "0909 0910") == ()  # free to move at once


# ---- ESCORTES -------------------------------------------------------------------------------


def test_escortes_the_escort_takes_the_attack_and_the_escorted_has_no_power() -> None:
    s = position({"0907": ["FCh", "ACh"], "0909": ["FDr"]})
    assert "escorted-power" in codes(s, "arrow 0907 0909")
    d = position({"0907": ["FCh", "CHV"], "1007": ["DRA"]}, active="dragons")
    d = play(d, "attack 1007 0907")
    assert attack_total(d, ["1007"], "0907", Reads())[0] == 6
    after, found = events(d, "resolve", 6)  # DRA 6 against the escort's 3: die 6: DE
    assert found.count("eliminated") >= 1
    assert after.eliminated.get("FCh") == 1
    assert "0907" not in after.board  # the knight retreated its whole move (or died on the way)


def test_escortes_put_on_and_taken_off() -> None:
    s = position({"0907": ["FCh", "CHV"]})
    s = play(s, "FCh 0907 0905")
    assert s.board["0907"] == ("CHV",) and s.board["0905"] == ("FCh",)
    assert codes(s, "0907 1007") == ()  # the knight acts at once


# ---- LA CONQUÊTE D'UNE VILLE ---------------------------------------------------------------


def _sealed_city(garrison: list[str]) -> tuple:  # type: ignore[type-arg]
    made = Seal.make("dragons", "garrison-0908", garrison, salt=bytes(16))  # type: ignore[arg-type]
    cities = {
        "0908": {"owner": "dragons", "founder": "chevaliers", "garrison": None, "commitment": made.public.digest},
        "0505": {"owner": "chevaliers", "founder": "chevaliers"},
        "2503": {"owner": "dragons", "founder": "dragons"},
    }
    return made, cities


def _reveal(made: Seal, claimed: object) -> str:
    return f"reveal dragons garrison-0908 {made.salt.hex()} {canonical(claimed).decode()}"  # type: ignore[arg-type]


def test_la_conquete_garrison_revealed_when_attacked() -> None:
    made, cities = _sealed_city(["FDr", "FDr"])
    s = position({"0907": ["CHV"], "1008": ["FCh"]}, cities=cities)
    s = play(play(s, "attack 0907 0908"), "attack 1008 0908")
    s = play(s, "resolve")
    assert s.phase is Phase.REVEAL and GAME.to_act(s) == "dragons"
    assert GAME.legal_actions(s) == []
    assert "secret-mismatch" in codes(s, _reveal(made, ["FDr"]))
    s = play(s, _reveal(made, ["FDr", "FDr"]))  # revealed; the assault follows at the next resolve
    assert s.cities["0908"].garrison == ("FDr", "FDr") and s.phase is Phase.RESOLVE
    assert "wrong-phase" in codes(s, "0907 0906")  # nothing else moves meanwhile
    after, found = events(s, "resolve", 6)
    assert "assault" in found and after.cities["0908"].owner == "chevaliers"


def test_la_conquete_a_fifth_garrison_counter_is_refused() -> None:
    made, cities = _sealed_city(["FDr"] * 5)
    s = position({"0907": ["CHV"]}, cities=cities)
    s = play(play(s, "attack 0907 0908"), "resolve")
    assert "garrison-too-big" in codes(s, _reveal(made, ["FDr"] * 5))


def test_la_conquete_too_few_besiegers_are_eliminated() -> None:
    made, cities = _sealed_city(["FDr", "FDr"])
    s = position({"0907": ["CHV"]}, cities=cities)
    s = play(play(play(s, "attack 0907 0908"), "resolve"), _reveal(made, ["FDr", "FDr"]))
    after, found = events(s, "resolve")
    assert "besiegers-too-few" in found and "0907" not in after.board


def test_la_conquete_an_empty_city_falls() -> None:
    s = position(
        {"0907": ["FCh"]},
        cities={
            "0908": {"owner": "dragons", "founder": "chevaliers"},
            "0505": {"owner": "chevaliers", "founder": "chevaliers"},
            "2503": {"owner": "dragons", "founder": "dragons"},
        },
    )
    after, found = events(play(s, "attack 0907 0908"), "resolve")
    assert "city-taken" in found and after.cities["0908"].owner == "chevaliers"
    assert city_counts(after)["chevaliers"] == 2


def test_la_conquete_seals_only_in_set_up() -> None:
    s = position({"0907": ["FCh"]})
    made = Seal.make("chevaliers", "garrison-0505", ["FCh"])
    assert "wrong-phase" in codes(s, f"seal chevaliers garrison-0505 {made.public.digest}")


# ---- notation, positions --------------------------------------------------------------------


def test_notation_french_and_italian_words() -> None:
    s = position({"0907": ["CHV"], "0908": ["FDr"]})
    assert GAME.parse(s, "attaque 0907 0908") == GAME.parse(s, "attacca 0907 0908") == GAME.parse(s, "attack 0907 0908")
    assert GAME.parse(s, "résoudre").text() == "resolve"
    assert GAME.parse(s, "alleanza draghi").text() == "ally dragons"
    assert GAME.parse(s, "fantassin 0907 0906").text() == "FCh 0907 0906"
    with language("fr"):
        assert GAME.grammar is not None and GAME.grammar.say("attack 0907 0908") == "attaque 0907 0908"


def test_notation_unknown_counter_or_hex_suggests() -> None:
    s = fresh("players 4 chevaliers:1 dragons:2 ailes:3 moines:4")
    with pytest.raises(UnknownNameError, match="FCh"):
        GAME.parse(s, "FCx 0907")
    with pytest.raises(UnknownNameError, match="hex"):
        GAME.parse(s, "FCh 9999")
    with pytest.raises(NotationError, match="attack"):
        GAME.parse(s, "atack 0907 0908")


def test_position_files_refuse_impossible_positions() -> None:
    with pytest.raises(PositionError, match=r"board\.0907"):
        position({"0907": ["CHV", "SOR"]})
    with pytest.raises(PositionError, match="sea"):
        position({"0101": ["FCh"]})
    with pytest.raises(PositionError, match="garrison"):
        position({}, cities={"0908": {"owner": "dragons", "founder": "chevaliers", "garrison": ["FCh"]}})
    s = position({"0907": ["FCh", "CHV"], "0908": ["FDr"]}, attacks={"0908": ["0907"]})
    back = GAME.from_position(TABLES, GAME.to_position(s).model_dump(mode="json"), "again")
    assert GAME.to_position(back) == GAME.to_position(s)


def test_odds_enumerate_every_die_face() -> None:
    s = position({"0907": ["CHV"], "0908": ["FDr"]})
    odds = GAME.odds(s, "attack 0907 0908")
    assert odds.attack == 8 and odds.defence == 2
    from fractions import Fraction

    assert sum(Fraction(v) for v in odds.chances.values()) == 1
    shot = GAME.odds(position({"0904": ["ACh"], "0908": ["FDr"]}), "arrow 0904 0908")
    assert shot.chances == {"hit": "1/2", "missed": "1/2"}


def test_resolve_pending_in_umpire_mode() -> None:
    s = position({"0907": ["CHV"], "0908": ["FDr"]}, attacks={"0908": ["0907"]}, acted=["0907:CHV"])
    after, res = GAME.resolve_pending(s, PhysicalDice([6]))
    assert "0908" not in after.board and any(e.code == "combat" for e in res.events)


def test_position_declared_attacks_are_judged_as_actions() -> None:
    with pytest.raises(PositionError, match=r"attacks\.0909.*not-adjacent"):
        position({"0907": ["CHV"], "0909": ["FDr"]}, attacks={"0909": ["0907"]})
    with pytest.raises(PositionError, match=r"shots\[0\].*not-straight"):
        position({"0904": ["ACh"], "1107": ["FDr"]}, shots=[{"kind": "arrow", "source": "0904", "target": "1107"}])
    s = position({"0907": ["CHV"], "0908": ["FDr"]}, attacks={"0908": ["0907"]})
    assert s.acted == ("0907:CHV",) and "acted-twice" in codes(s, "attack 0907 0908")


def test_mouvements_regles_particulieres_sea_only_by_cloud_bridges() -> None:
    s = position({"1806": ["FCh"]})
    assert "2108" in GAME.legal_report(s, "1806").moves  # the bridge is free: coast to coast
    assert "open-sea" in codes(s, "1806 1906")  # open sea
    flyer = position({"1806": ["AIL"]}, active="ailes")
    assert "1906" not in GAME.legal_report(flyer, "1806").moves  # fliers too keep off the sea


def test_mouvements_regles_particulieres_a_wood_costs_two() -> None:
    s = position({"0606": ["FCh"]})  # 4 points: 0506 is a wood (2), the next wood costs 2 more
    assert "0506" in GAME.legal_report(s, "0606").moves
    from referee.games.zargo.paths import Mover
    from referee.games.zargo.paths import reach as search

    world = s.tables.world
    three = search(world, Mover(world.grid.parse("0706"), 3), surroundings(s, ("FCh",)))
    assert world.grid.parse("0506") in three.ends  # 0606 (1) then the wood (2): three points
    two = search(world, Mover(world.grid.parse("0706"), 2), surroundings(s, ("FCh",)))
    assert world.grid.parse("0506") not in two.ends  # one point left after 0606: the wood is shut


def test_combat_the_zone_lapses_while_its_counter_is_attacked() -> None:
    s = position({"0906": ["FCh"], "0807": ["CHV"], "0908": ["FDr"]})
    before = set(GAME.legal_report(s, "0906").moves)
    s = play(s, "0807 0808")
    s = play(s, "attack 0808 0908")  # the dragon foot soldier is under attack: its zone is gone
    after = set(GAME.legal_report(s, "0906").moves)
    gained = after - before
    assert gained and all(codes(s, f"0906 {h}") == () for h in gained)


def test_la_carte_lettered_edges_join_left_and_right() -> None:
    s = position({"3613": ["FMo"]}, active="moines")
    assert "0113" in GAME.legal_report(s, "3613").moves or "0112" in GAME.legal_report(s, "3613").moves


def test_escortes_the_escorted_follows_the_escort_s_retreat() -> None:
    r = position({"0907": ["FCh", "CHV"], "1007": ["DRA"]}, active="dragons")
    after, found = events(play(r, "attack 1007 0907"), "resolve", 4)  # 6 against 3: DR
    assert "retreat" in found
    assert [h for h, st in after.board.items() if st == ("FCh", "CHV")]


def test_serpents_carry_on_along_the_line_past_a_beaten_enemy() -> None:
    s = position({"0904": ["SER"], "0907": ["FCh"], "0909": ["FCh"]}, active="dragons")
    s = play(play(s, "0904 0905 0906"), "attack 0906 0907")  # two hexes straight south, four points left
    paused, found = events(s, "resolve", 6)  # 4 against 3, die 6: DE; the Serpent may carry on
    assert "serpent-may-carry-on" in found and paused.phase is Phase.RESOLVE
    assert {a.text() for a in GAME.legal_actions(paused)} == {"carry", "resolve"}
    again, found = events(paused, "carry", 6)  # on over 0907 and 0908, then at 0909: DE
    assert found.count("serpent-charge") == 1 and again.eliminated == {"FCh": 2}
    after, _found = events(again, "carry")  # past both, to the end of its move
    assert after.board == {"0910": ("SER",)} and after.active == "ailes"
    stopped, found = events(paused, "resolve")  # the player's choice: it stops there
    assert "serpent-stops" in found and stopped.board["0906"] == ("SER",) and stopped.active == "ailes"
    crooked = position({"0904": ["SER"], "0907": ["FCh"], "0909": ["FCh"]}, active="dragons")
    crooked = play(play(crooked, "0904 0804 0805 0906"), "attack 0906 0907")
    after, found = events(crooked, "resolve", 6)
    assert "serpent-may-carry-on" not in found and after.board["0906"] == ("SER",)


def test_an_older_rules_file_gains_only_the_new_readings() -> None:
    from referee.games.zargo.tables import load_tables
    from referee.tables import TableSet

    texts = dict(TABLES.texts())
    rules = texts["rules.yaml"]
    cut = rules.index("  - id: serpent-line")
    older = rules[:cut].replace("choice: shared-victory", "choice: draw")
    tables = load_tables(TableSet.from_texts("zargo", {**texts, "rules.yaml": older}, "older"))
    assert tables.choice("serpent-line") == "straight-on-plain" and tables.choice("most-cities-tie") == "draw"
