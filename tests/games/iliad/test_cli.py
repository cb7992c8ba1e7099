"""Commands and bad input: odds, night, judge/legal/resolve on positions, and every bad input
exiting 1 with one clear line while the game file stays byte-identical."""

from __future__ import annotations

import json
import os
import shlex
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.games import find_game
from referee.journal import GameFile
from referee.tables import export_table_set, packaged_table_set
from tests.runner import CliRunner

from .helpers import SAMPLES

POSITION = {
    "game": "iliad", "day": 1, "hour": 4, "side": "greek",
    "counters": {"Menelao": "J10", "Paride": "J11", "Macaone": "K12", "Podalirio": "K14", "Cebrione": "K13",
                 "Teucro": "H13", "Ettore": "M16"},
}


@pytest.fixture
def runner() -> CliRunner:
    reset_consoles()
    return CliRunner()


def run(runner: CliRunner, *args: str) -> tuple[int, str]:
    reset_consoles()
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture
def game(tmp_path: Path, runner: CliRunner) -> Path:
    path = tmp_path / "g.referee"
    code, out = run(runner, "new", "iliad", "--setup", str(SAMPLES / "setup.yaml"), "--file", str(path))
    assert code == 0, out
    return path


@pytest.fixture
def pos(tmp_path: Path) -> Path:
    path = tmp_path / "pos.yaml"
    path.write_text(yaml.safe_dump(POSITION), encoding="utf-8")
    return path


def test_odds_json_gives_fractions_and_percentages(runner: CliRunner, pos: Path) -> None:
    code, out = run(runner, "odds", "iliad", "--position", str(pos), "Menelao x Paride", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["kind"] == "duel" and data["values"] == [4, 4]
    assert sum(Fraction(o["fraction"]) for o in data["outcomes"]) == 1
    assert all(o["percent"].endswith("%") for o in data["outcomes"])
    code, out = run(runner, "odds", "iliad", "--position", str(pos), "Macaone, Podalirio x Cebrione")
    assert code == 0 and "Cebrione eliminated" in out


def test_odds_on_the_game_file_and_heroes_on_both_sides_rejected(runner: CliRunner, game: Path) -> None:
    code, out = run(runner, "odds", "Menelao x Paride", "--file", str(game))
    assert code == 0 and "duel: Menelao (4) against Paride (4)" in out
    code, out = run(runner, "odds", "Menelao, Macaone x Paride", "--file", str(game))
    assert code == 1 and "duel-one-on-one" in out


def test_judge_legal_resolve_and_schema_on_positions(runner: CliRunner, pos: Path, tmp_path: Path) -> None:
    code, out = run(runner, "judge", "iliad", "--position", str(pos), "Menelao J9", "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, out = run(runner, "legal", "iliad", "--position", str(pos), "Teucro", "--json")
    assert code == 0 and set(json.loads(out)["shots"]) == {"Paride", "Cebrione"}
    fight = dict(POSITION, attacks=["Macaone x Cebrione"])
    fight_path = tmp_path / "fight.yaml"
    fight_path.write_text(yaml.safe_dump(fight), encoding="utf-8")
    code, out = run(runner, "resolve", "iliad", "--position", str(fight_path), "--dice", "6,1", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["results"][0]["kind"] == "battle" and "Cebrione" not in data["position"]["counters"]
    assert data["position"]["side"] == "trojan"
    code, out = run(runner, "schema", "iliad")
    assert code == 0 and "lost_today" in json.loads(out)["properties"]


def test_night_command_revives_and_journals(runner: CliRunner, tmp_path: Path) -> None:
    night = {"game": "iliad", "day": 1, "hour": 12, "phase": "night",
             "counters": {"Ettore": "J16", "Diomede": "I14"}, "lost_today": {"greek": ["Macaone", "Menelao"]}}
    path = tmp_path / "night.yaml"
    path.write_text(yaml.safe_dump(night), encoding="utf-8")
    code, out = run(runner, "night", "--position", str(path), "--greek", "Menelao", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["position"]["counters"]["Menelao"] == "D18" and data["position"]["day"] == 2
    code, out = run(runner, "night", "--position", str(path), "--greek", "Menelao, Macaone", "--json")
    assert code == 1 and "over-allowance" in out


def _one_error_line(out: str) -> str:
    # a refusal may add one ⚠ line naming what it relied on; none of these refusals relies on any
    lines = [ln for ln in out.splitlines() if ln.strip() and not ln.startswith("hint:")]
    assert len(lines) == 1, out
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("do", "Hectr J15"), "unknown hero 'Hectr'; did you mean 'Ettore'?"),
        (("do", "Ettore Z99"), "unknown square 'Z99'"),
        (("do", "Ajax D13"), "'Ajax' names several heroes"),
        (("resolve", "--dice", "0,3,3,3,3,3"), "0 is not a face of a 6-sided die"),
        (("resolve", "--dice", "3,3"), "needs 2 more dice"),
        (("do", "Diomede H13"), "duel-hour"),
        (("night",), "not-night"),
    ],
)
def test_bad_input_exits_1_with_one_line_and_leaves_the_file_unchanged(
    runner: CliRunner, game: Path, args: tuple[str, ...], expected: str
) -> None:
    before = game.read_bytes()
    code, out = run(runner, *args, "--file", str(game))
    assert code == 1, out
    assert expected in _one_error_line(out)
    assert game.read_bytes() == before


def test_a_malformed_map_file_is_one_line_naming_file_and_field(runner: CliRunner, tmp_path: Path) -> None:
    export_table_set(packaged_table_set("iliad"), tmp_path / "t")
    path = tmp_path / "t" / "iliad" / "map.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('".........r......hh.............."   # J',
                                 '".........r......hQ.............."   # J', 1), encoding="utf-8")
    target = tmp_path / "new.referee"
    code, out = run(runner, "new", "iliad", "--tables", str(tmp_path / "t"), "--file", str(target))
    assert code == 1
    line = _one_error_line(out)
    assert "map.yaml: rows[9] (row J): unknown character 'Q' at column 18" in line
    assert not target.exists()
    code, out = run(runner, "tables", "iliad", "--tables", str(tmp_path / "t"))
    assert code == 1 and "unknown character 'Q'" in out


