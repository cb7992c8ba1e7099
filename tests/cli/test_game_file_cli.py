"""CLI: the game-file commands, as a table would use them (in-process runner)."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import SETUP, Referee


def test_new_shows_the_commitment_and_board(referee: Referee) -> None:
    result = referee("new", "cyrus-pyxis", "--setup", str(SETUP))
    assert result.code == 0
    assert "Dice commitment:" in result.out and "Turn 1: Greek to play" in result.out
    again = referee("new", "cyrus-pyxis")
    assert again.code == 1 and "already there" in again.err


def test_new_json_reports_the_fingerprint(referee: Referee) -> None:
    data = json.loads(referee("new", "cyrus-pyxis", "--json", "--file", "x.referee").out)
    assert data["game"] == "cyrus-pyxis" and len(data["fingerprint"]) == 19 and len(data["commitment"]) == 64


def test_do_plays_and_explains(referee: Referee, game: Path) -> None:
    result = referee("do", "Pergame", "L7")
    assert result.code == 0 and "L2 → L3 → L4 → L5 → L6 → L7" in result.out
    data = json.loads(referee("do", "Demis K5", "--json").out)
    assert data["record"]["action"] == "Demis K5" and data["record"]["side"] == "greek"


def test_rejected_move_exits_1_and_changes_nothing(referee: Referee, game: Path) -> None:
    before = game.read_bytes()
    result = referee("do", "Centaure B6")
    assert result.code == 1
    assert "[too-far]" in result.err and "(V Movement)" in result.err
    assert result.out == ""
    assert game.read_bytes() == before


def test_unknown_legion_suggests_names(referee: Referee, game: Path) -> None:
    before = game.read_bytes()
    result = referee("do", "Athna G4")
    assert result.code == 1 and "did you mean 'Athéna'" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert game.read_bytes() == before


def test_bad_cell_is_one_line(referee: Referee, game: Path) -> None:
    result = referee("do", "Pergame Z9")
    assert result.code == 1 and "unknown cell 'Z9'" in result.err and "A1 to L12" in result.err


def test_usage_errors_exit_2(referee: Referee, game: Path) -> None:
    assert referee("do").code == 2
    assert referee("adjust", "Athéna C5").code == 2  # --reason is mandatory
    assert referee("frobnicate").code == 2


def test_undo_redo_and_log(referee: Referee, game: Path) -> None:
    referee("do", "Pergame L7")
    assert "undo: Pergame L7" in referee("undo").out
    assert "redo: Pergame L7" in referee("redo").out
    log = referee("log").out
    assert "Pergame L7" in log and "undo Pergame L7" in log
    entries = json.loads(referee("log", "--json").out)
    assert [e["kind"] for e in entries[-3:]] == ["action", "undo", "redo"]


def test_adjust_is_journaled_with_its_reason(referee: Referee, game: Path) -> None:
    result = referee("adjust", "Athéna", "C5", "--reason", "house rule: guard starts forward")
    assert result.code == 0
    entry = json.loads(referee("log", "--json").out)[-1]
    assert entry["kind"] == "adjust" and entry["reason"] == "house rule: guard starts forward"
    assert "house rule" in referee("log").out
    assert referee("adjust", "Athéna", "C5", "--reason", " ").code == 1


def test_resolve_in_the_game_file(referee: Referee, game: Path) -> None:
    for action in ("Pergame L7", "done", "Tyr L8", "done", "Pergame L8", "done"):
        assert referee("do", action).code == 0, action
    result = referee("resolve")
    assert result.code == 0 and "L8 (plain): Pergame 4 vs Tyr 4" in result.out


def test_show_and_png(referee: Referee, game: Path) -> None:
    import cv2

    assert "Pyx" in referee("show").out
    result = referee("show", "--png", "board.png")
    assert result.code == 0
    image = cv2.imread(str(referee.cwd / "board.png"))
    assert image is not None and image.shape[0] > 12 * 64 and image.shape[1] >= 12 * 64
    bad = referee("show", "--png", "missing-folder/board.png")
    assert bad.code == 1 and "cannot write the picture (no such file or directory)" in bad.err
    assert len(bad.err.splitlines()) == 1


def test_export_import_round_trip(referee: Referee, game: Path) -> None:
    referee("do", "Pergame L7")
    assert referee("export", "game.json").code == 0
    result = referee("import", "game.json", "--file", "copy.referee")
    assert result.code == 0 and "state hash verified" in result.out
    assert json.loads(referee("show", "--json", "--file", "copy.referee").out)["position"]["greek"]["Pergame"] == "L7"


def test_dice_status_reveal_verify(referee: Referee, game: Path) -> None:
    status = json.loads(referee("dice", "status", "--json").out)
    assert status["digital_rolls"] == 0
    revealed = json.loads(referee("dice", "reveal", "--json").out)
    assert revealed["commitment"] == status["commitment"]
    assert referee("dice", "verify", "game.referee").code == 0


def test_corrupt_game_file_is_one_line(referee: Referee) -> None:
    (referee.cwd / "game.referee").write_bytes(b"SQLite format 3\x00" + b"\x13" * 600)
    result = referee("show")
    assert result.code == 1 and "not a referee game file" in result.err
    assert len(result.err.strip().splitlines()) == 1
    missing = referee("show", "--file", "nope.referee")
    assert missing.code == 1 and "referee new" in missing.err


def test_demo_runs(referee: Referee) -> None:
    result = referee("demo")
    assert result.code == 0
    assert "[too-far]" in result.out and "support Telestas Pergame" in result.out and "retreats" in result.out
