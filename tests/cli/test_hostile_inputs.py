"""Regression tests for hostile input files, arguments and terminals (issues 8 and 17).

Each test is one defect the hostile-input campaigns found: it failed before the guarded reader,
the escaping and the argument caps, and passes after. Where the defect was process-level (a
segfault, a hang, stderr written by a C library, the terminal width) the real console script
runs in a subprocess; elsewhere typer's runner is enough.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import typer.main

from referee.cli import app
from referee.tables import data_root
from tests.conftest import SampleGame

from .conftest import SETUP, Referee
from .test_process import referee_exe, run

SAMPLES = data_root("samples")
UMPIRE = SAMPLES / "cyrus-pyxis" / "umpire.yaml"
PHOTO = SAMPLES / "cyrus-pyxis" / "photos" / "setup.jpg"
HOSTILE = ("[/bold]", "[link=http://x]x[/link]", "\x1b[31mred", "bell\x07", "rtl\u202eevil")


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: "), err
    return lines[0]


def judge_position(referee: Referee, path: Path | str, game: str = "cyrus-pyxis") -> str:
    result = referee("judge", game, "--position", str(path), "Pyxis A5")
    assert result.code == 1, (result.out, result.err)
    return one_line(result.err)


# ---- files that crashed, hung or exhausted memory --------------------------------------------


def test_deep_yaml_position_is_one_line(referee: Referee, tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("game: cyrus-pyxis\ngreek: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert "nest" in judge_position(referee, path)


def test_deep_yaml_in_a_table_override_is_one_line(referee: Referee, tmp_path: Path) -> None:
    folder = tmp_path / "over" / "cyrus-pyxis"
    folder.mkdir(parents=True)
    (folder / "terrain.yaml").write_text("terrain: " + "{a: " * 50_000 + "1" + "}" * 50_000 + "\n")
    result = referee("judge", "cyrus-pyxis", "--position", str(UMPIRE), "--tables", str(tmp_path / "over"), "Pyxis A5")
    assert result.code == 1
    assert "terrain.yaml" in one_line(result.err) and "nested" in result.err


def test_deep_json_position_is_one_line(referee: Referee, tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"game": "cyrus-pyxis", "greek": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "nest" in judge_position(referee, path)


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_a_5000_digit_integer_is_one_line(referee: Referee, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"big{suffix}"
    digits = "9" * 5_000
    path.write_text(f'{{"game": "cyrus-pyxis", "turn": {digits}}}')
    line = judge_position(referee, path)
    assert "5,000 digits" in line and "4300" not in line


def test_a_csv_field_over_131072_characters_is_one_line(referee: Referee, tmp_path: Path) -> None:
    folder = tmp_path / "over" / "cyrus-pyxis"
    folder.mkdir(parents=True)
    (folder / "movement.csv").write_text("kind,max_squares,provenance\nking,5," + "r" * 140_000 + "\n")
    result = referee("tables", "cyrus-pyxis", "--tables", str(tmp_path / "over"))
    assert result.code == 1
    assert "movement.csv" in one_line(result.err)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_as_position_are_refused_by_the_real_script(tmp_path: Path, device: str) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to(device)
    for path in (device, str(link)):
        result = run("judge", "cyrus-pyxis", "--position", path, "Pyxis A5", cwd=tmp_path)
        assert result.returncode == 1
        assert "device" in one_line(result.stderr)


def test_a_fifo_as_position_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    start = time.perf_counter()
    result = run("judge", "cyrus-pyxis", "--position", str(fifo), "Pyxis A5", cwd=tmp_path)
    assert time.perf_counter() - start < 30
    assert result.returncode == 1 and "pipe" in one_line(result.stderr)


def test_a_yaml_alias_bomb_is_refused(referee: Referee, tmp_path: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path = tmp_path / "bomb.yaml"
    path.write_text("game: cyrus-pyxis\n" + "\n".join(lines) + "\n")
    start = time.process_time()  # in process: CPU time, which other jobs on the machine do not stretch
    assert "aliases" in judge_position(referee, path)
    assert time.process_time() - start < 20  # expanded, the bomb would take hours


def test_a_control_character_in_yaml_is_one_line(referee: Referee, tmp_path: Path) -> None:
    path = tmp_path / "ctl.yaml"
    path.write_bytes(b"game: cyrus-pyxis\ngreek: {Pyxis: A\x07}\n")
    assert "control character" in judge_position(referee, path)


def test_a_directory_as_position_is_one_line(referee: Referee, tmp_path: Path) -> None:
    assert "folder" in judge_position(referee, tmp_path)


# ---- unreadable paths exit 1, not 2 ----------------------------------------------------------


def without_root_powers(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Runs the script unable to bypass file permissions (root's DAC override dropped)."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "running as root: setpriv (util-linux) is needed to drop the DAC override"
        prefix = [setpriv, "--inh-caps=-dac_override,-dac_read_search",
                  "--bounding-set=-dac_override,-dac_read_search"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
    env["COLUMNS"] = "100"
    return subprocess.run([*prefix, *referee_exe(), *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=120)


def test_an_unreadable_position_and_folder_exit_1(tmp_path: Path) -> None:
    position = tmp_path / "p.yaml"
    shutil.copy(UMPIRE, position)
    position.chmod(0)
    locked = tmp_path / "locked"
    locked.mkdir()
    shutil.copy(UMPIRE, locked / "p.yaml")
    locked.chmod(0)
    try:
        for path in (position, locked / "p.yaml"):
            result = without_root_powers("judge", "cyrus-pyxis", "--position", str(path), "Pyxis A5", cwd=tmp_path)
            assert result.returncode == 1, result.stderr
            assert "permission denied" in one_line(result.stderr)
    finally:
        locked.chmod(0o755)


def test_no_path_parameter_is_checked_by_typer() -> None:
    """typer's readable=True would turn an unreadable file into a usage error (exit 2)."""
    checked: list[str] = []

    def walk(command: object, name: str) -> None:
        for sub_name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{name} {sub_name}")
        for param in getattr(command, "params", []):
            descriptor = getattr(param, "type_descriptor", None)
            if descriptor is not None and "Path" in str(descriptor.annotation):
                checked.append(f"{name} {param.name}")
                assert descriptor.parameter_info.readable is False, f"{name} {param.name}"

    walk(typer.main.get_command(app), "referee")
    assert len(checked) > 40


