"""At the table (issue 14): disclosures said once, CLI conventions, set-up help, the slips."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.conftest import SETUP, Referee

DECISIVE = ("combat_results.csv", "combat_values.csv")
# turns 1 and 2 of the shipped demo (two combats in turn 2, one with an archer's support)
OPENING = ("Pergame L7", "Telestas L4", "Demis K5", "Samos G5", "done", "Tyr L8", "Erryx K8", "Amrith L10",
           "Roustem J8", "done", "Pergame L8", "Demis K8", "Telestas L6", "done", "support Telestas Pergame",
           "resolve")


def _turn(status: list[str]) -> int | None:
    """Returns the turn number a status says, or None once the game is over."""
    found = re.match(r"Turn (\d+)", status[0])
    return int(found.group(1)) if found else None


def _check_marker(text: str, provisional: list[str]) -> None:
    """The text shows at most one ⚠ line; it names every stand-in from a deciding table and counts
    the rest, so together with those the count is the complete list --json gave."""
    marks = [line for line in text.splitlines() if "⚠" in line]
    assert len(marks) <= 1, text
    if not provisional:
        assert not marks, text
        return
    assert len(marks) == 1, text
    named = [p for p in provisional if p.startswith(DECISIVE)]
    line = " ".join(text.split("⚠", 1)[1].split())  # the line may wrap
    for item in named:
        assert " ".join(item.split()) in line
    counted = re.search(r"(\d+) (?:more|stand-ins?)", line)
    assert (int(counted.group(1)) if counted else 0) == len(provisional) - len(named), (line, provisional)


def test_new_lists_every_stand_in_once(referee: Referee) -> None:
    result = referee("new", "cyrus-pyxis", "--setup", str(SETUP))
    assert result.code == 0, result.err
    for expected in ("combat_results.csv: 5 rows (provisional)", "terrain.yaml:",
                     "interpretation combat-terrain:", "interpretation king-exit:"):
        assert expected in result.out
    listing = referee("tables", "cyrus-pyxis")
    assert "interpretation same-line-order:" in listing.out
    assert "combat_values.csv: guard, archer, cavalry, phalanx (provisional)" in listing.out


def test_five_turn_game_one_marker_per_ruling_complete_list_in_json(referee: Referee) -> None:
    """Two files played in step, one in text and one in --json: every text ruling carries at most
    one ⚠ line, consistent with the complete list its --json twin gives."""
    for name in ("text.referee", "json.referee"):
        assert referee("new", "cyrus-pyxis", "--setup", str(SETUP), "--file", name).code == 0
    combats = 0
    step = 0
    turn: int | None = 1
    while turn is not None and turn <= 5:
        args = ["do", OPENING[step]] if step < len(OPENING) else ["bot", "--seed", f"table-{step}"]
        step += 1
        text = referee(*args, "--file", "text.referee")
        data = referee(*args, "--file", "json.referee", "--json")
        assert text.code == data.code == 0, (args, text.err, data.err)
        record = json.loads(data.out)["record"]
        turn = _turn(json.loads(data.out)["status"])
        _check_marker(text.out, record["provisional"])
        if any(e["code"] == "combat-result" for e in record["events"]):
            combats += 1
            assert any(p.startswith("combat_results.csv:") for p in record["provisional"])
            assert "combat_results.csv:" in text.out  # the deciding stand-in is named, not counted
        assert step < 400, "the game does not progress"
    assert combats >= 1
    assert turn in (6, None)
    assert referee("log", "--file", "text.referee").out.count("\n") > 60
    why = referee("why", "--file", "text.referee", "--json")
    assert why.code == 0
    explained = referee("why", "--file", "text.referee")
    for item in json.loads(why.out)["provisional"]:
        assert item.split(" ", 1)[0] in explained.out


def test_explain_lists_every_stand_in(game: Path, referee: Referee) -> None:
    result = referee("do", "Pergame L4", "--explain")
    assert result.code == 0
    assert "relies on terrain.yaml" in result.out
    plain = referee("judge", "Pyxis F3")
    assert "1 stand-in, see 'referee why'" in plain.out
    assert "relies on" not in plain.out
    full = referee("why", "--all")
    assert "interpretation combat-terrain:" in full.out
