"""Validation problems said in the players' language: our own one-line forms for pydantic's errors.

pydantic describes each problem of a file or a value with a stable ``type`` code (``missing``,
``int_parsing``, ``literal_error`` ...), its location and the input; its English ``msg`` is
never shown. :func:`problem` says the problem from the code and its context, in the active
language; :func:`field` names the place as the user wrote it in the file (``supports.Messène``,
``cities.0807.owner``), without pydantic's inner steps (``function-after[...]``). A problem
raised by one of our validators (``value_error``) is our own message, already translated.

>>> from pydantic import BaseModel
>>> class Pos(BaseModel):
...     turn: int
>>> from pydantic import ValidationError
>>> try:
...     Pos.model_validate({"turn": "two"})
... except ValidationError as exc:
...     print(describe(exc))
turn: should be a whole number, not 'two'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from referee.i18n import N_, _, ngettext

__all__ = ["describe", "field", "first", "problem"]

MAX_INPUT_CHARS = 60
"""Longest input quoted back in a problem."""

_BY_TYPE: dict[str, str] = {
    "missing": N_("is missing"),
    "extra_forbidden": N_("is not a field this file may hold"),
    "string_type": N_("should be text, not {input}"),
    "int_type": N_("should be a whole number, not {input}"),
    "int_parsing": N_("should be a whole number, not {input}"),
    "int_from_float": N_("should be a whole number, not {input}"),
    "float_type": N_("should be a number, not {input}"),
    "float_parsing": N_("should be a number, not {input}"),
    "bool_type": N_("should be true or false, not {input}"),
    "bool_parsing": N_("should be true or false, not {input}"),
    "list_type": N_("should be a list, not {input}"),
    "tuple_type": N_("should be a list, not {input}"),
    "set_type": N_("should be a list, not {input}"),
    "dict_type": N_("should be a mapping of names to values, not {input}"),
    "model_type": N_("should be a mapping of names to values, not {input}"),
    "model_attributes_type": N_("should be a mapping of names to values, not {input}"),
    "literal_error": N_("should be one of {expected}, not {input}"),
    "enum": N_("should be one of {expected}, not {input}"),
    "greater_than": N_("should be more than {gt}, not {input}"),
    "greater_than_equal": N_("should be at least {ge}, not {input}"),
    "less_than": N_("should be less than {lt}, not {input}"),
    "less_than_equal": N_("should be at most {le}, not {input}"),
    "string_pattern_mismatch": N_("does not have the expected form: {input}"),
    "json_invalid": N_("is not valid JSON"),
    "none_required": N_("should be empty, not {input}"),
}
"""Our words for pydantic's error types (English source strings; translated when said)."""


def first(exc: ValidationError) -> Mapping[str, Any]:
    """Returns the first problem pydantic found (the one said to the user)."""
    return exc.errors(include_url=False)[0]


def describe(exc: ValidationError) -> str:
    """Returns the first problem as ``field: problem`` in the active language (``problem`` alone
    when it concerns the whole value), with how many more there are."""
    error = first(exc)
    where = field(error.get("loc", ()))
    said = _("{name}: {problem}").format(name=where, problem=problem(error)) if where else problem(error)
    more = exc.error_count() - 1
    if more:
        said += " " + ngettext("(and {n} more problem)", "(and {n} more problems)", more).format(n=more)
    return said


def field(loc: Sequence[int | str]) -> str:
    """Returns where a problem is, as the keys and item numbers of the user's file
    (``supports.Messène``, ``rows.3``): pydantic's inner steps (validators, union members) left out.

    >>> field(("cities", "0807", "function-after[_check(), City]", "owner"))
    'cities.0807.owner'
    """
    return ".".join(str(part) for part in loc if not _inner(part))


def _inner(part: int | str) -> bool:
    """True for a location step pydantic adds itself (``function-after[...]``, ``list[str]``)."""
    return isinstance(part, str) and part.endswith("]") and "[" in part


def problem(error: Mapping[str, Any]) -> str:
    """Returns what is wrong, in the active language, from pydantic's error type and context."""
    kind = str(error.get("type", ""))
    context = dict(error.get("ctx") or {})
    if kind in ("value_error", "assertion_error") and "error" in context:
        return str(context["error"])  # one of our validators: our own message, already translated
    if kind in ("too_short", "too_long"):
        return _length(kind, context)
    if kind in ("string_too_short", "string_too_long"):
        key = "min_length" if kind == "string_too_short" else "max_length"
        n = int(context.get(key, 0))
        return (ngettext("should be at least {n} character long", "should be at least {n} characters long", n)
                if kind == "string_too_short" else
                ngettext("should be at most {n} character long", "should be at most {n} characters long", n)
                ).format(n=n)
    template = _BY_TYPE.get(kind)
    if template is None:
        return _("is not valid here ({code})").format(code=kind or "?")
    values = {k: v for k, v in context.items() if isinstance(v, str | int | float)}
    if "expected" in values:
        values["expected"] = str(values["expected"]).replace(" or ", _(" or "))
    return _(template).format(input=quoted(error.get("input")), **{**dict.fromkeys(("gt", "ge", "lt", "le"), ""),
                                                                   **values})


def _length(kind: str, context: Mapping[str, Any]) -> str:
    if kind == "too_short":
        n = int(context.get("min_length", 0))
        return ngettext("should hold at least {n} item", "should hold at least {n} items", n).format(n=n)
    n = int(context.get("max_length", 0))
    return ngettext("should hold at most {n} item", "should hold at most {n} items", n).format(n=n)


def quoted(value: object) -> str:
    """Returns an input as it is quoted back: its repr, cut to :data:`MAX_INPUT_CHARS`."""
    text = repr(value)
    return text if len(text) <= MAX_INPUT_CHARS else text[:MAX_INPUT_CHARS] + "…"
