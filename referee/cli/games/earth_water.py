"""``referee persia prepare|operate|supply``: PERS.IA, the solo Persian of 300: Earth & Water.

With ``--position FILE`` the procedure runs on a position file and prints the steps and the
resulting position (nothing is written); without it, it is played in the game file and
journaled like any action.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.common import (
    DEFAULT_FILE,
    FileOpt,
    JsonOpt,
    PositionOpt,
    SeedOpt,
    TablesOpt,
    fail,
    game_file,
    guarded,
    load_position,
    print_json,
    show,
)
from referee.i18n import _

if TYPE_CHECKING:
    from referee.games.earth_water.announce import PersiaReport, Procedure

app = typer.Typer(no_args_is_help=True)

SLUG = "300-solo"
RollOpt = Annotated[
    int | None,
    typer.Option("--dice", "--roll", help="The die you rolled on the table (1-6); without it, a verifiable "
                 "digital roll. (--roll is the older name.)"),
]


def _run(procedure: Procedure, position: Path | None, roll: int | None, file: Path, tables: Path | None,
         json_: bool, seed: str | None = None) -> None:
    from referee import render  # lazy: render
    from referee.dice import PhysicalDice  # lazy: pydantic models
    from referee.games.earth_water.announce import PersiaReport  # lazy: engine
    from referee.games.earth_water.bot import die_due  # lazy: engine
    from referee.games.earth_water.engine import EarthWaterEngine, persia_dice  # lazy: engine
    from referee.games.earth_water.state import EarthWaterState  # lazy: engine
    from referee.games.earth_water.tables import Phase  # lazy: engine

    report: PersiaReport
    if position is not None:
        engine, state, _ = load_position(SLUG, position, tables)
        assert isinstance(engine, EarthWaterEngine) and isinstance(state, EarthWaterState)
        persia_dice(roll)  # rejects a face that is not a die face
        if roll is not None and procedure == "operate" and not die_due(state):
            _unneeded(roll)
            roll = None
        dice = persia_dice(roll, seed)
        _, report = engine.persia(state, procedure, dice)
        if isinstance(dice, PhysicalDice):
            dice.check_all_used()
    else:
        if seed is not None:
            raise fail("--seed is for --position; a game file rolls with its own committed dice", code=2)
        persia_dice(roll)  # rejects a face that is not a die face before touching the file
        with game_file(file) as gf:
            now = gf.state()
            if (roll is not None and procedure == "operate" and isinstance(now, EarthWaterState)
                    and now.phase is Phase.OPERATIONS and now.battle is None and not die_due(now)):
                _unneeded(roll)
                roll = None
            record = gf.do(f"persia {procedure}", [roll] if roll is not None else None)
        report = PersiaReport.model_validate(record.details[0])
    if json_:
        print_json(report)
        return
    show(render.explains(report))


def _unneeded(roll: int) -> None:
    """5.1, 5.2: the operation rolls no die (empty hand, or defence); the typed face is set aside."""
    typer.echo(_("note: PERS.IA rolls no die in this operation (empty hand or defence of a Major); the typed "
                 "{n} was not needed").format(n=roll), err=True)


@app.command()
@guarded
def prepare(position: PositionOpt = None, file: FileOpt = DEFAULT_FILE, tables: TablesOpt = None,
            json_: JsonOpt = False) -> None:
    """PERS.IA preparation (solo 4): cards, bridge, fleets and armies from twelve talents."""
    _run("prepare", position, None, file, tables, json_)


@app.command()
@guarded
def operate(position: PositionOpt = None, roll: RollOpt = None, seed: SeedOpt = None, file: FileOpt = DEFAULT_FILE,
            tables: TablesOpt = None, json_: JsonOpt = False) -> None:
    """One PERS.IA operation (solo 5): defence, or the die's move, destruction or placement."""
    if roll is not None and seed is not None:
        raise fail("give --dice or --seed, not both", code=2)
    _run("operate", position, roll, file, tables, json_, seed)


@app.command()
@guarded
def supply(position: PositionOpt = None, file: FileOpt = DEFAULT_FILE, tables: TablesOpt = None,
           json_: JsonOpt = False) -> None:
    """PERS.IA supply (solo 6): discard the hand, attrition, lines of communication."""
    _run("supply", position, None, file, tables, json_)


def register(root: typer.Typer) -> None:
    """Adds the ``referee persia`` commands to the ``referee`` command line."""
    root.add_typer(app, name="persia", help="PERS.IA, the solo Persian opponent of 300: Earth & Water.")
