"""Shared by the server's measuring scripts: server processes on 127.0.0.1, and clients that play seats on them.

A server runs as its own process (``python benchmarks/_serving.py STORE PORT SETTINGS``), as
``chickenfoot serve`` does, on a SQLite file or a PostgreSQL DSN, by default with limits raised
for one address that stands for hundreds of clients (``SETTINGS`` may name others).
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import attrs

if importlib.util.find_spec("chickenfoot") is None:  # run from a checkout without installing (pure core)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

HOST = "127.0.0.1"  # traffic never leaves this machine


def free_port() -> int:
    """Finds a free port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


LOADED = {"requests_per_second": 1e6, "request_burst": 10**6, "games": 100_000, "connections_per_prefix": 100_000}
"""The limits of a server that one address (127.0.0.1) loads with hundreds of clients."""


def start_server(
    store: Path | str,
    port: int,
    *,
    synchronous: str = "FULL",
    compression: bool = True,
    limits: dict[str, Any] | None = None,
    **settings: Any,
) -> subprocess.Popen[bytes]:
    """Starts a server process keeping its games in ``store``; returns once it answers (or raises after 60 s).

    ``limits`` are the fields of its ``Limits`` (:data:`LOADED` by default); ``settings`` may give
    ``bot_delay``, ``lease`` (seconds), ``owner`` (a node's name), ``bot_workers`` and ``descriptors``
    (the most files and sockets the process may hold open).
    """
    chosen = {"synchronous": synchronous, "compression": compression, "limits": LOADED if limits is None else limits}
    command = [sys.executable, __file__, str(store), str(port), json.dumps({**chosen, **settings})]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            request(port, "/api/options")
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not answer within 60 seconds")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """Stops a server process (SIGTERM, then SIGKILL after 30 s)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def rss_mb(pid: int) -> float:
    """Gets a process's resident memory in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """Gets the CPU time a process has used (user and system), in seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stored_moves(db: Path) -> int:
    """Counts the moves committed to a server's SQLite file (a reader beside the writer, as WAL allows)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        count: int = connection.execute("SELECT count(*) FROM moves").fetchone()[0]
        return count
    finally:
        connection.close()


def request(port: int, path: str, body: object | None = None) -> Any:
    """Sends one HTTP request to the server (JSON in, JSON out)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} if body is not None else {}
    url = f"http://{HOST}:{port}{path}"
    with urllib.request.urlopen(urllib.request.Request(url, data=data, headers=headers), timeout=60) as answer:
        return json.loads(answer.read())


@attrs.define
class Seat:
    """A seat a client plays: its game, number and token."""

    game: str
    seat: int | None
    token: str | None


def create_games(port: int, count: int, seats: list[str], *, rules: object = "trains") -> list[list[Seat]]:
    """Creates ``count`` games and claims every person's seat; gets each game's seats (bots' with no token)."""
    games = []
    for _ in range(count):
        created = request(port, "/api/games", {"rules": rules, "seats": seats})
        game = created["game"]
        row = []
        for number, seat in enumerate(created["seats"]):
            token = None
            if seat["link"] is not None:
                invite = seat["link"].partition("#")[2]
                token = request(port, f"/api/games/{game}/seats/{number}", {"invite": invite})["token"]
            row.append(Seat(game, number, token))
        games.append(row)
    return games


@attrs.define
class Played:
    """What a client saw: each move it was acknowledged (with the seq after it) and the last view of each seat."""

    acked: list[tuple[str, int, str]] = attrs.field(factory=list)
    """(game, seq after the move, move) for every ack received."""
    latencies: list[float] = attrs.field(factory=list)
    """Seconds from sending a move to its ack."""
    views: dict[tuple[str, int], tuple[int, dict[str, Any]]] = attrs.field(factory=dict)
    """(game, seat) -> (seq, view) of the last frame the seat received."""
    frames: int = 0
    """Frames received."""
    finished: int = 0
    """Games seen to end."""


async def play_seat(
    port: int, seat: Seat, played: Played, rng: random.Random, pace: asyncio.Queue[None] | None
) -> None:
    """Plays a seat's random legal moves until its game ends or the connection drops (one ``pace`` token a move)."""
    from websockets.asyncio.client import connect

    url = f"ws://{HOST}:{port}/api/games/{seat.game}/ws"
    async with connect(url, max_size=2**22, open_timeout=60, ping_interval=None, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": seat.seat, "token": seat.token}))
        sent_at: float | None = None
        sent_seq = -1
        async for text in ws:
            played.frames += 1
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "ack":
                if sent_at is not None:
                    played.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                played.acked.append((seat.game, frame["seq"], frame["move"]))
                continue
            if kind not in ("sync", "state"):
                continue
            view = frame["view"]
            if seat.seat is not None:
                played.views[(seat.game, seat.seat)] = (frame["seq"], view)
            if view["is_over"]:
                played.finished += seat.seat in (None, 0)
                return
            if seat.token is None or view["current_player"] != seat.seat or frame["seq"] == sent_seq:
                continue
            if pace is not None:
                await pace.get()
            sent_seq = frame["seq"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "seq": sent_seq, "move": rng.choice(view["legal_moves"])}))


async def watch(port: int, game: str, played: Played) -> None:
    """Watches a game as a spectator until it ends, counting its frames."""
    await play_seat(port, Seat(game, None, None), played, random.Random(0), None)


def percentile(values: list[float], fraction: float) -> float:
    """Gets the value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def _serve(store: str, port: int, settings: dict[str, Any]) -> None:
    from chickenfoot.server import GameServer, Limits, PostgresStore, SQLiteStore, Store, serve

    if "descriptors" in settings:
        import resource

        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (settings["descriptors"], hard))

    kept: Store
    if store.startswith("postgresql://"):
        kept = PostgresStore(store, owner=settings.get("owner"))
    else:
        kept = SQLiteStore(store, synchronous=settings["synchronous"])
    server = GameServer(
        kept,
        limits=Limits(**settings["limits"]),
        bot_delay=settings.get("bot_delay", 0.0),
        lease_seconds=settings.get("lease", 10.0),
        bot_workers=settings.get("bot_workers"),
    )
    freeze = settings.get("freeze_heap", True)
    serve(
        server,
        HOST,
        port,
        log_level="warning",
        access_log=False,
        compression=settings["compression"],
        freeze_heap=freeze,
    )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    _serve(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]))
