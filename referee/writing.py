"""Writing the files the referee makes: beside the target first, then renamed into place.

Every output goes through here (an export, a set-up file, a picture of the board, a debug picture,
a marker sheet, a calibration, exported tables, a kept demo game, and new game files), so each one
gets the same protections:

* a game file (recognised by its content, an SQLite header and the referee's tables, never by
  its name) is never replaced by another output, not even with ``--force``;
* any other existing file is replaced only when the user said ``--force``;
* the bytes go to a temporary file beside the target (same folder, so the rename is atomic),
  flushed to disk, then renamed over the target: a full disk or a kill leaves the old file whole;
* each temporary is named ``.NAME.<12 hex digits>.referee-tmp`` and locked (``flock``) by its
  writer for as long as it lives; the next write or game-file open in that folder removes the
  temporaries nobody holds any more (a writer killed mid-way), and nothing else.

Entry points: :func:`write_output`, :func:`check_output`, :func:`temporary_beside`,
:func:`sweep_temporaries`.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import secrets
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

from referee.errors import OutputFileError
from referee.files import SQLITE_HEADER, file_kind, sqlite_uri
from referee.i18n import _

__all__ = [
    "TEMP_SUFFIX",
    "check_output",
    "commits",
    "install",
    "is_game_file",
    "is_temporary",
    "last_commit",
    "note_commit",
    "sweep_temporaries",
    "temporary_beside",
    "write_output",
]

TEMP_SUFFIX = ".referee-tmp"
"""How every temporary the referee writes ends (``.game.referee.0a1b2c3d4e5f.referee-tmp``)."""

_TEMP = re.compile(r"\..{1,80}\.[0-9a-f]{12}\.referee-tmp(-journal)?", re.DOTALL)
_GAME_TABLES = frozenset({"meta", "journal"})


_COMMITS: list[tuple[str, int]] = []
"""(game file, last journal number) of every write this process committed to a game file, in order."""


def note_commit(path: Path | str, seq: int) -> None:
    """Records that a write to a game file committed (its last journal number)."""
    _COMMITS.append((os.fsdecode(path), seq))


def commits() -> int:
    """Returns how many writes this process has committed to game files (any file): the command
    line's boundary compares it before and after a command whose output failed."""
    return len(_COMMITS)


def last_commit() -> tuple[str, int] | None:
    """Returns the game file and journal number of this process's last committed write, if any."""
    return _COMMITS[-1] if _COMMITS else None


def is_temporary(name: str) -> bool:
    """True for the name of a temporary the referee writes (or its SQLite side journal).

    >>> is_temporary(".game.referee.0123456789ab.referee-tmp"), is_temporary("game.referee")
    (True, False)
    """
    return _TEMP.fullmatch(name) is not None


def is_game_file(path: Path | str) -> bool:
    """True when ``path`` holds a referee game file: an SQLite database with the journal's tables.

    An SQLite database whose schema cannot be read (damaged, or being written) counts as one: it
    is never overwritten by an output either. Nothing is written: the file is opened read-only
    and immutable (no lock, no journal recovery).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError):
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode) or os.read(fd, len(SQLITE_HEADER)) != SQLITE_HEADER:
            return False
    except OSError:
        return False
    finally:
        os.close(fd)
    try:
        conn = sqlite3.connect(sqlite_uri(path, "ro", immutable=True), uri=True)
        try:
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except (sqlite3.Error, UnicodeDecodeError):
        return True
    return names >= _GAME_TABLES


def check_output(path: Path, *, force: bool, what: str) -> bool:
    """Refuses a target an output may not be written to; returns True when it is a character device
    (``/dev/null``, a terminal), which is written directly, having nothing to replace.

    Raises:
        OutputFileError: a folder, a FIFO or a socket; a game file (always); any other existing file
            without ``force``.
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False  # a missing folder is said by the write itself (no such file or directory)
    except (OSError, ValueError) as exc:
        raise _cannot(path, what, exc) from None
    if stat.S_ISCHR(mode):
        return True
    kind = file_kind(mode)
    if kind is not None:
        raise OutputFileError(_("{path} is {kind}; cannot write a {what} there").format(
            path=path, kind=kind, what=_(what)))
    if is_game_file(path):
        raise OutputFileError(_("{path} is a game file; a {what} never replaces one (pick another name)").format(
            path=path, what=_(what)))
    if not force:
        raise OutputFileError(_("{path}: a file is already there; add --force to replace it, or pick another "
                                "name").format(path=path))
    return False


