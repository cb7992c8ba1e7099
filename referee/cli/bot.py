"""``referee bot``: the game's bot chooses the next action and plays it in the game file."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import DEFAULT_FILE, FileOpt, JsonOpt, fail, guarded, literal, play_in_file, show
from referee.i18n import _

app = typer.Typer()


@app.command()
@guarded
def bot(
    file: FileOpt = DEFAULT_FILE,
    seed: Annotated[str | None, typer.Option(help="Seed the bot's choices (a replayable game); "
                                                   "without it, a fresh choice.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what the bot would play; play nothing.")] = False,
    json_: JsonOpt = False,
) -> None:
    """Let the game's bot choose the next action (with its reason) and play it, as `do` would.

    For 300 solo the bot is PERS.IA and plays Persia only; the other games' bots play any side.
    """
    import random

    from referee.capabilities import bot_of
    from referee.games import all_games
    from referee.journal import GameFile

    with GameFile.open(file) as gf:
        engine, state = gf.game, gf.state()
    chooser = bot_of(engine)
    if chooser is None:
        offering = ", ".join(g.info.slug for g in all_games() if bot_of(g) is not None)
        raise fail(_("{game} has no bot in this version").format(game=engine.info.slug),
                   hint=_("games with a bot: {games}").format(games=offering))
    if engine.outcome(state) is not None:
        raise fail(_("the game is over: there is nothing left to play"))
    side = engine.to_act(state)
    if engine.info.bot_sides and side not in engine.info.bot_sides:
        raise fail(_("the bot plays {sides}; {side} is to act").format(sides=", ".join(engine.info.bot_sides),
                                                                         side=side),
                   hint=_("type your own action with referee do"))
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    choice = chooser.choose(state, rng)
    text = choice.action.text()
    if dry_run:
        if json_:
            from referee.cli.common import print_json

            print_json({"action": text, "reason": choice.reason, "cites": [str(c) for c in choice.cites]})
        else:
            show(_("the bot would play [bold]{action}[/]: {reason}").format(action=literal(text),
                                                                           reason=literal(choice.reason)))
        return
    if not json_:
        cites = "; ".join(str(c) for c in choice.cites)
        why = f" ({literal(cites)})" if cites else ""
        show(_("the bot plays [bold]{action}[/]: {reason}").format(action=literal(text),
                                                                   reason=literal(choice.reason)) + why)
    play_in_file(file, text, None, json_, board=False)
