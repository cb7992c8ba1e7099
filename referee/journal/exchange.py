"""Exports: the whole game as JSON (unrevealed seeds left out) and back into a game file.

An export is checked exactly as a game file is: its journal as a sequence
(:class:`~referee.journal.audit.Auditor`), then replayed from the start to its state hash. It
carries no snapshot: an imported file keeps its first one when it is written.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.dice import MAX_ROLL_INDEX, commitment, new_seed
from referee.errors import GameFileError, InputFileError
from referee.files import parse_json, read_text
from referee.journal import secrets
from referee.journal.audit import Audit, Auditor
from referee.journal.model import (
    MAX_EXPORT_BYTES,
    MAX_SECRETS,
    OLD_EXPORT_FORMATS,
    Bad,
    Entry,
    SeedChange,
    SeedEpoch,
    genesis,
    model_error,
)
from referee.journal.storage import INSERT, entry_values
from referee.sealed import StoredSecret


class Export(BaseModel):
    """A game as ``referee export`` writes it."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    format: Literal["referee-export/2"]
    game: str = Field(max_length=64)
    game_id: str = Field(pattern=r"^[0-9A-Za-z_-]{1,64}$")
    created: str = Field(max_length=64)
    tables: dict[str, str]
    tables_hash: str
    next_roll_index: int = Field(ge=1, le=MAX_ROLL_INDEX + 1)
    seeds: list[SeedEpoch]
    entries: list[Entry]
    state_hash: str
    secrets: list[StoredSecret] = Field(default_factory=list, max_length=MAX_SECRETS,
                                        description="The exporting owner's own secrets (absent otherwise).")


def audit_export(label: str, export: Export) -> Audit:
    """Checks an export's journal as a sequence (the same checks as a game file's).

    Raises:
        GameFileError: the first problem, naming the export and the row.
    """
    try:
        if not export.seeds:
            raise Bad("seeds", "empty; an export holds at least the first commitment")
        auditor = Auditor(genesis(export.game_id, export.game, export.tables_hash, export.created,
                                  export.seeds[0].commitment))
        for entry in export.entries:
            auditor.add(entry)
        return auditor.finish(export.seeds, export.next_roll_index, None, file=False)
    except Bad as exc:
        raise GameFileError(f"{label}: {exc}") from None


def parse_export(label: str, data: object) -> Export:
    """Returns the export in ``data`` (already parsed JSON), its fields type-checked.

    Raises:
        GameFileError: not an export of this format (one line naming the field).
    """
    if isinstance(data, dict) and data.get("format") in OLD_EXPORT_FORMATS:
        raise GameFileError(f"{label}: format: {data['format']} is from an older referee (no journal chain); "
                            "it cannot be checked as this version checks exports")
    try:
        return Export.model_validate(data)
    except ValidationError as exc:
        raise GameFileError(f"{label}: {model_error(exc)}") from None


def read_export(path: Path) -> Export:
    """Reads and parses an export file through the guarded reader (size counted, depth capped).

    Raises:
        GameFileError: unreadable, too large, not JSON, or not an export.
    """
    try:
        raw = read_text(path, limit=MAX_EXPORT_BYTES, what="referee export")
        data = parse_json(str(path), raw)
    except InputFileError as exc:
        raise GameFileError(str(exc)) from None
    return parse_export(str(path), data)


def fill(conn: sqlite3.Connection, export: Export, audit: Audit, label: str) -> tuple[SeedChange, bytes]:
    """Writes an export's header, seeds, journal and secrets into a fresh game file (inside the
    caller's transaction); returns the note's seed change and the fresh seed it commits to.

    Raises:
        GameFileError: a secret does not open a commitment of the journal.
    """
    for key, value in (("game_id", export.game_id), ("created", export.created),
                       ("next_roll_index", str(export.next_roll_index))):
        conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
    conn.execute("DELETE FROM seeds")
    for ep in export.seeds:
        conn.execute("INSERT INTO seeds VALUES (?, ?, ?, ?, ?)",
                     (ep.epoch, ep.seed, ep.commitment, ep.created_seq, ep.revealed_seq))
    conn.executemany(INSERT, (entry_values(e) for e in export.entries))
    if export.secrets:
        sealed = {(c.owner, c.label, c.digest) for c in secrets.seals_in(audit.entries)}
        for i, stored in enumerate(export.secrets):
            seal = stored.seal()
            if seal is None or (stored.owner, stored.label, stored.digest) not in sealed:
                raise GameFileError(f"{label}: secrets[{i}]: does not open a commitment of the journal "
                                    "(export altered)")
            secrets.store(conn, seal)
    fresh = new_seed()
    return SeedChange(next_epoch=audit.epoch + 1, next_commitment=commitment(fresh)), fresh
