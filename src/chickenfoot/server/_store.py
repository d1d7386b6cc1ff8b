"""The store: each game's set-up, its seats' hashed secrets and an append-only log of its moves.

One interface, :class:`Store`, and two back ends: :class:`SQLiteStore` (the standard library's
``sqlite3``, in WAL mode, on one machine with no set-up) and :class:`~chickenfoot.server.PostgresStore`
(psycopg 3, where several server processes share one database). Both write through one thread
that owns the only connection: every call queues an operation, and the thread runs whatever is
queued as one transaction (*group commit*), then answers each caller once ``COMMIT`` has
returned. A move is acknowledged to the players only after that, so an acknowledged move is on
disk; a failed ``COMMIT`` (the database busy, the disk full) fails every operation of its
transaction with a :class:`StoreError` and nothing of it is kept.

Moves are keyed by ``(game, sequence)``: a move is stored only where no move of that game has
that number yet, and only by the process that owns the game. Anything else is
:class:`Fenced`, never a second move at one place in a game's log.
"""

from __future__ import annotations

import abc
import asyncio
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

import attrs

import chickenfoot as cf
from chickenfoot import Rules

__all__ = ["Fenced", "SQLiteStore", "Setup", "Store", "StoreError", "Stored"]

T = TypeVar("T")
Connection = TypeVar("Connection")

_BATCH = 512  # the most operations one transaction takes


class StoreError(RuntimeError):
    """Raised when the store could not do an operation (the database busy, the disk full, the connection lost).

    Nothing of the operation was kept; the message says why, in the database's words.
    """


class Fenced(StoreError):
    """Raised when a move was not stored because its place in the log is taken or the game is another process's.

    The game this process holds is stale: another owner has moved it on.
    """


@attrs.frozen
class Setup:
    """Holds what a game is made of, stored once when it is created: nothing here is ever sent to a client."""

    game: str
    """The game's id, as its links carry it."""
    rules: Rules
    """The rules in force."""
    players: int
    """The number of seats."""
    seed: int
    """The deal's seed (kept on the server until the game ends)."""
    seats: tuple[str, ...]
    """Who sits in each seat: ``"human"``, or the name of the bot the server seats there."""
    created: float = attrs.field(factory=time.time)
    """When the game was created, in seconds since the epoch."""

    def to_json(self) -> str:
        """Writes the set-up as JSON text (the rules as a :func:`chickenfoot.to_json` document)."""
        rules = json.loads(cf.to_json(self.rules))
        return json.dumps(
            {
                "rules": rules,
                "players": self.players,
                "seed": self.seed,
                "seats": list(self.seats),
                "created": self.created,
            }
        )

    @classmethod
    def from_json(cls, game: str, text: str) -> Setup:
        """Reads a set-up that :meth:`to_json` wrote."""
        data = json.loads(text)
        rules = cf.from_json(json.dumps(data["rules"]), cf.Rules)
        return cls(game, rules, data["players"], data["seed"], tuple(data["seats"]), data["created"])


@attrs.frozen
class Stored:
    """Holds a game as the store keeps it: its set-up, its seats' secrets (hashed) and its moves."""

    setup: Setup
    """What the game is made of."""
    invites: tuple[str | None, ...]
    """The hash of each seat's invitation (``None`` for a bot's seat)."""
    tokens: tuple[str | None, ...]
    """The hash of each seat's token (``None`` until the seat is claimed)."""
    moves: tuple[str, ...]
    """Every move stored, in the move notation, oldest first (move ``n`` is at sequence ``n``, from 0)."""
    finished: bool
    """Whether the game is over (its record is stored)."""
    owner: str
    """The process that serves the game."""


