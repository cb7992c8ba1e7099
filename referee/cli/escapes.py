"""Control characters shown as escapes: the part of :mod:`referee.cli.terminal` that needs no rich.

Kept apart so that the command line can neutralise its usage errors at start-up (``referee
--help`` and completion) without loading ``rich.console`` (issue 33: a lean start).
"""

from __future__ import annotations

import functools
import re

# C0 and C1 controls, DEL, the bidirectional overrides and isolates, line/paragraph separators,
# and lone surrogates (undecodable bytes of a file name, which no terminal encoding can print).
_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff"


@functools.cache
def _pattern(also: str = "") -> re.Pattern[str]:
    """Returns the pattern of a control character (or one of ``also``), compiled on first use:
    most commands never print a control character, and the compile costs 1 to 2 ms of start-up."""
    return re.compile(f"[{_CONTROLS}{also}]")


def has_control(text: str) -> bool:
    """Returns True when ``text`` holds a control character (a newline or a tab is not one)."""
    return _pattern().search(text) is not None


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def neutral(text: str) -> str:
    """Returns ``text`` with every control character shown as an escape (``\\x1b``); newlines and tabs stay.

    >>> neutral("a\\x1b[31mb\\tc")
    'a\\\\x1b[31mb\\tc'
    """
    return _pattern().sub(_shown, text)


def one_line(text: object) -> str:
    """Returns ``text`` as one visible line: newlines, tabs and controls shown as escapes.

    >>> one_line("two\\nlines")
    'two\\\\x0alines'
    """
    return _pattern("\n\t").sub(_shown, str(text))
