"""What a photo capture reports: readings in, the report out (see :mod:`.`, ``infer_turn``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from referee.games.cyrus_pyxis.actions import GRAMMAR
from referee.games.cyrus_pyxis.position import CyrusPosition
from referee.games.cyrus_pyxis.state import CyrusState
from referee.games.cyrus_pyxis.tables import Side
from referee.i18n import _, ngettext
from referee.rulings import Verdict

FATE_OFF = "off"
FATE_ELIMINATED = "eliminated"


class SeenCell(Protocol):
    """What the photo shows on one cell (``vision``'s cell readings fit this)."""

    @property
    def occupant(self) -> str | None: ...

    @property
    def terrain(self) -> str: ...

    @property
    def confidence(self) -> float: ...


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


class Question(BaseModel):
    """What the referee needs to know to settle on one explanation."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cell: str | None = Field(description="The cell asked about (None: a general question).")
    text: str = Field(description="The question: 'which legion is on D7: Athéna or Samos?'.")
    options: tuple[str, ...] = Field(default=(), description="The possible answers (legions).")


class Disagreement(BaseModel):
    """A cell the photo shows differently from anything a legal turn can produce."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cell: str | None
    seen: str = Field(description="What the photo shows there.")
    before: str = Field(description="What the position before had there.")
    problem: str


class CaptureReport(BaseModel):
    """``referee capture`` with a position: what the photo says happened."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    status: Literal["explained", "ambiguous", "unexplained", "unreadable"]
    side: Side = Field(description="The side whose turn was read.")
    moves: tuple[str, ...] = Field(default=(), description="The explanation's moves.")
    actions: tuple[str, ...] = Field(default=(), description="The whole turn to play, in order.")
    questions: tuple[Question, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    unreadable: tuple[str, ...] = Field(default=(), description="Cells read below the floor.")
    explanations: int = Field(default=0, description="Distinct end positions that fit.")
    complete: bool = Field(default=True, description="False if the search hit its limits.")
    position: CyrusPosition | None = Field(default=None, description="The position after.")
    notes: tuple[str, ...] = ()
    judged: tuple[tuple[CyrusState, Verdict] | None, ...] = Field(
        default=(), exclude=True, repr=False,
        description="For each action, the verdict the search reached and the state it judged it in: "
        "a game file playing the turn keeps them rather than judging again (never printed).")

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        side = _(self.side.value)
        lines: list[str] = []
        if self.status == "explained":
            lines.append(_("The {side} turn in the photo: {moves}").format(
                side=side, moves=", ".join(self.moves) or _("no move")))
            lines.append(_("to play: {actions}").format(actions="; ".join(GRAMMAR.say(a) for a in self.actions)))
        elif self.status == "ambiguous":
            if self.complete:
                lines.append(ngettext("{n} legal {side} turn fits the photo:", "{n} legal {side} turns fit the photo:",
                                      self.explanations).format(n=self.explanations, side=side))
            else:
                lines.append(ngettext("{n} legal {side} turn fits the photo (at least):",
                                      "{n} legal {side} turns fit the photo (at least):",
                                      self.explanations).format(n=self.explanations, side=side))
            lines += [f"? {q.text}" for q in self.questions]
        elif self.status == "unexplained":
            lines.append(_("no legal {side} turn explains the photo:").format(side=side))
            lines += [f"✗ {d.cell or '-'}: {d.problem}" for d in self.disagreements]
        else:
            lines.append(_("too many cells could not be read: {cells}").format(cells=", ".join(self.unreadable)))
        if self.unreadable and self.status != "unreadable":
            lines.append(_("cells not read clearly: {cells}").format(cells=", ".join(self.unreadable)))
        lines += [_("note: {note}").format(note=n) for n in self.notes]
        return lines
