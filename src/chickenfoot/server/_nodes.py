"""Where a game's moves are played: on this node if it holds the game's lease, else on the node that does.

:class:`Nodes` is the part of the game server that keeps the tables in memory and their leases:
it plays a move where this node owns the game (checked, stored with the fence, applied, sent);
forwards it to the owner otherwise, or takes the lease over when no node holds it (a node that
died holds it no longer once its lease has lapsed); follows the moves other nodes store, from
their notes, to tell its own connections; renews its leases, and adopts the games whose bots
are to move and whose node has gone. A table leaves memory when no connection and no bot to
move keeps it, and its lease is given up.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import time
from collections.abc import Coroutine
from typing import Any, Literal

import chickenfoot as cf

from ._bots import Bots
from ._limits import Limits, Rates
from ._notes import Answer, Forward, Moved, Seated, read_note
from ._store import Fenced, Store, Stored, StoreError
from ._table import Mover, Refusal, Table

__all__ = ["Nodes"]

log = logging.getLogger("chickenfoot.server")

_ADOPT = 100  # the most games a node takes over at one look
_LOOKS = 6  # how often in a lease a node looks for games to take over (and, every other look, renews its own)
_LOST: Literal["lost"] = "lost"  # this node turned out not to hold the game: the move goes to the node that does
_ACKED = "acked"
_RETRY = "retry"


class _Remote:
    """A mover on another node, whose forwarded move this node played (or not): answered with notes."""

    def __init__(self, nodes: Nodes, node: str, request: str) -> None:
        self._nodes, self.node, self.request = nodes, node, request

    def ack(self, seq: int, move: str) -> None:
        """Leaves the acknowledgement to the note of the stored move, which names this request."""

    def refuse(self, seq: int, move: str, refusal: Refusal) -> None:
        """Tells the mover's node why the move was not played."""
        answer = Answer(self.node, self.request, "refused", seq, refusal.reason, refusal.rule, refusal.status)
        self._nodes.send_note(answer.text())

    def stale(self, seq: int, move: str) -> None:
        """Tells the mover's node its move was made at a state that is gone."""
        self._nodes.send_note(Answer(self.node, self.request, "stale", seq).text())

    def retry(self) -> None:
        """Tells the mover's node this node does not hold the game: it takes the lease, or asks again."""
        self._nodes.send_note(Answer(self.node, self.request, "retry").text())


class _Pending:
    """A move this node forwarded, waiting for its answer."""

    def __init__(self, by: Mover, seq: int, move: str) -> None:
        self.by, self.seq, self.move = by, seq, move
        self.answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    def settle(self, answer: str) -> None:
        if not self.answer.done():
            self.answer.set_result(answer)

    @property
    def settled(self) -> bool:
        """Whether the move has had its answer (a ``retry`` is none: the move is sent on)."""
        return self.answer.done() and self.answer.result() != _RETRY


