"""The server's examples in the README and docs/table-display.md run as written: the commands
before ``referee serve`` in a fresh folder, then the server itself (on a free port, its links as
JSON), whose table page must answer."""

from __future__ import annotations

import json
import re
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.serve.conftest import ROOT, Http, referee

MARKER = "<!-- serve -->"


def _blocks() -> list[tuple[str, list[str]]]:
    found = []
    for doc in (ROOT / "README.md", ROOT / "docs" / "table-display.md"):
        text = doc.read_text(encoding="utf-8")
        for match in re.finditer(r"```sh\n(.*?)\n```", text, re.S):
            if text[: match.start()].rstrip().splitlines()[-1] == MARKER:
                lines = [ln.split("#")[0].strip() for ln in match.group(1).splitlines()]
                found.append((doc.name, [ln for ln in lines if ln]))
    return found


def test_every_server_example_is_found() -> None:
    assert len(_blocks()) == 3


@pytest.mark.parametrize(("doc", "lines"), _blocks())
def test_server_examples_run_as_written(tmp_path: Path, doc: str, lines: list[str]) -> None:
    *before, last = lines
    assert last.startswith("referee serve"), doc
    if not before:
        before = ["referee new zargo --players 4 --setup setup.yaml"]
    for line in before:
        done = referee(*line.split()[1:], cwd=tmp_path)
        assert done.returncode == 0, f"{doc}: {line}: {done.stderr}"
    process = subprocess.Popen([sys.executable, "-m", "referee", *last.split()[1:], "--port", "0", "--json"],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 30)
        assert ready, doc
        links = json.loads(process.stdout.readline())
        table = str(links["table"]).replace(str(links["table"]).split("/")[2].split(":")[0], "127.0.0.1", 1)
        assert Http.get(table).status == 200  # on loopback, even when --lan serves the network too
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
