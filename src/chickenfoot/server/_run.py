"""Running a server: the app under uvicorn, on one address, until interrupted."""

from __future__ import annotations

from collections.abc import Iterable

import uvicorn

from ._app import create_app
from ._games import GameServer

__all__ = ["serve"]

FRAME_BYTES = 64 * 1024
"""The largest WebSocket frame uvicorn reads; the server's own, smaller cap (Limits.message_bytes) comes first."""


def serve(
    server: GameServer,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    origins: Iterable[str] = (),
    log_level: str = "info",
    access_log: bool = True,
    compression: bool = True,
    freeze_heap: bool = True,
) -> None:
    """Serves ``server`` at ``http://host:port/`` with uvicorn until interrupted (Ctrl-C, SIGTERM).

    It listens on 127.0.0.1 (this machine only) unless told otherwise; ``origins`` are the
    pages' origins allowed besides its own (see :func:`create_app`). ``compression`` offers
    WebSocket clients compressed frames (permessage-deflate), which every browser accepts: a
    view is a few kilobytes of JSON that deflate shrinks to about a third. Turning it off saves the
    deflate's work where bandwidth costs nothing, as on one machine or a local network (up to
    an eighth of the server's CPU time a move in the runs on docs/serving.md). ``freeze_heap``
    keeps the cycle collector's full collections off the live games (:func:`create_app`): turn
    it off only to call this from a process that does other work as well. uvicorn runs the event
    loop on uvloop where it can import it (the ``server`` extra installs it, except on Windows),
    which makes each frame sent or read cheaper.
    """
    app = create_app(server, origins=origins, freeze_heap=freeze_heap)
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=FRAME_BYTES,
        ws_per_message_deflate=compression,
        log_level=log_level,
        access_log=access_log,
        lifespan="on",
    )
