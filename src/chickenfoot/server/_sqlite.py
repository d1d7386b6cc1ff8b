"""The store in one SQLite file: one server process on one machine, with no set-up."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ._queries import Dialect, SQLStore
from ._store import Receive

__all__ = ["SQLiteStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    owner TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    record TEXT,
    moved REAL NOT NULL DEFAULT 0,
    lease REAL NOT NULL DEFAULT 0,
    bots_turn INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    invite TEXT,
    token TEXT,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""
# Made after the columns they index, which a file from an earlier version gains first (_add_columns).
_INDEXES = """
CREATE INDEX IF NOT EXISTS games_in_play ON games (finished, moved);
CREATE INDEX IF NOT EXISTS games_waiting ON games (finished, bots_turn, lease);
"""
_NOW = "((julianday('now') - 2440587.5) * 86400.0)"
_CACHE_KIB = 512
"""The page cache of the store's connection, in KiB (SQLite's own default is 2,000).

The server keeps its games in play in memory and reads a game from the file only when it loads
it, so what the store touches again is the newest pages of the moves it appends; the operating
system caches the rest of the file. A larger cache fills with the pages of finished games.
"""
_COLUMNS = {
    "moved": "REAL NOT NULL DEFAULT 0",
    "lease": "REAL NOT NULL DEFAULT 0",
    "bots_turn": "INTEGER NOT NULL DEFAULT 0",
}


class SQLiteStore(SQLStore[sqlite3.Connection]):
    """Keeps games in one SQLite file (WAL, one writer, group commit): durable on one machine with no set-up.

    One server process serves the file (several processes share a PostgreSQL database
    instead). ``synchronous`` is SQLite's setting: ``"FULL"`` (the default) syncs the log at
    every commit, so an acknowledged move survives a power cut; ``"NORMAL"`` survives a crash of
    the server but not of the machine. ``busy_seconds`` is how long a commit waits for another
    process's lock before it fails with :class:`StoreError`.

    >>> import asyncio, tempfile, os, chickenfoot as cf
    >>> from chickenfoot.server import Setup
    >>> async def demo(path):
    ...     store = SQLiteStore(path)
    ...     await store.open()
    ...     setup = Setup("g1", cf.Rules.trains(), 2, 7, ("human", "greedy"))
    ...     await store.create(setup, ["hash", None], games=100, expire_seconds=3600)
    ...     await store.acquire("g1", 0, lease_seconds=10, expire_seconds=3600)
    ...     await store.append("g1", 0, "draw", expire_seconds=3600)
    ...     stored = await store.load("g1")
    ...     await store.close()
    ...     return stored.moves, stored.finished
    >>> asyncio.run(demo(os.path.join(tempfile.mkdtemp(), "games.sqlite3")))
    (('draw',), False)
    """

    _errors = (sqlite3.Error,)
    _dialect = Dialect("?", _NOW, "(SELECT value FROM json_each(?))", "", "", None, None)
    shared = False

    def __init__(
        self,
        path: str | Path,
        *,
        owner: str = "local",
        synchronous: str = "FULL",
        busy_seconds: float = 5.0,
        max_pages: int | None = None,
    ) -> None:
        super().__init__(owner)
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous is FULL, NORMAL or EXTRA, got {synchronous!r}")
        self.path = Path(path)
        self.synchronous = synchronous
        self.busy_seconds = busy_seconds
        self.max_pages = max_pages  # a cap on the file (PRAGMA max_page_count), to test a full disk

    def __repr__(self) -> str:
        return f"SQLiteStore({str(self.path)!r})"

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute(f"PRAGMA synchronous = {self.synchronous}")
        connection.execute(f"PRAGMA busy_timeout = {int(self.busy_seconds * 1000)}")
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        connection.executescript(_SCHEMA)
        _add_columns(connection)
        connection.executescript(_INDEXES)
        if self.max_pages is not None:
            connection.execute(f"PRAGMA max_page_count = {int(self.max_pages)}")
        return connection

    def _begin(self, connection: sqlite3.Connection) -> None:
        connection.execute("BEGIN IMMEDIATE")

    def _commit(self, connection: sqlite3.Connection) -> None:
        connection.execute("COMMIT")

    def _rollback(self, connection: sqlite3.Connection) -> None:
        if connection.in_transaction:
            connection.execute("ROLLBACK")

    def _disconnect(self, connection: sqlite3.Connection) -> None:
        connection.close()

    async def listen(self, receive: Receive) -> None:
        return  # one node: no other node sends notes


def _add_columns(connection: sqlite3.Connection) -> None:
    """Gives a file written by an earlier version the columns it lacks (its games count as just moved)."""
    present = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    missing = [name for name in _COLUMNS if name not in present]
    for name in missing:
        connection.execute(f"ALTER TABLE games ADD COLUMN {name} {_COLUMNS[name]}")
    if "moved" in missing:
        connection.execute(f"UPDATE games SET moved = {_NOW}")
