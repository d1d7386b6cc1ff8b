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

from starlette.testclient import TestClient  # noqa: E402

import chickenfoot as cf  # noqa: E402
from _server import (  # noqa: E402
    FAST,
    Recorder,
    create as create_game,
    settle,
)
from chickenfoot.server import (  # noqa: E402
    Fenced,
    GameServer,
    PostgresStore,
    Refusal,
    Session,
    Setup,
    SQLiteStore,
    Store,
    StoreError,
    create_app,
)

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


DAY = 86_400.0  # the expiry the store tests use where expiry is not what they test


async def create(store: Store, game: Setup, invites: list[str | None], **options: Any) -> bool:
    """Creates a game with room for it (100 games in play) unless told otherwise."""
    limits: dict[str, Any] = {"games": 100, "expire_seconds": DAY, **options}
    return await store.create(game, invites, **limits)


async def append(store: Store, game: str, sequence: int, move: str, **options: Any) -> None:
    """Appends a move to a game that does not expire."""
    await store.append(game, sequence, move, expire_seconds=DAY, **options)


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
            assert await create(store, setup(), ["invite-hash", None])
            assert await store.claim("g1", 0, "token-hash")
            assert not await store.claim("g1", 0, "another")  # one winner, ever
            assert not await store.claim("g1", 1, "bot")  # a bot's seat has no invitation
            moves, _ = first_moves(3, setup())
            for seq, text in enumerate(moves):
                await append(store, "g1", seq, text)
            assert await store.record("g1") is None
        async with opened(make_store()) as store:  # another connection reads what was committed
            stored = await store.load("g1")
            assert stored is not None
            assert stored.setup == setup()
            assert stored.moves == tuple(moves)
            assert stored.tokens == ("token-hash", None)
            assert stored.invites == ("invite-hash", None)
            assert not stored.finished
            assert 0 <= stored.idle < 60
            assert await store.load("nope") is None
            await append(store, "g1", 3, "draw", record='{"a": "record"}')
            assert await store.record("g1") == '{"a": "record"}'
            assert (await store.load("g1")).finished  # type: ignore[union-attr]
            with pytest.raises(StoreError, match="exists already"):
                await create(store, setup(), ["x", None])

    run(test)


def test_a_place_in_the_log_is_taken_once(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store()) as store:
            await create(store, setup(), [None, None])
            await append(store, "g1", 0, "draw")
            with pytest.raises(Fenced, match="move 0 of game g1"):
                await append(store, "g1", 0, "pass")
            stored = await store.load("g1")
            assert stored is not None
            assert stored.moves == ("draw",)

    run(test)


def test_a_lease_is_held_by_one_node_and_a_stale_owner_is_fenced_out(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store("old")) as old, opened(make_store("new")) as new:
            await create(old, setup(seats=("random", "random")), [None, None], bots_turn=True, lease_seconds=60)
            await append(old, "g1", 0, "draw", bots_turn=True)
            with pytest.raises(Fenced, match="not this node's"):
                await append(new, "g1", 1, "draw")  # not its game
            held = await new.acquire("g1", 0, lease_seconds=60, expire_seconds=DAY)
            assert held.status == "held"  # the old node's lease runs
            assert await new.adopt(limit=10, lease_seconds=60, expire_seconds=DAY, mine=False) == []
            assert await old.renew(["g1"], lease_seconds=0.01) == {"g1"}
            await asyncio.sleep(0.05)  # the old node stops renewing: its lease lapses
            adopted = await new.adopt(limit=10, lease_seconds=60, expire_seconds=DAY, mine=False)
            assert [stored.setup.game for stored in adopted] == ["g1"]
            assert adopted[0].moves == ("draw",)
            assert await old.renew(["g1"], lease_seconds=60) == set()  # the old node learns it lost it
            with pytest.raises(Fenced):
                await append(old, "g1", 1, "draw")  # the old owner is out
            await append(new, "g1", 1, "draw")
            again = await old.acquire("g1", 1, lease_seconds=60, expire_seconds=DAY)
            assert again.status == "held"
            await new.release("g1")  # given up: any node takes it at once, with the moves it missed
            taken = await old.acquire("g1", 1, lease_seconds=60, expire_seconds=DAY)
            assert taken.status == "ours"
            assert taken.moves == ("draw",)

    run(test)


