"""The web side: a Starlette app that puts a :class:`GameServer` behind HTTP and WebSocket, and its pages.

Routes (the docs page "Serving games" describes each):

=========================================  ======================================================
``GET /``                                  the page that creates a game
``GET /games/{game}/seat/{seat}``          a seat's page (its link carries the invitation after ``#``)
``GET /games/{game}/watch``                the spectator's page
``GET /api/options``                       the rules presets and the bots a game may seat
``POST /api/games``                        create a game: ``{"rules", "seats"}``
``GET /api/games/{game}``                  the game as anyone may see it
``POST /api/games/{game}/seats/{seat}``    claim a seat: ``{"invite"}`` gives ``{"token"}``
``GET /api/games/{game}/record``           the game record, once the game is over
``WS /api/games/{game}/ws``                the game's messages (see ``_protocol``)
=========================================  ======================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import chickenfoot as cf
from chickenfoot._game import SUPPORTED_SETS

from ._collector import freeze_survivors
from ._games import GameServer
from ._limits import Rates, prefix
from ._protocol import CLOSE_POLICY
from ._store import UNAVAILABLE, StoreError
from ._table import Refusal

__all__ = ["create_app"]

log = logging.getLogger("chickenfoot.server")

STATIC = Path(str(resources.files("chickenfoot.server").joinpath("static")))
BODY_BYTES = 16 * 1024  # the largest request body (a game's set-up is well under 1 KiB)
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_API_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def _error(status: int, reason: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": reason, "rule": rule}, status_code=status, headers=_API_HEADERS)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def normal_origin(origin: str) -> str:
    """Writes an origin as browsers send it: scheme and host in lower case, the scheme's default port left out.

    Text that is not a scheme and a host (and a port) is given back as it is (less a final ``/``).

    >>> normal_origin("HTTP://Play.Example.org:80/"), normal_origin("https://[::1]:8443")
    ('http://play.example.org', 'https://[::1]:8443')
    """
    text = origin.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text
    if not parts.scheme or not parts.hostname or parts.username is not None or parts.path or parts.query:
        return text
    scheme, host = parts.scheme.lower(), parts.hostname  # hostname is in lower case
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}" if port in (None, _DEFAULT_PORTS.get(scheme)) else f"{scheme}://{shown}:{port}"


class _App:
    def __init__(self, server: GameServer, origins: Iterable[str]) -> None:
        self.server = server
        self.origins = frozenset(normal_origin(origin) for origin in origins)
        limits = server.limits
        self.rates = Rates(limits.requests_per_second, limits.request_burst)

    # -- checks ------------------------------------------------------------------------------

    def refused(self, connection: HTTPConnection) -> JSONResponse | None:
        """Answers a state-changing request (or a WebSocket) from a page of another origin, or past its prefix's rate.

        Only the origins configured pass, never the request's own ``Host``, which a page of
        another site can name (DNS rebinding). A request without ``Origin`` comes from no browser
        page (a bot, a script) and passes: the check stops other sites' pages from acting with
        a visitor's browser.
        """
        origin = connection.headers.get("origin")
        if origin is not None and normal_origin(origin) not in self.origins:
            return _error(403, f"origin {origin[:100]} may not use this server (chickenfoot serve --origin adds one)")
        address = connection.client.host if connection.client else "?"
        if not self.rates.take(prefix(address, self.server.limits)):
            limits = self.server.limits
            return _error(
                429,
                f"too many requests: at most {limits.requests_per_second:g} a second from one network"
                f" (bursts of {limits.request_burst})",
            )
        return None

    async def body(self, request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").partition(";")[0].strip() != "application/json":
            raise Refusal(415, "send JSON, with Content-Type: application/json")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > BODY_BYTES:
                raise Refusal(413, f"a request body is at most {BODY_BYTES} bytes")
            chunks.append(chunk)
        try:
            data = json.loads(b"".join(chunks))
        except ValueError as error:
            raise Refusal(400, f"not JSON: {error}") from None
        except RecursionError:
            raise Refusal(400, "not JSON this server reads: nested too deep") from None
        if type(data) is not dict:
            raise Refusal(400, "send a JSON object")
        return data

    async def guarded(self, request: Request, action: Callable[[Request], Awaitable[Response]]) -> Response:
        """Runs a state-changing request past the origin check and its prefix's rate."""
        return self.refused(request) or await action(request)

    # -- pages -------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=_HEADERS)

    async def seat_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "seat.html", headers=_HEADERS)

    async def watch_page(self, request: Request) -> Response:
        return FileResponse(STATIC / "watch.html", headers=_HEADERS)

    # -- the API -----------------------------------------------------------------------------

    async def options(self, request: Request) -> Response:
        # Each preset's rules document too, so a page can offer a variant of one (another set) to POST back.
        rules = {name: json.loads(cf.to_json(preset())) for name, preset in _PRESETS.items()}
        body = {"presets": list(_PRESETS), "rules": rules, "sets": list(SUPPORTED_SETS), "bots": self.server.bot_names}
        return JSONResponse({**body, "players": [2, 8]}, headers=_API_HEADERS)

    async def create(self, request: Request) -> Response:
        async def run(request: Request) -> Response:
            data = await self.body(request)
            rules = _rules(data.get("rules", "trains"))
            seats = data.get("seats")
            if type(seats) is not list or not seats:
                raise Refusal(400, 'name who sits in each seat: "seats": ["human", "greedy", ...]')
            created = await self.server.create(rules, seats)
            game = created.game
            links = [
                {"seat": seat, "kind": kind, "link": None if invite is None else f"/games/{game}/seat/{seat}#{invite}"}
                for seat, (kind, invite) in enumerate(zip(seats, created.invites, strict=True))
            ]
            body = {"game": game, "watch": f"/games/{game}/watch", "seats": links}
            return JSONResponse(body, status_code=201, headers=_API_HEADERS)

        return await self.guarded(request, run)

    async def game(self, request: Request) -> Response:
        return JSONResponse(await self.server.summary(request.path_params["game"]), headers=_API_HEADERS)

    async def claim(self, request: Request) -> Response:
        async def run(request: Request) -> Response:
            data = await self.body(request)
            invite = data.get("invite")
            if type(invite) is not str:
                raise Refusal(400, 'send the seat\'s invitation: {"invite": "..."} (the part of its link after #)')
            token = await self.server.claim(request.path_params["game"], request.path_params["seat"], invite)
            return JSONResponse({"token": token}, headers=_API_HEADERS)

        return await self.guarded(request, run)

    async def record(self, request: Request) -> Response:
        text = await self.server.record(request.path_params["game"])
        return Response(text, media_type="application/json", headers=_API_HEADERS)

    async def websocket(self, websocket: WebSocket) -> None:
        refused = self.refused(websocket)
        if refused is not None:  # before accepting: the handshake gets the HTTP answer
            if "websocket.http.response" in websocket.scope.get("extensions", {}):
                await websocket.send_denial_response(refused)
            else:
                await websocket.close(CLOSE_POLICY, json.loads(bytes(refused.body))["error"])
            return
        await websocket.accept()

        async def close(code: int, reason: str) -> None:
            await websocket.close(code, reason)

        session = self.server.session(websocket.path_params["game"], websocket.send_text, close)
        try:
            while not session.is_closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text, data = message.get("text"), message.get("bytes")
                await session.receive(text if text is not None else (data or b""))
        except WebSocketDisconnect:
            pass
        finally:
            await session.closed()


