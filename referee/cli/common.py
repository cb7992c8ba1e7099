"""What every command file shares: options, the error boundary, file loading, output.

The boundary (:func:`guarded`) turns every error the referee raises on purpose into one red
line on stderr and exit code 1; typer/click report usage errors with exit code 2. Heavy
modules (rich, the engine) are imported inside functions so ``--json`` paths stay fast.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

import typer

from referee.cli.escapes import one_line
from referee.errors import (
    ArgumentError,
    IllegalActionError,
    InputFileError,
    PositionError,
    RefereeError,
    UnknownNameError,
)
from referee.files import load_data
from referee.games import find_game
from referee.i18n import _, current, joined, ngettext

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import Console, RenderableType

    from referee.game import AnyEngine, GameState
    from referee.journal import GameFile
    from referee.tables import TableSet

P = ParamSpec("P")
R = TypeVar("R")

MAX_DATA_FILE_BYTES = 2_000_000
DEFAULT_FILE = Path("game.referee")
"""The game file when neither --file nor $REFEREE_FILE names one."""

FileOpt = Annotated[
    Path,
    typer.Option("--file", "-f", envvar="REFEREE_FILE", readable=False,
                 help="Game file (else $REFEREE_FILE, else ./game.referee)."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON instead of text.")]
TablesOpt = Annotated[
    Path | None,
    typer.Option("--tables", readable=False,
                 help="Folder of overriding table files (DIR/<game>/...); else $REFEREE_TABLES."),
]
PositionOpt = Annotated[
    Path | None, typer.Option("--position", "-p", readable=False, help="Position file (YAML or JSON) for umpire mode.")
]
DiceOpt = Annotated[
    str | None, typer.Option("--dice", help="Physical dice typed in, in the order rolled, e.g. 3,5.")
]
AsOpt = Annotated[
    str | None,
    typer.Option("--as", help="Draw it for this player (their secrets too); omitted: the shared table, "
                              "which sees only what is face up."),
]
ExplainOpt = Annotated[
    bool, typer.Option("--explain", help="List every stand-in the ruling relied on, and our summary of each "
                                         "cited section.")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace a file already there (never a game file).")]
SeedOpt = Annotated[
    str | None, typer.Option("--seed", help="Umpire mode: derive digital dice from this text (reproducible).")
]

_consoles: dict[str, Console] = {}
_SURROGATE = re.compile("[\ud800-\udfff]")


def out() -> Console:
    """Returns the stdout console (created on first use; see :mod:`referee.cli.terminal`)."""
    if "out" not in _consoles:
        from referee.cli.terminal import console  # lazy: rich

        made = console()
        made.on_broken_pipe = _broken_pipe  # type: ignore[method-assign]  # to the boundary, not rich's exit 1
        _consoles["out"] = made
    return _consoles["out"]


def _broken_pipe() -> None:
    """Raises the closed pipe rich caught, so :func:`guarded` says whether the command's write stood."""
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def err() -> Console:
    """Returns the stderr console (created on first use; see :mod:`referee.cli.terminal`)."""
    if "err" not in _consoles:
        from referee.cli.terminal import console  # lazy: rich

        _consoles["err"] = console(stderr=True)
    return _consoles["err"]


def reset_consoles() -> None:
    """Forgets the consoles (tests and the shell swap sys.stdout)."""
    _consoles.clear()


MAX_ERROR_CHARS = 2_000
"""Longest error line printed; the rest is counted, not shown."""


def fail(message: str, hint: str | None = None, code: int = 1) -> typer.Exit:
    """Prints one red line (and a hint) on stderr and returns the Exit to raise.

    The message is printed as text, never markup, on one line whatever it holds (a newline in a
    file name or a reason is shown as ``\\x0a``).
    """
    from rich.text import Text  # lazy: rich

    text = one_line(joined(message))
    if len(text) > MAX_ERROR_CHARS:  # a 100,000-character name quoted back is no help to anyone
        more = len(text) - MAX_ERROR_CHARS
        text = text[:MAX_ERROR_CHARS] + "… " + ngettext("({n} more character)", "({n} more characters)",
                                                        more).format(n=f"{more:,}")
    line = Text.assemble((_("error:") + " ", "bold red"), (text, "red"))
    err().print(line, soft_wrap=True)
    if hint:
        err().print(Text(_("hint:") + " " + one_line(hint), style="dim"), soft_wrap=True)
    return typer.Exit(code)


MAX_TEXT_CHARS = 1_000
"""Longest text argument (an action, a reason, a name, a seed): checked before any work."""
MAX_PATH_CHARS = 4_096
"""Longest path argument (Linux's PATH_MAX)."""


