"""Render snapshot and golden playthrough of the demo game: compared with files regenerated only
on purpose (``python -m tests.contract.goldens``). The per-game goldens are in test_contract_games."""

from __future__ import annotations

from tests.contract import checks, goldens


def test_board_snapshot() -> None:
    checks.check_golden(goldens.GOLDENS, "board.txt", goldens.FILES["board.txt"])


def test_demo_playthrough() -> None:
    checks.check_golden(goldens.GOLDENS, "playthrough.json", goldens.FILES["playthrough.json"])
