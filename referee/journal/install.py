"""Building a game file beside its place, then moving it there in one step.

Nothing is deleted before its replacement is complete: a new or imported game is built under a
temporary name in the target's folder and installed with one rename (:mod:`referee.writing`).
"""

from __future__ import annotations

import os
from contextlib import suppress
from pathlib import Path

from referee.errors import GameFileError, InputFileError, RefereeError
from referee.files import require_regular
from referee.i18n import _
from referee.writing import install, write_output


def check_target(path: Path, force: bool) -> None:
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


def folder_of(path: Path) -> Path:
    """Returns the folder a game file lies in."""
    return path.parent if str(path.parent) else Path(".")


def remove(path: Path) -> None:
    """Removes a temporary game file and its SQLite journal, if there."""
    for p in (path, path.with_name(path.name + "-journal")):
        with suppress(OSError):
            p.unlink()


def install_file(tmp: Path, path: Path) -> None:
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
