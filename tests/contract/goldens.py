"""Golden outputs: what they are made of, and a script to regenerate them deliberately.

Run ``python tests/goldens.py`` to rewrite the files under tests/goldens/ after an intended
change; the tests compare against them and never rewrite them.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import yaml
from rich.console import Console

from referee import render
from referee.dice import NoDice
from referee.games import find_game
from referee.tables import data_root

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


SAMPLE_SETUP = {"300-solo": "solo-setup.yaml"}
PLAYTHROUGH_STEPS = 80
PERFT_DEPTH = {"cyrus-pyxis": 2, "iliad": 2, "300-solo": 5, "zargo": 3}
SLUGS = ("cyrus-pyxis", "iliad", "300-solo", "zargo")


def _start(slug: str) -> object:
    state = find_game(slug).sample_start(SAMPLE_SETUP.get(slug, "setup.yaml"))
    return _sealed_garrisons(state)[0] if slug == "zargo" else state


def _sealed_garrisons(state: object) -> tuple[object, dict[str, object]]:
    """Zargo's sample set-up with every city's garrison sealed (fixed salts and garrisons: the
    golden replays), and the seals held as a game file's private table holds them."""
    from referee.games.zargo import actions as act
    from referee.sealed import Seal

    engine = find_game("zargo")
    seals: dict[str, object] = {}
    for i, (hex_name, city) in enumerate(sorted(state.cities.items())):  # type: ignore[attr-defined]
        infantry = [lab for lab, u in state.tables.units.items()  # type: ignore[attr-defined]
                    if u.people == city.owner and u.kind == "infantry"]
        made = Seal.make(city.owner, f"garrison-{hex_name}", infantry * (i % 3), salt=bytes([i + 1]) * 16)
        state = engine.apply(state, act.SealGarrison(public=made.public), NoDice()).state  # type: ignore[arg-type]
        seals[hex_name] = made
    return state, seals


def _secret_step(slug: str, state: object, seals: dict[str, object]) -> object | None:
    """The reveal a game waits for (its owner's secret, held here), or None."""
    if slug != "zargo" or getattr(state, "reveal_wait", None) is None:
        return None
    from referee.games.zargo.bot import secret_action
    from referee.sealed import RevealRequest

    hex_name = state.reveal_wait  # type: ignore[attr-defined]
    request = RevealRequest(owner=state.cities[hex_name].owner, label=f"garrison-{hex_name}")  # type: ignore[attr-defined]
    return secret_action(state, request, seals, None)  # type: ignore[arg-type]


def seeded_playthrough(slug: str) -> str:
    """A seeded random game from the sample set-up: each action, its dice and the state hash."""
    import random

    from referee.dice import CommittedDice

    engine = find_game(slug)
    rng = random.Random(1979)
    dice = CommittedDice(b"golden" * 6, f"golden-{slug}")
    state = find_game(slug).sample_start(SAMPLE_SETUP.get(slug, "setup.yaml"))
    seals: dict[str, object] = {}
    if slug == "zargo":
        state, seals = _sealed_garrisons(state)
    lines: list[object] = [{"start": engine.state_hash(state)}]  # type: ignore[arg-type]
    for _ in range(PLAYTHROUGH_STEPS):
        legal = sorted(engine.legal_actions(state), key=lambda a: a.text())  # type: ignore[arg-type]
        secret = _secret_step(slug, state, seals)
        if not legal and secret is None:
            break
        action = secret if secret is not None else rng.choice(legal)
        state, record = engine.play(state, action, dice)  # type: ignore[arg-type]
        lines.append({"action": action.text(), "dice": [list(r.faces) for r in record.rolls],
                      "hash": engine.state_hash(state)[:16]})  # type: ignore[arg-type]
    return json.dumps(lines, indent=0, ensure_ascii=False) + "\n"


def perft(slug: str) -> str:
    """Counts of legal actions at each depth from the sample set-up (every chance fixed by one seed
    per node, so the tree is reproducible), in the manner of chess engines' perft."""
    from referee.dice import CommittedDice

    engine = find_game(slug)
    counts: list[int] = []

    def walk(state: object, depth: int, path: str) -> None:
        legal = engine.legal_actions(state)  # type: ignore[arg-type]
        counts[depth] += len(legal)
        if depth + 1 == len(counts):
            return
        for action in legal:
            dice = CommittedDice(b"perft" * 7, f"{path}/{action.text()}")
            walk(engine.apply(state, action, dice).state, depth + 1, f"{path}/{action.text()}")  # type: ignore[arg-type]

    counts.extend([0] * PERFT_DEPTH[slug])
    walk(_start(slug), 0, slug)
    return json.dumps({"game": slug, "depth": PERFT_DEPTH[slug], "counts": counts}) + "\n"


FILES = {"board.txt": board_text, "playthrough.json": playthrough}
for _slug in SLUGS:
    FILES[f"{_slug}-seeded.json"] = lambda s=_slug: seeded_playthrough(s)
    FILES[f"{_slug}-perft.json"] = lambda s=_slug: perft(s)

if __name__ == "__main__":
    GOLDENS.mkdir(exist_ok=True)
    for name, make in FILES.items():
        (GOLDENS / name).write_text(make(), encoding="utf-8")
        print(f"wrote {GOLDENS / name}", file=sys.stderr)
