"""Small shared pieces every game uses: name folding and lookup, two-sided games, strict
models, and values that carry their provenance.

>>> fold("Athéna"), fold_words("Ajax fils d'Oïlée")
('athena', 'ajax fils d oilee')
>>> Sourced[int](value=3, provenance="provisional").uncertain
True
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict

from referee.errors import UnknownNameError
from referee.rulings import UNCERTAIN, Provenance

__all__ = ["Sourced", "StrictModel", "TwoSides", "fold", "fold_words", "lookup"]

T = TypeVar("T")


def fold(text: str) -> str:
    """Returns a name folded for matching: no accents, case-folded ("Athéna" → "athena")."""
    decomposed = unicodedata.normalize("NFKD", text.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def fold_words(text: str) -> str:
    """Returns :func:`fold` with punctuation dropped and ligatures opened, words single-spaced
    (for names typed many ways: "Ajax fils d'Oïlée", "ajax fils d oilee")."""
    plain = fold(text).replace("œ", "oe").replace("æ", "ae")
    return " ".join(re.findall(r"[a-z0-9]+", plain))


def lookup(
    kind: str, name: str, table: Mapping[str, T], display: Callable[[T], str] = str,
    folder: Callable[[str], str] = fold,
) -> T:
    """Returns the entry of ``table`` (keyed by folded names) that ``name`` folds to.

    Raises:
        UnknownNameError: no entry; suggests up to three close names, as ``display`` shows them.
    """
    key = folder(name)
    found = table.get(key)
    if found is not None:
        return found
    close = difflib.get_close_matches(key, list(table), n=3, cutoff=0.6)
    raise UnknownNameError(kind, name, [display(table[c]) for c in close])


class TwoSides(StrEnum):
    """Base of a two-sided game's ``Side`` enum: ``other`` is the member that is not this one."""

    @property
    def other(self) -> Self:
        """The opposing side."""
        first, second = list(type(self))
        return second if self is first else first


class StrictModel(BaseModel):
    """Base of every table and file schema: frozen, unknown keys refused, built on first use."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Sourced(StrictModel, Generic[T]):
    """A table value with where it comes from (rulebook, secondary, interpretation, provisional)."""

    value: T
    provenance: Provenance

    @property
    def uncertain(self) -> bool:
        """True when a ruling that uses the value must say so."""
        return self.provenance in UNCERTAIN
