"""``referee tables GAME`` shows each table with provenance; ``tables export GAME DIR`` copies them."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.common import ForceOpt, JsonOpt, TablesOpt, fail, guarded, literal, print_json, show
from referee.cli.game_file import show_inventory
from referee.games import find_game
from referee.i18n import _, ngettext

app = typer.Typer()


@app.command(name="tables")
@guarded
def tables_(
    words: Annotated[list[str], typer.Argument(help="GAME, or: export GAME DIR.", metavar="[export] GAME [DIR]")],
    tables: TablesOpt = None,
    json_: JsonOpt = False,
    force: ForceOpt = False,
) -> None:
    """Show a game's tables with the provenance of every value, or export them to edit.

    Provenance: rulebook, secondary (another public source), interpretation (our reading of
    unclear wording), provisional (unknown; a stand-in). Edit an exported copy and pass
    --tables DIR (or set REFEREE_TABLES=DIR) to use your printed aid sheet's values.
    """
    from referee import render  # lazy: render
    from referee.tables import describe_table_set, export_table_set, load_table_set  # lazy: tables

    if words[0] == "export":
        if len(words) != 3:
            raise fail(_("usage: referee tables export GAME DIR"), code=2)
        engine = find_game(words[1])
        table_set = load_table_set(engine.info.slug, tables)
        written = export_table_set(table_set, Path(words[2]), force=force)
        if json_:
            print_json({"written": [str(p) for p in written]})
            return
        show(ngettext("wrote {n} table file under {folder}", "wrote {n} table files under {folder}",
                      len(written)).format(n=len(written), folder=literal(Path(words[2]) / engine.info.slug)))
        show(_("edit them, then use: referee ... --tables {folder}   (or REFEREE_TABLES={folder})").format(
            folder=literal(words[2])))
        return
    if len(words) != 1:
        raise fail(_("usage: referee tables GAME   or   referee tables export GAME DIR"), code=2)
    engine = find_game(words[0])
    table_set = load_table_set(engine.info.slug, tables)
    engine.new_state(table_set)  # validates every file against its schema
    views = describe_table_set(table_set)
    if json_:
        print_json([{"file": v.name, "source": v.source, "overridden": v.overridden, "columns": list(v.columns),
                     "rows": [list(r) for r in v.rows]} for v in views])
        return
    from referee.disclosures import inventory  # lazy: pydantic models

    show(render.tables(views, engine.info.slug))
    show_inventory(inventory(table_set))
