"""Imports only go down: the graph of every import in referee/ and vision/, read with ast (no module
is imported), checked for layers and circles; no module over 600 lines; nothing in the code or
data pointing to files outside the repository.

Layers: the core (``referee/*.py``, ``referee/geometry/``) imports no game, no command line and no
table display; a game imports neither the command line, the table display, the terminal renderer
nor ``vision``; ``vision`` imports no game, command line or table display — counting every
import, for type checking only included. No circle among the imports that run: at the top of a
module or inside a function (an import for type checking only never runs, so it holds no circle).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UP = ("referee.games", "referee.cli", "referee.serve")
ABOVE_A_GAME = ("referee.cli", "referee.serve", "referee.render", "vision")


def _modules() -> dict[str, Path]:
    out = {}
    for package in ("referee", "vision"):
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()


def _targets(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The modules of ours an import statement loads (``from a import b`` loads a.b when it is one)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            base = ".".join([*package[: len(package) - node.level + 1], *([base] if base else [])])
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
    yield from (name for name in names if name.split(".")[0] in ("referee", "vision"))


def _typing_only(tree: ast.Module) -> set[ast.AST]:
    """The import statements under ``if TYPE_CHECKING:``."""
    out: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(sub for stmt in node.body for sub in ast.walk(stmt))
    return out


@cache
def _graphs() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Every import, type-checking ones included (the layers), and the imports that run (circles):
    built on first use, so that collecting the tests does not read every module."""
    every: dict[str, set[str]] = {}
    running: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _typing_only(tree)
        imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
        every[module] = {t for node in imports for t in _targets(module, path, node) if t != module}
        running[module] = {t for node in imports if node not in skip for t in _targets(module, path, node)
                           if t != module}
    return every, running


def graph() -> dict[str, set[str]]:
    """Every import, type-checking ones included (the layers)."""
    return _graphs()[0]


def runtime() -> dict[str, set[str]]:
    """The imports that run (circles)."""
    return _graphs()[1]


def _is(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _core(module: str) -> bool:
    return module.startswith("referee") and not _is(module, (*UP, "referee.__main__"))


def test_the_graph_sees_every_module_and_import() -> None:
    assert {"referee.game", "referee.games", "referee.cli", "vision.pipeline"} <= set(graph())
    assert "referee.game" in graph()["referee.games.cyrus_pyxis.engine"]
    assert "referee.rulings" in graph()["referee.errors"]  # for type checking only
    assert "referee.rulings" not in runtime()["referee.errors"]
    assert sum(len(targets) for targets in runtime().values()) > 500


def test_the_core_imports_no_game_command_line_or_table_display() -> None:
    climbing = sorted(f"{m} -> {t}" for m, targets in graph().items() if _core(m) for t in targets if _is(t, UP))
    assert climbing == []


def test_a_game_imports_nothing_above_it() -> None:
    climbing = sorted(f"{m} -> {t}" for m, targets in graph().items() if _is(m, ("referee.games",))
                      for t in targets if _is(t, ABOVE_A_GAME))
    assert climbing == []


def test_vision_imports_only_the_core() -> None:
    climbing = sorted(f"{m} -> {t}" for m, targets in graph().items() if _is(m, ("vision",))
                      for t in targets if _is(t, UP))
    assert climbing == []


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_circles_are_found() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", ["referee", "vision"])
def test_no_import_circle(package: str) -> None:
    circles = [c for c in _circles(runtime()) if c[0].split(".")[0] == package]
    edges = [f"{a} -> {b}" for c in circles for a in c for b in sorted(runtime()[a] & set(c))]
    assert edges == []


MAX_LINES = 600
"""A module longer than this holds two roles: split it along its seam."""


@pytest.mark.parametrize("package", ["referee", "vision"])
def test_no_module_over_600_lines(package: str) -> None:
    long = {f"{path.relative_to(ROOT)}": n for module, path in MODULES.items() if module.split(".")[0] == package
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


OUTSIDE = re.compile(r"\.\./shared|shared/reference|DESIGN\.md|DESIGN §|HOUSE_STYLE|docs/decisions\.md")
"""What points outside the repository (the files it was built beside) or to a file it no longer has."""


def test_nothing_points_outside_the_repository() -> None:
    paths = [p for folder in ("referee", "vision", "tables", "samples", "tools", "bench")
             for p in sorted((ROOT / folder).rglob("*")) if p.is_file() and p.suffix in (".py", ".yaml", ".csv", ".md")]
    found = [f"{p.relative_to(ROOT)}:{i}" for p in paths
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if OUTSIDE.search(line)]
    assert len(paths) > 100
    assert found == []
