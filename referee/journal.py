"""The game file: one SQLite database per game, holding a journal that replays to the state.

A game file (``--file``, ``REFEREE_FILE`` or ``./game.referee``) stores the game slug, its
table set (verbatim, with its hash, so a game always replays with the tables it started with),
the committed dice seeds and the journal: every accepted action and override with its side,
text, parsed action, verdict, rolls, events, the state hash after it, and the time; plus the
undo, redo and reveal entries that keep the history honest. Sealed secrets are journaled as their
commitment only; their salt and value sit in a private ``secrets`` table for their owner
(:mod:`referee.sealed`, docs/decisions.md "Secrets and viewers").

Every write is one ``BEGIN IMMEDIATE`` transaction: a killed process never leaves half an
action, and two processes on one file are serialised by SQLite's lock. A rejected action writes
nothing, so the file stays byte-identical. Entry point: :class:`GameFile`.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from referee.dice import (
    MAX_EPOCH,
    MAX_ROLL_INDEX,
    CommittedDice,
    PhysicalDice,
    ReplayDice,
    Roll,
    commitment,
    new_seed,
)
from referee.errors import (
    GameFileError,
    IllegalActionError,
    InputFileError,
    NotationError,
    RefereeError,
    StaleStateError,
    UndoError,
    UnknownNameError,
)
from referee.files import loads_capped, parse_json, read_text, require_regular, sqlite_uri
from referee.game import ActionRecord, AnyEngine, GameState
from referee.games import find_game
from referee.i18n import N_, _, language
from referee.rulings import Verdict
from referee.sealed import REVEALED, Commitment, Seal, StoredSecret, parse_reveal, parse_seal, reveal_text, seal_text
from referee.tables import TableSet
from referee.writing import install, note_commit, sweep_temporaries, temporary_beside, write_output

FORMAT = "referee-game/2"
EXPORT_FORMAT = "referee-export/2"
OLD_FORMATS = ("referee-game/1",)
OLD_EXPORT_FORMATS = ("referee-export/1",)
CHAIN_VERSION = "referee-chain/1"

MAX_EXPORT_BYTES = 64 * 1024 * 1024
"""Largest export ``import`` and ``dice verify`` read (a 300-action game exports to about 2 MB)."""
MAX_SEQ = 10**9
"""Largest journal sequence number accepted from a file or an export."""

EntryKind = Literal["action", "adjust", "undo", "redo", "reveal", "note"]

_COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "seeds": ("epoch", "seed", "commitment", "created_seq", "revealed_seq"),
    "journal": (
        "seq", "kind", "side", "text", "action", "verdict", "rolls", "record", "reason", "state_hash",
        "time", "undone", "refers", "forced", "detail", "chain",
    ),
}
_META_KEYS = ("format", "slug", "game_id", "created", "tables", "tables_hash", "next_roll_index")

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE seeds (
    epoch INTEGER PRIMARY KEY,
    seed TEXT,
    commitment TEXT NOT NULL,
    created_seq INTEGER NOT NULL,
    revealed_seq INTEGER
);
CREATE TABLE journal (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    side TEXT,
    text TEXT NOT NULL,
    action TEXT,
    verdict TEXT,
    rolls TEXT NOT NULL DEFAULT '[]',
    record TEXT,
    reason TEXT,
    state_hash TEXT,
    time TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    refers INTEGER,
    forced INTEGER NOT NULL DEFAULT 0,
    detail TEXT,
    chain TEXT NOT NULL
);
"""

_HEX64 = r"^[0-9a-f]{64}$"

_SECRETS_SCHEMA = """
CREATE TABLE IF NOT EXISTS secrets (
    digest TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    label TEXT NOT NULL,
    salt TEXT NOT NULL,
    secret TEXT NOT NULL
)
"""
"""The private table: each sealed secret with its salt, for its owner only. Outside the chain (the
journal holds the commitment); created with the first seal, so files without secrets are as before."""

MAX_SECRETS = 10_000
"""Most secrets read from a game file's private table or an export."""


if TYPE_CHECKING:
    from referee.dice_verify import DiceReport


class SeedChange(BaseModel):
    """What a ``reveal`` (or an import's ``note``) did to the dice seeds: bound into the chain."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    revealed_epoch: int | None = Field(default=None, ge=0, le=MAX_EPOCH)
    revealed_rolls: int | None = Field(default=None, ge=0, le=MAX_ROLL_INDEX,
                                       description="Digital rolls derived from the revealed seed.")
    next_epoch: int = Field(ge=0, le=MAX_EPOCH)
    next_commitment: str = Field(pattern=_HEX64, description="Commitment of the seed for later rolls.")


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
    state_hash: str | None = Field(default=None, pattern=_HEX64)
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
    commitment: str = Field(pattern=_HEX64)
    seed: str | None = Field(default=None, pattern=_HEX64, description="Hex seed; only present once revealed.")
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


def _now() -> str:
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


def _row(seq: object) -> str:
    """Returns where a problem is: ``journal row 7``."""
    return _("journal row {n}").format(n=seq)


class _Bad(Exception):
    """A place and a problem found while checking a game file or an export."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}" if where else problem)


@dataclass
class Audit:
    """What checking a journal established: the entries and the history their undo entries imply."""

    entries: list[Entry]
    active: list[int] = field(default_factory=list)
    redoable: list[int] = field(default_factory=list)
    epoch: int = 0
    next_index: int = 1
    chain: str = ""
    revealed: dict[int, int] = field(default_factory=dict)