def test_a_name_too_long_for_the_file_system(referee: Referee, game: Path, tmp_path: Path) -> None:
    assert "too long" in judge_position(referee, tmp_path / ("a" * 300 + ".yaml"))
    result = referee("show", "--png", "b" * 300 + ".png")
    assert result.code == 1 and "too long" in one_line(result.err)


def test_a_non_utf8_seed_is_one_line(tmp_path: Path) -> None:
    args = [*referee_exe(), "resolve", "cyrus-pyxis", "--position", str(UMPIRE), "--seed"]
    result = subprocess.run([*(a.encode() for a in args), b"\xff\xfe-seed"], cwd=tmp_path, capture_output=True,
                            timeout=120)
    assert result.returncode == 1
    assert "seed" in one_line(result.stderr.decode())


# ---- position files: every rejection is one line ---------------------------------------------


def test_a_hundred_malformed_positions_are_each_refused_in_one_line(referee: Referee, tmp_path: Path) -> None:
    import random

    from tests.fuzz.input_mutations import POSITIONS, mutate_text

    refused = 0
    for game, sources in POSITIONS.items():
        rng = random.Random(game)
        for i in range(40):
            path = tmp_path / f"{game}-{i}.yaml"
            path.write_bytes(mutate_text(rng.choice(sources).read_bytes(), rng))
            result = referee("show", "--position", str(path), "--game", game)
            assert result.code in (0, 1), (path.read_bytes()[:200], result.err)
            if result.code == 1:
                refused += 1
                line = one_line(result.err)
                assert str(path) in line, line
    assert refused >= 100


