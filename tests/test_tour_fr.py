"""docs/fr.md's quick start runs as written, in French, like the README's tour (tests/test_readme.py)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from tests.inprocess import run_line

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "fr.md").read_text(encoding="utf-8")
NBSP = "\u00a0"


def block_after(marker: str) -> list[str]:
    block = GUIDE.split(marker, 1)[1]
    body = re.search(r"```sh\n(.*?)\n```", block, re.S)
    assert body is not None
    return [line for line in body.group(1).splitlines() if line.strip()]


def test_the_french_quick_start_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    bindir = str(Path(sys.executable).parent)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "LC_", "LANG"))}
    env.update(PATH=bindir + os.pathsep + os.environ.get("PATH", ""), HOME=str(tmp_path), COLUMNS="200")
    outputs: dict[str, str] = {}  # the first output of each command
    lines = block_after("<!-- tour -->")
    assert all(line.startswith("referee --lang ") for line in lines)
    for line in lines:
        command, _, comment = line.partition("#")
        expected = 1 if "refusé (code 1)" in comment else 0
        result = run_line(command, tmp_path, env)  # through the console script's main(), in this process
        assert result.returncode == expected, (line, result.stdout[-500:], result.stderr[-500:])
        outputs.setdefault(command.strip(), " ".join((result.stdout + result.stderr).replace(NBSP, " ").split()))
    # what the guide promises in its comments is what the referee says, in French
    assert "Centaure a besoin de 4 cases" in outputs['referee --lang fr do "Centaure B6"']
    assert "(V Les mouvements)" in outputs['referee --lang fr do "Centaure B6"']
    assert "Telestas pourrait encore soutenir Pergame" in outputs["referee --lang fr do résoudre"]
    log = outputs["referee --lang fr log"]
    assert "soutien Telestas Pergame" in log and "Tyr recule L8 → L9" in log
    italian = outputs["referee --lang it log"]
    assert "supporto Telestas Pergame" in italian and "Tyr si ritira L8 → L9" in italian
