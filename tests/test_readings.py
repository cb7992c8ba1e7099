"""Contract: every reading with options changes a ruling when switched, and the ruling says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games import GAME_PACKAGES
from tests.readings import Reading, override_with, readings, witnesses

CASES = [
    pytest.param(package, reading, id=f"{reading.slug}:{reading.ident}")
    for slug, package in GAME_PACKAGES.items()
    for reading in readings(slug)
]


@pytest.mark.parametrize(("package", "reading"), CASES)
def test_every_option_is_read_and_disclosed(package: str, reading: Reading, tmp_path: Path) -> None:
    found = witnesses(package)
    assert found is not None, f"tests/games/{package}/witnesses.py is missing"
    assert reading.ident in found, f"no witness for {reading.slug} reading {reading.ident!r}"
    outcomes: dict[str, str] = {}
    for option in reading.options:
        ruled = found[reading.ident](override_with(tmp_path / option, reading, option))
        assert reading.ident in ruled.disclosed, f"{reading.ident} not disclosed under option {option!r}"
        outcomes[option] = ruled.outcome
    assert len(set(outcomes.values())) >= 2, f"{reading.ident}: every option rules the same: {outcomes}"
