"""The players' language: gettext catalogs for French, Italian and English.

Source strings are English; ``referee/locale/<lang>/LC_MESSAGES/<area>.po`` hold the French and
Italian catalogs, one per area (core, each game, the table display): standard PO files, edited
with any PO editor, extracted and updated by ``tools/i18n.py`` with Babel. The build (a hatchling
hook, also run by ``pip install -e .``) compiles each language's areas into one
``referee.mo`` beside them, stamped with a digest of the PO files it was made from; a process
reads that file with the standard library's :mod:`gettext`. When the stamp does not match the PO
files beside it (a catalog edited since the last build) or the file is missing, the PO files are
compiled in memory instead, so a stale binary never serves old text.

The language is chosen once per command (:func:`referee.languages.choose`, which reads what a
user typed) and made active here (:func:`use`). Code marks text with :func:`_` (now) or
:func:`N_` (later, for templates kept in data), and :func:`ngettext` for plurals ("1 armée",
"2 armées"). This module is the bottom of the core: it imports nothing of ours.
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

__all__ = ["LANGUAGES", "N_", "_", "compile_language", "current", "joined", "language", "load", "ngettext",
           "translations", "use", "write_catalogs"]

LANGUAGES: tuple[str, ...] = ("en", "fr", "it")
"""Languages the referee speaks; English is the source language."""
DOMAIN = "referee"
LOCALE_DIR = Path(__file__).parent / "locale"
COMPILED = "referee.mo"
"""The compiled catalog of a language: every area's PO file merged."""
STAMP = "X-Referee-Sources"
"""Header of a compiled catalog holding the digest of the PO files it was compiled from."""

_active: ContextVar[str] = ContextVar("referee_lang", default="en")


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """Returns the catalog of a language (English: the source strings themselves), read once."""
    return load(lang)


def load(lang: str, locale_dir: Path = LOCALE_DIR) -> _gettext.NullTranslations:
    """Returns a language's catalog: its compiled ``referee.mo`` when the stamp matches the PO
    files beside it (or none are there, as in a wheel built without them), else the PO files
    compiled in memory (a catalog edited since the build, or never built)."""
    if lang == "en":
        return _gettext.NullTranslations()
    sources = _sources(lang, locale_dir)
    compiled = locale_dir / lang / "LC_MESSAGES" / COMPILED
    try:
        with compiled.open("rb") as handle:
            found = _gettext.GNUTranslations(handle)
    except (OSError, ValueError, IndexError, struct.error):  # missing, unreadable, not a catalog: compile
        found = None
    if found is not None and (not sources or found.info().get(STAMP.lower()) == digest(sources)):
        return found
    if not sources:
        return _gettext.NullTranslations()
    return _gettext.GNUTranslations(io.BytesIO(compile_language(lang, locale_dir)))


def _sources(lang: str, locale_dir: Path) -> list[Path]:
    """Returns the PO files of a language, in merge order (the first one holding a message wins)."""
    return sorted((locale_dir / lang / "LC_MESSAGES").glob("*.po"))


def digest(sources: list[Path]) -> str:
    """Returns the digest a compiled catalog is stamped with: SHA-256 over each PO file's name
    and bytes, in merge order."""
    import hashlib  # lazy: hashlib

    hashed = hashlib.sha256()
    for path in sources:
        data = path.read_bytes()
        hashed.update(b"%s\0%d\0" % (path.name.encode(), len(data)))
        hashed.update(data)
    return hashed.hexdigest()


