"""The table display's latency and memory (issue 30): a commit to the game file, then the event on
an open page's stream; and the server's memory with four pages open.

A ``referee serve`` process (``--port 0``, loopback) serves a Cyrus & Pyxis game and, for the
memory figure, a four-people Zargo's Lords game. This process keeps the table's stream open and
commits moves to the game file the way ``referee do`` does (``GameFile.do``, then ``undo``, one
transaction each, in its own connection); each latency is from the end of the commit to the
arrival of the stream's next ``state`` event. A few real ``referee do`` processes are timed the
same way from the moment the process exits. Memory is the server's resident set (VmRSS) idle,
then with the table's and three players' streams open after some changes.

Run: ``python bench/bench_serve.py [--commits N]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _new(path: Path, slug: str) -> Path:
    from referee.games import find_game
    from referee.journal import GameFile
    from referee.tables import data_root, load_table_set, load_yaml_text

    engine = find_game(slug)
    sample = data_root("samples") / slug / "setup.yaml"
    table_set = load_table_set(slug)
    actions = engine.checked_setup(table_set, load_yaml_text(str(sample), sample.read_text(encoding="utf-8")),
                                   str(sample))
    GameFile.create(path, engine, table_set, actions=actions).close()
    return path


def _serve(game: Path) -> tuple[subprocess.Popen[str], dict[str, object]]:
    process = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--file", str(game), "--port", "0",
                                "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "REFEREE_LANG": "en"})
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 60)
    assert ready, "the server did not start"
    return process, json.loads(process.stdout.readline())


class Stream:
    """An open event stream whose ``state`` events are timestamped as they arrive."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.conn.request("GET", parts.path, headers={"Host": parts.netloc})
        self.response = self.conn.getresponse()
        self.arrivals: list[float] = []
        self.done = False
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        while not self.done:
            chunk = self.response.fp.read1(65536)
            if not chunk:
                return
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                if b"event: state" in block:
                    self.arrivals.append(time.monotonic())

    def wait(self, count: int, timeout: float = 5.0) -> float:
        end = time.monotonic() + timeout
        while len(self.arrivals) < count and time.monotonic() < end:
            time.sleep(0.001)
        if len(self.arrivals) < count:
            raise TimeoutError(f"event {count} did not arrive within {timeout} s")
        return self.arrivals[count - 1]

    def close(self) -> None:
        self.done = True
        self.conn.close()


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def latency(folder: Path, commits: int) -> dict[str, object]:
    from referee.games import find_game
    from referee.journal import GameFile

    game = _new(folder / "cyrus.referee", "cyrus-pyxis")
    process, urls = _serve(game)
    stream = Stream(str(urls["table"]) + "events")
    try:
        stream.wait(1)
        delays: list[float] = []
        with GameFile.open(game, find_game) as gf:
            for i in range(commits):
                time.sleep(0.15)  # let the previous change settle, as moves at a table do
                if i % 2 == 0:
                    gf.do("Pergame L7")
                else:
                    gf.undo()
                committed = time.monotonic()
                delays.append(stream.wait(i + 2) - committed)
        cli: list[float] = []
        for text in ("Pergame L7", "Telestas L4", "done"):
            seen = len(stream.arrivals)
            subprocess.run([sys.executable, "-m", "referee", "do", text, "--file", str(game)], check=True,
                           capture_output=True)
            exited = time.monotonic()
            cli.append(max(0.0, stream.wait(seen + 1) - exited))
    finally:
        stream.close()
        process.terminate()
        process.wait()
    ms = sorted(d * 1000 for d in delays)
    return {"commits": commits, "median_ms": round(statistics.median(ms), 1),
            "p90_ms": round(ms[int(0.9 * (len(ms) - 1))], 1), "max_ms": round(ms[-1], 1),
            "cli_after_exit_ms": [round(c * 1000, 1) for c in cli]}


def memory(folder: Path) -> dict[str, object]:
    game = _new(folder / "zargo.referee", "zargo")
    process, urls = _serve(game)
    try:
        time.sleep(0.5)
        idle = _rss_kib(process.pid)
        players = urls["players"]
        assert isinstance(players, dict)
        pages = [str(urls["table"]), *list(players.values())[:3]]
        streams = [Stream(u + "events") for u in pages]
        for s in streams:
            s.wait(1, timeout=30)
        from referee.games import find_game
        from referee.journal import GameFile

        with GameFile.open(game, find_game) as gf:
            gf.seal("moines", "garrison-0113", ["FMo", "MCh"])
        for s in streams:
            s.wait(2, timeout=30)
        opened = _rss_kib(process.pid)
        for s in streams:
            s.close()
    finally:
        process.terminate()
        process.wait()
    return {"game": "zargo, 4 peoples", "rss_idle_mib": round(idle / 1024, 1),
            "rss_four_pages_mib": round(opened / 1024, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
                  "latency": latency(Path(tmp), args.commits), "memory": memory(Path(tmp))}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
