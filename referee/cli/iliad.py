"""Iliad commands: ``referee odds`` (exact combat odds) and ``referee night``.

Both work on the game file, or with ``--position FILE`` on a position file (nothing is written
then). ``odds`` never rolls; ``night`` is journaled like any action in the game file.
"""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import (
    DEFAULT_FILE,
    FileOpt,
    JsonOpt,
    PositionOpt,
    TablesOpt,
    fail,
    guarded,
    load_position,
    play_in_file,
    print_json,
    show,
)

app = typer.Typer()

SLUG = "iliad"
NamesOpt = Annotated[str | None, typer.Option(help="Counters to revive, comma-separated ('none': nobody; "
                                                   "omitted: the referee picks the most points).")]


def _iliad(words: list[str]) -> list[str]:
    """Drops a leading game name (the commands are Iliad's own)."""
    if words and words[0].strip().lower() == SLUG:
        return words[1:]
    return words


@app.command()
@guarded
def odds(
    words: Annotated[list[str], typer.Argument(help="[iliad] ATTACK: 'Menelao x Paride', 'Macaone, Podalirio x "
                                                    "Cebrione' or 'Teucro shoots Ettore'.")],
    position: PositionOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Exact odds of every outcome of a duel, an open battle or a shot (full enumeration)."""
    from referee import render
    from referee.games.iliad.engine import IliadEngine

    attack = " ".join(_iliad(words))
    if not attack:
        raise fail("give the attack, e.g. referee odds iliad --position FILE 'Menelao x Paride'", code=2)
    if position is not None:
        engine, state, _ = load_position(SLUG, position, tables)
    else:
        from referee.journal import GameFile

        with GameFile.open(file) as gf:
            engine, state = gf.game, gf.state()
    if not isinstance(engine, IliadEngine):
        raise fail(f"referee odds is for Iliad games, not {engine.info.slug}")
    report = engine.odds(state, attack)
    if json_:
        print_json(report)
        return
    show(render.explains(report))


@app.command()
@guarded
def night(
    greek: NamesOpt = None,
    trojan: NamesOpt = None,
    camp: Annotated[str | None, typer.Option(help="New Greek start squares inside the wall: 'Achille E14, "
                                                  "Diomede E15'.")] = None,
    position: PositionOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Play the night: revive fallen counters (two thirds of the day's points) and send everyone back."""
    from referee import render

    parts = [f"{side}: {names}" for side, names in (("greek", greek), ("trojan", trojan)) if names is not None]
    if camp is not None:
        parts.append(f"camp: {camp}")
    text = "night " + "; ".join(parts)
    if position is None:
        play_in_file(file, text, None, json_, board=False)
        return
    from referee.dice import NoDice

    engine, state, _ = load_position(SLUG, position, tables)
    new, record = engine.play(state, engine.parse(state, text), NoDice())
    if json_:
        print_json({"record": record.model_dump(mode="json"),
                    "position": engine.to_position(new).model_dump(mode="json")})
        return
    import yaml

    show(render.record(record))
    data = engine.to_position(new).model_dump(mode="json", exclude_defaults=True)
    typer.echo(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), nl=False)
