"""The file you name is the only file we touch (issue 29): names that look like URI syntax, outputs
that would replace a game, keys written twice, output that cannot be shown after a write, WAL files
left by a crash, table folders that cannot be read. Each example of the issue is a test here."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from referee.tables import data_root
from tests.conftest import SampleGame

from .conftest import SETUP, Referee

REFEREE = str(Path(sys.executable).parent / "referee")
ZARGO_UMPIRE = data_root("samples") / "zargo" / "umpire.yaml"


def run(*args: str | bytes, cwd: Path, env: dict[str, str] | None = None, user: str | None = None,
        stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[bytes]:
    """Runs the real console script (as ``nobody`` when asked and we are root)."""
    cmd: list[str | bytes] = [REFEREE, *args]
    if user == "nobody" and os.geteuid() == 0:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    full = {**os.environ, "COLUMNS": "100", "HOME": str(cwd), **(env or {})}
    full.pop("REFEREE_FILE", None)
    full.pop("REFEREE_TABLES", None)
    return subprocess.run(cmd, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, env=full, timeout=120)


def tree(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def one_line(err: str) -> bool:
    return err.count("\n") == 1 and "Traceback" not in err


# ---- paths are paths ----------------------------------------------------------------------------

NAMES = {
    "hash": ("g#copy", "g"),  # (the name, the file an unquoted file: URI would open instead)
    "question": ("g?mode=ro", "g"),
    "percent": ("g%41", "gA"),
    "spaces": ("Game one .referee", None),
    "memory": (":memory:", None),
    "newline": ("two\nlines", None),
    "non-utf8": (os.fsdecode(b"g\xff\xfe"), None),
}


@pytest.mark.parametrize("kind", sorted(NAMES))
def test_a_name_with_uri_syntax_is_the_file_it_names(referee: Referee, kind: str) -> None:
    """Every command that takes a file, on a name holding URI syntax, beside the file an unquoted
    URI would open: that other file is never touched and nothing stray is left."""
    name, decoy = NAMES[kind]
    here = referee.cwd
    if decoy is not None:
        assert referee("new", "cyrus-pyxis", "--file", decoy).code == 0
    decoy_bytes = (here / decoy).read_bytes() if decoy else None
    out, png, copy = f"{name}.json", f"{name}.png", f"{name} copy"
    steps: list[tuple[str, ...]] = [
        ("new", "cyrus-pyxis", "--file", name), ("do", "forest A4", "--file", name),
        ("do", "forest B4", "--file", name), ("undo", "--file", name), ("redo", "--file", name),
        ("adjust", "terrain C5 hill", "--reason", "slip", "--file", name), ("log", "--file", name),
        ("status", "--file", name), ("show", "--file", name), ("show", "--png", png, "--file", name),
        ("export", out, "--file", name), ("import", out, "--file", copy), ("dice", "status", "--file", name),
        ("dice", "reveal", "--file", name), ("dice", "verify", name), ("dice", "verify", out),
        ("new", "cyrus-pyxis", "--file", name, "--force"),
    ]
    for args in steps:
        result = referee(*args)
        assert result.code == 0, (kind, args, result.err)
    assert "forest" not in referee("log", "--file", name).out  # the new --force game replaced the old
    assert "forest B4" in referee("log", "--file", copy).out
    photo = here / f"{name} photo.png"
    photo.write_bytes(b"not a photo")
    result = referee("capture", str(photo), "--file", name)
    assert result.code == 1 and " photo.png: not a photo" in result.err, result.err
    expected = sorted({name, out, png, copy, photo.name} | ({decoy} if decoy else set()))
    assert tree(here) == expected
    if decoy is not None:
        assert (here / decoy).read_bytes() == decoy_bytes, "the other file was written"


def test_the_issues_example_g_and_g_hash_copy(tmp_path: Path) -> None:
    """With g and g#copy side by side, a move played in g#copy goes into g#copy, never into g."""
    for name in ("g", "g#copy"):
        assert run("new", "cyrus-pyxis", "--setup", str(SETUP), "--file", name, cwd=tmp_path).returncode == 0
    assert tree(tmp_path) == ["g", "g#copy"]  # no '.g' or other stray game file
    g = (tmp_path / "g").read_bytes()
    done = run("do", "Pergame L7", "--file", "g#copy", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "g").read_bytes() == g
    assert b"Pergame L7" in run("log", "--file", "g#copy", cwd=tmp_path).stdout