class Nodes:
    """Keeps this node's tables and leases, and plays each move where the game's lease is held."""

    bots: Bots

    def __init__(self, store: Store, limits: Limits, lease_seconds: float) -> None:
        self.store = store
        self.limits = limits
        self.lease_seconds = lease_seconds
        self.tables: dict[str, Table] = {}
        """The games in memory on this node, by id."""
        self._loading: dict[str, asyncio.Task[Table | None]] = {}
        self._noted_while_read: set[str] = set()
        """Games being read from the store when a note about them came (or the listening began again): read twice."""
        self._pending: dict[str, _Pending] = {}
        self._requests = itertools.count()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._watchers: list[asyncio.Task[None]] = []
        self._joins = Rates(limits.spectators_per_second, limits.spectators_per_game)  # by game, in memory or not

    @property
    def node(self) -> str:
        """Gets this node's name (the store's owner name)."""
        return self.store.owner

    def build(self, stored: Stored) -> Table:
        """Builds a game's table from the store's copy (raises if its moves do not replay)."""
        # Counted through the rates by game, not held: so the game's count outlives its table, unless it has refilled.
        joins = functools.partial(self._joins.take, stored.setup.game)
        return Table(stored, expire_seconds=self.limits.expire_seconds, joins=joins)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` in the background, logging what it raises; :meth:`stop_nodes` waits for it."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a background task of the server failed: %r", task.exception())

    def send_note(self, note: str) -> None:
        """Sends a note to every node, in the background (a store for one node sends none)."""
        if self.store.shared:
            self.spawn(self.store.notify(note))

    def seated_note(self, game: str, seat: int, token: str) -> str | None:
        """Writes the note of a seat claimed here, for the other nodes (none for a store of one node)."""
        return Seated(game, seat, token, self.node).text() if self.store.shared else None

    # -- starting and stopping --------------------------------------------------------------

    async def start_nodes(self) -> None:
        """Takes back this node's games whose bots are to move, then keeps leases and listens to the other nodes."""
        for stored in await self.store.adopt(
            limit=self.limits.games,
            lease_seconds=self.lease_seconds,
            expire_seconds=self.limits.expire_seconds,
            mine=True,
        ):
            self._adopted(stored)
        loop = asyncio.get_running_loop()
        self._watchers = [loop.create_task(self._keep_leases(), name="leases of this node")]
        if self.store.shared:
            self._watchers.append(loop.create_task(self.store.listen(self._heard), name="notes of the other nodes"))
        for watcher in self._watchers:
            watcher.add_done_callback(_watcher_ended)

    async def stop_nodes(self) -> None:
        """Stops keeping leases and listening, stops every table's bots and gives up this node's leases."""
        for watcher in self._watchers:
            watcher.cancel()
        await asyncio.gather(*self._watchers, return_exceptions=True)
        for table in list(self.tables.values()):
            await self.bots.stop(table)
            if table.owned:
                table.owned = False
                self.spawn(self.store.release(table.id))
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=self.lease_seconds)

    async def _keep_leases(self) -> None:
        """Renews this node's leases three times a lease, and adopts the games whose bots wait for a node six times."""
        limits = self.limits
        for tick in itertools.count():
            await asyncio.sleep(self.lease_seconds / _LOOKS)
            owned = [table.id for table in self.tables.values() if table.owned and not table.game.is_over]
            try:
                if tick % 2:
                    await self._renew(owned)
                adopted = await self.store.adopt(
                    limit=_ADOPT, lease_seconds=self.lease_seconds, expire_seconds=limits.expire_seconds, mine=False
                )
            except StoreError as error:
                log.warning("the leases could not be renewed (%s): trying again", error)
                continue
            except Exception:  # one look's failure must not end the keeper: the leases would lapse
                log.exception("the leases could not be kept this time: trying again")
                continue
            for stored in adopted:
                try:
                    self._adopted(stored)
                except Exception:  # one game's failure must not end the keeper
                    log.exception("game %s could not be taken over", stored.setup.game)
                    self.spawn(self.store.release(stored.setup.game))

    async def _renew(self, owned: list[str]) -> None:
        kept = await self.store.renew(owned, lease_seconds=self.lease_seconds)
        for game in set(owned) - kept:
            table = self.tables.get(game)
            if table is not None and table.owned:
                log.warning("game %s is no longer this node's: following it", game)
                await self._demote(table)

    def _adopted(self, stored: Stored) -> None:
        """Holds a game taken over for its bots: its table here (caught up if it was followed), and the bots on."""
        table = self.tables.get(stored.setup.game)
        if table is None:
            try:
                table = self.tables[stored.setup.game] = self.build(stored)
            except (StoreError, cf.IllegalMoveError, cf.InvalidMoveError, cf.RulesError) as error:
                log.error("game %s cannot be rebuilt from the store: %s", stored.setup.game, error)
                self.spawn(self.store.release(stored.setup.game))
                return
        else:
            self._catch_up(table, stored.moves[table.seq :])
        table.owned = True
        self.bots.start(table)

    # -- memory ------------------------------------------------------------------------------

    def leave(self, table: Table) -> None:
        """Lets a table go from memory unless a connection, a move in flight, or a bot to move keeps it."""
        if table.sessions or table.lock.locked():
            return
        if table.owned and not table.expired and table.bots_turn():
            return
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self.spawn(self.bots.stop(table))
        if table.owned:
            table.owned = False
            self.spawn(self.store.release(table.id))

    # -- moves -------------------------------------------------------------------------------

    async def play(self, table: Table, seat: int, seq: int, text: str, by: Mover | None = None) -> bool:
        """Plays ``text`` for ``seat`` at ``seq``: here if this node holds the game, else where it is held.

        ``by`` (the mover) is told what became of it: an acknowledgement once the move is stored,
        a refusal with its reason and rule, or that the move was made at a state that is gone
        (never applied). Tells whether the move was played.
        """
        try:
            if table.owned:
                played = await self._play_here(table, seat, seq, text, by)
                if played != _LOST:
                    return played is True
            if isinstance(by, _Remote):  # forwarded here, but this node does not hold the game
                by.retry()
                return False
            return by is not None and await self._forward(table, seat, seq, text, by)
        finally:
            self.leave(table)

    async def _play_here(
        self, table: Table, seat: int, seq: int, text: str, by: Mover | None
    ) -> bool | Literal["lost"]:
        async with table.lock:
            if not table.owned:
                return _LOST
            if seq != table.seq:
                if by is not None:
                    by.stale(table.seq, text)
                return False
            checked = _check(table, seat, text)
            if isinstance(checked, Refusal):
                if by is not None:
                    by.refuse(seq, text, checked)
                return False
            after, move = checked
            record = cf.to_json(cf.GameRecord.from_game(after, names=table.setup.seats)) if after.is_over else None
            request = by.request if isinstance(by, _Remote) else None
            note = Moved(table.id, seq, str(move), self.node, request).text() if self.store.shared else None
            try:
                await self.store.append(
                    table.id,
                    seq,
                    str(move),
                    record=record,
                    bots_turn=table.bots_turn(after),
                    expire_seconds=self.limits.expire_seconds,
                    note=note,
                )
            except Fenced as error:
                log.warning("game %s moved on without this node: %s", table.id, error)
                await self._demote(table)
                return _LOST
            except StoreError as error:
                log.warning("move %d of game %s could not be stored: %s", seq, table.id, error)
                if by is not None:
                    reason = (
                        "the move could not be stored (the store is unavailable); nothing was played: send it again"
                    )
                    by.refuse(seq, text, Refusal(503, reason))
                return False
            table.advance(after, str(move))
            if by is not None:
                by.ack(table.seq, str(move))
            table.broadcast()
            if after.is_over:  # a finished game has no writer: its lease lapses
                table.owned = False
            return True

    async def _forward(self, table: Table, seat: int, seq: int, text: str, by: Mover) -> bool:
        """Sends a move to the node holding the game, or takes the lease where none does, and waits for the answer."""
        request = f"{self.node}/{next(self._requests)}"
        pending = self._pending[request] = _Pending(by, seq, text)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3 * self.lease_seconds + 5
        try:
            while True:
                if pending.answer.done() and pending.answer.result() != _RETRY:
                    return pending.answer.result() == _ACKED
                if seq != table.seq:
                    by.stale(table.seq, text)
                    return False
                if table.expired:
                    by.refuse(seq, text, _expired(self.limits))
                    return False
                after = table.seq
                acquired = await self.store.acquire(
                    table.id,
                    after,
                    lease_seconds=self.lease_seconds,
                    expire_seconds=self.limits.expire_seconds,
                    note=lambda owner: Forward(owner, table.id, seat, seq, text, self.node, request).text(),
                )
                if acquired.status == "ours":
                    self._catch_up(table, acquired.moves[table.seq - after :])
                    table.owned = True
                    self.bots.start(table)
                    return await self.play(table, seat, seq, text, by)
                if acquired.status == "closed":
                    await self._resync(table)
                    by.refuse(seq, text, _expired(self.limits) if table.expired else _over())
                    return False
                with contextlib.suppress(asyncio.TimeoutError):
                    answer = await asyncio.wait_for(asyncio.shield(pending.answer), self.lease_seconds / _LOOKS)
                    if answer != _RETRY:
                        return answer == _ACKED
                    pending.answer = loop.create_future()
                if loop.time() > deadline:
                    by.refuse(seq, text, Refusal(503, "the game's node does not answer: send the move again"))
                    return False
        except StoreError as error:
            log.warning("move %d of game %s could not be sent: %s", seq, table.id, error)
            reason = "the move could not be sent (the store is unavailable); nothing was played: send it again"
            by.refuse(seq, text, Refusal(503, reason))
            return False
        finally:
            del self._pending[request]

    # -- following ---------------------------------------------------------------------------

    def _catch_up(self, table: Table, moves: tuple[str, ...]) -> None:
        """Applies moves another node stored, telling this node's connections of each."""
        for text in moves:
            table.follow(text)
            table.broadcast()

    async def _demote(self, table: Table) -> None:
        """Makes a table this node no longer holds a follower: its bots stop, and it reads the moves it missed."""
        table.owned = False
        await self.bots.stop(table)
        await self._resync(table)

    async def _resync(self, table: Table) -> None:
        """Reads a followed table's moves again from the store and applies those it missed."""
        try:
            stored = await self.store.load(table.id)
        except StoreError as error:
            log.warning("game %s could not be read again (%s)", table.id, error)
            return
        if stored is None or table.owned:
            return
        for seat, token in enumerate(stored.tokens):
            if token is not None and table.tokens[seat] is None:
                table.seat_taken(seat, token)
        try:
            self._catch_up(table, stored.moves[table.seq :])
        except (cf.IllegalMoveError, cf.InvalidMoveError) as error:
            log.error("game %s's stored moves do not follow what this node holds: %s", table.id, error)
        table.moved = time.monotonic() - stored.idle

    def _heard(self, text: str | None) -> None:
        """Handles a note from another node (``None``: notes may have been missed, so followed games are read again)."""
        try:
            self._hear(text)
        except Exception:  # one note's failure must not end the listening
            log.exception("a note from another node could not be handled: %.200r", text)

    def _hear(self, text: str | None) -> None:
        if text is None:
            for table in list(self.tables.values()):
                if not table.owned:
                    self.spawn(self._resync(table))
            self._noted_while_read.update(game for game in self._loading if game not in self.tables)
            return
        note = read_note(text)
        if note is None:
            log.info("a note from another node was not one this node reads, and was dropped: %.200r", text)
        elif isinstance(note, (Moved, Seated)) and note.game in self._loading and note.game not in self.tables:
            self._noted_while_read.add(note.game)
        if isinstance(note, Moved):
            self._moved(note)
        elif isinstance(note, Seated) and note.node != self.node:
            seated = self.tables.get(note.game)
            if seated is not None and 0 <= note.seat < len(seated.tokens):
                seated.seat_taken(note.seat, note.token)
        elif isinstance(note, Forward) and note.to == self.node:
            owned, mover = self.tables.get(note.game), _Remote(self, note.node, note.request)
            if owned is not None and owned.owned:
                self.spawn(self.play(owned, note.seat, note.seq, note.move, mover))
            else:
                mover.retry()
        elif isinstance(note, Answer) and note.node == self.node:
            self._answered(note)

    def _moved(self, note: Moved) -> None:
        pending = self._pending.get(note.request) if note.request else None
        if pending is not None and not pending.settled:  # this node's forwarded move: its mover hears first
            pending.by.ack(note.seq + 1, note.move)
            pending.settle(_ACKED)
        table = self.tables.get(note.game)
        if table is None or note.node == self.node or note.seq < table.seq:
            return
        if table.owned:  # another node stored a move of a game this node thought its own
            self.spawn(self._demote(table))
        elif note.seq > table.seq:
            self.spawn(self._resync(table))
        else:
            try:
                table.follow(note.move)
            except (cf.IllegalMoveError, cf.InvalidMoveError):
                self.spawn(self._resync(table))
                return
            table.broadcast()
            self.leave(table)

    def _answered(self, note: Answer) -> None:
        pending = self._pending.get(note.request)
        if pending is None or pending.settled:  # answered already: the forward was sent again, and its copy
            return  # found the move played (stale), or the answer came twice
        if note.kind == "refused":
            pending.by.refuse(pending.seq, pending.move, Refusal(note.status, note.reason, note.rule))
        elif note.kind == "stale":
            pending.by.stale(note.seq, pending.move)
        pending.settle(_RETRY if note.kind == "retry" else note.kind)


def _watcher_ended(task: asyncio.Task[Any]) -> None:
    """Logs a watcher (the lease keeper, the note listener) that ended other than by being stopped."""
    if task.cancelled():
        return
    error = task.exception()
    log.error("the server's %s stopped (%r): this node no longer keeps up with them", task.get_name(), error)


def _check(table: Table, seat: int, text: str) -> Refusal | tuple[cf.GameState, cf.Move]:
    game = table.game
    if game.is_over:
        return _over()
    if table.expired:
        return _expired_for(table.expire_seconds)
    if game.current_player != seat:
        return Refusal(409, f"it is not your turn: P{game.current_player} is to move", "TURN-1")
    try:
        move = cf.parse_move(text)
        return cf.apply(game, move), move
    except cf.IllegalMoveError as error:
        return Refusal(409, str(error), error.rule)
    except cf.InvalidMoveError as error:
        return Refusal(400, str(error))


def _over() -> Refusal:
    return Refusal(409, "the game is over: no more moves", "ROUND-1")


def _expired(limits: Limits) -> Refusal:
    return _expired_for(limits.expire_seconds)


def _expired_for(seconds: float) -> Refusal:
    return Refusal(410, f"the game expired: no move was made for {seconds:g} seconds, so it takes no more")
