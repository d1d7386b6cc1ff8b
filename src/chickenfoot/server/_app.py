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
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocket, WebSocketDisconnect

import chickenfoot as cf
from chickenfoot._game import SUPPORTED_SETS

from ._collector import freeze_survivors
from ._games import GameServer, Refusal
from ._limits import RateLimit
from ._protocol import CLOSE_POLICY

__all__ = ["create_app"]

log = logging.getLogger("chickenfoot.server")

STATIC = Path(str(resources.files("chickenfoot.server").joinpath("static")))
BODY_BYTES = 16 * 1024  # the largest request body (a game's set-up is well under 1 KiB)
_ADDRESSES = 10_000  # the client addresses whose request rates are remembered
_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
_API_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def _error(status: int, reason: str, rule: str | None = None) -> JSONResponse:
    return JSONResponse({"error": reason, "rule": rule}, status_code=status, headers=_API_HEADERS)


class _App:
    def __init__(self, server: GameServer, origins: Iterable[str]) -> None:
        self.server = server
        self.origins = frozenset(origin.rstrip("/") for origin in origins)
        self.rates: OrderedDict[str, RateLimit] = OrderedDict()

    # -- checks ------------------------------------------------------------------------------

    def origin_refused(self, scope: Scope, headers: Any) -> str | None:
        """Says why a request's ``Origin`` is refused, or ``None``: the page's own origin and those configured pass.

        A request without ``Origin`` comes from no browser page (a bot, a script) and passes:
        the check stops other sites' pages from acting with a visitor's browser.
        """
        origin = headers.get("origin")
        if origin is None:
            return None
        host = headers.get("host")
        if host and origin in (f"http://{host}", f"https://{host}"):
            return None
        if origin.rstrip("/") in self.origins:
            return None
        return f"origin {origin[:100]} may not use this server (chickenfoot serve --origin adds one)"

    def rate_refused(self, request: Request) -> bool:
        address = request.client.host if request.client else "?"
        limits = self.server.limits
        rate = self.rates.get(address)
        if rate is None:
            rate = self.rates[address] = RateLimit(limits.requests_per_second, limits.request_burst)
            if len(self.rates) > _ADDRESSES:
                self.rates.popitem(last=False)
        else:
            self.rates.move_to_end(address)
        return not rate.take()

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
        if type(data) is not dict:
            raise Refusal(400, "send a JSON object")
        return data

    async def guarded(self, request: Request, action: Callable[[Request], Awaitable[Response]]) -> Response:
        """Runs a state-changing request past the origin check and the address's rate, answering a refusal as JSON."""
        refused = self.origin_refused(request.scope, request.headers)
        if refused:
            return _error(403, refused)
        if self.rate_refused(request):
            limits = self.server.limits
            return _error(429, f"too many requests: at most {limits.requests_per_second:g} a second from one address")
        try:
            return await action(request)
        except Refusal as refusal:
            return _error(refusal.status, refusal.reason, refusal.rule)

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
        table = await self.server.table(request.path_params["game"])
        if table is None:
            return _error(404, f"no game {request.path_params['game']!r} on this server")
        return JSONResponse(table.summary(), headers=_API_HEADERS)

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
        try:
            text = await self.server.record(request.path_params["game"])
        except Refusal as refusal:
            return _error(refusal.status, refusal.reason, refusal.rule)
        return Response(text, media_type="application/json", headers=_API_HEADERS)

    async def websocket(self, websocket: WebSocket) -> None:
        refused = self.origin_refused(websocket.scope, websocket.headers)
        if refused:
            await websocket.close(CLOSE_POLICY, refused)  # before accepting: the handshake gets HTTP 403
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
    raise Refusal(400, f'"rules" is "trains", "cross" or a rules document, got {json.dumps(value)[:40]}')


def create_app(server: GameServer, *, origins: Iterable[str] = (), freeze_heap: bool = False) -> Starlette:
    """Builds the Starlette app serving ``server``: its pages, its API and its WebSocket (see the module docs).

    The app starts the server (rebuilding its games from the store) when it starts, and closes
    it when it stops. ``origins`` are the pages' origins allowed besides the server's own
    (``"https://play.example.org"``); a browser request from any other is refused.
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
    return Starlette(routes=routes, lifespan=lifespan)