_PRESETS = {"trains": cf.Rules.trains, "cross": cf.Rules.cross}


def _rules(value: object) -> cf.Rules:
    """Reads a game's rules: a preset's name, or a rules document (``chickenfoot.to_json`` of a Rules)."""
    if isinstance(value, str) and value in _PRESETS:
        return _PRESETS[value]()
    if type(value) is dict:
        try:
            return cf.from_json(json.dumps(value), cf.Rules)
        except cf.InvalidRecordError as error:
            raise Refusal(400, f"bad rules: {error}") from None
        except RecursionError:
            raise Refusal(400, "bad rules: nested too deep") from None
    raise Refusal(400, f'"rules" is "trains", "cross" or a rules document, got {json.dumps(value)[:40]}')


def create_app(server: GameServer, *, origins: Iterable[str] = (), freeze_heap: bool = False) -> Starlette:
    """Builds the Starlette app serving ``server``: its pages, its API and its WebSocket (see the module docs).

    The app starts the server when it starts, and closes it when it stops. ``origins`` are the
    origins of the pages that may use it (``"https://play.example.org"``, and the server's own
    address as browsers name it): a browser request from any other is refused, whatever its
    ``Host`` header says. Every failure of a request is answered as JSON with its reason.
    ``freeze_heap`` keeps the cycle collector's full collections off the live games while the
    app runs (it changes the whole process's collector: :func:`serve` turns it on, as the
    process is the server's alone; see ``chickenfoot.server._collector``).
    """
    app = _App(server, origins)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        await server.start()
        freezer = asyncio.ensure_future(freeze_survivors()) if freeze_heap else None
        try:
            yield
        finally:
            if freezer is not None:
                freezer.cancel()
                await asyncio.gather(freezer, return_exceptions=True)
            await server.close()

    routes = [
        Route("/", app.index),
        Route("/games/{game}/seat/{seat:int}", app.seat_page),
        Route("/games/{game}/watch", app.watch_page),
        Route("/api/options", app.options),
        Route("/api/games", app.create, methods=["POST"]),
        Route("/api/games/{game}", app.game),
        Route("/api/games/{game}/seats/{seat:int}", app.claim, methods=["POST"]),
        Route("/api/games/{game}/record", app.record),
        WebSocketRoute("/api/games/{game}/ws", app.websocket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    handlers = {Refusal: _refusal, StoreError: _store_error, HTTPException: _http_error, Exception: _internal_error}
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers)


# Every failure of a request is answered as JSON, {"error": reason, "rule": rule ID or null}.


async def _refusal(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refusal)
    return _error(error.status, error.reason, error.rule)


async def _store_error(request: Request, error: Exception) -> Response:
    log.warning("%s %s failed in the store: %s", request.method, request.url.path, error)  # not for the client
    return _error(503, UNAVAILABLE)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return _error(error.status_code, str(error.detail))


async def _internal_error(request: Request, error: Exception) -> Response:
    return _error(500, "the server failed to answer this request (its log says why): try again")
