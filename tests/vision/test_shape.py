"""The photo reader's code stays small enough to read: no module in vision/ over 600 lines and
no function over 80 (issue 34)."""

from __future__ import annotations

import ast
from pathlib import Path

VISION = Path(__file__).resolve().parents[2] / "vision"


def test_no_module_in_vision_is_over_600_lines() -> None:
    long = {p.relative_to(VISION).as_posix(): n for p in VISION.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert long == {}


def test_no_function_in_vision_is_over_80_lines() -> None:
    long: dict[str, int] = {}
    for path in VISION.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 80:
                    long[f"{path.relative_to(VISION).as_posix()}:{node.name}"] = size
    assert long == {}