def test_bad_positions_name_file_and_field(runner: CliRunner, tmp_path: Path) -> None:
    cases = [
        ({"counters": {"Ettore": "Z99"}}, "counters.Ettore: 'Z99' is not a square of the map"),
        ({"counters": {"Hectr": "J15"}}, "counters.Hectr: unknown hero 'Hectr'; did you mean 'Ettore'?"),
        ({"counters": {"Ettore": "J15", "Enea": "J15"}}, "both on J15"),
        ({"counters": {"Ettore": "B5"}}, "B5 is open sea"),
        ({"day": 9}, "day: the calendar has 4 days of 12 hours"),
    ]
    for data, expected in cases:
        path = tmp_path / "bad.yaml"
        path.write_text(yaml.safe_dump({"game": "iliad", **data}), encoding="utf-8")
        code, out = run(runner, "judge", "iliad", "--position", str(path), "Ettore J16")
        assert code == 1 and expected in _one_error_line(out), (data, out)


def test_first_hour_script_runs_as_written(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = (SAMPLES / "first-hour.sh").read_text(encoding="utf-8")
    assert "export REFEREE_FILE=troy.referee" in script
    monkeypatch.setenv("REFEREE_FILE", "troy.referee")
    lines = [ln for ln in script.splitlines() if ln.startswith("referee ")]
    assert len(lines) >= 15
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        for line in lines:
            words = shlex.split(line.replace("$SAMPLES", str(SAMPLES.parent)), comments=True)
            code, out = run(runner, *words[1:])
            assert code == 0, (line, out)
    finally:
        os.chdir(here)
    assert (tmp_path / "troy.png").stat().st_size > 0
    with GameFile.open(tmp_path / "troy.referee", find_game) as gf:
        state = gf.state()
        entries = gf.entries()
    assert (state.day, state.hour, state.side.value) == (1, 3, "greek")
    assert "Macaone" in state.dead and "Paride" in state.wounded
    assert all(r.source == "physical" for e in entries for r in e.rolls)


def test_adjust_undo_and_log_on_the_game_file(runner: CliRunner, game: Path) -> None:
    code, out = run(runner, "adjust", "Ettore J15", "--reason", "we misplaced him", "--file", str(game))
    assert code == 0, out
    code, out = run(runner, "adjust", "Ettore D13", "--reason", "on a friend", "--file", str(game))
    assert code == 1 and "square-occupied" in out
    code, out = run(runner, "resolve", "--dice", "3,3,3,3,3,3", "--file", str(game))
    assert code == 0, out
    before = game.read_bytes()
    code, out = run(runner, "undo", "--file", str(game))
    assert code == 1 and "rolled dice" in out and game.read_bytes() == before
    code, out = run(runner, "undo", "--force", "--file", str(game))
    assert code == 0
    code, out = run(runner, "log", "--json", "--file", str(game))
    entries = json.loads(out)
    assert entries[-1]["kind"] == "undo" and entries[-1]["forced"]
    assert any(e["kind"] == "adjust" and e["reason"] == "we misplaced him" for e in entries)
