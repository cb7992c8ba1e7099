"""Rulings on demand: judge, legal, resolve (on a position file or the game file), schema."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.common import (
    DEFAULT_FILE,
    AsOpt,
    DiceOpt,
    ExplainOpt,
    FileOpt,
    JsonOpt,
    PositionOpt,
    SeedOpt,
    TablesOpt,
    fail,
    game_file,
    guarded,
    load_position,
    play_in_file,
    print_json,
    show,
    umpire_dice,
    viewer_of,
)
from referee.games import find_game, game_slug
from referee.i18n import N_, _, ngettext
from referee.phrases import say

if TYPE_CHECKING:
    from pydantic import BaseModel
    from rich.console import RenderableType

    from referee.game import AnyEngine, GameState

app = typer.Typer()

Words = Annotated[list[str], typer.Argument(help="The words; with --position, optionally the game first (the file's "
                                                 "game: key names it otherwise).")]


def _game_word(words: list[str]) -> str | None:
    """Returns the first word when it names a game (``cyrus-pyxis``, ``iliad``...), else None."""
    if words and game_slug(words[0]):
        return words[0]
    return None


def _split(words: list[str], position: Path | None, what: str) -> tuple[str | None, str]:
    if position is None:
        return None, " ".join(words)
    game = _game_word(words)
    rest = words[1:] if game is not None else words
    if not rest:
        raise fail(_("with --position, give the {what}, e.g. 'Pyxis C5' (the game first if the file does not "
                     "say it)").format(what=_(what)), code=2)
    return game, " ".join(rest)


def _target(
    words: list[str], position: Path | None, file: Path, tables: Path | None, what: str
) -> tuple[AnyEngine, GameState, str]:
    game_name, rest = _split(words, position, what)
    if position is not None:
        engine, state, _tables = load_position(game_name, position, tables)
        return engine, state, rest
    with game_file(file) as gf:  # the state is a value: the file need not stay open
        return gf.game, gf.state(), rest


@app.command(context_settings={"ignore_unknown_options": True})
@guarded
def judge(
    words: Words,
    position: PositionOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    explain: ExplainOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Is this action legal now, and why not? (exit 0 either way; nothing is played)"""
    engine, state, text = _target(words, position, file, tables, N_("action"))
    verdict = engine.judge(state, engine.parse(state, text))
    if json_:
        print_json(verdict)
        return
    from referee import render  # lazy: render

    show(render.verdict(verdict, explain, engine.info.decisive, grammar=engine.grammar))


