"""docs/it.md works as written: the Italian tour runs command by command (like the README tour),
the output it quotes is what the referee prints, and every action word it teaches is understood."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from referee.dice import PhysicalDice
from referee.games import find_game
from tests.inprocess import run_line

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "it.md").read_text(encoding="utf-8")


def blocks_after(marker: str, fence: str) -> list[list[str]]:
    """Returns the lines of every ``fence`` block that follows ``marker``."""
    found = []
    for part in GUIDE.split(marker)[1:]:
        body = re.match(rf"\s*```{fence}\n(.*?)\n```", part, re.S)
        assert body is not None, f"{marker} must be followed by a ```{fence} block"
        found.append([line for line in body.group(1).splitlines() if line.strip()])
    return found


def test_the_italian_tour_runs_as_written(tmp_path: Path) -> None:
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    bindir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "HOME": str(tmp_path),
           "COLUMNS": "1000"}
    for key in ("REFEREE_FILE", "REFEREE_TABLES", "REFEREE_LANG"):
        env.pop(key, None)
    [tour] = blocks_after("<!-- giro -->", "sh")
    assert len(tour) >= 12 and all(line.startswith("referee --lang ") for line in tour)
    said: list[str] = []
    for line in tour:
        command, _, comment = line.partition("#")
        expected = 1 if "rifiutato (exit 1)" in comment else 0
        result = run_line(command, tmp_path, env)  # through the console script's main(), in this process
        assert result.returncode == expected, (line, result.stdout[-500:], result.stderr[-500:])
        said += [out.strip() for out in (result.stdout + result.stderr).splitlines()]
    assert (tmp_path / "troia.png").stat().st_size > 10_000
    text = "\n".join(said)
    quoted = blocks_after("<!-- uscita -->", "text")
    assert len(quoted) >= 5
    for block in quoted:
        for line in block:
            assert line.strip() in text, line


def test_every_action_word_the_guide_teaches_is_understood() -> None:
    engine = find_game("iliad")
    state = engine.sample_start()
    state = engine.play(state, engine.parse(state, "risolvi"), PhysicalDice([4, 2, 5, 5, 6, 3]))[0]
    table = GUIDE.split("| si scrive | significa |", 1)[1].split("\n\n", 1)[0]
    actions = re.findall(r"^\| `([^`]+)`", table, re.M)
    assert len(actions) >= 6
    for text in actions:
        engine.parse(state, text)  # raises on a word the notation does not know
    overrides = GUIDE.split("Correzioni a mano", 1)[1].split("\n\n", 1)[0]
    for text in re.findall(r"`([^`]+)`", overrides):
        if not text.startswith("referee"):
            assert engine.parse_adjust(state, text).is_adjust(), text
