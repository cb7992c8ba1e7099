"""The ``referee`` command line: one typer app per command-group file, joined here.

Commands are thin: parse the arguments, make one engine call, render the result (or print
``--json``). Errors the referee raises on purpose become one red line on stderr and exit 1;
usage errors exit 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli import bot, demo, dice, game_file, maps, odds, play, tables, umpire, vision

app = typer.Typer(
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=True,
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
app.add_typer(odds.app)
app.add_typer(bot.app)
app.add_typer(vision.app)
app.add_typer(maps.app, name="map", help="Hex world maps (Zargo's Lords): check a map file.")
app.add_typer(vision.vision_app, name="vision", help="Photo capture tools: printable markers, colour calibration.")


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            typer.echo(f"referee {version('referee')}")
        except PackageNotFoundError:  # run from a source tree that was never installed
            typer.echo("referee (not installed)")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="fr|it|en",
        help="Language of messages, rulings and help (default: REFEREE_LANG, else the locale, else English).",
    )] = None,
) -> None:
    """A table-side referee for physical board wargames."""
    import os

    from referee.errors import UnknownNameError
    from referee.i18n import choose, use

    try:
        use(choose(lang, os.environ))
    except UnknownNameError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang" if lang else "REFEREE_LANG") from None


def hoist_lang(argv: list[str]) -> list[str]:
    """Returns argv with a ``--lang X`` typed after the command moved before it, so the option
    works on every command (``referee do "forêt C5" --lang fr``). Stops at ``--``.

    >>> hoist_lang(["do", "forêt C5", "--lang", "fr"])
    ['--lang', 'fr', 'do', 'forêt C5']
    >>> hoist_lang(["show", "--lang=it"])
    ['--lang=it', 'show']
    """
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if i > 0 and arg.startswith("--lang="):
            return [arg, *out[:i], *out[i + 1:]]
        if i > 0 and arg == "--lang" and i + 1 < len(out):
            return [arg, out[i + 1], *out[:i], *out[i + 2:]]
    return out


def _register_games(root: typer.Typer) -> None:
    """Adds each game's own commands (``referee/games/<pkg>/cli.py``, a ``register`` function).

    Importing a game's command module does not build its engine (the package builds it on first
    use), so this costs a few milliseconds, not the games' tables.
    """
    import importlib
    import importlib.util

    from referee.games import GAME_PACKAGES

    for package in dict.fromkeys(GAME_PACKAGES.values()):
        name = f"referee.games.{package}.cli"
        if importlib.util.find_spec(f"referee.games.{package}") and importlib.util.find_spec(name):
            importlib.import_module(name).register(root)


_register_games(app)


def _command_word(args: list[str]) -> str | None:
    """Returns the command a command line names (after the root's ``--lang X``), else None."""
    i = 0
    while i < len(args) and args[i].startswith("--lang"):
        i += 1 if "=" in args[i] else 2
    return args[i] if i < len(args) and not args[i].startswith("-") else None


def app_for(args: list[str]) -> typer.Typer:
    """Returns the app to run a command line with: a root holding only the command group that
    owns the command (typer then builds one group's commands, not all thirty), or the whole app
    for root options, help, completion and unknown words. Both behave alike for the command."""
    import os

    word = _command_word(args)
    if word is None or any(k.endswith("_COMPLETE") for k in os.environ):
        return app
    for info in app.registered_groups:
        sub = info.typer_instance
        if sub is None:
            continue
        names = {info.name} if info.name else {
            c.name or (c.callback.__name__.lower().replace("_", "-") if c.callback else "")
            for c in sub.registered_commands
        }
        if word in names:
            small = typer.Typer(no_args_is_help=True, context_settings=app.info.context_settings,
                                add_completion=False, help=app.info.help, rich_markup_mode=None)
            small.callback()(_root)
            small.registered_groups.append(info)
            return small
    return app


def main() -> None:
    """Console-script entry point."""
    import sys

    args = hoist_lang(sys.argv[1:])
    app_for(args)(args=args, prog_name="referee")
