"""The contract every game keeps, as checks that take any engine (a shipped game or a made-up one).

Each check raises ``AssertionError`` naming what is wrong. ``test_contract_games`` runs them over
every registered game; ``test_broken_game`` runs them over a deliberately broken made-up game and
asserts that each one catches its fault, so a check that can no longer fail is noticed.
"""

from __future__ import annotations

import ast
import inspect
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from referee.capabilities import CAPTURE_FUNCTIONS, CaptureRules, bot_of, capture_of
from referee.capture import CaptureReport
from referee.game import AnyEngine
from referee.journal import GameFile
from referee.sealed import canonical, parse_reveal
from referee.tables import TableSet, load_table_set
from referee.viewing import seen_by
from tests.contract.walks import Step

KIT: dict[str, str] = {
    "__init__": "exports GAME, the engine (built on first use)",
    "rules": "the rulebook's sections, cited once (RULES)",
    "tables": "the game's data: the schemas of its table files, the tables of a game once loaded",
    "state": "what the referee tracks during a game",
    "position": "position and set-up files (the engine's position_model)",
    "actions": "the actions, their notation and their parser",
    "declarations": "judging what a position file declares, by the checks of the actions",
    "movement": "the checks and generators of movement",
    "combat": "the checks and resolution of combat",
    "sequence": "set-up, turns and phases, the end of the game",
    "engine": "the Engine: the verbs wired to the checks of each action type",
    "display": "what is shown: the board as data, the status lines",
    "bot": "a player that picks among the legal actions",
}
"""The game kit: the modules every game package has, each with the same role (docs/architecture.md)."""

CITING = ("movement", "combat", "sequence")
"""Kit modules that hold rule checks: each cites the game's rulebook through its ``rules`` module."""


