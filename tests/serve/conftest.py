"""The table display under test: a real ``referee serve`` process on a loopback port, real HTTP.

:func:`served` starts the server on a game file (``--port 0 --json``), reads the links from its
first line and stops it with SIGINT (Ctrl-C) at the end; :class:`Http` speaks HTTP/1.1 with the
standard library, and :func:`first_events` reads a Server-Sent Events stream with a deadline.
Every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import http.client
import json
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.inprocess import Ran, run_main

ROOT = Path(__file__).resolve().parents[2]


def referee(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str] | Ran:
    """Runs the referee CLI (English), returning its output: ``serve`` in a real process, any other
    command through the console script's ``main()`` in this process (tests/inprocess.py), which is
    another process than the server's all the same."""
    env = {**os.environ, "REFEREE_LANG": "en"}
    if args[:1] != ("serve",):
        return run_main(list(args), cwd, env, stdin)
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=120, env=env, check=False)


@dataclass
class Server:
    """A running ``referee serve``: its links, its process, and what it printed on stderr."""

    urls: dict[str, object]
    process: subprocess.Popen[str]
    game: Path

    @property
    def table(self) -> str:
        return str(self.urls["table"])

    def player(self, name: str) -> str:
        players = self.urls["players"]
        assert isinstance(players, dict)
        return str(players[name])

    def stop(self) -> float:
        """Sends Ctrl-C and returns the seconds until the process ended."""
        start = time.monotonic()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return time.monotonic() - start


@contextmanager
def served(game: Path, *args: str) -> Iterator[Server]:
    """Serves a game file for the block; the server is stopped (Ctrl-C) at the end."""
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--file", str(game), "--port", "0", "--json", "--no-qr", *args],
        cwd=game.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "REFEREE_LANG": "en"})
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 30)
    line = process.stdout.readline() if ready else ""
    if not line:
        process.kill()
        _out, err = process.communicate()
        pytest.fail(f"referee serve did not start: {err[-2000:]}")
    server = Server(json.loads(line), process, game)
    try:
        yield server
    finally:
        server.stop()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict[str, object]:
        data = json.loads(self.body)
        assert isinstance(data, dict)
        return data


class Http:
    """HTTP/1.1 requests to a URL's host, with the headers a browser on that page would send."""

    @staticmethod
    def request(url: str, method: str = "GET", body: bytes | None = None, headers: dict[str, str] | None = None,
                host: str | None = None) -> Reply:
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        sent = {"Host": host or parts.netloc, **(headers or {})}
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        conn.close()
        return reply

    @classmethod
    def get(cls, url: str, **kw: object) -> Reply:
        return cls.request(url, **kw)  # type: ignore[arg-type]

    @classmethod
    def post(cls, url: str, data: object, origin: bool = True, content_type: str = "application/json") -> Reply:
        parts = urlsplit(url)
        headers = {"Content-Type": content_type}
        if origin:
            headers["Origin"] = f"http://{parts.netloc}"
        return cls.request(url, "POST", json.dumps(data).encode(), headers)


def first_events(url: str, count: int = 1, deadline: float = 10.0,
                 after: object = None) -> list[dict[str, object]]:
    """Returns the first ``count`` ``state`` events of a stream (``after``: called once the first
    one arrived, e.g. to make a move), failing past the deadline."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=deadline)
    conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers={"Host": parts.netloc})
    response = conn.getresponse()
    assert response.status == 200 and response.getheader("content-type", "").startswith("text/event-stream")
    events: list[dict[str, object]] = []
    buffer = b""
    end = time.monotonic() + deadline
    try:
        while len(events) < count:
            if time.monotonic() > end:
                pytest.fail(f"only {len(events)} of {count} events within {deadline} s")
            chunk = response.fp.read1(65536) if hasattr(response.fp, "read1") else response.read(1)
            if not chunk:
                break
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                lines = block.decode().splitlines()
                if "event: state" in lines:
                    data = "".join(line[6:] for line in lines if line.startswith("data: "))
                    events.append(json.loads(data))
                    if len(events) == 1 and callable(after):
                        after()
    finally:
        conn.close()
    return events


def new_game(path: Path, slug: str, setup: str | None = "setup.yaml", players: int | None = None) -> Path:
    """Writes a new game file in process (as ``referee new``, without a process's start-up)."""
    from referee.games import find_game
    from referee.journal import GameFile
    from referee.tables import data_root, load_table_set, load_yaml_text

    engine = find_game(slug)
    table_set = load_table_set(slug)
    actions = engine.players_actions(players) if players else []
    if setup is not None:  # a set-up file says how many play, if the game asks
        sample = data_root("samples") / slug / setup
        data = load_yaml_text(str(sample), sample.read_text(encoding="utf-8"))
        actions = engine.checked_setup(table_set, data, str(sample))
    GameFile.create(path, engine, table_set, actions=actions).close()
    return path


@pytest.fixture(scope="session")
def cyrus_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Cyrus & Pyxis game after its set-up sample, made once: the Greeks move first."""
    return new_game(tmp_path_factory.mktemp("cyrus") / "template.referee", "cyrus-pyxis")


@pytest.fixture
def cyrus(tmp_path: Path, cyrus_template: Path) -> Path:
    """A fresh copy of the Cyrus & Pyxis game for one test."""
    game = tmp_path / "cyrus.referee"
    game.write_bytes(cyrus_template.read_bytes())
    return game


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory, cyrus_template: Path) -> Iterator[Server]:
    """One server on a Cyrus & Pyxis game for the tests of a module that change nothing."""
    game = tmp_path_factory.mktemp("shared") / "cyrus.referee"
    game.write_bytes(cyrus_template.read_bytes())
    with served(game) as server:
        yield server
