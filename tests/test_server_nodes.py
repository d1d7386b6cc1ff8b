"""Several server nodes on one PostgreSQL database: any node serves any game, and a killed node's games go on.

Needs ``CHICKENFOOT_TEST_POSTGRES`` (a DSN; ``scripts/postgres.sh`` starts a throwaway cluster,
and CI does). The nodes are real processes (``_server_node``) with a lease of one second, and
the clients speak the protocol over WebSocket, moving to another node when theirs goes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")
skip_module_unless_importable("psycopg", "the PostgreSQL store")

import chickenfoot as cf  # noqa: E402
from _server_node import POSTGRES, Node, postgres_database  # noqa: E402

if not POSTGRES:
    pytest.skip(
        "set CHICKENFOOT_TEST_POSTGRES to a PostgreSQL DSN (scripts/postgres.sh starts one) to test several nodes",
        allow_module_level=True,
    )

LEASE = 1.0  # seconds: a killed node's games wait about this long for another
GAMES = 4
KILL_AT, GOAL = 10, 40  # the moves every game has made when a node is killed, and the moves they play to
PAUSE = 0.03  # seconds a player thinks: the games move on through the kill, not all before it
SECONDS = 60.0  # the most the play may take (it takes a few seconds)
SHORT = json.loads(cf.to_json(attrs.evolve(cf.Rules.trains(), max_pip=6)))  # a double-6 set: short rounds


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_database() as dsn:
        yield dsn


@pytest.fixture
def nodes(database: str, tmp_path: Path) -> Iterator[list[Node]]:
    """Three nodes on one database, started together."""
    started = [Node(database, tmp_path / f"{name}.log", lease=LEASE, owner=name) for name in "abc"]
    try:
        yield [node.start() for node in started]
    finally:
        for node in started:
            node.kill()


@attrs.define
class Seen:
    """What the clients saw: each ack, and each spectator's frames, by node."""

    acked: list[tuple[str, int, str]] = attrs.field(factory=list)
    watched: dict[tuple[str, str], list[dict[str, Any]]] = attrs.field(factory=dict)


async def follow(nodes: list[Node], alive: list[bool], first: int, hello: dict[str, Any], act: Any) -> None:
    """Connects to node ``first`` (the next living one when it goes), says ``hello``, and hands ``act`` each frame.

    ``act(ws, frame, node)`` answers a frame and returns True to stop.
    """
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    at = first
    while True:
        node = nodes[at]
        try:
            url = f"ws://127.0.0.1:{node.port}/api/games/{hello['game']}/ws"
            async with connect(url, open_timeout=10, ping_interval=None, compression=None) as ws:
                await ws.send(json.dumps({"type": "hello", "seat": hello["seat"], "token": hello["token"]}))
                async for text in ws:
                    if await act(ws, json.loads(text), at):
                        return
        except (ConnectionClosed, OSError):
            pass
        await asyncio.sleep(0.1)
        at = next(index for index in [*range(at + 1, len(nodes)), *range(at + 1)] if alive[index])


async def play_seat(nodes: list[Node], alive: list[bool], first: int, seat: dict[str, Any], seen: Seen) -> None:
    """Plays a seat's random legal moves until its game has ``GOAL`` moves (or is over)."""
    rng, sent = random.Random(seat["token"]), [-1]

    async def act(ws: Any, frame: dict[str, Any], at: int) -> bool:
        if frame["type"] == "ack":
            seen.acked.append((seat["game"], frame["seq"], frame["move"]))
        if frame["type"] not in ("sync", "state"):
            return False
        if frame["type"] == "sync":  # a new connection: a move sent on the old one may be lost with its node
            sent[0] = -1
        view = frame["view"]
        if view["is_over"] or frame["seq"] >= GOAL:
            return True
        if view["current_player"] == seat["seat"] and frame["seq"] != sent[0]:
            sent[0] = frame["seq"]
            await asyncio.sleep(PAUSE)
            await ws.send(json.dumps({"type": "move", "seq": frame["seq"], "move": rng.choice(view["legal_moves"])}))
        return False

    await follow(nodes, alive, first, seat, act)


