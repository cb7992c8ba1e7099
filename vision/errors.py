"""Every error the vision package raises on purpose (the CLI turns each into one red line).

They derive from :class:`referee.errors.RefereeError`, so the command line's one error boundary
(``referee.cli.common.guarded``) reports them like any other referee error: one line, exit 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.errors import RefereeError
from referee.i18n import _, ngettext


class VisionError(RefereeError):
    """A photo or a calibration file cannot be used; the message says why."""


class BoardNotFoundError(VisionError):
    """No board could be located in the photo (or not well enough to read it)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

        super().__init__(_("board not found: {reason}").format(reason=reason))


class LowConfidenceError(VisionError):
    """Too many cells were read with too little confidence to trust the photo."""

    def __init__(self, cells: Sequence[str], detail: str = "") -> None:
        self.cells = tuple(cells)
        shown = ", ".join(self.cells[:12]) + (" ..." if len(self.cells) > 12 else "")
        extra = f" ({_(detail)})" if detail else ""
        n = len(self.cells)
        super().__init__(
            ngettext("{n} cell could not be read with confidence{extra}: {cells}",
                     "{n} cells could not be read with confidence{extra}: {cells}", n).format(
                n=n, extra=extra, cells=shown)
        )
        self.hint = _(
            "retake the photo from above, evenly lit, with the whole board and its markers in view"
        )


class PriorsError(VisionError, ValueError):
    """The rules' priors given to the reader do not fit the board (a caller's mistake, so a
    ``ValueError`` too); the message names the cell and what is wrong."""
