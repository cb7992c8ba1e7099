"""Dice verification (``referee dice verify``): every digital roll re-derived from its revealed seed.

A game file's or an export's journal is first checked as a sequence by the journal's own audit
(:mod:`referee.journal`; a game file's from its first entry, every snapshot compared with the
full replay); :mod:`referee.journal.dice_check` then recomputes each digital roll with the seed
of its epoch and reports the ones that agree, those that do not, and those still awaiting a reveal.
"""

from __future__ import annotations

import os
from pathlib import Path

from referee.errors import GameFileError, InputFileError
from referee.files import parse_json, read_text, require_regular
from referee.journal import MAX_EXPORT_BYTES, GameFile, GameLookup, audit_export, parse_export
from referee.journal.dice_check import DiceReport, RollCheck, verify_rolls

__all__ = ["DiceReport", "RollCheck", "verify_file", "verify_rolls"]


def verify_file(path: Path, games: GameLookup) -> DiceReport:
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
        with GameFile.open(path, games) as gf:
            return gf.verify_dice()
    try:
        text = read_text(path, limit=MAX_EXPORT_BYTES, what=what)
        data = parse_json(str(path), text)
    except InputFileError as exc:
        raise GameFileError(f"{exc}") from None
    export = parse_export(str(path), data)
    audit = audit_export(str(path), export)
    return verify_rolls(export.game_id, export.seeds, audit.entries)
