"""The chain audit: a journal checked entry by entry, as a sequence.

The same checks serve game files (row by row, stopping at the first bad one) and exports: the
chain, the sequence numbers, undo and redo, seed reveals and every digital roll's number. What
the checks established up to an entry is an :class:`Audit`; its :class:`Tip` (everything but the
entries) is what a snapshot keeps, so a later open resumes the checks after the snapshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from referee.dice import commitment
from referee.i18n import _, ngettext
from referee.journal.model import HEX64, MAX_SEQ, Bad, Entry, SeedEpoch, link, row_name


class Tip(BaseModel):
    """What the audit established after ``count`` entries, without the entries themselves."""

    model_config = ConfigDict(frozen=True, defer_build=True, extra="forbid")

    count: int = Field(ge=0, le=MAX_SEQ)
    chain: str = Field(pattern=HEX64)
    active: tuple[int, ...] = Field(description="Actions and overrides in play, in order.")
    redoable: tuple[int, ...] = ()
    epoch: int = Field(ge=0)
    next_index: int = Field(ge=1)
    rolls_in_epoch: int = Field(ge=0)
    revealed: dict[int, int] = Field(default_factory=dict, description="epoch -> row that revealed it")
    announced: dict[int, tuple[str, int]] = Field(
        default_factory=dict, description="epoch -> (commitment, row that committed it), from epoch 1")


@dataclass
class Audit:
    """What checking a journal established: the entries read and the history their undo entries imply.

    ``entries`` are the entries checked in this pass: all of them from the start, or those after
    the snapshot the checks resumed from (:meth:`Auditor.resume`); ``count`` is the journal's length.
    """

    entries: list[Entry]
    count: int = 0
    active: list[int] = field(default_factory=list)
    redoable: list[int] = field(default_factory=list)
    epoch: int = 0
    next_index: int = 1
    chain: str = ""
    rolls_in_epoch: int = 0
    revealed: dict[int, int] = field(default_factory=dict)
    announced: dict[int, tuple[str, int]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """True when every entry of the journal was checked in this pass."""
        return len(self.entries) == self.count

    def tip(self) -> Tip:
        """Returns what this audit established, for a snapshot."""
        return Tip(count=self.count, chain=self.chain, active=tuple(self.active), redoable=tuple(self.redoable),
                   epoch=self.epoch, next_index=self.next_index, rolls_in_epoch=self.rolls_in_epoch,
                   revealed=dict(self.revealed), announced=dict(self.announced))


class Auditor:
    """Checks a journal entry by entry, as a sequence: the chain, seq, undo/redo, reveals, rolls."""

    def __init__(self, start: str) -> None:
        self.audit = Audit(entries=[], chain=start)

    @classmethod
    def resume(cls, tip: Tip) -> Auditor:
        """Returns an auditor that goes on after a snapshot's tip (the entries before it unread)."""
        made = cls(tip.chain)
        a = made.audit
        a.count, a.active, a.redoable = tip.count, list(tip.active), list(tip.redoable)
        a.epoch, a.next_index, a.rolls_in_epoch = tip.epoch, tip.next_index, tip.rolls_in_epoch
        a.revealed, a.announced = dict(tip.revealed), dict(tip.announced)
        return made

    @classmethod
    def over(cls, audit: Audit) -> Auditor:
        """Returns an auditor that goes on checking (and extending) an audit already made."""
        made = cls(audit.chain)
        made.audit = audit
        return made

    def add(self, entry: Entry) -> None:
        """Checks one more entry against everything before it.

        Raises:
            Bad: the entry does not follow (row named).
        """
        a = self.audit
        where = row_name(entry.seq)
        expected = a.count + 1
        if entry.seq != expected:
            raise Bad(where, _("seq {seq} where {expected} was expected (rows removed, added or reordered)").format(
                seq=entry.seq, expected=expected))
        if link(a.chain, entry) != entry.chain:
            raise Bad(where, _("its chain hash does not match (the row, or one before it, was altered)"))
        if entry.kind in ("action", "adjust"):
            self._action(entry, where)
        else:
            self._other(entry, where)
        self._rolls(entry, where)
        a.chain = entry.chain
        a.count = entry.seq
        a.entries.append(entry)

    def _action(self, entry: Entry, where: str) -> None:
        a = self.audit
        if entry.record is None or entry.state_hash is None or entry.verdict is None:
            raise Bad(where, _("an {kind} without its record, verdict or state hash").format(kind=entry.kind))
        if entry.record.rolls != entry.rolls or entry.record.kind != entry.kind:
            raise Bad(where, _("its rolls or kind differ from its record"))
        if entry.refers is not None or entry.detail is not None:
            raise Bad(where, _("an {kind} that refers to another row").format(kind=entry.kind))
        a.active.append(entry.seq)
        a.redoable.clear()

    def _other(self, entry: Entry, where: str) -> None:
        a = self.audit
        if entry.rolls:
            raise Bad(where, _("a {kind} entry with dice rolls").format(kind=entry.kind))
        if entry.kind == "undo":
            if not a.active or entry.refers != a.active[-1]:
                raise Bad(where, _("an undo of row {refers}, which was not the last action in play").format(
                    refers=entry.refers))
            a.redoable.append(a.active.pop())
        elif entry.kind == "redo":
            if not a.redoable or entry.refers != a.redoable[-1]:
                raise Bad(where, _("a redo of row {refers}, which was not the last action undone").format(
                    refers=entry.refers))
            a.active.append(a.redoable.pop())
        elif entry.refers is not None:
            raise Bad(where, _("a {kind} entry that refers to another row").format(kind=entry.kind))
        if entry.kind in ("reveal", "note"):
            self._seed_change(entry, where)
        elif entry.detail is not None:
            raise Bad(where, _("a {kind} entry with seed details").format(kind=entry.kind))

    def _rolls(self, entry: Entry, where: str) -> None:
        a = self.audit
        for roll in entry.rolls:
            if roll.source != "digital":
                if roll.index is not None or roll.epoch is not None:
                    raise Bad(where, _("a physical roll with a digital roll number or seed"))
                continue
            if roll.index != a.next_index:
                raise Bad(where, _("digital roll number {index} where {due} was due "
                                   "(a roll removed, moved, reused or relabelled)").format(index=roll.index,
                                                                                            due=a.next_index))
            if roll.epoch != a.epoch:
                raise Bad(where, _("a roll from seed {epoch} while seed {epoch2} was the one in use").format(
                    epoch=roll.epoch, epoch2=a.epoch))
            a.next_index += 1
            a.rolls_in_epoch += 1

    def _seed_change(self, entry: Entry, where: str) -> None:
        a = self.audit
        d = entry.detail
        if d is None:
            if entry.kind == "reveal":
                raise Bad(where, _("a reveal without its seed details"))
            return
        if entry.kind == "reveal":
            if d.revealed_epoch != a.epoch:
                raise Bad(where, _("reveals seed {revealed_epoch} while seed {epoch} was the one in use").format(
                    revealed_epoch=d.revealed_epoch, epoch=a.epoch))
            if d.revealed_rolls != a.rolls_in_epoch:
                raise Bad(where, ngettext(
                    "says {said} digital roll came from seed {epoch}; the journal holds {held}",
                    "says {said} digital rolls came from seed {epoch}; the journal holds {held}",
                    d.revealed_rolls or 0).format(said=d.revealed_rolls, epoch=a.epoch, held=a.rolls_in_epoch))
            a.revealed[a.epoch] = entry.seq
        elif d.revealed_epoch is not None or d.revealed_rolls is not None:
            raise Bad(where, _("a note that reveals a seed"))
        if d.next_epoch != a.epoch + 1:
            raise Bad(where, _("commits seed {next_epoch} after seed {epoch}").format(
                next_epoch=d.next_epoch, epoch=a.epoch))
        a.epoch = d.next_epoch
        a.announced[a.epoch] = (d.next_commitment, entry.seq)
        a.rolls_in_epoch = 0

    def finish(self, seeds: Sequence[SeedEpoch], next_roll_index: int, secret: str | None, file: bool) -> Audit:
        """Checks the undone flags (of the entries read), the seeds and the roll counter.

        ``secret`` is the stored seed of the current epoch (a game file has one; an export none).

        Raises:
            Bad: the first problem.
        """
        a = self.audit
        in_play = set(a.active)
        for entry in a.entries:
            if entry.kind in ("action", "adjust") and entry.undone != (entry.seq not in in_play):
                state = _("marked undone") if entry.undone else _("in play")
                raise Bad(row_name(entry.seq), _("{state}, but its undo and redo entries say otherwise").format(
                    state=state))
            if entry.kind not in ("action", "adjust") and entry.undone:
                raise Bad(row_name(entry.seq), _("a {kind} entry marked undone").format(kind=entry.kind))
        if next_roll_index != a.next_index:
            raise Bad("next_roll_index", _("{index}, but the journal's digital rolls end at {last}").format(
                index=next_roll_index, last=a.next_index - 1))
        if [s.epoch for s in seeds] != list(range(a.epoch + 1)):
            found = ", ".join(str(s.epoch) for s in seeds) or _("none")
            raise Bad("seeds", _("epochs {found}; the journal commits to epochs 0 to {epoch}").format(
                found=found, epoch=a.epoch))
        announced = {0: (seeds[0].commitment, 0), **a.announced}
        for s in seeds:
            self._check_seed(s, announced[s.epoch], secret if s.epoch == a.epoch and file else s.seed,
                             s.epoch == a.epoch and file)
        return a

    def _check_seed(self, s: SeedEpoch, announced: tuple[str, int], seed: str | None, current: bool) -> None:
        where = f"seeds epoch {s.epoch}"
        if s.commitment != announced[0]:
            raise Bad(where, _("its commitment is not the one the journal announced (replaced)"))
        if s.created_seq != announced[1] or s.revealed_seq != self.audit.revealed.get(s.epoch):
            raise Bad(where, _("its created or revealed row differs from the journal's"))
        if s.revealed_seq is not None or current:
            if seed is None:
                raise Bad(where, _("the seed is missing"))
            if commitment(bytes.fromhex(seed)) != s.commitment:
                raise Bad(where, _("the seed does not match its commitment"))
        elif s.seed is not None:
            raise Bad(where, _("a seed that was never revealed"))
