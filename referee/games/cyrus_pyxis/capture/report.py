"""What a photo capture reports: readings in, the report out (see :mod:`.`, ``infer_turn``)."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from referee.capture import CaptureReport
from referee.games.cyrus_pyxis.actions import GRAMMAR
from referee.games.cyrus_pyxis.position import CyrusPosition
from referee.games.cyrus_pyxis.tables import Side
from referee.i18n import _, ngettext

FATE_OFF = "off"
FATE_ELIMINATED = "eliminated"


@dataclass(frozen=True)
class Seen:
    """A plain :class:`SeenCell`: the side on the cell (or None), its terrain, a confidence."""

    occupant: str | None
    terrain: str
    confidence: float = 1.0


@dataclass(frozen=True)
class SearchLimits:
    """How far the search may go before it asks (it never guesses). Which cells are too doubtful
    to read is the photo reader's decision alone (its cells left out of ``seen``), not a limit here.

    Attributes:
        max_unreadable: more unreadable cells than this and the photo is not used.
        identity_floor: a counter whose best label score is below this is of unknown identity.
        identity_margin: every legion scoring within this of the best label score on a cell
            stays a candidate for that cell.
        joint_margin: when several legal turns fit, the one whose legions' label scores, summed
            over the cells the turns disagree on, beat every other's by this much is taken.
        max_nodes: chain-search steps before the search stops (the result is then incomplete).
        max_candidates: move sets played through the engine before the search stops.
        max_explanations: distinct positions collected before the search stops.
    """

    max_unreadable: int = 3
    identity_floor: float = 0.35
    identity_margin: float = 0.12
    joint_margin: float = 0.12
    max_nodes: int = 60_000
    max_candidates: int = 2_500
    max_explanations: int = 48


class CyrusCaptureReport(CaptureReport):
    """``referee capture`` with a position, for Cyrus & Pyxis: the core report, the side whose turn
    was read, its moves and the position after."""

    side: Side = Field(description="The side whose turn was read.")
    moves: tuple[str, ...] = Field(default=(), description="The explanation's moves.")
    position: CyrusPosition | None = Field(default=None, description="The position after.")

    def headline(self) -> list[str]:
        """Returns the first lines, naming the side and saying the turn in the game's notation."""
        side = _(self.side.value)
        if self.status == "explained":
            moves = ", ".join(self.moves) or _("no move")
            return [_("The {side} turn in the photo: {moves}").format(side=side, moves=moves),
                    _("to play: {actions}").format(actions="; ".join(GRAMMAR.say(a) for a in self.actions))]
        if self.status == "ambiguous":
            n = self.explanations
            if self.complete:
                return [ngettext("{n} legal {side} turn fits the photo:", "{n} legal {side} turns fit the photo:",
                                 n).format(n=n, side=side)]
            return [ngettext("{n} legal {side} turn fits the photo (at least):",
                             "{n} legal {side} turns fit the photo (at least):", n).format(n=n, side=side)]
        if self.status == "unexplained":
            return [_("no legal {side} turn explains the photo:").format(side=side)]
        return super().headline()
