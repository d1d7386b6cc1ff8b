"""The store on PostgreSQL (psycopg 3): the same operations as SQLite's, for nodes that share one database.

Notes between nodes are PostgreSQL's ``NOTIFY``, sent in the transaction whose commit they
announce (so a node hears of a move only once it is stored), and heard on a connection of
their own that ``LISTEN``\\ s, in the event loop (psycopg's asynchronous connection).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from typing import Any

from ._queries import Dialect, SQLStore
from ._store import Receive

__all__ = ["PostgresStore"]

log = logging.getLogger("chickenfoot.server")

CHANNEL = "chickenfoot"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    owner TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    record TEXT
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS moved DOUBLE PRECISION NOT NULL DEFAULT date_part('epoch', now());
ALTER TABLE games ADD COLUMN IF NOT EXISTS lease DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN IF NOT EXISTS bots_turn INTEGER NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    invite TEXT,
    token TEXT,
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS games_in_play ON games (finished, moved);
CREATE INDEX IF NOT EXISTS games_waiting ON games (finished, bots_turn, lease);
"""
_RETRY_SECONDS = 1.0  # between tries to listen again after the connection dropped


class PostgresStore(SQLStore[Any]):
    """Keeps games in PostgreSQL, ``dsn`` naming the database (``"postgresql://user@host/db"``).

    Each node has an ``owner`` name, unique to the process by default (the host's name, the
    process id and a random part), under which it holds the leases of the games it serves (see
    the docs page "Serving games"). Needs the ``postgres`` extra (psycopg 3).
    """

    _dialect = Dialect(
        "%s",
        "date_part('epoch', now())",
        "(SELECT json_array_elements_text(%s::json))",
        " FOR SHARE",
        " FOR UPDATE SKIP LOCKED",
        "SELECT pg_advisory_xact_lock(7203012)",
        f"SELECT pg_notify('{CHANNEL}', %s)",
    )
    shared = True

    def __init__(self, dsn: str, *, owner: str | None = None) -> None:
        try:
            import psycopg
        except ModuleNotFoundError as error:
            from .._io import needs

            raise needs("chickenfoot.server.PostgresStore", error, "postgres") from error
        if owner is None:
            owner = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        super().__init__(owner)
        self.dsn = dsn
        self._psycopg = psycopg
        self._errors = (psycopg.Error,)

    def __repr__(self) -> str:
        return f"PostgresStore(owner={self.owner!r})"  # the DSN may hold a password: never shown

    def _connect(self) -> Any:
        connection = self._psycopg.connect(self.dsn, autocommit=False, connect_timeout=10)
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(7203011)")  # one schema creation at a time
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
        connection.commit()
        return connection

    def _begin(self, connection: Any) -> None:
        if connection.closed:
            raise self._psycopg.OperationalError("the connection to PostgreSQL is closed")

    def _commit(self, connection: Any) -> None:
        connection.commit()

    def _rollback(self, connection: Any) -> None:
        connection.rollback()

    def _disconnect(self, connection: Any) -> None:
        connection.close()

    async def listen(self, receive: Receive) -> None:
        while True:
            try:
                connection = await self._psycopg.AsyncConnection.connect(self.dsn, autocommit=True, connect_timeout=10)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    receive(None)  # listening (again): whatever was sent before may have been missed
                    async for notice in connection.notifies():
                        try:
                            receive(notice.payload)
                        except Exception:  # one note's failure must not end the listening
                            log.exception("a note from another node could not be handled: %.200r", notice.payload)
            except self._psycopg.Error as error:
                log.warning("listening to the other nodes failed (%s): trying again", error)
            await asyncio.sleep(_RETRY_SECONDS)
