"""The table display's ASGI application (Starlette): pages, streams and moves, per viewer.

Every path starts with a link's token (:mod:`referee.serve.links`): ``/TOKEN/`` is the page,
``/TOKEN/events`` its Server-Sent Events stream, ``/TOKEN/state`` the same content as JSON,
``/TOKEN/legal?cell=X`` a counter's moves, and ``POST /TOKEN/move|seal|reveal`` a player's
actions. An unknown token or path answers 404, the same bytes either way. Every game-file read
and write runs on one worker thread (:class:`Table`), which owns the SQLite connections; the
file is watched with ``PRAGMA data_version``, so a move made by any process reaches every open
stream without re-reading the file in a loop.

Safety (docs/table-display.md): only known Host headers; a state-changing request needs a JSON
body from the page's own origin; a strict Content-Security-Policy and no external resource; no
token in any log line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from referee.errors import IllegalActionError, RefereeError, StaleStateError
from referee.i18n import LANGUAGES, _, language
from referee.raster import FONT_DIR
from referee.serve import page
from referee.serve.links import TABLE
from referee.serve.table import Table

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 16_384
KEEP_ALIVE_S = 15.0
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
           "cache-control": "no-store", "x-frame-options": "DENY", "cross-origin-resource-policy": "same-origin"}
NOT_FOUND = b"not found\n"
log = logging.getLogger("referee.serve")


App = Callable[[Scope, Receive, Send], Awaitable[None]]


def build(table: Table, hosts: frozenset[str], stopping: Callable[[], bool]) -> App:
    """Returns the ASGI application serving ``table`` to requests whose Host is in ``hosts``
    (``host:port`` as a browser sends it); streams end once ``stopping()`` is true."""
    views = _Views(table, stopping)
    routes = [
        Route("/{token}/", views.page), Route("/{token}/events", views.events), Route("/{token}/state", views.state),
        Route("/{token}/legal", views.legal), Route("/{token}/app.js", views.static),
        Route("/{token}/app.css", views.static), Route("/{token}/font.ttf", views.static),
        Route("/{token}/move", views.move, methods=["POST"]), Route("/{token}/seal", views.seal, methods=["POST"]),
        Route("/{token}/reveal", views.reveal, methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    app.add_exception_handler(404, _not_found)
    app.add_exception_handler(405, _not_found)
    return _guard(app, hosts, table)


async def _not_found(_request: Request, _exc: Exception) -> Response:
    return Response(NOT_FOUND, 404, media_type="text/plain")


def _guard(app: App, hosts: frozenset[str], table: Table) -> App:
    """Wraps the app: an unknown Host is refused (no DNS rebinding), every response gets the
    security headers, and each request is logged with its viewer's name in place of the token."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        host = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1")
        status = [0]

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
                message["headers"] = [*message.get("headers", []),
                                      *((k.encode(), v.encode()) for k, v in HEADERS.items())]
            await send(message)

        if host not in hosts:
            response = Response(b"unknown host\n", 400, media_type="text/plain")
            await response(scope, receive, send_with_headers)
        else:
            await app(scope, receive, send_with_headers)
        log.info("%s %s %s", scope.get("method", "?"), table.describe(scope.get("path", "")), status[0])

    return guarded


