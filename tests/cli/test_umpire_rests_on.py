"""Umpire mode says what each ruling rests on (issue 35): citations in text as in JSON, section
summaries with --explain, readings named where they decide, and a marker that points where the
complete list really is (a position's ruling is not journaled, so not to ``referee why``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.tables import data_root
from tests.cli.conftest import Referee

SAMPLES = data_root("samples")
UMPIRE = SAMPLES / "cyrus-pyxis" / "umpire.yaml"
ATTACKING_ARCHER = """\
game: cyrus-pyxis
phase: support
greek: {Pyxis: A6, Telestas: C6, Athéna: B6}
persian: {Cyrus: L6, Amatonte: B6, Tyr: C6}
"""


@pytest.fixture
def archer(tmp_path: Path) -> Path:
    path = tmp_path / "archer.yaml"
    path.write_text(ATTACKING_ARCHER, encoding="utf-8")
    return path


def test_resolve_on_a_position_cites_in_text_what_json_cites(referee: Referee) -> None:
    data = json.loads(referee("resolve", "cyrus-pyxis", "--position", str(UMPIRE), "--json").out)
    cited = {c["section"] for e in data["events"] for c in e["cites"]}
    text = referee("resolve", "cyrus-pyxis", "--position", str(UMPIRE))
    assert text.code == 0
    flat = " ".join(text.out.split())
    for event in data["events"]:
        assert f"[{event['code']}]" in flat
    for section in cited:
        assert f"{section} " in flat, (section, flat)


def test_resolve_explain_gives_the_section_summaries(referee: Referee) -> None:
    text = referee("resolve", "cyrus-pyxis", "--position", str(UMPIRE), "--explain")
    assert text.code == 0
    assert "§ VI.3 Combat result:" in text.out
    assert "relies on combat_results.csv:" in text.out


def test_resolve_explain_in_a_game_file_gives_the_section_summaries(referee: Referee, game: Path) -> None:
    for action in ("Pergame L7", "Telestas L4", "done", "Tyr L8", "done", "Pergame L8", "Telestas L6", "done",
                   "support Telestas Pergame"):
        assert referee("do", action).code == 0, action
    text = referee("resolve", "--explain")
    assert text.code == 0
    assert "§ VI.3 Combat result:" in text.out


def test_a_position_ruling_points_to_explain_not_to_why(referee: Referee, archer: Path) -> None:
    verdict = referee("judge", "cyrus-pyxis", "--position", str(archer), "support Telestas Athéna")
    assert verdict.code == 0
    assert "[archer-engaged]" in verdict.out and "wrong-phase" not in verdict.out
    marker = next(line for line in verdict.out.splitlines() if "⚠" in line)
    assert "engaged-archer" in marker and "referee why" not in marker and "--explain" in marker
    full = referee("judge", "cyrus-pyxis", "--position", str(archer), "support Telestas Athéna", "--explain")
    assert "relies on interpretation engaged-archer: any-combat" in full.out
    assert "§ IV.2-1 Archer support conditions:" in full.out


def test_legal_discloses_the_reading_an_archers_supports_rest_on(referee: Referee, archer: Path) -> None:
    report = json.loads(referee("legal", "cyrus-pyxis", "--position", str(archer), "Telestas", "--json").out)
    assert report["supports"] == []
    assert any(p.startswith("interpretation engaged-archer") for p in report["provisional"])
    text = referee("legal", "cyrus-pyxis", "--position", str(archer), "Telestas")
    assert "engaged-archer" in text.out


def test_a_refused_move_says_the_reading_it_rests_on(referee: Referee, game: Path) -> None:
    # In play, Pyxis is the Greek king: moving it past its allowance is refused on the movement
    # stand-in (terrain costs), named on the refusal's marker line.
    refused = referee("do", "Pyxis A12")
    assert refused.code == 1
    assert "⚠" in refused.err and "--explain" in refused.err
    full = referee("do", "Pyxis A12", "--explain")
    assert full.code == 1 and "relies on terrain.yaml" in full.err
