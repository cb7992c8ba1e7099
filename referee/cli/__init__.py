"""The ``referee`` command line: one typer app per command-group file, joined here.

Commands are thin: parse the arguments, make one engine call, render the result (or print
``--json``). Errors the referee raises on purpose become one red line on stderr and exit 1;
usage errors exit 2.
"""

from __future__ import annotations

import typer

from referee.cli import demo, dice, game_file, iliad, maps, persia, play, tables, umpire, vision

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="A table-side referee for physical board wargames: legal moves explained with rule "
    "citations, combat and retreats resolved, verifiable dice, an honest game log.",
    rich_markup_mode=None,
)
app.add_typer(game_file.app)
app.add_typer(umpire.app)
app.add_typer(play.app)
app.add_typer(demo.app)
app.add_typer(tables.app)
app.add_typer(dice.app, name="dice", help="Verifiable digital dice: show the commitment, reveal, verify.")
app.add_typer(iliad.app)
app.add_typer(persia.app, name="persia", help="PERS.IA, the solo Persian opponent of 300: Earth & Water.")
app.add_typer(vision.app)
app.add_typer(maps.app, name="map", help="Hex world maps (Zargo's Lords): check a map file.")
app.add_typer(vision.vision_app, name="vision", help="Photo capture tools: printable markers, colour calibration.")


def main() -> None:
    """Console-script entry point."""
    app()
