"""``referee odds``: exact odds of a combat or a shot, for every game whose engine can enumerate them."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.capabilities import exact_odds
from referee.cli.common import (
    DEFAULT_FILE,
    FileOpt,
    JsonOpt,
    PositionOpt,
    TablesOpt,
    fail,
    game_file,
    guarded,
    load_position,
    print_json,
    show,
)
from referee.errors import IllegalActionError, NotationError
from referee.games import all_games, game_slug
from referee.i18n import _

app = typer.Typer()


@app.command()
@guarded
def odds(
    words: Annotated[list[str], typer.Argument(
        help="With --position: GAME then the attack; else the attack alone. Iliad: 'Menelao x Paride', "
             "'Macaone, Podalirio x Cebrione', 'Teucro shoots Ettore'.")],
    position: PositionOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    json_: JsonOpt = False,
) -> None:
    """Exact odds of every outcome of an attack (full enumeration of the dice; nothing is rolled)."""
    from referee import render  # lazy: render

    if position is not None:
        game = words[0] if words and game_slug(words[0]) else None
        engine, state, _tables = load_position(game, position, tables)
        text = " ".join(words[1:] if game is not None else words)
    else:
        with game_file(file) as gf:
            engine, state = gf.game, gf.state()
        rest = words[1:] if words and game_slug(words[0]) else words
        text = " ".join(rest)
    if not text:
        raise fail(_("give the attack, e.g. referee odds 'Menelao x Paride'"), code=2)
    odds_engine = exact_odds(engine)
    if odds_engine is None:
        offering = ", ".join(g.info.slug for g in all_games() if exact_odds(g) is not None)
        raise fail(_("{game} has no exact odds in this version").format(game=engine.info.slug),
                   hint=_("games with odds: {games}").format(games=offering))
    try:
        report = odds_engine.odds(state, text)
    except (NotationError, IllegalActionError) as exc:  # said of the position the umpire gave: name its file
        if position is None:
            raise
        raise fail(f"{position}: {exc}") from None
    if json_:
        print_json(report)
        return
    show(render.explains(report))  # type: ignore[arg-type]
