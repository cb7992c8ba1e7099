"""``referee map check FILE``: validate a hex world map file (Zargo's Lords) before playing on it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.common import JsonOpt, err, guarded, print_json, show
from referee.files import load_data
from referee.i18n import _

app = typer.Typer(no_args_is_help=True)


@app.command(name="check")
@guarded
def check(
    file: Annotated[Path, typer.Argument(help="The map file (YAML), e.g. tables/zargo/map.yaml.", metavar="FILE",
                                         readable=False)],
    json_: JsonOpt = False,
) -> None:
    """Check a Zargo world map: one line per problem (exit 1), or a summary (exit 0).

    Checked: the grid's size and cell codes, every land hex on a declared continent, cloud
    bridges from coast to coast across sea only, wrap letters pairing left- and right-edge land
    hexes. The file format is described in referee/games/zargo/world.py and docs/zargo-map.md.
    """
    from rich.text import Text  # lazy: rich

    from referee.games.zargo.world import map_problems  # lazy: engine

    label = str(file)
    problems, world = map_problems(label, load_data(file, what="map file"))
    if json_:
        print_json({"file": label, "problems": problems, "ok": world is not None})
    elif world is None:
        for line in problems:
            err().print(Text(line, style="red"), soft_wrap=True)
    else:
        land = sum(t.land for t in world.terrain)
        show(Text("✓ " + _("{file}: {cols}×{rows} hexes, {land} land in {continents} continents, {bridges} cloud "
                           "bridges, {wraps} wrap letters ({provenance})").format(
            file=label, cols=world.grid.cols, rows=world.grid.rows, land=land, continents=len(world.continents),
            bridges=len(world.bridges), wraps=len(world.wrap), provenance=world.provenance)), soft_wrap=True)
    if world is None:
        raise typer.Exit(1)
