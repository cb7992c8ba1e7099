"""``referee capture`` and ``referee vision markers|calibrate``: reading the board from a photo."""

from __future__ import annotations

import typer

app = typer.Typer()
vision_app = typer.Typer(no_args_is_help=True)
