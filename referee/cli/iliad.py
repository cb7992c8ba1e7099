"""Iliad commands: ``referee odds`` (exact combat odds) and ``referee night``."""

from __future__ import annotations

import typer

app = typer.Typer()
