"""The language a user asks for: ``--lang``, ``REFEREE_LANG``, the locale, else English.

What a user types (``fr``, ``FR``, ``français``, ``it_IT.UTF-8``) is read here into one of
:data:`referee.i18n.LANGUAGES`; :func:`referee.i18n.use` then makes it active. An unknown language
is a :class:`~referee.errors.UnknownNameError` with suggestions, so this sits above the errors,
which themselves speak through :mod:`referee.i18n`.

>>> choose(None, {"LANG": "it_IT.UTF-8"})
'it'
>>> choose("français", {"LANG": "it_IT.UTF-8"})
'fr'
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from referee.errors import UnknownNameError
from referee.i18n import LANGUAGES

__all__ = ["ENV", "choose", "parse_language"]

ENV = "REFEREE_LANG"


def _from_locale(value: str) -> str | None:
    """Returns our language for a POSIX locale value (``fr_FR.UTF-8`` → ``fr``), or None."""
    head = value.split(":")[0].split(".")[0].split("@")[0].split("_")[0].strip().lower()
    return head if head in LANGUAGES else None


def parse_language(text: str) -> str:
    """Returns a language code from what a user typed (``fr``, ``FR``, ``français``, ``it_IT``).

    Raises:
        UnknownNameError: not a language the referee speaks; suggests the closest.
    """
    key = text.strip().lower()
    names = {"english": "en", "anglais": "en", "inglese": "en", "french": "fr", "français": "fr",
             "francais": "fr", "francese": "fr", "italian": "it", "italien": "it", "italiano": "it"}
    found = names.get(key) or _from_locale(key)
    if found is None:
        close = difflib.get_close_matches(key, [*LANGUAGES, *names], n=2, cutoff=0.5)
        raise UnknownNameError("language", text, list(dict.fromkeys(names.get(c, c) for c in close)) or LANGUAGES)
    return found


def choose(explicit: str | None, environ: Mapping[str, str]) -> str:
    """Returns the language of this command: ``--lang``, ``REFEREE_LANG``, the locale, English.

    An explicit choice that is not a language is an error; an environment value that is not
    one is skipped (a French machine with ``LANG=de_DE`` still gets English, not a failure).

    Raises:
        UnknownNameError: ``explicit`` (or ``REFEREE_LANG``) names no language we speak.
    """
    if explicit:
        return parse_language(explicit)
    if environ.get(ENV):
        return parse_language(environ[ENV])
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(key)
        if value:
            # the first variable set decides, as in gettext; C and POSIX mean English
            return _from_locale(value) or "en"
    return "en"
