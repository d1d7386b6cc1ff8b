"""The authoritative game server, apart from any web framework: games, seats, connections and bots.

A :class:`GameServer` holds every game in play in memory, one :class:`Table` each, and keeps
them in a :class:`~chickenfoot.server.Store`. Each table has one writer: a move is checked
against the table's sequence number and the rules, stored (and committed), and only then
applied, acknowledged to its sender and sent to every connection of the game, each as what its
seat (or a spectator) may see. A :class:`Session` is one client's connection; the transport (the
Starlette app, or any other) hands it the client's text and gives it two coroutines, to send a
frame and to close. Bots the server seats play through the same path as people.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import secrets
from collections.abc import Mapping, Sequence

import chickenfoot as cf
from chickenfoot.bots import KINDS, ProcessBot, check_spec

from ._limits import Limits, RateLimit
from ._protocol import (
    CLOSE_BINARY,
    CLOSE_FULL,
    CLOSE_GOING_AWAY,
    CLOSE_MALFORMED,
    CLOSE_MOVED,
    CLOSE_NO_GAME,
    CLOSE_POLICY,
    CLOSE_TOKEN,
    CLOSE_TOO_BIG,
    Hello,
    MoveMessage,
    ProtocolError,
    parse_message,
)
from ._secrets import digest, matches, new_id, new_secret
from ._store import Fenced, Setup, Store, Stored, StoreError
from ._table import HUMAN, SEATED_BOTS, CloseConnection, NewGame, Refusal, SendFrame, Table

__all__ = ["GameServer", "NewGame", "Refusal", "Session", "Table"]

log = logging.getLogger("chickenfoot.server")

_INLINE_BOTS = tuple(kind.name for kind in KINDS if kind.quick)  # answer in the event loop; others in bot threads
CLOSE_SECONDS = 5.0
"""How long a closing connection's last frames may take to send before they are dropped."""
_RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)  # a bot's move that could not be stored is tried again after these