class Store(abc.ABC):
    """Keeps games, seats and moves; every method is a coroutine, answered once its transaction has committed.

    Call :meth:`open` (in the event loop that will use the store) before anything else and
    :meth:`close` at the end. ``owner`` names this process: it stores moves only of games it owns.
    """

    owner: str

    @abc.abstractmethod
    async def open(self) -> None:
        """Connects, creates the tables if they are missing and starts the writer thread."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finishes the operations queued, then stops the writer thread and closes the connection."""

    @abc.abstractmethod
    async def create(self, setup: Setup, invites: Sequence[str | None]) -> None:
        """Stores a new game, owned by this process, with each seat's invitation hash."""

    @abc.abstractmethod
    async def claim(self, game: str, seat: int, token: str) -> bool:
        """Sets the seat's token hash if the seat is free; tells whether this call took it (one winner, ever)."""

    @abc.abstractmethod
    async def append(self, game: str, sequence: int, move: str, record: str | None = None) -> None:
        """Stores ``move`` at ``sequence`` of ``game``; with ``record`` (its JSON), also marks the game over.

        Raises :class:`Fenced` if that place is taken or the game is not this process's.
        """

    @abc.abstractmethod
    async def load(self, game: str) -> Stored | None:
        """Gets a game with its moves, or ``None`` if there is no such game."""

    @abc.abstractmethod
    async def unfinished(self) -> list[Stored]:
        """Gets every game this process owns that is not over, oldest first."""

    @abc.abstractmethod
    async def record(self, game: str) -> str | None:
        """Gets a finished game's record (JSON), or ``None`` if it is not over or does not exist."""

    @abc.abstractmethod
    async def adopt(self, owner: str) -> int:
        """Takes over every unfinished game of ``owner`` (a process that is gone); returns how many."""


# -- one writer thread, group commit ---------------------------------------------------------


@attrs.define
class _Operation(Generic[T]):
    run: Callable[[Any], T]
    future: asyncio.Future[T]


class _Stop:
    pass


