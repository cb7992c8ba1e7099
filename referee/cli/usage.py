"""Usage errors in the players' language: what click would say in English, said by us.

Typer's command-line parser (its copy of click) writes usage errors in English (``Usage: ...``,
``Error: Missing argument 'action'.``, ``Got unexpected extra argument(s)``). :func:`install`
makes every usage error show our own two lines in the active language instead: the problem,
built from what the exception carries (its class, the parameter, the value; never its English
text), then the usage line with the help command::

    erreur : il manque l'argument ACTION
    utilisation : referee do [OPTIONS] ACTION... (aide : referee do -h)

Arguments are named in the user's words (``ACTION``, ``JEU``: each argument's name through the
catalogs), options as typed (``--roll``); a value of the wrong type is said from pydantic's error
code (:mod:`referee.validation`). Extra words are found by letting the parser keep them and
checking what it left, and an unknown command by our own lookup, so neither depends on click's
message.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Sequence
from typing import IO, Any

from typer import core as typer_core
from typer._click import core, exceptions, formatting
from typer._click import exceptions as click_errors
from typer._click.exceptions import UsageError
from typer._click.parser import _split_opt

from referee.cli.escapes import neutral
from referee.i18n import N_, _, ngettext

__all__ = ["ExtraWords", "UnknownCommand", "install", "problem", "usage_line"]

ARGUMENT_NAMES = (N_("action"), N_("game"), N_("words"), N_("file"), N_("unit"), N_("path"), N_("folder"),
                  N_("photo"), N_("label"), N_("override"), N_("directory"), N_("position"))
"""Names of the commands' arguments, said in the active language in usage lines and errors."""


def install() -> None:
    """Makes typer's click show usage errors our way (idempotent; costs no import: typer has
    already loaded its click)."""
    if getattr(exceptions.UsageError.show, "ours", False):
        return
    original_usage = formatting.HelpFormatter.write_usage

    def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        original_usage(self, prog, args, _("Usage: ") if prefix is None else prefix)

    formatting.HelpFormatter.write_usage = write_usage  # type: ignore[method-assign]
    exceptions.UsageError.show = _show_usage_error  # type: ignore[method-assign]
    exceptions.ClickException.show = _show_error  # type: ignore[method-assign]
    original_parse = core.Command.parse_args
    original_group_parse = typer_core.TyperGroup.parse_args

    def parse_args(self: Any, ctx: Any, args: list[str]) -> list[str]:
        if ctx.allow_extra_args:
            return _with_context(original_parse, self, ctx, args)
        ctx.allow_extra_args = True  # keep extra words: we say which ones ourselves
        try:
            rest = _with_context(original_parse, self, ctx, args)
        finally:
            ctx.allow_extra_args = False
        if rest and not ctx.resilient_parsing:
            raise ExtraWords(ctx, rest)
        return rest

    def parse_group_args(self: Any, ctx: Any, args: list[str]) -> list[str]:
        return _with_context(original_group_parse, self, ctx, args)

    core.Command.parse_args = parse_args  # type: ignore[method-assign]
    typer_core.TyperGroup.parse_args = parse_group_args  # type: ignore[method-assign]
    typer_core.TyperGroup.resolve_command = _resolve_command  # type: ignore[method-assign]


def _with_context(parse: Any, command: Any, ctx: Any, args: list[str]) -> list[str]:
    """Runs click's parse and gives a usage error raised without its context (an option's
    misuse) the command's, so that it can be named and the usage line shown."""
    try:
        rest: list[str] = parse(command, ctx, args)
    except UsageError as exc:
        if exc.ctx is None:
            exc.ctx, exc.cmd = ctx, command
        raise
    return rest


def _resolve_command(self: Any, ctx: Any, args: list[str]) -> tuple[str | None, Any, list[str]]:
    """Typer's command lookup, with an unknown command raised as :class:`UnknownCommand`."""
    name = args[0]
    command = self.get_command(ctx, name)
    if command is None and ctx.token_normalize_func is not None:
        name = ctx.token_normalize_func(name)
        command = self.get_command(ctx, name)
    if command is None and not ctx.resilient_parsing:
        if _split_opt(name)[0]:
            self.parse_args(ctx, args)  # an option where a command was expected: said as an option
        raise UnknownCommand(ctx, args[0], difflib.get_close_matches(args[0], list(self.commands)))
    return name if command else None, command, args[1:]


def _usage_error_class() -> type[Exception]:
    return UsageError


class ExtraWords(_usage_error_class()):  # type: ignore[misc]
    """Words left over after a command's arguments."""

    def __init__(self, ctx: Any, words: Sequence[str]) -> None:
        super().__init__(" ".join(words), ctx)
        self.words = tuple(words)


