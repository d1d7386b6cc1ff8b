"""The game server's store, on SQLite and (with ``CHICKENFOOT_TEST_POSTGRES`` naming a database) PostgreSQL.

Every test runs on both back ends: the same interface, the same answers. ``scripts/postgres.sh``
starts a throwaway cluster and prints the DSN to set (CI does so).
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")

import chickenfoot as cf  # noqa: E402
from _server import FAST, Recorder, settle  # noqa: E402
from chickenfoot.server import Fenced, GameServer, PostgresStore, Refusal, Setup, SQLiteStore, Store, StoreError  # noqa: E402

POSTGRES = os.environ.get("CHICKENFOOT_TEST_POSTGRES")

MakeStore = Callable[..., Store]


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MakeStore]:
    """Makes stores on one fresh database (each call another connection, with its own owner)."""
    if request.param == "sqlite":
        path = tmp_path / "games.sqlite3"
        yield lambda owner="local", **options: SQLiteStore(path, owner=owner, synchronous="NORMAL", **options)
        return
    if not POSTGRES:
        pytest.skip(
            "set CHICKENFOOT_TEST_POSTGRES to a PostgreSQL DSN (scripts/postgres.sh starts one) to test that store"
        )
    skip_module_unless_importable("psycopg", "the PostgreSQL store")
    import psycopg
    from psycopg.conninfo import make_conninfo

    name = f"chickenfoot_{secrets.token_hex(6)}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield lambda owner="local", **options: PostgresStore(
            make_conninfo(POSTGRES, dbname=name), owner=owner, **options
        )
    finally:
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


def run(test: Callable[[], Any]) -> Any:
    return asyncio.run(test())


def setup(game: str = "g1", seats: tuple[str, ...] = ("human", "greedy"), seed: int = 7) -> Setup:
    return Setup(game, cf.Rules.trains(), len(seats), seed, seats, created=1_800_000_000.0)


class opened:
    """Opens a store for the length of an ``async with``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def __aenter__(self) -> Store:
        await self.store.open()
        return self.store

    async def __aexit__(self, *exc_info: object) -> None:
        await self.store.close()


def first_moves(count: int, game_setup: Setup) -> tuple[list[str], cf.GameState]:
    """Plays the first legal move ``count`` times from the set-up's deal; gets the moves and the state."""
    game = cf.new_game(game_setup.rules, game_setup.players, game_setup.seed)
    moves = []
    for _ in range(count):
        move = cf.legal_moves(game)[0]
        moves.append(str(move))
        game = cf.apply(game, move)
    return moves, game


def test_a_game_is_kept_with_its_seats_and_moves(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store()) as store:
            await store.create(setup(), ["invite-hash", None])
            assert await store.claim("g1", 0, "token-hash")
            assert not await store.claim("g1", 0, "another")  # one winner, ever
            assert not await store.claim("g1", 1, "bot")  # a bot's seat has no invitation
            moves, _ = first_moves(3, setup())
            for seq, text in enumerate(moves):
                await store.append("g1", seq, text)
            assert await store.record("g1") is None
        async with opened(make_store()) as store:  # another connection reads what was committed
            stored = await store.load("g1")
            assert stored is not None
            assert stored.setup == setup()
            assert stored.moves == tuple(moves)
            assert stored.tokens == ("token-hash", None)
            assert stored.invites == ("invite-hash", None)
            assert [game.setup.game for game in await store.unfinished()] == ["g1"]
            assert await store.load("nope") is None
            await store.append("g1", 3, "draw", record='{"a": "record"}')
            assert await store.record("g1") == '{"a": "record"}'
            assert await store.unfinished() == []
            with pytest.raises(StoreError, match="exists already"):
                await store.create(setup(), ["x", None])

    run(test)


def test_a_place_in_the_log_is_taken_once(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store()) as store:
            await store.create(setup(), [None, None])
            await store.append("g1", 0, "draw")
            with pytest.raises(Fenced, match="move 0 of game g1"):
                await store.append("g1", 0, "pass")
            stored = await store.load("g1")
            assert stored is not None
            assert stored.moves == ("draw",)

    run(test)