def test_the_game_cap_counts_games_in_play_in_the_same_transaction_as_the_insert(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store("a")) as a, opened(make_store("b")) as b:
            # Two nodes create 40 games at once, 20 each, under a cap of 10: ten are stored.
            answers = await asyncio.gather(
                *(create(store, setup(f"g{n}"), [None, None], games=10) for n, store in enumerate([a, b] * 20))
            )
            assert sum(answers) == 10
            stored = [await a.load(f"g{n}") for n in range(40)]
            assert sum(game is not None for game in stored) == 10
            first = next(n for n, game in enumerate(stored) if game is not None)
            moves, _ = first_moves(1, setup(f"g{first}"))
            owner = a if first % 2 == 0 else b
            await append(owner, f"g{first}", 0, moves[0], record="{}")  # a game over no longer counts
            assert await create(a, setup("after"), [None, None], games=10)
            assert not await create(a, setup("again"), [None, None], games=10)

    run(test)


def test_a_game_without_a_move_expires_no_longer_counts_and_takes_no_move(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store()) as store:
            game = setup(seats=("random", "random"))
            assert await store.create(
                game, [None, None], games=1, expire_seconds=0.2, bots_turn=True, lease_seconds=0.01
            )
            assert not await store.create(setup("g2"), [None, None], games=1, expire_seconds=0.2)
            await asyncio.sleep(0.3)
            assert await store.create(setup("g3"), [None, None], games=1, expire_seconds=0.2)  # g1 expired
            with pytest.raises(Fenced, match="over or expired"):
                await store.append("g1", 0, "draw", expire_seconds=0.2)
            assert (await store.acquire("g1", 0, lease_seconds=1, expire_seconds=0.2)).status == "closed"
            assert await store.adopt(limit=10, lease_seconds=1, expire_seconds=0.2, mine=True) == []
            stored = await store.load("g1")
            assert stored is not None
            assert stored.idle >= 0.2

    run(test)


def test_notes_reach_the_nodes_listening_once_their_transaction_commits(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store("a")) as a, opened(make_store("b")) as b:
            if not b.shared:
                heard: list[str | None] = []
                await b.listen(heard.append)  # one node: nothing to hear, and it returns
                assert heard == []
                return
            heard = []
            listening = asyncio.ensure_future(b.listen(heard.append))
            for _ in range(100):
                if heard == [None]:  # listening
                    break
                await asyncio.sleep(0.02)
            await create(a, setup(), [None, None])
            await append(a, "g1", 0, "draw", note="moved g1 0")
            with pytest.raises(Fenced):
                await append(a, "g1", 0, "pass", note="never sent")  # refused: its note is not sent
            await b.acquire("g1", 1, lease_seconds=60, expire_seconds=DAY)  # b takes the lapsed lease
            held = await a.acquire("g1", 1, lease_seconds=60, expire_seconds=DAY, note=lambda owner: f"to {owner}")
            assert held.status == "held"
            await a.notify("hello")
            for _ in range(100):
                if len(heard) >= 4:
                    break
                await asyncio.sleep(0.02)
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)
            assert heard == [None, "moved g1 0", "to b", "hello"]

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
                await create(store, setup(f"g{number}", seats=("random", "random")), [None, None])
            before = store.transactions  # type: ignore[attr-defined]
            await asyncio.gather(*(append(store, f"g{number}", 0, "draw") for number in range(40)))
            after = store.transactions  # type: ignore[attr-defined]
            loaded = [await store.load(f"g{number}") for number in range(40)]
            assert all(game is not None and game.moves == ("draw",) for game in loaded)
            return int(after - before)

    transactions = run(test)
    assert 1 <= transactions < 40  # group commit: one transaction took several moves


