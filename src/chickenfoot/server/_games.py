"""The authoritative game server, apart from any web framework: games, seats, moves and bots, on one node or several.

A :class:`GameServer` keeps its games in a :class:`~chickenfoot.server.Store`, and in memory
only the games someone is connected to or a bot is to move in (one :class:`Table` each); any
other game is read back from the store when it is asked for. Each game has one writer: the node
holding its lease. There, a move is checked against the table's sequence number and the rules,
stored (and committed), and only then applied, acknowledged to its mover and sent to every
connection, each as what its seat (or a spectator) may see. On PostgreSQL several nodes share
the games (see :mod:`chickenfoot.server._nodes`): a node forwards a move to the game's owner,
or takes the lease over when it has lapsed, and hears every stored move to tell its own
connections. Bots the server seats play through the same path as people.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import chickenfoot as cf
from chickenfoot.bots import KINDS, check_spec

from ._bots import Bots
from ._limits import Limits
from ._nodes import Nodes
from ._protocol import CLOSE_GOING_AWAY
from ._secrets import digest, matches, new_id, new_secret
from ._session import CloseConnection, SendFrame, Session
from ._store import UNAVAILABLE, Setup, Store, Stored, StoreError
from ._table import HUMAN, SEATED_BOTS, UNSEATED, NewGame, Refusal, Table, describe

__all__ = ["GameServer"]

log = logging.getLogger("chickenfoot.server")


class GameServer(Nodes):
    """Serves games: creates them, seats people and bots, and keeps every move in ``store`` before anyone sees it.

    ``programs`` names the program bots a game may seat (``{"js": ["node", "examples/bots/heaviest.js"]}``),
    each run by :class:`~chickenfoot.bots.ProcessBot` with ``program_seconds`` a move; clients
    can name only these and the built-in bots (``random``, ``greedy``, ``search:N``), never a
    command. ``bot_delay`` is how long a bot waits before it moves, so people can follow;
    ``bot_workers`` the processes the thinking bots use (the machine's cores by default).
    ``lease_seconds`` is how long a node holds a game's lease without renewing it: on
    PostgreSQL, how long a dead node's games wait before another takes them over.
    Call :meth:`start` before use and :meth:`close` at the end (the Starlette app does both).
    """

    def __init__(
        self,
        store: Store,
        *,
        programs: Mapping[str, Sequence[str]] | None = None,
        program_seconds: float = 5.0,
        bot_delay: float = 0.0,
        bot_workers: int | None = None,
        limits: Limits | None = None,
        lease_seconds: float = 10.0,
    ) -> None:
        programs = dict(programs or {})
        for name in programs:
            if name == HUMAN or name.partition(":")[0].lower() in {kind.name for kind in KINDS}:
                raise ValueError(f"a program bot's name must not be {HUMAN!r} or a built-in bot's, got {name!r}")
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds is a positive number of seconds, got {lease_seconds!r}")
        super().__init__(store, limits or Limits(), lease_seconds)
        self.bots = Bots(
            self.play, programs=programs, program_seconds=program_seconds, delay=bot_delay, workers=bot_workers
        )

    @property
    def programs(self) -> dict[str, list[str]]:
        """Gets the program bots a game may seat, by name."""
        return {name: list(command) for name, command in self.bots.programs.items()}

    @property
    def bot_names(self) -> list[str]:
        """Gets the bots a client may seat: the built-in ones and the programs configured."""
        return [*SEATED_BOTS, *sorted(self.bots.programs)]

    async def start(self) -> None:
        """Opens the store, takes back this node's games whose bots are to move, and starts keeping its leases."""
        await self.store.open()
        await self.start_nodes()
        log.info("serving %d games whose bots are to move, from %r", len(self.tables), self.store)

    async def close(self) -> None:
        """Closes every connection (going away), stops the bots, gives up the leases and closes the store."""
        await self.disconnect(CLOSE_GOING_AWAY, "the server is stopping: reconnect in a moment")
        await self.stop_nodes()
        await self.bots.close()
        await self.store.close()

    async def disconnect(self, code: int, reason: str) -> None:
        """Closes every connection with ``code`` and ``reason``, and waits (a few seconds at most) for them to go."""
        sessions = [session for table in self.tables.values() for session in table.sessions]
        for session in sessions:
            session.close(code, reason)
        await asyncio.gather(*(session.closed() for session in sessions if isinstance(session, Session)))

    # -- games -------------------------------------------------------------------------------

    def check_seat(self, kind: object) -> str:
        """Checks who may sit in a seat: ``"human"``, a built-in bot or a configured program; raises Refusal."""
        if not isinstance(kind, str):
            raise Refusal(400, f"a seat is 'human' or a bot's name, got {json.dumps(kind)[:40]}")
        programs = self.bots.programs
        if kind == HUMAN or kind in programs:
            return kind
        try:
            spec = check_spec(kind)
        except cf.BotSpecError as error:
            raise Refusal(400, f"{error}; or one of the programs: {', '.join(sorted(programs)) or 'none'}") from None
        if spec.kind == "cmd":
            raise Refusal(400, "a client cannot name a command: the server's operator configures program bots")
        if spec.kind not in SEATED_BOTS:
            why = UNSEATED.get(spec.kind, "is not a bot this server seats")
            raise Refusal(400, f"{spec.kind} {why}: it is not seated here; choose one of {', '.join(SEATED_BOTS)}")
        limits = self.limits
        if spec.simulations is not None and spec.simulations > limits.search_simulations:
            raise Refusal(
                400, f"{spec.kind} takes at most {limits.search_simulations} simulations here, got {spec.simulations}"
            )
        if spec.seconds is not None and spec.seconds > limits.bot_seconds:
            raise Refusal(400, f"{spec.kind} takes at most {limits.bot_seconds * 1000:g} ms a move here, got {kind}")
        return kind.strip().lower()

    async def create(self, rules: cf.Rules, seats: Sequence[str], *, seed: int | None = None) -> NewGame:
        """Creates a game with one entry of ``seats`` per player (see :meth:`check_seat`); raises :class:`Refusal`.

        A game whose bot is to move first is held here (this node plays its bots); any other
        stays in the store until someone connects.
        """
        kinds = tuple(self.check_seat(kind) for kind in seats)
        try:
            rules.check_players(len(kinds))
        except cf.RulesError as error:
            raise Refusal(400, str(error)) from None
        setup = Setup(new_id(), rules, len(kinds), secrets.randbits(128) if seed is None else seed, kinds)
        invites = [new_secret() if kind == HUMAN else None for kind in kinds]
        stored = Stored(setup, tuple(map(_hashed, invites)), (None,) * len(kinds), (), False, self.store.owner)
        table = self.build(stored)
        bots_turn = table.bots_turn()
        limits = self.limits
        try:
            created = await self.store.create(
                setup,
                stored.invites,
                games=limits.games,
                expire_seconds=limits.expire_seconds,
                bots_turn=bots_turn,
                lease_seconds=self.lease_seconds,
            )
        except StoreError as error:
            log.warning("a game could not be stored: %s", error)  # the database's words stay in the log
            raise Refusal(503, f"the game could not be stored: {UNAVAILABLE}") from None
        if not created:
            raise Refusal(503, f"this server has {limits.games} games in play, its most: try again later")
        if bots_turn:
            table.owned = True
            self.tables[table.id] = table
            self.bots.start(table)
        return NewGame(setup.game, tuple(invites))

    async def summary(self, game: str) -> dict[str, Any]:
        """Describes a game as anyone may see it; raises :class:`Refusal` (404) if there is none."""
        table = self.tables.get(game)
        if table is not None:
            return table.summary()
        stored = await self._stored(game)
        expired = not stored.finished and stored.idle >= self.limits.expire_seconds
        return describe(stored.setup, stored.tokens, len(stored.moves), is_over=stored.finished, expired=expired)

    async def claim(self, game: str, seat: int, invite: str) -> str:
        """Claims a person's seat with its invitation and returns the seat's token; one claim ever wins.

        Raises :class:`Refusal`: 404 without such a game or seat, 403 for a wrong invitation or a
        bot's seat, 409 for a seat already taken.
        """
        table = self.tables.get(game)
        known = table if table is not None else await self._stored(game)
        setup = known.setup
        if type(seat) is not int or not 0 <= seat < setup.players:
            raise Refusal(404, f"game {game} has seats 0 to {setup.players - 1}, not {seat!r}")
        if setup.seats[seat] != HUMAN:
            raise Refusal(403, f"seat {seat} is {setup.seats[seat]}'s, a bot's: it cannot be claimed")
        if not matches(invite, known.invites[seat]):
            raise Refusal(403, f"that is not seat {seat}'s invitation: ask whoever created the game for its link")
        if known.tokens[seat] is not None:
            raise Refusal(409, f"seat {seat} is taken: its invitation has been used")
        secret = new_secret()
        token = digest(secret)
        try:
            won = await self.store.claim(game, seat, token, note=self.seated_note(game, seat, token))
        except StoreError as error:
            log.warning("a claim of game %s could not be stored: %s", game, error)
            raise Refusal(503, f"the claim could not be stored: {UNAVAILABLE}") from None
        if not won:
            raise Refusal(409, f"seat {seat} is taken: its invitation has been used")
        table = self.tables.get(game)
        if table is not None:
            table.seat_taken(seat, token)
        return secret

    async def record(self, game: str) -> str:
        """Gets a finished game's record (JSON); raises :class:`Refusal`: 403 while it is in play, 404 without it."""
        try:
            record = await self.store.record(game)
        except StoreError as error:
            log.warning("game %s's record could not be read: %s", game, error)
            raise Refusal(503, UNAVAILABLE) from None
        if record is not None:
            return record
        await self._stored(game)  # 404 if there is no such game
        raise Refusal(403, "the record, and the seed, stay on the server until the game is over")

    async def _stored(self, game: str) -> Stored:
        if not _valid_id(game):
            raise Refusal(404, f"no game {game!r} on this server")
        try:
            stored = await self.store.load(game)
        except StoreError as error:
            log.warning("game %s could not be read: %s", game, error)
            raise Refusal(503, UNAVAILABLE) from None
        if stored is None:
            raise Refusal(404, f"no game {game!r} on this server")
        return stored

    async def join(self, game: str) -> Table | None:
        """Gets a game's table in memory, reading it from the store if need be; ``None`` if there is no such game.

        Several connections asking at once share one read. The table stays in memory while
        someone is connected to it (or a bot is to move): call ``leave`` with the table when it may go.
        """
        while True:
            table = self.tables.get(game)
            if table is not None or not _valid_id(game):
                return table
            loading = self._loading.get(game)
            if loading is None:
                loading = self._loading[game] = asyncio.get_running_loop().create_task(self._load(game))
                loading.add_done_callback(lambda _: self._loading.pop(game, None))
            table = await asyncio.shield(loading)
            # Let go between the read and this turn (a note handled meanwhile found nobody holding it)?
            # A table not kept here hears no more moves: read the game again.
            if table is None or self.tables.get(game) is table:
                return table

    async def _load(self, game: str) -> Table | None:
        self._noted_while_read.discard(game)
        stored = await self.store.load(game)
        if stored is None:
            return None
        table = self.tables.get(game)  # read meanwhile (a bot's turn taken over, say)
        if table is None:
            try:
                table = self.tables[game] = self.build(stored)
            except (StoreError, cf.IllegalMoveError, cf.InvalidMoveError, cf.RulesError) as error:
                log.error("game %s cannot be rebuilt from the store: %s", game, error)
                raise StoreError(f"game {game} cannot be rebuilt from its stored moves") from None
        if game in self._noted_while_read:  # the read may predate what the note told: read again
            self._noted_while_read.discard(game)
            self.spawn(self._resync(table))
        return table

    # -- connections -------------------------------------------------------------------------

    def session(self, game: str, send: SendFrame, close: CloseConnection) -> Session:
        """Starts a connection to ``game``: feed it the client's messages with :meth:`Session.receive`."""
        return Session(self, game, send, close)


def _valid_id(game: object) -> bool:
    return isinstance(game, str) and 0 < len(game) <= 64


def _hashed(secret: str | None) -> str | None:
    return None if secret is None else digest(secret)
