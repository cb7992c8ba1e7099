"""``referee capture`` and ``referee vision markers|calibrate``: reading the board from a photo.

``cv2`` and the ``vision`` package are imported inside the commands, so the rest of the CLI
never loads them. A game supports photo capture when its engine names its capture rules (the
``PhotoCapture`` capability; Cyrus & Pyxis does); the rules-side inference lives there, not here,
and this module knows it only through the ``CaptureRules`` protocol and the core report.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from referee.capabilities import PhotoCapture, capture_of
from referee.cli.common import (
    DEFAULT_FILE,
    FileOpt,
    ForceOpt,
    JsonOpt,
    PositionOpt,
    TablesOpt,
    fail,
    game_file,
    guarded,
    literal,
    load_position,
    print_json,
    read_data_file,
    show,
)
from referee.games import all_games, find_game
from referee.i18n import N_, _, ngettext
from vision.errors import LowConfidenceError, VisionError

if TYPE_CHECKING:
    from referee.capabilities import CaptureRules
    from referee.capture import CaptureReport
    from referee.game import AnyEngine, GameState
    from vision.board import BoardSpec
    from vision.calibration import Calibration
    from vision.config import VisionConfig
    from vision.debug import DebugSink
    from vision.pipeline import Observation

app = typer.Typer()
vision_app = typer.Typer(no_args_is_help=True)

PhotoArg = Annotated[
    Path, typer.Argument(readable=False, help="The photo: PNG, JPEG or HEIC, taken from above the board.")
]
GameOpt = Annotated[str | None, typer.Option("--game", "-g", help="Game slug, e.g. cyrus-pyxis.")]
CalibrationOpt = Annotated[
    Path | None,
    typer.Option("--calibration", "-c", readable=False, help="Colour calibration from referee vision calibrate."),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config", readable=False, help="Vision thresholds to override (YAML; see docs/vision-real-photos.md)."
    ),
]
DebugOpt = Annotated[
    Path | None, typer.Option("--debug", readable=False, help="Write a picture of each stage into this folder.")
]
LearnOpt = Annotated[
    Path | None,
    typer.Option(
        "--learn",
        readable=False,
        help="Keep this photo's cells, labelled by the settled turn, in this folder (for referee vision refit).",
    ),
]


def _capture_rules(engine: AnyEngine) -> CaptureRules[Any]:
    """Returns the game's capture rules (the rules side of reading a photo)."""
    rules = capture_of(engine)
    if rules is None:
        offering = ", ".join(g.info.slug for g in all_games() if isinstance(g, PhotoCapture))
        raise fail(_("photo capture is not available for {game} yet").format(game=engine.info.slug),
                   hint=_("games with it: {games}").format(games=offering))
    return rules


def _sink(debug: Path | None, force: bool = False) -> DebugSink:
    from vision.debug import FolderSink, NullSink  # lazy: vision

    return FolderSink(debug, force=force) if debug is not None else NullSink()


def _settings(path: Path | None) -> VisionConfig | None:
    if path is None:
        return None
    from vision.config import VisionConfig  # lazy: vision

    return VisionConfig.from_yaml(path)


def _calibration(path: Path | None, board: BoardSpec) -> Calibration | None:
    if path is None:
        return None
    from vision.calibration import load_calibration  # lazy: vision

    return load_calibration(path, board)


def _game_of_position(position: Path, game: str | None) -> str:
    if game is not None:
        return game
    data = read_data_file(position)
    name = data.get("game") if isinstance(data, dict) else None
    if not isinstance(name, str):
        raise typer.BadParameter("give --game, or a 'game:' field in the position file")
    return name


