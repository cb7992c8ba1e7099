"""The real console script in a subprocess: exit codes, stderr lines, import hygiene, the shell."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SampleGame

EXAMPLE = (
    '{"game": "cyrus-pyxis", "greek": {"Pyxis": "A6", "Athéna": "B6", "Messène": "B5"},'
    ' "persian": {"Cyrus": "L6", "Amatonte": "B6"}, "supports": {"Messène": "Athéna"}}'
)


def referee_exe() -> list[str]:
    exe = shutil.which("referee", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-c", "from referee.cli import main; main()"]


def run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env["COLUMNS"] = "100"
    env["HOME"] = str(cwd)
    return subprocess.run([*referee_exe(), *args], cwd=cwd, input=stdin, capture_output=True, text=True,
                          env=env, timeout=120)


def test_exit_codes_and_one_line_errors(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(EXAMPLE, encoding="utf-8")
    ok = run("judge", "cyrus-pyxis", "--position", str(pos), "Pyxis C6", "--json", cwd=tmp_path)
    assert ok.returncode == 0 and json.loads(ok.stdout)["legal"] is True
    bad = run("judge", "cyrus-pyxis", "--position", str(pos), "Athna C6", cwd=tmp_path)
    assert bad.returncode == 1 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "Athéna" in bad.stderr
    usage = run("judge", cwd=tmp_path)
    assert usage.returncode == 2


def test_rejected_action_in_a_real_process_leaves_the_file_identical(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    before = (tmp_path / "game.referee").read_bytes()
    result = run("do", "Centaure B6", cwd=tmp_path)
    assert result.returncode == 1 and "[too-far]" in result.stderr
    assert (tmp_path / "game.referee").read_bytes() == before
    assert not list(tmp_path.glob("game.referee-*"))  # no journal file left behind


def test_non_vision_commands_never_import_cv2(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(EXAMPLE, encoding="utf-8")
    code = (
        "import sys\n"
        "from referee.cli import app\n"
        "for args in (['judge', 'cyrus-pyxis', '--position', sys.argv[1], 'Pyxis C6'],\n"
        "             ['resolve', 'cyrus-pyxis', '--position', sys.argv[1]], ['tables', 'cyrus-pyxis'],\n"
        "             ['new', 'cyrus-pyxis', '--file', sys.argv[2]], ['show', '--file', sys.argv[2]]):\n"
        "    try:\n"
        "        app(args)\n"
        "    except SystemExit as e:\n"
        "        assert e.code in (0, None), (args, e.code)\n"
        "print('CV2' if 'cv2' in sys.modules else 'NO-CV2', file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(pos), str(tmp_path / "g.referee")],
                            capture_output=True, text=True, timeout=120)
    assert result.stderr.strip().splitlines()[-1] == "NO-CV2", result.stderr


def test_shell_plays_a_few_lines(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    script = "Pergame L7\nCentaure B6\nlegal Demis\nundo\nlog\nhelp\nquit\n"
    result = run("play", cwd=tmp_path, stdin=script)
    assert result.returncode == 0, result.stderr
    assert "✓ Pergame L7" in result.stdout
    assert "[too-far]" in result.stderr
    assert "undo: Pergame L7" in result.stdout
    assert "support Messène Athéna" in result.stdout  # from help


@pytest.mark.parametrize("command", [["--help"], ["tables", "--help"], ["dice", "--help"]])
def test_help_works(tmp_path: Path, command: list[str]) -> None:
    assert run(*command, cwd=tmp_path).returncode == 0


def test_umpire_resolve_with_open_supports_in_a_real_process(tmp_path: Path) -> None:
    pos = tmp_path / "open.json"
    pos.write_text('{"game": "cyrus-pyxis", "phase": "support", "greek": {"Apollon": "B6", "Messène": "B4"},'
                   ' "persian": {"Darius": "B6"}}', encoding="utf-8")
    noted = run("resolve", "cyrus-pyxis", "--position", str(pos), cwd=tmp_path)
    assert noted.returncode == 0 and "Messène (Greek) could still support Apollon" in noted.stdout
    strict = run("resolve", "cyrus-pyxis", "--position", str(pos), "--strict", cwd=tmp_path)
    assert strict.returncode == 1 and strict.stdout == "" and len(strict.stderr.strip().splitlines()) == 1
    assert "still open: supports.Messène" in strict.stderr
