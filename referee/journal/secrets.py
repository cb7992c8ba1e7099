"""Sealed secrets in a game file: the private table (each secret with its salt, for its owner),
outside the journal and its chain; the journal holds each secret's commitment only.

A snapshot never holds a secret: it is the state, which the journal alone replays to, and the
journal holds commitments only (docs/decisions/snapshots.md).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from contextlib import suppress

from pydantic import ValidationError

from referee.errors import GameFileError, NotationError
from referee.journal.model import MAX_SECRETS, Bad, Entry, model_error
from referee.journal.storage import json_column, sql_problem, text
from referee.sealed import Commitment, Seal, StoredSecret, parse_reveal, parse_seal

SCHEMA = """
CREATE TABLE IF NOT EXISTS secrets (
    digest TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    label TEXT NOT NULL,
    salt TEXT NOT NULL,
    secret TEXT NOT NULL
)
"""
"""The private table: created with the first seal, so files without secrets are as before."""


def store(conn: sqlite3.Connection, seal: Seal) -> None:
    """Writes a sealed secret in the private table (inside the caller's transaction)."""
    stored = StoredSecret.of(seal)
    conn.execute(SCHEMA)
    conn.execute(
        "INSERT OR REPLACE INTO secrets (digest, owner, label, salt, secret) VALUES (?, ?, ?, ?, ?)",
        (stored.digest, stored.owner, stored.label, stored.salt,
         json.dumps(stored.secret, ensure_ascii=False, sort_keys=True)),
    )


def read(conn: sqlite3.Connection, viewer: str | None, label: str) -> list[Seal]:
    """Returns the private secrets ``viewer`` owns (none for the shared table), each checked
    against its digest.

    Raises:
        GameFileError: the private table is damaged or a secret does not open its digest.
    """
    if viewer is None:
        return []
    try:
        there = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'secrets'")
        if there.fetchone() is None:
            return []
        rows = conn.execute(
            "SELECT digest, owner, label, salt, secret FROM secrets WHERE owner = ? ORDER BY rowid LIMIT ?",
            (viewer, MAX_SECRETS),
        ).fetchall()
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise GameFileError(f"{label}: damaged, cannot read the secrets ({sql_problem(exc)})") from None
    out: list[Seal] = []
    for row in rows:
        try:
            where = f"secrets {text(row[0], 'secrets', 'digest')}"
            texts = [text(v, where, name) for v, name in zip(row, ("digest", "owner", "label", "salt", "secret"),
                                                             strict=True)]
            stored = StoredSecret(digest=texts[0], owner=texts[1], label=texts[2], salt=texts[3],
                                  secret=json_column(where, "secret", str(texts[4])))
        except Bad as exc:
            raise GameFileError(f"{label}: {exc}") from None
        except ValidationError as exc:
            raise GameFileError(f"{label}: secrets: {model_error(exc)}") from None
        seal = stored.seal()
        if seal is None:
            raise GameFileError(f"{label}: secrets {stored.digest[:12]}: does not open its commitment (altered)")
        out.append(seal)
    return out


def sealed_now(entries: Iterable[Entry]) -> list[tuple[Commitment, bool]]:
    """Returns every secret sealed by an action in play, with whether a reveal in play opened it."""
    out: list[tuple[Commitment, bool]] = []
    for entry in entries:
        if not entry.active:
            continue
        try:
            public = parse_seal(entry.text)
            opening = parse_reveal(entry.text) if public is None else None
        except NotationError:
            continue
        if public is not None:
            out.append((public, False))
        elif opening is not None:
            for i in range(len(out) - 1, -1, -1):
                c, shown = out[i]
                if c.owner == opening.owner and c.label == opening.label and not shown:
                    out[i] = (c, True)
                    break
    return out


def seals_in(entries: Iterable[Entry]) -> list[Commitment]:
    """Returns the commitment of every ``seal`` action in a journal (played or undone)."""
    out: list[Commitment] = []
    for entry in entries:
        if entry.kind == "action":
            with suppress(NotationError):
                public = parse_seal(entry.text)
                if public is not None:
                    out.append(public)
    return out