def _parse_answers(answers: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in answers or []:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise typer.BadParameter(
                f"{text!r}: write CELL=LEGION (e.g. D7=Athéna) or LEGION=off|eliminated"
            )
        out[key.strip()] = value.strip()
    return out


# ---------------------------------------------------------------------------------------------
# referee capture


@app.command()
@guarded
def capture(
    photo: PhotoArg,
    game: GameOpt = None,
    position: PositionOpt = None,
    calibration: CalibrationOpt = None,
    file: FileOpt = DEFAULT_FILE,
    apply: Annotated[
        bool, typer.Option("--apply", help="Play the turn read from the photo (game file).")
    ] = False,
    answer: Annotated[
        list[str] | None,
        typer.Option(
            "--answer",
            "-a",
            help="Answer a question: CELL=LEGION (D7=Athéna) or LEGION=off|eliminated.",
        ),
    ] = None,
    debug: DebugOpt = None,
    tables: TablesOpt = None,
    json_: JsonOpt = False,
    config: ConfigOpt = None,
    learn: LearnOpt = None,
    force: ForceOpt = False,
) -> None:
    """Read the board from an overhead photo.

    With --game only: what every cell shows (side, terrain, confidence). With --position, or in
    a game file: the legal turn that explains the photo, or questions when several fit; --apply
    plays it in the game file only when exactly one explanation fits.
    """
    start = time.perf_counter()
    answers = _parse_answers(answer)
    sink = _sink(debug, force)  # a folder holding earlier pictures is refused before any work
    if position is not None:
        engine, state, _tables = load_position(_game_of_position(position, game), position, tables)
        if apply:
            raise fail(_("--apply plays into a game file; with --position nothing is stored"), code=2)
        _infer(
            engine, state, photo, calibration, answers, sink, tables, start, json_, None, config, learn
        )
        return
    if game is not None:
        if apply or answers or learn:
            raise fail(
                _("--apply, --answer and --learn need a position: give --position or use a game file"), code=2
            )
        _observe_only(game, photo, calibration, sink, tables, json_, config)
        return

    with game_file(file) as gf:
        engine, state = gf.game, gf.state()
        applied = _infer(
            engine,
            state,
            photo,
            calibration,
            answers,
            sink,
            tables,
            start,
            json_,
            gf if apply else None,
            config,
            learn,
        )
    if apply and not applied:
        raise fail(
            _("nothing was played: the photo does not settle one turn "
              "(answer with --answer, or type the moves)")
        )


def _observe_only(
    game: str,
    photo: Path,
    calibration: Path | None,
    debug: DebugSink,
    tables: Path | None,
    json_: bool,
    settings: Path | None = None,
) -> None:
    from vision.board import load_board  # lazy: vision
    from vision.pipeline import observe  # lazy: vision

    engine = find_game(game)
    board = load_board(engine.info.slug, tables)
    obs = observe(
        photo,
        board,
        _settings(settings),
        calibration=_calibration(calibration, board),
        debug=debug,
    )
    if json_:
        data = obs.model_dump(mode="json")
        if data.get("identity") is None:
            data.pop("identity", None)
        print_json(data)
        return
    _show_observation(obs, board)


def _infer(
    engine: AnyEngine,
    state: GameState,
    photo: Path,
    calibration: Path | None,
    answers: dict[str, str],
    debug: DebugSink,
    tables: Path | None,
    start: float,
    json_: bool,
    gf: object | None,
    settings: Path | None = None,
    learn: Path | None = None,
) -> bool | None:
    """Reads the photo against a position; plays the turn into ``gf`` if given and settled.

    Returns whether the turn was played (None when nothing was asked to be played).
    """
    from vision.board import load_board  # lazy: vision
    from vision.pipeline import read  # lazy: vision

    rules = _capture_rules(engine)
    board = load_board(engine.info.slug, tables)
    labels = rules.legion_labels(state)
    reading = read(
        photo,
        board,
        _settings(settings),
        calibration=_calibration(calibration, board),
        labels=labels,
        debug=debug,
        priors=rules.cell_priors(state),  # what one legal turn may leave on each cell
    )
    obs = reading.observation
    report = rules.infer_turn(state, obs.read_cells(), answers=answers, identity=obs.identity)
    kept = None
    if learn is not None:
        from vision.examples import keep  # lazy: vision

        settled = rules.settled_cells(state, report)
        if settled is not None:
            kept = keep(learn, reading, board, settled, str(photo))
    if report.status == "unreadable":
        raise LowConfidenceError(report.unreadable, N_("too many to check the turn against the rules"))
    applied: bool | None = None
    if gf is not None:
        applied = report.status == "explained" and _play(gf, state, report)
    data = report.model_dump(mode="json")
    data["seconds"] = round(time.perf_counter() - start, 3)
    data["read_seconds"] = obs.seconds
    data["from_rules"] = list(obs.from_rules)
    if applied is not None:
        data["applied"] = applied
    if learn is not None:
        data["learned"] = str(kept) if kept is not None else None
    if json_:
        print_json(data)
    else:
        from referee import render  # lazy: render

        show(render.explains(report))
        if obs.from_rules:
            n = len(obs.from_rules)
            show("[dim]" + ngettext(
                "{n} cell read with what the rules allow, not from the photo alone: {cells}",
                "{n} cells read with what the rules allow, not from the photo alone: {cells}",
                n).format(n=n, cells=", ".join(obs.from_rules)) + "[/]")
        if learn is not None:
            show(_("kept this photo's cells as an example: {path}").format(path=literal(kept)) if kept is not None
                 else _("not kept as an example: the photo does not settle one turn"))
        if applied:
            n = len(report.actions)
            show("[green]" + ngettext("played {n} action into the game file", "played {n} actions into the game file",
                                      n).format(n=n) + "[/]")
    return applied


def _play(gf: object, before: GameState, report: CaptureReport) -> bool:
    """Plays the report's actions into the game file in one transaction: all are journaled, or
    none. The verdicts the search reached (``report.judged``) are kept for the actions played in
    the very state it judged them in, not judged again."""
    from referee.journal import GameFile  # lazy: journal

    assert isinstance(gf, GameFile)
    if gf.game.state_hash(gf.state()) != gf.game.state_hash(before):
        raise fail(_("the game file changed while the photo was read; run referee capture again"))
    gf.do_all(report.actions, start=gf.game.state_hash(before), judged=report.judged)
    return True


def _show_observation(obs: Observation, board: BoardSpec) -> None:
    from referee import render  # lazy: render
    from referee.game import BoardView, CellView, Counter, MarkStyle, TerrainStyle  # lazy: pydantic models

    names = board.cell_names()
    cells = []
    for i, name in enumerate(names):
        r = obs.cells[name]
        unsure = name in obs.unreadable
        row, col = divmod(i, board.cols)
        counters = () if unsure or r.occupant is None else (Counter(side=r.occupant, label=r.occupant[:1].upper()),)
        cells.append(
            CellView(
                name=name,
                terrain=r.terrain,
                at=(col, row),
                centre=(col + 0.5, row + 0.5),
                counters=counters,
                marks=("unsure",) if unsure else (),
            )
        )
    bare = next(iter(board.terrain_colours), "")
    view = BoardView(
        title="as read from the photo",
        layout="square",
        rows=board.rows,
        cols=board.cols,
        row_labels=tuple(n.rstrip("0123456789") for n in names[:: board.cols]),
        col_labels=tuple(str(c + 1) for c in range(board.cols)),
        cells=tuple(cells),
        terrain={
            t: TerrainStyle(colour=rgb, mark=" " if t == bare else t[:1].upper())
            for t, rgb in board.terrain_colours.items()
        },
        side_colours=board.side_colours,
        side_marks={side: side[:1].lower() for side in board.side_colours},
        marks={"unsure": MarkStyle("?", (230, 0, 0), "unreadable")},
        codes=((", ".join(side[:1].lower() + side[:1].upper() for side in board.side_colours),
                N_("a counter of that side: the photo tells its side, not which counter it is")),),
    )
    show(render.board(view, legend=False), soft_wrap=True)
    reg = obs.registration
    found = (
        _("markers {ids}").format(ids=", ".join(map(str, reg.markers)))
        if reg.method == "markers"
        else _("the board outline")
    )
    n = len(obs.unreadable)
    show(
        ngettext("read in {seconds} s from {found}; {n} cell unclear",
                 "read in {seconds} s from {found}; {n} cells unclear", n).format(
            seconds=f"{obs.seconds:.2f}", found=literal(found), n=n)
        + (f": {literal(', '.join(obs.unreadable))}" if obs.unreadable else "")
    )


# ---------------------------------------------------------------------------------------------
# referee vision markers | calibrate


@vision_app.command()
@guarded
def markers(
    out: Annotated[Path, typer.Option("--out", "-o", readable=False, help="PNG file to write.")],
    game: Annotated[
        str, typer.Option("--game", "-g", help="Game whose board the markers fit.")
    ] = "cyrus-pyxis",
    cell_mm: Annotated[
        float, typer.Option("--cell-mm", help="Side of one board cell as printed, in mm.")
    ] = 40.0,
    dpi: Annotated[int, typer.Option("--dpi", help="Printer resolution.")] = 300,
    tables: TablesOpt = None,
    force: ForceOpt = False,
) -> None:
    """Write a printable sheet of the four corner markers (ArUco, with L-shaped corner guides)."""
    from referee.images import save_png  # lazy: cv2
    from vision.board import load_board  # lazy: vision
    from vision.markers import marker_sheet  # lazy: vision

    board = load_board(find_game(game).info.slug, tables)
    sheet = marker_sheet(board.markers, board.rows, board.cols, cell_mm, dpi)
    if out.suffix.lower() != ".png":
        raise VisionError(_("{path}: the marker sheet is written as PNG (name it .png)").format(path=out))
    save_png(sheet, out, N_("marker sheet"), force=force)
    show(
        _("wrote {path}: {n} corner tabs ({dictionary}, ids {ids}), one cell = {mm} mm at {dpi} dpi; "
          "print at 100 % scale, cut along the dashed lines, lay each L on its grid corner").format(
            path=literal(out), n=len(board.markers.placements), dictionary=literal(board.markers.dictionary),
            ids=", ".join(str(p.id) for p in board.markers.placements), mm=f"{cell_mm:g}", dpi=dpi)
    )


@vision_app.command()
@guarded
def calibrate(
    photo: PhotoArg,
    position: Annotated[
        Path, typer.Option("--position", "-p", readable=False, help="The position the photo shows (YAML/JSON).")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", readable=False, help="Calibration file to write (JSON).")],
    game: GameOpt = None,
    debug: DebugOpt = None,
    tables: TablesOpt = None,
    json_: JsonOpt = False,
    config: ConfigOpt = None,
    force: ForceOpt = False,
) -> None:
    """Learn your set's colours and counter labels from a photo of a known position."""
    from referee.writing import check_output  # lazy: sqlite3
    from vision.board import load_board  # lazy: vision
    from vision.calibrate import calibrate as learn  # lazy: vision
    from vision.calibration import save_calibration  # lazy: vision

    check_output(out, force=force, what="calibration file")  # refused before the photo is read
    sink = _sink(debug, force)
    engine, state, _tables = load_position(_game_of_position(position, game), position, tables)
    rules = _capture_rules(engine)
    board = load_board(engine.info.slug, tables)
    cal = learn(
        photo,
        board,
        rules.cell_contents(state),
        legions=rules.legion_labels(state),
        legion_at=rules.legion_cells(state),
        cfg=_settings(config),
        debug=sink,
    )
    save_calibration(cal, out, force=force)
    if json_:
        print_json({"file": str(out), "measured": list(cal.measured), "labels": len(cal.templates)})
        return
    show(
        ngettext("wrote {path}: {classes} colour classes measured, {n} counter label learned",
                 "wrote {path}: {classes} colour classes measured, {n} counter labels learned",
                 len(cal.templates)).format(path=literal(out), classes=len(cal.measured), n=len(cal.templates))
    )


@vision_app.command()
@guarded
def refit(
    examples: Annotated[
        Path, typer.Option("--examples", "-e", readable=False, help="Folder of examples kept by capture --learn.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", readable=False, help="Calibration file to write (JSON).")],
    calibration: CalibrationOpt = None,
    game: Annotated[str, typer.Option("--game", "-g", help="Game whose board the examples show.")] = "cyrus-pyxis",
    tables: TablesOpt = None,
    json_: JsonOpt = False,
    config: ConfigOpt = None,
    force: ForceOpt = False,
) -> None:
    """Re-fit your table's colours from the photos whose turns were settled (kept with capture --learn)."""
    from referee.writing import check_output  # lazy: sqlite3
    from vision.board import load_board  # lazy: vision
    from vision.calibration import save_calibration  # lazy: vision
    from vision.examples import load_examples  # lazy: vision
    from vision.examples import refit as learn_again  # lazy: vision

    check_output(out, force=force, what="calibration file")  # refused before the examples are read
    board = load_board(find_game(game).info.slug, tables)
    kept = load_examples(examples, board)
    cal = learn_again(kept, board, _calibration(calibration, board), _settings(config))
    save_calibration(cal, out, force=force)
    if json_:
        print_json({"file": str(out), "examples": len(kept), "measured": list(cal.measured)})
        return
    n = len(kept)
    show(ngettext("wrote {path}: colours measured again on {n} kept photo",
                  "wrote {path}: colours measured again on {n} kept photos", n).format(path=literal(out), n=n))