class _Views:
    """The request handlers, sharing the table and the shutdown flag."""

    def __init__(self, table: Table, stopping: Callable[[], bool]) -> None:
        self.table = table
        self.stopping = stopping

    def _viewer(self, request: Request) -> str:
        """Returns the viewer a token opens (TABLE for the table), or raises 404."""
        viewer = self.table.links.viewer(str(request.path_params.get("token", "")))
        if viewer is None:
            raise HTTPException(404)
        return viewer

    async def page(self, request: Request) -> Response:
        viewer = self._viewer(request)
        lang = choose_language(request)
        first = await self.table.snapshot(_who(viewer), lang)
        with language(lang):
            text = page.page(self.table.game.info.title, _who(viewer), lang, first)
        return Response(text, media_type="text/html; charset=utf-8")

    async def state(self, request: Request) -> Response:
        viewer = self._viewer(request)
        return _json(await self.table.snapshot(_who(viewer), choose_language(request)))

    async def events(self, request: Request) -> Response:
        viewer = _who(self._viewer(request))
        lang = choose_language(request)
        return StreamingResponse(self._stream(viewer, lang), media_type="text/event-stream",
                                 headers={"x-accel-buffering": "no"})

    async def _stream(self, viewer: str | None, lang: str) -> AsyncIterator[str]:
        """Sends the page's content now and after every change of the game file; a comment now
        and then keeps the connection open; ends when the server stops."""
        shown = -1
        quiet = 0.0
        while not self.stopping():
            version = self.table.version
            if version != shown:
                shown = version
                quiet = 0.0
                try:
                    snap = await self.table.snapshot(viewer, lang)
                except RefereeError as exc:  # the file cannot be read now: say so, try again at the next change
                    yield f"event: problem\ndata: {json.dumps({'line': _message(exc, lang)}, ensure_ascii=False)}\n\n"
                    continue
                yield f"event: state\nid: {version}\ndata: {json.dumps(snap, ensure_ascii=False)}\n\n"
                continue
            if quiet >= KEEP_ALIVE_S:
                quiet = 0.0
                yield ": keep-alive\n\n"
            quiet += await self.table.changed(shown, timeout=0.5)

    async def legal(self, request: Request) -> Response:
        viewer = _who(self._viewer(request))
        cell = request.query_params.get("cell", "")[:40]
        lang = choose_language(request)
        if viewer is None:
            return _json({"moves": []})
        moves = await self.table.moves(viewer, cell, lang)
        return _json({"cell": cell, "moves": [{"action": a, "said": s} for a, s in moves]})

    async def static(self, request: Request) -> Response:
        self._viewer(request)
        name = request.url.path.rsplit("/", 1)[-1]
        kinds = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8",
                 "font.ttf": "font/ttf"}
        path = FONT_DIR / "DejaVuSans.ttf" if name == "font.ttf" else STATIC / name
        return Response(path.read_bytes(), media_type=kinds[name])

    async def move(self, request: Request) -> Response:
        return await self._act(request, "move")

    async def seal(self, request: Request) -> Response:
        return await self._act(request, "seal")

    async def reveal(self, request: Request) -> Response:
        return await self._act(request, "reveal")

    async def _act(self, request: Request, kind: str) -> Response:
        """Checks a state-changing request (a player's token, same origin, a JSON object), then
        plays it through the game file like a typed action; a refusal says why, in one line."""
        viewer = _who(self._viewer(request))
        lang = choose_language(request)
        with language(lang):
            if viewer is None:
                return _json({"ok": False, "line": _("the table's page cannot play; use a player's link")}, 403)
            body = await _same_origin_json(request)
            if body is None:
                return _json({"ok": False, "line": _("refused: send a JSON object from this page")}, 403)
        try:
            line = await self.table.act(viewer, kind, body, lang)
        except StaleStateError as exc:
            return _json({"ok": False, "stale": True, "line": _message(exc, lang),
                          "state": await self.table.snapshot(viewer, lang)}, 409)
        except IllegalActionError as exc:
            return _json({"ok": False, "line": _refusal(exc, lang),
                          "codes": [r.code for r in exc.verdict.violations]}, 422)
        except RefereeError as exc:
            return _json({"ok": False, "line": _message(exc, lang)}, 422)
        return _json({"ok": True, "line": line})


def _who(viewer: str) -> str | None:
    return None if viewer == TABLE else viewer


def _json(data: object, status: int = 200) -> Response:
    return Response(json.dumps(data, ensure_ascii=False), status, media_type="application/json")


def _message(exc: RefereeError, lang: str) -> str:
    with language(lang):
        return str(exc)


def _refusal(exc: IllegalActionError, lang: str) -> str:
    """Returns a refused action's reasons as one line: each rule broken, its code and citations."""
    with language(lang):
        parts = [f"{r.text()} [{r.code}] {page.cites(r.cites)}".strip() for r in exc.verdict.violations]
        return "✗ " + "; ".join(parts)


async def _same_origin_json(request: Request) -> dict[str, object] | None:
    """Returns the JSON object a page of this server sent, or None: another content type, another
    (or no) Origin, a body over 16 KiB or not a JSON object."""
    host = request.headers.get("host", "")
    if request.headers.get("origin") != f"http://{host}":
        return None
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return None
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return None
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY_BYTES:
            return None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def choose_language(request: Request) -> str:
    """Returns the page's language: ``?lang=`` (the page's switch), else the browser's
    ``Accept-Language`` (first of ours by preference), else English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(request.headers.get("accept-language", "")[:500].split(",")):
        tag, _sep, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        code = tag.split("-")[0].strip().lower()
        if code in LANGUAGES and quality > 0:
            ranked.append((-quality, i, code))
    return min(ranked)[2] if ranked else "en"
