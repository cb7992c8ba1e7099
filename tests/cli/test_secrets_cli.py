"""Secrets and viewers, through the real command line and a real game file, with the made-up
hidden-number game (tests/hidden_game.py): a secret never shows for another viewer, a reveal is
checked against its commitment, undo across a reveal needs --force and is logged."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from referee.games import all_games, find_game, register_engine
from referee.journal import GameFile

sys.path.insert(0, str(Path(__file__).parent.parent))
from hidden_game import hidden_tables, register

from .conftest import Referee

NORTH = 918273645
SOUTH = 777666555


@pytest.fixture
def hidden(referee: Referee) -> Path:
    path = referee.cwd / "game.referee"
    GameFile.create(path, register(), hidden_tables()).close()
    assert referee("seal", "number", "--as", "north", input=f"{NORTH}\n").code == 0
    assert referee("seal", "number", "--as", "South", input=f"{SOUTH}\n").code == 0
    return path


def _salt(path: Path, owner: str) -> str:
    with GameFile.open(path, find_game) as gf:
        return gf.secrets(owner)[0].salt.hex()


def _outputs(referee: Referee, viewer: list[str]) -> str:
    """Everything every viewing command prints for one viewer (stdout and stderr)."""
    runs = [
        ["show"], ["show", "--json"], ["status"], ["status", "--json"], ["log"], ["log", "--json"],
        ["export"], ["legal", "number"], ["legal", "number", "--json"],
    ]
    text = []
    for args in runs:
        result = referee(*args, *viewer)
        assert result.code == 0, (args, result.err)
        text.append(result.out + result.err)
    return "\n".join(text)


def test_sealing_echoes_and_journals_only_the_commitment(referee: Referee) -> None:
    path = referee.cwd / "game.referee"
    GameFile.create(path, register(), hidden_tables()).close()
    result = referee("seal", "number", "--as", "north", input=f"{NORTH}\n")
    assert result.code == 0, result.err
    assert str(NORTH) not in result.out + result.err
    salt = _salt(path, "north")
    with sqlite3.connect(path) as conn:
        journal = " ".join(str(v) for row in conn.execute("SELECT * FROM journal") for v in row)
        private = " ".join(str(v) for row in conn.execute("SELECT * FROM secrets") for v in row)
    assert str(NORTH) not in journal and salt not in journal
    assert str(NORTH) in private and salt in private  # the file is no vault: its private table holds it


@pytest.mark.parametrize("viewer", [[], ["--as", "south"]])
def test_a_secret_never_shows_for_another_viewer(referee: Referee, hidden: Path, viewer: list[str]) -> None:
    north_salt = _salt(hidden, "north")
    seen = _outputs(referee, viewer)
    assert str(NORTH) not in seen and north_salt not in seen
    if viewer:  # south sees its own number, which proves the grep can find one
        assert str(SOUTH) in seen
    else:
        assert str(SOUTH) not in seen and _salt(hidden, "south") not in seen


def test_the_owner_sees_its_own_secret_only(referee: Referee, hidden: Path) -> None:
    status = referee("status", "--as", "north", "--json")
    assert status.code == 0
    assert json.loads(status.out)["secrets"] == [
        {"label": "number", "secret": str(NORTH), "fingerprint": json.loads(status.out)["secrets"][0]["fingerprint"]}
    ]
    export = json.loads(referee("export", "--as", "north").out)
    assert [s["owner"] for s in export["secrets"]] == ["north"]
    assert str(SOUTH) not in json.dumps(export) and _salt(hidden, "south") not in json.dumps(export)
    assert "secrets" not in json.loads(referee("export").out)


def test_an_unknown_viewer_is_refused(referee: Referee, hidden: Path) -> None:
    result = referee("show", "--as", "nobody")
    assert result.code == 1 and "unknown player 'nobody'" in result.err


def test_a_reveal_that_does_not_match_is_refused_and_changes_nothing(referee: Referee, hidden: Path) -> None:
    before = hidden.read_bytes()
    result = referee("reveal", "number", "--as", "north", "--claim", str(NORTH + 1))
    assert result.code == 1
    assert len(result.err.strip().splitlines()) == 1 and "secret-mismatch" in result.err
    assert _salt(hidden, "north") not in result.err  # the salt would let anyone try every number
    assert hidden.read_bytes() == before
    # typed in full with a wrong salt: the same check refuses it
    wrong = referee("do", f"reveal north number {'0' * 32} {NORTH}")
    assert wrong.code == 1 and "secret-mismatch" in wrong.err
    assert hidden.read_bytes() == before


def test_reveals_settle_the_game(referee: Referee, hidden: Path) -> None:
    assert referee("reveal", "number", "--as", "north").code == 0
    assert referee("reveal", "number", "--as", "south", "--claim", str(SOUTH)).code == 0
    status = referee("status", "--json")
    assert json.loads(status.out)["status"] == ["over: higher-number, winners north"]


def test_undo_across_a_reveal_needs_force_and_is_logged(referee: Referee, hidden: Path) -> None:
    assert referee("reveal", "number", "--as", "north").code == 0
    before = hidden.read_bytes()
    refused = referee("undo")
    assert refused.code == 1 and "revealed a secret" in refused.err and "--force" in refused.err
    assert hidden.read_bytes() == before
    assert referee("undo", "--force").code == 0
    last = json.loads(referee("log", "--json").out)[-1]
    assert last["kind"] == "undo" and last["forced"] is True and "revealed a secret" in last["reason"]
    # undoing a seal is free: nothing was shown
    assert referee("undo").code == 0


def test_an_owner_export_can_be_revealed_after_import_a_shared_one_cannot(referee: Referee, hidden: Path) -> None:
    assert referee("export", "north.json", "--as", "north").code == 0
    assert referee("export", "table.json").code == 0
    assert referee("import", "north.json", "--file", "north.referee").code == 0
    assert referee("import", "table.json", "--file", "table.referee").code == 0
    assert referee("reveal", "number", "--as", "north", "--file", "north.referee").code == 0
    lost = referee("reveal", "number", "--as", "north", "--file", "table.referee")
    assert lost.code == 1 and "salt" in lost.err


def test_an_export_with_a_forged_secret_is_refused(referee: Referee, hidden: Path) -> None:
    data = json.loads(referee("export", "--as", "north").out)
    data["secrets"][0]["secret"] = NORTH + 1
    Path("forged.json").write_text(json.dumps(data))
    result = referee("import", "forged.json", "--file", "forged.referee")
    assert result.code == 1 and "secrets[0]" in result.err
    assert not Path("forged.referee").exists()


def test_an_altered_private_secret_is_reported(referee: Referee, hidden: Path) -> None:
    with sqlite3.connect(hidden) as conn:
        conn.execute("UPDATE secrets SET secret = ? WHERE owner = 'north'", (str(NORTH + 1),))
    result = referee("status", "--as", "north")
    assert result.code == 1 and "secrets" in result.err and "altered" in result.err


def test_views_of_the_shipped_games_are_their_states() -> None:
    from referee.tables import load_table_set

    for engine in all_games():
        state = engine.new_state(load_table_set(engine.info.slug))
        assert engine.view(state, None) is state
        # Zargo's garrisons are secrets, but its state holds only their commitments
        assert engine.info.information == ("imperfect" if engine.info.slug == "zargo" else "perfect")


def test_register_engine_refuses_a_shipped_slug() -> None:
    with pytest.raises(ValueError):
        register_engine("iliad", register())


class WatchedEngine(type(register())):  # type: ignore[misc]
    """The hidden game with a view that masks every revealed number but the viewer's own: a real
    hidden fact in the state, to prove the viewing commands draw the view, not the state."""

    info = register().info.model_copy(update={"slug": "test-hidden-watched"})

    def view(self, state, viewer):  # type: ignore[no-untyped-def]
        masked = {p: n for p, n in state.revealed.items() if p == viewer}
        return state.model_copy(update={"revealed": masked})


def test_viewing_commands_draw_the_engines_view(referee: Referee) -> None:
    engine = WatchedEngine()
    register_engine("test-hidden-watched", engine)
    path = referee.cwd / "game.referee"
    GameFile.create(path, engine, hidden_tables()).close()
    assert referee("seal", "number", "--as", "north", input=f"{NORTH}\n").code == 0
    assert referee("seal", "number", "--as", "south", input=f"{SOUTH}\n").code == 0
    assert referee("reveal", "number", "--as", "north").code == 0
    for viewer, sees in (([], False), (["--as", "south"], False), (["--as", "north"], True)):
        for args in (["show"], ["show", "--json"], ["legal", "number", "--json"]):
            result = referee(*args, *viewer)
            assert result.code == 0, result.err
            assert (str(NORTH) in result.out) is sees, (args, viewer)


def test_bad_seals_are_refused_and_change_nothing(referee: Referee, game: Path, tmp_path: Path) -> None:
    before = game.read_bytes()
    refused = referee("seal", "number", "--as", "greek", input="7\n")  # Cyrus & Pyxis has no secrets
    assert refused.code == 1 and len(refused.err.strip().splitlines()) == 1
    assert game.read_bytes() == before
    hidden = tmp_path / "hidden.referee"
    GameFile.create(hidden, register(), hidden_tables()).close()
    before = hidden.read_bytes()
    for args, stdin in ((["seal", "two words", "--as", "north"], "7\n"), (["seal", "number", "--as", "north"], "\n"),
                        (["seal", "number", "--as", "north"], "x" * 5000 + "\n"),
                        (["seal", "number", "--as", "south"], "7\n")):  # south is not awaited yet
        result = referee(*args, "--file", str(hidden), input=stdin)
        assert result.code == 1, (args, result.out)
        assert hidden.read_bytes() == before
    assert referee("seal", "number", "--file", str(hidden), input="7\n").code == 2  # --as is required


def test_sealing_from_a_pipe_in_a_real_process(tmp_path: Path) -> None:
    import subprocess

    tests = Path(__file__).parent.parent
    script = (f"import sys; sys.path.insert(0, {str(tests)!r}); from hidden_game import register; register(); "
              "from referee.cli import main; main()")
    path = tmp_path / "g.referee"
    GameFile.create(path, register(), hidden_tables()).close()
    run = subprocess.run([sys.executable, "-c", script, "seal", "number", "--as", "north", "--file", str(path)],
                         input=f"{NORTH}\n", capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    assert str(NORTH) not in run.stdout + run.stderr and "Warning" not in run.stderr
    with GameFile.open(path, find_game) as gf:
        assert [s.secret for s in gf.secrets("north")] == [NORTH]