class _WriterStore(Store, Generic[Connection]):
    """A store whose operations run in one thread, on one connection, many to a transaction."""

    _errors: tuple[type[Exception], ...] = ()  # the driver's errors, reported as StoreError

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._queue: queue.SimpleQueue[_Operation[Any] | _Stop] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connection: Connection | None = None
        self.transactions = 0
        """How many transactions have committed (a group commit counts once)."""

    # The back end's part: a connection, and its transactions.
    @abc.abstractmethod
    def _connect(self) -> Connection: ...

    @abc.abstractmethod
    def _begin(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _commit(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _rollback(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _disconnect(self, connection: Connection) -> None: ...

    async def open(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the store is open already")
        self._loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = self._loop.create_future()
        self._thread = threading.Thread(target=self._work, args=(ready,), name=f"{type(self).__name__} writer")
        self._thread.daemon = True  # a killed server must not hang on it; close() joins it
        self._thread.start()
        try:
            await ready
        except StoreError:
            await asyncio.to_thread(self._thread.join)
            self._thread = None
            raise

    async def close(self) -> None:
        if self._thread is None:
            return
        self._queue.put(_Stop())
        await asyncio.to_thread(self._thread.join)
        self._thread = None

    def _submit(self, run: Callable[[Connection], T]) -> asyncio.Future[T]:
        if self._thread is None or self._loop is None:
            raise RuntimeError("the store is not open: await store.open() first")
        future: asyncio.Future[T] = self._loop.create_future()
        self._queue.put(_Operation(run, future))
        return future

    def _answer(self, future: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
        assert self._loop is not None

        def settle() -> None:
            if future.done():  # the caller gave up waiting (cancelled)
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        self._loop.call_soon_threadsafe(settle)

    def _work(self, ready: asyncio.Future[None]) -> None:
        try:
            connection = self._connect()
        except self._errors as error:
            self._answer(ready, None, StoreError(f"cannot open the store: {error}"))
            return
        self._answer(ready, None, None)
        try:
            while True:
                first = self._queue.get()
                if isinstance(first, _Stop):
                    return
                batch = [first]
                stop = False
                while len(batch) < _BATCH:
                    try:
                        item = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if isinstance(item, _Stop):
                        stop = True
                        break
                    batch.append(item)
                connection = self._transaction(connection, batch)
                if stop:
                    return
        finally:
            self._disconnect(connection)

    def _transaction(self, connection: Connection, batch: list[_Operation[Any]]) -> Connection:
        """Runs ``batch`` as one transaction, then answers each operation: all after COMMIT, or all with its error."""
        results: list[tuple[object, BaseException | None]] = []
        try:
            self._begin(connection)
            for operation in batch:
                try:
                    results.append((operation.run(connection), None))
                except StoreError as refused:  # this operation's own answer (Fenced, say); the others go on
                    results.append((None, refused))
            self._commit(connection)
        except self._errors as error:
            failure = StoreError(f"the store failed: {error}")
            try:
                self._rollback(connection)
            except self._errors:
                self._disconnect(connection)
                connection = self._reconnect(connection)
            for operation in batch:
                self._answer(operation.future, None, failure)
            return connection
        self.transactions += 1
        for operation, (result, refusal) in zip(batch, results, strict=True):
            self._answer(operation.future, result, refusal)
        return connection

    def _reconnect(self, old: Connection) -> Connection:
        try:
            return self._connect()
        except self._errors:
            return old  # the next transaction fails and tries again


# -- SQLite ------------------------------------------------------------------------------------

_SQLITE_SCHEMA = """
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
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_open ON games (owner, finished);
"""


class _SQL(Generic[Connection]):
    """The operations, written once for both back ends' SQL (``?`` placeholders, rewritten for psycopg)."""

    placeholder = "?"

    def sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def execute(self, connection: Connection, text: str, parameters: Sequence[object] = ()) -> Any:
        return connection.execute(self.sql(text), parameters)  # type: ignore[attr-defined]


def _create(sql: _SQL[Any], owner: str, setup: Setup, invites: Sequence[str | None]) -> Callable[[Any], None]:
    def run(connection: Any) -> None:
        taken = sql.execute(connection, "SELECT 1 FROM games WHERE id = ?", (setup.game,)).fetchone()
        if taken:
            raise StoreError(f"a game {setup.game} exists already")
        sql.execute(
            connection,
            "INSERT INTO games (id, setup, owner, finished) VALUES (?, ?, ?, 0)",
            (setup.game, setup.to_json(), owner),
        )
        for seat, invite in enumerate(invites):
            sql.execute(
                connection, "INSERT INTO seats (game, seat, invite) VALUES (?, ?, ?)", (setup.game, seat, invite)
            )

    return run


def _claim(sql: _SQL[Any], game: str, seat: int, token: str) -> Callable[[Any], bool]:
    def run(connection: Any) -> bool:
        cursor = sql.execute(
            connection,
            "UPDATE seats SET token = ? WHERE game = ? AND seat = ? AND token IS NULL AND invite IS NOT NULL",
            (token, game, seat),
        )
        return bool(cursor.rowcount == 1)

    return run


def _append(
    sql: _SQL[Any], owner: str, game: str, sequence: int, move: str, record: str | None
) -> Callable[[Any], None]:
    def run(connection: Any) -> None:
        # The fence: a move goes in only at a free (game, seq) of a game this process owns.
        cursor = sql.execute(
            connection,
            "INSERT INTO moves (game, seq, move) SELECT ?, ?, ? WHERE EXISTS "
            "(SELECT 1 FROM games WHERE id = ? AND owner = ? AND finished = 0) ON CONFLICT (game, seq) DO NOTHING",
            (game, sequence, move, game, owner),
        )
        if cursor.rowcount != 1:
            raise Fenced(f"move {sequence} of game {game} was not stored: that place is taken or the game is not ours")
        if record is not None:
            sql.execute(connection, "UPDATE games SET finished = 1, record = ? WHERE id = ?", (record, game))

    return run


def _stored(sql: _SQL[Any], connection: Any, row: Sequence[Any]) -> Stored:
    game, setup, owner, finished = row
    seats = sql.execute(connection, "SELECT invite, token FROM seats WHERE game = ? ORDER BY seat", (game,)).fetchall()
    moves = sql.execute(connection, "SELECT seq, move FROM moves WHERE game = ? ORDER BY seq", (game,)).fetchall()
    if [seq for seq, _ in moves] != list(range(len(moves))):
        raise StoreError(f"game {game}'s log has a gap: sequences {[seq for seq, _ in moves][:20]}")
    return Stored(
        Setup.from_json(game, setup),
        tuple(invite for invite, _ in seats),
        tuple(token for _, token in seats),
        tuple(move for _, move in moves),
        bool(finished),
        owner,
    )


def _load(sql: _SQL[Any], game: str) -> Callable[[Any], Stored | None]:
    def run(connection: Any) -> Stored | None:
        row = sql.execute(connection, "SELECT id, setup, owner, finished FROM games WHERE id = ?", (game,)).fetchone()
        return None if row is None else _stored(sql, connection, row)

    return run


def _unfinished(sql: _SQL[Any], owner: str) -> Callable[[Any], list[Stored]]:
    def run(connection: Any) -> list[Stored]:
        rows = sql.execute(
            connection, "SELECT id, setup, owner, finished FROM games WHERE owner = ? AND finished = 0", (owner,)
        ).fetchall()
        games = [_stored(sql, connection, row) for row in rows]
        return sorted(games, key=lambda stored: (stored.setup.created, stored.setup.game))

    return run


def _record(sql: _SQL[Any], game: str) -> Callable[[Any], str | None]:
    def run(connection: Any) -> str | None:
        row = sql.execute(connection, "SELECT record FROM games WHERE id = ? AND finished = 1", (game,)).fetchone()
        return None if row is None else str(row[0])

    return run


def _adopt(sql: _SQL[Any], owner: str, old: str) -> Callable[[Any], int]:
    def run(connection: Any) -> int:
        cursor = sql.execute(connection, "UPDATE games SET owner = ? WHERE owner = ? AND finished = 0", (owner, old))
        return int(cursor.rowcount)

    return run


class _Operations(_WriterStore[Connection], _SQL[Connection]):
    """The store's methods as operations for the writer thread, for any back end speaking this SQL."""

    async def create(self, setup: Setup, invites: Sequence[str | None]) -> None:
        if len(invites) != setup.players:
            raise ValueError(f"one invitation (or None) per seat: {setup.players} seats, {len(invites)} given")
        await self._submit(_create(self, self.owner, setup, invites))

    async def claim(self, game: str, seat: int, token: str) -> bool:
        return await self._submit(_claim(self, game, seat, token))

    async def append(self, game: str, sequence: int, move: str, record: str | None = None) -> None:
        await self._submit(_append(self, self.owner, game, sequence, move, record))

    async def load(self, game: str) -> Stored | None:
        return await self._submit(_load(self, game))

    async def unfinished(self) -> list[Stored]:
        return await self._submit(_unfinished(self, self.owner))

    async def record(self, game: str) -> str | None:
        return await self._submit(_record(self, game))

    async def adopt(self, owner: str) -> int:
        return await self._submit(_adopt(self, self.owner, owner))


class SQLiteStore(_Operations[sqlite3.Connection]):
    """Keeps games in one SQLite file (WAL, one writer, group commit): durable on one machine with no set-up.

    ``synchronous`` is SQLite's setting: ``"FULL"`` (the default) syncs the log at every
    commit, so an acknowledged move survives a power cut; ``"NORMAL"`` survives a crash of the
    server but not of the machine. ``busy_seconds`` is how long a commit waits for another
    process's lock before it fails with :class:`StoreError`.

    >>> import asyncio, tempfile, os, chickenfoot as cf
    >>> async def demo(path):
    ...     store = SQLiteStore(path)
    ...     await store.open()
    ...     await store.create(Setup("g1", cf.Rules.trains(), 2, 7, ("human", "greedy")), ["hash", None])
    ...     await store.append("g1", 0, "draw")
    ...     stored = await store.load("g1")
    ...     await store.close()
    ...     return stored.moves, stored.finished
    >>> asyncio.run(demo(os.path.join(tempfile.mkdtemp(), "games.sqlite3")))
    (('draw',), False)
    """

    _errors = (sqlite3.Error,)

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
        connection.executescript(_SQLITE_SCHEMA)
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
