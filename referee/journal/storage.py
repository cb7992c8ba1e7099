"""The SQLite codec of a game file: its schema, opening a connection, and rows to records and back.

Every column is read as bytes and type-checked (a damaged or hostile file names the row and the
column); every JSON column goes through :func:`referee.files.loads_capped`.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from pydantic import TypeAdapter, ValidationError

from referee.errors import GameFileError
from referee.files import loads_capped, sqlite_uri
from referee.i18n import _
from referee.journal.model import FORMAT, OLD_FORMATS, Bad, Entry, SeedEpoch, model_error, row_name

COLUMNS: dict[str, tuple[str, ...]] = {
    "meta": ("key", "value"),
    "seeds": ("epoch", "seed", "commitment", "created_seq", "revealed_seq"),
    "journal": (
        "seq", "kind", "side", "text", "action", "verdict", "rolls", "record", "reason", "state_hash",
        "time", "undone", "refers", "forced", "detail", "chain",
    ),
}
META_KEYS = ("format", "slug", "game_id", "created", "tables", "tables_hash", "next_roll_index")

SCHEMA = """
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

INSERT = f"INSERT INTO journal ({', '.join(COLUMNS['journal'])}) VALUES ({', '.join('?' * 16)})"
SELECT = f"SELECT {', '.join(COLUMNS['journal'])} FROM journal ORDER BY seq"
SELECT_AFTER = f"SELECT {', '.join(COLUMNS['journal'])} FROM journal WHERE seq > ? ORDER BY seq"
SELECT_ONE = f"SELECT {', '.join(COLUMNS['journal'])} FROM journal WHERE seq = ?"

BUSY_MS = 30_000
"""How long a command waits for another process's write to end before it gives up."""

TABLES = TypeAdapter(dict[str, str])


def connect(path: Path, readonly: bool, create: bool = False) -> sqlite3.Connection:
    """Opens the SQLite file at exactly ``path`` (the path percent-encoded: ``#``, ``?`` or ``%41`` in
    a name are part of it, see :func:`referee.files.sqlite_uri`)."""
    mode = "rwc" if create else ("ro" if readonly else "rw")
    try:
        conn = sqlite3.connect(sqlite_uri(path, mode), uri=True, timeout=BUSY_MS / 1000, isolation_level=None)
        conn.text_factory = bytes
        if not readonly:
            conn.execute("PRAGMA synchronous=FULL")
    except (sqlite3.DatabaseError, UnicodeDecodeError, ValueError) as exc:
        raise GameFileError(_("{path}: not a referee game file ({problem})").format(
            path=path, problem=sql_problem(exc))) from None
    except sqlite3.Error as exc:
        raise GameFileError(_("{path}: cannot open game file ({problem})").format(
            path=path, problem=sql_problem(exc))) from None
    return conn


def sql_problem(exc: BaseException) -> str:
    """Returns SQLite's message on one line, cut short."""
    return " ".join(str(exc).split())[:160]


def writable(path: Path) -> bool:
    """True when the file and its folder can be written (the rollback journal lives beside it)."""
    folder = path.parent if str(path.parent) else Path(".")
    return os.access(path, os.W_OK) and os.access(folder, os.W_OK | os.X_OK)


def wal_pending(path: Path) -> bool:
    """True when a WAL file with content lies beside the game file (another program used SQLite's
    WAL mode, and it was not checkpointed: a crash). Reading it read-only leaves the file as it is."""
    try:
        return os.stat(f"{os.fsdecode(path)}-wal").st_size > 0
    except (OSError, ValueError):
        return False


