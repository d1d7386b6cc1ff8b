"""The game server bounded under abuse: memory, slow and silent clients, connections, rates, caps and errors.

Each test drives the server from outside as an attacker would: through the Starlette test
client, or a real uvicorn process (``_server_node``) and raw sockets for what only a real
network shows (a client that never reads, a request sent a byte at a time, too many connections).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import http.client
import json
import logging
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")

from starlette.testclient import TestClient  # noqa: E402

import chickenfoot as cf  # noqa: E402
from _server import (  # noqa: E402
    FAST,
    claim,
    client_for,
    closed_by_peer,
    closing,
    create,
    hello,
    raw_websocket,
    receive,
    send_text,
)
from _server_node import Node  # noqa: E402
from chickenfoot.server import GameServer, SQLiteStore, create_app  # noqa: E402

DEADLINE = 1.0  # the short deadlines the real-process tests set


@pytest.fixture
def node(tmp_path: Path) -> Iterator[Node]:
    """A server process with short deadlines and bots that move at once."""
    limits = {
        "request_seconds": DEADLINE,
        "send_seconds": DEADLINE,
        "ping_seconds": DEADLINE,
        "connections_per_prefix": 8,
    }
    running = Node(str(tmp_path / "games.sqlite3"), tmp_path / "node.log", limits=limits).start()
    yield running
    running.kill()


def wait_for(condition: Any, seconds: float = 20.0) -> None:
    """Waits until ``condition()`` holds (failing after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.02)


# -- memory ------------------------------------------------------------------------------------


def test_finished_and_idle_games_leave_memory_and_are_read_back_when_asked_for(tmp_path: Path) -> None:
    server = GameServer(SQLiteStore(tmp_path / "games.sqlite3", synchronous="NORMAL"), limits=FAST)
    with TestClient(create_app(server)) as client:
        bots = [create(client, ["random", "greedy"])[0] for _ in range(3)]
        wait_for(lambda: not server.tables)  # three bot games played to the end, nobody watching: all gone
        for game in bots:
            assert client.get(f"/api/games/{game}").json()["is_over"]
            assert client.get(f"/api/games/{game}/record").status_code == 200
        assert not server.tables  # read from the store to answer, not kept
        people, invites = create(client, ["human", "human"])
        assert not server.tables  # nobody connected, no bot to move: in the store only
        token = claim(client, people, 0, invites[0])
        with client.websocket_connect(f"/api/games/{people}/ws") as ws:
            assert hello(ws, 0, token)["seq"] == 0
            assert people in server.tables
            with client.websocket_connect(f"/api/games/{bots[0]}/ws") as watcher:  # a finished game, watched
                assert hello(watcher, None)["view"]["is_over"]
                assert bots[0] in server.tables
        wait_for(lambda: not server.tables)  # the last connections gone, so are the games
        assert client.get(f"/api/games/{people}").json()["seats"][0]["claimed"]


def test_finished_bot_games_leave_no_objects_behind(tmp_path: Path) -> None:
    import gc

    from chickenfoot._core._codes import ALL_TILES
    from chickenfoot._game._moves import MOVES

    server = GameServer(SQLiteStore(tmp_path / "games.sqlite3", synchronous="NORMAL"), limits=FAST)

    def play(games: int) -> int:
        for _ in range(games):
            create(client, ["random", "random"])
            wait_for(lambda: not server.tables)  # played to the end, nobody watching: gone from memory
        gc.collect()  # the count is of the package's objects: the test client's and the loop's vary between runs
        modules = (type(kept).__dict__.get("__module__") for kept in gc.get_objects())
        return sum(isinstance(module, str) and module.startswith("chickenfoot") for module in modules)

    # Every move object a board can need, made once and shared by every game (the engine makes them as boards grow).
    MOVES.onto_nodes(ALL_TILES + 2, ALL_TILES)
    with TestClient(create_app(server)) as client:
        before = play(5)  # what the first games make once (imports, caches) is not a game's
        after = play(60)
    assert after - before < 10, f"{after - before} objects kept by 60 finished games"


# -- clients that do not read, requests that do not arrive -------------------------------------


def test_a_client_that_never_reads_is_dropped_after_the_send_deadline(node: Node) -> None:
    game = node.request("/api/games", {"rules": "trains", "seats": ["random"] * 4})["game"]
    sock = raw_websocket(node.port, f"/api/games/{game}/ws", receive_buffer=4096)
    try:
        send_text(sock, '{"type": "hello", "seat": null}')
        time.sleep(3 * DEADLINE)  # frames pile up: the client takes none
        assert closed_by_peer(sock, 10 * DEADLINE, most=16 * 1024 * 1024)
    finally:
        sock.close()
    assert node.request(f"/api/games/{game}")["game"] == game  # the server goes on


