"""Movimento (allowances, direction, counters, terrain) and Combattimento: regole generali (zones).

Squares refer to the sample map (tables/iliad/map.yaml): rows H-K are open plain, the
Scamander runs down column 10, mountains fill the lower left corner, the wall (built on day 2)
rings the camp C12-F25 along row G and columns 11 and 26.
"""

from __future__ import annotations

from pathlib import Path

from .helpers import choose, codes, judge, play, position, sections

H2 = {"day": 1, "hour": 2}  # an hour with no duel and no god advantage


def test_movimento_value_one_moves_six_heroes_ten() -> None:
    state = position(**H2, counters={"Macaone": "I15", "Diomede": "J12", "Teucro": "K12", "Ettore": "S20"})
    assert judge(state, "Macaone I21").legal
    verdict = judge(state, "Macaone I22")
    assert codes(verdict) == ["too-far"] and "Movimento" in sections(verdict)
    assert judge(state, "Diomede J22").legal
    assert codes(judge(state, "Diomede J23")) == ["too-far"]
    assert judge(state, "Teucro K18").legal  # an archer moves as a value-1 counter
    assert codes(judge(state, "Teucro K19")) == ["too-far"]


def test_movimento_regole_generali_diagonal_steps_count_one(tmp_path: Path) -> None:
    fields = {**H2, "counters": {"Macaone": "H12", "Ettore": "S20"}}
    verdict = judge(position(**fields), "Macaone M17")  # five diagonal steps
    assert verdict.legal
    assert any("diagonal-movement: orthogonal-and-diagonal" in p for p in verdict.provisional)
    orthogonal = position(choose(tmp_path, "diagonal-movement", "orthogonal-only"), **fields)
    assert codes(judge(orthogonal, "Macaone M17")) == ["too-far"]
    assert judge(orthogonal, "Macaone K15").legal  # 3 + 3 orthogonal steps


def test_movimento_regole_generali_no_passing_through_or_stopping_on_counters() -> None:
    ring = {"Podalirio": "H14", "Eurialo": "H15", "Peneleo": "H16", "Fenice": "I14", "Automedonte": "I16",
            "Agapenore": "J14", "Nestore": "J15", "Stenelo": "J16"}
    state = position(**H2, counters={"Macaone": "I15", **ring, "Ettore": "S20"})
    verdict = judge(state, "Macaone I19")
    assert codes(verdict) == ["counters-in-the-way"] and "Movimento: regole generali" in sections(verdict)
    assert codes(judge(state, "Macaone I16")) == ["square-occupied"]


def test_movimento_regole_generali_each_counter_moves_once_and_only_on_its_side() -> None:
    state = position(**H2, counters={"Macaone": "I15", "Ettore": "S20"})
    moved = play(state, "Macaone I18")
    assert codes(judge(moved, "Macaone I20")) == ["already-moved"]
    assert codes(judge(moved, "Ettore R17")) == ["not-your-move"]


def test_movimento_regole_particolari_sea_is_closed_except_land_and_sea() -> None:
    state = position(**H2, counters={"Macaone": "E28", "Ettore": "S20"})
    assert judge(state, "Macaone D28").legal  # land-and-sea
    verdict = judge(state, "Macaone C28")
    assert codes(verdict) == ["sea"] and sections(verdict) >= {"Movimento: regole particolari", "La mappa"}


def test_movimento_regole_particolari_a_river_square_ends_the_move() -> None:
    state = position(**H2, counters={"Diomede": "H12", "Ettore": "S20"})
    assert judge(state, "Diomede H10").legal  # on the Scamander
    verdict = judge(state, "Diomede H8")  # across it in one move
    assert codes(verdict) == ["must-stop"] and "Movimento: regole particolari" in sections(verdict)
    on_river = position(**H2, counters={"Diomede": "H10", "Ettore": "S20"})
    assert judge(on_river, "Diomede H2").legal  # the next move goes on normally


def test_movimento_regole_particolari_a_mountain_square_costs_two() -> None:
    state = position(**H2, counters={"Macaone": "S10", "Podalirio": "R9", "Ettore": "V20"})
    assert judge(state, "Macaone S5").legal  # 4 plain squares + 1 mountain square = 6 points
    verdict = judge(state, "Macaone S4")  # one more mountain square: 8 points
    assert codes(verdict) == ["too-far"] and "2" in verdict.violations[0].message
    last_point = position(**H2, counters={"Macaone": "S11", "Ettore": "V20"})
    assert codes(judge(last_point, "Macaone S5")) == ["too-far"]  # 5 points spent, 1 left: not enough


