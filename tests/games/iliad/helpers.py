"""Shared builders for the Iliad tests: positions from keyword fields, judging and playing by text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from referee.dice import Dice, NoDice, PhysicalDice
from referee.game import ActionRecord
from referee.games import find_game
from referee.games.iliad.engine import IliadEngine
from referee.games.iliad.state import IliadState
from referee.rulings import Verdict
from referee.tables import TableSet, data_root, export_table_set, load_table_set, packaged_table_set

GAME = find_game("iliad")
assert isinstance(GAME, IliadEngine)
ENGINE: IliadEngine = GAME
SAMPLES = data_root("samples") / "iliad"


def position(table_set: TableSet | None = None, **data: Any) -> IliadState:
    """Returns the state of an umpire position given as keyword fields (unlisted counters are dead)."""
    data.setdefault("game", "iliad")
    return ENGINE.from_position(table_set or packaged_table_set("iliad"), data, "test")


def judge(state: IliadState, text: str) -> Verdict:
    """Judges an action given in notation."""
    return ENGINE.judge(state, ENGINE.parse(state, text))


def play(state: IliadState, *texts: str, dice: Dice | None = None) -> IliadState:
    """Plays legal actions in order (raises on an illegal one)."""
    for text in texts:
        state, _ = record(state, text, dice)
    return state


def record(state: IliadState, text: str, dice: Dice | None = None) -> tuple[IliadState, ActionRecord]:
    """Plays one legal action and returns the new state and its record."""
    new, rec = ENGINE.play(state, ENGINE.parse(state, text), dice or NoDice())
    assert isinstance(new, IliadState)
    return new, rec


def faces(*values: int) -> PhysicalDice:
    """Dice typed in, in the order rolled."""
    return PhysicalDice(list(values))


def codes(verdict: Verdict) -> list[str]:
    """The violation codes of a verdict."""
    return [v.code for v in verdict.violations]


def sections(verdict: Verdict) -> set[str]:
    """Every section a verdict's violations cite."""
    return {c.section for v in verdict.violations for c in v.cites}


def event_codes(rec: ActionRecord) -> list[str]:
    """The codes of the events an action triggered."""
    return [e.code for e in rec.events]


def started() -> IliadState:
    """The state right after the sample set-up: day 1, hour 1, the scheduled duel pending."""
    state = ENGINE.sample_start()
    assert isinstance(state, IliadState)
    return state


def tables_with(tmp: Path, name: str, edit: Any) -> TableSet:
    """Returns the Iliad tables with one file changed by ``edit(text) -> text`` (an override folder)."""
    export_table_set(packaged_table_set("iliad"), tmp)
    path = tmp / "iliad" / name
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    return load_table_set("iliad", tmp)


def choose(tmp: Path, ident: str, choice: str) -> TableSet:
    """Returns the Iliad tables with an interpretation switched to another of its options."""
    def edit(text: str) -> str:
        data = yaml.safe_load(text)
        for item in data["interpretations"]:
            if item["id"] == ident:
                assert choice in item["options"], (ident, choice)
                item["choice"] = choice
        return "# Source: test override\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False)

    return tables_with(tmp, "rules.yaml", edit)
