"""``referee serve``: the table display, a live board for the table and a private page per player."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli.common import DEFAULT_FILE, FileOpt, JsonOpt, guarded

app = typer.Typer()


@app.command()
@guarded
def serve(
    file: FileOpt = DEFAULT_FILE,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 8765,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Listen on the home network too, for phones and a tablet (default: this machine only).")] = False,
    new_links: Annotated[bool, typer.Option(
        "--new-links", help="Draw new links: every link given out before stops working.")] = False,
    qr: Annotated[bool, typer.Option(help="Print a QR code under each link.")] = True,
    json_: JsonOpt = False,
) -> None:
    """Serve the game as a live page for the table and a private page per player (links with QR
    codes; with --json the first line is {"table": URL, "players": {PLAYER: URL}}). Ctrl-C stops."""
    # the web stack (starlette, uvicorn) is imported here only: no other command pays for it
    from referee.serve import Options  # lazy: serve
    from referee.serve import serve as run  # lazy: serve

    run(Options(file=file, port=port, lan=lan, json=json_, new_links=new_links, qr=qr))
