"""Phrases a game file keeps in English, said again in the language asked now.

Some text is stored as written: a die's purpose is part of what seeds a digital roll, and the
stand-ins and readings a ruling relied on are kept as lines. Each such line is made from a
*form*, an English catalog template (``"duel {attacker} v {defender}, throw {throw}"``) that
the game registers where it makes the line (:func:`form`, :func:`plural_form`). :func:`say`
recognises a stored line by its form and fills the form's translation with the line's own
values, each value said again the same way (a side or terrain word follows the language, a name
or cell passes through unchanged). A line no form matches is looked up in the catalogs as a
whole, else shown as stored.

>>> greeting = form("hello {name}")
>>> say(greeting.format(name="Ettore"))
'hello Ettore'
"""

from __future__ import annotations

import re
from functools import cache

from referee.i18n import N_, _

__all__ = ["PROVENANCES", "WORDS", "form", "plural_form", "say"]

MAX_LENGTH = 2000
"""Longest stored line :func:`say` reads; a longer one is shown as stored."""
MAX_DEPTH = 4
"""How deep a value is said again inside another form."""

_FORMS: dict[str, tuple[str, str] | None] = {}
"""English template → its (singular, plural) pair when it is one of a pair, else None."""

WORDS = (N_("rulebook"), N_("secondary"), N_("interpretation"), N_("provisional"), N_("reconstruction"))
"""The provenances, said in the language where a stored line names one."""

PROVENANCES = re.compile(r"\((rulebook|secondary|interpretation|provisional|reconstruction)\)")
"""A provenance in brackets, as stand-in lines end: said in the language wherever it appears."""
_FIELD = re.compile(r"\{(\w+)\}")


def form(template: str) -> str:
    """Registers an English template stored lines are made from; returns it (mark it with ``N_``)."""
    _FORMS.setdefault(template, None)
    return template


def plural_form(singular: str, plural: str) -> tuple[str, str]:
    """Registers a template with a plural form chosen by its ``{n}``; returns both."""
    _FORMS[singular] = _FORMS[plural] = (singular, plural)
    return singular, plural


@cache
def _pattern(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    at = 0
    seen: set[str] = set()
    for match in _FIELD.finditer(template):
        parts.append(re.escape(template[at:match.start()]))
        name = match.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = match.end()
    parts.append(re.escape(template[at:]))
    return re.compile("".join(parts), re.DOTALL)


def _ordered() -> list[str]:
    """Forms with the most fixed text first, so the most specific form recognises a line."""
    return sorted(_FORMS, key=lambda t: -len(_FIELD.sub("", t)))


def say(text: str, depth: int = 0) -> str:
    """Returns a stored English line in the active language (see the module's description)."""
    from referee.rulings import render  # lazy: pydantic models (help and completion start without them)

    if not text or len(text) > MAX_LENGTH:
        return text
    found = _(text)
    if found != text:
        return found
    if depth < MAX_DEPTH:
        for template in _ordered():
            match = _pattern(template).fullmatch(text)
            if match is None or template == text:
                continue
            args: dict[str, str | int] = {k: say(v, depth + 1) for k, v in match.groupdict().items()}
            pair = _FORMS[template]
            if pair is None:
                return render(template, args)
            if match.group("n").isdigit():
                args["n"] = int(match.group("n"))
                return render(pair[0], args, pair[1])
    return PROVENANCES.sub(lambda m: f"({_(m.group(1))})", text)


READING = form(N_("interpretation {id}: {text}"))
"""How a ruling names a reading it relied on (``Interpretation.label``): the text is the
reading's short form or choice, a catalog entry extracted from ``rules.yaml``."""
SECTION = form(N_("rules.yaml: section {key} {title} ({provenance})"))
"""How ``referee tables`` and ``why --all`` name an uncertain rule section."""