def test_a_bad_setup_names_the_file_and_the_field(referee: Referee, tmp_path: Path) -> None:
    setup = tmp_path / "bad-setup.yaml"
    setup.write_text(SETUP.read_text(encoding="utf-8").replace("Pyxis: F1", "Pyxis: Z99"), encoding="utf-8")
    result = referee("new", "cyrus-pyxis", "--setup", str(setup))
    assert result.code == 1
    assert f"{setup}: greek.Pyxis: unknown cell 'Z99'" in result.err
    setup.write_text(SETUP.read_text(encoding="utf-8").replace("Pyxis: F1", "Pyxis: F3"), encoding="utf-8")
    result = referee("new", "cyrus-pyxis", "--setup", str(setup))
    assert result.code == 1 and f"{setup}: greek.Pyxis: " in one_line(result.err) and "[setup-line]" in result.err
    assert not (tmp_path / "game.referee").exists()


def test_a_bad_demo_script_names_the_file(referee: Referee, tmp_path: Path) -> None:
    script = tmp_path / "demo.yaml"
    script.write_text("game: cyrus-pyxis\ntitle: 5\nsetup: x\nsteps: []\n")
    result = referee("demo", "--script", str(script))
    assert result.code == 1 and f"{script}: title: " in one_line(result.err)
    script.write_text("game: cyrus-pyxis\ntitle: t\nsetup: /dev/zero\nsteps: []\n")
    assert "device" in one_line(referee("demo", "--script", str(script)).err)


# ---- text is data, never markup --------------------------------------------------------------


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_reason_is_journaled_and_printed_literally(referee: Referee, game: Path, text: str) -> None:
    reason = f"slip {text} fixed"
    result = referee("adjust", "Athéna", "C5", "--reason", reason)
    assert result.code == 0, result.err
    shown = reason.replace("\x1b", "\\x1b").replace("\u202e", "\\u202e")
    assert shown.replace("\x07", "\\x07") in result.out or shown.replace("\x07", "") in result.out
    assert not {"\x1b", "\x07", "\u202e"} & set(result.out)
    log = referee("log")
    assert log.code == 0 and "\x1b" not in log.out
    assert "slip" in log.out
    assert referee("show").code == 0
    exported = referee("export")
    assert exported.code == 0 and "slip" in exported.out


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_action_text_and_file_names_are_one_literal_line(referee: Referee, game: Path, text: str) -> None:
    before = game.read_bytes()
    result = referee("do", f"Athéna{text}", "C5")
    assert result.code == 1
    line = one_line(result.err)
    assert "\x1b" not in line and "\x07" not in line
    position = referee.cwd / f"pos{text.replace('/', '_')}.yaml"
    position.write_text(f"game: cyrus-pyxis\ngreek: {{'Pyx{text}': A1}}\n", encoding="utf-8")
    result = referee("judge", "cyrus-pyxis", "--position", str(position), "Pyxis A5")
    assert result.code == 1
    line = one_line(result.err)
    assert "pos" in line and "\x1b" not in line
    assert game.read_bytes() == before


def test_hostile_names_in_a_table_override_are_printed_literally(referee: Referee, tmp_path: Path) -> None:
    folder = tmp_path / "over"
    assert referee("tables", "export", "cyrus-pyxis", str(folder)).code == 0
    legions = folder / "cyrus-pyxis" / "legions.yaml"
    text = legions.read_text(encoding="utf-8")
    legions.write_text(text.replace("# Source:", "# Source: [/bold] [link=http://x]", 1), encoding="utf-8")
    result = referee("tables", "cyrus-pyxis", "--tables", str(folder))
    assert result.code == 0, result.err
    assert "[/bold] [link=http://x]" in result.out


def test_a_hostile_answer_is_one_literal_line(referee: Referee) -> None:
    result = referee("capture", str(PHOTO), "--position", str(UMPIRE), "--answer", "[/bold]\x1b[31m")
    assert result.code == 2 and "Traceback" not in result.err


