"""The ``referee`` command line: one typer app per command-group file, joined here.

Commands are thin: parse the arguments, make one engine call, render the result (or print
``--json``). Errors the referee raises on purpose become one red line on stderr and exit 1;
usage errors exit 2.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from referee.i18n import N_

if TYPE_CHECKING:
    from typer._click import Command, Parameter

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable

import typer.core
from typer._click import Context

from referee import __version__  # the package's version (pyproject reads it from there)
from referee.cli import bot, demo, dice, game_file, maps, odds, play, serve, tables, umpire, usage, vision
from referee.cli.common import output_lost
from referee.cli.escapes import neutral
from referee.cli.lean import defer_coercion, no_pydantic_plugins, plain_completion_help
from referee.errors import UnknownNameError
from referee.games import REGISTRY
from referee.i18n import _, use
from referee.languages import choose

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
app.add_typer(serve.app)
app.add_typer(maps.app, name="map", help="Hex world maps (Zargo's Lords): check a map file.")
app.add_typer(vision.vision_app, name="vision", help="Photo capture tools: printable markers, colour calibration.")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"referee {__version__}")
        raise typer.Exit()


def _choose_lang(lang: str | None) -> str | None:
    """Makes ``--lang`` (else the environment) the language of the command. Eager, so that
    ``--lang xx --help`` is refused (exit 2, with the closest languages) rather than ignored.
    """
    try:
        use(choose(lang, os.environ))
    except UnknownNameError as exc:
        raise typer.BadParameter(str(exc), param_hint="--lang" if lang else "REFEREE_LANG") from None
    return lang


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="fr|it|en", callback=_choose_lang, is_eager=True,
        help="Language of messages, rulings and help (default: REFEREE_LANG, else the locale, else English).",
    )] = None,
) -> None:
    """A table-side referee for physical board wargames."""


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
    """Adds each game's own commands (``referee/cli/games/<pkg>.py``, a ``register`` function).

    Importing a game's command module does not build its engine (the package builds it on first
    use), so this costs a few milliseconds, not the games' tables.
    """
    for entry in REGISTRY:
        name = f"referee.cli.games.{entry.package}"
        if importlib.util.find_spec(entry.module) and importlib.util.find_spec(name):
            importlib.import_module(name).register(root)


_register_games(app)


def _neutral_usage_errors() -> None:
    """Makes click's own usage errors (``Got unexpected extra argument(s) (...)``) show control
    characters as escapes, like every other line we print: their message quotes what was typed."""
    def neutralised(original: Callable[[object], str]) -> Callable[[object], str]:
        def format_message(self: object) -> str:
            return neutral(original(self))

        format_message.neutral = True  # type: ignore[attr-defined]
        return format_message

    for name in ("typer._click.exceptions", "click.exceptions"):
        module = sys.modules.get(name)  # only the click typer has loaded: no import on the start-up path
        if module is None:
            continue
        for cls in list(vars(module).values()):
            method = vars(cls).get("format_message") if isinstance(cls, type) else None
            if method is not None and not getattr(method, "neutral", False):
                cls.format_message = neutralised(method)


_neutral_usage_errors()
usage.install()  # usage errors in the players' language (referee.cli.usage)


TYPER_WORDS = (N_("Arguments"), N_("Options"), N_("Commands"), N_("required"), N_("default: {default}"),
               N_("env var: {var}"), N_("(dynamic)"), N_("Aborted!"), N_("Missing command."),
               N_("No such command {name!r}."))
"""Typer's own words in its help pages and usage errors (it looks them up through ``gettext``,
which :func:`command` points at our catalogs); click's usage errors are said by
:mod:`referee.cli.usage`."""


def walk(command: Command, path: tuple[str, ...] = ("referee",)) -> Iterator[tuple[tuple[str, ...], Command]]:
    """Yields (command path, command) for a click command and every subcommand, depth first.

    The catalogs' extraction (``tools/i18n.py``) and the help translation walk the same tree.
    """
    yield path, command
    for name, sub in sorted((getattr(command, "commands", None) or {}).items()):
        yield from walk(sub, (*path, name))


def helps(command: Command) -> Iterator[tuple[str, str, Command | Parameter]]:
    """Yields (attribute, help text, owner) of a command's help and short help, each parameter's
    help, and its ``--help`` option's."""
    for attr in ("help", "short_help"):
        text = getattr(command, attr)
        if text:
            yield attr, text, command
    for param in parameters(command):
        text = getattr(param, "help", None)
        if text:
            yield "help", text, param


def parameters(command: Command) -> list[Parameter]:
    """Returns a command's parameters and its ``--help`` option (which click makes on first use;
    made here, then kept)."""
    names = command.context_settings.get("help_option_names") or ["-h", "--help"]
    option = command.get_help_option(Context(command, help_option_names=names))
    return [*command.params, *([option] if option is not None else [])]


def command(typer_app: typer.Typer | None = None) -> Command:
    """Returns the click command of an app (default: the whole app), its help texts in the
    active language.

    Typer builds a fresh command tree on every call, so translating it in place leaves ``app``
    itself English (in-process tests and the extraction see the source strings).
    """
    typer.core._ = _  # type: ignore[attr-defined]  # typer's own headings follow the language
    root = typer.main.get_command(typer_app or app)
    for _path, cmd in walk(root):
        for attr, text, owner in list(helps(cmd)):
            setattr(owner, attr, _(text))
        if cmd.options_metavar:
            cmd.options_metavar = _("[OPTIONS]")
        if getattr(cmd, "subcommand_metavar", None):
            cmd.subcommand_metavar = _("COMMAND [ARGS]...")  # type: ignore[attr-defined]
    defer_coercion(param for _path, cmd in walk(root) for param in parameters(cmd))
    plain_completion_help()
    return root


play.use_cli(command)


def language_of(argv: list[str]) -> str:
    """Returns the language a command line asks for (``--lang`` first, as :func:`hoist_lang`
    leaves it), else the environment's; English when that names no language (the ``--lang``
    callback then refuses it with a usage error).
    """
    explicit = None
    if argv and argv[0] == "--lang" and len(argv) > 1:
        explicit = argv[1]
    elif argv and argv[0].startswith("--lang="):
        explicit = argv[0].partition("=")[2]
    try:
        return choose(explicit, os.environ)
    except UnknownNameError:
        return "en"


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
    """Console-script entry point: the help of every command and option in the chosen language."""
    no_pydantic_plugins()
    args = hoist_lang(sys.argv[1:])
    use(language_of(args))
    try:
        command(app_for(args))(args=args, prog_name="referee")
    except (OSError, UnicodeEncodeError) as exc:  # help or a usage error that could not be printed
        raise SystemExit(output_lost(exc, before=0).exit_code) from None
