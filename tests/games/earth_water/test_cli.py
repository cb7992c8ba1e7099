"""Commands and bad input: position files, ``referee persia ...``, the game file left unchanged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.common import reset_consoles
from referee.errors import PositionError, UnknownNameError
from referee.games.earth_water.engine import EarthWaterEngine
from referee.games.earth_water.rules import RULES
from referee.tables import packaged_table_set
from tests.runner import CliRunner

POSITION = """\
game: 300-solo
campaign: 3
score: 2
bridge: true
hands: {persia: 4, greece: 2}
cities:
  Abydos:  {persian_armies: 3, persian_fleets: 2}
  Ephesos: {persian_armies: 3, persian_fleets: 2}
  Athènes: {greek_armies: 1, greek_fleets: 1}
"""


@pytest.fixture
def runner() -> CliRunner:
    reset_consoles()
    return CliRunner()


def _write(tmp_path: Path, text: str, name: str = "pos.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_rules_every_section_is_cited_and_tables_load(engine: EarthWaterEngine) -> None:
    assert RULES.uncited() == []
    tables = engine.tables(packaged_table_set("300-solo"))
    assert len(tables.cities) == 11 and len(tables.ports()) == 8
    assert sum(len(v) for v in tables.roads.values()) == 2 * 9


def test_position_names_french_and_accents(engine: EarthWaterEngine, position) -> None:
    state = position(cities={"thèbai": {"greek_armies": 1}, "ATHÈNES": {"greek_armies": 2},
                             "Corinthe": {"greek_armies": 1}, "Éphèse": {"persian_armies": 2}})
    assert state.at("Thebai").greek_armies == 1 and state.at("Athenai").greek_armies == 2
    assert state.at("Korinthos").greek_armies == 1 and state.at("Ephesos").persian_armies == 2
    with pytest.raises(PositionError, match=r"cities.Atenai: unknown city 'Atenai'; did you mean 'Athenai'"):
        position(cities={"Atenai": {"greek_armies": 1}})
    with pytest.raises(PositionError, match=r"cities.Sparta.greek_armies: Input should be greater than or equal to 0"):
        position(cities={"Sparta": {"greek_armies": -1}})
    with pytest.raises(PositionError, match=r"cities.Sparta.greek_armies: Greece has 9 armies in reserve"):
        position(cities={"Sparta": {"greek_armies": 10}})
    with pytest.raises(PositionError, match=r"Delphi has no port"):
        position(cities={"Delphi": {"persian_fleets": 1}})
    with pytest.raises(UnknownNameError, match="did you mean 'Thebai'"):
        engine.parse(state, "move 1 Athenai Thebes2")


def test_position_round_trip(engine: EarthWaterEngine, position) -> None:
    # PERS.IA marched 2 of Larissa's 4 armies into Greek Thebai (5.3.2-3): Persia's turn until the battle ends.
    state = position(score=-2, campaign=4, phase="operations", active="persia", hands={"persia": 1, "greece": 3},
                     battle={"city": "Thebai", "attacker": "persia", "origin": "Larissa"},
                     cities={"Thebai": {"greek_armies": 1, "persian_armies": 2}, "Larissa": {"persian_armies": 2},
                             "Abydos": {"persian_fleets": 1}})
    data = engine.to_position(state).model_dump(mode="json")
    again = engine.from_position(packaged_table_set("300-solo"), data, "again")
    assert engine.state_hash(again) == engine.state_hash(state)


def test_cli_persia_operate_json_on_a_position(tmp_path: Path, runner: CliRunner) -> None:
    path = _write(tmp_path, POSITION)
    result = runner.invoke(app, ["persia", "operate", "--position", str(path), "--dice", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [s["n"] for s in data["steps"]] == [1, 2, 3]
    assert data["steps"][0] == {**data["steps"][0], "rule": "5.3", "die": 2, "source": "physical"}
    assert data["steps"][1]["text"] == "Move 1 army Ephesos → Abydos → Pella (Ephesos keeps 2, Pella now 1)"
    assert data["position"]["cities"]["Pella"] == {"greek_armies": 0, "greek_fleets": 0, "persian_armies": 1,
                                                   "persian_fleets": 0}
    assert data["position"]["hands"] == {"persia": 3, "greece": 2}
    assert path.read_text(encoding="utf-8") == POSITION


def test_cli_persia_prepare_and_supply_text(tmp_path: Path, runner: CliRunner) -> None:
    path = _write(tmp_path, POSITION)
    result = runner.invoke(app, ["persia", "prepare", "--position", str(path)])
    assert result.exit_code == 0, result.output
    assert "1. Draw 4 cards (Persian hand 4 → 8)" in result.stdout
    result = runner.invoke(app, ["persia", "supply", "--position", str(path), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["steps"][0]["rule"] == "6.A"


@pytest.mark.parametrize(("text", "args", "expected"), [
    (POSITION.replace("Athènes", "Atlantis"), [], "unknown city 'Atlantis'"),
    (POSITION.replace("greek_armies: 1", "greek_armies: -3"), [], "greater than or equal to 0"),
    (POSITION, ["--dice", "7"], "a die shows 1 to 6, not 7"),
    (POSITION.replace("cities:", "cities: [oops"), [], "not valid YAML"),
    (POSITION.replace("score: 2", "score: lots"), [], "score: Input should be a valid integer"),
])
def test_cli_bad_input_exits_1_with_one_line(tmp_path: Path, runner: CliRunner, text: str, args: list[str],
                                             expected: str) -> None:
    path = _write(tmp_path, text)
    result = runner.invoke(app, ["persia", "operate", "--position", str(path), *args])
    assert result.exit_code == 1
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and expected in lines[0], result.stderr
    assert path.read_text(encoding="utf-8") == text


def test_cli_game_file_rejects_without_changing_a_byte(tmp_path: Path) -> None:
    game = tmp_path / "solo.referee"
    exe = [sys.executable, "-c", "from referee.cli import main; main()"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*exe, *args, "--file", str(game)], capture_output=True, text=True, timeout=60,
                              cwd=tmp_path)

    assert run("new", "300-solo").returncode == 0
    assert run("persia", "prepare").returncode == 0
    before = game.read_bytes()
    for bad, words in ((["do", "buy", "1", "army", "Atlantis"], "did you mean"),
                       (["do", "buy -2 cards"], "a count is a whole number from 1"),
                       (["do", "buy", "7", "cards"], "card-limit"),
                       (["persia", "operate", "--roll", "7"], "not 7"),
                       (["persia", "operate"], "wrong-phase")):
        result = run(*bad)
        assert result.returncode == 1, (bad, result.stdout, result.stderr)
        assert words in result.stderr, (bad, result.stderr)
        assert game.read_bytes() == before, bad
    assert run("do", "buy 2 cards").returncode == 0
    assert game.read_bytes() != before


def test_cli_game_file_campaign_journal_replays(tmp_path: Path, runner: CliRunner) -> None:
    game = str(tmp_path / "g.referee")
    steps = [["new", "300-solo"], ["persia", "prepare"], ["do", "buy 2 cards"], ["do", "buy 2 armies Athenai"],
             ["do", "buy 2 armies Sparta"], ["do", "done"], ["persia", "operate", "--roll", "2"],
             ["do", "move 1 Korinthos -> Thebai"], ["persia", "operate", "--roll", "4"]]
    for args in steps:
        result = runner.invoke(app, [*args, "--file", game])
        assert result.exit_code == 0, (args, result.output)
    result = runner.invoke(app, ["persia", "operate", "--file", game, "--json"])
    assert result.exit_code in (0, 1)
    out = tmp_path / "export.json"
    assert runner.invoke(app, ["export", str(out), "--file", game]).exit_code == 0
    again = str(tmp_path / "again.referee")
    result = runner.invoke(app, ["import", str(out), "--file", again])
    assert result.exit_code == 0, result.output
    assert "state hash verified" in result.stdout
    result = runner.invoke(app, ["undo", "--file", game])
    assert result.exit_code == 1 and "rolled dice" in result.stderr


def test_cli_legal_resolve_and_setup(tmp_path: Path, runner: CliRunner) -> None:
    samples = Path(__file__).resolve().parents[3] / "samples" / "300-solo"
    invaded = str(samples / "major-invaded.yaml")
    result = runner.invoke(app, ["legal", "300-solo", "--position", invaded, "Athènes", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["land"]) == {"Thebai", "Korinthos"} and "Ephesos" in report["naval_battles"]
    battle = _write(tmp_path, "game: 300-solo\nbattle: {city: Thebai, attacker: persia, origin: Larissa}\n"
                    "cities:\n  Thebai: {greek_armies: 1, persian_armies: 1}\n  Larissa: {persian_armies: 1}\n",
                    "battle.yaml")
    result = runner.invoke(app, ["resolve", "300-solo", "--position", str(battle), "--dice", "6,2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rounds"][0]["persian_loss"] == 1
    assert data["position"]["battle"] is None
    assert data["position"]["cities"]["Thebai"]["greek_armies"] == 1
    game = str(tmp_path / "setup.referee")
    result = runner.invoke(app, ["new", "300-solo", "--setup", invaded, "--file", game, "--json"])
    # A set-up starts in PERS.IA's preparation, after its supply emptied its hand (6.A).
    assert result.exit_code == 1 and "hands.persia: PERS.IA discarded its whole hand" in result.stderr
    setup = _write(tmp_path, (samples / "major-invaded.yaml").read_text(encoding="utf-8").replace(
        "hands: {persia: 2, greece: 1}", "hands: {persia: 0, greece: 1}"), "setup.yaml")
    result = runner.invoke(app, ["new", "300-solo", "--setup", str(setup), "--file", game, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["position"]["campaign"] == 4
    result = runner.invoke(app, ["persia", "prepare", "--file", game, "--json"])
    assert json.loads(result.stdout)["situation"] == "situation A"
    result = runner.invoke(app, ["show", "--file", game])
    assert result.exit_code == 0 and "Ephesos" in result.stdout


@pytest.mark.parametrize("command", [["resolve", "300-solo"], ["judge", "300-solo", "fight"],
                                     ["legal", "300-solo", "Thebai"], ["persia", "operate"]])
def test_cli_impossible_declaration_exits_1_naming_file_field_and_rule(tmp_path: Path, runner: CliRunner,
                                                                       command: list[str]) -> None:
    text = POSITION + "  Thebai: {greek_armies: 1, persian_armies: 1}\nbattle: {city: Thebai, attacker: greece, " \
                      "origin: Sparta}\n"
    path = _write(tmp_path, text)
    args = [*command[:2], "--position", str(path), *command[2:]] if command[0] != "persia" else \
        [*command, "--position", str(path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 1, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, result.stderr
    assert f"{path}: battle.origin: " in lines[0] and "(base 6.4 Land movement" in lines[0], lines[0]
    assert result.stdout == ""
    assert path.read_text(encoding="utf-8") == text
