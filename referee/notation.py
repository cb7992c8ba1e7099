"""A game's action grammar as data: its keywords in every language, and one form per action.

Each game declares a :class:`Grammar`: the keywords its notation uses (each with its English,
French and Italian words) and the forms of its actions (syntax, example, a one-line summary and
the sections they cite). Parsers ask the grammar what a typed word means, so ``forêt C5``,
``foresta C5`` and ``forest C5`` are the same action; the journal keeps the canonical (English)
notation, and :meth:`Grammar.say` shows it in the active language (a log started in French can be
read in Italian). ``do --help``, the ``play`` shell's ``help``, parse errors and the docs'
notation lists are generated from the same forms.

>>> g = Grammar(words=(Keyword("forest", fr=("forêt",), it=("foresta", "bosco")),), forms=())
>>> g.keyword("Forêt"), g.keyword("bosco"), g.keyword("C5")
('forest', 'forest', None)
>>> from referee.i18n import language
>>> with language("it"):
...     g.say("forest C5")
'foresta C5'
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cached_property

from referee.base import fold
from referee.i18n import _, current

__all__ = ["Form", "Grammar", "Keyword"]


@dataclass(frozen=True)
class Keyword:
    """A word of the notation: its canonical (English) form and what each language types.

    The first word of a language is the one the referee writes in that language; the others
    (synonyms, the English word) are accepted too. Matching ignores case and accents.
    """

    key: str
    en: tuple[str, ...] = ()
    fr: tuple[str, ...] = ()
    it: tuple[str, ...] = ()

    def words(self, lang: str) -> tuple[str, ...]:
        """Returns the words of a language, the canonical key first for English."""
        if lang == "en":
            return (self.key, *self.en)
        found: tuple[str, ...] = getattr(self, lang, ())
        return found

    def all_words(self) -> tuple[str, ...]:
        """Returns every accepted spelling, in every language."""
        return (self.key, *self.en, *self.fr, *self.it)


@dataclass(frozen=True)
class Form:
    """One action form: its syntax (keywords in braces), an example, a summary, its sections.

    ``syntax`` and ``example`` are written with canonical keywords in braces, e.g.
    ``"{support} ARCHER LEGION"`` and ``"{support} Messène Athéna"``; :meth:`Grammar.usage`
    writes them in the active language. ``summary`` is an English source string, translated
    through the catalogs (mark it with ``N_``).
    """

    syntax: str
    example: str
    summary: str
    cites: tuple[str, ...] = ()
    adjust: bool = False


@dataclass(frozen=True)
class Grammar:
    """A game's keywords and action forms (see the module docstring)."""

    words: tuple[Keyword, ...]
    forms: tuple[Form, ...]

    @cached_property
    def _index(self) -> dict[str, str]:
        index: dict[str, str] = {}
        for kw in self.words:
            for word in kw.all_words():
                index.setdefault(fold(word), kw.key)
        return index

    def keyword(self, word: str) -> str | None:
        """Returns the canonical key a typed word means (any language), or None."""
        return self._index.get(fold(word))

    def is_(self, word: str, *keys: str) -> bool:
        """True when a typed word is one of the canonical keywords ``keys``."""
        return self.keyword(word) in keys

    def close(self, word: str, n: int = 3) -> list[str]:
        """Returns keywords (in the active language) that look like a mistyped word."""
        lang = current()
        shown = {fold(w): self.word(self._index[fold(w)], lang) for kw in self.words for w in kw.all_words()}
        hits = difflib.get_close_matches(fold(word), list(shown), n=n * 2, cutoff=0.6)
        return list(dict.fromkeys(shown[h] for h in hits))[:n]

    def word(self, key: str, lang: str | None = None) -> str:
        """Returns how the language writes a canonical keyword (the key itself if unknown)."""
        lang = lang or current()
        for kw in self.words:
            if kw.key == key:
                spelled = kw.words(lang)
                return spelled[0] if spelled else kw.key
        return key

    def say(self, canonical: str) -> str:
        """Returns canonical notation with its keywords in the active language."""
        lang = current()
        if lang == "en":
            return canonical
        keys = {kw.key for kw in self.words}
        return " ".join(self.word(t, lang) if t in keys else t for t in canonical.split(" "))

    def spell(self, template: str) -> str:
        """Fills ``{keyword}`` slots of a syntax or example with the active language's words."""
        out = template
        for kw in self.words:
            out = out.replace("{" + kw.key + "}", self.word(kw.key))
        return out

    def usage(self, adjust: bool = False) -> list[tuple[str, str, str]]:
        """Returns (syntax, example, summary) per form, in the active language."""
        return [
            (self.spell(f.syntax), self.spell(f.example), _(f.summary))
            for f in self.forms
            if f.adjust == adjust
        ]
