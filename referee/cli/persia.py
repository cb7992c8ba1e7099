"""``referee persia prepare|operate|supply``: PERS.IA, the solo Persian of 300: Earth & Water."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True)