def check_arguments(values: dict[str, object]) -> None:
    """Refuses an over-long or non-UTF-8 text argument before any work that grows with it.

    Paths may hold any bytes the file system allows; other text must be UTF-8.

    Raises:
        ArgumentError: the first argument that is too long or not text (names it).
    """
    for name, value in values.items():
        label = _flag(name)
        items = list(value) if isinstance(value, list | tuple) else [value]
        texts = [v for v in items if isinstance(v, str)]
        paths = [v for v in items if isinstance(v, Path)]
        if texts:
            length = sum(len(t) for t in texts) + len(texts) - 1
            if length > MAX_TEXT_CHARS:
                raise ArgumentError(_("{label}: {n} characters, more than the {limit} accepted").format(
                    label=label, n=f"{length:,}", limit=f"{MAX_TEXT_CHARS:,}"))
            for text in texts:
                try:
                    text.encode("utf-8")
                except UnicodeEncodeError:
                    raise ArgumentError(_("{label}: not valid UTF-8 text").format(label=label)) from None
        for path in paths:
            if len(str(path)) > MAX_PATH_CHARS:
                raise ArgumentError(_("{label}: a path of {n} characters, more than the {limit} accepted").format(
                    label=label, n=f"{len(str(path)):,}", limit=f"{MAX_PATH_CHARS:,}"))


def _flag(name: str) -> str:
    """Returns a parameter's name as the user knows it (``seed``, ``reason``, ``action``)."""
    return name.rstrip("_").replace("_", "-")


def literal(value: object) -> str:
    """Returns a value escaped for a rich markup template (see :func:`referee.cli.terminal.literal`)."""
    from referee.cli.terminal import literal as escaped  # lazy: rich

    return escaped(value)


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Wraps a command: referee and validation errors become one red line and exit code 1; an
    output that cannot be shown (:func:`output_lost`) never hides what the command committed."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        from pydantic import ValidationError  # lazy: pydantic models

        from referee.writing import commits  # lazy: sqlite3

        before = commits()
        try:
            try:
                check_arguments(kwargs)
                return fn(*args, **kwargs)
            finally:
                sys.stdout.flush()  # a full disk or a closed pipe fails here, inside the boundary
        except (OSError, UnicodeEncodeError) as exc:
            raise output_lost(exc, before) from None
        except IllegalActionError as exc:
            from referee import render  # lazy: render

            for line in render.violations_lines(exc.verdict):
                err().print(line, soft_wrap=True)
            raise typer.Exit(1) from None
        except RefereeError as exc:
            raise fail(str(exc), exc.hint) from None
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"])
            raise fail(f"{exc.title}: {loc}: {first['msg']}") from None

    return wrapper


