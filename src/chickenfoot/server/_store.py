"""The store: each game's set-up, its seats' hashed secrets, an append-only log of its moves, and its lease.

One interface, :class:`Store`, and two back ends: :class:`~chickenfoot.server.SQLiteStore` (the
standard library's ``sqlite3``, in WAL mode, one server process on one machine) and
:class:`~chickenfoot.server.PostgresStore` (psycopg 3, where several server processes, the
*nodes*, share one database). Both write through one thread that owns the only connection:
every call queues an operation, and the thread runs whatever is queued as one transaction
(*group commit*), then answers each caller once ``COMMIT`` has returned. A move is acknowledged
to the players only after that, so an acknowledged move is on disk; a failed ``COMMIT`` (the
database busy, the disk full) fails every operation of its transaction with a
:class:`StoreError` and nothing of it is kept.

A node writes a game's moves only while it holds the game's *lease*: a row field naming the
node and a time, by the database's clock, until which it holds it. The node renews its leases
while it serves the games; another node may take a lease over once that time has passed. Moves
are keyed by ``(game, sequence)``, and a move is stored only where no move of that game has that
number yet, by the node named in the game's row: a node that lost a game (presumed dead, but
only slow) is :class:`Fenced`, never given a second move at one place in a game's log.
"""

from __future__ import annotations

import abc
import json
import time
from collections.abc import Callable, Sequence
from typing import Literal

import attrs

import chickenfoot as cf
from chickenfoot import Rules

__all__ = ["Acquired", "Fenced", "Setup", "Store", "StoreError", "Stored"]

UNAVAILABLE = "the game store is unavailable; try again"
"""What a client is told of a :class:`StoreError`, whose own text (the database's words, its host, its user) stays
in the server's log."""


class StoreError(RuntimeError):
    """Raised when the store could not do an operation (the database busy, the disk full, the connection lost).

    Nothing of the operation was kept; the message says why, in the database's words (for the log: clients are
    told only that the store is unavailable).
    """


class Fenced(StoreError):
    """Raised when a move was not stored: its place in the log is taken, or the game is another node's, over or expired.

    The game this node holds is stale: it reads the game again from the store.
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
        """Reads a set-up that :meth:`to_json` wrote; raises :class:`StoreError` if ``text`` is not one."""
        try:
            data = json.loads(text)
            rules = cf.from_json(json.dumps(data["rules"]), cf.Rules)
            return cls(game, rules, data["players"], data["seed"], tuple(data["seats"]), data["created"])
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
            # InvalidRecordError and json's errors are ValueErrors
            raise StoreError(f"game {game}'s set-up cannot be read: {error!r}") from error


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
    """The node that holds (or last held) the game's lease."""
    idle: float = 0.0
    """Seconds since the game's last move (or its creation), by the database's clock."""


@attrs.frozen
class Acquired:
    """Holds what :meth:`Store.acquire` found: the lease taken (and the moves since), held elsewhere, or no game."""

    status: Literal["ours", "held", "closed"]
    """``"ours"``: this node holds the lease now; ``"held"``: another node does (the note was sent);
    ``"closed"``: the game is over, expired or missing."""
    moves: tuple[str, ...] = ()
    """With ``"ours"``, the moves stored from the sequence asked for on."""


Receive = Callable[[str | None], None]
"""Takes each note another node sends, or ``None`` where notes may have been missed (a connection made again)."""


class Store(abc.ABC):
    """Keeps games, seats, moves and leases; every method is a coroutine, answered once its transaction has committed.

    Call :meth:`open` (in the event loop that will use the store) before anything else and
    :meth:`close` at the end. ``owner`` names this node: it stores moves only of games whose
    lease it holds. A *note* is text sent to every node sharing the database once the
    transaction that sends it has committed (PostgreSQL's ``NOTIFY``); a store for one node
    sends none. Times are seconds; ``expire_seconds`` is how long a game may go without a move
    before it expires (it is no longer in play, and takes no more moves).
    """

    owner: str
    shared: bool
    """Whether several nodes may share the database (and so whether notes are sent)."""

    @abc.abstractmethod
    async def open(self) -> None:
        """Connects, creates the tables if they are missing and starts the writer thread."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finishes the operations queued, then stops the writer thread and closes the connection."""

    @abc.abstractmethod
    async def create(
        self,
        setup: Setup,
        invites: Sequence[str | None],
        *,
        games: int,
        expire_seconds: float,
        bots_turn: bool = False,
        lease_seconds: float = 0.0,
    ) -> bool:
        """Stores a new game with each seat's invitation hash unless ``games`` games are in play; tells whether it did.

        In play means not over and not expired; the count and the insert are one transaction.
        ``bots_turn`` says a bot the server seats is to move: this node then takes the game's
        lease for ``lease_seconds``.
        """

    @abc.abstractmethod
    async def claim(self, game: str, seat: int, token: str, note: str | None = None) -> bool:
        """Sets the seat's token hash if the seat is free; tells whether this call took it (one winner, ever)."""

    @abc.abstractmethod
    async def append(
        self,
        game: str,
        sequence: int,
        move: str,
        *,
        record: str | None = None,
        bots_turn: bool = False,
        expire_seconds: float,
        note: str | None = None,
    ) -> None:
        """Stores ``move`` at ``sequence`` of ``game``; with ``record`` (its JSON), also marks the game over.

        ``bots_turn`` says whether a bot is to move after it. Raises :class:`Fenced` if that place
        is taken, or the game is over, expired or not this node's.
        """

    @abc.abstractmethod
    async def load(self, game: str) -> Stored | None:
        """Gets a game with its moves, or ``None`` if there is no such game."""

    @abc.abstractmethod
    async def record(self, game: str) -> str | None:
        """Gets a finished game's record (JSON), or ``None`` if it is not over or does not exist."""

    @abc.abstractmethod
    async def acquire(
        self,
        game: str,
        after: int,
        *,
        lease_seconds: float,
        expire_seconds: float,
        note: Callable[[str], str] | None = None,
    ) -> Acquired:
        """Takes the game's lease if no other node holds it, with the moves from sequence ``after`` on.

        If another node holds it, sends the note ``note`` writes for that node's name instead.
        """

    @abc.abstractmethod
    async def renew(self, games: Sequence[str], *, lease_seconds: float) -> set[str]:
        """Extends this node's leases of ``games``; gets the games whose lease it still holds."""

    @abc.abstractmethod
    async def release(self, game: str) -> None:
        """Gives up this node's lease of ``game`` (any node may take it at once)."""

    @abc.abstractmethod
    async def adopt(self, *, limit: int, lease_seconds: float, expire_seconds: float, mine: bool) -> list[Stored]:
        """Takes up to ``limit`` games in play whose bot is to move and whose lease has lapsed.

        With ``mine``, also those whose lease names this node (a node started again under its old name).
        """

    @abc.abstractmethod
    async def notify(self, note: str) -> None:
        """Sends ``note`` to every node sharing the database."""

    @abc.abstractmethod
    async def listen(self, receive: Receive) -> None:
        """Passes every note sent to ``receive`` until cancelled, connecting again if the connection drops.

        A store for one node has nothing to listen to, and returns at once.
        """
