"""The rule index (docs/rule-index.md): every section a rules.yaml cites is found there with at
least one function, and regenerating it changes nothing."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import yaml

from tests.scripts import load

ROOT = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    return load("tools/rule_index.py", "rule_index")


def _cited(path: Path) -> set[str]:
    """Every section a rules.yaml names: its sections, and the sections its readings rest on."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    cited = {str(key) for key in data["sections"]}
    for reading in data.get("interpretations", []):
        cited.update(str(c) for c in reading.get("cites", []))
    return cited


def _listed(text: str) -> dict[str, int]:
    """Returns heading ("slug section") -> how many functions the index lists under it."""
    out: dict[str, int] = {}
    heading = None
    for line in text.splitlines():
        if line.startswith("### "):
            heading = re.sub(r"^(\S+) `([^`]+)`.*$", r"\1 \2", line[4:])
            out[heading] = 0
        elif heading and line.startswith("- `"):
            out[heading] += 1
    return out


def test_every_cited_section_has_a_function_in_the_index() -> None:
    listed = _listed((ROOT / "docs" / "rule-index.md").read_text(encoding="utf-8"))
    rules = sorted((ROOT / "tables").glob("*/rules.yaml"))
    assert len(rules) >= 4
    missing = [f"{path.parent.name} {key}" for path in rules for key in sorted(_cited(path))
               if listed.get(f"{path.parent.name} {key}", 0) == 0]
    assert missing == []


def test_regenerating_the_index_changes_nothing() -> None:
    tool = _tool()
    assert tool.render(tool.games()) == (ROOT / "docs" / "rule-index.md").read_text(encoding="utf-8"), (
        "docs/rule-index.md is stale: run python tools/rule_index.py")


def test_a_first_line_names_sections_by_whole_keys() -> None:
    named = _tool().named_in_first_line
    sections = {"V": "", "VI": "", "base 6": "", "base 6.4": "", "6": "", "COMBAT — RÈGLES GÉNÉRALES": ""}
    assert named("V: movement.", sections) == ["V"]
    assert sorted(named("base 6.4, VI: land moves", sections)) == ["VI", "base 6.4"]
    assert named("Returns the V of a move (see base 6)", sections) == ["base 6"]  # short keys: before ":" only
    assert named('Resolves a combat (rulebook "COMBAT — RÈGLES GÉNÉRALES")', sections) == ["COMBAT — RÈGLES GÉNÉRALES"]
