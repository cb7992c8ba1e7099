"""The shared kit of the readings contract: every interpretation with options is read and disclosed.

A *reading* is an interpretation listed in ``tables/<slug>/rules.yaml`` with two or more
``options``. For each game, ``tests/games/<package>/witnesses.py`` exports ``WITNESSES``: one
witness per reading id. A witness is a function that takes a tables override folder (holding
``<slug>/rules.yaml`` with that reading's ``choice`` switched) and asks the referee a question
whose answer depends on the reading — through the public engine API or the CLI, never by
calling the check under test directly — and returns what was ruled as a :class:`Ruled`.

The contract test (``tests/test_readings.py``) runs every witness under every option and
requires:

- at least two options give different ``outcome`` texts (the choice is really read);
- under every option, the ruling discloses the reading (its id is in ``disclosed``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "tables"


@dataclass(frozen=True)
class Ruled:
    """What a witness saw the referee rule under one option."""

    outcome: str
    """A canonical text of what was decided (codes, results, numbers, positions): compared across options."""
    disclosed: frozenset[str]
    """Interpretation ids the ruling names as relied on (``--json``'s disclosures, or the verdict's)."""


Witness = Callable[[Path], Ruled]
"""Runs one question under the tables override folder given, and returns what was ruled."""


@dataclass(frozen=True)
class Reading:
    """An interpretation with options, as listed in a game's ``rules.yaml``."""

    slug: str
    ident: str
    choice: str
    options: tuple[str, ...]


def readings(slug: str) -> Iterator[Reading]:
    """Yields every interpretation of a game that offers at least two options."""
    data = yaml.safe_load((TABLES / slug / "rules.yaml").read_text(encoding="utf-8"))
    for item in data.get("interpretations", []):
        options = tuple(str(o) for o in item.get("options", ()))
        if len(options) >= 2:
            yield Reading(slug, str(item["id"]), str(item["choice"]), options)


def override_with(folder: Path, reading: Reading, option: str) -> Path:
    """Writes ``folder/<slug>/rules.yaml``: the packaged file with one reading's choice switched.

    Returns the override folder (what ``--tables`` takes).
    """
    source = TABLES / reading.slug / "rules.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    for item in data["interpretations"]:
        if item["id"] == reading.ident:
            item["choice"] = option
    target = folder / reading.slug
    target.mkdir(parents=True, exist_ok=True)
    header = "".join(line for line in source.read_text(encoding="utf-8").splitlines(keepends=True)
                     if line.startswith("#"))
    (target / "rules.yaml").write_text(header + yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                                       encoding="utf-8")
    return folder


def witnesses(package: str) -> dict[str, Witness] | None:
    """Returns a game's witnesses, or None when ``tests/games/<package>/witnesses.py`` does not exist."""
    path = ROOT / "tests" / "games" / package / "witnesses.py"
    if not path.exists():
        return None
    module = importlib.import_module(f"tests.games.{package}.witnesses")
    found: dict[str, Witness] = module.WITNESSES
    return found
