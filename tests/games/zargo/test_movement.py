"""Zargo movement, named after the rulebook's paragraphs ("MOUVEMENTS — RÈGLES GÉNÉRALES" and
"— RÈGLES PARTICULIÈRES", "COMBAT — RÈGLES GÉNÉRALES" for zones, "DÉTAIL DES CAPACITÉS — AILÉS")."""

from __future__ import annotations

from referee.games.zargo.paths import Mover, Surroundings, blocked, reach, walk
from referee.games.zargo.world import World, parse_world


def world(
    rows: list[str], bridges: tuple[tuple[str, str], ...] = (), wrap: dict[str, list[str]] | None = None
) -> World:
    cols = len(rows[0].split())
    data = {
        "name": "test", "layout": {"cols": cols, "rows": len(rows), "down": "even"},
        "continents": {"1": "West", "2": "East"}, "grid": "\n".join(rows),
        "bridges": [list(b) for b in bridges], "wrap": wrap or {},
    }
    return parse_world("test.yaml", data)


PLAIN = [" ".join([".1"] * 9) for _ in range(7)]


def ends(w: World, start: str, points: int, flies: bool = False, **around: frozenset[int]) -> set[str]:
    found = reach(w, Mover(w.grid.parse(start), points, flies), Surroundings(**around))
    return {w.grid.name(c) for c in found.ends}


def hexes(w: World, *names: str) -> frozenset[int]:
    return frozenset(w.grid.parse(n) for n in names)


def test_mouvements_regles_generales_any_direction_up_to_the_factor() -> None:
    w = world(PLAIN)
    got = ends(w, "0504", 2)
    expected = {w.grid.name(c) for c in w.grid.within(w.grid.parse("0504"), 2)} - {"0504"}
    assert got == expected and len(got) == 18


def test_mouvements_regles_generales_never_through_enemies_through_friends_no_stacking() -> None:
    w = world(PLAIN)
    wall = hexes(w, "0503", "0603", "0604", "0605", "0505", "0405", "0404", "0403")
    ringed = ends(w, "0504", 3, enemies=wall)
    assert ringed == set()
    friends = ends(w, "0504", 3, friends=wall)
    assert "0502" in friends and "0503" not in friends  # crossed, not ended on
    escort = ends(w, "0504", 3, friends=wall, stack_ok=hexes(w, "0503"))
    assert "0503" in escort


def test_mouvements_regles_particulieres_woods_cost_two() -> None:
    rows = list(PLAIN)
    rows[3] = ".1 .1 .1 .1 .1 w1 .1 .1 .1"  # 0604 is a wood
    w = world(rows)
    assert "0604" not in ends(w, "0504", 1)  # a last single point cannot enter a wood
    assert "0604" in ends(w, "0504", 2)
    refused = blocked(w, Mover(w.grid.parse("0504"), 1), Surroundings(), w.grid.parse("0604"))
    assert refused is not None and refused.code == "too-far"
    route = [w.grid.parse(h) for h in ("0404", "0504", "0604")]
    stated = walk(w, Mover(w.grid.parse("0404"), 2), Surroundings(), route)
    assert stated is not None and (stated.code, stated.step) == ("too-far", 2)  # the step that breaks the limit


def test_mouvements_regles_particulieres_sea_only_over_bridges_at_no_cost() -> None:
    rows = [".1 .1 ~~ ~~ ~~ .2 .2" for _ in range(5)]
    w = world(rows)
    assert not any(n.startswith("06") for n in ends(w, "0103", 9))
    bridged = world(rows, bridges=(("0203", "0603"),))
    got = ends(bridged, "0103", 2)
    assert "0603" in got  # one step to the coast, the bridge free, then...
    assert "0703" in got  # ...one more step beyond
    reason = blocked(w, Mover(w.grid.parse("0103"), 9), Surroundings(), w.grid.parse("0403"))
    assert reason is not None and reason.code == "open-sea"
    beyond = blocked(w, Mover(w.grid.parse("0103"), 9), Surroundings(), w.grid.parse("0603"))
    assert beyond is not None and beyond.code == "open-sea"  # land beyond the sea: the sea is what blocks


def test_mouvements_regles_particulieres_mountains_stop_at_the_foot_then_take_a_month() -> None:
    rows = list(PLAIN)
    rows[3] = ".1 .1 .1 .1 .1 m1 m1 .1 .1"  # 0604 and 0704 are mountains
    w = world(rows)
    far = ends(w, "0204", 6)
    assert "0504" in far and "0604" not in far  # the approach stops at the foot
    assert ends(w, "0504", 6) >= {"0604"}  # from the foot, climbing is the whole move
    climb = reach(w, Mover(w.grid.parse("0504"), 6), Surroundings())
    assert climb.path(w.grid.parse("0604")) == [w.grid.parse("0504"), w.grid.parse("0604")]
    assert "0704" in ends(w, "0604", 6) and "0804" not in ends(w, "0604", 1)  # along a range: one a month
    down = ends(w, "0604", 3)
    assert "0404" in down  # leaving is an ordinary move (rules.yaml mountain-descent)
    reason = blocked(w, Mover(w.grid.parse("0204"), 6), Surroundings(), w.grid.parse("0604"))
    assert reason is not None and reason.code == "mountain-foot"
    ridge = [" ".join([".1"] * 9) for _ in range(7)]
    ridge = [row[:12] + "m1" + row[14:] for row in ridge]  # column 05 is a range, top to bottom
    walled = world(ridge)
    behind = blocked(walled, Mover(walled.grid.parse("0304"), 6), Surroundings(), walled.grid.parse("0704"))
    assert behind is not None and behind.code == "mountain-foot"  # the range blocks, not the points