class Auditor:
    """Checks a journal entry by entry, as a sequence: the chain, seq, undo/redo, reveals, rolls.

    The same checks serve game files (row by row, stopping at the first bad one) and exports.
    """

    def __init__(self, start: str) -> None:
        self.audit = Audit(entries=[], chain=start)
        self.by_seq: dict[int, Entry] = {}
        self.rolls_in_epoch = 0

    def add(self, entry: Entry) -> None:
        """Checks one more entry against everything before it.

        Raises:
            _Bad: the entry does not follow (row named).
        """
        a = self.audit
        where = _row(entry.seq)
        expected = len(a.entries) + 1
        if entry.seq != expected:
            raise _Bad(where, _("seq {seq} where {expected} was expected (rows removed, added or reordered)").format(
                seq=entry.seq, expected=expected))
        if link(a.chain, entry) != entry.chain:
            raise _Bad(where, _("its chain hash does not match (the row, or one before it, was altered)"))
        if entry.kind in ("action", "adjust"):
            if entry.record is None or entry.state_hash is None or entry.verdict is None:
                raise _Bad(where, _("an {kind} without its record, verdict or state hash").format(kind=entry.kind))
            if entry.record.rolls != entry.rolls or entry.record.kind != entry.kind:
                raise _Bad(where, _("its rolls or kind differ from its record"))
            if entry.refers is not None or entry.detail is not None:
                raise _Bad(where, _("an {kind} that refers to another row").format(kind=entry.kind))
            a.active.append(entry.seq)
            a.redoable.clear()
        else:
            if entry.rolls:
                raise _Bad(where, _("a {kind} entry with dice rolls").format(kind=entry.kind))
            if entry.kind == "undo":
                if not a.active or entry.refers != a.active[-1]:
                    raise _Bad(where, _("an undo of row {refers}, which was not the last action in play").format(
                        refers=entry.refers))
                a.redoable.append(a.active.pop())
            elif entry.kind == "redo":
                if not a.redoable or entry.refers != a.redoable[-1]:
                    raise _Bad(where, _("a redo of row {refers}, which was not the last action undone").format(
                        refers=entry.refers))
                a.active.append(a.redoable.pop())
            elif entry.refers is not None:
                raise _Bad(where, _("a {kind} entry that refers to another row").format(kind=entry.kind))
            if entry.kind in ("reveal", "note"):
                self._seed_change(entry, where)
            elif entry.detail is not None:
                raise _Bad(where, _("a {kind} entry with seed details").format(kind=entry.kind))
        for roll in entry.rolls:
            if roll.source != "digital":
                if roll.index is not None or roll.epoch is not None:
                    raise _Bad(where, _("a physical roll with a digital roll number or seed"))
                continue
            if roll.index != a.next_index:
                raise _Bad(where, _("digital roll number {index} where {due} was due "
                                    "(a roll removed, moved, reused or relabelled)").format(index=roll.index,
                                                                                             due=a.next_index))
            if roll.epoch != a.epoch:
                raise _Bad(where, _("a roll from seed {epoch} while seed {epoch2} was the one in use").format(
                    epoch=roll.epoch, epoch2=a.epoch))
            a.next_index += 1
            self.rolls_in_epoch += 1
        a.chain = entry.chain
        a.entries.append(entry)
        self.by_seq[entry.seq] = entry

    def _seed_change(self, entry: Entry, where: str) -> None:
        a = self.audit
        d = entry.detail
        if d is None:
            if entry.kind == "reveal":
                raise _Bad(where, _("a reveal without its seed details"))
            return
        if entry.kind == "reveal":
            if d.revealed_epoch != a.epoch:
                raise _Bad(where, _("reveals seed {revealed_epoch} while seed {epoch} was the one in use").format(
                    revealed_epoch=d.revealed_epoch, epoch=a.epoch))
            if d.revealed_rolls != self.rolls_in_epoch:
                raise _Bad(where, _("says {said} digital roll(s) came from seed {epoch}; "
                                    "the journal holds {held}").format(
                    said=d.revealed_rolls, epoch=a.epoch, held=self.rolls_in_epoch))
            a.revealed[a.epoch] = entry.seq
        elif d.revealed_epoch is not None or d.revealed_rolls is not None:
            raise _Bad(where, _("a note that reveals a seed"))
        if d.next_epoch != a.epoch + 1:
            raise _Bad(where, _("commits seed {next_epoch} after seed {epoch}").format(
                next_epoch=d.next_epoch, epoch=a.epoch))
        a.epoch = d.next_epoch
        self.rolls_in_epoch = 0

    def finish(self, seeds: Sequence[SeedEpoch], next_roll_index: int, secret: str | None, file: bool) -> Audit:
        """Checks the undone flags, the seeds and the roll counter against the whole journal.

        ``secret`` is the stored seed of the current epoch (a game file has one; an export none).

        Raises:
            _Bad: the first problem.
        """
        a = self.audit
        in_play = set(a.active)
        for entry in a.entries:
            if entry.kind in ("action", "adjust") and entry.undone != (entry.seq not in in_play):
                state = _("marked undone") if entry.undone else _("in play")
                raise _Bad(_row(entry.seq), _("{state}, but its undo and redo entries say otherwise").format(
                    state=state))
            if entry.kind not in ("action", "adjust") and entry.undone:
                raise _Bad(_row(entry.seq), _("a {kind} entry marked undone").format(kind=entry.kind))
        if next_roll_index != a.next_index:
            raise _Bad("next_roll_index", _("{index}, but the journal's digital rolls end at {last}").format(
                index=next_roll_index, last=a.next_index - 1))
        if [s.epoch for s in seeds] != list(range(a.epoch + 1)):
            found = ", ".join(str(s.epoch) for s in seeds) or _("none")
            raise _Bad("seeds", _("epochs {found}; the journal commits to epochs 0 to {epoch}").format(
                found=found, epoch=a.epoch))
        commitments = {0: seeds[0].commitment}
        created = {0: 0}
        for e in a.entries:
            if e.detail is not None:
                commitments[e.detail.next_epoch] = e.detail.next_commitment
                created[e.detail.next_epoch] = e.seq
        for s in seeds:
            where = f"seeds epoch {s.epoch}"
            if s.commitment != commitments[s.epoch]:
                raise _Bad(where, _("its commitment is not the one the journal announced (replaced)"))
            if s.created_seq != created[s.epoch] or s.revealed_seq != a.revealed.get(s.epoch):
                raise _Bad(where, _("its created or revealed row differs from the journal's"))
            current = s.epoch == a.epoch
            seed = secret if current and file else s.seed
            if s.revealed_seq is not None or (current and file):
                if seed is None:
                    raise _Bad(where, _("the seed is missing"))
                if commitment(bytes.fromhex(seed)) != s.commitment:
                    raise _Bad(where, _("the seed does not match its commitment"))
            elif s.seed is not None:
                raise _Bad(where, _("a seed that was never revealed"))
        return a


def _check_export_header(export: _Export) -> str:
    if not export.seeds:
        raise _Bad("seeds", "empty; an export holds at least the first commitment")
    return genesis(export.game_id, export.game, export.tables_hash, export.created, export.seeds[0].commitment)


def audit_export(label: str, export: _Export) -> Audit:
    """Checks an export's journal as a sequence (the same checks as a game file's).

    Raises:
        GameFileError: the first problem, naming the export and the row.
    """
    try:
        auditor = Auditor(_check_export_header(export))
        for entry in export.entries:
            auditor.add(entry)
        return auditor.finish(export.seeds, export.next_roll_index, None, file=False)
    except _Bad as exc:
        raise GameFileError(f"{label}: {exc}") from None


_BUSY_MS = 30_000
"""How long a command waits for another process's write to end before it gives up."""


def _connect(path: Path, readonly: bool, create: bool = False) -> sqlite3.Connection:
    """Opens the SQLite file at exactly ``path`` (the path percent-encoded: ``#``, ``?`` or ``%41`` in
    a name are part of it, see :func:`referee.files.sqlite_uri`)."""
    mode = "rwc" if create else ("ro" if readonly else "rw")
    try:
        conn = sqlite3.connect(sqlite_uri(path, mode), uri=True, timeout=_BUSY_MS / 1000, isolation_level=None)
        conn.text_factory = bytes
        if not readonly:
            conn.execute("PRAGMA synchronous=FULL")
    except (sqlite3.DatabaseError, UnicodeDecodeError, ValueError) as exc:
        raise GameFileError(_("{path}: not a referee game file ({problem})").format(
            path=path, problem=_sql_problem(exc))) from None
    except sqlite3.Error as exc:
        raise GameFileError(_("{path}: cannot open game file ({problem})").format(
            path=path, problem=_sql_problem(exc))) from None
    return conn


def _sql_problem(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:160]


def _writable(path: Path) -> bool:
    """True when the file and its folder can be written (the rollback journal lives beside it)."""
    folder = path.parent if str(path.parent) else Path(".")
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)


