"""An import inside a function says what start-up cost it defers (issue 36).

Imports go at the top of a module; one inside a function is there only for a measured start-up
cost, and says so with a trailing ``# lazy: <family>`` comment whose family is a row of the
"Deferred imports" table in ``docs/performance.md`` (measured by ``bench/bench_lazy_imports.py``).
The modules are read with ``ast``, never imported.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAZY = re.compile(r"#\s*lazy:\s*(?P<family>[\w.]+(?: [\w.]+)*)")
ROW = re.compile(r"^\| `(?P<family>[^`]+)` \|")


def families(doc: str) -> set[str]:
    """Returns the families listed in the "Deferred imports" table of a performance document."""
    section = doc.partition("### Deferred imports")[2].partition("\n#")[0]
    return {m["family"] for line in section.splitlines() if (m := ROW.match(line))}


def function_imports(source: str) -> Iterator[tuple[int, str | None]]:
    """Yields (line, family or None) for each import statement inside a function of this source."""
    lines = source.splitlines()
    seen: set[int] = set()
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Import | ast.ImportFrom) and node.lineno not in seen:
                seen.add(node.lineno)
                found = LAZY.search("\n".join(lines[node.lineno - 1:node.end_lineno]))
                yield node.lineno, found["family"] if found else None


def unexplained(source: str, known: set[str]) -> list[str]:
    """Returns "line: reason" for each function-level import without a known ``# lazy:`` family."""
    out = []
    for line, family in function_imports(source):
        if family is None:
            out.append(f"{line}: no '# lazy: <family>' comment")
        elif family not in known:
            out.append(f"{line}: family {family!r} is not in the Deferred imports table")
    return out


KNOWN = families((ROOT / "docs" / "performance.md").read_text(encoding="utf-8"))
SOURCES = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
           for package in ("referee", "vision") for path in sorted((ROOT / package).rglob("*.py"))}


def test_the_table_lists_the_families() -> None:
    assert {"render", "pydantic models", "cv2", "yaml", "engine"} <= KNOWN


def test_every_function_level_import_names_a_measured_family() -> None:
    problems = [f"{name}:{problem}" for name, source in SOURCES.items() for problem in unexplained(source, KNOWN)]
    assert problems == []


def test_every_family_in_the_table_is_used() -> None:
    used = {family for source in SOURCES.values() for _line, family in function_imports(source)}
    assert KNOWN - used == set()


def test_an_import_without_a_reason_is_caught() -> None:
    source = (
        "import os\n\n"
        "def f():\n    import json\n    return json\n\n"
        "def g():\n    import yaml  # lazy: yaml\n    return yaml\n\n"
        "def h():\n    from x import (\n        a,\n    )  # lazy: nonsense\n    return a\n"
    )
    assert unexplained(source, {"yaml"}) == [
        "4: no '# lazy: <family>' comment",
        "12: family 'nonsense' is not in the Deferred imports table",
    ]
