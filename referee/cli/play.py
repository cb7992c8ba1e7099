"""``referee play [FILE]``: an interactive shell at the table (same verbs as the CLI, history)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated

import typer

from referee.cli.common import guarded, literal, show
from referee.i18n import _

app = typer.Typer()

FILE_VERBS = ("do", "resolve", "undo", "redo", "log", "show", "status", "judge", "legal", "adjust", "export",
              "seal", "reveal")
FREE_VERBS = ("tables", "schema")
HISTORY_NAME = ".referee_history"
"""The shell's history, in the home folder ($HOME, read when the shell starts)."""
MAX_HISTORY_BYTES = 1_000_000


@app.command()
@guarded
def play(
    file: Annotated[
        Path | None, typer.Argument(readable=False, help="Game file (else $REFEREE_FILE, else ./game.referee).")
    ] = None,
) -> None:
    """Interactive shell: type actions ('Pyxis C5') or verbs (show, undo, log, help, lang, quit)."""
    from referee.journal import GameFile

    path = file or Path(os.environ.get("REFEREE_FILE", "game.referee"))
    with GameFile.open(path) as gf:
        title = gf.game.info.title
        gf.state()  # a file that does not replay is refused here, once, before the shell starts
    _history(load=True)
    show(f"[bold]{literal(title)}[/] — {literal(path)}. "
         + _("Type [bold]help[/] for the verbs, [bold]lang fr|it|en[/] to change language, [bold]quit[/] to leave."))
    code = run_line("show", path)
    if code:  # the command has printed its own error line
        raise typer.Exit(code)
    while True:
        try:
            with GameFile.open(path) as gf:
                side = gf.game.to_act(gf.state()) or _("game over")
            line = input(f"{side}> ")
        except EOFError:
            show("")
            break
        except KeyboardInterrupt:
            show("")
            continue
        if line.strip() in ("quit", "exit", "q"):
            break
        if line.strip():
            run_line(line, path)
    _history(load=False)


def run_line(line: str, path: Path) -> int:
    """Runs one shell line as the matching CLI command on ``path``; returns its exit code.

    Commands run in the shell's language (``lang fr`` changes it for the lines that follow).
    """
    from referee.cli import command
    from referee.i18n import current

    try:
        words = shlex.split(line)
    except ValueError as exc:
        show("[red]" + _("error:") + f" {literal(exc)}[/]")
        return 2
    if not words:
        return 0
    verb = words[0].lower()
    if verb in ("help", "?"):
        _help(path)
        return 0
    if verb == "lang":
        return _lang(words[1:])
    if verb == "dice" and len(words) > 1 and words[1] in ("status", "reveal"):
        args = [*words, "--file", str(path)]
    elif verb in FILE_VERBS:
        args = [verb, *words[1:], "--file", str(path)]
    elif verb in FREE_VERBS or verb == "dice":
        args = words
    elif verb in ("new", "play", "demo", "import"):
        show("[red]" + _("error:") + " " + _("'{verb}' is not available inside the shell; quit first").format(
            verb=literal(verb)) + "[/]")
        return 2
    else:
        args = ["do", *words, "--file", str(path)]
    try:
        command()(args=["--lang", current(), *args], prog_name="referee")
    except SystemExit as exc:  # the command's exit code: 0 ok, 1 rejected, 2 usage
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def _help(path: Path) -> None:
    from referee.journal import GameFile

    with GameFile.open(path) as gf:
        actions = gf.game.help_actions()
    show(_("[bold]Actions[/] (typed alone, or after 'do'):"))
    for notation, meaning in actions:
        show(f"  {literal(f'{notation:<28}')} {literal(_(meaning))}")
    show(_("[bold]Verbs[/]: show, status, log, undo [--force], redo, resolve, judge ACTION, legal UNIT, "
           "adjust OVERRIDE --reason \"...\", seal LABEL --as P, reveal LABEL --as P, dice status|reveal, "
           "export FILE, tables GAME, lang fr|it|en, quit"))


def _lang(words: list[str]) -> int:
    """``lang fr``: speaks French from the next line on (``lang`` alone says the current language)."""
    from referee.errors import UnknownNameError
    from referee.i18n import current, use

    if len(words) > 1:
        show("[red]" + _("error:") + " " + _("usage: lang fr|it|en") + "[/]")
        return 2
    if words:
        try:
            use(words[0])
        except UnknownNameError as exc:
            show("[red]" + _("error:") + f" {literal(exc)}[/]")
            return 2
    show(_("language: {lang} (lang fr|it|en to change)").format(lang=current()))
    return 0


def _history(load: bool) -> None:
    try:
        import readline
    except ImportError:  # pragma: no cover - platform without readline
        return
    try:
        history = Path.home() / HISTORY_NAME
        # only a regular file of sane size: a FIFO or a device there would hang or flood the shell
        usable = history.is_file() and history.stat().st_size <= MAX_HISTORY_BYTES
        if load and usable:
            readline.read_history_file(history)
        elif not load and (usable or not history.exists()):
            readline.set_history_length(1000)
            readline.write_history_file(history)
    except (OSError, RuntimeError):  # no home folder, or it cannot be written: no history
        pass
