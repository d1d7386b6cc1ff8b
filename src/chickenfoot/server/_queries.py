"""The store's operations in SQL, written once for both back ends (``?`` placeholders, rewritten for psycopg).

Each function builds an operation: a function of the connection that the writer thread runs
inside its transaction. Times are the database's (``Dialect.now``), in seconds since the
epoch, so that nodes on different machines agree on when a lease lapses. A game's row holds
``moved`` (its last move, or its creation), ``lease`` (until when ``owner`` holds it) and
``bots_turn`` (a bot the server seats is to move, so some node must hold it to play on).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import attrs

from ._group_commit import WriterStore
from ._store import Acquired, Fenced, Setup, Stored, StoreError

__all__ = ["Dialect", "SQLStore"]

log = logging.getLogger("chickenfoot.server")

Connection = TypeVar("Connection")
Operation = Callable[[Any], Any]


@attrs.frozen
class Dialect:
    """What the two back ends write differently."""

    placeholder: str
    now: str
    """An expression for the database's time now, in seconds since the epoch."""
    ids: str
    """A subquery of the ids in a JSON array given as one parameter."""
    share: str
    """The clause that locks a game's row against a takeover until the transaction ends (PostgreSQL)."""
    skip_locked: str
    """The clause that lets nodes adopting at once each take other games (PostgreSQL)."""
    serialize: str | None
    """A statement that makes creations one at a time across nodes (PostgreSQL), or ``None``."""
    notify: str | None
    """A statement sending a note (one parameter) to every node, or ``None``."""


def _execute(dialect: Dialect, connection: Any, text: str, parameters: Sequence[object] = ()) -> Any:
    text = text.replace("{now}", dialect.now).replace("{ids}", dialect.ids)
    if dialect.placeholder != "?":
        text = text.replace("?", dialect.placeholder)
    return connection.execute(text, parameters)


def _create(
    d: Dialect, owner: str, setup: Setup, invites: Sequence[str | None], limits: tuple[int, float, bool, float]
) -> Operation:
    games, expire, bots_turn, lease = limits

    def run(connection: Any) -> bool:
        if d.serialize:
            _execute(d, connection, d.serialize)
        in_play = _execute(
            d, connection, "SELECT count(*) FROM games WHERE finished = 0 AND moved > {now} - ?", (expire,)
        ).fetchone()[0]
        if in_play >= games:
            return False
        if _execute(d, connection, "SELECT 1 FROM games WHERE id = ?", (setup.game,)).fetchone():
            raise StoreError(f"a game {setup.game} exists already")
        _execute(
            d,
            connection,
            "INSERT INTO games (id, setup, owner, finished, moved, lease, bots_turn)"
            " VALUES (?, ?, ?, 0, {now}, CASE WHEN ? = 1 THEN {now} + ? ELSE 0 END, ?)",
            (setup.game, setup.to_json(), owner, int(bots_turn), lease, int(bots_turn)),
        )
        for seat, invite in enumerate(invites):
            _execute(
                d, connection, "INSERT INTO seats (game, seat, invite) VALUES (?, ?, ?)", (setup.game, seat, invite)
            )
        return True

    return run


def _note(d: Dialect, connection: Any, note: str | None) -> None:
    if note is not None and d.notify is not None:
        _execute(d, connection, d.notify, (note,))


def _claim(d: Dialect, game: str, seat: int, token: str, note: str | None) -> Operation:
    def run(connection: Any) -> bool:
        cursor = _execute(
            d,
            connection,
            "UPDATE seats SET token = ? WHERE game = ? AND seat = ? AND token IS NULL AND invite IS NOT NULL",
            (token, game, seat),
        )
        won = bool(cursor.rowcount == 1)
        if won:
            _note(d, connection, note)
        return won

    return run


@attrs.frozen
class _Move:
    game: str
    sequence: int
    move: str
    record: str | None
    bots_turn: bool
    expire: float
    note: str | None


