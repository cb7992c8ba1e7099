"""docs/vision.md (photo capture): the tour's commands work as written (a fresh folder, the samples beside it)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from tests.inprocess import run_line

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = (ROOT / "docs" / "vision.md").read_text(encoding="utf-8")


def tour() -> list[str]:
    block = DOC.split("<!-- vision-tour -->", 1)[1]
    body = re.search(r"```sh\n(.*?)\n```", block, re.S)
    assert body is not None
    return [line for line in body.group(1).splitlines() if line.strip()]


def test_the_vision_tour_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    bindir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
    }
    env.pop("REFEREE_FILE", None)
    env.pop("REFEREE_TABLES", None)
    lines = tour()
    assert any("--apply" in line for line in lines) and any("calibrate" in line for line in lines)
    for line in lines:
        command, _, comment = line.partition("#")
        expected = 1 if "refused (exit 1)" in comment else 0
        result = run_line(command, tmp_path, env)  # through the console script's main(), in this process
        assert result.returncode == expected, (line, result.stdout[-800:], result.stderr[-800:])
    assert (tmp_path / "markers.png").stat().st_size > 10_000
    assert (tmp_path / "cal.json").stat().st_size > 1_000
    assert len(list((tmp_path / "debug").glob("*.png"))) == 4
    log = run_line("referee log --json", tmp_path, env)
    assert "Samos G5" in log.stdout
