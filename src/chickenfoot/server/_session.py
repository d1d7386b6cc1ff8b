"""One client's connection to one game (:class:`Session`), apart from any transport.

The transport hands a session the client's text and gives it two coroutines, to send a frame
and to close. Frames are queued and sent by a task of the session's own, so a slow client never
holds a game up: a client that lets :attr:`Limits.backlog` frames wait, or takes none for
:attr:`Limits.send_seconds`, is dropped and its frames freed (it reconnects for the current
view). What a session needs of the server is said here as a protocol (:class:`Host`), so that
this module does not import it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from ._limits import Limits, RateLimit
from ._protocol import (
    CLOSE_BINARY,
    CLOSE_FULL,
    CLOSE_GOING_AWAY,
    CLOSE_MALFORMED,
    CLOSE_NO_GAME,
    CLOSE_POLICY,
    CLOSE_REPLACED,
    CLOSE_TOKEN,
    CLOSE_TOO_BIG,
    Hello,
    MoveMessage,
    ProtocolError,
    parse_message,
)
from ._secrets import matches
from ._store import StoreError
from ._table import HUMAN, Mover, Refusal, Table

__all__ = ["CLOSE_SECONDS", "CloseConnection", "Host", "SendFrame", "Session"]

SendFrame = Callable[[str], Awaitable[None]]
CloseConnection = Callable[[int, str], Awaitable[None]]
CLOSE_SECONDS = 5.0
"""How long a closing connection's last frames may take to send before they are dropped."""


class Host(Protocol):
    """What a session needs of the server: its limits, the game's table, and the way to play a move."""

    limits: Limits

    async def join(self, game: str) -> Table | None:
        """Gets a game's table in memory (read from the store if need be), or ``None`` if there is no such game."""

    async def play(self, table: Table, seat: int, seq: int, text: str, by: Mover | None = None) -> bool:
        """Plays a move for ``seat`` at ``seq``, telling ``by`` what became of it."""

    def leave(self, table: Table) -> None:
        """Lets a table a connection has left go from memory if nothing else keeps it."""


