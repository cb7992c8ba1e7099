"""Golden outputs: what they are made of, and a script to regenerate them deliberately.

Run ``python -m tests.contract.goldens`` (from the repository's root) to rewrite the files under
tests/contract/goldens/ after an intended change; the tests compare against them and never
rewrite them. A newly registered game gets its seeded playthrough and perft files this way.
"""

from __future__ import annotations

import io
import itertools
import json
import sys
from pathlib import Path

import yaml
from rich.console import Console

from referee import render
from referee.dice import NoDice
from referee.game import AnyEngine
from referee.games import available_games, find_game
from referee.tables import data_root
from tests.contract.walks import start, walk

GOLDENS = Path(__file__).parent / "goldens"


def sample_game_states() -> list[object]:
    """The states of the demo game (set-up, then every scripted step that is legal)."""
    engine = find_game("cyrus-pyxis")
    samples = data_root("samples") / "cyrus-pyxis"
    state = engine.sample_start()
    states: list[object] = [state]
    demo = yaml.safe_load((samples / "demo.yaml").read_text(encoding="utf-8"))
    for step in demo["steps"]:
        if step.get("do") and step.get("expect", "legal") == "legal":
            state, _ = engine.play(state, engine.parse(state, step["do"]), NoDice())
            states.append(state)
    return states


def board_text() -> str:
    """The final board of the demo game as the terminal shows it (80 columns, no colour)."""
    engine = find_game("cyrus-pyxis")
    buffer = io.StringIO()
    console = Console(file=buffer, width=80, color_system=None)
    console.print(render.board(engine.board_view(sample_game_states()[-1])))  # type: ignore[arg-type]
    return buffer.getvalue()


def playthrough() -> str:
    """The demo game as a transcript: each action's record and the final position (JSON)."""
    engine = find_game("cyrus-pyxis")
    samples = data_root("samples") / "cyrus-pyxis"
    demo = yaml.safe_load((samples / "demo.yaml").read_text(encoding="utf-8"))
    state = sample_game_states()[0]
    lines = []
    for step in demo["steps"]:
        text = step.get("do")
        if not text:
            continue
        action = engine.parse(state, text)  # type: ignore[arg-type]
        verdict = engine.judge(state, action)  # type: ignore[arg-type]
        if not verdict.legal:
            lines.append({"action": text, "rejected": list(verdict.codes())})
            continue
        state, record = engine.play(state, action, NoDice())  # type: ignore[arg-type]
        lines.append({"action": text, "events": [f"{e.code}: {e.message}" for e in record.events]})
    lines.append({"position": engine.to_position(state).model_dump(mode="json")})  # type: ignore[arg-type]
    return json.dumps(lines, indent=1, ensure_ascii=False) + "\n"


PLAYTHROUGH_STEPS = 80
PERFT_DEPTH = {"cyrus-pyxis": 2, "iliad": 2, "300-solo": 5, "zargo": 3}
"""How deep each game's perft counts (a game not named here: 2)."""


def seeded_playthrough(engine: AnyEngine) -> str:
    """A seeded random game from the sample set-up: each action, its dice and the state hash."""
    steps = list(walk(engine, 1979, PLAYTHROUGH_STEPS))
    lines: list[object] = [{"start": engine.state_hash(steps[0].state)}]
    for step, after in itertools.pairwise(steps):
        assert step.played is not None
        lines.append({"action": step.played.text(), "dice": step.rolls, "hash": engine.state_hash(after.state)[:16]})
    return json.dumps(lines, indent=0, ensure_ascii=False) + "\n"


def perft(engine: AnyEngine) -> str:
    """Counts of legal actions at each depth from the sample set-up (every chance fixed by one seed
    per node, so the tree is reproducible), in the manner of chess engines' perft."""
    from referee.dice import CommittedDice

    slug = engine.info.slug
    counts: list[int] = []

    def count(state: object, depth: int, path: str) -> None:
        legal = engine.legal_actions(state)  # type: ignore[arg-type]
        counts[depth] += len(legal)
        if depth + 1 == len(counts):
            return
        for action in legal:
            dice = CommittedDice(b"perft" * 7, f"{path}/{action.text()}")
            count(engine.apply(state, action, dice).state, depth + 1, f"{path}/{action.text()}")  # type: ignore[arg-type]

    counts.extend([0] * PERFT_DEPTH.get(slug, 2))
    count(start(engine)[0], 0, slug)
    return json.dumps({"game": slug, "depth": PERFT_DEPTH.get(slug, 2), "counts": counts}) + "\n"


FILES = {"board.txt": board_text, "playthrough.json": playthrough}
for _slug in available_games():
    FILES[f"{_slug}-seeded.json"] = lambda s=_slug: seeded_playthrough(find_game(s))
    FILES[f"{_slug}-perft.json"] = lambda s=_slug: perft(find_game(s))

if __name__ == "__main__":
    GOLDENS.mkdir(exist_ok=True)
    for name, make in FILES.items():
        (GOLDENS / name).write_text(make(), encoding="utf-8")
        print(f"wrote {GOLDENS / name}", file=sys.stderr)
