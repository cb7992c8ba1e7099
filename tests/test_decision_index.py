"""Every decision record is listed in docs/decisions/README.md, and every listed record exists."""

from __future__ import annotations

import re
from pathlib import Path

DECISIONS = Path(__file__).resolve().parent.parent / "docs" / "decisions"


def test_the_index_lists_every_record_and_only_records_that_exist() -> None:
    index = (DECISIONS / "README.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", index))
    present = {p.name for p in DECISIONS.glob("*.md")} - {"README.md"}
    assert present - listed == set(), "records missing from the index"
    assert listed - present == set(), "index entries without a record"