def test_movimento_regole_particolari_the_wall_stops_moves_once_built() -> None:
    before = position(day=1, hour=2, counters={"Diomede": "H15", "Ettore": "S20"})
    assert judge(before, "Diomede E15").legal  # day 1: the wall squares are open ground
    built = position(day=2, hour=2, counters={"Diomede": "H15", "Ettore": "S20"})
    assert built.wall
    verdict = judge(built, "Diomede E15")
    assert codes(verdict) == ["must-stop"]
    assert judge(built, "Diomede G15").legal


def test_combattimento_regole_generali_entering_a_zone_stops_and_attacks() -> None:
    state = position(**H2, counters={"Macaone": "J14", "Cebrione": "J17", "Ettore": "S20"})
    verdict = judge(state, "Macaone J16")
    assert verdict.legal
    assert [n.code for n in verdict.notes] == ["route", "attack"]
    after = play(state, "Macaone J16")
    assert [(a.attacker, a.targets) for a in after.attacks] == [("Macaone", ("Cebrione",))]
    diagonal = judge(state, "Macaone I16")  # diagonal to the enemy: outside its zone
    assert diagonal.legal and [n.code for n in diagonal.notes] == ["route"]


def test_combattimento_regole_generali_a_zone_cannot_be_crossed() -> None:
    line = {"Mestle": "H17", "Cebrione": "J17", "Ennomo": "L17", "Ettore": "S20"}
    state = position(**H2, counters={"Macaone": "J14", **line})
    verdict = judge(state, "Macaone J20")
    assert codes(verdict) == ["zone-of-control"]
    assert sections(verdict) == {"Combattimento: regole generali"}


def test_combattimento_regole_generali_must_attack_every_enemy_not_yet_attacked() -> None:
    state = position(**H2, counters={"Macaone": "J14", "Mestle": "H17", "Cebrione": "J17", "Ettore": "S20"})
    assert judge(state, "Macaone I17").legal  # both attacked by default
    assert play(state, "Macaone I17").attacks[0].targets == ("Mestle", "Cebrione")
    verdict = judge(state, "Macaone I17 x Cebrione")
    assert codes(verdict) == ["must-attack"]


def test_combattimento_regole_generali_engaged_enemies_free_their_zones() -> None:
    line = {"Mestle": "H17", "Cebrione": "J17", "Ennomo": "L17", "Ettore": "S20"}
    helpers = {"Podalirio": "G16", "Eurialo": "J15", "Peneleo": "L15"}
    state = position(**H2, counters={"Macaone": "J14", **line, **helpers})
    engaged = play(state, "Podalirio G17", "Eurialo J16", "Peneleo L16")
    assert {t for a in engaged.attacks for t in a.targets} == {"Mestle", "Cebrione", "Ennomo"}
    assert judge(engaged, "Macaone J20").legal  # may now pass through their zones
    # Figure 3: attack one enemy from a square another (already engaged) enemy also controls.
    fig3 = play(state, "Podalirio G17")
    assert judge(fig3, "Macaone I17 x Cebrione").legal
    assert play(fig3, "Macaone I17").attacks[-1].targets == ("Cebrione",)
    joined = play(fig3, "Macaone I17 x Cebrione, Mestle")
    assert joined.attacks[-1].targets == ("Cebrione", "Mestle")


def test_combattimento_regole_generali_no_zone_across_the_wall() -> None:
    state = position(day=2, hour=2, side="trojan", counters={"Cebrione": "H15", "Macaone": "F15", "Ettore": "S20"})
    verdict = judge(state, "Cebrione G15")  # beside Macaone, but on the wall
    assert verdict.legal and not play(state, "Cebrione G15").attacks
    assert codes(judge(state, "Cebrione G15 x Macaone")) == ["not-in-zone"]


def test_combattimento_regole_generali_attack_without_moving() -> None:
    state = position(**H2, counters={"Diomede": "J15", "Ettore": "J16"})
    verdict = judge(state, "Diomede x Ettore")
    assert verdict.legal and any("attack-in-place" in p for p in verdict.provisional)
    assert play(state, "Diomede x Ettore").attacks[0].targets == ("Ettore",)
    wounded = position(**H2, counters={"Diomede": "J15", "Ettore": "J16"}, wounded=["Diomede"])
    assert codes(judge(wounded, "Diomede x Ettore")) == ["wounded"]
    assert codes(judge(state, "Diomede x Glauco")) == ["target-gone"]