def _cannot(path: Path, what: str, exc: OSError | ValueError) -> OutputFileError:
    """Returns the one-line error of a write that failed (the system's reason in lower case)."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else _("not a usable path")
    return OutputFileError(_("{path}: cannot write the {what} ({reason})").format(
        path=path, what=_(what), reason=reason.lower()))


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


@contextlib.contextmanager
def temporary_beside(path: Path, what: str = "file") -> Iterator[Path]:
    """Yields a fresh, empty, locked temporary file beside ``path``; removes it when the block ends
    unless it was moved into place.

    The lock (``flock``) is held until the block ends, so :func:`sweep_temporaries` in another
    process leaves it alone; move it into place with :func:`install` inside the block.

    Raises:
        OutputFileError: the folder cannot be written.
    """
    folder = _folder(path)
    tmp = folder / f".{path.name[:80]}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
    try:
        fd = _create_locked(folder, tmp)
    except OSError as exc:
        raise _cannot(path, what, exc) from None
    try:
        yield tmp
    finally:  # installed, it is gone; otherwise (a failure, or nothing installed) it goes now
        _unlink(tmp)
        _unlink(tmp.with_name(tmp.name + "-journal"))  # SQLite's, when a game file was being built
        os.close(fd)


def _create_locked(folder: Path, tmp: Path) -> int:
    """Returns the descriptor of a new empty file at ``tmp``, locked (``flock``) before its name
    appears: made unnamed (``O_TMPFILE``) and linked in once locked, so a sweep never finds it
    unlocked. Where the file system cannot do that, it is made by name and locked at once (a sweep
    in that instant would remove it, and the write would then fail cleanly on its rename).

    Raises:
        OSError: the folder cannot be written.
    """
    flags = os.O_RDWR | os.O_CLOEXEC
    try:
        fd = os.open(folder, flags | os.O_TMPFILE, 0o644)
    except (OSError, AttributeError):
        fd = -1
    if fd >= 0:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            os.link(f"/proc/self/fd/{fd}", tmp)  # linkat(..., AT_SYMLINK_FOLLOW): the locked inode, named
            return fd
        except OSError:
            os.close(fd)
    fd = os.open(tmp, flags | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return fd


def install(tmp: Path, path: Path, what: str = "file") -> None:
    """Renames a finished temporary over ``path`` in one step, then makes the rename durable.

    Raises:
        OutputFileError: the rename failed (the temporary is left for the caller to remove).
    """
    try:
        os.replace(tmp, path)
    except OSError as exc:
        raise _cannot(path, what, exc) from None
    with contextlib.suppress(OSError):  # the rename is done; syncing the folder only makes it durable sooner
        fd = os.open(_folder(path), os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_output(path: Path, data: bytes, *, force: bool = False, what: str = "file") -> None:
    """Writes ``data`` to ``path`` through a temporary beside it (see the module's rules).

    Raises:
        OutputFileError: the target is refused by :func:`check_output`, or cannot be written.
    """
    if check_output(path, force=force, what=what):
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise _cannot(path, what, exc) from None
        return
    sweep_temporaries(_folder(path))
    with temporary_beside(path, what) as tmp:
        try:
            with open(tmp, "r+b") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise _cannot(path, what, exc) from None
        install(tmp, path, what)


def sweep_temporaries(folder: Path) -> int:
    """Removes the temporaries a killed writer left in ``folder`` (and their SQLite side journals);
    returns how many files went. A temporary still locked by its writer is left alone. Never raises.
    """
    try:
        names = [e.name for e in os.scandir(folder) if is_temporary(e.name)]
    except (OSError, ValueError):
        return 0
    removed = 0
    for name in sorted(names, key=lambda n: n.endswith("-journal")):
        path = folder / name
        if name.endswith("-journal"):
            main = path.with_name(name.removesuffix("-journal"))
            if not os.path.lexists(main):  # its database went (swept above): the journal is nobody's
                removed += _unlink(path)
            continue
        removed += _sweep_one(path)
    return removed


def _sweep_one(path: Path) -> int:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return 0
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return 0
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return 0  # its writer is alive
        return _unlink(path) + _unlink(path.with_name(path.name + "-journal"))
    finally:
        os.close(fd)


def _unlink(path: Path) -> int:
    try:
        os.unlink(path)
    except OSError:
        return 0
    return 1