def _append(d: Dialect, owner: str, move: _Move) -> Operation:
    def run(connection: Any) -> None:
        # The fence: a move goes in only at a free (game, seq) of a game in play whose row names this node,
        # the row locked until COMMIT so that no node takes the game over meanwhile.
        row = _execute(
            d,
            connection,
            "SELECT owner, finished, moved > {now} - ? FROM games WHERE id = ?" + d.share,
            (move.expire, move.game),
        ).fetchone()
        if row is None or row[0] != owner or row[1] or not row[2]:
            why = "no such game" if row is None else "not this node's" if row[0] != owner else "over or expired"
            raise Fenced(f"move {move.sequence} of game {move.game} was not stored: the game is {why}")
        cursor = _execute(
            d,
            connection,
            "INSERT INTO moves (game, seq, move) VALUES (?, ?, ?) ON CONFLICT (game, seq) DO NOTHING",
            (move.game, move.sequence, move.move),
        )
        if cursor.rowcount != 1:
            raise Fenced(f"move {move.sequence} of game {move.game} was not stored: that place is taken")
        _execute(
            d,
            connection,
            "UPDATE games SET moved = {now}, bots_turn = ?, finished = ?, record = ? WHERE id = ?",
            (int(move.bots_turn), int(move.record is not None), move.record, move.game),
        )
        _note(d, connection, move.note)

    return run


def _stored(d: Dialect, connection: Any, row: Sequence[Any]) -> Stored:
    game, setup, owner, finished, idle = row
    seats = _execute(d, connection, "SELECT invite, token FROM seats WHERE game = ? ORDER BY seat", (game,)).fetchall()
    moves = _execute(d, connection, "SELECT seq, move FROM moves WHERE game = ? ORDER BY seq", (game,)).fetchall()
    if [seq for seq, _ in moves] != list(range(len(moves))):
        raise StoreError(f"game {game}'s log has a gap: sequences {[seq for seq, _ in moves][:20]}")
    return Stored(
        Setup.from_json(game, setup),
        tuple(invite for invite, _ in seats),
        tuple(token for _, token in seats),
        tuple(move for _, move in moves),
        bool(finished),
        owner,
        float(idle),
    )


_GAME = "SELECT id, setup, owner, finished, {now} - moved FROM games"


def _load(d: Dialect, game: str) -> Operation:
    def run(connection: Any) -> Stored | None:
        row = _execute(d, connection, _GAME + " WHERE id = ?", (game,)).fetchone()
        return None if row is None else _stored(d, connection, row)

    return run


def _record(d: Dialect, game: str) -> Operation:
    def run(connection: Any) -> str | None:
        row = _execute(d, connection, "SELECT record FROM games WHERE id = ? AND finished = 1", (game,)).fetchone()
        return None if row is None else str(row[0])

    return run


def _acquire(
    d: Dialect, owner: str, game: str, after: int, times: tuple[float, float], note: Callable[[str], str] | None
) -> Operation:
    lease, expire = times

    def run(connection: Any) -> Acquired:
        # The lease condition is in the UPDATE's own WHERE, which PostgreSQL checks again on a row another
        # node has just changed: of two nodes taking a lapsed lease at once, one gets it.
        taken = _execute(
            d,
            connection,
            "UPDATE games SET owner = ?, lease = {now} + ? WHERE id = ? AND finished = 0"
            " AND moved > {now} - ? AND (owner = ? OR lease < {now})",
            (owner, lease, game, expire, owner),
        )
        if taken.rowcount == 1:
            moves = _execute(
                d, connection, "SELECT move FROM moves WHERE game = ? AND seq >= ? ORDER BY seq", (game, after)
            ).fetchall()
            return Acquired("ours", tuple(move for (move,) in moves))
        row = _execute(
            d, connection, "SELECT owner FROM games WHERE id = ? AND finished = 0 AND moved > {now} - ?", (game, expire)
        ).fetchone()
        if row is None:
            return Acquired("closed")
        if note is not None:
            _note(d, connection, note(row[0]))
        return Acquired("held")

    return run


def _renew(d: Dialect, owner: str, games: Sequence[str], lease: float) -> Operation:
    def run(connection: Any) -> set[str]:
        rows = _execute(
            d,
            connection,
            "UPDATE games SET lease = {now} + ? WHERE owner = ? AND finished = 0 AND id IN {ids} RETURNING id",
            (lease, owner, json.dumps(list(games))),
        ).fetchall()
        return {game for (game,) in rows}

    return run