def test_non_utf8_bytes_in_a_real_argument(tmp_path: Path) -> None:
    name = b"g\xff\xfe.referee"
    assert run("new", "iliad", "--file", name, cwd=tmp_path).returncode == 0
    shown = run("status", "--file", name, "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["status"]
    assert run("export", b"out\xff.json", "--file", name, cwd=tmp_path).returncode == 0
    assert sorted(os.listdir(os.fsencode(tmp_path))) == [name, b"out\xff.json"]


# ---- never overwrite a game by accident ---------------------------------------------------------


def test_export_onto_the_game_file_is_refused(referee: Referee, game: Path) -> None:
    """The issue's example: ``referee export game.referee`` replaced the game with its JSON."""
    before = game.read_bytes()
    for extra in ((), ("--force",)):
        result = referee("export", "game.referee", *extra)
        assert result.code == 1 and "is a game file" in result.err and one_line(result.err), result.err
        assert game.read_bytes() == before
    for name in ("other.json", "other.png"):  # a game file by its content, whatever its name
        shutil.copy(game, game.parent / name)
    for args in (("export", "other.json", "--force"), ("show", "--png", "other.png", "--force"),
                 ("export", "--setup", "other.json", "--force")):
        result = referee(*args)
        assert result.code == 1 and "is a game file" in result.err, (args, result.err)
    assert (game.parent / "other.json").read_bytes() == (game.parent / "other.png").read_bytes() == before
    assert tree(game.parent) == ["game.referee", "other.json", "other.png"]


def test_an_existing_output_is_replaced_only_with_force(referee: Referee, game: Path) -> None:
    for args in (("export", "out.json"), ("show", "--png", "board.png"), ("export", "--setup", "s.yaml"),
                 ("tables", "export", "cyrus-pyxis", "over")):
        assert referee(*args).code == 0, args
        target = game.parent / (args[-1] if args[0] != "tables" else "over/cyrus-pyxis/legions.yaml")
        before = target.read_bytes()
        inode = target.stat().st_ino
        result = referee(*args)
        assert result.code == 1 and "--force" in result.err and one_line(result.err), (args, result.err)
        assert target.read_bytes() == before
        forced = referee(*args, "--force")
        assert forced.code == 0, (args, forced.err)
        assert target.stat().st_ino != inode  # written beside, then renamed in: never rewritten in place
    assert tree(game.parent) == ["board.png", "game.referee", "out.json", "over", "s.yaml"]


def test_a_debug_folder_with_earlier_pictures_needs_force(referee: Referee, game: Path) -> None:
    folder = game.parent / "debug"
    folder.mkdir()
    (folder / "01-markers.png").write_bytes(b"an earlier run")
    photo = game.parent / "photo.png"
    photo.write_bytes(b"not a photo")
    result = referee("capture", str(photo), "--debug", str(folder))
    assert result.code == 1 and "--force" in result.err and "debug" in result.err, result.err
    assert (folder / "01-markers.png").read_bytes() == b"an earlier run"


def test_the_temporaries_of_a_killed_write_are_cleaned_by_the_next_command(referee: Referee, game: Path) -> None:
    """What a killed ``new --force``, ``export`` or ``show --png`` leaves (an unlocked temporary,
    with SQLite's side journal for a game file) goes with the next command in that folder."""
    folder = game.parent
    for name in (".game.referee.00112233aabb.referee-tmp", ".out.json.445566778899.referee-tmp"):
        (folder / name).write_bytes(b"SQLite format 3\x00 half a file")
    (folder / ".game.referee.00112233aabb.referee-tmp-journal").write_bytes(b"journal")
    assert referee("status").code == 0
    assert tree(folder) == ["game.referee"]


# ---- a key written twice ------------------------------------------------------------------------


def test_a_position_with_a_hex_written_twice_is_refused(referee: Referee) -> None:
    text = ZARGO_UMPIRE.read_text(encoding="utf-8")
    for twin in ('  "0906": [FCh]\n', '  "0906 ": [FCh]\n'):
        path = referee.cwd / "p.yaml"
        path.write_text(text.replace('  "0906": [CHV]\n', '  "0906": [CHV]\n' + twin), encoding="utf-8")
        result = referee("judge", "zargo", "--position", str(path), "pass")
        assert result.code == 1 and one_line(result.err), result.err
        assert "line " in result.err and "'0906" in result.err and "p.yaml" in result.err
    path.write_text(text.replace("month: 3\n", "month: 3\nmonth: 4\n"), encoding="utf-8")
    result = referee("judge", "zargo", "--position", str(path), "pass")
    assert result.code == 1 and "'month'" in result.err, result.err


def test_a_setup_with_a_legion_or_terrain_written_twice_is_refused(referee: Referee) -> None:
    text = SETUP.read_text(encoding="utf-8")
    for old, new in (("  Athéna: G1\n", "  Athéna: G1\n  Athéna: H1\n"), ("terrain:\n", "terrain: {}\nterrain:\n")):
        assert old in text
        path = referee.cwd / "s.yaml"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        result = referee("new", "cyrus-pyxis", "--setup", str(path))
        assert result.code == 1 and one_line(result.err) and "written twice" in result.err, result.err
        assert tree(referee.cwd) == ["s.yaml"]


def test_a_json_position_with_a_key_written_twice_is_refused(referee: Referee) -> None:
    import yaml

    data = yaml.safe_load(ZARGO_UMPIRE.read_text(encoding="utf-8"))
    text = json.dumps(data, indent=1).replace('"active": "chevaliers"', '"active": "chevaliers",\n "active": "dragons"')
    path = referee.cwd / "p.json"
    path.write_text(text, encoding="utf-8")
    result = referee("judge", "zargo", "--position", str(path), "pass")
    assert result.code == 1 and "'active'" in result.err and "line " in result.err, result.err


# ---- an output error never hides a committed action ---------------------------------------------


@pytest.fixture
def played(tmp_path: Path, sample_game: SampleGame) -> Path:
    return sample_game(tmp_path)


def _entries(game: Path) -> int:
    conn = sqlite3.connect(f"file:{game}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
    finally:
        conn.close()


def test_a_full_disk_on_stdout_after_the_move_says_it_was_recorded(played: Path) -> None:
    n = _entries(played)
    with open("/dev/full", "wb") as full:
        done = run("do", "Pergame L7", cwd=played.parent, stdout=full.fileno())
    err = done.stderr.decode()
    assert done.returncode == 0 and one_line(err), err
    assert f"journal entry {n + 1}" in err and "no space left" in err
    assert _entries(played) == n + 1
    with open("/dev/full", "wb") as full:  # refused: nothing recorded, exit 1, still one line
        refused = run("do", "Pergame L1", cwd=played.parent, stdout=full.fileno())
    assert refused.returncode == 1 and "Traceback" not in refused.stderr.decode()


def test_an_unencodable_stdout_after_the_move_says_it_was_recorded(played: Path) -> None:
    n = _entries(played)
    done = run("do", "Pergame L7", cwd=played.parent, env={"PYTHONIOENCODING": "ascii"})
    err = done.stderr.decode()
    assert done.returncode == 0 and one_line(err) and f"journal entry {n + 1}" in err, err
    assert _entries(played) == n + 1


def test_a_closed_pipe_after_the_move_says_it_was_recorded(played: Path) -> None:
    n = _entries(played)
    read, write = os.pipe()
    os.close(read)  # nobody reads: the first write fails with EPIPE
    try:
        done = run("do", "Pergame L7", cwd=played.parent, stdout=write)
    finally:
        os.close(write)
    err = done.stderr.decode()
    assert done.returncode == 0 and one_line(err) and f"journal entry {n + 1}" in err, err
    assert _entries(played) == n + 1
    read, write = os.pipe()
    os.close(read)
    try:
        shown = run("log", cwd=played.parent, stdout=write)  # nothing to record: exit 1, one line
    finally:
        os.close(write)
    assert shown.returncode == 1 and one_line(shown.stderr.decode()) and "nothing was recorded" in shown.stderr.decode()


# ---- the fuzz harness's tracebacks -------------------------------------------------------------


def test_a_tables_path_too_long_is_one_line(referee: Referee) -> None:
    for folder in ("x" * 5000, "x" * 300, "/".join(["x" * 250] * 20)):
        result = referee("tables", "iliad", "--tables", folder)
        assert result.code == 1 and one_line(result.err), result.err


def test_an_unreadable_tables_folder_is_one_line(tmp_path: Path) -> None:
    """Run as ``nobody`` (the suite runs as root, who reads everything)."""
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("root without setpriv cannot make a folder unreadable")  # pragma: no cover
    shared = Path("/tmp") / f"referee-unreadable-{os.getpid()}"
    shutil.rmtree(shared, ignore_errors=True)
    try:
        (shared / "closed").mkdir(parents=True)
        (shared / "inside" / "iliad").mkdir(parents=True)
        for path in (shared, shared / "inside"):
            path.chmod(0o755)
        (shared / "closed").chmod(0o000)
        (shared / "inside" / "iliad").chmod(0o300)  # can enter, cannot list
        for folder in ("closed", "inside", "closed/x"):
            result = run("tables", "iliad", "--tables", str(shared / folder), cwd=shared, user="nobody")
            err = result.stderr.decode()
            assert result.returncode == 1 and one_line(err), (folder, err)
    finally:
        for path in (shared / "closed", shared / "inside" / "iliad"):
            path.chmod(0o755)
        shutil.rmtree(shared, ignore_errors=True)


@pytest.mark.parametrize("option", ["--file", "--setup", "--position", "--tables-file", "import", "verify",
                                    "capture", "--calibration", "--config", "--png", "export"])
def test_a_folder_given_as_a_file_is_one_line(referee: Referee, game: Path, option: str) -> None:
    folder = game.parent / "folder"
    folder.mkdir(exist_ok=True)
    args = {
        "--file": ("log", "--file", "folder"), "--setup": ("new", "iliad", "--setup", "folder", "--file", "n"),
        "--position": ("judge", "cyrus-pyxis", "--position", "folder", "Pyxis F2"),
        "--tables-file": ("tables", "iliad", "--tables", "game.referee"),
        "import": ("import", "folder", "--file", "n"), "verify": ("dice", "verify", "folder"),
        "capture": ("capture", "folder"), "--calibration": ("capture", "folder", "--calibration", "folder"),
        "--config": ("capture", str(SETUP), "--game", "cyrus-pyxis", "--config", "folder"),
        "--png": ("show", "--png", "folder"), "export": ("export", "folder", "--force"),
    }[option]
    before = game.read_bytes()
    result = referee(*args)
    assert result.code == 1 and one_line(result.err), (args, result.err)
    assert game.read_bytes() == before and tree(game.parent) == ["folder", "game.referee"]


def _crash_with_a_wal(game: Path) -> None:
    """Leaves ``game`` as a process using SQLite's WAL mode leaves it when killed after a commit."""
    code = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('PRAGMA journal_mode=WAL')\n"
        "c.execute('CREATE TABLE crash_note (x)')\n"
        "c.commit()\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(game)], check=True)
    assert Path(f"{game}-wal").stat().st_size > 0


def test_a_wal_left_by_a_crash_is_not_rewritten_by_a_refused_command(played: Path) -> None:
    _crash_with_a_wal(played)
    before = played.read_bytes()
    for args in (("do", "Pergame L1"), ("log",), ("status",), ("undo", "--bogus"), ("dice", "verify"),
                 ("do", "Nowhere Z99")):
        result = run(*args, cwd=played.parent)
        assert result.returncode in (0, 1, 2), (args, result.stderr)
        assert played.read_bytes() == before, f"{args} rewrote the game file"
    done = run("do", "Pergame L7", cwd=played.parent)  # an accepted write recovers it, then leaves no side file
    assert done.returncode == 0, done.stderr
    assert tree(played.parent) == ["game.referee"]
    assert b"Pergame L7" in run("log", cwd=played.parent).stdout


def test_seal_and_reveal_open_the_file_they_name(referee: Referee) -> None:
    """``seal`` and ``reveal`` with --file: a ``#`` name beside the file an unquoted URI would open."""
    sys.path.insert(0, str(Path(__file__).parent.parent))
    from hidden_game import hidden_tables, register

    from referee.journal import GameFile

    for name in ("g", "g#copy"):
        GameFile.create(referee.cwd / name, register(), hidden_tables()).close()
    g = (referee.cwd / "g").read_bytes()
    assert referee("seal", "number", "--as", "north", "--file", "g#copy", input="42\n").code == 0
    assert referee("seal", "number", "--as", "south", "--file", "g#copy", input="7\n").code == 0
    revealed = referee("reveal", "number", "--as", "north", "--file", "g#copy")
    assert revealed.code == 0, revealed.err
    assert (referee.cwd / "g").read_bytes() == g
    assert tree(referee.cwd) == ["g", "g#copy"]


def test_an_export_or_a_table_with_a_key_written_twice_is_refused(referee: Referee, game: Path) -> None:
    assert referee("export", "out.json").code == 0
    text = (game.parent / "out.json").read_text(encoding="utf-8")
    assert text.count('\n  "game": ') == 1
    (game.parent / "twice.json").write_text(text.replace('\n  "game": ', '\n  "game": "iliad",\n  "game": ', 1),
                                            encoding="utf-8")
    for args in (("import", "twice.json", "--file", "n.referee"), ("dice", "verify", "twice.json")):
        result = referee(*args)
        assert result.code == 1 and "'game'" in result.err and "line " in result.err, (args, result.err)
    assert referee("tables", "export", "cyrus-pyxis", "over").code == 0
    table = game.parent / "over" / "cyrus-pyxis" / "terrain.yaml"
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    key = next(i for i, line in enumerate(lines) if line[:1].isalpha() and line.rstrip().endswith(":"))
    table.write_text("".join(lines + lines[key:]), encoding="utf-8")  # the first top-level key again, to the end
    result = referee("tables", "cyrus-pyxis", "--tables", "over")
    assert result.code == 1 and "terrain.yaml" in result.err and "written twice" in result.err, result.err