def output_lost(exc: OSError | UnicodeEncodeError, before: int) -> typer.Exit:
    """Says on stderr, in one line, that the output could not be shown (a closed pipe, a full disk,
    a terminal that cannot encode it) and whether the command's write was committed; returns the
    Exit to raise: 0 when something was committed (it stands), 1 when nothing was.

    stdout is then pointed at the null device, so the interpreter's last flush cannot fail again.
    """
    from referee.writing import commits, last_commit  # lazy: sqlite3

    if isinstance(exc, UnicodeEncodeError):
        reason = _("the output's encoding, {encoding}, cannot write {char}").format(
            encoding=exc.encoding, char=ascii(exc.object[exc.start:exc.start + 1]))
    else:
        reason = " ".join((exc.strerror or type(exc).__name__).split()).lower()
    made = last_commit() if commits() > before else None
    if made is None:
        line = _("the result could not be shown ({reason}); nothing was recorded").format(reason=reason)
    else:
        line = _("recorded in {file} as journal entry {seq}, but it could not be shown ({reason})").format(
            file=made[0], seq=made[1], reason=reason)
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real stdout (a test runner's buffer)
        pass
    try:
        sys.stderr.write(one_line(line) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr is gone too: the exit code still tells
        pass
    return typer.Exit(0 if made is not None else 1)


def print_json(value: BaseModel | dict[str, object] | list[object]) -> None:
    """Prints JSON on stdout without going through rich (fast, no markup)."""
    from pydantic import BaseModel  # lazy: pydantic models

    data: object = value.model_dump(mode="json") if isinstance(value, BaseModel) else value
    if isinstance(data, dict) and "lang" not in data:
        data = {**data, "lang": current()}  # which language the messages are in
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)  # bytes of a file name no UTF-8 can say
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def show(renderable: RenderableType, soft_wrap: bool = False) -> None:
    """Prints a rich renderable on stdout (``soft_wrap``: long lines run on, as boards need); a
    line of text has its words joined as the language joins them before a value (``joined``)."""
    out().print(joined(renderable) if isinstance(renderable, str) else renderable, soft_wrap=soft_wrap)


def viewer_of(engine: AnyEngine, name: str | None) -> str | None:
    """Returns the player ``--as`` names (case folded), or None for the shared table.

    Raises:
        UnknownNameError: not one of the game's players (with the list).
    """
    if name is None:
        return None

    players = engine.viewers()
    found = [p for p in players if p.casefold() == name.strip().casefold()]
    if not found:
        raise UnknownNameError("player", name, players)
    return found[0]


_held: dict[Path, tuple[GameFile, tuple[int, int]]] = {}
"""The game the ``play`` shell keeps open, by path, with the file's identity (device, inode)."""


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


@contextmanager
def game_file(path: Path) -> Iterator[GameFile]:
    """Yields the game file at ``path``: the one the ``play`` shell holds open (its state kept
    between lines, nothing replayed), or one opened for this command and closed after it. The
    game registry is handed to the journal here.

    Raises:
        GameFileError: as :meth:`referee.journal.GameFile.open`.
    """
    held = _held.get(path)
    if held is not None and held[1] == _identity(path):
        yield held[0]
        return
    from referee.journal import GameFile  # lazy: journal

    with GameFile.open(path, find_game) as gf:
        yield gf


@contextmanager
def holding(path: Path) -> Iterator[GameFile]:
    """Keeps the game file at ``path`` open for the commands run in this process meanwhile (the
    ``play`` shell); a file replaced on disk meanwhile is opened anew by :func:`game_file`."""
    from referee.journal import GameFile  # lazy: journal

    with GameFile.open(path, find_game) as gf:
        identity = _identity(path)
        if identity is not None:
            _held[path] = (gf, identity)
        try:
            yield gf
        finally:
            _held.pop(path, None)


def play_in_file(file: Path, text: str, dice: str | None, json_: bool, board: bool, explain: bool = False) -> None:
    """Plays one action in a game file and prints its record, then the board or the status
    (``explain``: every stand-in the ruling relied on, not one marker line). With ``json_`` a
    refused action prints its verdict as JSON, then exits 1.

    Raises:
        RefereeError: the action is refused or the file unusable (nothing is written).
    """
    from referee import render  # lazy: render
    from referee.dice import parse_faces  # lazy: pydantic models

    with game_file(file) as gf:
        try:
            record = gf.do(text, parse_faces(dice) if dice is not None else None)
        except IllegalActionError as exc:
            if not json_:
                for refused in render.violations_lines(exc.verdict, gf.game.info.decisive, explain, gf.game.grammar):
                    err().print(refused, soft_wrap=True)
                raise typer.Exit(1) from None
            print_json({"verdict": exc.verdict.model_dump(mode="json"),
                        "status": gf.game.status(gf.game.view(gf.state(), None))})
            raise typer.Exit(1) from None
        except RefereeError as exc:  # not an action at all (a typo, an unknown name): JSON too
            if json_:
                print_json({"error": str(exc), "hint": exc.hint})
            raise
        state = gf.game.view(gf.state(), None)
        if json_:
            print_json({"record": record.model_dump(mode="json"), "status": gf.game.status(state)})
            return
        show(render.record(record, gf.game.info.decisive, explain, gf.game.grammar))
        if board:
            show(render.board(gf.game.board_view(state)), soft_wrap=True)
        else:
            for line in gf.game.status(state):
                show(f"[bold cyan]{literal(line)}[/]")


def read_data_file(path: Path, what: str = "position") -> object:
    """Returns the data of a YAML or JSON file, through the guarded reader (:mod:`referee.files`).

    Raises:
        PositionError: unreadable, too large, or not valid YAML/JSON.
    """
    try:
        return load_data(path, what=f"{what} file", limit=MAX_DATA_FILE_BYTES)
    except PositionError:
        raise
    except InputFileError as exc:
        raise PositionError(exc.file, exc.field, exc.problem) from None


def load_position(
    game_name: str | None, path: Path, tables: Path | None
) -> tuple[AnyEngine, GameState, TableSet]:
    """Returns the engine, state and table set of an umpire position file. Without a game name
    the file's own ``game`` key says which game it is.

    Raises:
        PositionError: the file is unreadable, malformed, for another game, or says no game.
        UnknownNameError: unknown game.
    """
    from referee.tables import load_table_set  # lazy: tables

    data = read_data_file(path)
    named = data.get("game") if isinstance(data, dict) else None
    if game_name is None:
        if not isinstance(named, str):
            raise PositionError(str(path), "game", _("the file does not say its game; add game: SLUG to it, "
                                "or give the game first (e.g. referee judge cyrus-pyxis --position FILE ...)"))
        game_name = named
    game = find_game(game_name)
    if named is not None and named != game.info.slug:
        raise PositionError(str(path), "game", _("the file is for {named}, not {game}").format(
            named=repr(named), game=repr(game.info.slug)))
    table_set = load_table_set(game.info.slug, tables)
    return game, game.from_position(table_set, data, str(path)), table_set


def umpire_dice(dice: str | None, seed: str | None) -> object:
    """Returns the dice of an umpire command: typed faces, a seeded stream, or fresh digital dice."""
    from referee.dice import CommittedDice, PhysicalDice, new_seed, parse_faces  # lazy: pydantic models

    if dice is not None and seed is not None:
        raise typer.BadParameter(_("give --dice or --seed, not both"))
    if dice is not None:
        return PhysicalDice(parse_faces(dice))
    if seed is not None:
        return CommittedDice.from_text(seed)
    return CommittedDice(new_seed(), "umpire")