def _wal_pending(path: Path) -> bool:
    """True when a WAL file with content lies beside the game file (another program used SQLite's
    WAL mode, and it was not checkpointed: a crash). Reading it read-only leaves the file as it is."""
    try:
        return os.stat(f"{os.fsdecode(path)}-wal").st_size > 0
    except (OSError, ValueError):
        return False


def _is_wal(path: Path) -> bool:
    """True when the database header says WAL mode (bytes 18-19 are 2)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(20)
    except OSError:
        return False
    return len(head) == 20 and head[:16] == b"SQLite format 3\x00" and (head[18] == 2 or head[19] == 2)


def _text(value: object, where: str, name: str, optional: bool = False) -> str | None:
    """Returns a stored text value (read as bytes) decoded as UTF-8.

    Raises:
        _Bad: not text, not UTF-8, or NULL where a value is required.
    """
    if value is None:
        if optional:
            return None
        raise _Bad(where, _("{name} is missing (NULL)").format(name=name))
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise _Bad(where, _("{name} is not UTF-8 text").format(name=name)) from None
    raise _Bad(where, _("{name} is {type}, not text").format(name=name, type=type(value).__name__))


def _int(value: object, where: str, name: str, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    found = "missing (NULL)" if value is None else ("text" if isinstance(value, bytes) else type(value).__name__)
    raise _Bad(where, _("{name} is {found}, not a whole number").format(name=name, found=found))


def _model_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    msg = " ".join(str(err["msg"]).split())[:160]
    return f"{loc}: {msg}" if loc else msg


def _json_column(label: str, where: str, name: str, text: str) -> object:
    """Returns a JSON column's data through :func:`referee.files.loads_capped` (the models bound
    the rest: the pure-Python depth scan of :func:`referee.files.parse_json` would triple the cost
    of a check)."""
    try:
        return loads_capped(text)
    except json.JSONDecodeError as exc:
        raise _Bad(where, _("{name}: not valid JSON ({msg})").format(name=name, msg=exc.msg)) from None
    except RecursionError:
        raise _Bad(where, _("{name}: nested too deep").format(name=name)) from None
    except ValueError as exc:
        raise _Bad(where, _("{name}: not valid JSON ({exc})").format(name=name, exc=exc)) from None


_ROLLS = TypeAdapter(tuple[Roll, ...])
_TABLES = TypeAdapter(dict[str, str])


def _entry_from_row(label: str, row: Sequence[object]) -> Entry:
    """Returns the journal entry of one row, every column type-checked and every JSON column parsed.

    Raises:
        _Bad: the row cannot be an entry.
    """
    seq = _int(row[0], "journal row ?", "seq")
    where = _row(seq)
    cols = _COLUMNS["journal"]
    texts: dict[str, str | None] = {}
    required = ("kind", "text", "rolls", "time", "chain")
    for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 15):
        texts[cols[i]] = _text(row[i], where, cols[i], optional=cols[i] not in required)
    ints = {cols[i]: _int(row[i], where, cols[i], optional=cols[i] == "refers") for i in (11, 12, 13)}
    if ints["undone"] not in (0, 1) or ints["forced"] not in (0, 1):
        raise _Bad(where, _("undone and forced are 0 or 1"))
    try:
        data: dict[str, object] = {
            "seq": seq, "kind": texts["kind"], "side": texts["side"], "text": texts["text"],
            "action": texts["action"], "reason": texts["reason"], "state_hash": texts["state_hash"],
            "time": texts["time"], "undone": bool(ints["undone"]), "refers": ints["refers"],
            "forced": bool(ints["forced"]), "chain": texts["chain"],
        }
        for name in ("verdict", "record", "detail", "rolls"):
            raw = texts[name]
            if raw is not None:
                data[name] = _json_column(label, where, name, raw)
        if texts["action"] is not None:
            _json_column(label, where, "action", texts["action"])
        return Entry.model_validate(data)
    except ValidationError as exc:
        raise _Bad(where, _model_error(exc)) from None


def _entry_values(entry: Entry) -> tuple[object, ...]:
    """Returns the row of an entry, in :data:`_COLUMNS` order."""
    return (
        entry.seq, entry.kind, entry.side, entry.text, entry.action,
        entry.verdict.model_dump_json() if entry.verdict else None,
        json.dumps([r.model_dump(mode="json") for r in entry.rolls], ensure_ascii=False),
        entry.record.model_dump_json() if entry.record else None,
        entry.reason, entry.state_hash, entry.time, int(entry.undone), entry.refers, int(entry.forced),
        entry.detail.model_dump_json() if entry.detail else None, entry.chain,
    )


_INSERT = f"INSERT INTO journal ({', '.join(_COLUMNS['journal'])}) VALUES ({', '.join('?' * 16)})"
_SELECT = f"SELECT {', '.join(_COLUMNS['journal'])} FROM journal ORDER BY seq"


@dataclass(frozen=True)
class _Move:
    """One action to play: its text, typed dice, an override's reason, a seal's secret."""

    text: str
    faces: Sequence[int] | None = None
    reason: str | None = None
    private: Seal | None = None


class GameFile:
    """An open game file. Read with :meth:`state`, :meth:`entries`; write with :meth:`do` & co.

    Opening checks the header (format, tables, columns, meta); the first read or write checks the
    whole journal (:class:`Auditor`) and a write also replays it, all before anything is written.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, readonly: bool = False, wal_pending: bool = False) -> None:
        self.path = path
        self.conn = conn
        self.readonly = readonly
        self._wal_pending = wal_pending
        """Opened read-only over a WAL another program left (a crash): a write reopens it first."""
        self._reader: sqlite3.Connection | None = None
        self._last_seq = 0
        self._cache: tuple[tuple[int, int, int], GameState] | None = None
        self._audited: tuple[tuple[int, int, int], Auditor, list[SeedEpoch]] | None = None
        try:
            self._read_header()
        except _Bad as exc:
            conn.close()
            raise GameFileError(f"{path}: {exc}") from None
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            conn.close()
            raise GameFileError(_("{path}: damaged or not a game file ({problem})").format(
                path=path, problem=_sql_problem(exc))) from None
        except BaseException:
            conn.close()
            raise

    def _read_header(self) -> None:
        conn = self.conn
        kinds = {
            _text(n, "schema", "name"): _text(t, "schema", "type")
            for t, n in conn.execute("SELECT type, name FROM sqlite_master WHERE name IN ('meta', 'seeds', 'journal')")
        }
        if kinds.get("meta") != "table":
            raise _Bad("", _("not a referee game file (no meta table)"))
        meta: dict[str, str] = {}
        for key, value in conn.execute("SELECT key, value FROM meta"):
            meta[str(_text(key, "meta", "key"))] = str(_text(value, f"meta {key!r}", "value"))
        fmt = meta.get("format")
        if fmt in OLD_FORMATS:
            raise _Bad("", _("made by an older referee ({format}, without the journal chain), so it cannot be "
                             "checked; read it with that version, or start a new game").format(format=fmt))
        if fmt != FORMAT:
            raise _Bad("", _("not a referee game file (format {format})").format(format=repr(fmt)))
        for table, cols in _COLUMNS.items():
            if table not in kinds:
                raise _Bad("", f"the {table} table is missing")
            if kinds[table] != "table":
                raise _Bad("", f"{table} is a {kinds[table]}, not a table")
            have = {_text(r[1], table, "column") for r in conn.execute(f"PRAGMA table_info({table})")}
            missing = [c for c in cols if c not in have]
            if missing:
                raise _Bad("", f"the {table} table has no column {missing[0]}")
        for key in _META_KEYS:
            if key not in meta:
                raise _Bad("meta", f"no {key!r}")
        self.game_id = meta["game_id"]
        if not re.fullmatch(r"[0-9A-Za-z_-]{1,64}", self.game_id):
            raise _Bad("meta game_id", "not 1 to 64 letters, digits, - or _")
        try:
            self.game: AnyEngine = find_game(meta["slug"])
        except RefereeError:
            raise _Bad("meta slug", _("unknown game {name}").format(name=repr(meta["slug"][:64]))) from None
        if not re.fullmatch(r"[0-9]{1,13}", meta["next_roll_index"]):
            raise _Bad("meta next_roll_index", "not a whole number up to 10^12")
        self.next_roll_index = int(meta["next_roll_index"])
        self.created = meta["created"]
        try:
            texts = _TABLES.validate_python(_json_column(str(self.path), "meta", "tables", meta["tables"]))
        except ValidationError as exc:
            raise _Bad("meta tables", _model_error(exc)) from None
        self.tables_hash = meta["tables_hash"]
        self.table_set = TableSet.from_texts(self.game.info.slug, texts, str(self.path))
        if self.table_set.digest != self.tables_hash:
            raise _Bad("meta tables", "the stored tables do not match their hash (file altered)")

    # ---- opening ----------------------------------------------------------------------------

    @classmethod
    def create(
        cls, path: Path, game: AnyEngine, table_set: TableSet, force: bool = False, actions: Sequence[str] = ()
    ) -> GameFile:
        """Creates a new game file, plays ``actions`` in it, and returns it open.

        The file is built beside ``path`` under a temporary name and moved into place only when
        every action was played, so a refusal leaves whatever was at ``path`` untouched and no
        side file.

        Raises:
            GameFileError: something is there (without ``force``), it is not a file, or it cannot be written.
            RefereeError: an action is refused (nothing is left behind).
        """
        _check_target(path, force)
        game.new_state(table_set)  # fail on bad tables before creating anything
        sweep_temporaries(_folder(path))
        with temporary_beside(path, "game file") as tmp:
            new = cls._build(tmp, game, table_set)
            with new:
                new.do_all(actions)
            _install(tmp, path)
        made = cls.open(path)
        note_commit(path, len(actions))
        return made

    @classmethod
    def _build(cls, path: Path, game: AnyEngine, table_set: TableSet) -> GameFile:
        """Writes a fresh game file at ``path`` (a new, empty temporary) and returns it open."""
        try:
            conn = _connect(path, readonly=False, create=True)
        except GameFileError:
            _remove(path)
            raise
        seed = new_seed()
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
            meta = {
                "format": FORMAT,
                "slug": game.info.slug,
                "game_id": uuid.uuid4().hex[:12],
                "created": _now(),
                "tables": json.dumps(table_set.texts(), ensure_ascii=False),
                "tables_hash": table_set.digest,
                "next_roll_index": "1",
            }
            conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            conn.execute("INSERT INTO seeds VALUES (0, ?, ?, 0, NULL)", (seed.hex(), commitment(seed)))
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.close()
            _remove(path)
            raise GameFileError(_("{path}: cannot create game file ({problem})").format(
                path=path, problem=_sql_problem(exc))) from None
        return cls(path, conn)

    @classmethod
    def open(cls, path: Path) -> GameFile:
        """Opens an existing game file (read-only when the file or its folder cannot be written).

        Raises:
            GameFileError: missing, not a regular file, not a game file, or corrupt.
        """
        try:
            there = require_regular(path, what="game file", missing_ok=True)
        except InputFileError as exc:
            raise GameFileError(str(exc)) from None
        if not there:
            raise GameFileError(_("{path}: no game file here (start one with: referee new GAME --file {path})").format(
                path=path))
        sweep_temporaries(_folder(path))  # what a killed write of ours left beside it
        readonly = not _writable(path)
        if readonly and _is_wal(path):
            raise GameFileError(_("{path} is read-only (and in SQLite's WAL mode, which needs writing to read)").format(
                path=path))
        # a WAL left by a crash is read, not recovered, until a write succeeds: a refused command
        # leaves the file's bytes as they were
        pending = not readonly and _wal_pending(path)
        made = cls(path, _connect(path, readonly or pending), readonly, wal_pending=pending)
        if not (readonly or pending) and os.path.lexists(f"{os.fsdecode(path)}-journal"):
            made._drop_stale_journal()
        return made

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
                self.conn.execute(f"PRAGMA busy_timeout = {_BUSY_MS}")
        try:
            with open(side, "rb") as fh:
                if fh.read(1) in (b"", b"\x00"):
                    os.unlink(side)
        except OSError:
            pass
        finally:
            self._rollback()

    def close(self) -> None:
        """Closes the database connection (the writer first: a read-only reader left open last keeps
        a WAL from being checkpointed by a command that wrote nothing)."""
        self.conn.close()
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[Audit]:
        """Locks the file, checks the whole journal (chain and replay), then yields for the writes."""
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
                path=self.path, problem=_sql_problem(exc))) from None
        try:
            audit = self._audit()
            self.state()
            yield audit
        except sqlite3.Error as exc:
            self._rollback()
            raise self._write_error(exc) from None
        except UnicodeDecodeError as exc:  # SQLite's messages may quote damaged bytes
            self._rollback()
            raise GameFileError(_("{path}: damaged ({problem})").format(
                path=self.path, problem=_sql_problem(exc))) from None
        except BaseException:
            self._rollback()
            raise
        try:
            self.conn.execute("COMMIT")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            self._rollback()
            raise self._write_error(exc) from None
        note_commit(self.path, self._last_seq)
        self._leave_wal()

    def _reopen_for_writing(self) -> None:
        """Opens the writing connection over a WAL left by a crash, keeping the read-only one open
        until the write commits (so a refused write closes without checkpointing the WAL)."""
        writer = _connect(self.path, readonly=False)
        self._reader, self.conn = self.conn, writer
        self._audited = self._cache = None  # PRAGMA data_version is per connection

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
        text = str(exc).lower()
        if "readonly" in text or "read-only" in text:
            return GameFileError(_("{path} is read-only").format(path=self.path))
        return GameFileError(_("{path}: cannot write game file ({problem})").format(
            path=self.path, problem=_sql_problem(exc)))

    # ---- reading ----------------------------------------------------------------------------

    def _version(self) -> tuple[int, int, int]:
        """What identifies the journal's content: other writers' commits, our last entry, undone flags."""
        try:
            version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
            query = "SELECT COALESCE(MAX(seq), 0), COALESCE(SUM(undone), 0) FROM journal"
            last, undone = self.conn.execute(query).fetchone()
            return version, int(last), int(undone)
        except (sqlite3.Error, TypeError, ValueError) as exc:
            raise GameFileError(_("{path}: cannot read the journal ({problem})").format(
                path=self.path, problem=_sql_problem(exc))) from None

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
                path=self.path, problem=_sql_problem(exc))) from None
        try:
            yield
        finally:
            with suppress(sqlite3.Error):
                self.conn.execute("COMMIT")

    def _audit(self) -> Audit:
        """Returns the checked journal (cached until the file changes).

        Raises:
            GameFileError: the first bad row, seed or counter.
        """
        with self._reading():
            return self._audit_now()

    def _audit_now(self) -> Audit:
        key = self._version()
        if self._audited is not None and self._audited[0] == key:
            return self._audited[1].audit
        label = str(self.path)
        try:
            self.next_roll_index = self._read_roll_counter()
            seeds, secret = self._read_seeds()
            if not seeds or seeds[0].epoch != 0:
                raise _Bad("seeds", "no seed for epoch 0")
            auditor = Auditor(genesis(self.game_id, self.game.info.slug, self.tables_hash, self.created,
                                      seeds[0].commitment))
            for row in self.conn.execute(_SELECT):
                auditor.add(_entry_from_row(label, row))
            audit = auditor.finish(seeds, self.next_roll_index, secret, file=True)
        except _Bad as exc:
            raise GameFileError(f"{label}: {exc}") from None
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise GameFileError(f"{label}: damaged, cannot read the journal ({_sql_problem(exc)})") from None
        public = [s if s.revealed_seq is not None else s.model_copy(update={"seed": None}) for s in seeds]
        self._audited = (key, auditor, public)
        return audit

    def _read_roll_counter(self) -> int:
        """Returns the stored number of the next digital roll (read with the journal, never before it)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'next_roll_index'").fetchone()
        value = _text(row[0] if row else None, "meta next_roll_index", "value")
        if value is None or not re.fullmatch(r"[0-9]{1,13}", value):
            raise _Bad("meta next_roll_index", "not a whole number up to 10^12")
        return int(value)

    def _read_seeds(self) -> tuple[list[SeedEpoch], str | None]:
        """Returns every stored seed row (secrets included) and the current epoch's secret seed."""
        out: list[SeedEpoch] = []
        rows = self.conn.execute(
            "SELECT epoch, seed, commitment, created_seq, revealed_seq FROM seeds ORDER BY epoch"
        ).fetchall()
        for row in rows:
            epoch = _int(row[0], "seeds", "epoch")
            where = f"seeds epoch {epoch}"
            try:
                out.append(SeedEpoch(
                    epoch=epoch, seed=_text(row[1], where, "seed", optional=True),
                    commitment=_text(row[2], where, "commitment"),
                    created_seq=_int(row[3], where, "created_seq"),
                    revealed_seq=_int(row[4], where, "revealed_seq", optional=True),
                ))
            except ValidationError as exc:
                raise _Bad(where, _model_error(exc)) from None
        return out, (out[-1].seed if out else None)

    def entries(self) -> list[Entry]:
        """Returns every journal entry, undone ones included, after checking the whole journal.

        Raises:
            GameFileError: the journal is damaged or altered (first bad row named).
        """
        return list(self._audit().entries)

    def state(self) -> GameState:
        """Returns the current state, replaying the journal (cached until the next write).

        Raises:
            GameFileError: an entry no longer replays to the state hash it recorded.
        """
        audit = self._audit()
        assert self._audited is not None
        key = self._audited[0]  # the version the audit read, in the same read transaction
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        state = self._replay(audit.entries)
        self._cache = (key, state)
        return state

    def state_when(self, reached: Callable[[GameState], bool]) -> GameState:
        """Returns the first state of the game (replaying the journal) for which ``reached`` is
        true, or the current state if none is (``export --setup``: the state the set-up ended in).

        Raises:
            GameFileError: as :meth:`state`.
        """
        return self._replay(self._audit().entries, until=reached)

    def _replay(
        self, entries: Sequence[Entry], also: int | None = None, until: Callable[[GameState], bool] | None = None
    ) -> GameState:
        game = self.game
        state: GameState = game.new_state(self.table_set)
        for entry in entries:
            if until is not None and until(state):
                return state
            if not (entry.active or entry.seq == also):
                continue
            try:
                parse = game.parse_adjust if entry.kind == "adjust" else game.parse
                action = parse(state, entry.text)
                state = game.apply(state, action, ReplayDice(entry.rolls)).state
                replayed = game.state_hash(state)
            except RefereeError as exc:
                problem = _("{text} no longer replays ({problem})").format(text=repr(entry.text), problem=exc)
                raise GameFileError(f"{self.path}: {_row(entry.seq)}: {problem}") from None
            except Exception as exc:  # the file is data: whatever it makes the engine do is its fault
                problem = _("{text} does not replay ({problem})").format(text=repr(entry.text),
                                                                           problem=type(exc).__name__)
                raise GameFileError(f"{self.path}: {_row(entry.seq)}: {problem}") from None
            if replayed != entry.state_hash:
                raise GameFileError(
                    f"{self.path}: {_row(entry.seq)}: "
                    + _("{text} replays to a different state (the file or the engine changed)").format(
                        text=repr(entry.text))
                )
        return state

    def epochs(self) -> list[SeedEpoch]:
        """Returns the seed epochs; the seed is included only once revealed."""
        self._audit()
        assert self._audited is not None
        return list(self._audited[2])

    def current_epoch(self) -> SeedEpoch:
        """Returns the epoch whose (secret) seed derives the next digital rolls."""
        return self.epochs()[-1]

    # ---- writing ----------------------------------------------------------------------------

    def _dice(self, faces: Sequence[int] | None, audit: Audit) -> CommittedDice | PhysicalDice:
        if faces is not None:
            return PhysicalDice(faces)
        _seeds, secret = self._read_seeds()
        assert secret is not None  # checked by the audit
        return CommittedDice(bytes.fromhex(secret), self.game_id, audit.next_index, audit.epoch)

    def _append(self, audit: Audit, kind: EntryKind, text: str, **cols: object) -> Entry:
        """Writes the next entry, chained to the last one (inside a transaction)."""
        data: dict[str, object] = {"seq": len(audit.entries) + 1, "kind": kind, "text": text, "time": _now(), **cols}
        entry = Entry.model_validate(data)
        entry = entry.model_copy(update={"chain": link(audit.chain, entry)})
        # what is written must read back as the same entry, or the chain would not hold
        row = _entry_values(entry)
        again = _entry_from_row(str(self.path), tuple(v.encode() if isinstance(v, str) else v for v in row))
        if link(audit.chain, again) != entry.chain:
            raise GameFileError(f"{self.path}: cannot write entry {entry.seq}: it does not read back the same")
        self.conn.execute(_INSERT, row)
        self._last_seq = entry.seq
        return entry

    def do(
        self, text: str, faces: Sequence[int] | None = None, adjust_reason: str | None = None,
        private: Seal | None = None, expect: str | None = None,
    ) -> ActionRecord:
        """Plays an action (or, with ``adjust_reason``, an umpire override) and journals it.

        Args:
            text: the action's notation.
            faces: physical dice typed in; None for committed digital dice.
            adjust_reason: the mandatory reason of an override; None for a normal action.
            private: the secret a ``seal`` action commits to, stored in the private table with the
                entry (use :meth:`seal`).
            expect: the state hash the action was chosen in (a page of ``referee serve``); checked
                under the file's lock, so of two moves sent from one state only the first is played.

        Raises:
            StaleStateError: ``expect`` is not the current state's hash (nothing is written).
            IllegalActionError: the rules forbid the action (nothing is written).
            NotationError, UnknownNameError, DiceError: bad input (nothing is written).
            GameFileError: the file is read-only, damaged or altered (nothing is written).
        """
        return self._play([_Move(text, faces, adjust_reason, private)], expect)[0]

    def do_all(self, texts: Sequence[str], start: str | None = None) -> list[ActionRecord]:
        """Plays several actions (digital dice) in one transaction: all are journaled, or none is
        (a turn read from a photo, a set-up).

        Args:
            texts: the actions' notation, in order.
            start: the state hash the first action must be played on (None: the current state);
                checked under the write lock, so another writer cannot slip in between.

        Raises:
            IllegalActionError, NotationError, UnknownNameError, DiceError, GameFileError: as
                :meth:`do`, for the first action that fails; nothing is written.
            StaleStateError: the game is no longer at ``start``.
        """
        return self._play([_Move(text) for text in texts], start) if texts else []

    def _play(self, moves: Sequence[_Move], start: str | None = None) -> list[ActionRecord]:
        records: list[ActionRecord] = []
        try:
            with self._transaction() as audit:
                assert self._audited is not None
                auditor, public = self._audited[1], self._audited[2]
                state = self.state()
                if start is not None and self.game.state_hash(state) != start:
                    raise StaleStateError(_("the game moved on before this move arrived; it was not played"))
                for move in moves:
                    state, record, entry = self._play_one(audit, state, move)
                    try:
                        auditor.add(entry)  # the next move is chained to this one
                    except _Bad as exc:
                        raise GameFileError(f"{self.path}: {exc}") from None
                    records.append(record)
                key = self._version()  # before COMMIT: what this connection will see of its own write
        except BaseException:
            self._audited = self._cache = None
            raise
        self._audited = (key, auditor, public)
        self._cache = (key, state)
        return records

    def _play_one(self, audit: Audit, state: GameState, move: _Move) -> tuple[GameState, ActionRecord, Entry]:
        """Judges, plays and journals one action inside a write transaction."""
        game = self.game
        if move.reason is not None:
            if not move.reason.strip():
                raise UndoError(_("an override needs a reason: --reason \"...\""))
            action = game.parse_adjust(state, move.text)
        else:
            action = game.parse(state, move.text)
        if move.private is None and parse_seal(move.text) is not None:  # a commitment with no secret behind it
            raise NotationError(_("a secret is sealed with referee seal LABEL --as OWNER, which keeps it "
                                  "in this file; a bare commitment is refused"))
        dice = self._dice(move.faces, audit)
        verdict = game.judge(state, action)
        if not verdict.legal:
            raise IllegalActionError(verdict)
        keeper = getattr(game, "sealed_problem", None)  # a game may check an action against sealed secrets
        problem = keeper(state, action, self.secrets) if keeper is not None else None
        if problem is not None:
            raise IllegalActionError(verdict.model_copy(update={"violations": (problem,)}))
        new_state, record = game.commit(state, action, dice, verdict)
        if isinstance(dice, PhysicalDice):
            dice.check_all_used()
        else:
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'next_roll_index'", (str(dice.next_index),))
            self.next_roll_index = dice.next_index
        entry = self._append(
            audit, record.kind, record.action, side=record.side, action=action.model_dump_json(),
            verdict=verdict, rolls=record.rolls, record=record, reason=move.reason,
            state_hash=game.state_hash(new_state),
        )
        if move.private is not None:
            self._store_secret(move.private)
        return new_state, record, entry

    def undo(self, force: bool = False) -> UndoResult:
        """Takes back the last action; refused across a roll, a revealed seed or a revealed secret
        unless forced.

        Raises:
            UndoError: nothing to undo, or the undo needs ``force``.
            GameFileError: the journal does not check or replay (nothing is written).
        """
        with self._transaction() as audit:
            if not audit.active:
                raise UndoError(_("nothing to undo"))
            target = audit.entries[audit.active[-1] - 1]
            # (template, its words): kept in English in the journal, said in the reader's language
            reasons: list[tuple[str, str]] = []
            if target.rolls:
                rolled = "; ".join(f"{r.purpose} {'+'.join(map(str, r.faces))}" for r in target.rolls)
                reasons.append((N_("it rolled dice ({detail})"), rolled))
            if audit.revealed and target.seq < max(audit.revealed.values()):
                reasons.append((N_("the dice seed was revealed after it"), ""))
            assert target.record is not None  # checked by the audit
            opened = [e for e in target.record.events if e.code == REVEALED]
            if opened:
                with language("en"):
                    english = "; ".join(e.text() for e in opened)
                reasons.append((N_("it revealed a secret ({detail})"), english))
            if reasons and not force:
                if opened:
                    reasons[-1] = (reasons[-1][0], "; ".join(e.text() for e in opened))
                said = _(" and ").join(_(t).format(detail=d) for t, d in reasons)
                raise UndoError(
                    _("undoing {action} is refused: {reasons}; "
                      "add --force to take it back anyway (the forced undo is logged)").format(
                          action=repr(target.text), reasons=said)
                )
            forced = bool(reasons)
            self._append(audit, "undo", f"undo {target.text}", side=target.side, refers=target.seq, forced=forced,
                         reason="; ".join(t.format(detail=d) for t, d in reasons) or None)
            self.conn.execute("UPDATE journal SET undone = 1 WHERE seq = ?", (target.seq,))
        self._cache = None
        return UndoResult(kind="undo", target=target, forced=forced)

    def redo(self) -> UndoResult:
        """Plays again the most recently undone action, if nothing was played since.

        Raises:
            UndoError: nothing to redo.
            GameFileError: the journal does not check or replay (nothing is written).
        """
        with self._transaction() as audit:
            if not audit.redoable:
                raise UndoError(_("nothing to redo (a new action was played after the undo, or nothing was undone)"))
            target = audit.entries[audit.redoable[-1] - 1]
            self._replay(audit.entries, also=target.seq)  # the redone entry must replay to its recorded hash
            self._append(audit, "redo", f"redo {target.text}", side=target.side, refers=target.seq)
            self.conn.execute("UPDATE journal SET undone = 0 WHERE seq = ?", (target.seq,))
        self._cache = None
        return UndoResult(kind="redo", target=target)

    def reveal(self) -> Reveal:
        """Reveals the current dice seed and commits to a fresh one for later rolls (a journaled action)."""
        with self._transaction() as audit:
            seeds, secret = self._read_seeds()
            current = seeds[-1]
            assert secret is not None  # checked by the audit
            rolls = sum(
                1 for e in audit.entries for r in e.rolls if r.source == "digital" and r.epoch == audit.epoch
            )
            fresh = new_seed()
            detail = SeedChange(revealed_epoch=audit.epoch, revealed_rolls=rolls, next_epoch=audit.epoch + 1,
                                next_commitment=commitment(fresh))
            entry = self._append(audit, "reveal", f"reveal dice seed {audit.epoch}", detail=detail)
            self.conn.execute("UPDATE seeds SET revealed_seq = ? WHERE epoch = ?", (entry.seq, audit.epoch))
            self.conn.execute(
                "INSERT INTO seeds VALUES (?, ?, ?, ?, NULL)",
                (audit.epoch + 1, fresh.hex(), commitment(fresh), entry.seq),
            )
        self._cache = None
        return Reveal(epoch=current.epoch, seed=secret, commitment=current.commitment, rolls=rolls,
                      next_commitment=commitment(fresh))

    # ---- secrets ----------------------------------------------------------------------------

    def _store_secret(self, seal: Seal) -> None:
        """Writes a sealed secret in the private table (inside a transaction)."""
        stored = StoredSecret.of(seal)
        self.conn.execute(_SECRETS_SCHEMA)
        self.conn.execute(
            "INSERT OR REPLACE INTO secrets (digest, owner, label, salt, secret) VALUES (?, ?, ?, ?, ?)",
            (stored.digest, stored.owner, stored.label, stored.salt,
             json.dumps(stored.secret, ensure_ascii=False, sort_keys=True)),
        )

    def link_secret(self, rotate: bool = False) -> bytes:
        """Returns the secret the table display's links are derived from (``referee serve``), made
        and stored on first use, or made anew with ``rotate`` (every old link then stops working).

        It sits in the meta table, outside the journal and its chain, and no export carries it.

        Raises:
            GameFileError: the file is read-only (and holds no secret yet) or cannot be written.
        """
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'links'").fetchone()
        try:
            stored = (_text(row[0], "meta 'links'", "value") or "") if row is not None else ""
        except _Bad:  # damaged: a new secret replaces it
            stored = ""
        if re.fullmatch(r"[0-9a-f]{64}", stored) and not rotate:
            return bytes.fromhex(stored)
        fresh = new_seed()
        with self._transaction():
            self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('links', ?)", (fresh.hex(),))
        return fresh

    def seal(self, owner: str, label: str, secret: object, salt: bytes | None = None) -> ActionRecord:
        """Seals a secret entered privately: the journal gets ``seal OWNER LABEL DIGEST`` (judged
        and played as any action), the private table the salt and the secret.

        Raises:
            IllegalActionError: the game refuses the seal now (nothing is written).
            NotationError: the owner or label is not one word, or the secret is not plain data.
            GameFileError: as :meth:`do`.
        """
        checker = getattr(self.game, "secret_problem", None)  # a game may check a secret's content
        if checker is not None:  # ... against the owner's other secrets too (a box shared by its garrisons)
            problem = checker(self.state(), owner, label, secret, self.secrets(owner))
            if problem is not None:
                raise IllegalActionError(Verdict(action=f"seal {owner} {label}", violations=(problem,)))
        try:
            made = Seal.make(owner, label, secret, salt)  # type: ignore[arg-type]  # checked by canonical()
        except (TypeError, ValueError) as exc:
            raise NotationError(_("the secret cannot be sealed: {problem}").format(problem=str(exc)[:160])) from None
        text = seal_text(made.public)
        if parse_seal(text) != made.public:
            raise NotationError(_("owner and label are one word each: {owner} {label}").format(
                owner=repr(owner), label=repr(label)))
        return self.do(text, private=made)

    def reveal_secret(self, owner: str, label: str, claimed: object = None) -> ActionRecord:
        """Reveals a sealed secret: ``reveal OWNER LABEL SALT SECRET``, judged against the commitment
        by the game (a mismatch is refused and nothing is written).

        ``claimed`` is what the owner says the secret is (None: the one stored in this file).

        Raises:
            UnknownNameError: no secret of that owner and label is sealed and still hidden.
            GameFileError: the file does not hold the salt (an export without its owner's secrets).
            IllegalActionError: the claimed secret does not open the commitment (nothing is written).
        """
        hidden = [c for c, shown in self.sealed_now() if not shown]
        matching = [c for c in hidden if c.owner == owner and c.label == label]
        if not matching:
            raise UnknownNameError("hidden secret", f"{owner} {label}", [f"{c.owner} {c.label}" for c in hidden])
        public = matching[-1]
        stored = {s.public.digest: s for s in self.secrets(owner)}.get(public.digest)
        if stored is None:
            raise GameFileError(_("{path}: the salt of {owner}'s {label} is not in this file "
                                  "(imported without its owner's secrets)").format(path=self.path, owner=owner,
                                                                                 label=label))
        secret = stored.secret if claimed is None else claimed
        try:
            text = reveal_text(owner, label, stored.salt, secret)  # type: ignore[arg-type]
        except (TypeError, ValueError) as exc:
            raise NotationError(_("the claimed secret is not plain data: {problem}").format(
                problem=str(exc)[:160])) from None
        try:
            return self.do(text)
        except IllegalActionError as exc:  # the refusal is shown at the table: never the salt nor the claim
            verdict = exc.verdict.model_copy(update={"action": f"reveal {owner} {label}"})
            raise IllegalActionError(verdict) from None

    def sealed_now(self) -> list[tuple[Commitment, bool]]:
        """Returns every secret sealed by an action in play, with whether a reveal in play opened it."""
        out: list[tuple[Commitment, bool]] = []
        for entry in self.entries():
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

    def secrets(self, viewer: str | None) -> list[Seal]:
        """Returns the private secrets ``viewer`` owns (none for the shared table), each checked
        against its digest.

        Raises:
            GameFileError: the private table is damaged or a secret does not open its digest.
        """
        if viewer is None:
            return []
        label = str(self.path)
        try:
            there = self.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'secrets'")
            if there.fetchone() is None:
                return []
            rows = self.conn.execute(
                "SELECT digest, owner, label, salt, secret FROM secrets WHERE owner = ? ORDER BY rowid LIMIT ?",
                (viewer, MAX_SECRETS),
            ).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise GameFileError(f"{label}: damaged, cannot read the secrets ({_sql_problem(exc)})") from None
        out: list[Seal] = []
        for row in rows:
            try:
                where = f"secrets {_text(row[0], 'secrets', 'digest')}"
                texts = [_text(v, where, name) for v, name in zip(row, ("digest", "owner", "label", "salt", "secret"),
                                                                  strict=True)]
                stored = StoredSecret(digest=texts[0], owner=texts[1], label=texts[2], salt=texts[3],
                                      secret=_json_column(label, where, "secret", str(texts[4])))
            except _Bad as exc:
                raise GameFileError(f"{label}: {exc}") from None
            except ValidationError as exc:
                raise GameFileError(f"{label}: secrets: {_model_error(exc)}") from None
            seal = stored.seal()
            if seal is None:
                raise GameFileError(f"{label}: secrets {stored.digest[:12]}: does not open its commitment (altered)")
            out.append(seal)
        return out

    # ---- export / import --------------------------------------------------------------------

    def export(self, viewer: str | None = None) -> dict[str, object]:
        """Returns the whole game as plain JSON data (unrevealed seeds are left out).

        The journal holds secrets only as commitments; the export adds the private secrets of
        ``viewer`` (their owner) and of nobody else, so a shared-table export (``viewer`` None)
        carries commitments only.
        """
        with self._reading():  # the journal and the secrets of one commit, whoever writes meanwhile
            entries = self.entries()
            mine = [StoredSecret.of(seal).model_dump(mode="json") for seal in self.secrets(viewer)]
            seeds = [e.model_dump(mode="json") for e in self.epochs()]
            state_hash = self.game.state_hash(self.state())
        return {
            "format": EXPORT_FORMAT,
            "game": self.game.info.slug,
            "game_id": self.game_id,
            "created": self.created,
            "tables": self.table_set.texts(),
            "tables_hash": self.table_set.digest,
            "next_roll_index": self.next_roll_index,
            "seeds": seeds,
            "entries": [e.model_dump(mode="json") for e in entries],
            "state_hash": state_hash,
        } | ({"secrets": mine} if mine else {})

    @classmethod
    def import_(cls, data: object, path: Path, label: str, force: bool = False) -> GameFile:
        """Creates a game file from an export after checking it as a game file is checked.

        The export's journal must hold together (chain, seq, undo entries, rolls, seeds) and replay
        to the exported state hash. A seed the export does not reveal cannot be restored: a fresh
        seed is committed for later rolls and a note says so in the journal. The file is built
        beside ``path`` and moved into place only when all of this succeeded.

        Raises:
            GameFileError: not an export, an altered export, or the file cannot be written.
        """
        export = parse_export(label, data)
        audit = audit_export(label, export)
        try:
            game = find_game(export.game)
        except RefereeError:
            raise GameFileError(f"{label}: game: unknown game {export.game[:64]!r}") from None
        table_set = TableSet.from_texts(export.game, export.tables, label)
        if table_set.digest != export.tables_hash:
            raise GameFileError(f"{label}: tables do not match tables_hash (export altered)")
        _check_target(path, force)
        sweep_temporaries(_folder(path))
        with temporary_beside(path, "game file") as tmp:
            new = cls._build(tmp, game, table_set)
            with new:
                new._fill(export, audit, label)
            _install(tmp, path)
        made = cls.open(path)
        note_commit(path, len(export.entries) + 1)
        return made

    def _fill(self, export: _Export, audit: Audit, label: str) -> None:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            for key, value in (("game_id", export.game_id), ("created", export.created),
                               ("next_roll_index", str(export.next_roll_index))):
                conn.execute("UPDATE meta SET value = ? WHERE key = ?", (value, key))
            conn.execute("DELETE FROM seeds")
            for ep in export.seeds:
                conn.execute(
                    "INSERT INTO seeds VALUES (?, ?, ?, ?, ?)",
                    (ep.epoch, ep.seed, ep.commitment, ep.created_seq, ep.revealed_seq),
                )
            conn.executemany(_INSERT, (_entry_values(e) for e in export.entries))
            if export.secrets:
                sealed = {(c.owner, c.label, c.digest) for c in _seals_in(audit.entries)}
                for i, stored in enumerate(export.secrets):
                    seal = stored.seal()
                    if seal is None or (stored.owner, stored.label, stored.digest) not in sealed:
                        raise GameFileError(f"{label}: secrets[{i}]: does not open a commitment of the journal "
                                            "(export altered)")
                    self._store_secret(seal)
            fresh = new_seed()
            detail = SeedChange(next_epoch=audit.epoch + 1, next_commitment=commitment(fresh))
            self.game_id, self.created = export.game_id, export.created
            self.next_roll_index = export.next_roll_index
            entry = self._append(audit, "note", "dice seed not in the export: a fresh seed is committed",
                                 detail=detail)
            conn.execute("INSERT INTO seeds VALUES (?, ?, ?, ?, NULL)",
                         (audit.epoch + 1, fresh.hex(), commitment(fresh), entry.seq))
            conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        self._audited = None
        self._cache = None
        self._audit()
        if self.game.state_hash(self.state()) != export.state_hash:
            raise GameFileError(_("{label}: the journal replays to a different state than exported").format(
                label=label))

    # ---- dice verification ------------------------------------------------------------------

    def verify_dice(self) -> DiceReport:
        """Checks the journal as a sequence, then recomputes every digital roll from the revealed seeds."""
        from referee.dice_verify import verify_rolls

        entries = self.entries()
        return verify_rolls(self.game_id, self.epochs(), entries)