def _imports(tree: ast.Module, package: str) -> set[str]:
    """Returns the modules a parsed module imports (relative imports resolved within ``package``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], base]).strip(".")
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def check_package_shape(engine: AnyEngine, folder: Path, package: str) -> None:
    """The game package holds every module of the kit, each in its role."""
    missing = [name for name in KIT if not (folder / f"{name}.py").is_file()]
    assert not missing, f"{package} lacks the kit's modules {missing}: " + "; ".join(
        f"{name}.py: {KIT[name]}" for name in missing)
    trees = {name: ast.parse((folder / f"{name}.py").read_text(encoding="utf-8")) for name in KIT}
    names = {name: {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                    if isinstance(t, ast.Name)} for name, tree in trees.items()}
    assert {"GAME", "__getattr__"} & names["__init__"], f"{package}/__init__.py exports no GAME"
    assert "RULES" in names["rules"], f"{package}/rules.py declares no RULES"
    roles = {"engine": type(engine), "position": engine.position_model}
    state = engine.new_state(_tables(engine))
    roles["state"] = type(state)
    if hasattr(state, "tables"):
        roles["tables"] = type(state.tables)
    for action in engine.legal_actions(state)[:20]:
        roles["actions"] = type(action)
    for module, cls in roles.items():
        assert cls.__module__ == f"{package}.{module}", (
            f"{cls.__name__} lives in {cls.__module__}, not in {package}.{module} ({KIT[module]})")
    bot = bot_of(engine)
    if bot is not None:
        assert type(bot).__module__ == f"{package}.bot", f"the bot lives in {type(bot).__module__}, not {package}.bot"
    for module in CITING:
        assert f"{package}.rules" in _imports(trees[module], f"{package}.{module}"), (
            f"{package}/{module}.py cites no section of the rulebook (imports nothing from {package}.rules)")


def _tables(engine: AnyEngine) -> TableSet:
    return load_table_set(engine.info.slug)


def check_golden(folder: Path, name: str, make: Callable[[], str]) -> None:
    """A golden file exists and the game still makes it exactly (so nothing is left to chance: the
    file was made in another process, often on another machine)."""
    path = folder / name
    assert path.is_file(), f"no golden {name}: run python -m tests.contract.goldens and review the new file"
    assert make() == path.read_text(encoding="utf-8"), (
        f"{name} changed: if intended, run python -m tests.contract.goldens")


def check_over_iff_no_legal(engine: AnyEngine, steps: Iterable[Step]) -> int:
    """At every state met: the game is over exactly when no action is legal (a state that waits for
    a secret, which only its owner's game file can reveal, is not over). Returns the states seen."""
    seen = 0
    for step in steps:
        seen += 1
        over = engine.outcome(step.state) is not None
        if over:
            assert not step.legal, (
                f"the game is over yet {len(step.legal)} actions are legal, e.g. {step.legal[0].text()}")
        else:
            assert step.legal or step.awaited is not None, (
                f"no legal action, yet the game is not over (awaiting {engine.to_act(step.state)!r}): it is stuck")
    return seen


def check_parse_round_trip(engine: AnyEngine, steps: Iterable[Step]) -> int:
    """Every legal action met reads back from its own text: ``parse(action.text()) == action``.
    Returns how many actions were checked."""
    checked = 0
    for step in steps:
        for action in step.legal:
            text = action.text()
            back = engine.parse(step.state, text)
            assert back == action, f"{text!r} parses back to {back!r}, not {action!r}"
            checked += 1
    return checked


@dataclass(frozen=True)
class _Seen:
    occupant: str | None
    terrain: str
    confidence: float = 1.0


def check_capture_rules(engine: AnyEngine, steps: Iterable[Step]) -> int:
    """A game that declares photo capture names a module that keeps the ``CaptureRules`` protocol:
    every function is there and takes the protocol's arguments, and on each state met, a perfect
    photo of it gives the core shapes back (a ``CaptureReport`` that explains itself; cell contents
    and labels as ``(side, terrain)`` and ``(side, label)``; priors over every cell, each summing
    to 1). Returns the states checked."""
    try:
        rules = capture_of(engine)
    except TypeError as error:
        raise AssertionError(str(error)) from error
    assert rules is not None, f"{engine.info.slug} declares no photo capture"
    for name in CAPTURE_FUNCTIONS:
        wanted = [p for p in inspect.signature(getattr(CaptureRules, name)).parameters.values() if p.name != "self"]
        positional = [p.name for p in wanted if p.kind is not p.KEYWORD_ONLY]
        keywords = {p.name: None for p in wanted if p.kind is p.KEYWORD_ONLY}
        got = inspect.signature(getattr(rules, name))
        try:
            got.bind(*positional, **keywords)
        except TypeError as error:
            raise AssertionError(f"the capture rules' {name}{got} cannot be called as the protocol calls it "
                                 f"({', '.join([*positional, *keywords])}): {error}") from error
    checked = 0
    for step in steps:
        cells = rules.cell_contents(step.state)
        assert all(isinstance(c, str) and isinstance(t, str) and (s is None or isinstance(s, str))
                   for c, (s, t) in cells.items()), f"cell_contents is not cell → (side or None, terrain): {cells}"
        labels = rules.legion_labels(step.state)
        assert all(isinstance(side, str) and isinstance(label, str) for side, label in labels.values()), labels
        assert set(rules.legion_cells(step.state).values()) <= set(labels), "legion_cells names an unlabelled counter"
        priors = rules.cell_priors(step.state)
        assert set(priors) == set(cells), "cell_priors does not cover the board's cells"
        for cell, weights in priors.items():
            assert math.isclose(sum(weights.values()), 1.0), f"cell_priors of {cell} do not sum to 1: {weights}"
            assert all(w >= 0 for w in weights.values()), f"cell_priors of {cell}: a negative weight: {weights}"
        report = rules.infer_turn(step.state, {c: _Seen(s, t) for c, (s, t) in cells.items()})
        assert isinstance(report, CaptureReport), f"infer_turn returns a {type(report).__name__}, not a CaptureReport"
        assert report.explain() and all(isinstance(line, str) for line in report.explain())
        settled = rules.settled_cells(step.state, report)
        assert settled is None or set(settled) == set(cells), "settled_cells does not cover the board's cells"
        checked += 1
    return checked


def bot_game(engine: AnyEngine, path: Path, seed: int, actions: int,
             table_set: TableSet | None = None) -> GameFile:
    """Plays the game's bot through a real game file, as ``referee bot`` does: a seal or reveal it
    asks for goes through the file (the secret stays in its private table). Returns the open file."""
    bot = bot_of(engine)
    assert bot is not None, f"{engine.info.slug} hides information but has no bot to play it"
    rng = random.Random(seed)
    gf = GameFile.create(path, engine, table_set or _tables(engine))
    for _ in range(actions):
        state = gf.state()
        if engine.outcome(state) is not None:
            break
        gf.play_choice(bot.choose(state, rng).action)
    return gf


def _views(gf: GameFile, viewer: str | None) -> tuple[str, str]:
    """Everything a viewer is shown, as text: the state and board the engine draws, then the text
    channels (status, log, export, the viewer's own secrets)."""
    seen = seen_by(gf, viewer)
    drawn = json.dumps(seen.state.model_dump(mode="json", exclude={"tables"}), ensure_ascii=False) + repr(seen.board())
    said = "\n".join([*seen.status(), *(e.model_dump_json() for e in seen.entries), json.dumps(seen.export()),
                      *(f"{s.label} {s.value} {s.fingerprint}" for s in seen.secrets)])
    return drawn, said


def check_no_secret_leaks(gf: GameFile) -> int:
    """No viewer (nor the shared table) is shown another viewer's unrevealed secret: not its salt,
    anywhere; not its content, in the status, the log, the export or the secrets listed. (The
    state and board are drawn by the engine, which holds a secret only as its commitment until it
    is revealed; counters drawn there may spell the same labels as a garrison, so they are searched
    for salts only.) Returns how many secrets were looked for."""
    engine = gf.game
    opened = dict(_revealed_secrets(gf))
    public = {canonical(secret).decode() for secret in opened.values()}  # type: ignore[arg-type]
    hidden = [s for owner in engine.viewers() for s in gf.secrets(owner)
              if (s.public.owner, s.public.label, s.salt) not in opened]
    assert hidden, "the game sealed no secret that is still hidden: nothing was checked"
    for viewer in (None, *engine.viewers()):
        drawn, said = _views(gf, viewer)
        who = viewer or "the shared table"
        for secret in hidden:
            if secret.public.owner == viewer:
                continue
            assert secret.salt.hex() not in drawn + said, f"{who} is shown the salt of {secret.public.label}"
            content = canonical(secret.secret).decode()
            if len(content) > 4 and content not in public:  # "[]" or "7" would match anything
                assert content not in said.replace(" ", "").replace("\\", ""), (
                    f"{who} is shown {secret.public.owner}'s {secret.public.label}: {content}")
    return len(hidden)


def _revealed_secrets(gf: GameFile) -> Iterator[tuple[tuple[str, str, bytes], object]]:
    for entry in gf.entries():
        opening = parse_reveal(entry.text)
        if opening is not None:
            yield (opening.owner, opening.label, opening.salt), opening.secret
