"""The players' language: gettext catalogs for French, Italian and English.

Source strings are English; ``referee/locale/<lang>/LC_MESSAGES/referee.po`` holds the French
and Italian catalogs (standard PO files, edited with any PO editor, extracted and updated by
``tools/i18n.py`` with Babel). A catalog is compiled in memory the first time it is needed
(Babel reads the PO file and writes the MO bytes), so there is no build step to forget and no
stale binary file in the repository.

The language is chosen once per command (:func:`referee.languages.choose`, which reads what a
user typed) and made active here (:func:`use`). Code marks text with :func:`_` (now) or
:func:`N_` (later, for templates kept in data), and :func:`ngettext` for plurals ("1 armée",
"2 armées"). This module is the bottom of the core: it imports nothing of ours.
"""

from __future__ import annotations

import gettext as _gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

__all__ = ["LANGUAGES", "N_", "_", "current", "language", "ngettext", "translations", "use"]

LANGUAGES: tuple[str, ...] = ("en", "fr", "it")
"""Languages the referee speaks; English is the source language."""
DOMAIN = "referee"
LOCALE_DIR = Path(__file__).parent / "locale"

_active: ContextVar[str] = ContextVar("referee_lang", default="en")


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """Returns the compiled catalog of a language (English: the source strings themselves).

    Every ``*.po`` file of the language (one per area: core, each game) is merged into one
    catalog, compiled in memory.
    """
    if lang == "en":
        return _gettext.NullTranslations()
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    merged: Catalog | None = None
    for po in sorted((LOCALE_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
        if merged is None:  # the first file gives the header (plural forms)
            merged = Catalog(locale=lang, domain=DOMAIN, charset="utf-8")
            merged.mime_headers = catalog.mime_headers
        for message in catalog:
            translated = all(message.string) if isinstance(message.string, tuple) else bool(message.string)
            # an empty or fuzzy entry in one area never hides another area's translation
            if message.id and translated and not message.fuzzy and merged.get(message.id) is None:
                merged[message.id] = message
    if merged is None:
        return _gettext.NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, merged, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def _code(lang: str) -> str:
    if lang not in LANGUAGES:  # what a user typed is read by referee.languages.parse_language
        raise ValueError(f"not a language code: {lang!r} (one of {', '.join(LANGUAGES)})")
    return lang


def use(lang: str) -> None:
    """Makes ``lang`` (a code of :data:`LANGUAGES`) the language of what follows in this context
    (the rest of a command)."""
    _active.set(_code(lang))


def current() -> str:
    """Returns the active language code."""
    return _active.get()


@contextmanager
def language(lang: str) -> Iterator[str]:
    """Speaks ``lang`` inside a ``with`` block (tests, the ``play`` shell's ``lang`` command)."""
    token = _active.set(_code(lang))
    try:
        yield _active.get()
    finally:
        _active.reset(token)


def _(message: str) -> str:
    """Returns a message in the active language."""
    return translations(_active.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Returns the singular or plural form for ``n`` in the active language."""
    return translations(_active.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for extraction without translating it now (templates kept in data)."""
    return message