def test_mouvements_regles_particulieres_a_chasm_stops_the_counter() -> None:
    rows = list(PLAIN)
    rows[3] = ".1 .1 .1 .1 .1 g1 .1 .1 .1"
    w = world(rows)
    through = reach(w, Mover(w.grid.parse("0504"), 4), Surroundings())
    assert w.grid.parse("0604") in through.ends
    # nothing beyond is reached through the chasm: 0804 needs a detour around it
    assert through.states.distance[w.grid.parse("0804")] == 3
    assert all(w.grid.parse("0604") not in through.path(c)[:-1] for c in through.ends)


def test_combat_regles_generales_a_zone_is_entered_only_to_attack() -> None:
    w = world([" ".join([".1"] * 9) for _ in range(3)])  # a corridor three hexes wide
    enemy = w.grid.parse("0502")
    zone = frozenset(w.grid.neighbours(enemy))
    got = ends(w, "0102", 6, enemies=frozenset({enemy}), zones=zone)
    assert "0402" in got  # next to the enemy: the move ends there, to attack
    assert not got & {"0702", "0802", "0902"}  # never past it
    reason = blocked(w, Mover(w.grid.parse("0102"), 7), Surroundings(frozenset({enemy}), zones=zone),
                     w.grid.parse("0802"))
    assert reason is not None and reason.code == "zone"
    lapsed = ends(w, "0102", 7, enemies=frozenset({enemy}))  # the enemy is under attack: no zone
    assert "0802" in lapsed


def test_detail_des_capacites_ailes_fly_over_enemies_woods_and_mountains_not_sea_or_chasms() -> None:
    rows = [".1 m1 w1 .1 .1 ~~ .2" for _ in range(5)]
    rows[2] = ".1 m1 w1 g1 .1 ~~ .2"
    w = world(rows)
    enemy = hexes(w, "0203", "0202", "0204")
    zone = frozenset(n for e in enemy for n in w.grid.neighbours(e))
    flown = ends(w, "0103", 4, flies=True, enemies=enemy, zones=zone)
    assert "0503" in flown and "0303" in flown  # over the enemy line, the mountain and the wood
    assert "0203" not in flown  # it lands on no enemy
    assert not any(n.startswith("07") for n in flown)  # the sea stops it
    path = reach(w, Mover(w.grid.parse("0103"), 4, True), Surroundings(enemy, zones=zone)).path(w.grid.parse("0503"))
    assert w.grid.parse("0403") not in path[:-1]  # the chasm would have stopped it
    walked = ends(w, "0103", 4, enemies=enemy, zones=zone)
    assert "0503" not in walked


def test_la_carte_a_lettered_edge_carries_the_move_across() -> None:
    rows = [" ".join([".1"] * 6) for _ in range(4)]
    w = world(rows, wrap={"A": ["0102", "0602"], "B": ["0103", "0603"]})
    got = ends(w, "0102", 1)
    assert "0602" in got and "0603" in got  # the twin and the next letter (rules.yaml wrap-letters)


def test_mouvements_regles_particulieres_bridges_coast_to_coast_never_bridge_to_bridge() -> None:
    # three strips of land; 0403 is the end of two bridges (west 0103, east 0703)
    rows = [".1 ~~ ~~ .1 ~~ ~~ .2" for _ in range(5)]
    w = world(rows, bridges=(("0103", "0403"), ("0403", "0703")))
    one = ends(w, "0103", 1)
    assert "0403" in one and "0402" in one  # the first bridge is free, then a step on the coast
    assert "0703" not in one  # not straight off one bridge onto the next
    assert "0703" not in ends(w, "0103", 1, flies=True)  # fliers keep to the same air currents
    reason = blocked(w, Mover(w.grid.parse("0103"), 1), Surroundings(), w.grid.parse("0703"))
    assert reason is not None and reason.code == "bridge-chain"
    # stepping off onto the coast and back on land makes the second crossing coast to coast
    two = reach(w, Mover(w.grid.parse("0103"), 2), Surroundings())
    goal = w.grid.parse("0703")
    assert goal in two.ends
    path = [w.grid.name(c) for c in two.path(goal)]
    assert path[0] == "0103" and path[-1] == "0703" and path[1] == "0403" and path[-2] == "0403"
    assert len(path) == 5  # 0103, 0403 off the bridge, a coast step, back on 0403 by land, 0703
    # from the middle hex, by land, either bridge may be taken
    assert {"0103", "0703"} <= ends(w, "0403", 1)
