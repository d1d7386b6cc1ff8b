"""The game server's faults that must stay local: one bad game, note or store failure harms no more than itself.

The waits here (``asyncio.wait_for``) only keep a broken server from hanging the suite: a
working one answers at once, and no assertion is about how long anything took.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from optional import skip_module_unless_importable

skip_module_unless_importable("chickenfoot.server", "the game server")

from starlette.testclient import TestClient  # noqa: E402

import chickenfoot as cf  # noqa: E402
from _server import FAST  # noqa: E402
from chickenfoot.server import GameServer, SQLiteStore, Stored, create_app, own_origins  # noqa: E402

GUARD = 30.0  # seconds: a bound on a wait that a working server ends at once


def run(test: Callable[[], Any]) -> Any:
    return asyncio.run(test())


def test_a_game_whose_catch_up_fails_does_not_stop_the_lease_keeper(tmp_path: Path) -> None:
    async def test() -> None:
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST, lease_seconds=0.06)
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["human", "human"])
            table = await server.join(created.game)
            assert table is not None
            stored = await server.store.load(created.game)
            assert stored is not None
            bad = attrs.evolve(stored, moves=("no such move",))  # its moves do not follow the table's
            looks, renewals, three = 0, 0, asyncio.Event()

            async def adopt(**options: Any) -> list[Stored]:
                nonlocal looks
                looks += 1
                return [bad]

            async def renew(games: Any, **options: Any) -> set[str]:
                nonlocal renewals
                renewals += 1
                if renewals >= 3:
                    three.set()
                return set(games)

            server.store.adopt = adopt  # type: ignore[method-assign]
            server.store.renew = renew  # type: ignore[method-assign]
            await asyncio.wait_for(three.wait(), GUARD)  # renewals go on after the bad game's catch-up failed
            assert looks >= 3
            assert all(not watcher.done() for watcher in server._watchers)
        finally:
            await server.close()

    run(test)


def test_a_malformed_note_is_dropped_and_the_next_one_is_heard(tmp_path: Path) -> None:
    async def test() -> None:
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST)
        await server.start()
        try:
            created = await server.create(cf.Rules.trains(), ["human", "human"])
            table = await server.join(created.game)
            assert table is not None
            table.owned = False  # followed: another node holds it
            move = str(cf.legal_moves(table.game)[0])
            server._heard(json.dumps(["moved", created.game, "0", move, "other", None]))  # seq is not a number
            server._heard(json.dumps(["seated", created.game, 0.5, "token", "other"]))
            server._heard(json.dumps(["answer", server.node, "x/1", "shrug", 0, "", None, 409]))
            assert table.seq == 0
            server._heard(json.dumps(["moved", created.game, 0, move, "other", None]))
            assert table.seq == 1
        finally:
            await server.close()

    run(test)


@attrs.define
class Told:
    """A mover that keeps what it is told."""

    told: list[str] = attrs.Factory(list)

    def ack(self, seq: int, move: str) -> None:
        self.told.append("ack")

    def refuse(self, seq: int, move: str, refusal: Any) -> None:
        self.told.append("refused")

    def stale(self, seq: int, move: str) -> None:
        self.told.append("stale")


def test_a_forwarded_move_sent_twice_is_answered_once(tmp_path: Path) -> None:
    from chickenfoot.server._nodes import _Pending
    from chickenfoot.server._notes import Answer, Moved

    async def test() -> None:
        server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST)
        await server.start()
        try:
            for first in ("moved", "stale"):
                mover = Told()
                request = f"{server.node}/{first}"
                server._pending[request] = _Pending(mover, 0, "draw")  # type: ignore[arg-type]
                moved = Moved("g1", 0, "draw", "owner", request).text()
                stale = Answer(server.node, request, "stale", 1).text()
                # The owner played the first copy (its Moved note) and found the second stale, in either order.
                for note in (moved, stale) if first == "moved" else (stale, moved):
                    server._heard(note)
                server._heard(Answer(server.node, request, "refused", 0, "again").text())  # and once more
                assert mover.told == (["ack"] if first == "moved" else ["stale"])
                del server._pending[request]
        finally:
            await server.close()

    run(test)


def test_an_origin_on_its_default_port_is_the_one_browsers_send(tmp_path: Path) -> None:
    assert own_origins("play.example.org", 80) == ["http://play.example.org"]
    assert own_origins("127.0.0.1", 80) == ["http://127.0.0.1", "http://localhost"]
    server = GameServer(SQLiteStore(tmp_path / "games.sqlite3"), limits=FAST)
    configured = [*own_origins("play.example.org", 80), "HTTPS://Secure.Example.org:443/"]
    with TestClient(create_app(server, origins=configured)) as client:
        for origin, status in [
            ("http://play.example.org", 201),
            ("http://PLAY.example.org:80", 201),
            ("https://secure.example.org", 201),
            ("http://play.example.org:8080", 403),
            ("https://play.example.org", 403),
        ]:
            answer = client.post("/api/games", json={"seats": ["human", "random"]}, headers={"origin": origin})
            assert answer.status_code == status, (origin, answer.text)


@pytest.mark.parametrize("protocol", ["h11", "httptools"])
def test_a_whole_request_whose_answer_is_slow_is_answered_not_dropped(protocol: str) -> None:
    import uvicorn

    from chickenfoot.server import Limits
    from chickenfoot.server._guard import guarded

    pytest.importorskip(protocol)
    if protocol == "h11":
        from uvicorn.protocols.http.h11_impl import H11Protocol as inner
    else:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as inner  # type: ignore[assignment]
    deadline = 0.2  # the request's: the answer takes three times as long

    async def slow(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        await asyncio.sleep(3 * deadline)  # a store slow to commit
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"answered " + body})

    async def test() -> None:
        guard = type("Guarded", (guarded(Limits(request_seconds=deadline)),), {"make_inner": inner})
        config = uvicorn.Config(slow, host="127.0.0.1", port=0, http=guard, lifespan="off", log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.ensure_future(server.serve())
        try:
            while not server.started:
                await asyncio.sleep(0.01)
            port = server.servers[0].sockets[0].getsockname()[1]
            for request in (
                b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody",
            ):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(request)
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), GUARD)
                assert head.startswith(b"HTTP/1.1 200"), head
                answer = await asyncio.wait_for(
                    reader.readuntil(b"answered " + request.partition(b"\r\n\r\n")[2]), GUARD
                )
                assert answer
                writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbo")  # its body never ends
            assert await asyncio.wait_for(reader.read(), GUARD) == b""  # dropped, unanswered
            writer.close()
        finally:
            server.should_exit = True
            await asyncio.wait_for(serving, GUARD)

    run(test)
