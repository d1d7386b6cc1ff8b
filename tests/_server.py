"""Shared set-up for the game server's tests: a server on a fresh store, and a client that speaks its protocol."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from optional import skip_module_unless_importable

# pytest's --doctest-modules imports this module too, so it skips itself without the extra.
skip_module_unless_importable("chickenfoot.server", "the game server")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from chickenfoot.server import GameServer, Limits, Session, SQLiteStore, create_app  # noqa: E402

# Tests send moves as fast as they can: the rate limit has its own test.
FAST = Limits(messages_per_second=10_000, message_burst=10_000, requests_per_second=10_000, request_burst=10_000)


def client_for(path: Path, *, limits: Limits = FAST, **options: Any) -> TestClient:
    """Builds a test client of a server keeping its games in the SQLite file ``path`` (enter it to start the server)."""
    server = GameServer(SQLiteStore(path, synchronous="NORMAL"), limits=limits, **options)
    return TestClient(create_app(server, origins=["https://play.example.org", "http://testserver"]))


def create(client: TestClient, seats: list[str], rules: object = "trains") -> tuple[str, list[str | None]]:
    """Creates a game; gets its id and each seat's invitation (``None`` for a bot's)."""
    answer = client.post("/api/games", json={"rules": rules, "seats": seats})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    invites = [None if seat["link"] is None else seat["link"].partition("#")[2] for seat in body["seats"]]
    return body["game"], invites


def claim(client: TestClient, game: str, seat: int, invite: str | None) -> str:
    """Claims a seat; gets its token."""
    answer = client.post(f"/api/games/{game}/seats/{seat}", json={"invite": invite})
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def receive(ws: Any) -> dict[str, Any]:
    """Reads one frame as JSON."""
    frame: dict[str, Any] = json.loads(ws.receive_text())
    return frame


def hello(ws: Any, seat: int | None, token: str | None = None) -> dict[str, Any]:
    """Says hello for ``seat`` (``None``: to watch) and gets the sync frame."""
    ws.send_text(json.dumps({"type": "hello", "seat": seat, "token": token}))
    frame = receive(ws)
    assert frame["type"] == "sync", frame
    return frame


def closing(ws: Any) -> WebSocketDisconnect:
    """Reads frames until the server closes the connection; gets how it closed it."""
    try:
        while True:
            receive(ws)
    except WebSocketDisconnect as closed:
        return closed


def move(ws: Any, seq: int, text: str) -> None:
    """Sends a move made at ``seq``."""
    ws.send_text(json.dumps({"type": "move", "seq": seq, "move": text}))


def play_first_moves(
    ws: Any, seat: int, frame: dict[str, Any], *, until: int | None = None
) -> Iterator[dict[str, Any]]:
    """Plays ``seat``'s first legal move at each of its turns, yielding every frame, to the end (or seq ``until``)."""
    sent = -1
    while True:
        if frame["type"] in ("sync", "state"):
            view = frame["view"]
            if view["is_over"] or (until is not None and frame["seq"] >= until):
                return
            if view["current_player"] == seat and frame["seq"] != sent:
                sent = frame["seq"]
                move(ws, frame["seq"], view["legal_moves"][0])
        frame = receive(ws)
        yield frame


class Recorder:
    """A transport for a :class:`Session` with no network: it keeps every frame sent and the close."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send(self, frame: str) -> None:
        self.frames.append(frame)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def connect(self, server: GameServer, game: str) -> Session:
        return server.session(game, self.send, self.close)


async def settle(sessions: list[Session]) -> None:
    """Lets every session's sender task deliver what is queued."""
    for _ in range(1000):
        if not any(session._outbox.qsize() for session in sessions):
            break
        await asyncio.sleep(0)
    await asyncio.sleep(0)


def raw_websocket(port: int, path: str, *, receive_buffer: int | None = None) -> socket.socket:
    """Opens a WebSocket by hand on a plain socket (no reader thread behind it), after its handshake."""
    sock = socket.socket()
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(30)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(1)
        assert chunk, f"the server closed the handshake: {head!r}"
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def send_text(sock: socket.socket, text: str) -> None:
    """Sends a text frame, masked as a client's must be."""
    payload, mask = text.encode(), os.urandom(4)
    assert len(payload) < 126
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)


def closed_by_peer(sock: socket.socket, seconds: float, most: int = 64 * 1024 * 1024) -> bool:
    """Reads what is left until the peer closes (True), or until ``seconds`` or ``most`` bytes pass (False)."""
    deadline = time.monotonic() + seconds
    read = 0
    while time.monotonic() < deadline and read < most:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(1 << 16)
        except (ConnectionResetError, BrokenPipeError):
            return True
        except TimeoutError:
            return False
        if not chunk:
            return True
        read += len(chunk)
    return False