class _Export(BaseModel):
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


def _seals_in(entries: Sequence[Entry]) -> list[Commitment]:
    """Returns the commitment of every ``seal`` action in a journal (played or undone)."""
    out: list[Commitment] = []
    for entry in entries:
        if entry.kind == "action":
            with suppress(NotationError):
                public = parse_seal(entry.text)
                if public is not None:
                    out.append(public)
    return out


def parse_export(label: str, data: object) -> _Export:
    """Returns the export in ``data`` (already parsed JSON), its fields type-checked.

    Raises:
        GameFileError: not an export of this format (one line naming the field).
    """
    if isinstance(data, dict) and data.get("format") in OLD_EXPORT_FORMATS:
        raise GameFileError(f"{label}: format: {data['format']} is from an older referee (no journal chain); "
                            "it cannot be checked as this version checks exports")
    try:
        return _Export.model_validate(data)
    except ValidationError as exc:
        raise GameFileError(f"{label}: {_model_error(exc)}") from None


def read_export(path: Path) -> _Export:
    """Reads and parses an export file through the guarded reader (size counted, depth capped).

    Raises:
        GameFileError: unreadable, too large, not JSON, or not an export.
    """
    try:
        text = read_text(path, limit=MAX_EXPORT_BYTES, what="referee export")
        data = parse_json(str(path), text)
    except InputFileError as exc:
        raise GameFileError(str(exc)) from None
    return parse_export(str(path), data)