@app.command()
@guarded
def legal(
    words: Words,
    position: PositionOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    as_: AsOpt = None,
    explain: ExplainOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Where may this unit go now (attacks included), or whom may this archer support?
    Drawn for the shared table, or with --as for one player."""
    engine, state, unit = _target(words, position, file, tables, N_("unit"))
    report = engine.legal_report(engine.view(state, viewer_of(engine, as_)), unit)
    if json_:
        print_json(report)
        return
    show(_report(engine, report, explain))


def _report(engine: AnyEngine, report: BaseModel, explain: bool) -> RenderableType:
    """Returns a legal report in text: the game's own lines, then what it relied on (one marker
    line, or with ``explain`` every item), as a verdict says it."""
    from rich.console import Group  # lazy: rich
    from rich.text import Text  # lazy: rich

    from referee import render  # lazy: render
    from referee.disclosures import ReliesOn  # lazy: pydantic models

    lines = report.explain() if callable(getattr(report, "explain", None)) else [  # type: ignore[attr-defined]
        report.model_dump_json(indent=2)]
    parts: list[RenderableType] = [Text(line) for line in lines if not isinstance(line, ReliesOn)]
    parts += render.disclosure(getattr(report, "provisional", ()), engine.info.decisive, explain, "explain")
    return Group(*parts)


@app.command()
@guarded
def resolve(
    words: Annotated[list[str] | None, typer.Argument(help="With --position: the game.")] = None,
    position: PositionOpt = None,
    dice: DiceOpt = None,
    seed: SeedOpt = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    board: Annotated[bool, typer.Option(help="In a game file: show the board afterwards.")] = False,
    strict: Annotated[bool, typer.Option(
        "--strict", help="With --position: refuse (exit 1) while a declaration is still open.")] = False,
    explain: ExplainOpt = False,
    json_: JsonOpt = False,
) -> None:
    """Resolve what is pending (combats, retreats): from a position file, or in the game file.

    On a position file, declarations it leaves open (e.g. archer supports still possible) are
    listed in a note and the resolution goes on without them; --strict refuses instead.
    """
    from referee import render  # lazy: render

    if position is not None:
        engine, state, _tables = load_position(words[0] if words else None, position, tables)
        still_open = engine.open_declarations(state)
        if still_open and strict:
            listed = "; ".join(r.text() for r in still_open)
            raise fail(_("{position}: still open: {listed} (declare them, or say the step is over; --strict)").format(
                position=position, listed=listed))
        _after, result = engine.resolve_pending(state, umpire_dice(dice, seed))  # type: ignore[arg-type]
        if json_:
            data = result.model_dump(mode="json")
            data["open"] = [r.model_dump(mode="json") for r in still_open]
            print_json(data)
            return
        from rich.console import Group  # lazy: rich
        from rich.text import Text  # lazy: rich

        events = getattr(result, "events", None)
        if events:
            show(render.resolution(events, getattr(result, "provisional", ()), engine.info.decisive, explain))
        elif callable(getattr(result, "explain", None)):
            show(Group(*[Text(line) for line in result.explain()]))  # type: ignore[attr-defined]
        else:
            show(Text(result.model_dump_json(indent=2)))
        if still_open:
            n = len(still_open)
            show(Text(ngettext("note: resolved without {n} declaration still open:",
                               "note: resolved without {n} declarations still open:", n).format(n=n), style="yellow"))
            for r in still_open:
                show(Text(f"  - {r.text()} ({'; '.join(str(c) for c in r.cites)})"))
        return
    if words:
        raise fail(_("unexpected {words}: in a game file, just type referee resolve").format(
            words=repr(" ".join(words))), code=2)
    play_in_file(file, "resolve", dice, json_, board, explain)


@app.command()
@guarded
def why(
    entry: Annotated[int | None, typer.Argument(help="Journal entry number (default: the last ruling).")] = None,
    all_: Annotated[bool, typer.Option("--all", help="Every stand-in and reading the game can rely on.")] = False,
    file: FileOpt = DEFAULT_FILE,
    json_: JsonOpt = False,
) -> None:
    """Every stand-in value and interpretation a ruling relied on (the last one by default), or
    with --all every one the game's tables hold."""

    with game_file(file) as gf:
        if all_:
            from referee.disclosures import inventory  # lazy: pydantic models

            items = inventory(gf.table_set)
            label = f"{gf.game.info.title}"
        else:
            chosen = [e for e in gf.entries() if e.record is not None and not e.undone
                      and (entry is None or e.seq == entry)]
            if not chosen:
                raise fail(_("no journal entry {entry} with a ruling").format(entry=entry) if entry is not None
                           else _("no ruling yet: play an action first"))
            found = chosen[-1]
            assert found.record is not None
            items = list(found.record.provisional)
            said = gf.game.grammar.say(found.text) if gf.game.grammar is not None else found.text
            label = f"#{found.seq} {said}"
    if json_:
        print_json({"entry": None if all_ else found.seq, "provisional": items})
        return
    from rich.text import Text  # lazy: rich

    if not items:
        show(Text(_("{what}: relies on no stand-in").format(what=label)))
        return
    show(Text(_("{what} relies on:").format(what=label), style="bold"))
    for item in items:
        show(Text(f"  ⚠ {say(item)}", style="yellow"))


@app.command()
@guarded
def schema(game: Annotated[str, typer.Argument(help="Game slug, e.g. cyrus-pyxis.")]) -> None:
    """Print the JSON Schema of the game's position files."""
    print_json(find_game(game).position_model.model_json_schema())
