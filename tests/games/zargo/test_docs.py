"""docs/zargo.md: the tour runs as written (each line through a real shell, in a fresh folder),
from a new four-player game to a month-25 winner."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "zargo.md").read_text(encoding="utf-8")


def tour() -> list[str]:
    block = DOC.split("<!-- zargo-tour -->", 1)[1]
    body = re.search(r"```sh\n(.*?)\n```", block, re.S)
    assert body is not None
    return [line for line in body.group(1).splitlines() if line.strip()]


def test_the_zargo_tour_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    bindir = str(Path(sys.executable).parent)
    env = {
        **os.environ,
        "PATH": bindir + os.pathsep + os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "COLUMNS": "120",
    }
    env.pop("REFEREE_FILE", None)
    env.pop("REFEREE_TABLES", None)
    env.pop("REFEREE_LANG", None)
    outputs = []
    for line in tour():
        command, _, comment = line.partition("    # ")
        expected = 1 if "refused (exit 1)" in comment else 0
        result = subprocess.run(
            ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == expected, (line, result.stdout[-800:], result.stderr[-800:])
        outputs.append(result.stdout + result.stderr)
    assert "at most 4" in outputs[2]
    assert '["FMo","MCh"]' not in outputs[-4].replace(" ", "") and '["FMo","MCh"]' in outputs[-3].replace(" ", "")
    assert "game over: ailes win(s)" in outputs[-1]
