"""The core capture report (``referee.capture``): the lines any game's report prints, and what a
game's own report words itself."""

from __future__ import annotations

from referee.capture import CaptureReport, Disagreement, Question
from referee.games.cyrus_pyxis.capture import CyrusCaptureReport
from referee.i18n import language


def test_a_core_report_explains_itself_in_the_asked_language() -> None:
    ask = Question(cell="t3", text="which token is on t3?")
    one = CaptureReport(status="ambiguous", explanations=1, questions=(ask,), unreadable=("t4",), notes=("n",))
    two = one.model_copy(update={"explanations": 2})
    assert one.explain() == ["1 legal turn fits the photo:", "? which token is on t3?",
                             "cells not read clearly: t4", "note: n"]
    with language("fr"):
        assert two.explain()[0] == "2 tours légaux correspondent à la photo :"
    with language("it"):
        assert one.explain()[0] == "1 turno legale corrisponde alla foto:"
    bad = CaptureReport(status="unexplained", disagreements=(Disagreement(cell="t5", seen="north", before="",
                                                                           problem="no push leads there"),))
    assert bad.explain() == ["no legal turn explains the photo:", "✗ t5: no push leads there"]


def test_a_games_report_words_its_first_lines_and_keeps_the_rest() -> None:
    report = CyrusCaptureReport(status="unexplained", side="greek", unreadable=("d4",),
                                disagreements=(Disagreement(cell="c5", seen="persian", before="", problem="p"),))
    assert isinstance(report, CaptureReport)
    assert report.explain() == ["no legal greek turn explains the photo:", "✗ c5: p", "cells not read clearly: d4"]
    assert "judged" not in report.model_dump(mode="json")


def test_the_capture_command_knows_no_game_package() -> None:
    """``referee capture`` reaches a game's capture rules only through ``capture_of`` and the core
    shapes: its module imports the registry, never a game's package (type-checking imports too)."""
    import ast
    from pathlib import Path

    import referee.cli.vision as command

    tree = ast.parse(Path(command.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    assert "referee.capabilities" in imported and "referee.capture" in imported
    assert not {name for name in imported if name.startswith("referee.games.")}, imported
