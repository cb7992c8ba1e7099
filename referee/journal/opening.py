"""Opening a game file's history: the newest verified snapshot and the entries after it.

:func:`load` finds the newest snapshot that verifies (:mod:`referee.journal.snapshots`), resumes
the chain audit after it and replays only the actions played since; with none usable it checks
and replays the whole journal, as :func:`full` always does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from referee.errors import GameFileError
from referee.game import AnyEngine, GameState
from referee.journal import snapshots
from referee.journal.audit import Audit, Auditor, Tip
from referee.journal.model import Bad, Entry, SeedEpoch
from referee.journal.replay import replay
from referee.journal.storage import SELECT, SELECT_AFTER, SELECT_ONE, entry_from_row, text
from referee.tables import TableSet


@dataclass(frozen=True)
class Book:
    """What a load needs of a game file besides its connection."""

    label: str
    game: AnyEngine
    table_set: TableSet
    start: str
    """The chain value before the first entry (:func:`~referee.journal.model.genesis`)."""
    seeds: Sequence[SeedEpoch]
    secret: str | None
    next_roll_index: int


def full(conn: sqlite3.Connection, book: Book) -> Audit:
    """Returns the whole journal checked from its first entry.

    Raises:
        Bad: the first bad row, seed or counter.
    """
    auditor = Auditor(book.start)
    for row in conn.execute(SELECT):
        auditor.add(entry_from_row(row))
    return auditor.finish(book.seeds, book.next_roll_index, book.secret, file=True)


def replay_all(book: Book, audit: Audit) -> GameState:
    """Returns the state of a fully checked journal, replayed from the start.

    Raises:
        GameFileError: an entry no longer replays to its state hash.
    """
    by_seq = {e.seq: e for e in audit.entries}
    return replay(book.game, book.game.new_state(book.table_set), (by_seq[s] for s in audit.active), book.label)


def load(conn: sqlite3.Connection, book: Book) -> tuple[Audit, GameState]:
    """Returns the checked journal and the current state, from the newest usable snapshot.

    Raises:
        Bad, GameFileError: the journal does not check or replay (found by the full path).
    """
    last = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()[0]
    for seq in snapshots.stored_seqs(conn):
        if not 0 < seq <= last:
            continue
        try:
            return _from(conn, book, seq)
        except Exception:
            continue
    audit = full(conn, book)
    return audit, replay_all(book, audit)


def _from(conn: sqlite3.Connection, book: Book, seq: int) -> tuple[Audit, GameState]:
    snap = snapshots.read(conn, seq)
    tip, state = snapshots.check(snap, conn, book.game, book.table_set, _chain_at(conn, seq),
                                 lambda t: hash_at(conn, book, t))
    auditor = Auditor.resume(tip)
    for row in conn.execute(SELECT_AFTER, (seq,)):
        auditor.add(entry_from_row(row))
    audit = auditor.finish(book.seeds, book.next_roll_index, book.secret, file=True)
    if tuple(audit.active[: len(tip.active)]) != tip.active:
        raise Bad("", "an action in play at the snapshot was undone since")
    later = [entry_at(conn, audit, s) for s in audit.active[len(tip.active):]]
    return audit, replay(book.game, state, later, book.label)


def _chain_at(conn: sqlite3.Connection, seq: int) -> str | None:
    row = conn.execute("SELECT chain FROM journal WHERE seq = ?", (seq,)).fetchone()
    return text(row[0], f"journal row {seq}", "chain") if row is not None else None


def hash_at(conn: sqlite3.Connection, book: Book, tip: Tip) -> str:
    """Returns the state hash the journal recorded for the history a tip says is in play."""
    if not tip.active:
        return book.game.state_hash(book.game.new_state(book.table_set))
    row = conn.execute("SELECT state_hash FROM journal WHERE seq = ?", (tip.active[-1],)).fetchone()
    return text(row[0] if row else None, f"journal row {tip.active[-1]}", "state_hash") or ""


def entry_at(conn: sqlite3.Connection, audit: Audit, seq: int) -> Entry:
    """Returns entry ``seq``: from those the audit read, else from its row (covered by the
    verified snapshot's digest of the rows before it).

    Raises:
        Bad: no such row, or it is not an entry.
    """
    first = audit.count - len(audit.entries) + 1
    if seq >= first:
        return audit.entries[seq - first]
    row = conn.execute(SELECT_ONE, (seq,)).fetchone()
    if row is None:
        raise Bad(f"journal row {seq}", "missing")
    return entry_from_row(row)


def check_snapshots(conn: sqlite3.Connection, book: Book, audit: Audit) -> list[str]:
    """Returns one line per stored snapshot that disagrees with the full replay of ``audit`` (a
    complete audit): not verifying, or holding another state or tip than the replay's.

    Raises:
        GameFileError: an entry no longer replays (the journal itself is at fault).
    """
    problems: list[str] = []
    seqs = sorted(snapshots.stored_seqs(conn))
    if not seqs:
        return problems
    tips = _tips(book, audit, set(seqs))
    for seq in seqs:
        where = f"{book.label}: snapshot after journal row {seq}"
        if seq not in tips:
            problems.append(f"{where}: no such journal row, or it cannot be replayed")
            continue
        try:
            snap = snapshots.read(conn, seq)
            tip, state = snapshots.check(snap, conn, book.game, book.table_set, _chain_at(conn, seq),
                                         lambda t: hash_at(conn, book, t))
        except Bad as exc:
            problems.append(f"{book.label}: {exc}")
            continue
        expected_tip, expected_state = tips[seq]
        if tip != expected_tip:
            problems.append(f"{where}: its audit summary differs from the journal's")
        elif snapshots.state_json(state) != snapshots.state_json(expected_state) or snap.state != \
                snapshots.state_json(expected_state):
            problems.append(f"{where}: its state differs from the replayed one")
    return problems


def _tips(book: Book, audit: Audit, wanted: set[int]) -> dict[int, tuple[Tip, GameState]]:
    """Returns the tip and the replayed state after each wanted entry, replaying from the start."""
    auditor = Auditor(book.start)
    states: dict[int, GameState | None] = {}
    in_play = set(audit.active)
    out: dict[int, tuple[Tip, GameState]] = {}
    initial = book.game.new_state(book.table_set)
    for entry in audit.entries:
        auditor.add(entry)
        active = auditor.audit.active
        if entry.kind in ("action", "adjust") and entry.seq not in states:
            before = states[active[-2]] if len(active) > 1 else initial
            try:
                states[entry.seq] = None if before is None else replay(book.game, before, [entry], book.label)
            except GameFileError:
                if entry.seq in in_play:
                    raise
                states[entry.seq] = None  # undone since, and no longer replays: what followed it is unchecked
        state = states[active[-1]] if active else initial
        if entry.seq in wanted and state is not None:
            out[entry.seq] = (auditor.audit.tip(), state)
    return out
