"""Zargo's Lords data ahead of the engine: the world map file, its checker, and the tables' shape.

Test names follow the rulebook's printed headings ("LA CARTE", "LES PIONS DU JEU", ...).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from referee.errors import InputFileError
from referee.games.zargo.tables import PeoplesFile, TablesFile
from referee.games.zargo.world import MapFile, Terrain, check_world, load_world, parse_world
from referee.tables import data_root

TABLES = data_root("tables") / "zargo"
ROOT = Path(__file__).resolve().parents[3]


def shipped() -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((TABLES / "map.yaml").read_text(encoding="utf-8"))


# ---- LA CARTE ---------------------------------------------------------------------------------


def test_la_carte_shipped_world_has_four_continents_bridges_and_wrap_letters() -> None:
    world = load_world(str(TABLES / "map.yaml"))
    assert world.provenance == "provisional"
    assert sorted(world.continents) == ["1", "2", "3", "4"]
    for key in world.continents:
        land = world.hexes_of(key)
        assert len(land) > 40
        # each continent is one piece, counting the lettered edges (never a cloud bridge)
        reached = world.grid.search(land[0], world.grid.size, lambda c, k=key: world.continent[c] == k,
                                    lambda c: True).distance
        assert set(reached) == set(land), f"continent {key} is in pieces"
    assert {Terrain.WOODS, Terrain.MOUNTAINS, Terrain.CHASM} <= set(world.terrain)
    assert len(world.bridges) >= 4 and len(world.wrap) >= 1


def test_la_carte_bridges_join_coasts_of_different_continents_across_the_sea() -> None:
    world = load_world(str(TABLES / "map.yaml"))
    for a, b in world.bridges:
        assert world.coastal(a) and world.coastal(b)
        assert world.continent[a] != world.continent[b]
        assert b in world.grid.neighbours(a)  # a bridge is a link of the board
        assert world.grid.distance(a, b) > 1


def test_la_carte_a_lettered_edge_joins_the_other_side() -> None:
    world = load_world(str(TABLES / "map.yaml"))
    letter = sorted(world.wrap)[0]
    left, right = world.wrap[letter]
    assert right in world.grid.neighbours(left)
    assert world.grid.distance(left, right) == world.grid.cols - 1


def test_la_carte_same_only_reading_joins_fewer_hexes() -> None:
    both = load_world(str(TABLES / "map.yaml"))
    same = load_world(str(TABLES / "map.yaml"), reading="same-only")
    links = lambda w: sum(len(w.grid.neighbours(c)) for c in w.grid.cells())  # noqa: E731
    assert links(same) < links(both)


def test_the_shipped_map_is_what_the_generator_writes() -> None:
    made = subprocess.run([sys.executable, str(ROOT / "tools" / "make_zargo_map.py")],
                          capture_output=True, text=True, check=True).stdout
    assert made == (TABLES / "map.yaml").read_text(encoding="utf-8")


def broken(**changes: object) -> dict:  # type: ignore[type-arg]
    data = shipped()
    data.update(changes)
    return data


def test_map_check_lists_every_problem_one_line_each() -> None:
    data = broken(bridges=[["0101", "0102"], ["0105", "9999"]], wrap={"A": ["0512", "3612"]})
    rows = data["grid"].splitlines()
    rows[5] = rows[5].replace(".1", ".7", 1)
    data["grid"] = "\n".join(rows)
    problems, world = check_world("map.yaml", MapFile.model_validate(data))
    assert world is None
    assert all("\n" not in p and p.startswith("map.yaml: ") for p in problems)
    text = " | ".join(problems)
    assert "land on no continent" in text
    assert "is sea; a bridge runs from coast to coast" in text
    assert "unknown hex '9999'" in text
    assert "not on the left edge" in text
    with pytest.raises(InputFileError) as info:
        parse_world("map.yaml", data)
    assert "more; `referee map check` lists them" in str(info.value)


def test_map_check_refuses_a_bridge_over_land_and_an_inland_end() -> None:
    world = load_world(str(TABLES / "map.yaml"))
    inland = next(c for c in world.hexes_of("1") if not world.coastal(c))
    _a, b = world.bridges[0]
    data = broken(bridges=[[world.grid.name(inland), world.grid.name(b)]])
    problems, _ = check_world("map.yaml", MapFile.model_validate(data))
    assert any("is inland" in p for p in problems)


def test_map_file_schema_errors_name_the_field() -> None:
    with pytest.raises(InputFileError) as info:
        parse_world("map.yaml", broken(layout={"cols": 300, "rows": 2}))
    assert str(info.value).startswith("map.yaml: layout.cols:")
    with pytest.raises(InputFileError):
        parse_world("map.yaml", ["not", "a", "mapping"])


def test_referee_map_check_cli(tmp_path: Path) -> None:
    exe = [sys.executable, "-m", "referee"]
    ok = subprocess.run([*exe, "map", "check", str(TABLES / "map.yaml")], capture_output=True, text=True)
    assert ok.returncode == 0 and "4 continents" in ok.stdout and ok.stderr == ""
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(broken(bridges=[["0101", "0102"]], wrap={"A": ["0512", "3612"]})), encoding="utf-8")
    result = subprocess.run([*exe, "map", "check", str(bad)], capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) >= 3
    assert bad.read_text(encoding="utf-8")  # untouched, still there


# ---- LES PIONS DU JEU and the reconstruction's constraints (public accounts) -------------------------


def peoples() -> PeoplesFile:
    return PeoplesFile.model_validate(yaml.safe_load((TABLES / "peoples.yaml").read_text(encoding="utf-8")))


def test_les_pions_du_jeu_manifest_matches_the_rulebook() -> None:
    data = peoples()
    per_people = {name: p.manifest() for name, p in data.peoples.items()}
    assert per_people == {"chevaliers": 54, "ailes": 59, "dragons": 66, "moines": 68}
    assert sum(per_people.values()) == 247
    assert sum(len(p.counters) for p in data.peoples.values()) == 16


def test_comment_on_joue_turn_order() -> None:
    order = sorted(peoples().peoples.items(), key=lambda kv: kv[1].order)
    assert [name for name, _ in order] == ["chevaliers", "dragons", "ailes", "moines"]


def test_reconstruction_knights_strongest_hand_to_hand_winged_best_movers() -> None:
    data = peoples().peoples
    lords = {name: max(c.combat for c in p.counters.values() if c.is_lord) for name, p in data.items()}
    assert lords["chevaliers"] > max(v for k, v in lords.items() if k != "chevaliers")
    foot = {name: p.counters["fantassin"].combat for name, p in data.items()}
    assert foot["chevaliers"] > max(v for k, v in foot.items() if k != "chevaliers")
    flyers = [c.move for c in data["ailes"].counters.values() if c.kind == "flyer"]
    others = [c.move for name, p in data.items() if name != "ailes" for c in p.counters.values()]
    assert min(flyers) > max(others)


def test_reconstruction_shots_tables_fit_what_is_known() -> None:
    tables = TablesFile.model_validate(yaml.safe_load((TABLES / "tables.yaml").read_text(encoding="utf-8")))
    assert tables.provenance == "provisional"
    assert tables.arrows.max_range == 8 and tables.flames.max_range == 5
    assert any(r.startswith("R") for r in tables.visions.results.values())
    assert tables.combat.by is None and len(tables.combat.odds_columns) == len(tables.combat.columns)
    assert tables.combat.column(tables.combat.minimum_difference - 1, 0) is None


def test_tables_schema_refuses_a_farther_target_easier_to_hit() -> None:
    raw = yaml.safe_load((TABLES / "tables.yaml").read_text(encoding="utf-8"))
    raw["arrows"]["hit_on"][8] = 2
    with pytest.raises(ValueError, match="farther target"):
        TablesFile.model_validate(raw)


def test_rules_index_is_valid_and_every_interpretation_cites_a_section() -> None:
    from referee.rulings import RulesIndex

    index = RulesIndex.model_validate(yaml.safe_load((TABLES / "rules.yaml").read_text(encoding="utf-8")))
    for item in index.interpretations:
        assert item.options and item.choice in item.options
        assert all(cite in index.sections for cite in item.cites), item.id