def compile_language(lang: str, locale_dir: Path = LOCALE_DIR) -> bytes:
    """Returns the MO bytes of a language: every area's PO file merged (an empty or fuzzy entry in
    one area never hides another area's translation; the first area holding a message wins),
    stamped with :func:`digest`. Needs Babel (the build and a stale checkout, never a normal run)."""
    from babel.messages.pofile import read_po  # lazy: babel

    sources = _sources(lang, locale_dir)
    entries: dict[str, str] = {}
    plural_forms = "nplurals=2; plural=(n != 1);"
    for i, po in enumerate(sources):
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain=DOMAIN)
        if i == 0:  # the first file gives the plural rule
            plural_forms = catalog.plural_forms
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            raw = message.string if isinstance(message.string, tuple | list) else (message.string,)
            strings = [text for text in raw if text]
            if not strings or len(strings) != len(raw):
                continue
            key = "\0".join(message.id) if isinstance(message.id, tuple | list) else message.id
            entries.setdefault(key, "\0".join(strings))
    entries[""] = (f"Language: {lang}\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
                   f"Content-Transfer-Encoding: 8bit\nPlural-Forms: {plural_forms}\n"
                   f"{STAMP}: {digest(sources)}\n")
    return _mo(entries)


def _mo(entries: dict[str, str]) -> bytes:
    """Returns a GNU MO file (little-endian, revision 0) holding ``entries``, sorted by id."""
    keys = sorted(entries, key=lambda k: k.encode())
    ids = strs = b""
    spans: list[tuple[int, int, int, int]] = []
    for key in keys:
        kb, vb = key.encode(), entries[key].encode()
        spans.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    n = len(keys)
    ids_at = 7 * 4 + 16 * n
    strs_at = ids_at + len(ids)
    table = b"".join(struct.pack("<2I", klen, ko + ids_at) for ko, klen, _vo, _vl in spans)
    table += b"".join(struct.pack("<2I", vlen, vo + strs_at) for _ko, _kl, vo, vlen in spans)
    head = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return head + table + ids + strs


def write_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Compiles every language's PO files into its ``referee.mo`` (the build hook and
    ``tools/i18n.py compile``); returns the files written."""
    written: list[Path] = []
    for lang in LANGUAGES:
        if lang == "en" or not _sources(lang, locale_dir):
            continue
        target = locale_dir / lang / "LC_MESSAGES" / COMPILED
        data = compile_language(lang, locale_dir)
        if not target.exists() or target.read_bytes() != data:
            partial = target.with_suffix(".mo.part")
            partial.write_bytes(data)
            partial.replace(target)  # a reader never sees half a catalog
        written.append(target)
    return written


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


_MARKUP = r"(?:\[[^\]\s]*\])?"
"""A rich style tag (``[bold]``) that may stand between a word and the value after it."""
_VOWEL_FR = "AEIOUÀÂÄÉÈÊËÎÏÔÖÛÜaeiouàâäéèêëîïôöûü"
_ELIDED = re.compile(rf"(?<![\w'’-])(de|De|que|Que|jusque|Jusque) (?={_MARKUP}[{_VOWEL_FR}])")
"""French: de, que, jusque before a vowel (never before h, which names often keep aspirated)."""
_EUPHONIC = re.compile(rf"(?<![\w'’-])(?:([aA]) (?={_MARKUP}[aAàÀ])|([eE]) (?={_MARKUP}[eEèÈéÉ]))")
"""Italian: a and e before the same vowel take a d (ad Asteropeo, ed Ettore)."""


def joined(text: str) -> str:
    """Returns a filled-in message with its words joined as the active language joins them where
    a value begins with a vowel: French elides (« d'Iliad », « qu'Achille »), Italian adds a d
    before the same vowel (« ad Asteropeo »). A translation cannot do it itself, since it does not
    know the value; English text is returned unchanged.

    >>> with language("fr"):
    ...     joined("Nouvelle partie de Iliad ; plus que Achille")
    "Nouvelle partie d'Iliad ; plus qu'Achille"
    >>> with language("it"):
    ...     joined("Teucro tira a Asteropeo e Aiace e Ettore")
    'Teucro tira ad Asteropeo e Aiace ed Ettore'
    """
    lang = _active.get()
    if lang == "fr":
        return _ELIDED.sub(lambda m: m.group(1)[:-1] + "'", text)
    if lang == "it":
        return _EUPHONIC.sub(lambda m: (m.group(1) or m.group(2)) + "d ", text)
    return text
