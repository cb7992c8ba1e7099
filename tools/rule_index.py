"""Generates docs/rule-index.md: for every game, each rulebook section and the functions that apply it.

A function is listed under a section when
- its docstring's first line names the section (the house rule for rule checks: the first line
  says which section the check applies), or
- its body uses one of the game's citations (``MOVEMENT = RULES.ref("V")`` in its ``rules.py``),
  so the rulings it returns cite the section, or
- its body names a reading of ``tables/<slug>/rules.yaml`` (an interpretation's id), which rests
  on the sections that reading cites.

Run ``python tools/rule_index.py`` after adding or moving a rule check; ``--check`` exits 1 when
the committed index is stale (the tests do the same).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
INDEX = ROOT / "docs" / "rule-index.md"
SHORT = 3
"""Section keys this short ("V", "2") are looked for only before the first colon of a first line."""


@dataclass
class Game:
    """One game's sections (in rulebook order, with their titles), citations and readings."""

    slug: str
    title: str
    package: Path
    sections: dict[str, str]
    readings: dict[str, list[str]]
    constants: dict[str, str] = field(default_factory=dict)


def games() -> list[Game]:
    """Returns every registered game, read from its package and its rules.yaml (no game is imported
    beyond its registry entry)."""
    from referee.games import available_games, find_game

    out = []
    for slug in available_games():
        info = find_game(slug).info
        rules = yaml.safe_load((ROOT / "tables" / slug / "rules.yaml").read_text(encoding="utf-8"))
        sections = {str(k): str(v.get("title", "")) for k, v in rules["sections"].items()}
        readings = {str(r["id"]): [str(c) for c in r.get("cites", [])] for r in rules.get("interpretations", [])}
        game = Game(slug, info.title, ROOT / "referee" / "games" / info.package, sections, readings)
        game.constants = _constants(game.package / "rules.py")
        out.append(game)
    return out


def _constants(path: Path) -> dict[str, str]:
    """Returns the citations a rules.py declares: constant name -> section (``X = RULES.ref("s")``)."""
    out = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and node.value.args
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "ref"
                and isinstance(node.value.args[0], ast.Constant)):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out[target.id] = str(node.value.args[0].value)
    return out


def _pattern(key: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.\-])" + re.escape(key) + r"(?![\w]|[.\-]\w)")


def named_in_first_line(line: str, sections: dict[str, str]) -> list[str]:
    """Returns the sections a docstring's first line names (longest keys first, each span once)."""
    lead = line.split(": ", 1)[0] if ": " in line else ""
    found = []
    for key in sorted(sections, key=len, reverse=True):
        text = lead if len(key) <= SHORT else line
        match = _pattern(key).search(text)
        if match:
            found.append(key)
            blank = " " * len(key)
            line = line.replace(key, blank, 1) if text is line else line
            lead = lead.replace(key, blank, 1)
    return found


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            out += [(f"{node.name}.{sub.name}", sub) for sub in node.body
                    if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef)]
    return out


def _cite_tables(tree: ast.Module, constants: dict[str, str]) -> dict[str, list[str]]:
    """Returns a module's own tables of citations (``POWERS = {"FAU": FALCONS, ...}``): name ->
    the citations it holds, so a function that looks a citation up in one cites them all."""
    out: dict[str, list[str]] = {}
    for node in tree.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        held = sorted({n.id for n in ast.walk(value) if isinstance(n, ast.Name) and n.id in constants}) if value else []
        for target in targets:
            if isinstance(target, ast.Name) and held:
                out[target.id] = held
    return out


def index(game: Game) -> dict[str, dict[str, set[str]]]:
    """Returns section -> function (``module.py::name``) -> how it applies the section."""
    found: dict[str, dict[str, set[str]]] = {key: {} for key in game.sections}
    for path in sorted(game.package.rglob("*.py")):
        if path.name == "rules.py":
            continue
        module = path.relative_to(game.package).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tables = _cite_tables(tree, game.constants)
        for name, node in _functions(tree):
            where = f"{module}::{name}"
            doc = ast.get_docstring(node)
            if doc:
                for key in named_in_first_line(doc.splitlines()[0], game.sections):
                    found[key].setdefault(where, set()).add("docstring")
            for sub in ast.walk(node):
                cited = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
                for constant in ([cited] if cited in game.constants else tables.get(cited or "", [])):
                    if game.constants[constant] in found:
                        found[game.constants[constant]].setdefault(where, set()).add(f"cites {constant}")
                if isinstance(sub, ast.Constant) and sub.value in game.readings:
                    for key in game.readings[str(sub.value)]:
                        if key in found:
                            found[key].setdefault(where, set()).add(f"reading {sub.value}")
    return found


def render(all_games: list[Game]) -> str:
    """Returns the index as Markdown."""
    lines = [
        "# Rule index",
        "",
        "Generated by `python tools/rule_index.py` (do not edit): for every game, each section of its",
        "rulebook (as keyed in `tables/<game>/rules.yaml`) and the functions that apply it. A function",
        "is listed when its docstring's first line names the section (*docstring*), when it uses the",
        "game's citation of the section (*cites NAME*, from the game's `rules.py`), or when it applies a",
        "reading of an ambiguous rule that rests on the section (*reading id*). Paths are relative to",
        "the game's package under `referee/games/`.",
        "",
    ]
    for game in all_games:
        lines += [f"## {game.title} (`{game.slug}`, `referee/games/{game.package.name}/`)", ""]
        for key, functions in index(game).items():
            title = f" ({game.sections[key]})" if game.sections[key] else ""
            lines += [f"### {game.slug} `{key}`{title}", ""]
            if not functions:
                lines += ["No function names this section.", ""]
                continue
            lines += [f"- `{where}` ({', '.join(sorted(how))})" for where, how in sorted(functions.items())]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/rule-index.md is not up to date")
    args = parser.parse_args(argv)
    text = render(games())
    if args.check:
        current = INDEX.read_text(encoding="utf-8") if INDEX.exists() else ""
        if current != text:
            print(f"{INDEX.relative_to(ROOT)} is stale: run python tools/rule_index.py", file=sys.stderr)
            return 1
        return 0
    INDEX.write_text(text, encoding="utf-8")
    print(f"wrote {INDEX.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