# ---- building beside, then replacing --------------------------------------------------------


def _check_target(path: Path, force: bool) -> None:
    """Refuses a target that is not a place for a game file, before anything is built."""
    try:
        there = require_regular(path, what="game file", missing_ok=True)
    except InputFileError as exc:
        hint = "; " + _("--force replaces only a file") if force else ""
        raise GameFileError(f"{exc}{hint}") from None
    if there and not force:
        raise GameFileError(_("{path}: a file is already there; pick another --file or add --force").format(path=path))
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise GameFileError(_("{path}: the folder {folder} does not exist").format(path=path, folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GameFileError(_("{folder} is read-only: cannot create {name} there").format(
            folder=folder, name=path.name))


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _remove(path: Path) -> None:
    for p in (path, path.with_name(path.name + "-journal")):
        with suppress(OSError):
            p.unlink()


def _install(tmp: Path, path: Path) -> None:
    """Moves a finished game file into place in one step (replacing any file there).

    An SQLite journal left beside the file it replaces goes first (and again after): a write
    killed there leaves one, and SQLite would roll it back into the new file under that name.
    """
    side = path.with_name(path.name + "-journal")
    try:
        _drop(side)
        install(tmp, path)
        _drop(side)
    except RefereeError as exc:
        raise GameFileError(str(exc)) from None


def _drop(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise GameFileError(_("{path}: cannot write ({reason})").format(
            path=path, reason=(exc.strerror or type(exc).__name__).lower())) from None


def install_copy(src: Path, path: Path, force: bool = False) -> None:
    """Copies a finished game file to ``path`` through a temporary name beside it (atomic); an
    existing file there is replaced only with ``force``, and a game file never.

    Raises:
        OutputFileError: ``path`` is not a place for the copy, or cannot be written.
    """
    write_output(path, src.read_bytes(), force=force, what="game file")


def write_beside(path: Path, data: bytes, force: bool = False, what: str = "file") -> None:
    """Writes ``data`` to ``path`` through a temporary file beside it (atomic): a game file there
    is never replaced, another file only with ``force``; a character device (``/dev/null``) is
    written directly (see :mod:`referee.writing`).

    Raises:
        OutputFileError: ``path`` is not a place for the file, or cannot be written.
    """
    write_output(path, data, force=force, what=what)
