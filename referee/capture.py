"""Photo capture's shapes: what a photo reader hands a game's capture rules, and what they return.

The photo reader (``vision``) and a game's capture rules never import each other; both use the
shapes here. A reader says per cell which side stands there and on what terrain, with a
confidence (anything with those three attributes is a :class:`SeenCell`; ``vision``'s cell
readings are). A game's capture rules (the ``CaptureRules`` protocol in
:mod:`referee.capabilities`) answer with a :class:`CaptureReport`: the turn to play, the questions
to ask, or the cells no legal turn explains. The command line reads only these fields, so it
handles every game's report alike; a game's report may add fields of its own and say its first
lines in its own words (:meth:`CaptureReport.headline`). Before the reader looks, the rules may
also say what each cell can hold after the turn (:data:`CellPriors`), as plain data the reader
weighs its evidence with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from referee.game import GameState
from referee.i18n import _, ngettext
from referee.rulings import Verdict

__all__ = ["CaptureReport", "CaptureStatus", "CellContent", "CellPriors", "Disagreement", "Question", "SeenCell"]

CellContent = tuple[str | None, str]
"""What a cell holds: the side standing there (None: nobody) and its terrain (the shape of
``CaptureRules.cell_contents``' values)."""

CellPriors = Mapping[str, Mapping[CellContent, float]]
"""Cell name → content → probability from the rules alone (each cell's values sum to 1): what a
game's capture rules tell a photo reader before it looks (``CaptureRules.cell_priors``)."""

CaptureStatus = Literal["explained", "ambiguous", "unexplained", "unreadable"]
"""explained: exactly one legal turn fits (it may be played); ambiguous: several fit, or the one
that fits changes cells the photo does not show clearly (questions follow); unexplained: none
fits (disagreements follow); unreadable: too many cells could not be read to try."""


class SeenCell(Protocol):
    """What the photo shows on one cell: the side standing there (None: nobody), the terrain, and
    how sure the reader is."""

    @property
    def occupant(self) -> str | None: ...

    @property
    def terrain(self) -> str: ...

    @property
    def confidence(self) -> float: ...


class Question(BaseModel):
    """What the referee needs to know to settle on one explanation."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cell: str | None = Field(description="The cell asked about (None: a general question).")
    text: str = Field(description="The question: 'which legion is on D7: Athéna or Samos?'.")
    options: tuple[str, ...] = Field(default=(), description="The possible answers (counters).")


class Disagreement(BaseModel):
    """A cell the photo shows differently from anything a legal turn can produce."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    cell: str | None
    seen: str = Field(description="What the photo shows there.")
    before: str = Field(description="What the position before had there.")
    problem: str


class CaptureReport(BaseModel):
    """``referee capture`` with a position: what the photo says happened, in the fields the
    command line reads (a game's report adds its own, such as the side or the position after)."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    status: CaptureStatus
    actions: tuple[str, ...] = Field(default=(), description="The whole turn to play, in order.")
    questions: tuple[Question, ...] = ()
    disagreements: tuple[Disagreement, ...] = ()
    unreadable: tuple[str, ...] = Field(default=(), description="Cells read below the floor.")
    explanations: int = Field(default=0, description="Distinct end positions that fit.")
    complete: bool = Field(default=True, description="False if the search hit its limits.")
    notes: tuple[str, ...] = ()
    judged: tuple[tuple[GameState, Verdict] | None, ...] = Field(
        default=(), exclude=True, repr=False,
        description="For each action, the verdict the search reached and the state it judged it in: "
        "a game file playing the turn keeps them rather than judging again (never printed).")

    def explain(self) -> list[str]:
        """Returns the report as lines for the terminal."""
        lines = self.headline()
        if self.status == "ambiguous":
            lines += [f"? {q.text}" for q in self.questions]
        elif self.status == "unexplained":
            lines += [f"✗ {d.cell or '-'}: {d.problem}" for d in self.disagreements]
        if self.unreadable and self.status != "unreadable":
            lines.append(_("cells not read clearly: {cells}").format(cells=", ".join(self.unreadable)))
        lines += [_("note: {note}").format(note=n) for n in self.notes]
        return lines

    def headline(self) -> list[str]:
        """Returns the report's first lines, what was read; a game's report may say them in its
        own words (naming the side, saying the actions in the game's notation)."""
        if self.status == "explained":
            return [_("to play: {actions}").format(actions="; ".join(self.actions))]
        if self.status == "ambiguous":
            n = self.explanations
            if not self.complete:
                return [ngettext("{n} legal turn fits the photo (at least):",
                                 "{n} legal turns fit the photo (at least):", n).format(n=n)]
            return [ngettext("{n} legal turn fits the photo:", "{n} legal turns fit the photo:", n).format(n=n)]
        if self.status == "unexplained":
            return [_("no legal turn explains the photo:")]
        return [_("too many cells could not be read: {cells}").format(cells=", ".join(self.unreadable))]
