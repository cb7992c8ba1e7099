"""The game file: one SQLite database per game, holding a journal that replays to the state.

A game file (``--file``, ``REFEREE_FILE`` or ``./game.referee``) stores the game slug, its
table set (verbatim, with its hash, so a game always replays with the tables it started with),
the committed dice seeds and the journal: every accepted action and override with its side,
text, parsed action, verdict, rolls, events, the state hash after it, and the time; plus the
undo, redo and reveal entries that keep the history honest.

Every write is one ``BEGIN IMMEDIATE`` transaction: a killed process never leaves half an
action, and two processes on one file are serialised by SQLite's lock. A rejected action writes
nothing, so the file stays byte-identical. Entry point: :class:`GameFile`.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.dice import CommittedDice, PhysicalDice, ReplayDice, Roll, commitment, derive_faces, new_seed
from referee.errors import DiceError, GameFileError, IllegalActionError, RefereeError, UndoError
from referee.game import ActionRecord, AnyEngine, GameState
from referee.games import find_game
from referee.rulings import Verdict
from referee.tables import TableSet

FORMAT = "referee-game/1"
EXPORT_FORMAT = "referee-export/1"

EntryKind = Literal["action", "adjust", "undo", "redo", "reveal", "note"]

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
    forced INTEGER NOT NULL DEFAULT 0
);
"""


class Entry(BaseModel):
    """One journal line."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    seq: int
    kind: EntryKind
    side: str | None = None
    text: str
    action: str | None = Field(default=None, description="Parsed action as JSON.")
    verdict: Verdict | None = None
    rolls: tuple[Roll, ...] = ()
    record: ActionRecord | None = None
    reason: str | None = None
    state_hash: str | None = None
    time: str
    undone: bool = False
    refers: int | None = None
    forced: bool = False

    @property
    def active(self) -> bool:
        """True for an action or override that is part of the current game (not undone)."""
        return self.kind in ("action", "adjust") and not self.undone


class SeedEpoch(BaseModel):
    """One committed seed: its commitment, and the seed itself once revealed."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    epoch: int
    commitment: str
    seed: str | None = Field(default=None, description="Hex seed; only present once revealed.")
    created_seq: int
    revealed_seq: int | None = None


class Reveal(BaseModel):
    """What ``referee dice reveal`` shows."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    epoch: int
    seed: str
    commitment: str
    rolls: int = Field(description="Digital rolls derived from this seed.")
    next_commitment: str


class RollCheck(BaseModel):
    """One digital roll re-derived by ``referee dice verify``."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    seq: int
    purpose: str
    index: int
    epoch: int
    recorded: tuple[int, ...]
    derived: tuple[int, ...] | None
    status: Literal["ok", "mismatch", "unrevealed"]


class DiceReport(BaseModel):
    """Result of ``referee dice verify``: every digital roll checked against revealed seeds."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    game_id: str
    epochs: tuple[SeedEpoch, ...]
    bad_commitments: tuple[int, ...]
    checks: tuple[RollCheck, ...]
    physical: int

    @property
    def ok(self) -> bool:
        """True when every revealed seed matches its commitment and every checked roll agrees."""
        return not self.bad_commitments and all(c.status != "mismatch" for c in self.checks)


class UndoResult(BaseModel):
    """What an undo or redo did."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    kind: Literal["undo", "redo"]
    target: Entry
    forced: bool = False


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _connect(path: Path, create: bool = False) -> sqlite3.Connection:
    mode = "rwc" if create else "rw"
    try:
        conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=30, isolation_level=None)
        conn.execute("PRAGMA synchronous=FULL")
    except sqlite3.DatabaseError as exc:
        raise GameFileError(f"{path}: not a referee game file ({exc})") from None
    except sqlite3.Error as exc:
        raise GameFileError(f"{path}: cannot open game file ({exc})") from None
    return conn


