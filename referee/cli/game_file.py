"""Game-file commands: new, do, adjust, undo, redo, log, show, export, import."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.capabilities import setup_of
from referee.cli.common import (
    DEFAULT_FILE,
    AsOpt,
    DiceOpt,
    ExplainOpt,
    FileOpt,
    ForceOpt,
    JsonOpt,
    PositionOpt,
    TablesOpt,
    game_file,
    guarded,
    literal,
    load_position,
    play_in_file,
    print_json,
    read_data_file,
    show,
    viewer_of,
)
from referee.errors import ArgumentError, RefereeError
from referee.files import parse_json
from referee.games import find_game
from referee.i18n import _, ngettext
from referee.phrases import say

if TYPE_CHECKING:
    from referee.game import AnyEngine
    from referee.tables import TableSet

app = typer.Typer()


def _sample(path: Path, slug: str) -> Path:
    """Returns ``path``, or the shipped sample of that name (``--setup setup.yaml`` works anywhere)."""
    from referee.tables import data_root  # lazy: tables

    try:
        if path.exists():
            return path
        shipped = data_root("samples") / slug / path.name
        return shipped if shipped.is_file() else path
    except (OSError, ValueError):  # a name too long, a NUL: the guarded reader says why
        return path


def _faces(dice: str | None) -> list[int] | None:
    from referee.dice import parse_faces  # lazy: pydantic models

    return parse_faces(dice) if dice is not None else None


@app.command()
@guarded
def new(
    game: Annotated[str, typer.Argument(help="Game: cyrus-pyxis, iliad, 300-solo, zargo.")],
    setup: Annotated[
        Path | None,
        typer.Option(readable=False,
                     help="Set-up file played in rule order; a bare name like setup.yaml finds the shipped sample."),
    ] = None,
    file: FileOpt = DEFAULT_FILE,
    tables: TablesOpt = None,
    force: Annotated[bool, typer.Option(help="Replace an existing file at --file.")] = False,
    players: Annotated[int | None, typer.Option(
        min=1, max=8, help="How many play, for games played by two to four (Zargo's Lords).")] = None,
    json_: JsonOpt = False,
) -> None:
    """Start a new game file; shows the dice commitment fingerprint, whose turn it is, and how many
    readings and stand-in values the game relies on (referee tables GAME lists them)."""
    from referee.dice import fingerprint  # lazy: pydantic models
    from referee.disclosures import inventory  # lazy: pydantic models
    from referee.journal import GameFile  # lazy: journal
    from referee.tables import load_table_set  # lazy: tables

    engine = find_game(game)
    table_set = load_table_set(engine.info.slug, tables)
    texts: list[str] = []
    asked = setup
    if setup is not None:
        setup = _sample(setup, engine.info.slug)
        texts = engine.checked_setup(table_set, read_data_file(setup, "set-up"), str(setup))
    if players is not None:
        first = engine.players_actions(players)
        if setup is not None and first and [t.split()[:2] for t in texts[: len(first)]] != [
            t.split()[:2] for t in first
        ]:
            raise typer.BadParameter(_("the set-up file says how many play; drop --players or make them agree"),
                                     param_hint="--players")
        texts = texts if setup is not None else first
    # built beside --file and moved into place only once every set-up action was played
    gf = GameFile.create(file, engine, table_set, force=force, actions=texts)
    state = engine.view(gf.state(), None)
    commit = gf.current_epoch().commitment
    relies = inventory(table_set)
    if json_:
        print_json({"file": str(file), "game": engine.info.slug, "game_id": gf.game_id, "commitment": commit,
                    "fingerprint": fingerprint(commit), "tables_overridden": table_set.overridden(),
                    "disclosures": relies, "setup": str(setup) if setup is not None else None,
                    "position": engine.to_position(state).model_dump(mode="json"),
                    "status": engine.status(state)})
    else:
        said = None
        if setup is not None:
            shipped = setup != asked  # a bare name found among the shipped samples, not here
            said = (_("Set-up played from the shipped sample {path} (there is no {name} here)") if shipped
                    else _("Set-up played from {path}")).format(path=setup, name=asked)
        _first_screen(engine, gf.game_id, file, fingerprint(commit), table_set, engine.status(state), said)
    gf.close()


def _first_screen(engine: AnyEngine, game_id: str, file: Path, fingerprint: str, table_set: TableSet,
                  status: list[str], setup: str | None) -> None:
    """Prints what ``new`` says, short enough for a first screen: the game and its file, the dice
    commitment, whose turn it is, and one line counting the readings and stand-ins (the complete
    list is ``referee tables GAME``, ``referee why --all`` and ``new --json``)."""
    from rich.text import Text  # lazy: rich

    from referee.disclosures import counts  # lazy: pydantic models

    show(_("[bold]New {title} game[/] in {file} (id {id})").format(
        title=literal(engine.info.title), file=literal(file), id=literal(game_id)))
    if setup is not None:
        show(Text(setup))
    show(_("Dice commitment: [bold]{fingerprint}[/] (the full SHA-256: referee dice status)").format(
        fingerprint=literal(fingerprint)))
    if table_set.overridden():
        show(_("[yellow]Tables overridden: {names}[/]").format(names=literal(", ".join(table_set.overridden()))))
    for line in status:
        show(Text(line, style="bold cyan"))
    readings, values = counts(table_set)
    if readings or values:
        said = _("{readings} and {values} apply — referee tables {game}").format(
            readings=ngettext("{n} reading", "{n} readings", readings).format(n=readings),
            values=ngettext("{n} stand-in", "{n} stand-ins", values).format(n=values), game=engine.info.slug)
        show(Text("⚠ " + said, style="yellow"))
    show(Text(_("The board: referee show; what to type: referee play, then help"), style="dim"))


def show_inventory(items: list[str]) -> None:
    """Prints the stand-ins and readings a game relies on, said once (``new``, ``tables``)."""
    from rich.text import Text  # lazy: rich

    if not items:
        return
    show(Text(_("This game relies on these stand-ins and readings (said once; a ruling then shows one ⚠ "
                "line, 'referee why' the full list):"), style="yellow"))
    for item in items:
        show(Text(f"  ⚠ {say(item)}", style="yellow"))


WORDS = {"ignore_unknown_options": True}  # "Abydos -> Pella" is an action, not an option


@app.command(name="do", context_settings=WORDS)
@guarded
def do_(
    action: Annotated[list[str], typer.Argument(help="The action, e.g. 'Pyxis C5' or 'support Messène Athéna'.")],
    dice: DiceOpt = None,
    file: FileOpt = DEFAULT_FILE,
    json_: JsonOpt = False,
    board: Annotated[bool, typer.Option(help="Show the board after the action.")] = False,
    explain: ExplainOpt = False,
) -> None:
    """Play the next action; a rejected action changes nothing and says why (with --json: the
    verdict as JSON, exit 1)."""
    play_in_file(file, " ".join(action), dice, json_, board, explain)


@app.command()
@guarded
def adjust(
    override: Annotated[
        list[str], typer.Argument(help="The override, e.g. 'Athéna C5', 'Athéna off', 'terrain C5 forest'.")
    ],
    reason: Annotated[str, typer.Option(help="Why (mandatory): a house rule, a slip to fix...")],
    file: FileOpt = DEFAULT_FILE,
    json_: JsonOpt = False,
) -> None:
    """Umpire override: edit the tracked position directly; journaled with its reason."""
    from referee import render  # lazy: render

    with game_file(file) as gf:
        record = gf.do(" ".join(override), adjust_reason=reason)
        if json_:
            print_json({"record": record.model_dump(mode="json"), "reason": reason})
            return
        show(render.record(record))
        show("[yellow]" + _("reason: {reason}").format(reason=literal(reason)) + "[/]")


@app.command()
@guarded
def undo(
    force: Annotated[bool, typer.Option(help="Take back an action that rolled dice (logged as forced).")] = False,
    file: FileOpt = DEFAULT_FILE,
    json_: JsonOpt = False,
) -> None:
    """Take back the last action (free unless it rolled dice or a seed was revealed since)."""
    from referee import render  # lazy: render

    with game_file(file) as gf:
        result = gf.undo(force=force)
        if json_:
            print_json(result)
            return
        show(render.undo(result))
        for line in gf.game.status(gf.game.view(gf.state(), None)):
            show(f"[bold cyan]{literal(line)}[/]")


@app.command()
@guarded
def redo(file: FileOpt = DEFAULT_FILE, json_: JsonOpt = False) -> None:
    """Play again the last undone action (only if nothing was played since)."""
    from referee import render  # lazy: render

    with game_file(file) as gf:
        result = gf.redo()
        if json_:
            print_json(result)
            return
        show(render.undo(result))
        for line in gf.game.status(gf.game.view(gf.state(), None)):
            show(f"[bold cyan]{literal(line)}[/]")


@app.command()
@guarded
def log(
    file: FileOpt = DEFAULT_FILE,
    as_: AsOpt = None,
    last: Annotated[int | None, typer.Option("--last", min=1, help="Only the last N entries.")] = None,
    json_: JsonOpt = False,
) -> None:
    """Show the journal: every action, override, roll, undo and reveal (secrets as commitments)."""
    from referee import render  # lazy: render
    from referee.viewing import seen_by  # lazy: journal

    with game_file(file) as gf:
        seen = seen_by(gf, viewer_of(gf.game, as_))  # the journal is public; the viewer's secrets follow it
        entries = list(seen.entries)
        if last is not None:
            entries = entries[-last:]
        if json_:
            data = [e.model_dump(mode="json") for e in entries]
            for item in data:  # the parsed action is stored as JSON text: give it as an object
                if isinstance(item.get("action"), str):
                    item["action"] = parse_json(f"entry {item['seq']}.action", item["action"])
            print_json(data)  # type: ignore[arg-type]
            return
        show(render.log(entries, gf.game.grammar))
    _show_secrets([(s.label, s.value, s.fingerprint) for s in seen.secrets])


@app.command()
@guarded
def status(file: FileOpt = DEFAULT_FILE, as_: AsOpt = None, json_: JsonOpt = False) -> None:
    """Show the turn, the phase and whose input is awaited (with --as: that player's secrets too)."""
    from referee.viewing import seen_by  # lazy: journal

    with game_file(file) as gf:
        seen = seen_by(gf, viewer_of(gf.game, as_))
    viewer, lines = seen.viewer, seen.status()
    mine = [(s.label, s.value, s.fingerprint) for s in seen.secrets]
    if json_:
        print_json({"viewer": viewer, "status": lines, "secrets": _secrets_json(mine)})
        return
    for line in lines:
        show(f"[bold cyan]{literal(line)}[/]")
    _show_secrets(mine)


def _secrets_json(mine: list[tuple[str, str, str]]) -> list[object]:
    return [{"label": label, "secret": value, "fingerprint": fp} for label, value, fp in mine]


def _show_secrets(mine: list[tuple[str, str, str]]) -> None:
    for label, value, fp in mine:
        show(_("[magenta]your secret {label}: {value}[/] [dim](sealed {fingerprint})[/]").format(
            label=literal(label), value=literal(value), fingerprint=literal(fp)))


def _read_secret(prompt: str) -> object:
    """Reads a secret privately (hidden input on a terminal, else one line of stdin): JSON data when
    it parses as JSON (a number, a list...), else the text itself."""
    if sys.stdin.isatty():
        text = str(typer.prompt(prompt, hide_input=True, prompt_suffix=": ", err=True)).strip()
    else:  # piped in: one line, never echoed
        text = sys.stdin.readline(4_098).strip()
    if not text:
        raise ArgumentError(_("secret: empty"))
    if len(text) > 4_096:
        raise ArgumentError(_("secret: more than 4,096 characters"))
    return _data_or_text(text)


def _data_or_text(text: str) -> object:
    """Returns JSON data when ``text`` parses as JSON (7, [1, 2]), else the text itself."""
    from referee.sealed import secret_of  # lazy: journal

    return secret_of(text)


@app.command()
@guarded
def seal(
    label: Annotated[str, typer.Argument(help="What the secret is about, one word (e.g. number, garrison-0512).")],
    as_: Annotated[str, typer.Option("--as", help="The player whose secret it is.")],
    file: FileOpt = DEFAULT_FILE,
    json_: JsonOpt = False,
) -> None:
    """Seal a secret entered privately: the journal keeps its commitment, never the secret."""

    with game_file(file) as gf:
        owner = viewer_of(gf.game, as_)
        assert owner is not None
        secret = _read_secret(_("{owner}'s {label} (hidden)").format(owner=owner, label=label))
        record = gf.seal(owner, label, secret)
        public = [c for c, _shown in gf.sealed_now() if c.owner == owner and c.label == label][-1]
        lines = gf.game.status(gf.game.view(gf.state(), None))
    if json_:
        print_json({"owner": owner, "label": label, "commitment": public.digest,
                    "fingerprint": public.fingerprint(), "side": record.side, "status": lines})
        return
    show(_("{owner} sealed {label}: commitment [bold]{fingerprint}[/] (full SHA-256 {digest})").format(
        owner=literal(owner), label=literal(label), fingerprint=literal(public.fingerprint()),
        digest=literal(public.digest)))
    for line in lines:
        show(f"[bold cyan]{literal(line)}[/]")


@app.command()
@guarded
def reveal(
    label: Annotated[str, typer.Argument(help="The sealed secret to reveal, e.g. number.")],
    as_: Annotated[str, typer.Option("--as", help="The player whose secret it is.")],
    claim: Annotated[str | None, typer.Option(
        help="What the owner says the secret is (JSON or text); default: the one this file holds.")] = None,
    file: FileOpt = DEFAULT_FILE,
    json_: JsonOpt = False,
) -> None:
    """Reveal a sealed secret; it is checked against its commitment (a mismatch is refused)."""
    from referee import render  # lazy: render

    claimed = None if claim is None else _data_or_text(claim)
    with game_file(file) as gf:
        owner = viewer_of(gf.game, as_)
        assert owner is not None
        record = gf.reveal_secret(owner, label, claimed)
        lines = gf.game.status(gf.game.view(gf.state(), None))
    if json_:
        print_json({"record": record.model_dump(mode="json"), "status": lines})
        return
    show(render.record(record))
    for line in lines:
        show(f"[bold cyan]{literal(line)}[/]")


@app.command(name="show")
@guarded
def show_(
    file: FileOpt = DEFAULT_FILE,
    png: Annotated[Path | None, typer.Option(
        readable=False, help="Write the board as a picture, not text (PNG; .jpg/.jpeg give JPEG).")] = None,
    position: PositionOpt = None,
    game: Annotated[str | None, typer.Option(help="With --position: the game (else the file's 'game:').")] = None,
    tables: TablesOpt = None,
    as_: AsOpt = None,
    cols: Annotated[str | None, typer.Option(
        help="Columns to draw, first-last counted from 1 (e.g. 1-20); a board wider than the terminal "
             "otherwise shows the columns in play that fit.")] = None,
    json_: JsonOpt = False,
    force: ForceOpt = False,
) -> None:
    """Show the board (from the game file, or from a position file with --position), as the shared
    table sees it, or with --as as one player sees it."""
    from referee import render  # lazy: render

    shown = _columns(cols)

    mine: list[tuple[str, str, str]] = []
    if position is not None:
        data = read_data_file(position)
        name = game or (data.get("game") if isinstance(data, dict) else None)
        if not isinstance(name, str):
            raise typer.BadParameter(_("give --game, or a 'game:' field in the position file"))
        engine, state, _tables = load_position(name, position, tables)
        state = engine.view(state, viewer_of(engine, as_))  # a position file holds no sealed secret
    else:
        from referee.viewing import seen_by  # lazy: journal

        with game_file(file) as gf:
            seen = seen_by(gf, viewer_of(gf.game, as_))
        engine, state = seen.game, seen.state
        mine = [(s.label, s.value, s.fingerprint) for s in seen.secrets]
    view = engine.board_view(state)
    if png is not None:
        from referee.picture import write_png  # lazy: numpy

        write_png(view, png, force=force)
    if json_:
        print_json({"position": engine.to_position(state).model_dump(mode="json"), "status": engine.status(state),
                    "png": str(png) if png else None} | ({"secrets": _secrets_json(mine)} if mine else {}))
        return
    if png is not None:  # the picture is the board asked for: one line, not the text board too
        show("[dim]" + _("picture written to {path}").format(path=literal(png)) + "[/]")
        return
    show(render.board(view, cols=shown), soft_wrap=True)
    _show_secrets(mine)


def _columns(text: str | None) -> tuple[int, int] | None:
    """Returns the (first, last) columns of ``--cols 5-20`` (or ``--cols 7``).

    Raises:
        typer.BadParameter: not one number or two joined by '-' (usage: exit 2).
    """
    if text is None:
        return None
    parts = text.replace("–", "-").split("-")
    if len(parts) in (1, 2) and all(p.strip().isdigit() for p in parts):
        return int(parts[0]), int(parts[-1])
    raise typer.BadParameter(_("write the columns as first-last, e.g. 1-20"), param_hint="--cols")


@app.command(name="export")
@guarded
def export_(
    out: Annotated[Path | None, typer.Argument(readable=False, help="JSON file to write (default: stdout).")] = None,
    file: FileOpt = DEFAULT_FILE,
    as_: AsOpt = None,
    setup: Annotated[Path | None, typer.Option(
        readable=False, help="Instead: write the set-up as a set-up file (YAML) for new --setup.")] = None,
    force: ForceOpt = False,
) -> None:
    """Export the whole game as JSON (unrevealed dice seeds left out; secrets as commitments, plus
    with --as that player's own secrets, so their export can be imported and revealed later)."""
    from referee.writing import check_output, write_output  # lazy: sqlite3

    if setup is not None:
        if out is not None:
            raise typer.BadParameter("give a JSON file or --setup FILE, not both")
        _export_setup(file, setup, force)
        return

    if out is not None:  # refused before any work: a game file there, or a file without --force
        check_output(out, force=force, what="referee export")

    from referee.viewing import seen_by  # lazy: journal

    with game_file(file) as gf:
        text = json.dumps(seen_by(gf, viewer_of(gf.game, as_)).export(), indent=2, ensure_ascii=False)
    if out is None:
        typer.echo(text)
        return
    write_output(out, (text + "\n").encode("utf-8"), force=force, what="referee export")
    show(_("exported to {path}").format(path=literal(out)))


def _export_setup(file: Path, target: Path, force: bool) -> None:
    """Writes the game's set-up so far as a set-up file (games that offer it)."""
    import yaml  # lazy: yaml

    from referee.writing import check_output, write_output  # lazy: sqlite3

    check_output(target, force=force, what="set-up file")
    with game_file(file) as gf:
        exporter = setup_of(gf.game)
        if exporter is None:
            raise RefereeError(_("{game} cannot write a set-up file in this version").format(game=gf.game.info.title))
        data = exporter.setup_file(gf.state_when(exporter.setup_done))  # the set-up, not later moves
        slug = gf.game.info.slug
    text = f"# A set-up for `referee new {slug} --setup {target.name}`, written by referee export --setup.\n"
    text += yaml.safe_dump(data, allow_unicode=True, sort_keys=False, default_flow_style=None, width=100)
    write_output(target, text.encode("utf-8"), force=force, what="set-up file")
    show(_("set-up written to {path}").format(path=literal(target)))


@app.command(name="import")
@guarded
def import_(
    source: Annotated[Path, typer.Argument(readable=False, help="JSON file written by referee export.")],
    file: FileOpt = DEFAULT_FILE,
    force: Annotated[bool, typer.Option(help="Replace an existing file at --file.")] = False,
) -> None:
    """Rebuild a game file from an export; it must replay to the exported state hash."""
    from referee.journal import GameFile, read_export  # lazy: journal

    export = read_export(source)
    with GameFile.import_(export, file, str(source), find_game, force=force) as gf:
        n = len(gf.entries())
        show(ngettext("imported {source} into {file}: {n} journal entry, state hash verified",
                      "imported {source} into {file}: {n} journal entries, state hash verified", n).format(
            source=literal(source), file=literal(file), n=n))
