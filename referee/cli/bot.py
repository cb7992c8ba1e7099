"""``referee bot``: the game's bot chooses the next actions and plays them in the game file.

Every choice goes through the game file as a player's would: an action as ``do`` plays it, a
secret sealed as ``seal`` seals it (the file keeps it privately) and revealed as ``reveal``
reveals it. ``--moves N`` and ``--until-end`` play many choices in one process, stopping early
when the game is over or waits for a side the bot does not play.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Annotated

import typer

from referee.capabilities import bot_of
from referee.cli.common import DEFAULT_FILE, FileOpt, JsonOpt, fail, game_file, guarded, literal, print_json, show
from referee.games import all_games
from referee.i18n import _

if TYPE_CHECKING:
    pass

app = typer.Typer()

MAX_MOVES = 100_000
"""The most choices one command plays (``--until-end`` included): a game that never ends stops here."""


@app.command()
@guarded
def bot(
    file: FileOpt = DEFAULT_FILE,
    seed: Annotated[str | None, typer.Option(help="Seed the bot's choices (a replayable game); "
                                                   "without it, a fresh choice.")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Say what the bot would play; play nothing.")] = False,
    moves: Annotated[int, typer.Option("--moves", min=1, max=MAX_MOVES,
                                       help="Play this many choices in a row (default 1).")] = 1,
    until_end: Annotated[bool, typer.Option("--until-end", help="Play until the game is over, or waits for a "
                                                                "side the bot does not play.")] = False,
    json_: JsonOpt = False,
) -> None:
    """Let the game's bot choose the next action (with its reason) and play it, as `do` would.

    For 300 solo the bot is PERS.IA and plays Persia only; the other games' bots play any side.
    """
    from referee import render  # lazy: render

    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    limit = MAX_MOVES if until_end else moves
    played: list[dict[str, object]] = []
    with game_file(file) as gf:
        engine = gf.game
        chooser = bot_of(engine)
        if chooser is None:
            offering = ", ".join(g.info.slug for g in all_games() if bot_of(g) is not None)
            raise fail(_("{game} has no bot in this version").format(game=engine.info.slug),
                       hint=_("games with a bot: {games}").format(games=offering))
        stopped = None
        for _n in range(limit):
            state = gf.state()
            side = engine.to_act(state)
            if engine.outcome(state) is not None:
                stopped = _("the game is over: there is nothing left to play")
            elif engine.info.bot_sides and side not in engine.info.bot_sides:
                stopped = _("the bot plays {sides}; {side} is to act").format(
                    sides=", ".join(engine.info.bot_sides), side=side)
            if stopped is not None:
                if not played:
                    hint = None if engine.outcome(state) else _("type your own action with referee do")
                    raise fail(stopped, hint=hint)
                break
            choice = chooser.choose(state, rng)
            text = choice.action.text()
            cites = "; ".join(str(c) for c in choice.cites)
            if dry_run:
                if json_:
                    print_json({"action": text, "reason": choice.reason, "cites": [str(c) for c in choice.cites]})
                else:
                    show(_("the bot would play [bold]{action}[/]: {reason}").format(
                        action=literal(text), reason=literal(choice.reason)))
                return
            record = gf.play_choice(choice.action)
            played.append({"action": text, "reason": choice.reason, "cites": [str(c) for c in choice.cites],
                           "record": record.model_dump(mode="json")})
            if not json_:
                why = f" ({literal(cites)})" if cites else ""
                show(_("the bot plays [bold]{action}[/]: {reason}").format(
                    action=literal(text), reason=literal(choice.reason)) + why)
                show(render.record(record, engine.info.decisive, False, engine.grammar))
        lines = engine.status(engine.view(gf.state(), None))
    if json_:  # "record": the last one played, as `do --json` prints it
        print_json({"record": played[-1]["record"], "played": played, "stopped": stopped, "status": lines})
        return
    if stopped is not None and len(played) < limit:
        show(f"[yellow]{literal(stopped)}[/]")
    for line in lines:
        show(f"[bold cyan]{literal(line)}[/]")