def _release(d: Dialect, owner: str, game: str) -> Operation:
    def run(connection: Any) -> None:
        _execute(d, connection, "UPDATE games SET lease = 0 WHERE id = ? AND owner = ?", (game, owner))

    return run


def _adopt(d: Dialect, owner: str, limit: int, times: tuple[float, float], mine: bool) -> Operation:
    lease, expire = times
    # Free: lapsed, or (a node starting again under its old name) still this node's.
    free, mine_too = ("(lease < {now} OR owner = ?)", (owner,)) if mine else ("lease < {now}", ())

    def run(connection: Any) -> list[Stored]:
        # Each game is read before its lease is taken: one that cannot be read (its log has a gap, its set-up
        # is not one) is left as it is, and logged, and the others are adopted.
        rows = _execute(
            d,
            connection,
            f"SELECT id FROM games WHERE finished = 0 AND bots_turn = 1 AND moved > {{now}} - ? AND {free}"
            f" LIMIT ?{d.skip_locked}",
            (expire, *mine_too, limit),
        ).fetchall()
        readable = []
        for (game,) in rows:
            row = _execute(d, connection, _GAME + " WHERE id = ?", (game,)).fetchone()
            try:
                readable.append(_stored(d, connection, row))
            except StoreError as error:
                log.error("game %s cannot be adopted: %s", game, error)
        if not readable:
            return []
        taken = _execute(
            d,
            connection,
            f"UPDATE games SET owner = ?, lease = {{now}} + ? WHERE {free} AND id IN {{ids}} RETURNING id",
            (owner, lease, *mine_too, json.dumps([stored.setup.game for stored in readable])),
        ).fetchall()
        ids = {game for (game,) in taken}
        adopted = [attrs.evolve(stored, owner=owner) for stored in readable if stored.setup.game in ids]
        return sorted(adopted, key=lambda stored: (stored.setup.created, stored.setup.game))

    return run


def _notify(d: Dialect, note: str) -> Operation:
    def run(connection: Any) -> None:
        _note(d, connection, note)

    return run


class SQLStore(WriterStore[Connection], Generic[Connection]):
    """The store's methods as operations for the writer thread, for a back end speaking this SQL."""

    _dialect: Dialect

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
        if len(invites) != setup.players:
            raise ValueError(f"one invitation (or None) per seat: {setup.players} seats, {len(invites)} given")
        limits = (games, expire_seconds, bots_turn, lease_seconds)
        created: bool = await self._submit(_create(self._dialect, self.owner, setup, invites, limits))
        return created

    async def claim(self, game: str, seat: int, token: str, note: str | None = None) -> bool:
        won: bool = await self._submit(_claim(self._dialect, game, seat, token, note))
        return won

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
        await self._submit(
            _append(self._dialect, self.owner, _Move(game, sequence, move, record, bots_turn, expire_seconds, note))
        )

    async def load(self, game: str) -> Stored | None:
        stored: Stored | None = await self._submit(_load(self._dialect, game))
        return stored

    async def record(self, game: str) -> str | None:
        record: str | None = await self._submit(_record(self._dialect, game))
        return record

    async def acquire(
        self,
        game: str,
        after: int,
        *,
        lease_seconds: float,
        expire_seconds: float,
        note: Callable[[str], str] | None = None,
    ) -> Acquired:
        times = (lease_seconds, expire_seconds)
        acquired: Acquired = await self._submit(_acquire(self._dialect, self.owner, game, after, times, note))
        return acquired

    async def renew(self, games: Sequence[str], *, lease_seconds: float) -> set[str]:
        if not games:
            return set()
        renewed: set[str] = await self._submit(_renew(self._dialect, self.owner, games, lease_seconds))
        return renewed

    async def release(self, game: str) -> None:
        await self._submit(_release(self._dialect, self.owner, game))

    async def adopt(self, *, limit: int, lease_seconds: float, expire_seconds: float, mine: bool) -> list[Stored]:
        times = (lease_seconds, expire_seconds)
        adopted: list[Stored] = await self._submit(_adopt(self._dialect, self.owner, limit, times, mine))
        return adopted

    async def notify(self, note: str) -> None:
        if self._dialect.notify is not None:
            await self._submit(_notify(self._dialect, note))
