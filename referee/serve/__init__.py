"""The table display (``referee serve``): a live board for the table and a private page per player.

:func:`serve` prints the links (the table's and one per player, with QR codes, or as one JSON
line), then serves the game file until Ctrl-C. Pages are built on the server for each viewer
from :func:`referee.viewing.seen_by`; moves from a page go through the game file's journal and
checks like a typed action. Starlette and uvicorn are imported by this package only, which only
``referee serve`` imports. Entry point: :func:`serve`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.errors import RefereeError
from referee.game import AnyEngine
from referee.games import find_game
from referee.i18n import _
from referee.journal import GameFile
from referee.serve.links import Links, qr_text

__all__ = ["Options", "serve"]

DEFAULT_PORT = 8765
STOP_WITHIN_S = 1
"""Seconds uvicorn waits for open connections after Ctrl-C before it closes them."""


@dataclass(frozen=True)
class Options:
    """How ``referee serve`` was asked to run."""

    file: Path
    port: int = DEFAULT_PORT
    lan: bool = False
    json: bool = False
    new_links: bool = False
    qr: bool = True


def serve(options: Options, ready: Callable[[str], None] | None = None) -> None:
    """Prints the links, then serves the game file until interrupted (Ctrl-C stops within 2 s).

    Raises:
        RefereeError: the game file cannot be opened or written (its link secret), or the port is taken.
    """
    with GameFile.open(options.file, find_game) as gf:
        sock = _bind(options)  # before the secret is written: a taken port leaves the file as it was
        try:
            secret = gf.link_secret(rotate=options.new_links)
        except BaseException:
            sock.close()
            raise
        players = humans(gf.game)
    links = Links.derive(secret, players)
    port = sock.getsockname()[1]
    names = _host_names(options.lan)
    base = f"http://{names[0] if options.lan else '127.0.0.1'}:{port}"
    urls = links.urls(base)
    _print_links(urls, options)
    hosts = frozenset(f"{name}:{port}" for name in names)
    try:
        asyncio.run(_run(options.file, links, hosts, sock))
    except KeyboardInterrupt:  # uvicorn raises the signal again once it has stopped
        pass
    finally:
        sock.close()
    print(_("stopped"), file=sys.stderr, flush=True)


def humans(game: AnyEngine) -> tuple[str, ...]:
    """Returns the players who get a link: the game's viewers but a bot's side (PERS.IA)."""
    return tuple(p for p in game.viewers() if p not in game.info.bot_sides)


def _bind(options: Options) -> socket.socket:
    host = "0.0.0.0" if options.lan else "127.0.0.1"  # --lan asks for every interface
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, options.port))
    except OSError as exc:
        sock.close()
        raise RefereeError(_("cannot listen on port {port} ({reason}); choose another with --port").format(
            port=options.port, reason=(exc.strerror or type(exc).__name__).lower())) from None
    sock.listen(64)
    sock.setblocking(False)
    return sock


def _host_names(lan: bool) -> list[str]:
    """Returns the names a browser may use for this machine (the Host headers accepted): loopback,
    and with ``lan`` the machine's name and its IPv4 addresses (the first is printed in links)."""
    names = ["127.0.0.1", "localhost"]
    if not lan:
        return names
    found: list[str] = []
    hostname = socket.gethostname()
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(hostname, None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return [*found, hostname, f"{hostname}.local", *names]


def _print_links(urls: dict[str, object], options: Options) -> None:
    if options.json:
        sys.stdout.write(json.dumps(urls, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        return
    players = urls["players"]
    assert isinstance(players, dict)
    entries = [(_("the table"), str(urls["table"])), *((_(p), str(u)) for p, u in players.items())]
    for who, url in entries:
        print(f"{who}: {url}")
        if options.qr:
            print(qr_text(url))
    print(_("Each player opens their own link (it shows their secrets). Ctrl-C stops the server."), flush=True)


async def _run(path: Path, links: Links, hosts: frozenset[str], sock: socket.socket) -> None:
    import uvicorn  # lazy: serve

    from referee.serve.app import build  # lazy: serve
    from referee.serve.table import Table  # lazy: serve

    _logging()
    table = Table(path, links)
    box: list[uvicorn.Server] = []

    def stopping() -> bool:
        return bool(box) and box[0].should_exit

    config = uvicorn.Config(build(table, hosts, stopping), log_config=None, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=STOP_WITHIN_S, lifespan="off", server_header=False)
    server = uvicorn.Server(config)
    box.append(server)
    watcher = asyncio.create_task(table.watch(stopping))
    try:
        await server.serve(sockets=[sock])
    finally:
        server.should_exit = True
        await watcher
        table.close()


def _logging() -> None:
    """Logs one line per request on stderr: method, viewer (never the token), path, status."""
    log = logging.getLogger("referee.serve")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