def is_wal(path: Path) -> bool:
    """True when the database header says WAL mode (bytes 18-19 are 2)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(20)
    except OSError:
        return False
    return len(head) == 20 and head[:16] == b"SQLite format 3\x00" and (head[18] == 2 or head[19] == 2)


def text(value: object, where: str, name: str, optional: bool = False) -> str | None:
    """Returns a stored text value (read as bytes) decoded as UTF-8.

    Raises:
        Bad: not text, not UTF-8, or NULL where a value is required.
    """
    if value is None:
        if optional:
            return None
        raise Bad(where, _("{name} is missing (NULL)").format(name=name))
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            raise Bad(where, _("{name} is not UTF-8 text").format(name=name)) from None
    raise Bad(where, _("{name} is {type}, not text").format(name=name, type=type(value).__name__))


def integer(value: object, where: str, name: str, optional: bool = False) -> int | None:
    """Returns a stored whole number.

    Raises:
        Bad: not a whole number, or NULL where a value is required.
    """
    if value is None and optional:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    found = "missing (NULL)" if value is None else ("text" if isinstance(value, bytes) else type(value).__name__)
    raise Bad(where, _("{name} is {found}, not a whole number").format(name=name, found=found))


def json_column(where: str, name: str, raw: str) -> object:
    """Returns a JSON column's data through :func:`referee.files.loads_capped` (the models bound
    the rest: the pure-Python depth scan of :func:`referee.files.parse_json` would triple the cost
    of a check)."""
    try:
        return loads_capped(raw)
    except json.JSONDecodeError as exc:
        raise Bad(where, _("{name}: not valid JSON ({msg})").format(name=name, msg=exc.msg)) from None
    except RecursionError:
        raise Bad(where, _("{name}: nested too deep").format(name=name)) from None
    except ValueError as exc:
        raise Bad(where, _("{name}: not valid JSON ({exc})").format(name=name, exc=exc)) from None


def entry_from_row(row: Sequence[object]) -> Entry:
    """Returns the journal entry of one row, every column type-checked and every JSON column parsed.

    Raises:
        Bad: the row cannot be an entry.
    """
    seq = integer(row[0], "journal row ?", "seq")
    where = row_name(seq)
    cols = COLUMNS["journal"]
    texts: dict[str, str | None] = {}
    required = ("kind", "text", "rolls", "time", "chain")
    for i in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 14, 15):
        texts[cols[i]] = text(row[i], where, cols[i], optional=cols[i] not in required)
    ints = {cols[i]: integer(row[i], where, cols[i], optional=cols[i] == "refers") for i in (11, 12, 13)}
    if ints["undone"] not in (0, 1) or ints["forced"] not in (0, 1):
        raise Bad(where, _("undone and forced are 0 or 1"))
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
                data[name] = json_column(where, name, raw)
        if texts["action"] is not None:
            json_column(where, "action", texts["action"])
        return Entry.model_validate(data)
    except ValidationError as exc:
        raise Bad(where, model_error(exc)) from None


def entry_values(entry: Entry) -> tuple[object, ...]:
    """Returns the row of an entry, in :data:`COLUMNS` order."""
    return (
        entry.seq, entry.kind, entry.side, entry.text, entry.action,
        entry.verdict.model_dump_json() if entry.verdict else None,
        json.dumps([r.model_dump(mode="json") for r in entry.rolls], ensure_ascii=False),
        entry.record.model_dump_json() if entry.record else None,
        entry.reason, entry.state_hash, entry.time, int(entry.undone), entry.refers, int(entry.forced),
        entry.detail.model_dump_json() if entry.detail else None, entry.chain,
    )


def read_roll_counter(conn: sqlite3.Connection) -> int:
    """Returns the stored number of the next digital roll (read with the journal, never before it)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'next_roll_index'").fetchone()
    value = text(row[0] if row else None, "meta next_roll_index", "value")
    if value is None or not re.fullmatch(r"[0-9]{1,13}", value):
        raise Bad("meta next_roll_index", "not a whole number up to 10^12")
    return int(value)


def read_seeds(conn: sqlite3.Connection) -> tuple[list[SeedEpoch], str | None]:
    """Returns every stored seed row (secrets included) and the current epoch's secret seed."""
    out: list[SeedEpoch] = []
    query = "SELECT epoch, seed, commitment, created_seq, revealed_seq FROM seeds ORDER BY epoch"
    rows = conn.execute(query).fetchall()
    for row in rows:
        epoch = integer(row[0], "seeds", "epoch")
        where = f"seeds epoch {epoch}"
        try:
            out.append(SeedEpoch(
                epoch=epoch, seed=text(row[1], where, "seed", optional=True),
                commitment=text(row[2], where, "commitment"),
                created_seq=integer(row[3], where, "created_seq"),
                revealed_seq=integer(row[4], where, "revealed_seq", optional=True),
            ))
        except ValidationError as exc:
            raise Bad(where, model_error(exc)) from None
    return out, (out[-1].seed if out else None)


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    """Returns the meta table after checking the schema: format, tables, columns and keys.

    Raises:
        Bad: not a game file of this format, or a table, column or key missing.
    """
    from_format = _check_tables(conn)
    for key in META_KEYS:
        if key not in from_format:
            raise Bad("meta", f"no {key!r}")
    if not re.fullmatch(r"[0-9A-Za-z_-]{1,64}", from_format["game_id"]):
        raise Bad("meta game_id", "not 1 to 64 letters, digits, - or _")
    if not re.fullmatch(r"[0-9]{1,13}", from_format["next_roll_index"]):
        raise Bad("meta next_roll_index", "not a whole number up to 10^12")
    return from_format


def _check_tables(conn: sqlite3.Connection) -> dict[str, str]:
    kinds = {
        text(n, "schema", "name"): text(t, "schema", "type")
        for t, n in conn.execute("SELECT type, name FROM sqlite_master WHERE name IN ('meta', 'seeds', 'journal')")
    }
    if kinds.get("meta") != "table":
        raise Bad("", _("not a referee game file (no meta table)"))
    meta: dict[str, str] = {}
    for key, value in conn.execute("SELECT key, value FROM meta"):
        meta[str(text(key, "meta", "key"))] = str(text(value, f"meta {key!r}", "value"))
    fmt = meta.get("format")
    if fmt in OLD_FORMATS:
        raise Bad("", _("made by an older referee ({format}, without the journal chain), so it cannot be "
                        "checked; read it with that version, or start a new game").format(format=fmt))
    if fmt != FORMAT:
        raise Bad("", _("not a referee game file (format {format})").format(format=repr(fmt)))
    for table, cols in COLUMNS.items():
        if table not in kinds:
            raise Bad("", f"the {table} table is missing")
        if kinds[table] != "table":
            raise Bad("", f"{table} is a {kinds[table]}, not a table")
        have = {text(r[1], table, "column") for r in conn.execute(f"PRAGMA table_info({table})")}
        missing = [c for c in cols if c not in have]
        if missing:
            raise Bad("", f"the {table} table has no column {missing[0]}")
    return meta
