"""Dice verification (``referee dice verify``): every digital roll re-derived from its revealed seed.

A game file's or an export's journal is first checked as a sequence by the journal's own audit
(:mod:`referee.journal`); this module then recomputes each digital roll with the seed of its
epoch and reports the ones that agree, those that do not, and those still awaiting a reveal.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from referee.dice import commitment, derive_faces
from referee.errors import DiceError, GameFileError, InputFileError
from referee.files import parse_json, read_text, require_regular
from referee.journal import MAX_EXPORT_BYTES, Entry, GameFile, SeedEpoch, audit_export, parse_export

__all__ = ["DiceReport", "RollCheck", "verify_file", "verify_rolls"]


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


def verify_rolls(game_id: str, epochs: Sequence[SeedEpoch], entries: Sequence[Entry]) -> DiceReport:
    """Returns the check of every digital roll in ``entries`` against the revealed seeds.

    The entries must already have passed the sequence checks (:class:`Auditor`).
    """
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
    """Verifies the dice of a game file or of a JSON export (after checking it as a sequence).

    Raises:
        GameFileError: the file is neither, or its journal does not hold together.
    """
    what = "game file or referee export"
    try:
        require_regular(path, what=what)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            head = os.read(fd, 16)
        finally:
            os.close(fd)
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read ({(exc.strerror or type(exc).__name__).lower()})") from None
    except InputFileError as exc:
        raise GameFileError(str(exc)) from None
    if head.startswith(b"SQLite format 3\x00"):
        with GameFile.open(path) as gf:
            return gf.verify_dice()
    try:
        text = read_text(path, limit=MAX_EXPORT_BYTES, what=what)
        data = parse_json(str(path), text)
    except InputFileError as exc:
        raise GameFileError(f"{exc}") from None
    export = parse_export(str(path), data)
    audit = audit_export(str(path), export)
    return verify_rolls(export.game_id, export.seeds, audit.entries)