def test_a_stale_owner_is_fenced_out(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store("old")) as old, opened(make_store("new")) as new:
            await old.create(setup(), [None, None])
            await old.append("g1", 0, "draw")
            with pytest.raises(Fenced):
                await new.append("g1", 1, "draw")  # not its game
            assert await new.adopt("old") == 1
            with pytest.raises(Fenced):
                await old.append("g1", 1, "draw")  # the old owner is out
            await new.append("g1", 1, "draw")
            assert [game.setup.game for game in await new.unfinished()] == ["g1"]
            assert await old.unfinished() == []

    run(test)


def test_fifty_simultaneous_claims_of_a_seat_have_one_winner(make_store: MakeStore) -> None:
    async def test() -> None:
        server = GameServer(make_store(), limits=FAST)
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["human", "greedy"])
            invite = created.invites[0]
            assert invite is not None
            answers = await asyncio.gather(
                *(server.claim(created.game, 0, invite) for _ in range(50)), return_exceptions=True
            )
            stored = await server.store.load(created.game)
        finally:
            await server.close()
        tokens = [answer for answer in answers if isinstance(answer, str)]
        refusals = [answer for answer in answers if isinstance(answer, Refusal)]
        assert len(tokens) == 1
        assert len(refusals) == 49
        assert {refusal.status for refusal in refusals} == {409}
        assert stored is not None
        assert stored.tokens[0] is not None
        assert stored.tokens[0] != tokens[0]  # kept hashed

    run(test)


def test_moves_at_once_commit_together(make_store: MakeStore) -> None:
    async def test() -> int:
        async with opened(make_store()) as store:
            for number in range(40):
                await store.create(setup(f"g{number}", seats=("random", "random")), [None, None])
            before = store.transactions  # type: ignore[attr-defined]
            await asyncio.gather(*(store.append(f"g{number}", 0, "draw") for number in range(40)))
            after = store.transactions  # type: ignore[attr-defined]
            loaded = [await store.load(f"g{number}") for number in range(40)]
            assert all(game is not None and game.moves == ("draw",) for game in loaded)
            return int(after - before)

    transactions = run(test)
    assert 1 <= transactions < 40  # group commit: one transaction took several moves


class Failing:
    """Makes a store's next commits fail, as the database would (busy, full, gone)."""

    def __init__(self, store: Store, error: BaseException) -> None:
        self.store, self.error, self.left = store, error, 0
        commit = store._commit  # type: ignore[attr-defined]

        def failing(connection: Any) -> None:
            if self.left:
                self.left -= 1
                raise self.error
            commit(connection)

        store._commit = failing  # type: ignore[attr-defined]


def driver_error(store: Store, message: str) -> BaseException:
    if isinstance(store, SQLiteStore):
        return sqlite3.OperationalError(message)
    import psycopg

    return psycopg.OperationalError(message)


@pytest.mark.parametrize("message", ["database is locked", "database or disk is full"])
def test_a_failed_commit_is_refused_cleanly_and_never_acknowledged(make_store: MakeStore, message: str) -> None:
    async def test() -> None:
        store = make_store()
        failing = Failing(store, driver_error(store, message))
        server = GameServer(store, limits=FAST)
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["human", "human"])
            tokens = [
                await server.claim(created.game, seat, invite) for seat, invite in enumerate(created.invites) if invite
            ]
            table = server.tables[created.game]
            mover = table.game.current_player
            assert mover is not None
            transport = Recorder()
            session = transport.connect(server, created.game)
            await session.receive(json.dumps({"type": "hello", "seat": mover, "token": tokens[mover]}))
            text = str(cf.legal_moves(table.game)[0])
            failing.left = 1
            await session.receive(json.dumps({"type": "move", "seq": 0, "move": text}))
            await settle([session])
            answer = json.loads(transport.frames[-1])
            assert answer["type"] == "refused"
            assert message in answer["reason"]
            assert "nothing was played" in answer["reason"]
            assert not any(json.loads(frame)["type"] in ("ack", "state") for frame in transport.frames)
            assert table.seq == 0
            assert (await store.load(created.game)).moves == ()  # type: ignore[union-attr]
            await session.receive(json.dumps({"type": "move", "seq": 0, "move": text}))  # sent again, it is played
            await settle([session])
            assert [json.loads(frame)["type"] for frame in transport.frames[-2:]] == ["ack", "state"]
            assert (await store.load(created.game)).moves == (text,)  # type: ignore[union-attr]
            await session.closed()
        finally:
            await server.close()

    run(test)


