"""PERS.IA announcements: numbered imperative steps with their rule, die and final numbers.

A :class:`PersiaReport` is what ``referee persia prepare|operate|supply`` prints (``--json``
dumps the same object); :class:`Announcer` collects the steps while the bot works.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from referee.games.earth_water.state import Battle
from referee.i18n import _
from referee.rulings import Arg, RuleRef, Ruling, printed_title, render

Procedure = Literal["prepare", "operate", "supply"]


class Step(BaseModel):
    """One numbered instruction for the player to carry out on the table."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(description="Step number, from 1.")
    rule: str = Field(description="Section of the solo (or base) rules that produced the step.")
    title: str = Field(description="That section's title.")
    text: str = Field(description="The instruction, with final numbers (in the language it was made in).")
    template: str | None = Field(default=None, description="English source of the text (catalog msgid).")
    args: dict[str, Arg] = Field(default_factory=dict, description="Values the template is filled with.")
    kind: str = Field(description="What the step does: roll, draw, bridge, fleets, armies, move, battle, "
                                  "destroy-army, destroy-fleet, place, discard, pass, fallback, attrition, "
                                  "lines, unspent, skipped.")
    counts: dict[str, int] = Field(default_factory=dict, description="Units per city this step adds or removes.")
    path: tuple[str, ...] = Field(default=(), description="Route of a move.")
    die: int | None = Field(default=None, description="The die face, on a roll step.")
    source: Literal["digital", "physical"] | None = Field(default=None, description="Who rolled the die.")
    interpretations: tuple[str, ...] = Field(default=(), description="Ids of interpretations the step used.")

    def said(self) -> str:
        """Returns the instruction in the active language."""
        return render(self.template, self.args) if self.template else self.text

    def cited(self) -> str:
        """Returns the step's section with its title as the rulebook prints it in the active language."""
        return f"{self.rule} {printed_title('300-solo', self.rule, self.title)}"


class PersiaReport(BaseModel):
    """What PERS.IA did: the steps, the die, the situation or face, and the pending battle."""

    model_config = ConfigDict(frozen=True)

    procedure: Procedure
    situation: str | None = Field(default=None, description="Preparation situation (A-D) or operation branch.")
    die: int | None = None
    die_source: Literal["digital", "physical"] | None = None
    steps: tuple[Step, ...]
    pending: Battle | None = Field(default=None, description="A battle the player must still fight.")
    interpretations: tuple[str, ...] = Field(default=(), description="Interpretations used, with the choice.")
    winner: str | None = None
    position: JsonValue = Field(default=None, description="The resulting position (position-file schema).")

    def explain(self) -> list[str]:
        """Returns the report as numbered lines for the terminal."""
        head = {"prepare": _("PERS.IA preparation"), "operate": _("PERS.IA operation"),
                "supply": _("PERS.IA supply")}
        title = head[self.procedure]
        if self.situation:
            title += f" — {self.situation}"
        lines = [title[:1].upper() + title[1:]]
        for step in self.steps:
            lines.append(f"{step.n}. {step.said()}  ({step.cited()})")
        if self.pending is not None:
            pending = (_("→ pending: naval battle in {city}; fight it with 'referee resolve' (or 'referee do fight')")
                       if self.pending.kind == "naval" else
                       _("→ pending: land battle in {city}; fight it with 'referee resolve' (or 'referee do fight')"))
            lines.append(pending.format(city=self.pending.city))
        if self.winner:
            lines.append(_("→ the game is over: {side} wins").format(side=_(self.winner.capitalize())))
        if self.interpretations:
            lines.append(relies_on(self.interpretations))
        return lines


def relies_on(labels: tuple[str, ...]) -> str:
    """Returns the warning line naming the interpretations a result relied on."""
    ids = ", ".join(label.split(":", 1)[0].removeprefix("interpretation ") for label in labels)
    return _("⚠ relies on interpretations {ids} (their choices: referee tables 300-solo, rules.yaml)").format(ids=ids)


class Announcer:
    """Collects the steps of one PERS.IA procedure and the interpretations they used."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.used: dict[str, str] = {}
        self.refs: list[tuple[RuleRef, ...]] = []

    def add(self, rule: RuleRef, kind: str, template: str, *, args: Mapping[str, Arg] | None = None,
            counts: dict[str, int] | None = None,
            path: tuple[str, ...] = (), die: int | None = None,
            source: Literal["digital", "physical"] | None = None,
            interpretations: tuple[tuple[str, str], ...] = (), also: tuple[RuleRef, ...] = ()) -> None:
        """Adds a step; ``template`` is an English source string (marked with ``N_``) filled with
        ``args``; ``interpretations`` are (id, label) pairs, ``also`` more sections it applies."""
        for ident, label in interpretations:
            self.used[ident] = label
        args = dict(args or {})
        self.steps.append(Step(
            n=len(self.steps) + 1, rule=rule.section, title=rule.title, text=render(template, args),
            template=template, args=args, kind=kind,
            counts=counts or {}, path=path, die=die, source=source,
            interpretations=tuple(i for i, _ in interpretations),
        ))
        self.refs.append((rule, *also))

    def events(self) -> tuple[Ruling, ...]:
        """Returns the steps as journal events (code = step kind)."""
        return tuple(Ruling(code=step.kind, message=f"{step.n}. {step.text}", cites=refs, template=step.template,
                            args=tuple(step.args.items()))
                     for step, refs in zip(self.steps, self.refs, strict=True))

    def labels(self) -> tuple[str, ...]:
        """Returns the disclosures of the interpretations used."""
        return tuple(self.used.values())
