"""The open game file (:class:`GameFile`): opening, locking, reading the state, and writing.

Every write is one ``BEGIN IMMEDIATE`` transaction: a killed process never leaves half an
action, and two processes on one file are serialised by SQLite's lock. A rejected action writes
nothing, so the file stays byte-identical. A write ends by keeping a snapshot of the state
(:mod:`referee.journal.snapshots`), so the next command replays nothing; a read never writes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

from pydantic import ValidationError

from referee.dice import CommittedDice, PhysicalDice, commitment, new_seed
from referee.errors import GameFileError, InputFileError, RefereeError, StaleStateError
from referee.files import require_regular
from referee.game import AnyEngine, GameState
from referee.i18n import _
from referee.journal import install, opening, snapshots, storage
from referee.journal.audit import Audit
from referee.journal.model import (
    FORMAT,
    Bad,
    Entry,
    EntryKind,
    GameLookup,
    SeedEpoch,
    genesis,
    link,
    model_error,
    now,
)
from referee.journal.replay import replay
from referee.journal.storage import sql_problem
from referee.tables import TableSet
from referee.writing import note_commit, sweep_temporaries

Key = tuple[int, int, int]
T = TypeVar("T")


class Store:
    """A game file's connection, header and checked history; :class:`GameFile` adds the verbs."""

    def __init__(self, path: Path, conn: sqlite3.Connection, games: GameLookup, readonly: bool = False,
                 wal_pending: bool = False) -> None:
        self.path = path
        self.conn = conn
        self.games = games
        self.readonly = readonly
        self._wal_pending = wal_pending
        """Opened read-only over a WAL another program left (a crash): a write reopens it first."""
        self._reader: sqlite3.Connection | None = None
        self._last_seq = 0
        self._loaded: tuple[Key, Audit, GameState, list[SeedEpoch]] | None = None
        self._full: tuple[Key, Audit] | None = None
        try:
            self._read_header()
        except Bad as exc:
            conn.close()
            raise GameFileError(f"{path}: {exc}") from None
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            conn.close()
            raise GameFileError(_("{path}: damaged or not a game file ({problem})").format(
                path=path, problem=sql_problem(exc))) from None
        except BaseException:
            conn.close()
            raise

    def _read_header(self) -> None:
        meta = storage.read_meta(self.conn)
        self.game_id = meta["game_id"]
        try:
            self.game: AnyEngine = self.games(meta["slug"])
        except RefereeError:
            raise Bad("meta slug", _("unknown game {name}").format(name=repr(meta["slug"][:64]))) from None
        self.next_roll_index = int(meta["next_roll_index"])
        self.created = meta["created"]
        try:
            texts = storage.TABLES.validate_python(storage.json_column("meta", "tables", meta["tables"]))
        except ValidationError as exc:
            raise Bad("meta tables", model_error(exc)) from None
        self.tables_hash = meta["tables_hash"]
        self.table_set = TableSet.from_texts(self.game.info.slug, texts, str(self.path))
        if self.table_set.digest != self.tables_hash:
            raise Bad("meta tables", "the stored tables do not match their hash (file altered)")

    # ---- connection and transactions ----------------------------------------------------------

    def close(self) -> None:
        """Closes the database connection (the writer first: a read-only reader left open last keeps
        a WAL from being checkpointed by a command that wrote nothing)."""
        self.conn.close()
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def _drop_stale_journal(self) -> None:
        """Removes an SQLite journal a write killed as it began left beside the file: empty, or with
        a zeroed header, SQLite never rolls it back nor removes it. Done under the write lock, so it
        is nobody's live journal; a hot journal (one with content) was rolled back by SQLite as the
        lock was taken, and is gone by then."""
        side = f"{os.fsdecode(self.path)}-journal"
        try:
            self.conn.execute("PRAGMA busy_timeout = 0")  # a live writer: leave it be, do not wait for it
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error:
            return  # another writer holds the file: the journal is its own
        finally:
            with suppress(sqlite3.Error):
                self.conn.execute(f"PRAGMA busy_timeout = {storage.BUSY_MS}")
        try:
            with open(side, "rb") as fh:
                if fh.read(1) in (b"", b"\x00"):
                    os.unlink(side)
        except OSError:
            pass
        finally:
            self._rollback()

    @contextmanager
    def _transaction(self) -> Iterator[Audit]:
        """Locks the file, checks the journal and loads the state, then yields for the writes; keeps
        a snapshot of the state the writes leave before committing."""
        if self.readonly:
            raise GameFileError(_("{path} is read-only").format(path=self.path))
        if self._wal_pending and self._reader is None:
            self._reopen_for_writing()
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise self._write_error(exc) from None
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise GameFileError(_("{path}: cannot lock game file ({problem})").format(
                path=self.path, problem=sql_problem(exc))) from None
        try:
            audit = self._audit()
            yield audit
            self._keep_snapshot()
        except sqlite3.Error as exc:
            self._rollback()
            raise self._write_error(exc) from None
        except UnicodeDecodeError as exc:  # SQLite's messages may quote damaged bytes
            self._rollback()
            raise GameFileError(_("{path}: damaged ({problem})").format(
                path=self.path, problem=sql_problem(exc))) from None
        except BaseException:
            self._rollback()
            self._loaded = self._full = None
            raise
        try:
            self.conn.execute("COMMIT")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            self._rollback()
            self._loaded = self._full = None
            raise self._write_error(exc) from None
        note_commit(self.path, self._last_seq)
        self._leave_wal()

    def _keep_snapshot(self) -> None:
        """Keeps a snapshot after the journal's last entry, unless one is there (inside the write)."""
        audit, state = self._load()
        if audit.count == 0 or audit.count in snapshots.stored_seqs(self.conn):
            return
        snapshots.write(self.conn, audit.tip(), state, self.game.state_hash(state), self.game, self.table_set)

    def _reopen_for_writing(self) -> None:
        """Opens the writing connection over a WAL left by a crash, keeping the read-only one open
        until the write commits (so a refused write closes without checkpointing the WAL)."""
        writer = storage.connect(self.path, readonly=False)
        self._reader, self.conn = self.conn, writer
        self._loaded = self._full = None  # PRAGMA data_version is per connection

    def _leave_wal(self) -> None:
        """Brings a file another program switched to SQLite's WAL mode back to rollback-journal mode
        once a write has committed (which checkpoints the WAL): nothing is then left beside it. If
        another program still holds it open, it stays in WAL mode; the write is done either way."""
        try:
            mode = self.conn.execute("PRAGMA journal_mode").fetchone()
            if mode is not None and bytes(mode[0]).lower() == b"delete":
                return
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            self._wal_pending = False
            self.conn.execute("PRAGMA journal_mode=DELETE")
        except sqlite3.Error:
            return

    def _rollback(self) -> None:
        with suppress(sqlite3.Error):
            self.conn.execute("ROLLBACK")

    def _write_error(self, exc: Exception) -> GameFileError:
        said = str(exc).lower()
        if "readonly" in said or "read-only" in said:
            return GameFileError(_("{path} is read-only").format(path=self.path))
        return GameFileError(_("{path}: cannot write game file ({problem})").format(
            path=self.path, problem=sql_problem(exc)))

    # ---- reading ----------------------------------------------------------------------------

    def _version(self) -> Key:
        """What identifies the journal's content: other writers' commits, our last entry, undone flags."""
        try:
            version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            query = "SELECT COALESCE(MAX(seq), 0), COALESCE(SUM(undone), 0) FROM journal"
            last, undone = self.conn.execute(query).fetchone()
            return version, int(last), int(undone)
        except (sqlite3.Error, TypeError, ValueError) as exc:
            raise GameFileError(_("{path}: cannot read the journal ({problem})").format(
                path=self.path, problem=sql_problem(exc))) from None

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Holds one read transaction (SQLite's shared lock) while the block reads, so the roll
        counter, the seeds and the journal all come from the same commit of another writer (inside a
        write transaction: that one)."""
        if self.conn.in_transaction:
            yield
            return
        try:
            self.conn.execute("BEGIN")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise GameFileError(_("{path}: cannot read the journal ({problem})").format(
                path=self.path, problem=sql_problem(exc))) from None
        try:
            yield
        finally:
            with suppress(sqlite3.Error):
                self.conn.execute("COMMIT")

    def _book(self) -> tuple[opening.Book, list[SeedEpoch]]:
        """Reads the roll counter and the seeds (with the journal, in its read transaction)."""
        self.next_roll_index = storage.read_roll_counter(self.conn)
        seeds, secret = storage.read_seeds(self.conn)
        if not seeds or seeds[0].epoch != 0:
            raise Bad("seeds", "no seed for epoch 0")
        start = genesis(self.game_id, self.game.info.slug, self.tables_hash, self.created, seeds[0].commitment)
        public = [s if s.revealed_seq is not None else s.model_copy(update={"seed": None}) for s in seeds]
        return opening.Book(str(self.path), self.game, self.table_set, start, seeds, secret,
                            self.next_roll_index), public

    def _checked(self, body: Callable[[opening.Book], T]) -> tuple[T, list[SeedEpoch]]:
        """Runs ``body`` over the journal in one read transaction, its problems as GameFileError."""
        label = str(self.path)
        with self._reading():
            try:
                book, public = self._book()
                return body(book), public
            except Bad as exc:
                raise GameFileError(f"{label}: {exc}") from None
            except (sqlite3.Error, UnicodeDecodeError) as exc:
                raise GameFileError(f"{label}: damaged, cannot read the journal ({sql_problem(exc)})") from None

    def _load(self) -> tuple[Audit, GameState]:
        """Returns the checked journal and the current state, from the newest verified snapshot
        (cached until the file changes).

        Raises:
            GameFileError: the first bad row, seed or counter, or an entry that does not replay.
        """
        with self._reading():
            key = self._version()
            if self._loaded is not None and self._loaded[0] == key:
                return self._loaded[1], self._loaded[2]
            loaded, public = self._checked(lambda book: opening.load(self.conn, book))
            audit, state = loaded
            self._loaded = (key, audit, state, public)
            return audit, state

    def _audit(self) -> Audit:
        return self._load()[0]

    def _complete(self) -> Audit:
        """Returns the whole journal checked from its first entry (cached until the file changes)."""
        with self._reading():
            key = self._version()
            if self._full is not None and self._full[0] == key:
                return self._full[1]
            audit, _public = self._checked(lambda book: opening.full(self.conn, book))
            self._full = (key, audit)
            return audit

    def entries(self) -> list[Entry]:
        """Returns every journal entry, undone ones included, after checking the whole journal.

        Raises:
            GameFileError: the journal is damaged or altered (first bad row named).
        """
        return list(self._complete().entries)

    def state(self) -> GameState:
        """Returns the current state: the newest verified snapshot and the actions played since
        (cached until the next write).

        Raises:
            GameFileError: the journal does not check, or an entry no longer replays to its hash.
        """
        return self._load()[1]

    def replayed_state(self) -> GameState:
        """Returns the current state replayed from the start (no snapshot trusted).

        Raises:
            GameFileError: as :meth:`state`.
        """
        with self._reading():
            audit = self._complete()
            state, _public = self._checked(lambda book: opening.replay_all(book, audit))
        return state

    def verify(self) -> list[str]:
        """Checks the whole journal from its first entry, replays it, and compares every snapshot
        with the replay; returns one line per snapshot that disagrees (which is never trusted).

        Raises:
            GameFileError: the journal itself does not check or replay.
        """
        with self._reading():  # the journal and its snapshots of one commit, whoever writes meanwhile
            audit = self._complete()
            self.replayed_state()
            problems, _public = self._checked(lambda book: opening.check_snapshots(self.conn, book, audit))
        return problems

    def state_when(self, reached: Callable[[GameState], bool]) -> GameState:
        """Returns the first state of the game (replaying the journal) for which ``reached`` is
        true, or the current state if none is (``export --setup``: the state the set-up ended in).

        Raises:
            GameFileError: as :meth:`state`.
        """
        audit = self._complete()
        by_seq = {e.seq: e for e in audit.entries}
        return replay(self.game, self.game.new_state(self.table_set), (by_seq[s] for s in audit.active),
                      str(self.path), until=reached)

    def epochs(self) -> list[SeedEpoch]:
        """Returns the seed epochs; the seed is included only once revealed."""
        self._load()
        assert self._loaded is not None
        return list(self._loaded[3])

    def current_epoch(self) -> SeedEpoch:
        """Returns the epoch whose (secret) seed derives the next digital rolls."""
        return self.epochs()[-1]

    def _entry(self, audit: Audit, seq: int) -> Entry:
        try:
            return opening.entry_at(self.conn, audit, seq)
        except Bad as exc:
            raise GameFileError(f"{self.path}: {exc}") from None

    # ---- writing ----------------------------------------------------------------------------

    def _dice(self, faces: Sequence[int] | None, audit: Audit) -> CommittedDice | PhysicalDice:
        if faces is not None:
            return PhysicalDice(faces)
        _seeds, secret = storage.read_seeds(self.conn)
        assert secret is not None  # checked by the audit
        return CommittedDice(bytes.fromhex(secret), self.game_id, audit.next_index, audit.epoch)

    def _append(self, audit: Audit, kind: EntryKind, text: str, **cols: object) -> Entry:
        """Writes the next entry, chained to the last one (inside a transaction)."""
        data: dict[str, object] = {"seq": audit.count + 1, "kind": kind, "text": text, "time": now(), **cols}
        entry = Entry.model_validate(data)
        entry = entry.model_copy(update={"chain": link(audit.chain, entry)})
        # what is written must read back as the same entry, or the chain would not hold
        row = storage.entry_values(entry)
        try:
            again = storage.entry_from_row(tuple(v.encode() if isinstance(v, str) else v for v in row))
        except Bad as exc:
            raise GameFileError(f"{self.path}: cannot write entry {entry.seq}: {exc}") from None
        if link(audit.chain, again) != entry.chain:
            raise GameFileError(f"{self.path}: cannot write entry {entry.seq}: it does not read back the same")
        self.conn.execute(storage.INSERT, row)
        self._last_seq = entry.seq
        return entry

    def _played(self, audit: Audit, state: GameState) -> None:
        """Records the audit and state a write left (inside its transaction): what this
        connection will see of its own write once committed."""
        self._loaded = (self._version(), audit, state, self._loaded[3] if self._loaded else [])
        if audit.count % snapshots.EVERY == 0:
            snapshots.write(self.conn, audit.tip(), state, self.game.state_hash(state), self.game, self.table_set)

    def _check_start(self, state: GameState, start: str | None) -> None:
        if start is not None and self.game.state_hash(state) != start:
            raise StaleStateError(_("the game moved on before this move arrived; it was not played"))


def build(path: Path, game: AnyEngine, table_set: TableSet) -> sqlite3.Connection:
    """Writes a fresh game file at ``path`` (a new, empty temporary) and returns its connection."""
    try:
        conn = storage.connect(path, readonly=False, create=True)
    except GameFileError:
        install.remove(path)
        raise
    seed = new_seed()
    try:
        conn.execute("BEGIN IMMEDIATE")
        for statement in storage.SCHEMA.split(";"):
            if statement.strip():
                conn.execute(statement)
        meta = {
            "format": FORMAT, "slug": game.info.slug, "game_id": uuid.uuid4().hex[:12], "created": now(),
            "tables": json.dumps(table_set.texts(), ensure_ascii=False), "tables_hash": table_set.digest,
            "next_roll_index": "1",
        }
        conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        conn.execute("INSERT INTO seeds VALUES (0, ?, ?, 0, NULL)", (seed.hex(), commitment(seed)))
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        conn.close()
        install.remove(path)
        raise GameFileError(_("{path}: cannot create game file ({problem})").format(
            path=path, problem=sql_problem(exc))) from None
    return conn


def open_connection(path: Path) -> tuple[sqlite3.Connection, bool, bool]:
    """Opens an existing game file's connection: (connection, read-only, WAL pending).

    Raises:
        GameFileError: missing, not a regular file, or in WAL mode and read-only.
    """
    try:
        there = require_regular(path, what="game file", missing_ok=True)
    except InputFileError as exc:
        raise GameFileError(str(exc)) from None
    if not there:
        raise GameFileError(_("{path}: no game file here (start one with: referee new GAME --file {path})").format(
            path=path))
    sweep_temporaries(install.folder_of(path))  # what a killed write of ours left beside it
    readonly = not storage.writable(path)
    if readonly and storage.is_wal(path):
        raise GameFileError(_("{path} is read-only (and in SQLite's WAL mode, which needs writing to read)").format(
            path=path))
    # a WAL left by a crash is read, not recovered, until a write succeeds: a refused command
    # leaves the file's bytes as they were
    pending = not readonly and storage.wal_pending(path)
    return storage.connect(path, readonly or pending), readonly, pending

