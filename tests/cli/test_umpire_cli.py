"""CLI: stateless umpire commands on position files, tables and schema."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from .conftest import Referee

EXAMPLE = {
    "game": "cyrus-pyxis",
    "active": "greek",
    "terrain": {"forest": ["C5", "D5"], "hill": ["F6"]},
    "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},
    "persian": {"Cyrus": "L6", "Amatonte": "B6"},
    "moved": ["Athéna"],
    "supports": {"Messène": "Athéna"},
}


def write(path: Path, data: object) -> Path:
    text = json.dumps(data) if path.suffix == ".json" else yaml.safe_dump(data, allow_unicode=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_judge_json_has_the_verdict_shape(referee: Referee) -> None:
    pos = write(referee.cwd / "pos.yaml", EXAMPLE)
    ok = json.loads(referee("judge", "cyrus-pyxis", "--position", str(pos), "Pyxis C6", "--json").out)
    assert ok["legal"] is True and ok["violations"] == []
    bad = referee("judge", "cyrus-pyxis", "--position", str(pos), "Pyxis A12", "--json")
    data = json.loads(bad.out)
    assert bad.code == 0 and data["legal"] is False
    assert data["violations"][0]["code"] == "too-far"
    assert data["violations"][0]["cites"] == [{"game": "cyrus-pyxis", "section": "V", "title": "Movement"}]


def test_judge_text_with_explain(referee: Referee) -> None:
    pos = write(referee.cwd / "pos.yaml", EXAMPLE)
    out = referee("judge", "cyrus-pyxis", "--position", str(pos), "Pyxis A12", "--explain").out
    assert "✗ illegal" in out and "§ V Movement:" in out


def test_legal_json(referee: Referee) -> None:
    pos = write(referee.cwd / "pos.yaml", EXAMPLE)
    data = json.loads(referee("legal", "cyrus-pyxis", "--position", str(pos), "Pyxis", "--json").out)
    assert "A7" in data["cells"] and "A6" not in data["cells"]
    archer = json.loads(referee("legal", "cyrus-pyxis", "--position", str(pos), "Messène", "--json").out)
    assert archer["supports"] == []  # Messène already supports Athéna this turn


def test_resolve_json(referee: Referee) -> None:
    pos = write(referee.cwd / "pos.json", EXAMPLE)
    data = json.loads(referee("resolve", "cyrus-pyxis", "--position", str(pos), "--json").out)
    result = data["results"][0]
    assert result["cell"] == "B6" and result["attacker"]["total"] == 4 and result["difference"] == 1
    assert result["outcome"] == "defender-retreats" and result["retreat"]["to"] == "B7"
    assert data["position"]["persian"]["Amatonte"] == "B7" and data["position"]["active"] == "persian"


def test_malformed_position_files_are_one_line(referee: Referee) -> None:
    broken = referee.cwd / "broken.yaml"
    broken.write_text("game: cyrus-pyxis\ngreek: {Athéna: B6\n", encoding="utf-8")
    result = referee("judge", "cyrus-pyxis", "--position", str(broken), "Athéna B7")
    assert result.code == 1 and "broken.yaml" in result.err and "YAML" in result.err
    assert len(result.err.strip().splitlines()) == 1
    stacked = write(referee.cwd / "stacked.yaml", {**EXAMPLE, "greek": {"Athéna": "B6", "Samos": "B6"}})
    result = referee("judge", "cyrus-pyxis", "--position", str(stacked), "Athéna B7")
    assert result.code == 1 and "stacked.yaml: greek.Samos:" in result.err
    typo = write(referee.cwd / "typo.yaml", {**EXAMPLE, "greek": {"Athna": "B6"}})
    result = referee("legal", "cyrus-pyxis", "--position", str(typo), "Athéna")
    assert result.code == 1 and "did you mean 'Athéna'" in result.err
    missing = referee("judge", "cyrus-pyxis", "--position", "nope.yaml", "Athéna B7")
    assert missing.code == 1 and "no such position file" in missing.err
    other = write(referee.cwd / "other.yaml", {**EXAMPLE, "game": "iliad"})
    assert referee("judge", "cyrus-pyxis", "--position", str(other), "Athéna B7").code == 1


def test_unknown_game_suggests(referee: Referee) -> None:
    result = referee("schema", "cyrus")
    assert result.code == 1 and "cyrus-pyxis" in result.err


def test_schema_is_json_schema(referee: Referee) -> None:
    schema = json.loads(referee("schema", "cyrus-pyxis").out)
    assert schema["title"] == "CyrusPosition" and "supports" in schema["properties"]


def test_tables_show_provenance_and_export(referee: Referee) -> None:
    out = referee("tables", "cyrus-pyxis").out
    assert "combat_values.csv" in out and "provisional" in out and "secondary" in out
    result = referee("tables", "export", "cyrus-pyxis", "mine")
    assert result.code == 0 and (referee.cwd / "mine" / "cyrus-pyxis" / "combat_results.csv").is_file()


def test_overriding_a_table_changes_the_ruling(referee: Referee) -> None:
    referee("tables", "export", "cyrus-pyxis", "mine")
    path = referee.cwd / "mine" / "cyrus-pyxis" / "combat_values.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("guard,any,3,3,3,provisional", "guard,any,5,5,5,rulebook"),
                    encoding="utf-8")
    pos = write(referee.cwd / "pos.yaml", EXAMPLE)
    data = json.loads(referee("resolve", "cyrus-pyxis", "--position", str(pos), "--tables", "mine", "--json").out)
    attacker = data["results"][0]["attacker"]
    assert attacker["total"] == 6 and attacker["base_provenance"] == "rulebook"
    assert "overridden by your --tables copy" in referee("tables", "cyrus-pyxis", "--tables", "mine").out


def test_malformed_table_is_one_line(referee: Referee) -> None:
    referee("tables", "export", "cyrus-pyxis", "mine")
    path = referee.cwd / "mine" / "cyrus-pyxis" / "movement.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("king,5,rulebook", "king,five,rulebook"), encoding="utf-8")
    pos = write(referee.cwd / "pos.yaml", EXAMPLE)
    result = referee("judge", "cyrus-pyxis", "--position", str(pos), "Pyxis C6", "--tables", "mine")
    assert result.code == 1
    assert "movement.csv: line 3 (king): max_squares:" in result.err  # the editor's line, comment counted
    assert len(result.err.strip().splitlines()) == 1


OPEN = {
    "game": "cyrus-pyxis", "active": "greek", "phase": "support",
    "greek": {"Apollon": "B6", "Messène": "B4"}, "persian": {"Darius": "B6", "Amrith": "B8"},
}


def test_resolve_notes_supports_still_open(referee: Referee) -> None:
    pos = write(referee.cwd / "open.yaml", OPEN)
    before = pos.read_bytes()
    result = referee("resolve", "cyrus-pyxis", "--position", str(pos))
    assert result.code == 0
    assert "resolved without 2 declarations still open" in result.out
    assert "Messène (Greek) could still support Apollon" in result.out
    assert "Amrith (Persian) could still support Darius" in result.out
    data = json.loads(referee("resolve", "cyrus-pyxis", "--position", str(pos), "--json").out)
    assert [o["code"] for o in data["open"]] == ["support-open", "support-open"]
    assert data["results"][0]["attacker"]["support"] is None  # resolved without them, and said so
    strict = referee("resolve", "cyrus-pyxis", "--position", str(pos), "--strict")
    assert strict.code == 1 and strict.out == ""
    assert len(strict.err.strip().splitlines()) == 1
    assert "open.yaml: still open: supports.Messène" in strict.err and "supports.Amrith" in strict.err
    assert pos.read_bytes() == before


def test_resolve_with_nothing_open_has_no_note(referee: Referee) -> None:
    pos = write(referee.cwd / "done.yaml", {**OPEN, "phase": "combat", "supports": {"Messène": "Apollon"}})
    result = referee("resolve", "cyrus-pyxis", "--position", str(pos), "--strict")
    assert result.code == 0 and "still open" not in result.out
    assert json.loads(referee("resolve", "cyrus-pyxis", "--position", str(pos), "--json").out)["open"] == []


def test_an_impossible_support_refuses_the_file_in_one_line(referee: Referee) -> None:
    pos = write(referee.cwd / "position.yaml", {
        "game": "cyrus-pyxis", "terrain": {"forest": ["B6", "J3"]}, "greek": {"Apollon": "B6", "Messène": "J3"},
        "persian": {"Darius": "B6"}, "supports": {"Messène": "Apollon"}})
    for command in (("resolve", "cyrus-pyxis", "--position", str(pos)),
                    ("judge", "cyrus-pyxis", "--position", str(pos), "Apollon B5")):
        result = referee(*command)
        assert result.code == 1 and result.out == ""
        assert len(result.err.strip().splitlines()) == 1
        assert "position.yaml: supports.Messène: Messène stands in the forest on J3" in result.err
        assert "(IV.2-1 Archer support conditions)" in result.err