def test_an_emoji_code_stays_as_typed(referee: Referee, game: Path) -> None:
    result = referee("adjust", "Athéna", "C5", "--reason", "oops :thumbs_up:")
    assert result.code == 0 and ":thumbs_up:" in result.out


# ---- long arguments are refused before the work ----------------------------------------------


@pytest.mark.parametrize("args", [
    ("adjust", "Athéna", "C5", "--reason", "x" * 50_000),
    ("do", "y" * 50_000),
    ("judge", "cyrus-pyxis", "--position", str(UMPIRE), "z" * 50_000),
    ("legal", "cyrus-pyxis", "--position", str(UMPIRE), "w" * 50_000),
    ("resolve", "cyrus-pyxis", "--position", str(UMPIRE), "--seed", "s" * 50_000),
])
def test_a_long_text_argument_is_refused_quickly(referee: Referee, game: Path, args: tuple[str, ...]) -> None:
    before = game.read_bytes()
    start = time.process_time()  # in process: CPU time, which other jobs on the machine do not stretch
    result = referee(*args)
    assert time.process_time() - start < 10  # a quadratic suggestion search on 50,000 characters takes minutes
    assert result.code == 1 and "more than the 1,000 accepted" in one_line(result.err)
    assert game.read_bytes() == before


# ---- one clean stderr line -------------------------------------------------------------------