def test_a_connection_that_sends_no_request_or_one_a_byte_at_a_time_is_closed(node: Node) -> None:
    silent = socket.create_connection(("127.0.0.1", node.port), timeout=30)
    slow = socket.create_connection(("127.0.0.1", node.port), timeout=30)
    try:
        slow.sendall(b"GET /api/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        closed = False
        while not closed and time.monotonic() - started < 10 * DEADLINE:  # a header line every 0.2 s, never the end
            try:
                slow.sendall(b"X-Slow: yes\r\n")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
            time.sleep(0.2)
        assert closed or closed_by_peer(slow, DEADLINE)
        assert closed_by_peer(silent, 5 * DEADLINE)
    finally:
        silent.close()
        slow.close()
    assert "greedy" in node.request("/api/options")["bots"]  # and a request sent whole is answered


def test_an_address_prefix_holds_a_bounded_number_of_connections(node: Node) -> None:
    held = [socket.create_connection(("127.0.0.1", node.port), timeout=30) for _ in range(8)]
    try:
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", node.port), 30, ("127.0.0.2", 0))  # the same /24: refused
        assert closed_by_peer(extra, 0.5 * DEADLINE)
        extra.close()
        other = http.client.HTTPConnection("127.0.0.1", node.port, timeout=30, source_address=("127.0.1.1", 0))
        other.request("GET", "/api/options")  # another /24 gets in
        assert other.getresponse().status == 200
        other.close()
    finally:
        for sock in held:
            sock.close()


# -- seats, spectators, rates ------------------------------------------------------------------


def test_rates_count_by_address_prefix_not_by_address(tmp_path: Path) -> None:
    limits = {"requests_per_second": 0.001, "request_burst": 3}
    running = Node(str(tmp_path / "games.sqlite3"), tmp_path / "node.log", limits=limits).start()
    body = json.dumps({"seats": ["human", "human"]})
    try:
        statuses = []
        for source in ("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.1.1"):
            connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=30, source_address=(source, 0))
            connection.request("POST", "/api/games", body, {"content-type": "application/json"})
            answer = connection.getresponse()
            statuses.append(answer.status)
            if answer.status == 429:
                assert "one network" in json.loads(answer.read())["error"]
            connection.close()
    finally:
        running.kill()
    assert statuses == [201, 201, 201, 429, 201]  # the neighbours share one count; another /24 has its own


def test_spectators_joining_one_game_are_rate_limited(tmp_path: Path) -> None:
    limits = attrs.evolve(FAST, spectators_per_game=3, spectators_per_second=0.001)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        game, _ = create(client, ["human", "human"])
        for _ in range(3):  # the burst: each joins and leaves
            with client.websocket_connect(f"/api/games/{game}/ws") as ws:
                hello(ws, None)
        with client.websocket_connect(f"/api/games/{game}/ws") as ws:
            ws.send_text('{"type": "hello", "seat": null}')
            closed = closing(ws)
    assert closed.code == 1013
    assert "too many spectators are joining" in closed.reason


def test_the_game_cap_counts_games_in_play_and_expired_ones_free_their_place(tmp_path: Path) -> None:
    limits = attrs.evolve(FAST, games=2, expire_seconds=0.5)
    with client_for(tmp_path / "games.sqlite3", limits=limits) as client:
        game, invites = create(client, ["human", "human"])
        create(client, ["human", "human"])
        full = client.post("/api/games", json={"seats": ["human", "human"]})
        assert full.status_code == 503
        assert "2 games in play" in full.json()["error"]
        tokens = [claim(client, game, seat, invites[seat]) for seat in (0, 1)]
        time.sleep(0.6)  # no move for longer than the expiry: both games expire
        assert client.get(f"/api/games/{game}").json()["expired"]
        create(client, ["human", "human"])  # their places are free again
        for seat in (0, 1):  # the seat to move, which the deal chose
            with client.websocket_connect(f"/api/games/{game}/ws") as ws:
                sync = hello(ws, seat, tokens[seat])
                assert sync["table"]["expired"]
                if not sync["view"]["legal_moves"]:
                    continue
                ws.send_text(json.dumps({"type": "move", "seq": 0, "move": sync["view"]["legal_moves"][0]}))
                refused = receive(ws)
                break
        assert refused["type"] == "refused"
        assert "expired" in refused["reason"]


