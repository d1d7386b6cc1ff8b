"""An authoritative game server: seats, spectators, durable moves and bots, over HTTP and WebSocket.

:class:`GameServer` holds the games and plays their moves (one writer per game, every move
stored before anyone sees it); a :class:`Store` keeps them (:class:`SQLiteStore` for one
server process, :class:`PostgresStore` for several, the *nodes*, which share the games and
take over a dead one's); :func:`create_app` puts a server behind a
Starlette app with the browser pages, and :func:`serve` runs that with uvicorn, as
``chickenfoot serve`` does. Each connection receives only what its seat may know
(:func:`chickenfoot.observe`) or, for a spectator, what anyone may (:func:`chickenfoot.spectate`).
The docs pages "Serving games" and "Embedding chickenfoot" show the protocol and how to use the
pieces in one's own server.

Needs the ``server`` extra (Starlette, uvicorn, websockets); :class:`PostgresStore` the
``postgres`` extra (psycopg 3).
"""

from __future__ import annotations

try:
    import starlette  # noqa: F401
    import uvicorn  # noqa: F401
except ModuleNotFoundError as _error:
    from .._io import needs as _needs

    raise _needs("chickenfoot.server", _error) from _error

from ._app import create_app
from ._games import GameServer
from ._limits import Limits
from ._postgres import PostgresStore
from ._protocol import Hello, MoveMessage, ProtocolError, parse_message, protocol_schema, seat_view
from ._run import own_origins, serve
from ._session import Session
from ._sqlite import SQLiteStore
from ._store import Acquired, Fenced, Setup, Store, Stored, StoreError
from ._table import NewGame, Refusal, Table

__all__ = [
    "Acquired",
    "Fenced",
    "GameServer",
    "Hello",
    "Limits",
    "MoveMessage",
    "NewGame",
    "PostgresStore",
    "ProtocolError",
    "Refusal",
    "SQLiteStore",
    "Session",
    "Setup",
    "Store",
    "StoreError",
    "Stored",
    "Table",
    "create_app",
    "own_origins",
    "parse_message",
    "protocol_schema",
    "seat_view",
    "serve",
]

# Documented here, where users import them from.
for _public in (
    Acquired,
    Fenced,
    GameServer,
    Hello,
    Limits,
    MoveMessage,
    NewGame,
    PostgresStore,
    ProtocolError,
    Refusal,
    SQLiteStore,
    Session,
    Setup,
    Store,
    StoreError,
    Stored,
    Table,
    create_app,
    own_origins,
    parse_message,
    protocol_schema,
    seat_view,
    serve,
):
    _public.__module__ = __name__
