"""Rulings, verdicts and the rules index that every citation resolves through.

``tables/<slug>/rules.yaml`` is the only home of section titles, our one-line paraphrases and
the interpretations we chose. A game resolves its citations once, at import::

    RULES = load_rules("cyrus-pyxis")
    MOVEMENT = RULES.ref("V")

An unknown section raises :class:`~referee.errors.TableError` at import, and
:meth:`Rules.uncited` lets a test fail on sections nothing cites.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    computed_field,
    model_serializer,
    model_validator,
)

from referee.errors import RefereeError, TableError
from referee.i18n import _, current, joined, ngettext

Provenance = Literal["rulebook", "secondary", "interpretation", "provisional", "reconstruction"]
"""Where a table value comes from. ``reconstruction`` is a provisional value rebuilt from
secondary material (used by Iliad's roster and calendar)."""

UNCERTAIN: frozenset[str] = frozenset({"interpretation", "provisional", "reconstruction"})
"""Provenances a ruling must disclose when it depends on them."""


class RuleRef(BaseModel):
    """A rule section as printed in a rulebook ("V", "IV.2-1", "6.4").

    ``title`` is our English title (stored in journals); :meth:`label` shows the title as the
    rulebook prints it in the active language (or in the rulebook's own language).
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    game: str
    section: str
    title: str

    def label(self) -> str:
        """Returns the section and its title for the active language ("V Mouvement"); a section
        keyed by its printed heading is shown once in that language ("Il calendario", not twice)."""
        title = printed_title(self.game, self.section, self.title)
        if title.casefold() == self.section.casefold():
            return self.section
        if " " in self.section and not any(c.isdigit() for c in self.section) and _keyed_by_us(self.game, self.section):
            return title  # a section we keyed by our own words ("base cards"): the rulebook's title alone
        return f"{self.section} {title}"

    def __str__(self) -> str:
        return self.label()


Arg = str | int | float
"""A value a ruling's message template is filled with."""


def render(template: str, args: Mapping[str, Arg], plural: str | None = None) -> str:
    """Returns a message template filled in the active language.

    The template is an English source string (a catalog msgid); string arguments are looked up
    in the catalogs too, so words marked with ``N_`` (terrains, sides) follow the language while
    names and cells pass through unchanged.
    """
    if plural is not None:
        count = args.get("n", 1)
        text = ngettext(template, plural, int(count) if isinstance(count, int | float) else 1)
    else:
        text = _(template)
    if not args:
        return text
    try:
        return joined(text.format(**{k: _(v) if isinstance(v, str) and v else v for k, v in args.items()}))
    except (KeyError, IndexError, ValueError):  # a broken translation: fall back to English
        return template.format(**args)


class Ruling(BaseModel):
    """One finding: a violation of a rule, or something an accepted action triggered.

    A ruling made from a template (``Ruling.violation("code", "{legion} is ...", cites,
    legion=...)``) keeps the template and its arguments, so :meth:`text` can say it again in
    another language (a log read in Italian); ``message`` is the sentence in the language that
    was active when it was made.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    code: str = Field(description="Stable kebab-case symbol, e.g. 'enemy-in-path'.")
    message: str = Field(description="One concrete sentence: names, cells, numbers, the limit.")
    cites: tuple[RuleRef, ...] = ()
    template: str | None = Field(default=None, description="English source of the message (catalog msgid).")
    plural: str | None = Field(default=None, description="English plural form, chosen by args['n'].")
    args: tuple[tuple[str, Arg], ...] = Field(default=(), description="Values the template is filled with.")

    @model_serializer(mode="wrap")
    def _compact(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        # rulings without a template serialize exactly as before (journal chains stay valid)
        data: dict[str, object] = handler(self)
        for key in ("template", "plural"):
            if data.get(key) is None:
                data.pop(key, None)
        if not data.get("args"):
            data.pop("args", None)
        return data

    @classmethod
    def make(
        cls, code: str, template: str, cites: tuple[RuleRef, ...] = (), plural: str | None = None,
        args: Mapping[str, Arg] | None = None,
    ) -> Ruling:
        """Returns a ruling whose message is ``template`` filled with ``args`` in the active language."""
        args = dict(args or {})
        message = render(template, args, plural)
        keep = template if (args or plural is not None or message != template) else None
        return cls(code=code, message=message, cites=cites, template=keep, plural=plural, args=tuple(args.items()))

    @classmethod
    def violation(cls, code: str, message: str, cites: tuple[RuleRef, ...] = (), **args: Arg) -> Ruling:
        """Returns a ruling saying an action breaks a rule (``message``: a template if ``args``)."""
        return cls.make(code, message, cites, None, args)

    @classmethod
    def event(cls, code: str, message: str, cites: tuple[RuleRef, ...] = (), **args: Arg) -> Ruling:
        """Returns a ruling saying what an accepted action triggered (a combat, a victory)."""
        return cls.make(code, message, cites, None, args)

    @classmethod
    def counted(
        cls, code: str, singular: str, plural: str, n: int, cites: tuple[RuleRef, ...] = (), **args: Arg
    ) -> Ruling:
        """Returns a ruling whose message has a singular and a plural form, chosen by ``n``."""
        return cls.make(code, singular, cites, plural, {**args, "n": n})

    def text(self) -> str:
        """Returns the message in the active language (its stored sentence if it has no template)."""
        if self.template is None and not self.args:
            return _(self.message)
        return render(self.template or self.message, dict(self.args), self.plural)

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
    printed: dict[str, str] = Field(
        default_factory=dict,
        description="The section's title as the rulebook prints it, by language code ({fr: Mouvement}); "
        "the first entry is the rulebook's own language.",
    )


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
        return f"interpretation {self.id}: {self.short or self.choice}"  # phrases.READING says it again


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
        known = {item.id: item.choice for item in self.interpretations}
        missing = [i for i in idents if i not in known]
        if missing:
            raise TableError(label, "interpretations", _("missing interpretation {name}").format(name=repr(missing[0])))
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
        found = self.index.sections.get(section)
        if found is None:
            raise TableError(f"{self.game}/rules.yaml", "sections", _("no section {name}").format(name=repr(section)))
        self._cited.add(section)
        return RuleRef(game=self.game, section=section, title=found.title)

    def uncited(self) -> list[str]:
        """Returns the sections of rules.yaml that no code ever cited."""
        return sorted(set(self.index.sections) - self._cited)

    def summary(self, ref: RuleRef) -> str:
        """Returns our paraphrase of a cited section, in the active language."""
        return _(self.index.sections[ref.section].summary)


def printed_title(game: str, section: str, fallback: str) -> str:
    """Returns a section's title for the active language: as printed in that language when the
    rulebook prints one, else our English title in English, else the rulebook's own title."""
    if current() == "en":
        return fallback
    try:
        found = _index_of(game).sections.get(section)
    except RefereeError:  # a game without a packaged rules index (a test engine): the stored title
        return fallback
    if found is None or not found.printed:
        return fallback
    return found.printed.get(current()) or next(iter(found.printed.values()))


def _keyed_by_us(game: str, section: str) -> bool:
    """True when the rulebook prints a title for this section, the section's key is none of its
    printed titles (a key of ours, not a heading such as Iliad's "Il calendario") and the active
    language is not English (in English a section shows its key and our title)."""
    try:
        found = _index_of(game).sections.get(section)
    except RefereeError:
        return False
    return (found is not None and bool(found.printed) and section not in found.printed.values()
            and current() != "en")


def section_summary(ref: RuleRef) -> str | None:
    """Returns our paraphrase of a cited section in the active language (``--explain``), or None
    for a game without a packaged rules index or a section it does not list."""
    try:
        found = _index_of(ref.game).sections.get(ref.section)
    except RefereeError:
        return None
    return _(found.summary) if found is not None else None


@cache
def _index_of(game: str) -> RulesIndex:
    return load_rules(game).index


def load_rules(slug: str) -> Rules:
    """Returns the packaged rules index of a game (overrides do not change citations).

    Raises:
        TableError: rules.yaml is missing or malformed.
    """
    from referee.tables import packaged_table_set, parse_yaml  # lazy: tables

    table_set = packaged_table_set(slug)
    index = parse_yaml(table_set.label("rules.yaml"), table_set.text("rules.yaml"), RulesIndex)
    return Rules(slug, index)
