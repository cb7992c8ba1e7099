"""``referee play [FILE]``: an interactive shell at the table (same verbs as the CLI, history)."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.common import game_file, guarded, holding, literal, show
from referee.errors import UnknownNameError
from referee.i18n import _, current, use
from referee.languages import parse_language

if TYPE_CHECKING:
    from typer._click import Command

    from referee.game import AnyEngine, GameState
    from referee.notation import Grammar

app = typer.Typer()

FILE_VERBS = ("do", "resolve", "undo", "redo", "log", "show", "status", "judge", "legal", "adjust", "export",
              "seal", "reveal", "why")
FREE_VERBS = ("tables", "schema")
SHELL_WORDS: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("show", {"fr": ("voir", "montrer"), "it": ("mostra", "vedi")}),
    ("status", {"fr": ("état",), "it": ("stato",)}),
    ("log", {"fr": ("journal",), "it": ("registro", "giornale")}),
    ("undo", {"fr": ("annuler",), "it": ("annulla",)}),
    ("redo", {"fr": ("rétablir",), "it": ("ripristina",)}),
    ("judge", {"fr": ("juger",), "it": ("giudica",)}),
    ("legal", {"fr": ("coups",), "it": ("mosse",)}),
    ("adjust", {"fr": ("corriger",), "it": ("correggi",)}),
    ("export", {"fr": ("exporter",), "it": ("esporta",)}),
    ("seal", {"fr": ("sceller",), "it": ("sigilla",)}),
    ("reveal", {"fr": ("révéler",), "it": ("rivela",)}),
    ("why", {"fr": ("pourquoi",), "it": ("perché",)}),
    ("tables", {"fr": ("tables",), "it": ("tabelle",)}),
    ("schema", {"fr": ("schéma",), "it": ("schema",)}),
    ("dice", {"fr": ("dés",), "it": ("dadi",)}),
    ("help", {"en": ("?",), "fr": ("aide",), "it": ("aiuto",)}),
    ("lang", {"fr": ("langue",), "it": ("lingua",)}),
    ("quit", {"en": ("exit", "q"), "fr": ("quitter",), "it": ("esci",)}),
)
"""The shell's own verbs in each language (the first word of a line; each game's action words are
its grammar's). English works in every language, as in the game's notation."""
DICE_WORDS = ("status", "reveal")
"""The words after ``dice`` (their French and Italian as in :data:`SHELL_WORDS`)."""


@cache
def shell() -> Grammar:
    """Returns the grammar of :data:`SHELL_WORDS`, built on first use: the notation loads
    pydantic, which help and completion start without (tests/cli/test_lean_start.py)."""
    from referee.notation import Grammar, Keyword  # lazy: pydantic models

    return Grammar(words=tuple(Keyword(key, **words) for key, words in SHELL_WORDS), forms=())


@cache
def dice_verbs() -> Grammar:
    """Returns the grammar of the words after ``dice``."""
    from referee.notation import Grammar, Keyword  # lazy: pydantic models

    return Grammar(words=tuple(Keyword(key, **words) for key, words in SHELL_WORDS if key in DICE_WORDS), forms=())


HISTORY_NAME = ".referee_history"
"""The shell's history, in the home folder ($HOME, read when the shell starts)."""
MAX_HISTORY_BYTES = 1_000_000
_cli: list[Callable[[], Command]] = []
"""What builds the whole CLI's command, handed in by ``referee.cli`` (which imports this module)."""


def use_cli(build: Callable[[], Command]) -> None:
    """Hands the shell the function that builds the whole CLI (its lines run as its commands)."""
    _cli[:] = [build]
    _built.clear()


_built: dict[str, Command] = {}


def _command_in(language: str) -> Command:
    """Returns the whole CLI with its help in ``language`` (the active one), built once per
    language a shell uses."""
    if language not in _built:
        _built[language] = _cli[0]()
    return _built[language]


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
    """Interactive shell: type actions ('Pyxis C5') or verbs (show, undo, log, help, lang, quit); Tab
    completes verbs, units and cells."""

    if file_arg is not None and file is not None and file_arg != file:
        raise typer.BadParameter(f"two game files: {file_arg} and --file {file}; give one")
    path = file or file_arg or Path(os.environ.get("REFEREE_FILE", "game.referee"))
    with game_file(path) as gf:
        title = gf.game.info.title
        words = completion_words(gf.game, gf.state())  # a file that does not replay is refused here
    _history(load=True)
    _complete_with(words)
    show(f"[bold]{literal(title)}[/] — {literal(path)}. " + _(
        "Type [bold]{help}[/] for the verbs, [bold]{lang} fr|it|en[/] to change language, [bold]{quit}[/] to "
        "leave.").format(help=shell().word("help"), lang=shell().word("lang"), quit=shell().word("quit")))
    with holding(path):  # one open game for every line: its state is kept, nothing replayed
        code = run_line("show", path)
        if code:  # the command has printed its own error line
            raise typer.Exit(code)
        _loop(path)
    _history(load=False)


