"""Rulings, verdicts and the rules index that every citation resolves through.

``tables/<slug>/rules.yaml`` is the only home of section titles, our one-line paraphrases and
the interpretations we chose. A game resolves its citations once, at import::

    RULES = load_rules("cyrus-pyxis")
    MOVEMENT = RULES.ref("V")

An unknown section raises :class:`~referee.errors.TableError` at import, and
:meth:`Rules.uncited` lets a test fail on sections nothing cites.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field, model_validator

Provenance = Literal["rulebook", "secondary", "interpretation", "provisional", "reconstruction"]
"""Where a table value comes from. ``reconstruction`` is a provisional value rebuilt from
secondary material (used by Iliad's roster and calendar)."""

UNCERTAIN: frozenset[str] = frozenset({"interpretation", "provisional", "reconstruction"})
"""Provenances a ruling must disclose when it depends on them."""


class RuleRef(BaseModel):
    """A rule section as printed in a rulebook ("V", "IV.2-1", "6.4")."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    game: str
    section: str
    title: str

    def __str__(self) -> str:
        return f"{self.section} {self.title}"


class Ruling(BaseModel):
    """One finding: a violation of a rule, or something an accepted action triggered."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    code: str = Field(description="Stable kebab-case symbol, e.g. 'enemy-in-path'.")
    message: str = Field(description="One concrete sentence: names, cells, numbers, the limit.")
    cites: tuple[RuleRef, ...] = ()

    @classmethod
    def violation(cls, code: str, message: str, cites: tuple[RuleRef, ...] = ()) -> Ruling:
        """Returns a ruling saying an action breaks a rule."""
        return cls(code=code, message=message, cites=cites)

    @classmethod
    def event(cls, code: str, message: str, cites: tuple[RuleRef, ...] = ()) -> Ruling:
        """Returns a ruling saying what an accepted action triggered (a combat, a victory)."""
        return cls(code=code, message=message, cites=cites)


class Verdict(BaseModel):
    """Whether an action is legal now, with every violation and what it triggers."""

    model_config = ConfigDict(frozen=True, defer_build=True)

    action: str
    violations: tuple[Ruling, ...] = ()
    notes: tuple[Ruling, ...] = Field(
        default=(), description="What the action triggers if played (combat, victory, ...)."
    )
    provisional: tuple[str, ...] = Field(
        default=(),
        description="Provisional table values and interpretations the verdict relied on.",
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def legal(self) -> bool:
        """True when nothing is violated."""
        return not self.violations

    def codes(self) -> tuple[str, ...]:
        """Returns the violation codes in order."""
        return tuple(v.code for v in self.violations)


class Section(BaseModel):
    """A rule section: our title and one-line paraphrase (never the rulebook's words)."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    title: str = Field(description="Short English title of the section.")
    summary: str = Field(description="Our one-line paraphrase of what the section says.")
    provenance: Provenance = Field(default="rulebook", description="Where the section comes from.")


class Interpretation(BaseModel):
    """A point the rulebook leaves open, and the reading the referee applies."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(description="Stable id used by the engine and in verdicts.")
    question: str = Field(description="What the rulebook leaves open.")
    choice: str = Field(description="The reading applied (one of options when options are set).")
    short: str | None = Field(default=None, description="A few words naming the choice in rulings.")
    options: tuple[str, ...] = Field(
        default=(), description="Readings players use; set choice to one of them to switch."
    )
    cites: tuple[str, ...] = Field(default=(), description="Sections the question arises from.")
    provenance: Provenance = "interpretation"

    def label(self) -> str:
        """Returns the disclosure used in verdicts: 'interpretation id: choice' (or its short form)."""
        return f"interpretation {self.id}: {self.short or self.choice}"


class RulesIndex(BaseModel):
    """Schema of ``tables/<slug>/rules.yaml``."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    sections: dict[str, Section] = Field(description="Sections keyed as printed in the rulebook.")
    interpretations: tuple[Interpretation, ...] = ()

    @model_validator(mode="after")
    def _choices_are_options(self) -> RulesIndex:
        for item in self.interpretations:
            if item.options and item.choice not in item.options:
                raise ValueError(f"interpretations.{item.id}.choice: must be one of {', '.join(item.options)}")
        return self

    def interpretation(self, ident: str) -> Interpretation:
        """Returns the interpretation with this id.

        Raises:
            KeyError: no interpretation has this id (a programming error in a game).
        """
        for item in self.interpretations:
            if item.id == ident:
                return item
        raise KeyError(ident)

    def require(self, label: str, idents: Iterable[str]) -> dict[str, str]:
        """Returns the choice of each interpretation an engine applies.

        Raises:
            TableError: one of them is missing from rules.yaml.
        """
        from referee.errors import TableError

        known = {item.id: item.choice for item in self.interpretations}
        missing = [i for i in idents if i not in known]
        if missing:
            raise TableError(label, "interpretations", f"missing interpretation {missing[0]!r}")
        return {i: known[i] for i in idents}


class Rules:
    """A game's rules index with import-time citation checks."""

    def __init__(self, game: str, index: RulesIndex) -> None:
        self.game = game
        self.index = index
        self._cited: set[str] = set()

    def ref(self, section: str) -> RuleRef:
        """Returns the reference of a section, recording that it is cited.

        Raises:
            TableError: the section is not in rules.yaml.
        """
        from referee.errors import TableError

        found = self.index.sections.get(section)
        if found is None:
            raise TableError(f"{self.game}/rules.yaml", "sections", f"no section {section!r}")
        self._cited.add(section)
        return RuleRef(game=self.game, section=section, title=found.title)

    def uncited(self) -> list[str]:
        """Returns the sections of rules.yaml that no code ever cited."""
        return sorted(set(self.index.sections) - self._cited)

    def summary(self, ref: RuleRef) -> str:
        """Returns our paraphrase of a cited section."""
        return self.index.sections[ref.section].summary


def load_rules(slug: str) -> Rules:
    """Returns the packaged rules index of a game (overrides do not change citations).

    Raises:
        TableError: rules.yaml is missing or malformed.
    """
    from referee.tables import packaged_table_set, parse_yaml

    table_set = packaged_table_set(slug)
    index = parse_yaml(table_set.label("rules.yaml"), table_set.text("rules.yaml"), RulesIndex)
    return Rules(slug, index)