def test_a_failed_commit_keeps_nothing_of_its_transaction(make_store: MakeStore) -> None:
    async def test() -> None:
        store = make_store()
        failing = Failing(store, driver_error(store, "disk I/O error"))
        async with opened(store):
            for number in range(5):
                await store.create(setup(f"g{number}"), [None, None])
            failing.left = 1
            answers = await asyncio.gather(
                *(store.append(f"g{n}", 0, "draw") for n in range(5)), return_exceptions=True
            )
            assert all(isinstance(answer, StoreError) and "disk I/O error" in str(answer) for answer in answers)
            loaded = [await store.load(f"g{n}") for n in range(5)]
            assert all(game is not None and game.moves == () for game in loaded)
            await store.append("g0", 0, "draw")  # and the store goes on
            assert (await store.load("g0")).moves == ("draw",)  # type: ignore[union-attr]

    run(test)


def test_a_busy_sqlite_database_gives_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def test() -> None:
        async with opened(SQLiteStore(path, busy_seconds=0.05)) as store:
            await store.create(setup(), [None, None])
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            with pytest.raises(StoreError, match="locked"):
                await store.append("g1", 0, "draw")
            other.execute("ROLLBACK")
            other.close()
            await store.append("g1", 0, "draw")
            assert (await store.load("g1")).moves == ("draw",)  # type: ignore[union-attr]

    run(test)


def test_a_full_sqlite_database_gives_a_store_error_and_keeps_what_it_had(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def test() -> int:
        async with opened(SQLiteStore(path, max_pages=16)) as store:
            stored = 0
            for number in range(10_000):
                try:
                    await store.create(setup(f"game-{number:05}-{'x' * 200}"), ["h" * 64, None])
                except StoreError as error:
                    assert "full" in str(error)  # noqa: PT017 (the loop ends at the first error)
                    break
                stored += 1
            assert 0 < stored < 10_000
            assert len(await store.unfinished()) == stored
            return stored

    assert run(test) > 0
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    connection.close()


def test_a_restarted_server_replays_its_games_and_a_stale_one_is_fenced(make_store: MakeStore) -> None:
    async def test() -> None:
        first = GameServer(make_store("one"), limits=FAST)
        await first.start()
        created = await first.create(cf.Rules.trains(), ["human", "human"])
        tokens = [
            await first.claim(created.game, seat, invite) for seat, invite in enumerate(created.invites) if invite
        ]
        table = first.tables[created.game]
        for seq in range(6):
            player = table.game.current_player
            assert player is not None
            assert await first.play(table, player, seq, str(cf.legal_moves(table.game)[0]))
        seen = table.view_json(0)
        transport = Recorder()
        session = transport.connect(first, created.game)
        await session.receive(json.dumps({"type": "hello", "seat": 0, "token": tokens[0]}))

        second = GameServer(make_store("two"), limits=FAST)
        await second.store.open()
        assert await second.store.adopt("one") == 1
        await second.store.close()
        await second.start()
        try:
            rebuilt = second.tables[created.game]
            assert rebuilt.seq == 6
            assert rebuilt.view_json(0) == seen
            assert rebuilt.game == table.game
            player = table.game.current_player
            assert player is not None
            assert not await first.play(table, player, 6, str(cf.legal_moves(table.game)[0]))  # fenced
            await settle([session])
            assert transport.closed is not None
            assert transport.closed[0] == 4409
            assert created.game not in first.tables
            assert table.seq == 6
            assert await second.play(rebuilt, player, 6, str(cf.legal_moves(rebuilt.game)[0]))
        finally:
            await session.closed()
            await first.close()
            await second.close()

    run(test)
