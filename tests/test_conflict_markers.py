"""No text file of the project keeps a merge's conflict markers."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^(<{7} |={7}$|>{7} )", re.M)
TEXT = (".py", ".md", ".yaml", ".yml", ".po", ".toml", ".csv", ".json", ".html", ".js", ".css", ".txt")


def test_no_file_keeps_a_conflict_marker() -> None:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    names = listed.stdout.splitlines() if listed.returncode == 0 else [
        str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    found = [name for name in names if name.endswith(TEXT) and (ROOT / name).is_file()
             and MARKER.search((ROOT / name).read_text(encoding="utf-8", errors="replace"))]
    assert found == []