class GameFile:
    """An open game file. Read with :meth:`state`, :meth:`entries`; write with :meth:`do` & co."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise GameFileError(f"{path}: not a referee game file ({exc})") from None
        if meta.get("format") != FORMAT:
            conn.close()
            raise GameFileError(f"{path}: not a referee game file (format {meta.get('format')!r})")
        try:
            self.game_id = meta["game_id"]
            self.game: AnyEngine = find_game(meta["slug"])
            texts = json.loads(meta["tables"])
        except (KeyError, json.JSONDecodeError) as exc:
            conn.close()
            raise GameFileError(f"{path}: corrupt game file header ({exc})") from None
        self.created = meta.get("created", "")
        self.table_set = TableSet.from_texts(self.game.info.slug, texts, str(path))
        if self.table_set.digest != meta.get("tables_hash"):
            conn.close()
            raise GameFileError(f"{path}: the stored tables do not match their hash (file altered)")
        self._cache: tuple[tuple[int, int, int], GameState] | None = None

    # ---- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, game: AnyEngine, table_set: TableSet, force: bool = False) -> GameFile:
        """Creates a new game file and returns it open.

        Raises:
            GameFileError: the file exists (without ``force``) or cannot be written.
        """
        if path.exists():
            if not force:
                raise GameFileError(f"{path}: a file is already there; pick another --file or add --force")
            path.unlink()
        game.new_state(table_set)  # fail on bad tables before creating anything
        conn = _connect(path, create=True)
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
            conn.execute(
                "INSERT INTO seeds VALUES (0, ?, ?, 0, NULL)", (seed.hex(), commitment(seed))
            )
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.close()
            path.unlink(missing_ok=True)
            raise GameFileError(f"{path}: cannot create game file ({exc})") from None
        return cls(path, conn)

    @classmethod
    def open(cls, path: Path) -> GameFile:
        """Opens an existing game file.

        Raises:
            GameFileError: missing, not a game file, or corrupt.
        """
        if not path.is_file():
            raise GameFileError(f"{path}: no game file here (start one with: referee new GAME --file {path})")
        return cls(path, _connect(path))

    def close(self) -> None:
        """Closes the database connection."""
        self.conn.close()

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise GameFileError(f"{self.path}: cannot lock game file ({exc})") from None
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        try:
            self.conn.execute("COMMIT")
        except sqlite3.Error as exc:
            raise GameFileError(f"{self.path}: cannot write game file ({exc})") from None

    # ---- reading ----------------------------------------------------------------------------

    def _meta(self, key: str) -> str:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise GameFileError(f"{self.path}: corrupt game file (no {key!r})")
        return str(row[0])

    def entries(self) -> list[Entry]:
        """Returns every journal entry, undone ones included.

        Raises:
            GameFileError: an entry cannot be read (the file was altered).
        """
        try:
            rows = self.conn.execute(
                "SELECT seq, kind, side, text, action, verdict, rolls, record, reason, state_hash,"
                " time, undone, refers, forced FROM journal ORDER BY seq"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise GameFileError(f"{self.path}: cannot read the journal ({exc})") from None
        out: list[Entry] = []
        for row in rows:
            try:
                out.append(
                    Entry(
                        seq=row[0], kind=row[1], side=row[2], text=row[3], action=row[4],
                        verdict=Verdict.model_validate_json(row[5]) if row[5] else None,
                        rolls=tuple(Roll.model_validate(r) for r in json.loads(row[6])),
                        record=ActionRecord.model_validate_json(row[7]) if row[7] else None,
                        reason=row[8], state_hash=row[9], time=row[10], undone=bool(row[11]),
                        refers=row[12], forced=bool(row[13]),
                    )
                )
            except (ValidationError, json.JSONDecodeError) as exc:
                problem = f"journal entry {row[0]} is corrupt ({exc.__class__.__name__})"
                raise GameFileError(f"{self.path}: {problem}") from None
        return out

    def _last_seq(self) -> int:
        row = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()
        return int(row[0])

    def state(self) -> GameState:
        """Returns the current state, replaying the journal (cached until the next write).

        Raises:
            GameFileError: an entry no longer replays to the state hash it recorded.
        """
        key = self._version()
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        state = self._replay(self.entries())
        self._cache = (key, state)
        return state

    def _version(self) -> tuple[int, int, int]:
        """What identifies the journal's content: other writers' commits, our last entry, undone flags."""
        version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        query = "SELECT COALESCE(MAX(seq), 0), COALESCE(SUM(undone), 0) FROM journal"
        last, undone = self.conn.execute(query).fetchone()
        return version, int(last), int(undone)

    def _replay(self, entries: Sequence[Entry]) -> GameState:
        game = self.game
        state: GameState = game.new_state(self.table_set)
        for entry in entries:
            if not entry.active:
                continue
            try:
                parse = game.parse_adjust if entry.kind == "adjust" else game.parse
                action = parse(state, entry.text)
                state = game.apply(state, action, ReplayDice(entry.rolls)).state
            except RefereeError as exc:
                problem = f"entry {entry.seq} {entry.text!r} no longer replays ({exc})"
                raise GameFileError(f"{self.path}: {problem}") from None
            if entry.state_hash and game.state_hash(state) != entry.state_hash:
                raise GameFileError(
                    f"{self.path}: entry {entry.seq} {entry.text!r} replays to a different state "
                    "(the file or the engine changed)"
                )
        return state

    def epochs(self) -> list[SeedEpoch]:
        """Returns the seed epochs; the seed is included only once revealed."""
        rows = self.conn.execute(
            "SELECT epoch, seed, commitment, created_seq, revealed_seq FROM seeds ORDER BY epoch"
        ).fetchall()
        return [
            SeedEpoch(epoch=e, commitment=c, seed=s if r is not None else None, created_seq=cs, revealed_seq=r)
            for e, s, c, cs, r in rows
        ]

    def current_epoch(self) -> SeedEpoch:
        """Returns the epoch whose (secret) seed derives the next digital rolls."""
        return self.epochs()[-1]

    # ---- writing ----------------------------------------------------------------------------

    def _dice(self, faces: Sequence[int] | None) -> CommittedDice | PhysicalDice:
        if faces is not None:
            return PhysicalDice(faces)
        epoch, seed = self.conn.execute(
            "SELECT epoch, seed FROM seeds ORDER BY epoch DESC LIMIT 1"
        ).fetchone()
        return CommittedDice(bytes.fromhex(seed), self.game_id, int(self._meta("next_roll_index")), epoch)

    def _insert(self, kind: EntryKind, text: str, **cols: object) -> int:
        names = ["kind", "text", "time", *cols]
        values = [kind, text, _now(), *cols.values()]
        marks = ", ".join("?" for _ in names)
        cur = self.conn.execute(f"INSERT INTO journal ({', '.join(names)}) VALUES ({marks})", values)
        return int(cur.lastrowid or 0)

    def do(self, text: str, faces: Sequence[int] | None = None, adjust_reason: str | None = None) -> ActionRecord:
        """Plays an action (or, with ``adjust_reason``, an umpire override) and journals it.

        Args:
            text: the action's notation.
            faces: physical dice typed in; None for committed digital dice.
            adjust_reason: the mandatory reason of an override; None for a normal action.

        Raises:
            IllegalActionError: the rules forbid the action (nothing is written).
            NotationError, UnknownNameError, DiceError: bad input (nothing is written).
        """
        game = self.game
        with self._transaction():
            state = self.state()
            if adjust_reason is not None:
                if not adjust_reason.strip():
                    raise UndoError("an override needs a reason: --reason \"...\"")
                action = game.parse_adjust(state, text)
            else:
                action = game.parse(state, text)
            dice = self._dice(faces)
            verdict = game.judge(state, action)
            if not verdict.legal:
                raise IllegalActionError(verdict)
            new_state, record = game.commit(state, action, dice, verdict)
            if isinstance(dice, PhysicalDice):
                dice.check_all_used()
            else:
                self.conn.execute(
                    "UPDATE meta SET value = ? WHERE key = 'next_roll_index'", (str(dice.next_index),)
                )
            self._insert(
                record.kind, record.action, side=record.side, action=action.model_dump_json(),
                verdict=verdict.model_dump_json(),
                rolls=json.dumps([r.model_dump(mode="json") for r in record.rolls]),
                record=record.model_dump_json(), reason=adjust_reason,
                state_hash=game.state_hash(new_state),
            )
            self._cache = (self._version(), new_state)
        return record

    def undo(self, force: bool = False) -> UndoResult:
        """Takes back the last action; refused across a roll or a revealed seed unless forced.

        Raises:
            UndoError: nothing to undo, or the undo needs ``force``.
        """
        with self._transaction():
            entries = self.entries()
            active = [e for e in entries if e.active]
            if not active:
                raise UndoError("nothing to undo")
            target = active[-1]
            reasons: list[str] = []
            if target.rolls:
                rolled = "; ".join(f"{r.purpose} {'+'.join(map(str, r.faces))}" for r in target.rolls)
                reasons.append(f"it rolled dice ({rolled})")
            revealed = [e.revealed_seq for e in self.epochs() if e.revealed_seq is not None]
            if revealed and target.seq < max(revealed):
                reasons.append("the dice seed was revealed after it")
            if reasons and not force:
                raise UndoError(
                    f"undoing {target.text!r} is refused: {' and '.join(reasons)}; "
                    "add --force to take it back anyway (the forced undo is logged)"
                )
            self.conn.execute("UPDATE journal SET undone = 1 WHERE seq = ?", (target.seq,))
            forced = bool(reasons)
            self._insert("undo", f"undo {target.text}", side=target.side, refers=target.seq, forced=int(forced),
                         reason="; ".join(reasons) or None)
            self._cache = None
        return UndoResult(kind="undo", target=target, forced=forced)

    def redo(self) -> UndoResult:
        """Plays again the most recently undone action, if nothing was played since.

        Raises:
            UndoError: nothing to redo.
        """
        with self._transaction():
            entries = self.entries()
            by_seq = {e.seq: e for e in entries}
            target: Entry | None = None
            for entry in reversed(entries):
                if entry.kind in ("action", "adjust") and not entry.undone:
                    break
                if entry.kind == "undo" and entry.refers is not None and by_seq[entry.refers].undone:
                    target = by_seq[entry.refers]
                    break
            if target is None:
                raise UndoError("nothing to redo (a new action was played after the undo, or nothing was undone)")
            self.conn.execute("UPDATE journal SET undone = 0 WHERE seq = ?", (target.seq,))
            self._insert("redo", f"redo {target.text}", side=target.side, refers=target.seq)
            self._cache = None
            self.state()  # the redone entry must replay to its recorded hash
        return UndoResult(kind="redo", target=target)

    def reveal(self) -> Reveal:
        """Reveals the current dice seed and commits to a fresh one for later rolls."""
        with self._transaction():
            epoch, seed, commit = self.conn.execute(
                "SELECT epoch, seed, commitment FROM seeds ORDER BY epoch DESC LIMIT 1"
            ).fetchone()
            rolls = sum(
                1 for e in self.entries() for r in e.rolls if r.source == "digital" and r.epoch == epoch
            )
            seq = self._insert("reveal", f"reveal dice seed {epoch}")
            self.conn.execute("UPDATE seeds SET revealed_seq = ? WHERE epoch = ?", (seq, epoch))
            fresh = new_seed()
            self.conn.execute(
                "INSERT INTO seeds VALUES (?, ?, ?, ?, NULL)", (epoch + 1, fresh.hex(), commitment(fresh), seq)
            )
        return Reveal(epoch=epoch, seed=seed, commitment=commit, rolls=rolls, next_commitment=commitment(fresh))

    # ---- export / import --------------------------------------------------------------------

    def export(self) -> dict[str, object]:
        """Returns the whole game as plain JSON data (unrevealed seeds are left out)."""
        return {
            "format": EXPORT_FORMAT,
            "game": self.game.info.slug,
            "game_id": self.game_id,
            "created": self.created,
            "tables": self.table_set.texts(),
            "tables_hash": self.table_set.digest,
            "next_roll_index": int(self._meta("next_roll_index")),
            "seeds": [e.model_dump(mode="json") for e in self.epochs()],
            "entries": [e.model_dump(mode="json") for e in self.entries()],
            "state_hash": self.game.state_hash(self.state()),
        }

    @classmethod
    def import_(cls, data: object, path: Path, label: str, force: bool = False) -> GameFile:
        """Creates a game file from an export and checks it replays to the exported state hash.

        A seed the export does not reveal cannot be restored: a fresh seed is committed for later
        rolls and a note says so in the journal.

        Raises:
            GameFileError: not an export, or it does not replay to its state hash.
        """
        try:
            export = _Export.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise GameFileError(f"{label}: {loc}: {err['msg']}") from None
        game = find_game(export.game)
        table_set = TableSet.from_texts(export.game, export.tables, label)
        if table_set.digest != export.tables_hash:
            raise GameFileError(f"{label}: tables do not match tables_hash (export altered)")
        if path.exists() and not force:
            raise GameFileError(f"{path}: a file is already there; pick another --file or add --force")
        tmp = path.with_name(path.name + ".importing")
        tmp.unlink(missing_ok=True)
        new = cls.create(tmp, game, table_set, force=True)
        try:
            with new._transaction():
                new.conn.execute("UPDATE meta SET value = ? WHERE key = 'game_id'", (export.game_id,))
                new.conn.execute("UPDATE meta SET value = ? WHERE key = 'created'", (export.created,))
                new.conn.execute(
                    "UPDATE meta SET value = ? WHERE key = 'next_roll_index'", (str(export.next_roll_index),)
                )
                new.conn.execute("DELETE FROM seeds")
                for ep in export.seeds:
                    seed = ep.seed if ep.revealed_seq is not None else None
                    new.conn.execute(
                        "INSERT INTO seeds VALUES (?, ?, ?, ?, ?)",
                        (ep.epoch, seed, ep.commitment, ep.created_seq, ep.revealed_seq),
                    )
                for e in export.entries:
                    new.conn.execute(
                        "INSERT INTO journal (seq, kind, side, text, action, verdict, rolls, record, reason,"
                        " state_hash, time, undone, refers, forced) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (
                            e.seq, e.kind, e.side, e.text, e.action,
                            e.verdict.model_dump_json() if e.verdict else None,
                            json.dumps([r.model_dump(mode="json") for r in e.rolls]),
                            e.record.model_dump_json() if e.record else None,
                            e.reason, e.state_hash, e.time, int(e.undone), e.refers, int(e.forced),
                        ),
                    )
                last = export.seeds[-1] if export.seeds else None
                if last is None or last.seed is None or last.revealed_seq is not None:
                    fresh = new_seed()
                    nxt = (last.epoch + 1) if last else 0
                    seq = new._insert("note", "dice seed not in the export: a fresh seed is committed")
                    new.conn.execute(
                        "INSERT INTO seeds VALUES (?, ?, ?, ?, NULL)", (nxt, fresh.hex(), commitment(fresh), seq)
                    )
            new._cache = None
            if game.state_hash(new.state()) != export.state_hash:
                raise GameFileError(f"{label}: the journal replays to a different state than exported")
        except BaseException:
            new.close()
            tmp.unlink(missing_ok=True)
            raise
        new.close()
        tmp.replace(path)
        return cls.open(path)

    # ---- dice verification ------------------------------------------------------------------

    def verify_dice(self) -> DiceReport:
        """Recomputes every digital roll from the revealed seeds."""
        return verify_rolls(self.game_id, self.epochs(), self.entries())


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    format: Literal["referee-export/1"]
    game: str
    game_id: str
    created: str
    tables: dict[str, str]
    tables_hash: str
    next_roll_index: int
    seeds: list[SeedEpoch]
    entries: list[Entry]
    state_hash: str


def verify_rolls(game_id: str, epochs: Sequence[SeedEpoch], entries: Sequence[Entry]) -> DiceReport:
    """Returns the check of every digital roll in ``entries`` against the revealed seeds."""
    by_epoch = {e.epoch: e for e in epochs}
    bad = tuple(
        e.epoch for e in epochs if e.seed is not None and commitment(bytes.fromhex(e.seed)) != e.commitment
    )
    checks: list[RollCheck] = []
    physical = 0
    for entry in entries:
        for roll in entry.rolls:
            if roll.source == "physical":
                physical += 1
                continue
            if roll.index is None or roll.epoch is None:
                raise DiceError(f"entry {entry.seq}: a digital roll without index or epoch")
            ep = by_epoch.get(roll.epoch)
            derived: tuple[int, ...] | None = None
            status: Literal["ok", "mismatch", "unrevealed"] = "unrevealed"
            if ep is not None and ep.seed is not None:
                derived = derive_faces(
                    bytes.fromhex(ep.seed), game_id, roll.index, roll.purpose, len(roll.faces), roll.sides
                )
                status = "ok" if derived == roll.faces and roll.epoch not in bad else "mismatch"
            checks.append(
                RollCheck(seq=entry.seq, purpose=roll.purpose, index=roll.index, epoch=roll.epoch,
                          recorded=roll.faces, derived=derived, status=status)
            )
    return DiceReport(game_id=game_id, epochs=tuple(epochs), bad_commitments=bad, checks=tuple(checks),
                      physical=physical)


def verify_file(path: Path) -> DiceReport:
    """Verifies the dice of a game file or of a JSON export.

    Raises:
        GameFileError: the file is neither.
    """
    try:
        head = path.read_bytes()[:16]
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read ({exc.strerror})") from None
    if head.startswith(b"SQLite format 3"):
        with GameFile.open(path) as gf:
            return gf.verify_dice()
    try:
        export = _Export.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, UnicodeDecodeError) as exc:
        raise GameFileError(f"{path}: neither a game file nor a referee export ({exc.__class__.__name__})") from None
    return verify_rolls(export.game_id, export.seeds, export.entries)
