"""typer's test runner, with each app's click command built once per process.

``typer.testing.CliRunner.invoke`` turns the typer app into a click command tree on every call:
about 25 ms of CPU for the whole app, most of a quick command's time in process. The tree keeps no
state between runs (click makes a new context for each), so this runner builds it on first use
and lets typer's ``invoke`` run that one; everything else is typer's runner as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
import typer.main
import typer.testing

_BUILT: dict[int, tuple[typer.Typer, Any]] = {}


def command_of(app: typer.Typer) -> Any:
    """The click command of ``app``, built the first time it is asked for."""
    if id(app) not in _BUILT:
        _BUILT[id(app)] = (app, typer.main.get_command(app))  # the app kept: its id stays its own
    return _BUILT[id(app)][1]


class CliRunner(typer.testing.CliRunner):
    """typer's runner; the app's click command is built once per process."""

    def invoke(self, app: typer.Typer, args: str | Sequence[str] | None = None,
               **kwargs: Any) -> typer.testing.Result:
        build = typer.testing._get_command
        typer.testing._get_command = command_of  # the one lookup typer's invoke makes
        try:
            return super().invoke(app, args, **kwargs)
        finally:
            typer.testing._get_command = build
