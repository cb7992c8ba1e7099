"""The game file as the table display holds it: one worker thread, a change counter, snapshots.

Every read and write of the game file runs on one thread (SQLite connections belong to the
thread that opened them), through :class:`~referee.journal.GameFile` like any command, opened
again after each change (a game file's header, e.g. its roll counter, is read when opened). A second,
read-only connection is asked ``PRAGMA data_version`` ten times a second: SQLite changes it
whenever another connection (the CLI, the ``play`` shell, this server's own writes) commits, so
a change is seen without reading the file. A replaced file (a new inode) is opened again.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from referee.errors import NotationError
from referee.games import find_game
from referee.i18n import _, language
from referee.journal import GameFile
from referee.sealed import secret_of
from referee.serve import page
from referee.serve.links import Links
from referee.viewing import Seen, seen_by

T = TypeVar("T")
POLL_S = 0.1
"""How often the file's data version is asked."""
MAX_CACHED = 64
_TOKEN_LIKE = re.compile(r"[0-9a-fA-F]{32}")
"""Whatever looks like a token in the rest of a path is not logged either."""


class Table:
    """A served game file: its links, a version that grows with every change, cached snapshots."""

    def __init__(self, path: Path, links: Links) -> None:
        self.path = path
        self.links = links
        self.version = 0
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="referee-file")
        self._gf: GameFile | None = None
        self._watch: sqlite3.Connection | None = None
        self._mark: tuple[int, int, int] | None = None
        self._cache: dict[tuple[int, str | None, str], dict[str, object]] = {}
        self._changed: asyncio.Event | None = None
        gf = self._pool.submit(self._open).result()
        self.game = gf.game
        self.players = tuple(links.players)

    # ---- the worker thread ----------------------------------------------------------------

    def _open(self) -> GameFile:
        if self._gf is not None:
            self._gf.close()
        if self._watch is not None:
            self._watch.close()
        self._gf = GameFile.open(self.path, find_game)
        self._watch = sqlite3.connect(self.path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=True)
        self._mark = self._read_mark()
        return self._gf

    def _file(self) -> GameFile:
        assert self._gf is not None
        return self._gf

    def _read_mark(self) -> tuple[int, int, int]:
        """Returns what says the file changed: its inode and size, and SQLite's data version."""
        stat = os.stat(self.path)
        assert self._watch is not None
        version = int(self._watch.execute("PRAGMA data_version").fetchone()[0])
        return stat.st_ino, stat.st_dev, version

    def _poll(self) -> bool:
        """Returns whether the file changed since the last poll (reopening a replaced file)."""
        try:
            mark = self._read_mark()
        except (OSError, sqlite3.Error):
            return False  # gone for a moment (being replaced): asked again at the next poll
        if self._mark is not None and mark[:2] != self._mark[:2]:
            self._open()
            return True
        changed = mark != self._mark
        self._mark = mark
        if changed:  # a game file is read as a command reads it: its header anew after another's write
            self._reopen()
        return changed

    def _reopen(self) -> None:
        if self._gf is not None:
            self._gf.close()
        self._gf = GameFile.open(self.path, find_game)

    def _seen(self, viewer: str | None) -> Seen:
        return seen_by(self._file(), viewer)

    def _snapshot(self, viewer: str | None, lang: str, version: int) -> dict[str, object]:
        with language(lang):
            seen = self._seen(viewer)
            return page.snapshot(seen, version, self._file().current_epoch().commitment, self.players)

    def _moves(self, viewer: str, cell: str, lang: str) -> list[tuple[str, str]]:
        with language(lang):
            seen = self._seen(viewer)
            if not page.may_move(seen, self.game.to_act(seen.state), self.players):
                return []
            return page.moves_for(seen, cell)

    def _act(self, viewer: str, kind: str, body: dict[str, object], lang: str) -> str:
        """Plays a player's request through the game file, as the CLI would; returns the line to show."""
        gf = self._file()
        with language(lang):
            if kind == "seal":
                label, secret = _text(body, "label", 60), _text(body, "secret", 400)
                record = gf.seal(viewer, label, secret_of(secret))
                return "✓ " + "; ".join(e.text() for e in record.events)
            if kind == "reveal":
                record = gf.reveal_secret(viewer, _text(body, "label", 60))
                return "✓ " + "; ".join(e.text() for e in record.events)
            seen = self._seen(viewer)
            to_act = self.game.to_act(seen.state)
            if not page.may_move(seen, to_act, self.players):
                if to_act is None:
                    raise NotationError(_("nobody is to play now"))
                raise NotationError(_("it is not your turn: waiting for {side}").format(side=_(to_act)))
            expect = _text(body, "hash", 64)
            record = gf.do(_text(body, "action", 200), expect=expect)
            said = self.game.grammar.say(record.action) if self.game.grammar else record.action
            events = "; ".join(e.text() for e in record.events)
            return f"✓ {said}" + (f" — {events}" if events else "")

    # ---- the event loop's side ------------------------------------------------------------

    async def _run(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn)

    async def watch(self, stopping: Callable[[], bool]) -> None:
        """Asks the file for changes until ``stopping()``; each change bumps the version and wakes
        the streams."""
        while not stopping():
            if await self._run(self._poll):
                self.bump()
            await asyncio.sleep(POLL_S)

    def bump(self) -> None:
        """Counts a change and wakes every stream waiting for one."""
        self.version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def changed(self, seen_version: int, timeout: float) -> float:
        """Waits until the version is no longer ``seen_version`` or ``timeout`` seconds passed;
        returns the seconds waited."""
        start = time.monotonic()
        if self.version == seen_version:
            if self._changed is None:
                self._changed = asyncio.Event()
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        return time.monotonic() - start

    async def snapshot(self, viewer: str | None, lang: str) -> dict[str, object]:
        """Returns a viewer's page content in a language (computed once per change)."""
        version = self.version
        key = (version, viewer, lang)
        if key not in self._cache:
            if len(self._cache) > MAX_CACHED:
                self._cache = {k: v for k, v in self._cache.items() if k[0] == version}
            self._cache[key] = await self._run(lambda: self._snapshot(viewer, lang, version))
        return self._cache[key]

    async def moves(self, viewer: str, cell: str, lang: str) -> list[tuple[str, str]]:
        """Returns the legal moves of what stands on a cell (none when it is not the player's turn)."""
        return await self._run(lambda: self._moves(viewer, cell, lang))

    async def act(self, viewer: str, kind: str, body: dict[str, object], lang: str) -> str:
        """Plays a move, seal or reveal for a player; every page is told at once.

        Raises:
            RefereeError: refused (the game file is left as it was).
        """
        changed = await self._run(self._poll)  # the file as another process may just have left it
        try:
            return await self._run(lambda: self._act(viewer, kind, body, lang))
        finally:
            if await self._run(self._poll) or changed:
                self.bump()

    def describe(self, path: str) -> str:
        """Returns a request path for the log with the token replaced by its viewer's name."""
        token, _sep, rest = path.lstrip("/").partition("/")
        viewer = self.links.viewer(token)
        who = "?" if viewer is None else (viewer or "table")
        return f"{who} /{_TOKEN_LIKE.sub('…', rest)}"

    def close(self) -> None:
        """Closes the file's connections and the worker thread."""

        def shut() -> None:
            for conn in (self._gf, self._watch):
                if conn is not None:
                    conn.close()

        self._pool.submit(shut).result(timeout=5)
        self._pool.shutdown(wait=False)


def _text(body: dict[str, object], key: str, limit: int) -> str:
    """Returns a text field of a request's JSON body.

    Raises:
        NotationError: missing, not text, or longer than ``limit``.
    """
    value = body.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise NotationError(_("{field}: expected text of at most {limit} characters").format(field=key, limit=limit))
    return value.strip()
