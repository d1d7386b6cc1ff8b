"""Running a server: the app under uvicorn, on one address, until interrupted."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

import uvicorn

from ._app import create_app
from ._games import GameServer
from ._guard import guarded
from ._protocol import CLOSE_GOING_AWAY

__all__ = ["own_origins", "serve"]

FRAME_BYTES = 64 * 1024
"""The largest WebSocket frame uvicorn reads; the server's own, smaller cap (Limits.message_bytes) comes first."""
KEEP_ALIVE_SECONDS = 5
"""How long uvicorn keeps an HTTP connection open between requests."""
SHUTDOWN_SECONDS = 10
"""How long a stopping server waits for requests in progress before it cancels them."""


class _Server(uvicorn.Server):
    """uvicorn's server, which on stopping closes the games' connections with 1001 before it drops the rest."""

    def __init__(self, config: uvicorn.Config, games: GameServer) -> None:
        super().__init__(config)
        self._games = games

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for listener in getattr(self, "servers", []):
            listener.close()  # no new connection while the games' are closing
        await self._games.disconnect(CLOSE_GOING_AWAY, "the server is stopping: reconnect in a moment")
        await super().shutdown(sockets)


def own_origins(host: str, port: int) -> list[str]:
    """Gets the origins of the pages served at ``host:port``: that address, and ``localhost`` for a loopback one.

    Written as browsers send them: port 80, http's default, is left out.
    An address for every network (``0.0.0.0``, ``::``) names no page: the pages' origins are then
    given with ``--origin``.

    >>> own_origins("127.0.0.1", 8000)
    ['http://127.0.0.1:8000', 'http://localhost:8000']
    >>> own_origins("0.0.0.0", 8000), own_origins("play.example.org", 80)
    ([], ['http://play.example.org'])
    """
    at = "" if port == 80 else f":{port}"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return [f"http://{host.lower()}{at}"]
    if address.is_unspecified:
        return []
    shown = f"[{address}]" if address.version == 6 else str(address)
    return [f"http://{shown}{at}", *([f"http://localhost{at}"] if address.is_loopback else [])]


def serve(
    server: GameServer,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    origins: Iterable[str] | None = None,
    log_level: str = "info",
    access_log: bool = True,
    compression: bool = True,
    freeze_heap: bool = True,
) -> None:
    """Serves ``server`` at ``http://host:port/`` with uvicorn until interrupted (Ctrl-C, SIGTERM).

    It listens on 127.0.0.1 (this machine only) unless told otherwise. ``origins`` are the
    origins of the pages that may use it; by default its own address (:func:`own_origins`).
    Each connection is guarded (see ``chickenfoot.server._guard``): a request must arrive
    within :attr:`Limits.request_seconds`, a client must take what it is sent (and answer the
    pings sent every :attr:`Limits.ping_seconds`) within :attr:`Limits.send_seconds`, and an
    address prefix holds at most :attr:`Limits.connections_per_prefix` connections. On
    stopping, every game's connection is closed with 1001 ("reconnect in a moment").

    ``compression`` offers WebSocket clients compressed frames (permessage-deflate), which
    every browser accepts: a view is a few kilobytes of JSON that deflate shrinks to about a
    third. Turning it off saves the deflate's work where bandwidth costs nothing, as on one
    machine or a local network. ``freeze_heap`` keeps the cycle collector's full collections
    off the live games (:func:`create_app`): turn it off only to call this from a process that
    does other work as well. uvicorn runs the event loop on uvloop where it can import it (the
    ``server`` extra installs it, except on Windows), which makes each frame sent or read cheaper.
    """
    allowed = own_origins(host, port) if origins is None else list(origins)
    app = create_app(server, origins=allowed, freeze_heap=freeze_heap)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded(server.limits),
        ws_max_size=FRAME_BYTES,
        ws_ping_interval=server.limits.ping_seconds,
        ws_ping_timeout=server.limits.send_seconds,
        ws_per_message_deflate=compression,
        log_level=log_level,
        access_log=access_log,
        lifespan="on",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
    )
    _Server(config, server).run()
