"""``referee demo``: a short scripted Cyrus & Pyxis game showing what the referee does."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from referee.cli.common import guarded, literal, read_data_file, show
from referee.errors import IllegalActionError, PositionError, RefereeError
from referee.games import find_game
from referee.i18n import _

app = typer.Typer()


@app.command()
@guarded
def demo(
    script: Annotated[
        Path | None, typer.Option(readable=False, help="Demo script (default: the Cyrus & Pyxis sample).")
    ] = None,
    keep: Annotated[Path | None, typer.Option(readable=False, help="Keep the demo's game file at this path.")] = None,
) -> None:
    """Play a short scripted game: set-up, moves, a rejected move, archer support, combat, retreat."""
    from referee import render  # lazy: render
    from referee.demo import DemoScript  # lazy: journal
    from referee.game import validate_file  # lazy: pydantic models
    from referee.journal import GameFile, install_copy  # lazy: journal
    from referee.tables import data_root, load_table_set  # lazy: tables

    path = script or data_root("samples") / "cyrus-pyxis" / "demo.yaml"
    data = validate_file(DemoScript, read_data_file(path, "demo script"), str(path))
    engine = find_game(data.game)
    table_set = load_table_set(engine.info.slug)
    setup_path = path.parent / data.setup
    texts = engine.checked_setup(table_set, read_data_file(setup_path, "set-up"), str(setup_path))
    with tempfile.TemporaryDirectory() as tmp:
        # played in a temporary folder; --keep gets a copy only once the whole script ran
        game_path = Path(tmp) / "demo.referee"
        with GameFile.create(game_path, engine, table_set) as gf:
            show(f"[bold]{literal(_(data.title))}[/]")  # the packaged script's words are catalog entries
            kept = _("kept at {path}").format(path=keep) if keep else _("temporary")
            show(f"$ referee new {literal(engine.info.slug)} --setup {literal(setup_path.name)}   [dim]("
                 + _("a real game file: {kept}").format(kept=literal(kept)) + ")[/]")
            for text in texts:
                gf.do(text)
            show(render.board(engine.board_view(gf.state())), soft_wrap=True)
            for number, step in enumerate(data.steps):
                if step.say:
                    show(f"\n[bold yellow]{literal(_(step.say))}[/]")
                if step.do is None:
                    continue
                said = engine.grammar.say(step.do) if engine.grammar is not None else step.do
                show(f"$ referee do {literal(repr(said))}" if step.do != "resolve" else "$ referee resolve")
                try:
                    record = gf.do(step.do)
                except IllegalActionError as exc:
                    codes = [v.code for v in exc.verdict.violations]
                    if step.expect != "illegal" or (step.codes and codes != step.codes):
                        raise RefereeError(_("{path}: step {step} was rejected with {codes}").format(
                            path=path, step=repr(step.do), codes=codes)) from None
                    show(render.verdict(exc.verdict, grammar=engine.grammar))
                    show("[dim]  " + _("(rejected: the game file is unchanged)") + "[/]")
                    continue
                except RefereeError as exc:
                    error = PositionError(str(path), f"steps[{number}].do", str(exc))
                    error.hint = exc.hint
                    raise error from None
                if step.expect == "illegal":
                    raise RefereeError(_("{path}: step {step} was expected to be rejected").format(
                        path=path, step=repr(step.do)))
                show(render.record(record, engine.info.decisive, False, engine.grammar))
                if step.board:
                    show(render.board(engine.board_view(gf.state()), legend=False), soft_wrap=True)
            show("\n" + _("[bold]The journal of this game:[/] (referee log)"))
            show(render.log([e for e in gf.entries() if "forest" not in e.text and "hill" not in e.text][-12:],
                            engine.grammar))
        if keep is not None:
            install_copy(game_path, keep)
    show("\n" + _("Start your own: [bold]referee new cyrus-pyxis --setup setup.yaml[/], then [bold]referee play[/]."))
