"""Contract tests over every registered game: tables, citations, judge vs legal, replay, hashing
(the rest of the contract is in test_contract_games.py)."""

from __future__ import annotations

import ast
import importlib
import random
import subprocess
import sys
from pathlib import Path

import pytest

from referee.dice import CommittedDice
from referee.errors import RefereeError
from referee.game import Engine, GameState
from referee.games import all_games, find_game
from referee.journal import GameFile
from referee.tables import load_table_set, packaged_table_set
from tests.contract.walks import SAMPLE_SETUP

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


def revalidated(state: GameState) -> GameState:
    """Returns the state rebuilt through its model's validators (invariants raise here)."""
    data = state.model_dump(mode="python", round_trip=True)
    for name in type(state).model_fields:
        data.setdefault(name, getattr(state, name))  # fields kept out of dumps (the table set)
    return type(state).model_validate(data)


def file_walk(engine: Engine, path: Path, steps: int, seed: int) -> tuple[GameFile, list[GameState]]:
    """Plays a game through a real game file: the sample set-up, then random legal actions.

    Nothing is swallowed: an action the engine listed as legal must be accepted by the file,
    and every state must pass its model's validators again after the action.
    """
    from referee.tables import data_root, load_yaml_text

    rng = random.Random(seed)
    dice = CommittedDice(b"contract" * 4, f"file-walk-{seed}")
    slug = engine.info.slug
    setup = data_root("samples") / slug / SAMPLE_SETUP.get(slug, "setup.yaml")
    gf = GameFile.create(path, engine, load_table_set(slug))
    data = load_yaml_text(str(setup), setup.read_text(encoding="utf-8"))
    for text in engine.setup_actions(gf.state(), data, str(setup)):
        gf.do(text)
    states = [gf.state()]
    for _ in range(steps):
        state = states[-1]
        legal = engine.legal_actions(state)
        if not legal:
            assert engine.outcome(state) is not None, "no legal action but the game is not over"
            break
        action = rng.choice(legal)
        _, record = engine.play(state, action, dice)  # seeded dice, typed into the file as physical
        faces = [face for roll in record.rolls for face in roll.faces]
        gf.do(action.text(), faces or None)
        after = gf.state()
        assert engine.state_hash(revalidated(after)) == engine.state_hash(after)
        states.append(after)
    return gf, states


@pytest.mark.parametrize("slug", SLUGS)
def test_walks_from_the_sample_set_up_through_a_game_file(slug: str, tmp_path: Path) -> None:
    engine = GAMES[slug]
    gf, states = file_walk(engine, tmp_path / "g.referee", 60, 11)
    with gf:
        expected = engine.state_hash(gf.state())
        assert expected == engine.state_hash(states[-1])
        data = gf.export()
    with GameFile.open(tmp_path / "g.referee", find_game) as again:
        assert engine.state_hash(again.state()) == expected
    with GameFile.import_(data, tmp_path / "copy.referee", "export", find_game) as copy:
        assert engine.state_hash(copy.state()) == expected


@pytest.mark.parametrize("slug", SLUGS)
def test_judge_and_legal_agree_both_ways(slug: str, tmp_path: Path) -> None:
    """Every listed action is judged legal, and every action judged legal is listed.

    Candidates: each state's own legal actions, plus the legal actions of the states met before
    it, parsed again in the new state (plausible moves that are often no longer legal).
    """
    engine = GAMES[slug]
    gf, states = file_walk(engine, tmp_path / "g.referee", 40, 5)
    gf.close()
    rng = random.Random(5)
    seen: list[str] = []
    checked = refused = 0
    for state in states:
        legal = {a.text() for a in engine.legal_actions(state)}
        for text in rng.sample(sorted(legal), min(len(legal), 40)):
            assert engine.judge(state, engine.parse(state, text)).legal, text
        earlier = sorted(set(seen[-400:]))
        for text in rng.sample(earlier, min(len(earlier), 40)):
            try:
                action = engine.parse(state, text)
            except RefereeError:
                continue
            verdict = engine.judge(state, action)
            checked += 1
            refused += not verdict.legal
            assert verdict.legal == (action.text() in legal), (text, verdict.codes())
        seen.extend(sorted(legal))
    assert checked > 50 and refused > 0  # the generator did propose illegal actions


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
