"""Zargo combat arithmetic, named after the rulebook's paragraphs."""

from __future__ import annotations

import yaml

from referee.games.zargo.combat import charge_bonus, combat_result
from referee.games.zargo.paths import hex_direction
from referee.games.zargo.shots import shot_hits
from referee.games.zargo.tables import RESULT_ORDER, TablesFile
from referee.geometry import HexGrid
from referee.tables import data_root

TABLES = TablesFile.model_validate(yaml.safe_load((data_root("tables") / "zargo" / "tables.yaml").read_text("utf-8")))


def test_combat_regles_generales_by_difference_and_one_die() -> None:
    combat = TABLES.combat
    assert combat_result(combat, 5, 5, 6, "difference") == combat.results["0"][5]
    assert combat_result(combat, 9, 2, 1, "difference") == combat.results["6"][0]
    assert combat_result(combat, 2, 5, 3, "difference") is None  # below the minimum difference: not allowed
    # by odds (rules.yaml combat-by-difference): 8 against 4 is 2:1, the fourth column
    assert combat_result(combat, 8, 4, 1, "odds") == combat.results[str(combat.columns[3])][0]
    assert combat_result(combat, 1, 9, 6, "odds") is None


def test_combat_a_bigger_difference_never_hurts_the_attacker() -> None:
    for defence in range(0, 8):
        for attack in range(defence + TABLES.combat.minimum_difference, 20):
            for die in range(1, 7):
                worse = combat_result(TABLES.combat, attack, defence, die, "difference")
                better = combat_result(TABLES.combat, attack + 1, defence, die, "difference")
                assert worse is not None and better is not None
                assert RESULT_ORDER.index(better) >= RESULT_ORDER.index(worse)


def test_fleches_and_flammes_distance_against_the_die() -> None:
    arrows, flames = TABLES.arrows, TABLES.flames
    assert not shot_hits(arrows, 9, 6) and not shot_hits(flames, 6, 6)  # out of range
    assert shot_hits(arrows, 1, arrows.hit_on[1])
    assert not shot_hits(arrows, 1, arrows.hit_on[1] - 1)
    assert shot_hits(arrows, 8, arrows.hit_on[8] - 1, modifier=1)  # modifiers add to the roll
    near = sum(shot_hits(arrows, 1, face) for face in range(1, 7))
    assert near >= sum(shot_hits(arrows, 8, face) for face in range(1, 7))


def test_arrows_fly_along_the_six_hex_rows_only() -> None:
    g = HexGrid(12, 12)
    a = g.parse("0505")
    assert hex_direction(g, a, g.parse("0501")) == 0  # straight north
    assert hex_direction(g, a, g.parse("0509")) == 3  # straight south
    along = g.parse("0505")
    for _ in range(3):
        nxt = g.step(along, 1)
        assert nxt is not None
        along = nxt
    assert hex_direction(g, a, along) == 1  # three steps north-east
    assert hex_direction(g, a, g.parse("0706")) == 2  # two steps south-east
    assert hex_direction(g, a, g.parse("0705")) is None  # between the north-east and south-east rows


def test_detail_des_capacites_chevaliers_charge_front_and_flank() -> None:
    g = HexGrid(12, 12)
    path = [g.parse("0508"), g.parse("0507"), g.parse("0506")]  # straight north
    line = "of-the-charge-line"
    assert charge_bonus(g, path, g.parse("0505"), line) == 3  # straight ahead
    assert charge_bonus(g, path, g.parse("0605"), line) == 1  # beside, at an angle
    assert charge_bonus(g, path, g.parse("0605"), "forward-arc") == 3  # ahead at an angle: front for that reading
    assert charge_bonus(g, path, g.parse("0507"), line) == 0  # behind: not a charge at it
    bent = [g.parse("0508"), g.parse("0507"), g.parse("0606")]
    assert charge_bonus(g, bent, g.parse("0605"), line) == 0  # the move turned: no charge
    assert charge_bonus(g, [g.parse("0506")], g.parse("0505"), line) == 0  # no move, no charge