class UnknownCommand(_usage_error_class()):  # type: ignore[misc]
    """A command name that is none of the group's."""

    def __init__(self, ctx: Any, name: str, close: Sequence[str]) -> None:
        super().__init__(name, ctx)
        self.name = name
        self.close = tuple(close)


def _show_usage_error(self: Any, file: IO[Any] | None = None) -> None:
    _echo([_("error:") + " " + problem(self), *([usage_line(self.ctx)] if self.ctx is not None else [])], file)


def _show_error(self: Any, file: IO[Any] | None = None) -> None:
    _echo([_("error:") + " " + _neutral(self.format_message())], file)


_show_usage_error.ours = True  # type: ignore[attr-defined]


def _echo(lines: list[str], file: IO[Any] | None) -> None:
    stream = file if file is not None else sys.stderr
    for line in lines:
        stream.write(line + "\n")
    stream.flush()


def problem(exc: Any) -> str:
    """Returns what a usage error is about, in the active language, from its class and what it
    carries (never its English message)."""
    ctx = exc.ctx
    if isinstance(exc, ExtraWords):
        return ngettext("one word too many: {words}", "words too many: {words}", len(exc.words)).format(
            words=_neutral(" ".join(exc.words)))
    if isinstance(exc, UnknownCommand):
        said = _("no command {name}").format(name=_neutral(repr(exc.name)))
        if exc.close:
            said += _(" (did you mean {words}?)").format(words=_(" or ").join(repr(c) for c in exc.close))
        return said
    if isinstance(exc, click_errors.NoSuchOption):
        said = _("no option {option}").format(option=_neutral(exc.option_name))
        if exc.possibilities:
            said += _(" (did you mean {words}?)").format(words=_(" or ").join(sorted(exc.possibilities)))
        return said
    if isinstance(exc, click_errors.MissingParameter):
        param = exc.param
        if param is not None and param.param_type_name == "option":
            return _("the option {name} is missing").format(name=" / ".join(param.opts))
        return _("the argument {name} is missing").format(name=argument_name(param) if param else "?")
    if isinstance(exc, click_errors.BadOptionUsage):
        option = _option(ctx, exc.option_name)
        if option is not None and (option.is_flag or option.count):
            return _("the option {option} takes no value").format(option=exc.option_name)
        n = option.nargs if option is not None else 1
        return ngettext("the option {option} needs a value", "the option {option} needs {n} values", n).format(
            option=exc.option_name, n=n)
    if isinstance(exc, click_errors.BadParameter):
        return _("{name}: {problem}").format(name=_param_name(exc), problem=_bad_value(exc))
    return _neutral(exc.format_message())  # typer's own words (no such command, missing command): translated


def _bad_value(exc: Any) -> str:
    """Returns what is wrong with a value: from pydantic's error code when typer's conversion
    failed, else the message we raised ourselves (already in the active language)."""
    from pydantic import ValidationError  # lazy: pydantic models

    from referee.validation import first  # lazy: pydantic models
    from referee.validation import problem as said  # lazy: pydantic models

    cause = exc.__cause__
    if isinstance(cause, ValidationError):
        return said(first(cause))
    return _neutral(exc.message)


def _param_name(exc: Any) -> str:
    hint = exc.param_hint
    if hint is not None:
        return hint if isinstance(hint, str) else " / ".join(hint)
    param = exc.param
    if param is None:
        return "?"
    if param.param_type_name == "option":
        return " / ".join(param.opts)
    return argument_name(param)


def _option(ctx: Any, name: str) -> Any:
    if ctx is None:
        return None
    return next((p for p in ctx.command.params if name in (*p.opts, *p.secondary_opts)), None)


def argument_name(param: Any) -> str:
    """Returns an argument as usage lines name it: its metavar, else its name in the active
    language, in capitals (``ACTION``, ``JEU``)."""
    if param.metavar:
        return str(param.metavar)
    return _(str(param.name)).upper()


def usage_line(ctx: Any) -> str:
    """Returns a command's usage line in the active language, with the command that shows its help."""
    command = ctx.command
    pieces = [_("[OPTIONS]")] if command.options_metavar else []
    for param in command.params:
        if param.param_type_name != "argument":
            continue
        name = argument_name(param) + ("..." if param.nargs != 1 else "")
        pieces.append(name if param.required else f"[{name}]")
    if hasattr(command, "commands"):
        pieces.append(_("COMMAND [ARGS]..."))
    usage = " ".join([ctx.command_path, *pieces])
    helper = f"{ctx.command_path} {ctx.help_option_names[0] if ctx.help_option_names else '--help'}"
    return _("usage: {usage} (help: {help})").format(usage=usage, help=helper)


def _neutral(text: str) -> str:
    return neutral(text)
