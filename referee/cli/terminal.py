"""What reaches the terminal: text is data, never markup, never a control sequence.

Everything a user typed or a file held (reasons, names, notes, file names, answers, action text)
may contain rich markup (``[/bold]``), ANSI escapes (``\\x1b[31m``) or control characters. Three
guards keep them literal:

* :func:`literal` escapes a value for a markup template (``show(f"[bold]{literal(x)}[/]")``);
* :func:`~referee.cli.escapes.one_line` makes a message one visible line (newlines and controls shown as ``\\n``,
  ``\\x1b``), for error lines;
* every console made by :func:`console` neutralises control characters in each rendered segment
  (a render hook), so a ``Text`` built from file data cannot move the cursor or recolour the
  terminal either; emoji codes (``:smile:``) are left as typed, and a width below
  :data:`MIN_WIDTH` (``COLUMNS=0``) is replaced by 80 so no refusal ever prints nothing.
"""

from __future__ import annotations

from typing import IO

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult
from rich.markup import escape
from rich.measure import Measurement
from rich.segment import Segment

from referee.cli.escapes import has_control, neutral

MIN_WIDTH = 20
"""Narrowest terminal believed: a smaller width (``COLUMNS=0``) is taken as 80 columns."""


def literal(value: object) -> str:
    """Returns a value ready to sit inside a rich markup template: brackets escaped, controls shown.

    >>> literal("[/bold]")
    '\\\\[/bold]'
    """
    return escape(neutral(str(value)))


class _Neutralised:
    """Renders another renderable with the control characters of its text segments neutralised."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            if segment.control or not has_control(segment.text):
                yield segment
            else:
                yield Segment(neutral(segment.text), segment.style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.inner)


class _Hook(RenderHook):
    """A rich render hook wrapping everything printed in :class:`_Neutralised`."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Neutralised(r) for r in renderables]


def console(stderr: bool = False, file: IO[str] | None = None) -> Console:
    """Returns a console for the CLI: no emoji codes, a sane width, control characters neutralised."""
    made = Console(stderr=stderr, file=file, emoji=False)
    if made.width < MIN_WIDTH:
        made.width = 80
    made.push_render_hook(_Hook())
    return made

