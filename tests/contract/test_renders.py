"""Render snapshot and golden playthrough: compared with files regenerated only on purpose."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from goldens import FILES, GOLDENS


@pytest.mark.parametrize("name", sorted(FILES))
def test_golden(name: str) -> None:
    expected = (GOLDENS / name).read_text(encoding="utf-8")
    assert FILES[name]() == expected, f"{name} changed: if intended, run python tests/goldens.py"