class Failing:
    """Makes a store's commits fail, as the database would (busy, full, gone).

    ``left``: the next commits, whatever their transactions hold. ``moves``: the commits of the
    transactions that hold the next moves appended, and those only, for a server whose other work
    (reading a game again when a note comes, renewing leases) commits whenever it runs.
    """

    def __init__(self, store: Store, error: BaseException) -> None:
        self.store, self.error, self.left, self.moves = store, error, 0, 0
        commit, submit, append = store._commit, store._submit, store.append  # type: ignore[attr-defined]
        appending = doomed = False

        def failing(connection: Any) -> None:
            nonlocal doomed
            if self.left or doomed:
                self.left, doomed = max(self.left - 1, 0), False
                raise self.error
            commit(connection)

        def submitting(run: Callable[[Any], Any]) -> Any:
            nonlocal appending
            if not appending:
                return submit(run)
            appending = False

            def run_doomed(connection: Any) -> Any:  # on the writer's thread: its transaction will fail
                nonlocal doomed
                doomed = True
                return run(connection)

            return submit(run_doomed)

        async def appending_a_move(*args: Any, **kwargs: Any) -> None:
            nonlocal appending
            if self.moves:
                self.moves -= 1
                appending = True  # append submits its operation before it first waits: that one
            await append(*args, **kwargs)

        store._commit = failing  # type: ignore[attr-defined]
        store._submit = submitting  # type: ignore[attr-defined]
        store.append = appending_a_move  # type: ignore[method-assign]


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
            table = await server.join(created.game)
            assert table is not None
            mover = table.game.current_player
            assert mover is not None
            transport = Recorder()
            session = transport.connect(server, created.game)
            await session.receive(json.dumps({"type": "hello", "seat": mover, "token": tokens[mover]}))
            text = str(cf.legal_moves(table.game)[0])
            failing.moves = 1  # on PostgreSQL the node may read the game again meanwhile: that commits
            await session.receive(json.dumps({"type": "move", "seq": 0, "move": text}))
            await settle([session])
            answer = json.loads(transport.frames[-1])
            assert answer["type"] == "refused"
            assert message not in answer["reason"]  # the database's words stay in the server's log
            assert "unavailable" in answer["reason"]
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
                await create(store, setup(f"g{number}"), [None, None])
            failing.left = 1
            answers = await asyncio.gather(
                *(append(store, f"g{n}", 0, "draw") for n in range(5)), return_exceptions=True
            )
            assert all(isinstance(answer, StoreError) and "disk I/O error" in str(answer) for answer in answers)
            loaded = [await store.load(f"g{n}") for n in range(5)]
            assert all(game is not None and game.moves == () for game in loaded)
            await append(store, "g0", 0, "draw")  # and the store goes on
            assert (await store.load("g0")).moves == ("draw",)  # type: ignore[union-attr]

    run(test)


def test_a_busy_sqlite_database_gives_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def test() -> None:
        async with opened(SQLiteStore(path, busy_seconds=0.05)) as store:
            await create(store, setup(), [None, None])
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            with pytest.raises(StoreError, match="locked"):
                await append(store, "g1", 0, "draw")
            other.execute("ROLLBACK")
            other.close()
            await append(store, "g1", 0, "draw")
            assert (await store.load("g1")).moves == ("draw",)  # type: ignore[union-attr]

    run(test)


