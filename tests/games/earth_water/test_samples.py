"""The samples: every position file loads, and the scripted first campaign runs as written."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.common import read_data_file, reset_consoles
from referee.games import find_game
from referee.games.earth_water.engine import EarthWaterEngine
from referee.journal import GameFile
from referee.tables import data_root, packaged_table_set
from tests.runner import CliRunner

SAMPLES = data_root("samples") / "300-solo"


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.yaml")))
def test_sample_positions_load(engine: EarthWaterEngine, name: str) -> None:
    path = SAMPLES / name
    state = engine.from_position(packaged_table_set("300-solo"), read_data_file(path), str(path))
    assert engine.status(state)


def run_script(name: str, where: Path) -> int:
    """Runs every ``referee`` line of a sample script in ``where``, each exiting 0; returns how
    many ran."""
    script = (SAMPLES / name).read_text(encoding="utf-8")
    commands = [shlex.split(line, comments=True) for line in script.splitlines() if line.startswith("referee ")]
    runner = CliRunner()
    here = Path.cwd()
    os.chdir(where)
    try:
        for words in commands:
            reset_consoles()
            result = runner.invoke(app, words[1:])
            assert result.exit_code == 0, (words, result.output)
    finally:
        os.chdir(here)
    return len(commands)


def test_first_campaign_script_runs_as_written(tmp_path: Path, engine: EarthWaterEngine) -> None:
    assert run_script("first-campaign.sh", tmp_path) > 20
    with GameFile.open(tmp_path / "game.referee", find_game) as gf:
        state = gf.state()
        entries = gf.entries()
    assert engine.status(state)[0] == "Campaign 4, PERS.IA preparation; score 3 Persian side; hands Persia 0, Greece 0"
    assert all(r.source == "physical" for e in entries for r in e.rolls)


def test_cards_tour_script_runs_as_written(tmp_path: Path, engine: EarthWaterEngine) -> None:
    run_script("cards-tour.sh", tmp_path)
    with GameFile.open(tmp_path / "game.referee", find_game) as gf:
        state = gf.state()
    assert state.battle is None and state.at("Thebai").greek_armies == 2 and state.at("Thebai").persian_armies == 0
    assert state.played_once == (4,) and state.portraits.greece == 1 and state.hands.greece == 0
    assert state.at("Ephesos").persian_fleets == 1 and state.at("Naxos").greek_fleets == 1
    assert state.active == "persia"


def test_a_layout_without_a_city_of_the_map_is_refused_when_the_tables_are_read() -> None:
    """Found by the long fuzz run: a layout.yaml missing a city's position was accepted by
    ``new_state`` and failed later, when the map was first drawn."""
    from referee.errors import TableError
    from referee.games import find_game
    from referee.tables import TableFile, TableSet, packaged_table_set

    base = packaged_table_set("300-solo")
    text = base.text("layout.yaml")
    start = text.index("\n  Delphi:")
    end = text.index("\n  ", start + 3)
    cut = text[:start] + text[end:]
    assert "Delphi" not in cut
    broken = TableSet(base.slug, {**base.files, "layout.yaml": TableFile("layout.yaml", cut, "my/layout.yaml", True)})
    with pytest.raises(TableError) as info:
        find_game("300-solo").new_state(broken)
    assert "my/layout.yaml" in str(info.value) and "cities.Delphi" in str(info.value)