# -- errors ------------------------------------------------------------------------------------


def test_every_http_failure_is_answered_as_json(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "games.sqlite3"
    server = GameServer(SQLiteStore(path, busy_seconds=0.05), limits=FAST)
    deep = b'{"seats": ' + b"[" * 3000 + b"]" * 3000 + b"}"
    with TestClient(create_app(server), raise_server_exceptions=False) as client:
        game, invites = create(client, ["human", "human"])
        json_headers = {"content-type": "application/json"}
        for url in ("/api/games", f"/api/games/{game}/seats/0"):
            answer = client.post(url, content=deep, headers=json_headers)
            assert answer.status_code == 400
            assert "nested too deep" in answer.json()["error"]
        assert client.get("/api/nothing").json()["error"] == "Not Found"
        assert client.put("/api/games").status_code == 405
        assert client.put("/api/games").json()["error"]
        locker = sqlite3.connect(path, isolation_level=None)
        locker.execute("BEGIN EXCLUSIVE")  # another process holds the database
        try:
            with caplog.at_level(logging.ERROR):
                for url in (f"/api/games/{game}", f"/api/games/{game}/record"):
                    answer = client.get(url)
                    assert answer.status_code == 503
                    assert "unavailable" in answer.json()["error"]
                    assert "locked" not in answer.json()["error"]  # the database's words stay in the log
                answer = client.post(f"/api/games/{game}/seats/0", json={"invite": invites[0]})
                assert answer.status_code == 503
        finally:
            locker.execute("ROLLBACK")
            locker.close()
        assert client.post(f"/api/games/{game}/seats/0", json={"invite": invites[0]}).status_code == 200
    assert "Traceback" not in caplog.text
    assert "never retrieved" not in caplog.text


def test_a_session_whose_client_takes_nothing_is_dropped_and_its_frames_freed(tmp_path: Path) -> None:
    async def test() -> None:
        limits = attrs.evolve(FAST, send_seconds=0.2, backlog=100_000)
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=limits)
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["random", "random"])
            never = asyncio.Event()
            closes: list[tuple[int, str]] = []

            async def send(frame: str) -> None:
                await never.wait()  # a client that takes nothing

            async def close(code: int, reason: str) -> None:
                closes.append((code, reason))

            session = server.session(created.game, send, close)
            await session.receive('{"type": "hello", "seat": null}')
            table = server.tables[created.game]
            began = time.monotonic()
            while not session.is_closed:
                assert time.monotonic() - began < 5
                await asyncio.sleep(0.02)
            assert session not in table.sessions
            assert session._outbox.qsize() <= 1  # its frames are dropped (the close may wait to go)
            assert closes == [] or closes[0][0] == 1008
            await session.closed()
            assert session._outbox.qsize() == 0
        finally:
            await server.close()

    asyncio.run(test())


# -- bots off the players' path -----------------------------------------------------------------


def test_thinking_bots_choose_in_worker_processes_at_a_lower_priority(tmp_path: Path) -> None:
    import os

    async def test() -> None:
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST, bot_workers=1)
        await server.start()
        try:
            quick = await server.create(cf.Rules.trains(), ["random", "greedy"])
            await server.create(cf.Rules.trains(), ["search:20", "search:20"])
            seen = 0
            for _ in range(600):  # the search bots' game moves on; the quick one needs no worker
                seen = sum(1 for table in server.tables.values() if table.seq > 0 and table.id != quick.game)
                if seen:
                    break
                await asyncio.sleep(0.05)
            assert seen, "the search bots never moved"
            pool = server.bots._pool
            assert isinstance(pool, concurrent.futures.ProcessPoolExecutor)  # processes, not threads
            workers = [process.pid for process in (pool._processes or {}).values()]
            assert workers
            assert os.getpid() not in workers
            own = os.getpriority(os.PRIO_PROCESS, 0)
            assert all(os.getpriority(os.PRIO_PROCESS, pid) >= min(own + 10, 19) for pid in workers)
        finally:
            await server.close()

    asyncio.run(test())


def test_quick_bots_start_no_worker(tmp_path: Path) -> None:
    async def test() -> None:
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST, bot_workers=1)
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["random", "heaviest", "greedy"])
            for _ in range(600):
                table = server.tables.get(created.game)
                if table is None or table.seq > 5:
                    break
                await asyncio.sleep(0.02)
            assert server.bots._pool is None  # chosen in the event loop, in well under a millisecond
        finally:
            await server.close()

    asyncio.run(test())