def test_a_full_sqlite_database_gives_a_store_error_and_keeps_what_it_had(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def test() -> int:
        async with opened(SQLiteStore(path, max_pages=16)) as store:
            stored = 0
            for number in range(10_000):
                try:
                    await create(store, setup(f"game-{number:05}-{'x' * 200}"), ["h" * 64, None], games=10_000)
                except StoreError as error:
                    assert "full" in str(error)  # noqa: PT017 (the loop ends at the first error)
                    break
                stored += 1
            assert 0 < stored < 10_000
            assert await store.load(f"game-{stored - 1:05}-{'x' * 200}") is not None
            assert await store.load(f"game-{stored:05}-{'x' * 200}") is None
            return stored

    assert run(test) > 0
    connection = sqlite3.connect(path)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    connection.close()


def test_a_node_that_lost_a_game_is_fenced_and_follows_the_node_that_took_it_over(make_store: MakeStore) -> None:
    async def test() -> None:
        first = GameServer(make_store("one"), limits=FAST, lease_seconds=0.3)
        second = GameServer(make_store("two"), limits=FAST, lease_seconds=0.3)
        await first.start()
        await second.start()
        sessions: list[Session] = []
        try:
            created = await first.create(cf.Rules.trains(), ["human", "human"])
            tokens = [
                await first.claim(created.game, seat, invite or "") for seat, invite in enumerate(created.invites)
            ]
            transports = [Recorder(), Recorder()]
            sessions = [transports[seat].connect(first, created.game) for seat in (0, 1)]
            for seat, session in enumerate(sessions):
                await session.receive(json.dumps({"type": "hello", "seat": seat, "token": tokens[seat]}))
            table = first.tables[created.game]
            for seq in range(6):
                mover = table.game.current_player
                assert mover is not None
                move = json.dumps({"type": "move", "seq": seq, "move": str(cf.legal_moves(table.game)[0])})
                await sessions[mover].receive(move)
            assert table.seq == 6
            assert table.owned
            for watcher in first._watchers:  # the first node stalls: it renews its lease no more
                watcher.cancel()
            await asyncio.sleep(0.4)
            there = Recorder()
            taker = there.connect(second, created.game)
            mover = table.game.current_player
            assert mover is not None
            await taker.receive(json.dumps({"type": "hello", "seat": mover, "token": tokens[mover]}))
            theirs = second.tables[created.game]
            text = str(cf.legal_moves(theirs.game)[0])
            await taker.receive(json.dumps({"type": "move", "seq": 6, "move": text}))  # the lease lapsed: taken over
            assert theirs.owned
            assert theirs.seq == 7
            stale = str(cf.legal_moves(table.game)[-1])
            await sessions[mover].receive(json.dumps({"type": "move", "seq": 6, "move": stale}))  # the stale owner
            await settle([*sessions, taker])
            assert not table.owned  # fenced (or told by the note), it follows now
            assert table.seq == 7
            assert table.game == theirs.game
            assert json.loads(transports[mover].frames[-1])["type"] == "stale"
            shown = [json.loads(frame) for frame in transports[1 - mover].frames]
            assert [frame["seq"] for frame in shown if frame["type"] == "state"] == list(range(1, 8))
            assert (await second.store.load(created.game)).moves[6] == text  # type: ignore[union-attr]
        finally:
            for session in [*sessions]:
                await session.closed()
            await first.close()
            await second.close()

    run(test)


def test_an_unreadable_row_is_refused_and_the_store_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"

    async def test() -> None:
        async with opened(SQLiteStore(path)) as store:
            await create(store, setup("g1"), [None, None])
            await create(store, setup("g2"), [None, None])
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("UPDATE games SET setup = ? WHERE id = 'g1'", ('{"players": 2}',))  # no rules
            other.close()
            # wait_for only keeps a broken store from hanging the suite: a working one answers at once
            with pytest.raises(StoreError, match="g1's set-up cannot be read"):
                await asyncio.wait_for(store.load("g1"), 30)
            loaded = await asyncio.wait_for(store.load("g2"), 30)
            assert loaded is not None
            assert loaded.setup == setup("g2")

    run(test)


def test_an_operation_that_raises_is_answered_alone_and_the_writer_goes_on(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store()) as store:
            await create(store, setup("g1"), [None, None])

            def broken(connection: Any) -> None:
                raise KeyError("rules")

            submit = store._submit  # type: ignore[attr-defined]
            answers = await asyncio.wait_for(
                asyncio.gather(submit(broken), append(store, "g1", 0, "draw"), return_exceptions=True), 30
            )
            assert isinstance(answers[0], StoreError)
            assert "KeyError" in str(answers[0])
            assert answers[1] is None  # the other operation of its transaction is kept
            loaded = await asyncio.wait_for(store.load("g1"), 30)
            assert loaded is not None
            assert loaded.moves == ("draw",)

    run(test)


def execute(store: Store, statement: str) -> None:
    """Runs ``statement`` on the store's database from another connection, as a hand or a bug of its own would."""
    if isinstance(store, SQLiteStore):
        connection = sqlite3.connect(store.path, isolation_level=None)
        connection.execute(statement)
        connection.close()
        return
    import psycopg

    assert isinstance(store, PostgresStore)
    with psycopg.connect(store.dsn, autocommit=True) as connection:
        connection.execute(statement)  # type: ignore[arg-type]


def test_an_unreadable_game_is_left_alone_and_the_others_are_adopted(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store("old")) as old, opened(make_store("new")) as new:
            for game in ("g1", "g2", "g3"):
                await create(old, setup(game, seats=("random", "random")), [None, None], bots_turn=True)
            execute(old, "INSERT INTO moves (game, seq, move) VALUES ('g2', 1, 'draw')")  # a gap: no move 0
            execute(old, "UPDATE games SET lease = 0")  # the old node is gone
            adopted = await new.adopt(limit=10, lease_seconds=60, expire_seconds=DAY, mine=False)
            assert [stored.setup.game for stored in adopted] == ["g1", "g3"]
            assert all(stored.owner == "new" for stored in adopted)
            held = await old.acquire("g2", 0, lease_seconds=60, expire_seconds=DAY)
            assert held.status == "ours"  # the unreadable game's lease was not taken
            assert (await old.acquire("g1", 0, lease_seconds=60, expire_seconds=DAY)).status == "held"

    run(test)


@pytest.mark.parametrize("make_store", ["postgres"], indirect=True)  # one SQLite node sends no notes
def test_a_note_whose_handling_fails_does_not_stop_the_listening(make_store: MakeStore) -> None:
    async def test() -> None:
        async with opened(make_store("a")) as a, opened(make_store("b")) as b:
            assert b.shared
            heard: list[str | None] = []
            good = asyncio.Event()

            def receive(note: str | None) -> None:
                if note == "bad":
                    raise AssertionError("a note this node cannot handle")
                heard.append(note)
                if note == "good":
                    good.set()

            listening = asyncio.ensure_future(b.listen(receive))
            try:
                for _ in range(100):
                    if heard == [None]:  # listening
                        break
                    await asyncio.sleep(0.02)
                await a.notify("bad")
                await a.notify("good")
                await asyncio.wait_for(good.wait(), 30)  # a guard against a hang, not a timing
                assert heard == [None, "good"]
            finally:
                listening.cancel()
                await asyncio.gather(listening, return_exceptions=True)

    run(test)


def test_a_store_failure_tells_clients_no_more_than_that(tmp_path: Path) -> None:
    secret = "connection to server at db.internal.example (10.1.2.3), user game_admin failed"
    server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST)
    failing = Failing(server.store, sqlite3.OperationalError(secret))
    with TestClient(create_app(server, origins=["http://testserver"])) as client:
        game, _ = create_game(client, ["human", "human"])
        failing.left = 1_000  # every commit fails
        answers = [client.post("/api/games", json={"seats": ["human", "human"]}), client.get(f"/api/games/{game}")]
        failing.left = 0
        for answer in answers:
            assert answer.status_code == 503
            assert "unavailable" in answer.json()["error"]
            assert "db.internal.example" not in answer.text
            assert "game_admin" not in answer.text
