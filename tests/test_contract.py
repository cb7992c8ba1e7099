"""Contract tests over every registered game: tables, citations, judge vs legal, replay, hashing."""

from __future__ import annotations

import ast
import importlib
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.dice import CommittedDice
from referee.game import Engine, GameState
from referee.games import all_games
from referee.journal import GameFile
from referee.tables import load_table_set, packaged_table_set

GAMES = {g.info.slug: g for g in all_games()}
SLUGS = sorted(GAMES)


def random_walk(engine: Engine, steps: int, seed: int) -> tuple[list[str], GameState]:
    """Plays random legal actions (digital dice seeded); returns their texts and the last state."""
    rng = random.Random(seed)
    dice = CommittedDice(b"contract" * 4, f"walk-{seed}")
    state = engine.new_state(load_table_set(engine.info.slug))
    texts: list[str] = []
    for _ in range(steps):
        legal = engine.legal_actions(state)
        if not legal:
            assert engine.outcome(state) is not None, "no legal action but the game is not over"
            break
        for action in rng.sample(legal, min(len(legal), 5)):
            assert engine.judge(state, action).legal, action.text()
        action = rng.choice(legal)
        state, _ = engine.play(state, action, dice)
        texts.append(action.text())
    return texts, state


@pytest.mark.parametrize("slug", SLUGS)
def test_tables_load(slug: str) -> None:
    engine = GAMES[slug]
    assert engine.new_state(packaged_table_set(slug)) is not None
    assert engine.info.slug == slug


@pytest.mark.parametrize("slug", SLUGS)
def test_every_rule_constant_is_used(slug: str) -> None:
    """Each RuleRef a game declares in rules.py is cited somewhere else in its package."""
    package = GAMES[slug].info.package
    rules = importlib.import_module(f"referee.games.{package}.rules")
    assert rules.RULES.uncited() == []
    folder = Path(rules.__file__).parent
    tree = ast.parse(Path(rules.__file__).read_text(encoding="utf-8"))
    names = [t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
             if isinstance(t, ast.Name) and t.id.isupper() and t.id != "RULES"]
    used = "\n".join(p.read_text(encoding="utf-8") for p in folder.glob("*.py") if p.name != "rules.py")
    unused = [n for n in names if n not in used]
    assert unused == []


@pytest.mark.parametrize("slug", SLUGS)
def test_judge_agrees_with_legal_along_random_walks(slug: str) -> None:
    for seed in range(3):
        random_walk(GAMES[slug], 120, seed)


@pytest.mark.parametrize("slug", SLUGS)
def test_journal_replay_and_export_import_reproduce_the_hash(slug: str, tmp_path: Path) -> None:
    engine = GAMES[slug]
    texts, _ = random_walk(engine, 60, 11)
    with GameFile.create(tmp_path / "g.referee", engine, load_table_set(slug)) as gf:
        for text in texts:
            try:
                gf.do(text)
            except Exception:
                break
        expected = engine.state_hash(gf.state())
        data = gf.export()
    with GameFile.open(tmp_path / "g.referee") as again:
        assert engine.state_hash(again.state()) == expected
    with GameFile.import_(data, tmp_path / "copy.referee", "export") as copy:
        assert engine.state_hash(copy.state()) == expected


@pytest.mark.parametrize("slug", SLUGS)
def test_state_hash_is_the_same_in_another_process(slug: str) -> None:
    engine = GAMES[slug]
    state = engine.new_state(load_table_set(slug))
    code = (
        "from referee.games import find_game; from referee.tables import load_table_set;"
        f"g = find_game({slug!r}); print(g.state_hash(g.new_state(load_table_set({slug!r}))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "12345", "PATH": ""}).stdout.strip()
    assert out == engine.state_hash(state)


@pytest.mark.parametrize("slug", SLUGS)
def test_position_round_trip(slug: str) -> None:
    engine = GAMES[slug]
    _, state = random_walk(engine, 80, 3)
    pos = engine.to_position(state)
    back = engine.from_position(load_table_set(slug), pos.model_dump(mode="json"), "round-trip")
    assert engine.to_position(back) == pos