async def watch(nodes: list[Node], alive: list[bool], first: int, game: str, seen: Seen) -> None:
    """Watches a game from a node, keeping every frame under that node's name, until the game has ``GOAL`` moves."""

    async def act(ws: Any, frame: dict[str, Any], at: int) -> bool:
        seen.watched.setdefault((game, "abc"[first]), []).append({**frame, "node": at})
        return frame["type"] in ("sync", "state") and (frame["view"]["is_over"] or frame["seq"] >= GOAL)

    await follow(nodes, alive, first, {"game": game, "seat": None, "token": None}, act)


def stored_moves(dsn: str) -> tuple[dict[str, list[str]], dict[str, tuple[str, bool]]]:
    """Reads every game's stored moves, and each game's owner and whether it is over, straight from the database."""
    import psycopg

    moves: dict[str, list[str]] = {}
    with psycopg.connect(dsn) as connection:
        for game, _, move in connection.execute("SELECT game, seq, move FROM moves ORDER BY game, seq"):
            moves.setdefault(game, []).append(move)
        rows = connection.execute("SELECT id, owner, finished FROM games").fetchall()
    return moves, {game: (owner, bool(finished)) for game, owner, finished in rows}


async def game_day(nodes: list[Node], dsn: str) -> tuple[Seen, int, float]:
    """Creates games on node a, plays them through nodes b and c with a spectator on each node, kills a node midway.

    Gets what was seen, the node killed, and how long after the kill the last game moved again.
    """
    alive, seen = [True, True, True], Seen()
    games = []
    for number in range(GAMES):  # two people (on b and c) and, in every other game, a bot the nodes play
        seats = ["human", "human", *(["random"] if number % 2 else [])]
        created = nodes[0].request("/api/games", {"rules": SHORT, "seats": seats})
        tokens = [
            nodes[0].request(f"/api/games/{created['game']}/seats/{n}", {"invite": s["link"].partition("#")[2]})
            for n, s in enumerate(created["seats"][:2])
        ]
        games.append([{"game": created["game"], "seat": n, "token": tokens[n]["token"]} for n in (0, 1)])
    tasks = [asyncio.ensure_future(watch(nodes, alive, n, row[0]["game"], seen)) for row in games for n in range(3)]
    await asyncio.sleep(0.5)  # the spectators in
    tasks += [asyncio.ensure_future(play_seat(nodes, alive, 1 + n, row[n], seen)) for row in games for n in (0, 1)]

    def under_way() -> bool:
        moves = stored_moves(dsn)[0]
        return len(moves) == GAMES and all(len(played) >= KILL_AT for played in moves.values())

    await wait_until(under_way)
    owners = stored_moves(dsn)[1]
    victim = max(range(3), key=lambda n: sum(owner == "abc"[n] for owner, _ in owners.values()))
    alive[victim] = False
    nodes[victim].kill()
    killed_at, counts = time.monotonic(), {game: len(moves) for game, moves in stored_moves(dsn)[0].items()}
    moved_again: dict[str, float] = {}

    def all_moved() -> bool:
        for game, moves in stored_moves(dsn)[0].items():
            if (len(moves) > counts[game] or len(moves) >= GOAL) and game not in moved_again:
                moved_again[game] = time.monotonic() - killed_at
        return len(moved_again) == GAMES

    await wait_until(all_moved)
    await asyncio.wait_for(asyncio.gather(*tasks), SECONDS)
    return seen, victim, max(moved_again.values())


async def wait_until(condition: Any) -> None:
    deadline = time.monotonic() + SECONDS
    while not await asyncio.to_thread(condition):
        assert time.monotonic() < deadline, "the games stopped moving"
        await asyncio.sleep(0.05)


def test_three_nodes_serve_every_game_and_a_killed_one_hands_its_games_over(nodes: list[Node], database: str) -> None:
    seen, victim, took = asyncio.run(game_day(nodes, database))
    stored, games = stored_moves(database)
    assert len(stored) == GAMES
    for game, seq, move in seen.acked:  # no acknowledged move is lost, and each is where its ack said
        assert len(stored[game]) >= seq
        assert stored[game][seq - 1] == move
    assert {game for game, _, _ in seen.acked} == set(stored)
    assert all(len(moves) >= GOAL or games[game][1] for game, moves in stored.items())
    assert took < 10 * LEASE  # the games went on at another node within a few leases
    for (game, name), frames in seen.watched.items():
        moves = stored[game]
        first = frames[0]
        assert first["type"] == "sync"
        shown = [entry[2] for entry in first["log"]]
        for frame in frames[1:]:
            if frame["type"] == "sync":  # reconnected to another node: everything again
                assert [entry[2] for entry in frame["log"]] == moves[: frame["seq"]]
                shown = [entry[2] for entry in frame["log"]]
            elif frame["type"] == "state":
                assert frame["seq"] == len(shown) + 1, f"the spectator on node {name} missed a move of {game}"
                shown.append(frame["last"][2])
        assert shown == moves[: len(shown)]  # every move, in order, as stored
        if name != "abc"[victim]:  # a spectator whose node lived saw every move as it came, from that node
            assert all(frame["node"] == "abc".index(name) for frame in frames)
            assert len(shown) >= GOAL or frames[-1]["view"]["is_over"]