def _loop(path: Path) -> None:
    """Reads and runs lines until quit or end of input, the prompt naming whose input is awaited."""
    while True:
        try:
            with game_file(path) as gf:
                side = gf.game.to_act(gf.state())
            line = input(f"{_(side) if side else _('game over')}> ")
        except EOFError:
            show("")
            break
        except KeyboardInterrupt:
            show("")
            continue
        if shell().keyword(line.strip()) == "quit":
            break
        if line.strip():
            run_line(line, path)


def run_line(line: str, path: Path, root: Command | None = None) -> int:
    """Runs one shell line as the matching command of ``root`` (the whole CLI; by default the one
    built for the shell's language) on ``path``; returns its exit code.

    Commands run in the shell's language (``lang fr`` changes it for the lines that follow).
    The CLI is handed in, not imported: ``referee.cli`` imports this module.
    """

    try:
        words = shlex.split(line)
    except ValueError:  # an apostrophe in a name (Aiace d'Oileo), not a quotation: plain words
        words = line.split()
    if not words:
        return 0
    verb = shell().keyword(words[0]) or words[0].lower()
    if verb == "help":
        _help(path)
        return 0
    if verb == "lang":
        return _lang(words[1:])
    if verb == "dice" and len(words) > 1 and dice_verbs().keyword(words[1]):
        args = [verb, dice_verbs().keyword(words[1]) or words[1], *words[2:], "--file", str(path)]
    elif verb in FILE_VERBS:
        args = [verb, *words[1:], "--file", str(path)]
    elif verb in FREE_VERBS or verb == "dice":
        args = [verb, *words[1:]]
    elif verb in ("new", "play", "demo", "import"):
        show("[red]" + _("error:") + " " + _("'{verb}' is not available inside the shell; quit first").format(
            verb=literal(verb)) + "[/]")
        return 2
    else:
        args = ["do", *words, "--file", str(path)]
    try:
        (root or _command_in(current())).main(args=["--lang", current(), *args], prog_name="referee")
    except SystemExit as exc:  # the command's exit code: 0 ok, 1 rejected, 2 usage
        return exc.code if isinstance(exc.code, int) else 1
    return 0


def _help(path: Path) -> None:

    with game_file(path) as gf:
        actions = gf.game.help_actions()
    show(_("[bold]Actions[/] (typed alone, or after 'do'):"))
    for notation, meaning in actions:
        show(f"  {literal(f'{notation:<28}')} {literal(_(meaning))}")
    verbs = {kw.key: shell().word(kw.key) for kw in shell().words}
    show(_("[bold]Verbs[/]: {show}, {status}, {log}, {undo} [--force], {redo}, {judge} ACTION, {legal} UNIT, "
           "{adjust} OVERRIDE --reason \"...\", {seal} LABEL --as P, {reveal} LABEL --as P, {dice} {dice_status}|"
           "{dice_reveal}, {why} (every stand-in of the last ruling), {export} FILE, {tables} GAME, {lang} fr|it|en, "
           "{quit}").format(**verbs, dice_status=dice_verbs().word("status"), dice_reveal=dice_verbs().word("reveal")))


def _lang(words: list[str]) -> int:
    """``lang fr``: speaks French from the next line on (``lang`` alone says the current language)."""
    if len(words) > 1:
        show("[red]" + _("error:") + " " + _("usage: lang fr|it|en") + "[/]")
        return 2
    if words:
        try:
            use(parse_language(words[0]))
        except UnknownNameError as exc:
            show("[red]" + _("error:") + f" {literal(exc)}[/]")
            return 2
    show(_("language: {lang} (lang fr|it|en to change)").format(lang=current()))
    return 0


def completion_words(engine: AnyEngine, state: GameState) -> list[str]:
    """Returns what Tab completes in the shell: the verbs, the game's action words (from its
    grammar, else its help), its units' names and its cells."""

    words: dict[str, None] = dict.fromkeys((*FILE_VERBS, *FREE_VERBS, "dice", "help", "lang", "quit"))
    words.update(dict.fromkeys(w for kw in (*shell().words, *dice_verbs().words) for w in kw.words(current())))
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
    from referee.base import fold  # lazy: pydantic models

    start = fold(text)
    return [w for w in words if fold(w).startswith(start)]


def _complete_with(words: list[str]) -> None:
    """Hands :func:`complete` to readline, bound to Tab (nothing without readline)."""
    try:
        import readline  # lazy: readline
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
        import readline  # lazy: readline
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
