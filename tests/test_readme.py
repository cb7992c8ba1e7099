"""The README's commands work as written: the test command is CI's, and the tour runs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.inprocess import run_line

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def block_after(marker: str) -> list[str]:
    block = README.split(marker, 1)[1]
    body = re.search(r"```sh\n(.*?)\n```", block, re.S)
    assert body is not None
    return [line for line in body.group(1).splitlines() if line.strip()]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "<!-- test-command -->" in ci
    assert "pytest -m docs" in ci  # the docs' install commands, run as written
    assert block_after("<!-- test-command -->")[0].endswith("python -m pytest")


def test_the_tour_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "HOME": str(tmp_path)}
    env.pop("REFEREE_FILE", None)
    env.pop("REFEREE_TABLES", None)
    for line in block_after("<!-- tour -->"):
        command, _, comment = line.partition("#")
        expected = 1 if "refused (exit 1)" in comment else 0
        result = run_line(command, tmp_path, env)  # through the console script's main(), in this process
        assert result.returncode == expected, (line, result.stdout[-500:], result.stderr[-500:])
    assert (tmp_path / "board.png").stat().st_size > 10_000
    # the tables section's export, run where the tour ran: a clone keeps a clean git status
    export = run_line("referee tables export cyrus-pyxis my-tables", tmp_path, env)
    assert export.returncode == 0, export.stderr
    written = sorted(p.name + ("/" if p.is_dir() else "") for p in tmp_path.iterdir() if p.name != "samples")
    assert {"board.png", "game.referee", "my-tables/"} <= set(written)
    for name in written:
        ignored = subprocess.run(["git", "check-ignore", "--no-index", "-q", name], cwd=ROOT, capture_output=True)
        assert ignored.returncode == 0, f"the README's commands leave {name} for git to track"


def test_the_test_command_says_how_long_it_takes() -> None:
    after = README.split("<!-- test-command -->", 1)[1].split("##", 1)[0]
    assert re.search(r"about \d+ minutes", after), after


def test_the_set_up_examples_deploy_where_rule_II_allows() -> None:
    """II.3, II.4: the README's deployment examples are legal at their step of the sample set-up
    (Greeks on lines 1-2, Persians on 11-12)."""
    from referee.dice import NoDice
    from referee.games import find_game
    from referee.tables import data_root, load_table_set, load_yaml_text

    row = next(line for line in README.splitlines() if "set-up: deploy a legion" in line)
    examples = re.findall(r"`(\w+ [A-L]\d+)`", row.split("|")[1])
    assert examples, row
    engine = find_game("cyrus-pyxis")
    sample = data_root("samples") / "cyrus-pyxis" / "setup.yaml"
    data = load_yaml_text(str(sample), sample.read_text(encoding="utf-8"))
    for example in examples:
        legion = example.split()[0]
        state = engine.new_state(load_table_set("cyrus-pyxis"))
        for text in engine.setup_actions(state, data, "sample"):
            if text.split()[0] == legion:
                break
            state, _ = engine.play(state, engine.parse(state, text), NoDice())
        verdict = engine.judge(state, engine.parse(state, example))
        assert verdict.legal, (example, verdict.codes())


def test_performance_figures_name_their_script_date_and_machine() -> None:
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    latest = text.split("\n## ", 2)[1]  # the newest dated section
    assert re.match(r"\d{1,2} \w+ \d{4}", latest), latest[:40]
    assert re.search(r"\d+ CPUs|\d+ cores", latest) and "Python" in latest
    rows = [ln for ln in latest.splitlines() if ln.startswith("| ") and not ln.startswith(("| measure", "|---"))]
    assert rows and all("bench/" in row or "| same |" in row for row in rows), rows
    assert "passed" in next(row for row in rows if "bench_suite" in row)  # the suite as measured now