def test_a_move_made_on_another_node_is_answered_there_as_on_its_own(database: str) -> None:
    from _server import FAST, Recorder, settle
    from chickenfoot.server import GameServer, PostgresStore

    async def frames_of(transport: Recorder, kind: str) -> dict[str, Any]:
        for _ in range(500):
            found = [json.loads(frame) for frame in transport.frames if json.loads(frame)["type"] == kind]
            if found:
                transport.frames.clear()
                return found[-1]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no {kind} frame came")

    async def test() -> None:
        a = GameServer(PostgresStore(database, owner="a"), limits=FAST, lease_seconds=5)
        b = GameServer(PostgresStore(database, owner="b"), limits=FAST, lease_seconds=5)
        await a.start()
        await b.start()
        try:
            rules = cf.Rules.trains()
            seed = next(seed for seed in range(100) if cf.new_game(rules, 2, seed).current_player == 0)
            created = await a.create(rules, ["human", "human"], seed=seed)
            token0 = await a.claim(created.game, 0, created.invites[0] or "")
            here, there = Recorder(), Recorder()
            first = here.connect(a, created.game)
            await first.receive(json.dumps({"type": "hello", "seat": 0, "token": token0}))
            watcher = there.connect(b, created.game)
            await watcher.receive('{"type": "hello", "seat": null}')
            await settle([first, watcher])
            token1 = await a.claim(created.game, 1, created.invites[1] or "")  # claimed on a: b hears of it
            assert (await frames_of(there, "seats"))["seats"][1]["claimed"]
            mover = b.session(created.game, there.send, there.close)
            await mover.receive(json.dumps({"type": "hello", "seat": 1, "token": token1}))
            table = a.tables[created.game]  # seat 0 moves first, on a: a takes the game's lease
            await first.receive(json.dumps({"type": "move", "seq": 0, "move": str(cf.legal_moves(table.game)[0])}))
            await frames_of(here, "ack")
            assert table.owned
            await wait_for_seq(b, created.game, 1)  # b follows from a's note
            await mover.receive(json.dumps({"type": "move", "seq": 1, "move": "0-0@99"}))  # forwarded to a, refused
            refused = await frames_of(there, "refused")
            assert refused["rule"]
            assert refused["reason"]
            await mover.receive(json.dumps({"type": "move", "seq": 0, "move": "draw"}))  # stale
            assert (await frames_of(there, "stale"))["seq"] == 1
            legal = str(cf.legal_moves(table.game)[0])
            await mover.receive(json.dumps({"type": "move", "seq": 1, "move": legal}))  # forwarded, played on a
            assert (await frames_of(there, "ack")) == {"type": "ack", "seq": 2, "move": legal}
            await wait_for_seq(a, created.game, 2)  # the note may reach b before a's own writer answers a
            assert not b.tables[created.game].owned
            for transport in (here, there):
                assert (await frames_of(transport, "state"))["last"][2] == legal
            for session in (first, watcher, mover):
                await session.closed()
        finally:
            await a.close()
            await b.close()

    asyncio.run(test())


async def wait_for_seq(server: Any, game: str, seq: int) -> None:
    for _ in range(500):
        if server.tables[game].seq >= seq:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"game {game} never reached {seq} moves on {server.store.owner}")