class Session:
    """One client's connection to one game: its hello, its moves, and every frame it is sent, in order."""

    def __init__(self, host: Host, game: str, send: SendFrame, close: CloseConnection) -> None:
        self.host = host
        self.game = game
        self.table: Table | None = None
        self.seat: int | None = None
        self.svg = False
        self.is_closed = False
        self._opened = time.monotonic()
        limits = host.limits
        self._limits = limits
        self._rate = RateLimit(limits.messages_per_second, limits.message_burst)
        self._send = send
        self._close = close
        self._outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._sender = loop.create_task(self._deliver(), name=f"frames to a client of {game}")
        self._hello_timer = loop.call_later(limits.hello_seconds, self._no_hello)

    def _no_hello(self) -> None:
        if self.table is None:
            self.close(CLOSE_MALFORMED, f"no hello within {self._limits.hello_seconds:g} seconds")

    async def receive(self, message: str | bytes) -> None:
        """Handles one message from the client; a message that breaks the protocol closes the connection."""
        if self.is_closed:
            return
        try:
            await self._receive(message)
        except ProtocolError as error:
            self.close(error.code, error.reason)

    async def _receive(self, message: str | bytes) -> None:
        limits = self._limits
        if not isinstance(message, str):
            raise ProtocolError(CLOSE_BINARY, "binary frames are not part of the protocol: send JSON text")
        if len(message) > limits.message_bytes or len(message.encode("utf-8", "surrogatepass")) > limits.message_bytes:
            raise ProtocolError(CLOSE_TOO_BIG, f"a message is at most {limits.message_bytes} bytes")
        if not self._rate.take():
            raise ProtocolError(
                CLOSE_POLICY,
                f"too many messages: at most {limits.messages_per_second:g} a second"
                f" (bursts of {limits.message_burst})",
            )
        parsed = parse_message(message)
        if isinstance(parsed, Hello):
            await self._hello(parsed)
        elif self.table is None:
            raise ProtocolError(CLOSE_MALFORMED, 'say hello first: {"type": "hello", "seat": N, "token": T}')
        elif self.seat is None:
            self.refuse(parsed.seq, parsed.move, Refusal(403, "a spectator cannot move: claim a seat to play"))
        else:
            await self._move(parsed)

    async def _hello(self, hello: Hello) -> None:
        if self.table is not None or self.is_closed:
            raise ProtocolError(CLOSE_MALFORMED, "hello once per connection")
        try:
            table = await self.host.join(self.game)
        except StoreError as error:
            logging.getLogger("chickenfoot.server").warning("game %s could not be read: %s", self.game, error)
            raise ProtocolError(CLOSE_GOING_AWAY, "the game store is unavailable: reconnect") from None
        if table is None:
            raise ProtocolError(CLOSE_NO_GAME, f"no game {self.game!r} on this server")
        try:
            self._admit(table, hello.seat, hello.token)
        except ProtocolError:
            self.host.leave(table)  # read for this hello alone, it goes again
            raise
        if self.is_closed:  # the hello timer fired while the table was read
            self.host.leave(table)
            return
        self._hello_timer.cancel()
        self.table, self.seat, self.svg = table, hello.seat, hello.svg
        table.sessions.add(self)
        self.sync()

    def _admit(self, table: Table, seat: int | None, token: str | None) -> None:
        """Checks a hello against the game: a seat's token, or room for one more spectator; raises ProtocolError."""
        limits = self._limits
        if seat is None:
            spectators = sum(1 for session in table.sessions if session.seat is None)
            if spectators >= limits.spectators_per_game:
                raise ProtocolError(CLOSE_FULL, f"this game takes {limits.spectators_per_game} spectators at most")
            if not table.joins():
                raise ProtocolError(CLOSE_FULL, "too many spectators are joining this game: try again in a moment")
            return
        if seat >= table.setup.players:
            raise ProtocolError(CLOSE_MALFORMED, f"this game has seats 0 to {table.setup.players - 1}, not {seat}")
        if table.setup.seats[seat] != HUMAN:
            raise ProtocolError(CLOSE_TOKEN, f'seat {seat} is a bot\'s: watch with "seat": null')
        if not token:
            raise ProtocolError(CLOSE_TOKEN, f"seat {seat} needs its token, which claiming the seat gave")
        if not matches(token, table.tokens[seat]):
            raise ProtocolError(CLOSE_TOKEN, f"that token is not seat {seat}'s")
        mine = [session for session in table.sessions if session.seat == seat and isinstance(session, Session)]
        if len(mine) >= limits.connections_per_seat:  # the seat's owner always gets in: its oldest connection goes
            oldest = min(mine, key=lambda session: session._opened)
            oldest.close(CLOSE_REPLACED, f"seat {seat} was opened in another window: reload here to play here")

    async def _move(self, message: MoveMessage) -> None:
        assert self.table is not None
        assert self.seat is not None
        await self.host.play(self.table, self.seat, message.seq, message.move, by=self)

    def sync(self) -> None:
        """Sends everything this connection may know: the table, the log of moves and its view now."""
        assert self.table is not None
        self.send(self.table.sync_frame(self.seat, self.svg))

    def ack(self, seq: int, move: str) -> None:
        """Tells the client its move is stored: the game now has ``seq`` moves."""
        self.send(json.dumps({"type": "ack", "seq": seq, "move": move}))

    def refuse(self, seq: int, move: str, refusal: Refusal) -> None:
        """Tells the client its move was not played, why, and the rule it breaks (if a rule does)."""
        self.send(
            json.dumps({"type": "refused", "seq": seq, "move": move, "reason": refusal.reason, "rule": refusal.rule})
        )

    def stale(self, seq: int, move: str) -> None:
        """Tells the client its move was made at a state that is gone: the game's ``seq``, and how to catch up."""
        reason = (
            f"the game has {seq} moves: the state frames since the move's seq follow (a client that lost them"
            " says hello on a new connection for a sync)"
        )
        self.send(json.dumps({"type": "stale", "seq": seq, "move": move, "reason": reason}))

    def send(self, frame: str) -> None:
        """Queues a frame for the client (dropping a client that has let too many wait)."""
        if self.is_closed:
            return
        if self._outbox.qsize() >= self._limits.backlog:
            self.close(CLOSE_POLICY, "too slow to read the game's frames: reconnect for the current view")
            return
        self._outbox.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Closes the connection with ``code`` and ``reason``, after the frames queued (a slow client's go)."""
        if self.is_closed:
            return
        if code == CLOSE_POLICY:
            self._drop_frames()
        self._leave()
        self._outbox.put_nowait((code, reason))

    def _leave(self) -> None:
        self.is_closed = True
        self._hello_timer.cancel()
        table, self.table = self.table, None
        if table is not None:
            table.sessions.discard(self)
            self.host.leave(table)

    def _drop_frames(self) -> None:
        while not self._outbox.empty():
            self._outbox.get_nowait()

    async def closed(self) -> None:
        """Waits until the connection is closed and its frames are sent; call it when the client has gone.

        A client that reads nothing more gets ``CLOSE_SECONDS`` (5) to take the frames queued
        before it; then they are dropped, so that its connection can be let go.
        """
        if not self.is_closed:  # the client left first
            self._leave()
            self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
            await asyncio.wait_for(self._sender, CLOSE_SECONDS)
        self._drop_frames()

    async def _deliver(self) -> None:
        deadline = self._limits.send_seconds
        while True:
            item = await self._outbox.get()
            try:
                if isinstance(item, tuple):
                    await asyncio.wait_for(self._close(*item), deadline)
                    return
                await asyncio.wait_for(self._send(item), deadline)
            except asyncio.TimeoutError:  # a client that takes nothing: its frames go, and so does it
                self._drop_frames()
                self._leave()
                with contextlib.suppress(Exception):
                    reason = f"took no frame for {deadline:g} seconds: reconnect for the current view"
                    await asyncio.wait_for(self._close(CLOSE_POLICY, reason), 1.0)
                return
            except Exception:  # the client is gone: nothing more to send it
                self._drop_frames()
                self._leave()
                return
