"""The game file: one SQLite database per game, holding a journal that replays to the state.

A game file (``--file``, ``REFEREE_FILE`` or ``./game.referee``) stores the game slug, its
table set (verbatim, with its hash, so a game always replays with the tables it started with),
the committed dice seeds and the journal: every accepted action and override with its side,
text, parsed action, verdict, rolls, events, the state hash after it, and the time; plus the
undo, redo and reveal entries that keep the history honest. Sealed secrets are journaled as their
commitment only; their salt and value sit in a private ``secrets`` table for their owner
(:mod:`referee.sealed`, docs/decisions/secrets-and-viewers.md). Each write also keeps a
verified snapshot of the state, so opening a long game replays nothing
(docs/decisions/snapshots.md).

The package, along its seams: :mod:`~referee.journal.model` (records and the chain),
:mod:`~referee.journal.storage` (the SQLite codec), :mod:`~referee.journal.audit` (the chain
audit), :mod:`~referee.journal.replay` and :mod:`~referee.journal.snapshots`,
:mod:`~referee.journal.opening` (the state from the newest verified snapshot),
:mod:`~referee.journal.secrets`, :mod:`~referee.journal.exchange` (export and import),
:mod:`~referee.journal.install` (atomic install), :mod:`~referee.journal.gamefile` and
:mod:`~referee.journal.file` (:class:`GameFile`). The game registry is handed in by the caller
(``games``), never imported here.
"""

from referee.journal.audit import Audit, Auditor, Tip
from referee.journal.dice_check import DiceReport, RollCheck, verify_rolls
from referee.journal.exchange import Export, audit_export, parse_export, read_export
from referee.journal.file import GameFile
from referee.journal.install import install_copy, write_beside
from referee.journal.model import (
    CHAIN_VERSION,
    EXPORT_FORMAT,
    FORMAT,
    MAX_EXPORT_BYTES,
    MAX_SECRETS,
    MAX_SEQ,
    Entry,
    EntryKind,
    GameLookup,
    Reveal,
    SeedChange,
    SeedEpoch,
    UndoResult,
    genesis,
    link,
)

__all__ = [
    "CHAIN_VERSION", "EXPORT_FORMAT", "FORMAT", "MAX_EXPORT_BYTES", "MAX_SECRETS", "MAX_SEQ", "Audit", "Auditor",
    "DiceReport", "Entry", "EntryKind", "Export", "GameFile", "GameLookup", "Reveal", "RollCheck", "SeedChange",
    "SeedEpoch", "Tip", "UndoResult", "audit_export", "genesis",
    "install_copy", "link", "parse_export", "read_export", "verify_rolls", "write_beside",
]
