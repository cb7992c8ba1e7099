"""Iliad's own command, added to the command line for the game: ``referee night``.

It works on the game file (journaled like any action), or with ``--position FILE`` on a
position file (nothing is written then). Iliad's exact odds come through the generic
``referee odds`` (the engine offers :class:`~referee.capabilities.ExactOdds`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import (
    DEFAULT_FILE,
    ExplainOpt,
    FileOpt,
    JsonOpt,
    PositionOpt,
    TablesOpt,
    guarded,
    load_position,
    play_in_file,
    print_json,
    show,
)
from referee.i18n import N_

app = typer.Typer()

SLUG = "iliad"
NamesOpt = Annotated[str | None, typer.Option(help=N_("Counters to revive, comma-separated ('none': nobody; "
                                                      "omitted: the referee picks the most points)."))]


@app.command(help=N_("Play the night: revive fallen counters (two thirds of the day's points) and send everyone "
                     "back."))
@guarded
def night(
    greek: NamesOpt = None,
    trojan: NamesOpt = None,
    camp: Annotated[str | None, typer.Option(help=N_("New Greek start squares inside the wall: 'Achille E14, "
                                                     "Diomede E15'."))] = None,
    position: PositionOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    explain: ExplainOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Play the night: revive fallen counters (two thirds of the day's points) and send everyone back."""
    from referee import render  # lazy: render

    parts = [f"{side}: {names}" for side, names in (("greek", greek), ("trojan", trojan)) if names is not None]
    if camp is not None:
        parts.append(f"camp: {camp}")
    text = "night " + "; ".join(parts)
    if position is None:
        play_in_file(file, text, None, json_, board=False, explain=explain)
        return
    from referee.dice import NoDice  # lazy: pydantic models

    engine, state, _ = load_position(SLUG, position, tables)
    new, record = engine.play(state, engine.parse(state, text), NoDice())
    if json_:
        print_json({"record": record.model_dump(mode="json"),
                    "position": engine.to_position(new).model_dump(mode="json")})
        return
    import yaml  # lazy: yaml

    show(render.record(record, engine.info.decisive, explain, hint="explain"))  # a position's ruling: not journaled
    data = engine.to_position(new).model_dump(mode="json", exclude_defaults=True)
    typer.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), nl=False)


def register(root: typer.Typer) -> None:
    """Adds Iliad's commands to the ``referee`` command line."""
    root.add_typer(app)
