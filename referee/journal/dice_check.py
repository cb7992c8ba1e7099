"""Every digital roll of a checked journal re-derived from its revealed seed (``referee dice verify``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from referee.dice import commitment, derive_faces
from referee.errors import DiceError
from referee.journal.model import Entry, SeedEpoch


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
    """Result of ``referee dice verify``: every digital roll checked against revealed seeds (and,
    for a game file, every snapshot against the full replay)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    game_id: str
    epochs: tuple[SeedEpoch, ...]
    bad_commitments: tuple[int, ...]
    checks: tuple[RollCheck, ...]
    physical: int
    snapshots: tuple[str, ...] = ()
    """One line per snapshot that disagrees with the full replay (never trusted)."""

    @property
    def ok(self) -> bool:
        """True when every revealed seed matches its commitment, every checked roll agrees, and no
        snapshot disagrees."""
        return not self.bad_commitments and not self.snapshots and all(c.status != "mismatch" for c in self.checks)


def verify_rolls(game_id: str, epochs: Sequence[SeedEpoch], entries: Sequence[Entry]) -> DiceReport:
    """Returns the check of every digital roll in ``entries`` against the revealed seeds.

    The entries must already have passed the sequence checks (:class:`~referee.journal.audit.Auditor`).
    """
    bad = tuple(
        e.epoch for e in epochs if e.seed is not None and commitment(bytes.fromhex(e.seed)) != e.commitment
    )
    by_epoch = {e.epoch: e for e in epochs}
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
