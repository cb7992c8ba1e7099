"""The verbs of a game file: create, open, do, undo, redo, reveal, seal, export and import."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee.dice import PhysicalDice, commitment, new_seed
from referee.errors import (
    GameFileError,
    IllegalActionError,
    NotationError,
    UndoError,
    UnknownNameError,
)
from referee.game import Action, ActionRecord, AnyEngine, GameState
from referee.i18n import N_, _, language
from referee.journal import exchange, install, secrets
from referee.journal.audit import Audit, Auditor
from referee.journal.dice_check import DiceReport, verify_rolls
from referee.journal.gamefile import Store, build, open_connection
from referee.journal.model import EXPORT_FORMAT, Bad, Entry, GameLookup, Reveal, SeedChange, UndoResult
from referee.journal.replay import action_json, play_entry
from referee.journal.storage import read_seeds
from referee.rulings import Verdict
from referee.sealed import (
    REVEALED,
    Commitment,
    RevealRequest,
    Seal,
    SealRequest,
    StoredSecret,
    parse_seal,
    reveal_text,
    seal_text,
)
from referee.tables import TableSet
from referee.writing import note_commit, sweep_temporaries, temporary_beside

Judged = tuple[GameState, Verdict]
"""An action's verdict with the state it was judged in (a search that played it through the engine)."""


@dataclass(frozen=True)
class _Move:
    """One action to play: its text, typed dice, an override's reason, a seal's secret."""

    text: str
    faces: Sequence[int] | None = None
    reason: str | None = None
    private: Seal | None = None
    judged: Judged | None = None


