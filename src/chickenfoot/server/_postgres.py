"""The store on PostgreSQL (psycopg 3): the same operations as SQLite's, for servers that share one database."""

from __future__ import annotations

import socket
from typing import Any

from ._store import _Operations

__all__ = ["PostgresStore"]

_POSTGRES_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    owner TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    record TEXT
);
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
CREATE INDEX IF NOT EXISTS games_open ON games (owner, finished);
"""


class PostgresStore(_Operations[Any]):
    """Keeps games in PostgreSQL, ``dsn`` naming the database (``"postgresql://user@host/db"``).

    Each server process has an ``owner`` name (the host's name by default) and serves the games
    it owns; the ``(game, sequence)`` key and the owner check on every stored move fence a stale
    owner out (see the docs page "Serving games"). Needs the ``postgres`` extra (psycopg 3).
    """

    placeholder = "%s"

    def __init__(self, dsn: str, *, owner: str | None = None) -> None:
        try:
            import psycopg
        except ModuleNotFoundError as error:
            from .._io import needs

            raise needs("chickenfoot.server.PostgresStore", error, "postgres") from error
        super().__init__(owner if owner is not None else socket.gethostname())
        self.dsn = dsn
        self._psycopg = psycopg
        self._errors = (psycopg.Error,)

    def __repr__(self) -> str:
        return f"PostgresStore(owner={self.owner!r})"  # the DSN may hold a password: never shown

    def _connect(self) -> Any:
        connection = self._psycopg.connect(self.dsn, autocommit=False, connect_timeout=10)
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(7203011)")  # one schema creation at a time
            for statement in _POSTGRES_SCHEMA.split(";"):
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
