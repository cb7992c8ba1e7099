"""``referee play [FILE]``: an interactive shell at the table (same verbs as the CLI, history)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.common import guarded, literal, show

if TYPE_CHECKING:
    from referee.game import AnyEngine, GameState

app = typer.Typer()

FILE_VERBS = ("do", "resolve", "undo", "redo", "log", "show", "status", "judge", "legal", "adjust", "export",
              "seal", "reveal", "why")
FREE_VERBS = ("tables", "schema")
HISTORY_NAME = ".referee_history"
"""The shell's history, in the home folder ($HOME, read when the shell starts)."""
MAX_HISTORY_BYTES = 1_000_000


@app.command()
@guarded
def play(
    file_arg: Annotated[
        Path | None, typer.Argument(readable=False, metavar="FILE", help="The game file (same as --file).")
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", readable=False,
                                  help="Game file (else $REFEREE_FILE, else ./game.referee).")
    ] = None,
) -> None:
    """Interactive shell: type actions ('Pyxis C5') or verbs (show, undo, log, help, quit); Tab
    completes verbs, units and cells."""
    from referee.journal import GameFile

    if file_arg is not None and file is not None and file_arg != file:
        raise typer.BadParameter(f"two game files: {file_arg} and --file {file}; give one")
    path = file or file_arg or Path(os.environ.get("REFEREE_FILE", "game.referee"))
    with GameFile.open(path) as gf:
        title = gf.game.info.title
        words = completion_words(gf.game, gf.state())  # a file that does not replay is refused here
    _history(load=True)
    _complete_with(words)
    show(f"[bold]{literal(title)}[/] — {literal(path)}. Type [bold]help[/] for the verbs, [bold]quit[/] to leave.")
    code = run_line("show", path)
    if code:  # the command has printed its own error line
        raise typer.Exit(code)
    while True:
        try:
            with GameFile.open(path) as gf:
                side = gf.game.to_act(gf.state()) or "game over"
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
    """Runs one shell line as the matching CLI command on ``path``; returns its exit code."""
    from referee.cli import app as root

    try:
        words = shlex.split(line)
    except ValueError as exc:
        show(f"[red]error: {literal(exc)}[/]")
        return 2
    if not words:
        return 0
    verb = words[0].lower()
    if verb in ("help", "?"):
        _help(path)
        return 0
    if verb == "dice" and len(words) > 1 and words[1] in ("status", "reveal"):
        args = [*words, "--file", str(path)]
    elif verb in FILE_VERBS:
        args = [verb, *words[1:], "--file", str(path)]
    elif verb in FREE_VERBS or verb == "dice":
        args = words
    elif verb in ("new", "play", "demo", "import"):
        show(f"[red]error: '{literal(verb)}' is not available inside the shell; quit first[/]")
        return 2
    else:
        args = ["do", *words, "--file", str(path)]
    try:
        root(args=args, prog_name="referee")
    except SystemExit as exc:  # the command's exit code: 0 ok, 1 rejected, 2 usage
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def _help(path: Path) -> None:
    from referee.journal import GameFile

    with GameFile.open(path) as gf:
        actions = gf.game.help_actions()
    show("[bold]Actions[/] (typed alone, or after 'do'):")
    for notation, meaning in actions:
        show(f"  {literal(f'{notation:<28}')} {literal(meaning)}")
    show("[bold]Verbs[/]: show, status, log, undo [--force], redo, resolve, judge ACTION, legal UNIT, "
         "adjust OVERRIDE --reason \"...\", seal LABEL --as P, reveal LABEL --as P, dice status|reveal, "
         "why (every stand-in of the last ruling), export FILE, tables GAME, quit")


def completion_words(engine: AnyEngine, state: GameState) -> list[str]:
    """Returns what Tab completes in the shell: the verbs, the game's action words (from its
    grammar, else its help), its units' names and its cells."""
    from referee.i18n import current

    words: dict[str, None] = dict.fromkeys((*FILE_VERBS, *FREE_VERBS, "dice", "help", "quit"))
    grammar = getattr(engine, "grammar", None)
    if grammar is not None:
        for kw in grammar.words:
            words.update(dict.fromkeys(kw.words(current()) or (kw.key,)))
    else:
        for notation, _meaning in engine.help_actions():
            words.update(dict.fromkeys(w for w in notation.split() if w.isalpha() and w.islower()))
    view = engine.board_view(engine.view(state, None))
    for item in getattr(view, "legend", ()):
        words[item[1].split(" (", 1)[0]] = None
    for cell in getattr(view, "cells", ()):
        words[cell.name] = None
    return [w for w in words if w and " " not in w]


def complete(words: list[str], text: str) -> list[str]:
    """Returns the words that start like ``text``, ignoring case and accents ("athe" → "Athéna").

    >>> complete(["Athéna", "Apollon", "A5", "done"], "a")
    ['Athéna', 'Apollon', 'A5']
    """
    from referee.base import fold

    start = fold(text)
    return [w for w in words if fold(w).startswith(start)]


def _complete_with(words: list[str]) -> None:
    """Hands :func:`complete` to readline, bound to Tab (nothing without readline)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - platform without readline
        return

    def completer(text: str, state: int) -> str | None:
        found = complete(words, text)
        return found[state] if state < len(found) else None

    readline.set_completer_delims(" \t\n\"'")
    readline.set_completer(completer)
    if "libedit" in (readline.__doc__ or ""):  # macOS's readline
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")


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