class GameFile(Store):
    """An open game file. Read with :meth:`state`, :meth:`entries`; write with :meth:`do` & co.

    Opening checks the header (format, tables, columns, meta); the first read or write checks the
    journal after the newest verified snapshot (all of it when there is none) and replays the
    actions played since, all before anything is written. ``games`` finds a game's engine by its
    slug (the caller's registry, :func:`referee.games.find_game`).
    """

    # ---- opening ----------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path, game: AnyEngine, table_set: TableSet, force: bool = False,
               actions: Sequence[str] = (), games: GameLookup | None = None) -> GameFile:
        """Creates a new game file, plays ``actions`` in it, and returns it open.

        The file is built beside ``path`` under a temporary name and moved into place only when
        every action was played, so a refusal leaves whatever was at ``path`` untouched and no
        side file.

        Raises:
            GameFileError: something is there (without ``force``), it is not a file, or it cannot be written.
            RefereeError: an action is refused (nothing is left behind).
        """
        lookup = games or _only(game)
        install.check_target(path, force)
        game.new_state(table_set)  # fail on bad tables before creating anything
        sweep_temporaries(install.folder_of(path))
        with temporary_beside(path, "game file") as tmp:
            with cls(tmp, build(tmp, game, table_set), lookup) as new:
                new.do_all(actions)
            install.install_file(tmp, path)
        made = cls.open(path, lookup)
        note_commit(path, len(actions))
        return made

    @classmethod
    def open(cls, path: Path, games: GameLookup) -> GameFile:
        """Opens an existing game file (read-only when the file or its folder cannot be written).

        Raises:
            GameFileError: missing, not a regular file, not a game file, or corrupt.
        """
        conn, readonly, pending = open_connection(path)
        made = cls(path, conn, games, readonly, wal_pending=pending)
        if not (readonly or pending) and Path(f"{path}-journal").exists():
            made._drop_stale_journal()
        return made

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- playing ----------------------------------------------------------------------------

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

    def do_all(self, texts: Sequence[str], start: str | None = None,
               judged: Sequence[Judged | None] = ()) -> list[ActionRecord]:
        """Plays several actions (digital dice) in one transaction: all are journaled, or none is
        (a turn read from a photo, a set-up).

        Args:
            texts: the actions' notation, in order.
            start: the state hash the first action must be played on (None: the current state);
                checked under the write lock, so another writer cannot slip in between.
            judged: for each action, the verdict a search already reached and the state it judged
                it in (None where it has none): kept, not judged again, when the file plays the
                action in that very state (``capture --apply``); any other action is judged here.

        Raises:
            IllegalActionError, NotationError, UnknownNameError, DiceError, GameFileError: as
                :meth:`do`, for the first action that fails; nothing is written.
            StaleStateError: the game is no longer at ``start``.
        """
        if not texts:
            return []
        ahead = list(judged) + [None] * (len(texts) - len(judged))
        return self._play([_Move(text, judged=j) for text, j in zip(texts, ahead, strict=False)], start)

    def _play(self, moves: Sequence[_Move], start: str | None = None) -> list[ActionRecord]:
        records: list[ActionRecord] = []
        with self._transaction():
            audit, state = self._load()
            self._check_start(state, start)
            auditor = Auditor.over(audit)
            for move in moves:
                state, record, entry = self._play_one(audit, state, move)
                try:
                    auditor.add(entry)  # the next move is chained to this one
                except Bad as exc:
                    raise GameFileError(f"{self.path}: {exc}") from None
                self._played(audit, state)
                records.append(record)
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
        verdict = _verdict(game, state, action, move.judged)
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
            audit, record.kind, record.action, side=record.side, action=action_json(action),
            verdict=verdict, rolls=record.rolls, record=record, reason=move.reason,
            state_hash=game.state_hash(new_state),
        )
        if move.private is not None:
            secrets.store(self.conn, move.private)
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
            target = self._entry(audit, audit.active[-1])
            reasons = _undo_reasons(audit, target)
            if reasons and not force:
                opened = [e for e in target.record.events if e.code == REVEALED] if target.record else []
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
            target = self._entry(audit, audit.redoable[-1])
            play_entry(self.game, self.state(), target, str(self.path))  # it must replay to its recorded hash
            self._append(audit, "redo", f"redo {target.text}", side=target.side, refers=target.seq)
            self.conn.execute("UPDATE journal SET undone = 0 WHERE seq = ?", (target.seq,))
        return UndoResult(kind="redo", target=target)

    def reveal(self) -> Reveal:
        """Reveals the current dice seed and commits to a fresh one for later rolls (a journaled action)."""
        with self._transaction() as audit:
            seeds, secret = read_seeds(self.conn)
            current = seeds[-1]
            assert secret is not None  # checked by the audit
            rolls = audit.rolls_in_epoch
            fresh = new_seed()
            detail = SeedChange(revealed_epoch=audit.epoch, revealed_rolls=rolls, next_epoch=audit.epoch + 1,
                                next_commitment=commitment(fresh))
            entry = self._append(audit, "reveal", f"reveal dice seed {audit.epoch}", detail=detail)
            self.conn.execute("UPDATE seeds SET revealed_seq = ? WHERE epoch = ?", (entry.seq, audit.epoch))
            self.conn.execute("INSERT INTO seeds VALUES (?, ?, ?, ?, NULL)",
                              (audit.epoch + 1, fresh.hex(), commitment(fresh), entry.seq))
        return Reveal(epoch=current.epoch, seed=secret, commitment=current.commitment, rolls=rolls,
                      next_commitment=commitment(fresh))

    # ---- secrets ----------------------------------------------------------------------------

    def link_secret(self, rotate: bool = False) -> bytes:
        """Returns the secret the table display's links are derived from (``referee serve``), made
        and stored on first use, or made anew with ``rotate`` (every old link then stops working).

        It sits in the meta table, outside the journal and its chain, and no export carries it.

        Raises:
            GameFileError: the file is read-only (and holds no secret yet) or cannot be written.
        """
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'links'").fetchone()
        stored = bytes(row[0]).decode("ascii", "replace") if row is not None and isinstance(row[0], bytes) else ""
        if len(stored) == 64 and all(c in "0123456789abcdef" for c in stored) and not rotate:
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

    def play_choice(self, action: Action) -> ActionRecord:
        """Plays an action a bot chose: a seal or reveal request as :meth:`seal` and
        :meth:`reveal_secret` do (the secret stays in this file), anything else as :meth:`do`."""
        if isinstance(action, SealRequest):
            return self.seal(action.owner, action.label, action.secret)
        if isinstance(action, RevealRequest):
            return self.reveal_secret(action.owner, action.label)
        return self.do(action.text())

    def sealed_now(self) -> list[tuple[Commitment, bool]]:
        """Returns every secret sealed by an action in play, with whether a reveal in play opened it."""
        return secrets.sealed_now(self.entries())

    def secrets(self, viewer: str | None) -> list[Seal]:
        """Returns the private secrets ``viewer`` owns (none for the shared table), each checked
        against its digest.

        Raises:
            GameFileError: the private table is damaged or a secret does not open its digest.
        """
        return secrets.read(self.conn, viewer, str(self.path))

    # ---- export / import --------------------------------------------------------------------

    def export(self, viewer: str | None = None) -> dict[str, object]:
        """Returns the whole game as plain JSON data (unrevealed seeds are left out), checked and
        replayed from the start (no snapshot trusted).

        The journal holds secrets only as commitments; the export adds the private secrets of
        ``viewer`` (their owner) and of nobody else, so a shared-table export (``viewer`` None)
        carries commitments only.
        """
        with self._reading():  # the journal and the secrets of one commit, whoever writes meanwhile
            entries = self.entries()
            mine = [StoredSecret.of(seal).model_dump(mode="json") for seal in self.secrets(viewer)]
            seeds = [e.model_dump(mode="json") for e in self.epochs()]
            state_hash = self.game.state_hash(self.replayed_state())
        return {
            "format": EXPORT_FORMAT, "game": self.game.info.slug, "game_id": self.game_id,
            "created": self.created, "tables": self.table_set.texts(), "tables_hash": self.table_set.digest,
            "next_roll_index": self.next_roll_index, "seeds": seeds,
            "entries": [e.model_dump(mode="json") for e in entries], "state_hash": state_hash,
        } | ({"secrets": mine} if mine else {})

    @classmethod
    def import_(cls, data: object, path: Path, label: str, games: GameLookup, force: bool = False) -> GameFile:
        """Creates a game file from an export after checking it as a game file is checked.

        The export's journal must hold together (chain, seq, undo entries, rolls, seeds) and replay
        to the exported state hash. A seed the export does not reveal cannot be restored: a fresh
        seed is committed for later rolls and a note says so in the journal. The file is built
        beside ``path`` and moved into place only when all of this succeeded.

        Raises:
            GameFileError: not an export, an altered export, or the file cannot be written.
        """
        export = exchange.parse_export(label, data)
        audit = exchange.audit_export(label, export)
        try:
            game = games(export.game)
        except UnknownNameError:
            raise GameFileError(f"{label}: game: unknown game {export.game[:64]!r}") from None
        table_set = TableSet.from_texts(export.game, export.tables, label)
        if table_set.digest != export.tables_hash:
            raise GameFileError(f"{label}: tables do not match tables_hash (export altered)")
        install.check_target(path, force)
        sweep_temporaries(install.folder_of(path))
        with temporary_beside(path, "game file") as tmp:
            with cls(tmp, build(tmp, game, table_set), games) as new:
                new._fill(export, audit, label)
            install.install_file(tmp, path)
        made = cls.open(path, games)
        note_commit(path, len(export.entries) + 1)
        return made

    def _fill(self, export: exchange.Export, audit: Audit, label: str) -> None:
        try:
            self.conn.execute("BEGIN IMMEDIATE")
            detail, fresh = exchange.fill(self.conn, export, audit, label)
            self.game_id, self.created = export.game_id, export.created
            self.next_roll_index = export.next_roll_index
            entry = self._append(audit, "note", "dice seed not in the export: a fresh seed is committed",
                                 detail=detail)
            self.conn.execute("INSERT INTO seeds VALUES (?, ?, ?, ?, NULL)",
                              (audit.epoch + 1, fresh.hex(), commitment(fresh), entry.seq))
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        self._loaded = self._full = None
        if self.game.state_hash(self.replayed_state()) != export.state_hash:
            raise GameFileError(_("{label}: the journal replays to a different state than exported").format(
                label=label))
        with self._transaction():
            pass  # keeps the imported game's first snapshot

    # ---- dice verification ------------------------------------------------------------------

    def verify_dice(self) -> DiceReport:
        """Checks the journal from the start (every snapshot against the full replay), then
        recomputes every digital roll from the revealed seeds."""
        with self._reading():  # one commit, whoever writes meanwhile
            problems = self.verify()
            report = verify_rolls(self.game_id, self.epochs(), self.entries())
        return report.model_copy(update={"snapshots": tuple(problems)})


def _verdict(game: AnyEngine, state: GameState, action: Action, judged: Judged | None) -> Verdict:
    """Returns the verdict a search reached for this action in this very state, else judges it."""
    if judged is not None and judged[1].action == action.text() and judged[0] == state:
        return judged[1]
    return game.judge(state, action)


def _undo_reasons(audit: Audit, target: Entry) -> list[tuple[str, str]]:
    """Returns why undoing ``target`` needs ``--force``: (template, its words), kept in English in
    the journal and said in the reader's language."""
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
    return reasons


def _only(game: AnyEngine) -> GameLookup:
    """Returns a lookup that knows one game (a file being created needs no other)."""

    def lookup(slug: str) -> AnyEngine:
        if slug != game.info.slug:
            raise UnknownNameError("game", slug, [game.info.slug])
        return game

    return lookup

