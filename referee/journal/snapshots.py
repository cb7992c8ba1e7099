"""Verified snapshots: the state after an entry, kept so that opening a file replays nothing older.

A snapshot row holds, after journal entry ``seq``: the state as canonical JSON, its state hash,
the audit's :class:`~referee.journal.audit.Tip`, a digest of every journal row up to ``seq`` as
stored, and a digest binding all of these to the chain value of entry ``seq``. Opening a file
trusts the newest snapshot only when its digest verifies, the rows up to it are byte for byte
those it was taken over, the chain value and the state hash are the journal's own, and the state
it holds hashes to that state hash; anything less and it is passed over (an older snapshot, or a
replay from the start, is used instead). The full audit (:meth:`GameFile.verify`) replays every
entry from the start and compares every snapshot with it. docs/decisions/snapshots.md.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from referee.files import loads_capped
from referee.game import AnyEngine, GameState
from referee.journal.audit import Tip
from referee.journal.model import HEX64, Bad, model_error
from referee.journal.storage import COLUMNS, integer, text
from referee.tables import TableSet

EVERY = 50
"""A snapshot is kept after every EVERY-th entry (and after the last entry of each write)."""

VERSION = "referee-snapshot/1"

MAX_STATE_CHARS = 4_000_000
"""Largest snapshot state read (a Zargo's Lords state is about 2,000 characters)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS snapshots (
    seq INTEGER PRIMARY KEY,
    tip TEXT NOT NULL,
    state TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    rows TEXT NOT NULL,
    digest TEXT NOT NULL
)
"""
"""Created by the first write that keeps a snapshot: a file written by an older referee has none
until its next write, and a read never creates it."""

_FIELDS = ("seq", "tip", "state", "state_hash", "rows", "digest")
_ROWS = f"SELECT {', '.join(COLUMNS['journal'])} FROM journal WHERE seq <= ? ORDER BY seq"


@dataclass(frozen=True)
class Snapshot:
    """One stored snapshot, as read (checked by :func:`check`)."""

    seq: int
    tip: str
    state: str
    state_hash: str
    rows: str
    digest: str


def state_json(state: GameState) -> str:
    """Returns the state as canonical JSON: every field but its tables (which the file keeps),
    keys sorted, no spaces; fields left out of the state's own dump (a ruling kept for its
    words) are written too, so the state loads back equal."""
    data = state.model_dump(mode="json")
    for name, info in type(state).model_fields.items():
        if info.exclude and name != "tables":
            value = getattr(state, name)
            data[name] = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def state_from_json(game: AnyEngine, table_set: TableSet, raw: str) -> GameState:
    """Returns the state :func:`state_json` wrote, with the tables of ``table_set``.

    Raises:
        ValueError: not a state of this game (pydantic's ``ValidationError`` included).
    """
    if len(raw) > MAX_STATE_CHARS:
        raise ValueError("a snapshot's state is larger than any game's")
    fresh = game.new_state(table_set)
    data = loads_capped(raw)
    if not isinstance(data, dict):
        raise ValueError("a snapshot's state is not a mapping")
    tables = getattr(fresh, "tables", None)
    state: GameState = type(fresh).model_validate({**data, "tables": tables} if tables is not None else data)
    return state


def rows_digest(conn: sqlite3.Connection, upto: int) -> str:
    """Returns the SHA-256 of journal rows 1 to ``upto`` exactly as stored (every column)."""
    h = hashlib.sha256()
    for row in conn.execute(_ROWS, (upto,)):
        h.update(repr(row).encode())
    return h.hexdigest()


def digest(seq: int, tip: str, state: str, state_hash: str, rows: str) -> str:
    """Returns the digest binding a snapshot's parts to each other and to the chain (in ``tip``)."""
    blob = "\n".join((VERSION, str(seq), tip, state_hash, rows, state))
    return hashlib.sha256(blob.encode()).hexdigest()


def present(conn: sqlite3.Connection) -> bool:
    """True when the file has a snapshots table (a file of an older referee has none)."""
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'snapshots'").fetchone()
    return found is not None


def stored_seqs(conn: sqlite3.Connection) -> list[int]:
    """Returns the entries snapshots were kept after, newest first (none if the table is absent or
    unreadable: the file is then opened by replaying it)."""
    try:
        if not present(conn):
            return []
        rows = conn.execute("SELECT seq FROM snapshots ORDER BY seq DESC").fetchall()
    except sqlite3.Error:
        return []
    return [r[0] for r in rows if isinstance(r[0], int) and not isinstance(r[0], bool)]


def read(conn: sqlite3.Connection, seq: int) -> Snapshot:
    """Returns the snapshot kept after entry ``seq``, its columns type-checked.

    Raises:
        Bad: missing, or a column of the wrong type.
    """
    where = f"snapshot after journal row {seq}"
    try:
        row = conn.execute(f"SELECT {', '.join(_FIELDS)} FROM snapshots WHERE seq = ?", (seq,)).fetchone()
    except sqlite3.Error as exc:
        raise Bad(where, f"unreadable ({exc})") from None
    if row is None:
        raise Bad(where, "missing")
    values = [text(v, where, name) for v, name in zip(row[1:], _FIELDS[1:], strict=True)]
    if any(len(str(v)) > MAX_STATE_CHARS for v in values):
        raise Bad(where, "larger than any game's state")
    return Snapshot(integer(row[0], where, "seq") or 0, *(str(v) for v in values))


def check(snap: Snapshot, conn: sqlite3.Connection, game: AnyEngine, table_set: TableSet,
          chain_at: str | None, hash_of: Callable[[Tip], str]) -> tuple[Tip, GameState]:
    """Returns a snapshot's tip and state once every part of it verifies.

    ``chain_at`` is the chain value journal row ``seq`` holds (None: no such row, an empty
    journal for ``seq`` 0); ``hash_of`` returns the state hash the journal recorded for the
    history a tip says is in play (the initial state's when nothing is).

    Raises:
        Bad: a part does not verify (the snapshot is then not trusted).
    """
    where = f"snapshot after journal row {snap.seq}"
    if digest(snap.seq, snap.tip, snap.state, snap.state_hash, snap.rows) != snap.digest:
        raise Bad(where, "its digest does not match (altered)")
    try:
        tip = Tip.model_validate_json(snap.tip)
    except ValidationError as exc:
        raise Bad(where, f"tip: {model_error(exc)}") from None
    if tip.count != snap.seq or (snap.seq > 0 and tip.chain != chain_at):
        raise Bad(where, "it is not bound to the journal's chain at its row")
    if rows_digest(conn, snap.seq) != snap.rows:
        raise Bad(where, "the journal rows it was taken over have changed since")
    if not _is_hex64(snap.state_hash) or snap.state_hash != hash_of(tip):
        raise Bad(where, "its state hash is not the one the journal recorded")
    try:
        state = state_from_json(game, table_set, snap.state)
    except (ValueError, RecursionError) as exc:
        raise Bad(where, f"its state does not load ({type(exc).__name__})") from None
    if game.state_hash(state) != snap.state_hash:
        raise Bad(where, "its state does not hash to its state hash (altered)")
    return tip, state


def _is_hex64(value: str) -> bool:
    return re.fullmatch(HEX64, value) is not None


def write(conn: sqlite3.Connection, tip: Tip, state: GameState, state_hash: str, game: AnyEngine,
          table_set: TableSet) -> bool:
    """Keeps a snapshot after entry ``tip.count`` (inside the caller's write transaction), then
    drops the older ones that are neither every :data:`EVERY`-th entry's nor this one.

    A state that does not load back to the same state hash is not kept (returns False): the file
    is then opened by replay, as one without snapshots.
    """
    state_text = state_json(state)
    try:
        if game.state_hash(state_from_json(game, table_set, state_text)) != state_hash:
            return False
    except (ValueError, RecursionError):
        return False
    if not present(conn) or not _well_formed(conn):
        conn.execute("DROP TABLE IF EXISTS snapshots")  # derived data only: rebuilt in this transaction
        conn.execute(SCHEMA)
    seq = tip.count
    tip_text = tip.model_dump_json()
    rows = rows_digest(conn, seq)
    conn.execute(
        f"INSERT OR REPLACE INTO snapshots ({', '.join(_FIELDS)}) VALUES (?, ?, ?, ?, ?, ?)",
        (seq, tip_text, state_text, state_hash, rows, digest(seq, tip_text, state_text, state_hash, rows)),
    )
    conn.execute("DELETE FROM snapshots WHERE seq != ? AND seq % ? != 0", (seq, EVERY))
    return True


def _well_formed(conn: sqlite3.Connection) -> bool:
    try:
        kind = conn.execute("SELECT type FROM sqlite_master WHERE name = 'snapshots'").fetchone()
        have = {bytes(r[1]).decode("utf-8", "replace") for r in conn.execute("PRAGMA table_info(snapshots)")}
    except sqlite3.Error:
        return False
    return kind is not None and kind[0] == b"table" and set(_FIELDS) <= have