def test_columns_0_still_prints_the_refusal(tmp_path: Path) -> None:
    for columns in ("0", "1", "-5", "abc"):
        env = {k: v for k, v in os.environ.items() if not k.startswith("REFEREE_")}
        env["COLUMNS"] = columns
        result = subprocess.run([*referee_exe(), "do", "x", "--file", str(tmp_path / "none.referee")],
                                cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
        assert result.returncode == 1 and "no game file" in one_line(result.stderr), columns


def test_play_prints_a_broken_file_error_once(tmp_path: Path, sample_game: SampleGame) -> None:
    import sqlite3

    sample_game(tmp_path)
    conn = sqlite3.connect(tmp_path / "game.referee")
    conn.execute("UPDATE journal SET text = 'Pyxis L12' WHERE seq = 60")
    conn.commit()
    conn.close()
    result = run("play", cwd=tmp_path, stdin="quit\n")
    assert result.returncode == 1
    assert "row 60" in one_line(result.stderr)


def damaged_jpeg(tmp_path: Path) -> Path:
    import random

    data = bytearray(PHOTO.read_bytes())
    rng = random.Random(1)
    for _ in range(40):
        data[rng.randrange(600, len(data))] = rng.randrange(256)
    path = tmp_path / "damaged.jpg"
    path.write_bytes(bytes(data))
    return path


def test_opencv_warnings_become_our_one_line(tmp_path: Path) -> None:
    photo = damaged_jpeg(tmp_path)
    position = SAMPLES / "cyrus-pyxis" / "photos" / "setup-position.yaml"
    for args in (("capture", str(photo), "--game", "cyrus-pyxis"),
                 ("vision", "calibrate", str(photo), "--position", str(position), "--out", "c.json")):
        result = run(*args, cwd=tmp_path)
        assert result.returncode == 1
        line = one_line(result.stderr)
        assert "damaged" in line and "Corrupt JPEG data" in line  # libjpeg's words, inside our line
    assert not (tmp_path / "c.json").exists()


def test_opencv_errors_become_our_one_line(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    for name in ("board.xyz", "board", "missing/board.png"):
        result = run("show", "--png", name, cwd=tmp_path)
        assert result.returncode == 1
        assert "OpenCV" not in one_line(result.stderr)
    result = run("vision", "markers", "--out", "missing/m.png", cwd=tmp_path)
    assert result.returncode == 1 and "no such file" in one_line(result.stderr)
    for path in ("/dev/zero", str(tmp_path)):
        result = run("capture", path, "--game", "cyrus-pyxis", cwd=tmp_path)
        assert result.returncode == 1 and "cannot read the photo" in one_line(result.stderr)


def test_play_ignores_a_history_file_that_is_a_fifo(tmp_path: Path, sample_game: SampleGame) -> None:
    sample_game(tmp_path)
    os.mkfifo(tmp_path / ".referee_history")  # run() sets HOME to the folder
    start = time.perf_counter()
    result = run("play", cwd=tmp_path, stdin="quit\n")
    assert result.returncode == 0 and time.perf_counter() - start < 30


def test_a_fifo_or_device_in_a_table_override_is_refused_not_skipped(referee: Referee, tmp_path: Path) -> None:
    folder = tmp_path / "over" / "cyrus-pyxis"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "movement.csv")
    (folder / "loop").symlink_to(".")
    result = referee("tables", "cyrus-pyxis", "--tables", str(tmp_path / "over"))
    assert result.code == 1 and "movement.csv: is a pipe" in one_line(result.err)
    (folder / "movement.csv").unlink()
    (folder / "terrain.yaml").symlink_to("/dev/urandom")
    result = referee("tables", "cyrus-pyxis", "--tables", str(tmp_path / "over"))
    assert result.code == 1 and "terrain.yaml: is a device" in one_line(result.err)


def test_writing_into_a_fifo_is_refused_not_blocked(referee: Referee, game: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    result = referee("export", str(fifo))
    assert result.code == 1 and "pipe" in one_line(result.err)
    png = tmp_path / "out.png"
    os.mkfifo(png)
    result = referee("show", "--png", str(png))
    assert result.code == 1 and "pipe" in one_line(result.err)
    assert referee("export", "/dev/null").code == 0


def test_a_refused_demo_keeps_nothing_and_spares_the_old_file(referee: Referee, tmp_path: Path) -> None:
    script = tmp_path / "demo.yaml"
    script.write_text(f"game: cyrus-pyxis\ntitle: t\nsetup: {SETUP}\nsteps:\n  - do: Pyxis Z1\n", encoding="utf-8")
    result = referee("demo", "--script", str(script), "--keep", "new.referee")
    assert result.code == 1 and f"{script}: steps[0].do: unknown cell" in result.err
    assert not list(tmp_path.glob("new.referee*"))
    old = tmp_path / "old.referee"
    old.write_bytes(b"precious")
    assert referee("demo", "--script", str(script), "--keep", str(old)).code == 1
    assert old.read_bytes() == b"precious"


def test_typed_json_in_a_setup_action_is_parsed_with_caps(referee: Referee) -> None:
    assert referee("new", "300-solo").code == 0
    for text in ("[" * 990, '{"a":' * 190, '{"campaign": ' + "9" * 900 + "}"):
        result = referee("do", f"setup {text}")
        assert result.code == 1 and "setup: not a JSON position" in one_line(result.err)


def test_the_markup_reason_of_issue_17_in_the_real_script(tmp_path: Path, sample_game: SampleGame) -> None:
    """`adjust --reason "[/bold]"` journaled, then crashed; every `log` after it crashed too."""
    sample_game(tmp_path)
    result = run("adjust", "Athéna C5", "--reason", "[/bold] \x1b[31mred", cwd=tmp_path)
    assert result.returncode == 0 and "reason: [/bold] \\x1b[31mred" in result.stdout
    log = run("log", cwd=tmp_path)
    assert log.returncode == 0 and "[/bold]" in log.stdout and "\x1b" not in log.stdout
    assert "Traceback" not in result.stderr + log.stderr


def test_a_usage_error_quoting_typed_text_shows_controls_as_escapes(referee: Referee, game: Path) -> None:
    # found by the long fuzz: click's own "unexpected extra argument(s) (...)" quoted a bidi override
    direct = referee("undo", "draw \u202eevil\x1b[31m")
    shell = referee("play", "--file", str(game), input="undo draw \u202eevil\nquit\n")
    for result in (direct, shell):
        shown = result.out + result.err
        assert "\u202e" not in shown and "\x1b[31m" not in shown, shown
        assert "\\u202e" in shown
    assert direct.code == 2
