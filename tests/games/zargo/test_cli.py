"""Zargo through the real command line: a new game from the sample set-up, garrisons sealed and
revealed, no secret in another player's show, status, log, export or --json; bad input refused
with one line and the file untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games import find_game
from referee.journal import GameFile
from tests.cli.conftest import Referee

GARRISON = '["FMo","ILL","MCh","MCh"]'
SECRET_MARK = '"ILL","MCh","MCh"'


@pytest.fixture
def referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Referee:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_FILE", raising=False)
    monkeypatch.delenv("REFEREE_TABLES", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    return Referee(tmp_path)


@pytest.fixture
def sealed(referee: Referee) -> Path:
    assert referee("new", "zargo", "--setup", "setup.yaml").code == 0
    result = referee("seal", "garrison-0215", "--as", "moines", input=GARRISON + "\n")
    assert result.code == 0, result.err
    assert referee("seal", "garrison-0113", "--as", "moines", input='["FMo","MCh"]\n').code == 0
    assert SECRET_MARK not in result.out + result.err
    assert referee("do", "start").code == 0
    return referee.cwd / "game.referee"


def _everything(referee: Referee, viewer: list[str]) -> str:
    runs = [
        ["show"],
        ["show", "--json"],
        ["status"],
        ["status", "--json"],
        ["log"],
        ["log", "--json"],
        ["export"],
        ["legal", "0215"],
        ["legal", "0215", "--json"],
    ]
    out = []
    for args in runs:
        result = referee(*args, *viewer)
        assert result.code == 0, (args, result.err)
        out.append(result.out + result.err)
    return "\n".join(out)


def test_preparation_a_new_four_player_game_from_the_sample(referee: Referee) -> None:
    result = referee("new", "zargo", "--setup", "setup.yaml")
    assert result.code == 0, result.err
    assert "seal garrisons" in result.out
    assert referee("do", "start").code == 0
    status = referee("status")
    assert "month 1 of 25: the chevaliers play" in status.out


def test_garrisons_never_leak_to_another_viewer(referee: Referee, sealed: Path) -> None:
    with GameFile.open(sealed, find_game) as gf:
        salt = gf.secrets("moines")[0].salt.hex()
    for viewer in ([], ["--as", "chevaliers"], ["--as", "dragons"], ["--as", "ailes"]):
        seen = _everything(referee, viewer)
        assert SECRET_MARK not in seen and salt not in seen, viewer
    assert SECRET_MARK in referee("show", "--as", "moines").out.replace(" ", "")


def test_la_conquete_the_reveal_is_checked_against_the_seal(referee: Referee, sealed: Path) -> None:
    assert referee("seal", "garrison-3214", "--as", "moines", input='["FMo"]\n').code == 1  # set-up is over
    for _ in range(2):  # the chevaliers and the dragons pass
        assert referee("do", "resolve").code == 0
    with GameFile.open(sealed, find_game) as gf:
        state = gf.state()
        report = gf.game.legal_report(state, "2417")  # a Winged lord flies next to the city on 0113
    grid = state.tables.world.grid
    near = [h for h in report.moves if grid.parse("0113") in grid.neighbours(grid.parse(h))]
    assert near, report.moves
    assert referee("do", "2417", near[0]).code == 0
    assert referee("do", "attack", near[0], "0113").code == 0
    result = referee("do", "resolve")
    assert result.code == 0 and "must reveal the garrison of 0113" in result.out
    before = sealed.read_bytes()
    wrong = referee("reveal", "garrison-0113", "--as", "moines", "--claim", '["FMo"]')
    assert wrong.code == 1 and "does not match" in wrong.out + wrong.err
    assert sealed.read_bytes() == before
    shown = referee("reveal", "garrison-0113", "--as", "moines")
    assert shown.code == 0, shown.err
    assert referee("do", "resolve").code == 0
    assert "the ailes play" not in referee("status").out


def test_bad_input_exits_1_with_one_line_and_the_file_unchanged(referee: Referee, sealed: Path) -> None:
    before = sealed.read_bytes()
    for words in (["FCx", "0506", "0507"], ["0506", "9999"], ["atack", "0506", "0507"], ["0101", "0102"]):
        result = referee("do", *words)
        assert result.code == 1, (words, result.out, result.err)
        assert sealed.read_bytes() == before
    fifth = referee("seal", "garrison-0113", "--as", "moines", input='["FMo","FMo","FMo","FMo","FMo"]\n')
    assert fifth.code == 1 and "at most 4" in fifth.err
    assert sealed.read_bytes() == before


def test_french_and_italian_at_the_table(referee: Referee, sealed: Path) -> None:
    assert referee("--lang", "fr", "do", "résoudre").code == 0
    status = referee("--lang", "fr", "status")
    assert "mois 1 sur 25" in status.out
    assert referee("--lang", "it", "do", "risolvi").code == 0
    assert "mese 1 di 25" in referee("--lang", "it", "status").out


def test_umpire_mode_on_the_sample_position(referee: Referee) -> None:
    from referee.tables import data_root

    pos = str(data_root("samples") / "zargo" / "umpire.yaml")
    assert referee("judge", "--position", pos, "1208", "1108").code == 0
    odds = referee("odds", "--position", pos, "zargo", "attack", "0906", "0907")
    assert odds.code == 0 and "11 against 2" in odds.out
    done = referee("resolve", "--position", pos, "--dice", "5,6")
    assert done.code == 0 and "arrow from 0903 at 0909" in done.out and "combat at 0907" in done.out
    wrong = referee("judge", "--position", pos, "0907", "0807")
    assert "not-yours" in wrong.out  # not the Chevaliers' counter


def test_new_with_players_says_how_many_play(referee: Referee) -> None:
    # PRÉPARATION DU JEU: two to four peoples; --players is the game's first action
    assert referee("new", "zargo", "--players", "3").code == 0
    with GameFile.open(referee.cwd / "game.referee", find_game) as gf:
        first = gf.entries()[0]
        assert first.text.startswith("players 3")
        assert gf.state().players == 3
    before = (referee.cwd / "game.referee").read_bytes()
    refused = referee("new", "zargo", "--players", "5", "--force")
    assert refused.code == 1 and "2–4 players, not 5" in refused.err
    assert (referee.cwd / "game.referee").read_bytes() == before
    clash = referee("new", "zargo", "--players", "2", "--setup", "setup.yaml", "--force")
    assert clash.code == 2 and "--players" in clash.err
    assert referee("new", "cyrus-pyxis", "--players", "3", "--file", "c.referee").code == 1
    assert referee("new", "cyrus-pyxis", "--players", "2", "--file", "c.referee").code == 0
