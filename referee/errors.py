"""Every exception the referee raises on purpose.

Breaking a rule is not an exception (``judge`` returns a :class:`~referee.rulings.Verdict`);
these are for input the referee cannot work with. The CLI turns each into one red line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.i18n import N_, _, ngettext

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


KINDS = (N_("game"), N_("player"), N_("language"), N_("side"), N_("cell"), N_("square"), N_("hex"),
         N_("terrain"), N_("city"), N_("hero"), N_("legion"), N_("legion or action"), N_("unit"),
         N_("hidden secret"), N_("action"), N_("counter"))
"""The kinds of name :class:`UnknownNameError` is raised for (said in the reader's language)."""


class UnknownNameError(RefereeError, LookupError):
    """No such game, unit, cell or city; carries the closest names (``kind`` stays English)."""

    def __init__(self, kind: str, name: str, suggestions: Sequence[str] = ()) -> None:
        self.kind, self.name, self.suggestions = kind, name, tuple(suggestions)
        msg = _("unknown {kind} {name}").format(kind=_(kind), name=repr(name))
        if self.suggestions:
            names = _(" or ").join(repr(s) for s in self.suggestions)
            msg += _("; did you mean {names}?").format(names=names)
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
        detail = f"{first.text()} [{first.code}]" if first else _("rejected")
        more = len(verdict.violations) - 1
        if more > 0:
            detail += " " + ngettext("(+{n} more)", "(+{n} more)", more).format(n=more)
        super().__init__(_("illegal {action}: {detail}").format(action=repr(verdict.action), detail=detail))


class GameFileError(RefereeError):
    """A game file is missing, not a referee game file, corrupt, or cannot be written."""


class UndoError(RefereeError):
    """An undo or redo was refused (nothing to undo, or it would take back a roll)."""


class DiceError(RefereeError, ValueError):
    """Typed dice do not fit the roll (wrong count, a face out of range), or verification failed."""


class OutputFileError(RefereeError):
    """A file the referee was asked to write cannot be written there: one line naming the file."""


class StaleStateError(RefereeError):
    """A move was sent from a state the game has left (another device or the CLI moved first)."""
