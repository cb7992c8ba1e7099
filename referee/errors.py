"""Every exception the referee raises on purpose.

Breaking a rule is not an exception (``judge`` returns a :class:`~referee.rulings.Verdict`);
these are for input the referee cannot work with. The CLI turns each into one red line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.rulings import Verdict


class RefereeError(Exception):
    """Base for every error the referee raises on purpose."""

    hint: str | None = None


class InputFileError(RefereeError):
    """A file given to the referee cannot be used: one line naming the file, the place and the problem."""

    def __init__(self, file: str, field: str, problem: str) -> None:
        self.file, self.field, self.problem = file, field, problem
        where = f"{file}: {field}" if field else file
        super().__init__(f"{where}: {problem}")


class TableError(InputFileError):
    """A table file is missing or does not match its schema."""


class PositionError(InputFileError):
    """A position file is unreadable, malformed or describes an impossible position."""


class ArgumentError(RefereeError, ValueError):
    """A command-line argument cannot be used (too long, not text); exit 1, not a usage error."""


class UnknownNameError(RefereeError, LookupError):
    """No such game, unit, cell or city; carries the closest names."""

    def __init__(self, kind: str, name: str, suggestions: Sequence[str] = ()) -> None:
        self.kind, self.name, self.suggestions = kind, name, tuple(suggestions)
        msg = f"unknown {kind} {name!r}"
        if self.suggestions:
            msg += "; did you mean " + " or ".join(repr(s) for s in self.suggestions) + "?"
        super().__init__(msg)


class NotationError(RefereeError, ValueError):
    """Action text could not be parsed (syntax, not rules)."""


class AmbiguousActionError(RefereeError, ValueError):
    """Action text matches several legal actions."""


class IllegalActionError(RefereeError, ValueError):
    """play() got an action the rules forbid; carries the Verdict."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        first = verdict.violations[0] if verdict.violations else None
        detail = f"{first.message} [{first.code}]" if first else "rejected"
        more = len(verdict.violations) - 1
        if more > 0:
            detail += f" (+{more} more)"
        super().__init__(f"illegal {verdict.action!r}: {detail}")


class GameFileError(RefereeError):
    """A game file is missing, not a referee game file, corrupt, or cannot be written."""


class UndoError(RefereeError):
    """An undo or redo was refused (nothing to undo, or it would take back a roll)."""


class DiceError(RefereeError, ValueError):
    """Typed dice do not fit the roll (wrong count, a face out of range), or verification failed."""