@contextlib.asynccontextmanager
async def _two_nodes_one_game(database: str) -> AsyncIterator[tuple[Any, Any, str, list[str]]]:
    """Nodes a and b on one database, and a two-person game on a whose seat 0 moves first (both seats claimed).

    Gives ``(a, b, game, tokens)``; closes both nodes after.
    """
    from _server import FAST
    from chickenfoot.server import GameServer, PostgresStore

    a = GameServer(PostgresStore(database, owner="a"), limits=FAST, lease_seconds=5)
    b = GameServer(PostgresStore(database, owner="b"), limits=FAST, lease_seconds=5)
    rules = cf.Rules.trains()
    seed = next(seed for seed in range(100) if cf.new_game(rules, 2, seed).current_player == 0)
    await a.start()
    try:
        await b.start()
        try:
            await _listening(database, 2)  # a note sent from now on reaches both
            created = await a.create(rules, ["human", "human"], seed=seed)
            tokens = [await a.claim(created.game, seat, created.invites[seat] or "") for seat in (0, 1)]
            yield a, b, created.game, tokens
        finally:
            await b.close()
    finally:
        await a.close()


async def _listening(database: str, nodes: int) -> None:
    """Waits until ``nodes`` connections to ``database`` listen for notes (their last statement a LISTEN)."""
    import psycopg

    for _ in range(500):
        async with await psycopg.AsyncConnection.connect(database, autocommit=True) as connection:
            cursor = await connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'"
            )
            row = await cursor.fetchone()
        if row is not None and row[0] >= nodes:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{nodes} nodes never listened")


async def _first_move(server: Any, game: str, token: str) -> Any:
    """Seat 0 says hello on ``server`` and plays the game's first move; gets its session once the move is acked."""
    from _server import Recorder

    here = Recorder()
    seat0 = here.connect(server, game)
    await seat0.receive(json.dumps({"type": "hello", "seat": 0, "token": token}))
    move = str(cf.legal_moves(server.tables[game].game)[0])
    await seat0.receive(json.dumps({"type": "move", "seq": 0, "move": move}))
    await _frame_with_seq(here.frames, "ack", 1)
    return seat0


async def _frame_with_seq(frames: list[str], kind: str, seq: int) -> dict[str, Any]:
    for _ in range(300):
        for text in frames:
            frame = json.loads(text)
            if frame["type"] == kind and frame["seq"] == seq:
                return frame  # type: ignore[no-any-return]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no {kind} frame with seq {seq} came: {[json.loads(text)['type'] for text in frames]}")


def test_a_move_stored_elsewhere_while_a_node_reads_the_game_reaches_its_connections(database: str) -> None:
    """The read may predate the move while its note comes before the read is done: the node reads again."""
    from _server import Recorder

    async def test() -> None:
        async with _two_nodes_one_game(database) as (a, b, game, tokens):
            read, moved = asyncio.Event(), asyncio.Event()
            load = b.store.load

            async def load_before_the_move(wanted: str) -> Any:
                stored = await load(wanted)
                if not read.is_set():
                    read.set()
                    await moved.wait()  # the move is stored before this read is done,
                    await asyncio.sleep(0.3)  # and its note heard (one heard later takes the ordinary path)
                return stored

            b.store.load = load_before_the_move
            there = Recorder()
            seat1 = there.connect(b, game)
            hello = asyncio.ensure_future(seat1.receive(json.dumps({"type": "hello", "seat": 1, "token": tokens[1]})))
            await read.wait()
            seat0 = await _first_move(a, game, tokens[0])
            moved.set()
            await hello
            assert (await _frame_with_seq(there.frames, "sync", 0))["view"]["current_player"] == 0
            assert (await _frame_with_seq(there.frames, "state", 1))["view"]["current_player"] == 1
            for session in (seat0, seat1):
                await session.closed()

    asyncio.run(test())


def test_a_game_let_go_while_a_connection_waited_for_its_read_is_read_again_for_it(database: str) -> None:
    """A connection must join the table the node keeps, or it hears no more moves."""
    from _server import Recorder

    async def test() -> None:
        async with _two_nodes_one_game(database) as (a, b, game, tokens):
            load = b.store.load
            dropped: list[bool] = []

            async def load_then_let_go(wanted: str) -> Any:
                stored = await load(wanted)
                if not dropped:  # as a note's handling may, between the read and the connection's turn
                    asyncio.get_running_loop().call_soon(lambda: dropped.append(True) or b.leave(b.tables[wanted]))
                return stored

            b.store.load = load_then_let_go
            there = Recorder()
            seat1 = there.connect(b, game)
            await seat1.receive(json.dumps({"type": "hello", "seat": 1, "token": tokens[1]}))
            assert dropped
            seat0 = await _first_move(a, game, tokens[0])
            assert (await _frame_with_seq(there.frames, "state", 1))["view"]["current_player"] == 1
            for session in (seat0, seat1):
                await session.closed()

    asyncio.run(test())