class GameServer:
    """Serves games: creates them, seats people and bots, and keeps every move in ``store`` before anyone sees it.

    ``programs`` names the program bots a game may seat (``{"js": ["node", "examples/bots/heaviest.js"]}``),
    each run by :class:`~chickenfoot.bots.ProcessBot` with ``program_seconds`` a move; clients
    can name only these and the built-in bots (``random``, ``greedy``, ``search:N``), never a
    command. ``bot_delay`` is how long a bot waits before it moves, so people can follow.
    Call :meth:`start` before use and :meth:`close` at the end (the Starlette app does both).
    """

    def __init__(
        self,
        store: Store,
        *,
        programs: Mapping[str, Sequence[str]] | None = None,
        program_seconds: float = 5.0,
        bot_delay: float = 0.0,
        bot_threads: int = 4,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.programs = dict(programs or {})
        for name in self.programs:
            if name == HUMAN or name.partition(":")[0].lower() in {kind.name for kind in KINDS}:
                raise ValueError(f"a program bot's name must not be {HUMAN!r} or a built-in bot's, got {name!r}")
        self.program_seconds = program_seconds
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._bot_pool = concurrent.futures.ThreadPoolExecutor(bot_threads, thread_name_prefix="chickenfoot bot")
        self._started = False

    @property
    def bot_names(self) -> list[str]:
        """Gets the bots a client may seat: the built-in ones and the programs configured."""
        return [*SEATED_BOTS, *sorted(self.programs)]

    async def start(self) -> None:
        """Opens the store and rebuilds every unfinished game this process owns from its seed and moves."""
        await self.store.open()
        for stored in await self.store.unfinished():
            try:
                table = self._build(stored)
            except (StoreError, cf.IllegalMoveError, cf.InvalidMoveError, cf.RulesError) as error:
                log.error("game %s cannot be rebuilt from the store: %s", stored.setup.game, error)
                continue
            self.tables[table.id] = table
            self._start_bots(table)
        self._started = True
        log.info("serving %d unfinished games from %r", len(self.tables), self.store)

    async def close(self) -> None:
        """Closes every connection (going away), stops the bots and closes the store."""
        sessions = [session for table in self.tables.values() for session in table.sessions]
        for session in sessions:
            session.close(CLOSE_GOING_AWAY, "the server is stopping: reconnect in a moment")
        for table in list(self.tables.values()):
            await self._stop_bots(table)
        for session in sessions:
            await session.closed()
        self._bot_pool.shutdown(wait=False, cancel_futures=True)
        await self.store.close()

    # -- games -------------------------------------------------------------------------------

    def check_seat(self, kind: object) -> str:
        """Checks who may sit in a seat: ``"human"``, a built-in bot or a configured program; raises Refusal."""
        if not isinstance(kind, str):
            raise Refusal(400, f"a seat is 'human' or a bot's name, got {json.dumps(kind)[:40]}")
        if kind == HUMAN or kind in self.programs:
            return kind
        try:
            spec = check_spec(kind)
        except cf.BotSpecError as error:
            raise Refusal(
                400, f"{error}; or one of the programs: {', '.join(sorted(self.programs)) or 'none'}"
            ) from None
        if spec.kind == "cmd":
            raise Refusal(400, "a client cannot name a command: the server's operator configures program bots")
        if spec.kind not in SEATED_BOTS:
            raise Refusal(
                400, f"{spec.kind} sees every hand: it is not seated here; choose one of {', '.join(SEATED_BOTS)}"
            )
        limits = self.limits
        if spec.simulations is not None and spec.simulations > limits.search_simulations:
            raise Refusal(
                400, f"{spec.kind} takes at most {limits.search_simulations} simulations here, got {spec.simulations}"
            )
        if spec.seconds is not None and spec.seconds > limits.bot_seconds:
            raise Refusal(400, f"{spec.kind} takes at most {limits.bot_seconds * 1000:g} ms a move here, got {kind}")
        return kind.strip().lower()

    async def create(self, rules: cf.Rules, seats: Sequence[str], *, seed: int | None = None) -> NewGame:
        """Creates a game with one entry of ``seats`` per player (see :meth:`check_seat`); raises :class:`Refusal`."""
        kinds = tuple(self.check_seat(kind) for kind in seats)
        try:
            rules.check_players(len(kinds))
        except cf.RulesError as error:
            raise Refusal(400, str(error)) from None
        if sum(1 for table in self.tables.values() if not table.game.is_over) >= self.limits.games:
            raise Refusal(503, f"this server has {self.limits.games} games in play, its most: try again later")
        setup = Setup(new_id(), rules, len(kinds), secrets.randbits(128) if seed is None else seed, kinds)
        invites = [new_secret() if kind == HUMAN else None for kind in kinds]
        stored = Stored(setup, tuple(map(_hashed, invites)), (None,) * len(kinds), (), False, self.store.owner)
        table = self._build(stored)
        try:
            await self.store.create(setup, stored.invites)
        except StoreError as error:
            raise Refusal(503, f"the game could not be stored ({error}): try again") from None
        self.tables[table.id] = table
        self._start_bots(table)
        return NewGame(setup.game, tuple(invites))

    def _build(self, stored: Stored) -> Table:
        return Table(stored, programs=self.programs, program_seconds=self.program_seconds)

    async def table(self, game: str) -> Table | None:
        """Gets a game's table, from memory or (a finished game, say) from the store; ``None`` if there is none."""
        table = self.tables.get(game)
        if table is not None:
            return table
        if not isinstance(game, str) or not 0 < len(game) <= 64:
            return None
        loading = self._loading.get(game)
        if loading is None:
            loading = self._loading[game] = asyncio.get_running_loop().create_future()
            try:
                stored = await self.store.load(game)
                table = None
                if stored is not None and (stored.finished or stored.owner == self.store.owner):
                    table = self.tables.setdefault(game, self._build(stored))
                    if not stored.finished:
                        self._start_bots(table)
                loading.set_result(table)
            except BaseException as error:
                loading.set_exception(error)
                raise
            finally:
                del self._loading[game]
        return await asyncio.shield(loading)

    async def claim(self, game: str, seat: int, invite: str) -> str:
        """Claims a person's seat with its invitation and returns the seat's token; one claim ever wins.

        Raises :class:`Refusal`: 404 without such a game or seat, 403 for a wrong invitation or a
        bot's seat, 409 for a seat already taken.
        """
        table = await self._found(game)
        if type(seat) is not int or not 0 <= seat < table.setup.players:
            raise Refusal(404, f"game {game} has seats 0 to {table.setup.players - 1}, not {seat!r}")
        if table.setup.seats[seat] != HUMAN:
            raise Refusal(403, f"seat {seat} is {table.setup.seats[seat]}'s, a bot's: it cannot be claimed")
        if not matches(invite, table.invites[seat]):
            raise Refusal(403, f"that is not seat {seat}'s invitation: ask whoever created the game for its link")
        if table.tokens[seat] is not None:
            raise Refusal(409, f"seat {seat} is taken: its invitation has been used")
        token = new_secret()
        try:
            won = await self.store.claim(game, seat, digest(token))
        except StoreError as error:
            raise Refusal(503, f"the claim could not be stored ({error}): try again") from None
        if not won:
            raise Refusal(409, f"seat {seat} is taken: its invitation has been used")
        table.tokens[seat] = digest(token)
        frame = json.dumps({"type": "seats", "seats": table.seats()})
        for session in table.sessions:
            session.send(frame)
        return token

    async def record(self, game: str) -> str:
        """Gets a finished game's record (JSON); raises :class:`Refusal` (403) while it is in play."""
        table = await self._found(game)
        if not table.game.is_over:
            raise Refusal(403, "the record, and the seed, stay on the server until the game is over")
        record = await self.store.record(game)
        if record is None:
            raise Refusal(503, "the record is not in the store yet: try again")
        return record

    async def _found(self, game: str) -> Table:
        table = await self.table(game)
        if table is None:
            raise Refusal(404, f"no game {game!r} on this server")
        return table

    # -- moves -------------------------------------------------------------------------------

    async def play(self, table: Table, seat: int, seq: int, text: str, by: Session | None = None) -> bool:
        """Plays ``text`` for ``seat`` at ``seq``: checked, stored, then applied and sent; tells whether it was played.

        A refusal is sent to ``by`` (the mover's connection) with its reason and rule; a move at
        another ``seq`` than the table's (stale, or sent twice) is answered with the current view
        and never applied.
        """
        async with table.lock:
            if table.fenced:
                return False
            if seq != table.seq:
                if by is not None:
                    by.sync()
                return False
            game = table.game
            refusal = self._check(game, seat, text)
            if isinstance(refusal, Refusal):
                if by is not None:
                    by.refuse(seq, text, refusal)
                return False
            after, move = refusal
            record = cf.to_json(cf.GameRecord.from_game(after, names=table.setup.seats)) if after.is_over else None
            try:
                await self.store.append(table.id, seq, str(move), record)
            except Fenced as error:
                log.error("game %s is fenced: %s", table.id, error)
                await self._fence(table)
                return False
            except StoreError as error:
                if by is not None:
                    reason = f"the move could not be stored ({error}); nothing was played: send it again"
                    by.refuse(seq, text, Refusal(503, reason))
                return False
            table.advance(after, str(move))
            if by is not None:
                by.send(json.dumps({"type": "ack", "seq": table.seq, "move": str(move)}))
            self._broadcast(table)
            return True

    @staticmethod
    def _check(game: cf.GameState, seat: int, text: str) -> Refusal | tuple[cf.GameState, cf.Move]:
        if game.is_over:
            return Refusal(409, "the game is over: no more moves", "ROUND-1")
        if game.current_player != seat:
            return Refusal(409, f"it is not your turn: P{game.current_player} is to move", "TURN-1")
        try:
            move = cf.parse_move(text)
            return cf.apply(game, move), move
        except cf.IllegalMoveError as error:
            return Refusal(409, str(error), error.rule)
        except cf.InvalidMoveError as error:
            return Refusal(400, str(error))

    def _broadcast(self, table: Table) -> None:
        round_, player, text = table.log[-1]
        last = json.dumps([round_, player, text])
        head = f'{{"type": "state", "seq": {table.seq}, "last": {last}, "view": '
        for session in list(table.sessions):
            frame = head + table.view_json(session.seat)
            if session.svg:
                frame += ', "svg": ' + json.dumps(table.svg(session.seat))
            session.send(frame + "}")

    async def _fence(self, table: Table) -> None:
        """Drops a game another process has moved on: its connections are told, and it leaves memory."""
        table.fenced = True
        for session in list(table.sessions):
            session.close(CLOSE_MOVED, "this game is now served by another process: reload to follow it")
        self.tables.pop(table.id, None)
        await self._stop_bots(table)

    # -- bots --------------------------------------------------------------------------------

    def _start_bots(self, table: Table) -> None:
        if table.bots and not table.game.is_over and table.bot_task is None:
            table.bot_task = asyncio.get_running_loop().create_task(self._run_bots(table), name=f"bots of {table.id}")

    async def _stop_bots(self, table: Table) -> None:
        task, table.bot_task = table.bot_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for bot in table.bots.values():
            if isinstance(bot, ProcessBot):
                await asyncio.get_running_loop().run_in_executor(None, bot.close)

    async def _run_bots(self, table: Table) -> None:
        """Plays the table's bots' moves as their turns come, and tells them when rounds and the game end."""
        retries = 0
        try:
            while not table.fenced:
                await self._notify_bots(table)
                game = table.game
                if game.is_over:
                    break
                seat = game.current_player
                assert seat is not None
                if seat not in table.bots:
                    table.wake.clear()
                    await table.wake.wait()
                    continue
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                seq = table.seq
                text = await self._bot_move(table, seat)
                if await self.play(table, seat, seq, text) or table.seq != seq:
                    retries = 0
                    continue
                await asyncio.sleep(_RETRY_SECONDS[min(retries, len(_RETRY_SECONDS) - 1)])  # the store refused
                retries += 1
        finally:
            for bot in table.bots.values():
                if isinstance(bot, ProcessBot):
                    await asyncio.get_running_loop().run_in_executor(None, bot.close)
            if table.bot_task is asyncio.current_task():
                table.bot_task = None

    async def _bot_move(self, table: Table, seat: int) -> str:
        bot, game = table.bots[seat], table.game
        view = cf.observe(game, seat)
        kind = table.setup.seats[seat]
        try:
            if kind in _INLINE_BOTS:
                move = bot(view)
            else:
                move = await asyncio.get_running_loop().run_in_executor(self._bot_pool, bot, view)
        except Exception as error:  # a bot's bug must not stop the game: its seat plays its first legal move
            log.exception(
                "bot %s in seat %d of game %s raised %s: its first legal move is played", kind, seat, table.id, error
            )
            move = view.legal_moves[0]
        return str(move)

    async def _notify_bots(self, table: Table) -> None:
        game = table.game
        if len(game.results) == table.told:
            return
        table.told = len(game.results)
        loop = asyncio.get_running_loop()
        for seat, bot in table.bots.items():
            for hook in ("round_over", "game_over") if game.is_over else ("round_over",):
                method = getattr(bot, hook, None)
                if callable(method):
                    try:
                        await loop.run_in_executor(self._bot_pool, method, cf.observe(game, seat))
                    except Exception:
                        log.exception("bot %s in seat %d of game %s raised in %s", bot, seat, table.id, hook)

    # -- connections -------------------------------------------------------------------------

    def session(self, game: str, send: SendFrame, close: CloseConnection) -> Session:
        """Starts a connection to ``game``: feed it the client's messages with :meth:`Session.receive`."""
        return Session(self, game, send, close)


def _hashed(secret: str | None) -> str | None:
    return None if secret is None else digest(secret)


class Session:
    """One client's connection to one game: its hello, its moves, and every frame it is sent, in order.

    Frames are queued and sent by a task of the session's own, so a slow client never holds a
    game up: past :attr:`Limits.backlog` frames waiting it is dropped, and reconnects for the
    current view.
    """

    def __init__(self, server: GameServer, game: str, send: SendFrame, close: CloseConnection) -> None:
        self.server = server
        self.game = game
        self.table: Table | None = None
        self.seat: int | None = None
        self.svg = False
        self.is_closed = False
        limits = server.limits
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
        if self.table is not None:
            raise ProtocolError(CLOSE_MALFORMED, "hello once per connection")
        try:
            table = await self.server.table(self.game)
        except StoreError as error:
            raise ProtocolError(CLOSE_GOING_AWAY, f"the game cannot be read now ({error}): reconnect") from None
        if table is None:
            raise ProtocolError(CLOSE_NO_GAME, f"no game {self.game!r} on this server")
        if table.fenced:
            raise ProtocolError(CLOSE_MOVED, "this game is now served by another process: reload to follow it")
        seat = hello.seat
        if seat is not None:
            if seat >= table.setup.players:
                raise ProtocolError(CLOSE_MALFORMED, f"this game has seats 0 to {table.setup.players - 1}, not {seat}")
            if table.setup.seats[seat] != HUMAN:
                raise ProtocolError(CLOSE_TOKEN, f'seat {seat} is a bot\'s: watch with "seat": null')
            if not hello.token:
                raise ProtocolError(CLOSE_TOKEN, f"seat {seat} needs its token, which claiming the seat gave")
            if not matches(hello.token, table.tokens[seat]):
                raise ProtocolError(CLOSE_TOKEN, f"that token is not seat {seat}'s")
        if len(table.sessions) >= self._limits.connections_per_game:
            raise ProtocolError(CLOSE_FULL, f"this game takes {self._limits.connections_per_game} connections at most")
        self._hello_timer.cancel()
        self.table, self.seat, self.svg = table, seat, hello.svg
        table.sessions.add(self)
        self.sync()

    async def _move(self, message: MoveMessage) -> None:
        assert self.table is not None
        assert self.seat is not None
        await self.server.play(self.table, self.seat, message.seq, message.move, by=self)

    def sync(self) -> None:
        """Sends everything this connection may know: the table, the log of moves and its view now."""
        table = self.table
        assert table is not None
        head = json.dumps(
            {"type": "sync", "seq": table.seq, "seat": self.seat, "table": table.summary(), "log": table.log}
        )
        frame = head[:-1] + ', "view": ' + table.view_json(self.seat)
        if self.svg:
            frame += ', "svg": ' + json.dumps(table.svg(self.seat))
        self.send(frame + "}")

    def refuse(self, seq: int, move: str, refusal: Refusal) -> None:
        """Tells the client its move was not played, why, and the rule it breaks (if a rule does)."""
        self.send(
            json.dumps({"type": "refused", "seq": seq, "move": move, "reason": refusal.reason, "rule": refusal.rule})
        )

    def send(self, frame: str) -> None:
        """Queues a frame for the client (dropping a client that has let too many wait)."""
        if self.is_closed:
            return
        if self._outbox.qsize() >= self._limits.backlog:
            self.close(CLOSE_POLICY, "too slow to read the game's frames: reconnect for the current view")
            return
        self._outbox.put_nowait(frame)

    def close(self, code: int, reason: str) -> None:
        """Closes the connection with ``code`` and ``reason``, after the frames already queued."""
        if self.is_closed:
            return
        self.is_closed = True
        self._hello_timer.cancel()
        self._detach()
        self._outbox.put_nowait((code, reason))

    def _detach(self) -> None:
        table = self.table
        if table is not None:
            table.sessions.discard(self)
            if table.game.is_over and not table.sessions:  # a finished game leaves memory with its last watcher
                self.server.tables.pop(table.id, None)

    async def closed(self) -> None:
        """Waits until the connection is closed and its frames are sent; call it when the client has gone.

        A client that reads nothing more gets ``CLOSE_SECONDS`` (5) to take the frames queued
        before it; then they are dropped, so that its connection can be let go.
        """
        if not self.is_closed:  # the client left first
            self.is_closed = True
            self._hello_timer.cancel()
            self._detach()
            self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
            await asyncio.wait_for(self._sender, CLOSE_SECONDS)

    async def _deliver(self) -> None:
        while True:
            item = await self._outbox.get()
            try:
                if isinstance(item, tuple):
                    await self._close(*item)
                    return
                await self._send(item)
            except Exception:  # the client is gone: nothing more to send it
                self.is_closed = True
                self._detach()
                return
