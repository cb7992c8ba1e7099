"""docs/zargo.md: the tour runs as written (each line as a shell runs it, in a fresh folder),
from a new four-player game to month 25: a garrison sealed, shown in its owner's turn, shooting
and sallying from its city (LA CONQUÊTE D'UNE VILLE), sealed again; a Knight's charge stated hex by
hex (DÉTAIL DES CAPACITÉS — CHEVALIERS)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from tests.inprocess import run_line

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
        result = run_line(command, tmp_path, env)  # a plain referee line through main(), in this process
        assert result.returncode == expected, (line, result.stdout[-800:], result.stderr[-800:])
        outputs.append(result.stdout + result.stderr)
    said = dict(zip((line.partition("    # ")[0].strip() for line in tour()), outputs, strict=True))
    assert "at most 4" in outputs[2]  # the five-counter garrison
    assert "may shoot: vision:ILL:3613" in said["referee legal 3612"]
    odds = said["referee odds zargo attack 3613"]
    assert "4 against 5" in odds and "DR (the defender retreats)" in odds and "falls back into the city" in odds
    fought = said["referee do resolve --dice 1,6"]
    assert "vision from 3612 at 3613" in fought and "AIL on 3613 is eliminated (retreat)" in fought
    assert '["ILL","MCh"]' not in said["referee show --as chevaliers"].replace(" ", "")
    assert "V?: a city whose garrison is still sealed" in said["referee show --as chevaliers"]  # the code explained
    assert '["ILL","MCh"]' in said["referee show --as moines"].replace(" ", "")
    assert "state-the-path" in said["referee judge --position samples/zargo/charge.yaml 0904 0906"]
    assert "0904 0905 0906" in said["referee legal --position samples/zargo/charge.yaml 0904"]
    assert "✓ legal: 0904 0905 0906" in said["referee judge --position samples/zargo/charge.yaml 0904 0905 0906"]
    assert "game over: chevaliers, dragons, ailes, moines win" in outputs[-1]
