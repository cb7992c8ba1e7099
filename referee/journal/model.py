"""The journal's records: entries, seed epochs, what undo, redo and reveal return, and the chain.

Every entry is linked to the one before it by :func:`link` (SHA-256 of the previous value and
the entry), starting from :func:`genesis` (the file's header and first dice commitment).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.dice import MAX_EPOCH, MAX_ROLL_INDEX, Roll
from referee.game import ActionRecord, AnyEngine
from referee.i18n import _
from referee.rulings import Verdict

FORMAT = "referee-game/2"
EXPORT_FORMAT = "referee-export/2"
OLD_FORMATS = ("referee-game/1",)
OLD_EXPORT_FORMATS = ("referee-export/1",)
CHAIN_VERSION = "referee-chain/1"

MAX_EXPORT_BYTES = 64 * 1024 * 1024
"""Largest export ``import`` and ``dice verify`` read (a 300-action game exports to about 2 MB)."""
MAX_SEQ = 10**9
"""Largest journal sequence number accepted from a file or an export."""
MAX_SECRETS = 10_000
"""Most secrets read from a game file's private table or an export."""

HEX64 = r"^[0-9a-f]{64}$"

EntryKind = Literal["action", "adjust", "undo", "redo", "reveal", "note"]

GameLookup = Callable[[str], AnyEngine]
"""Finds a game's engine by slug (the caller's registry, :func:`referee.games.find_game`):
the journal is handed it and never imports the registry (games sit above the journal)."""


class SeedChange(BaseModel):
    """What a ``reveal`` (or an import's ``note``) did to the dice seeds: bound into the chain."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    revealed_epoch: int | None = Field(default=None, ge=0, le=MAX_EPOCH)
    revealed_rolls: int | None = Field(default=None, ge=0, le=MAX_ROLL_INDEX,
                                       description="Digital rolls derived from the revealed seed.")
    next_epoch: int = Field(ge=0, le=MAX_EPOCH)
    next_commitment: str = Field(pattern=HEX64, description="Commitment of the seed for later rolls.")


class Entry(BaseModel):
    """One journal line."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    seq: int = Field(ge=1, le=MAX_SEQ)
    kind: EntryKind
    side: str | None = None
    text: str
    action: str | None = Field(default=None, description="Parsed action as JSON.")
    verdict: Verdict | None = None
    rolls: tuple[Roll, ...] = ()
    record: ActionRecord | None = None
    reason: str | None = None
    state_hash: str | None = Field(default=None, pattern=HEX64)
    time: str
    undone: bool = False
    refers: int | None = Field(default=None, ge=1, le=MAX_SEQ)
    forced: bool = False
    detail: SeedChange | None = None
    chain: str = Field(default="", description="SHA-256 linking this entry to every entry before it.")

    @property
    def active(self) -> bool:
        """True for an action or override that is part of the current game (not undone)."""
        return self.kind in ("action", "adjust") and not self.undone


class SeedEpoch(BaseModel):
    """One committed seed: its commitment, and the seed itself once revealed."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    epoch: int = Field(ge=0, le=MAX_EPOCH)
    commitment: str = Field(pattern=HEX64)
    seed: str | None = Field(default=None, pattern=HEX64, description="Hex seed; only present once revealed.")
    created_seq: int = Field(ge=0, le=MAX_SEQ)
    revealed_seq: int | None = Field(default=None, ge=1, le=MAX_SEQ)


class Reveal(BaseModel):
    """What ``referee dice reveal`` shows."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    epoch: int
    seed: str
    commitment: str
    rolls: int = Field(description="Digital rolls derived from this seed.")
    next_commitment: str


class UndoResult(BaseModel):
    """What an undo or redo did."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: Literal["undo", "redo"]
    target: Entry
    forced: bool = False


def now() -> str:
    """Returns the time an entry is written, in UTC to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def genesis(game_id: str, slug: str, tables_hash: str, created: str, first_commitment: str) -> str:
    """Returns the chain value before the first entry: binds the header and the first commitment."""
    blob = json.dumps([CHAIN_VERSION, game_id, slug, tables_hash, created, first_commitment], ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def link(previous: str, entry: Entry) -> str:
    """Returns the chain value of ``entry``: SHA-256 of the previous value and everything the entry
    says except its ``undone`` flag (which undo and redo change, and which is checked by replaying
    the undo and redo entries instead)."""
    body = entry.model_dump_json(exclude={"undone", "chain"})
    return hashlib.sha256(f"{previous}\n{body}".encode()).hexdigest()


def row_name(seq: object) -> str:
    """Returns where a problem is: ``journal row 7``."""
    return _("journal row {n}").format(n=seq)


class Bad(Exception):
    """A place and a problem found while checking a game file or an export."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)


def model_error(exc: ValidationError) -> str:
    """Returns the first problem pydantic found, as ``field: message`` on one line."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    msg = " ".join(str(err["msg"]).split())[:160]
    return f"{loc}: {msg}" if loc else msg
