"""``referee dice``: the commitment, revealing the seed, verifying every digital roll."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.common import DEFAULT_FILE, FileOpt, JsonOpt, err, fail, game_file, guarded, literal, print_json, show
from referee.games import find_game
from referee.i18n import _, ngettext

app = typer.Typer(no_args_is_help=True)



@app.command()
@guarded
def status(file: FileOpt = DEFAULT_FILE, json_: JsonOpt = False) -> None:
    """Show the current commitment and how many rolls were made."""
    from referee.dice import fingerprint  # lazy: pydantic models

    with game_file(file) as gf:
        rolls = [r for e in gf.entries() for r in e.rolls]
        epochs = gf.epochs()  # checked with the journal: never empty
    current = epochs[-1]
    data = {
        "game_id": gf.game_id, "commitment": current.commitment, "fingerprint": fingerprint(current.commitment),
        "epoch": current.epoch, "revealed_epochs": [e.epoch for e in epochs if e.revealed_seq is not None],
        "digital_rolls": sum(1 for r in rolls if r.source == "digital"),
        "physical_rolls": sum(1 for r in rolls if r.source == "physical"),
    }
    if json_:
        print_json(data)
        return
    for key, value in data.items():
        show(f"{key}: {literal(value)}")


@app.command()
@guarded
def reveal(file: FileOpt = DEFAULT_FILE, json_: JsonOpt = False) -> None:
    """Reveal the secret seed (then a new one is committed for later rolls)."""
    from referee import render  # lazy: render

    with game_file(file) as gf:
        result = gf.reveal()
    if json_:
        print_json(result)
        return
    show(render.reveal(result))


@app.command()
@guarded
def verify(
    path: Annotated[Path, typer.Argument(readable=False, help="A game file or a JSON export (default: "
                                                              "./game.referee).")] = DEFAULT_FILE,
    json_: JsonOpt = False,
) -> None:
    """Recompute every digital roll from the revealed seeds (exit 1 on any mismatch)."""
    from referee import render  # lazy: render
    from referee.dice_verify import verify_file  # lazy: journal

    report = verify_file(path, find_game)
    if json_:
        print_json(report)
    else:
        show(render.dice_report(report))
    for line in report.snapshots:  # a snapshot that disagrees with the full replay: never trusted
        err().print(literal(line), soft_wrap=True)
    if not report.ok:
        bad = sum(1 for c in report.checks if c.status == "mismatch")
        seeds = len(report.bad_commitments)
        rolls = ngettext("{n} roll differs from its seed", "{n} rolls differ from their seed", bad).format(n=bad)
        commitments = ngettext("{n} seed differs from its commitment", "{n} seeds differ from their commitment",
                               seeds).format(n=seeds)
        raise fail(_("{path}: the dice do not verify ({rolls}, {commitments})").format(
            path=path, rolls=rolls, commitments=commitments))
