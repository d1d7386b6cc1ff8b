"""Measures the game server under abuse, on 127.0.0.1 only: its memory and what it still serves, case by case.

    nice -n 10 python benchmarks/server_abuse.py                       # every case: about 6 minutes
    nice -n 10 python benchmarks/server_abuse.py --cases silent,slow   # some of them

Each case starts its own server process on a fresh SQLite file (synchronous=FULL) with the
default limits of ``chickenfoot serve``, except where a case says otherwise, and prints the
server's resident memory (RSS) before and after, with the case's own figures:

* **bots**: ``--bot-games`` (2,000) games of two ``random`` bots played to their end,
  ``--at-once`` (100) at a time (request rates raised: one address creates them all); the
  memory a quarter of the way and after, against the empty server's (target: under 1.2 times);
  then the server started again on the same file and every game read once
  (``GET /api/games/{game}``).
* **silent**: 20 clients that never read, watching 4 games of 4 bots that move every 0.1 s: how
  long until the server has dropped them all (its open descriptors back where they were; target:
  within 30 s), and its memory meanwhile.
* **slow**: 300 connections sending a header line every 5 s and never the end, and 1,100 that
  send nothing, all from 127.0.0.1 to a server allowed 1,024 descriptors: whether a normal
  request from another address is answered meanwhile, and how long until the slow ones are gone.
* **spectators**: 64 spectators in a game, then its seat's owner: whether the owner gets in.
* **cap**: 10,000 two-person games created from 60 addresses of 60 networks at once, then one
  more: how many were stored (exactly the cap), the answer to the one more, and the memory;
  then the server started again with an expiry of 5 s: a game created once they have expired.
* **stale**: 30 seat connections sending moves at a state long gone, at the message rate, for
  12 s: the bytes the server sent them.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import resource
import signal
import socket
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from _serving import LOADED, create_games, free_port, request, rss_mb, start_server, stop_server

Case = Callable[[Path], dict[str, float]]


def _descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _post(port: int, path: str, body: object, source: str = "127.0.0.1") -> tuple[int, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        connection.request("POST", path, json.dumps(body), {"content-type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


def _settle(pid: int) -> float:
    time.sleep(2.0)
    return rss_mb(pid)


def bots(folder: Path, games: int = 2000, at_once: int = 100) -> dict[str, float]:
    db, port = folder / "bots.sqlite3", free_port()
    server = start_server(db, port)
    try:
        for _ in range(20):  # the pages and the API warmed up, as an empty server that has served a little
            request(port, "/api/options")
        empty = _settle(server.pid)
        waiting: list[str] = []
        created, quarter = 0, 0.0
        while created < games or waiting:
            while created < games and len(waiting) < at_once:
                waiting.append(request(port, "/api/games", {"seats": ["random", "random"]})["game"])
                created += 1
                if created == games // 4:
                    quarter = rss_mb(server.pid)  # the games in play at once already at their most
            waiting = [game for game in waiting if not request(port, f"/api/games/{game}")["is_over"]]
            time.sleep(0.2)
        after = _settle(server.pid)
    finally:
        stop_server(server)
    server = start_server(db, port)
    try:
        again = _settle(server.pid)
        ids = [row[0] for row in sqlite3.connect(db).execute("SELECT id FROM games")]
        for game in ids:
            request(port, f"/api/games/{game}")
        read = _settle(server.pid)
    finally:
        stop_server(server)
    return {
        "at_once": at_once,
        "rss_mb_empty": empty,
        "rss_mb_a_quarter_in": quarter,
        "rss_mb_after_games": after,
        "ratio": after / empty,
        "rss_mb_restarted": again,
        "rss_mb_after_reading_each": read,
    }


def silent(folder: Path) -> dict[str, float]:
    port = free_port()
    server = start_server(folder / "silent.sqlite3", port, limits={}, bot_delay=0.1)
    sockets: list[socket.socket] = []
    try:
        games = [request(port, "/api/games", {"seats": ["random"] * 4})["game"] for _ in range(4)]
        before, rss = _descriptors(server.pid), rss_mb(server.pid)
        for number in range(20):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", port))
            key = "dGhlIHNhbXBsZSBub25jZQ=="
            sock.sendall(
                f"GET /api/games/{games[number % 4]}/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            hello = b'{"type": "hello", "seat": null}'
            sock.sendall(bytes([0x81, 0x80 | len(hello)]) + b"\0\0\0\0" + hello)  # masked with zeros
            sockets.append(sock)
        began, peak, gone = time.monotonic(), rss, float("nan")
        while time.monotonic() - began < 120:
            peak = max(peak, rss_mb(server.pid))
            if _descriptors(server.pid) <= before:
                gone = time.monotonic() - began
                break
            time.sleep(0.25)
        return {"rss_mb_before": rss, "rss_mb_peak": peak, "rss_mb_after": rss_mb(server.pid), "dropped_within_s": gone}
    finally:
        for sock in sockets:
            sock.close()
        stop_server(server)


def slow(folder: Path) -> dict[str, float]:
    port = free_port()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    server = start_server(folder / "slow.sqlite3", port, limits={}, descriptors=1024)
    sockets: list[socket.socket] = []
    try:
        before, rss = _descriptors(server.pid), rss_mb(server.pid)
        for number in range(1400):
            sock = socket.create_connection(("127.0.0.1", port), 30)
            if number < 300:
                sock.sendall(b"GET /api/options HTTP/1.1\r\nHost: x\r\n")
            sockets.append(sock)
        began = time.monotonic()
        normal = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.1.1", 0))
        normal.request("GET", "/api/options")
        answered = normal.getresponse().status == 200
        normal.close()
        gone, peak = float("nan"), rss
        while time.monotonic() - began < 120:
            for sock in sockets[:300]:
                with contextlib.suppress(OSError):  # the server closed it
                    sock.sendall(b"X-Slow: yes\r\n")
            peak = max(peak, rss_mb(server.pid))
            if _descriptors(server.pid) <= before:
                gone = time.monotonic() - began
                break
            time.sleep(5 if time.monotonic() - began > 1 else 0.5)
        return {"rss_mb_before": rss, "rss_mb_peak": peak, "normal_request_answered": answered, "gone_within_s": gone}
    finally:
        for sock in sockets:
            sock.close()
        stop_server(server)


def spectators(folder: Path) -> dict[str, float]:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    port = free_port()
    server = start_server(folder / "spectators.sqlite3", port, limits={})
    try:
        row = create_games(port, 1, ["human", "human"])[0]
        url = f"ws://127.0.0.1:{port}/api/games/{row[0].game}/ws"
        with contextlib.ExitStack() as opened:
            for _ in range(64):
                ws = opened.enter_context(connect(url))
                ws.send('{"type": "hello", "seat": null}')
                ws.recv(timeout=30)
                time.sleep(0.2)  # within the spectators' join rate
            with connect(url) as extra:  # one spectator too many
                extra.send('{"type": "hello", "seat": null}')
                try:
                    extra.recv(timeout=30)
                    refused = 0
                except ConnectionClosed:
                    refused = extra.close_code or 0
            with connect(url) as owner:
                owner.send(json.dumps({"type": "hello", "seat": 0, "token": row[0].token}))
                admitted = json.loads(owner.recv(timeout=30))["type"] == "sync"
        return {"spectators": 64, "65th_closed_with": refused, "owner_admitted": admitted, "rss_mb": rss_mb(server.pid)}
    finally:
        stop_server(server)


def cap(folder: Path) -> dict[str, float]:
    db, port = folder / "cap.sqlite3", free_port()
    server = start_server(db, port, limits={})
    try:
        rss = rss_mb(server.pid)
        sources = [f"127.0.{network}.1" for network in range(1, 61)]
        body = {"seats": ["human", "human"]}
        began = time.monotonic()

        def create_all(source: str) -> list[int]:
            statuses: list[int] = []
            while len(statuses) < 200:  # a few more than their share of the 10,000
                status, _ = _post(port, "/api/games", body, source)
                if status == 429:
                    time.sleep(0.1)
                    continue
                statuses.append(status)
            return statuses

        with ThreadPoolExecutor(60) as pool:
            statuses = [status for answers in pool.map(create_all, sources) for status in answers]
        seconds = time.monotonic() - began
        more, answer = _post(port, "/api/games", body, "127.0.99.1")
        stored = sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone()[0]
        figures = {
            "created": statuses.count(201),
            "refused_503": statuses.count(503),
            "stored": stored,
            "seconds": seconds,
            "one_more": more,
            "rss_mb_before": rss,
            "rss_mb_after": rss_mb(server.pid),
        }
        print(f"    one more: {more} {answer['error']}", flush=True)
    finally:
        stop_server(server)
    server = start_server(db, port, limits={"expire_seconds": 5.0})
    try:
        time.sleep(6.0)
        figures["created_once_expired"] = _post(port, "/api/games", body)[0]
    finally:
        stop_server(server)
    return figures


async def _stale_flood(port: int, seats: list[Any], seconds: float) -> tuple[int, int]:
    from websockets.asyncio.client import connect

    received = frames = 0

    async def flood(seat: Any) -> None:
        nonlocal received, frames
        url = f"ws://127.0.0.1:{port}/api/games/{seat.game}/ws"
        async with connect(url, compression=None, max_size=2**24) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": seat.seat, "token": seat.token}))
            text = await ws.recv()
            received += len(text)
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                await ws.send(json.dumps({"type": "move", "seq": 10_000, "move": "draw"}))
                text = await ws.recv()
                received, frames = received + len(text), frames + 1
                await asyncio.sleep(1 / 19)  # under the 20 messages a second allowed

    await asyncio.gather(*(flood(seat) for seat in seats))
    return received, frames


def stale(folder: Path) -> dict[str, float]:
    port = free_port()
    server = start_server(folder / "stale.sqlite3", port, limits={**LOADED, "messages_per_second": 20.0})
    try:
        rows = create_games(port, 15, ["human", "human"])
        received, frames = asyncio.run(_stale_flood(port, [seat for row in rows for seat in row], 12.0))
        return {
            "connections": 30,
            "seconds": 12,
            "stale_moves_answered": frames,
            "mb_sent_to_them": received / 1e6,
            "rss_mb": rss_mb(server.pid),
        }
    finally:
        stop_server(server)


CASES: dict[str, Case] = {
    "bots": bots,
    "silent": silent,
    "slow": slow,
    "spectators": spectators,
    "cap": cap,
    "stale": stale,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cases", default=",".join(CASES), help=f"which cases, of {','.join(CASES)}")
    parser.add_argument("--bot-games", type=int, default=2000, help="bot games for the bots case (default 2000)")
    parser.add_argument("--at-once", type=int, default=100, help="bot games in play at once (default 100)")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server processes too, in the finally blocks
    chosen = options.cases.split(",")
    if not set(chosen) <= set(CASES) or options.bot_games < 1:
        parser.error(f"--cases names some of {', '.join(CASES)}; --bot-games is positive")
    random.seed(42)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="chickenfoot-abuse-") as folder:
        for name in chosen:
            case = CASES[name]
            results[name] = (
                bots(Path(folder), options.bot_games, options.at_once) if name == "bots" else case(Path(folder))
            )
            print(f"{name}: " + ", ".join(f"{key} {value:,.2f}" for key, value in results[name].items()), flush=True)
    print(f"load average at the end: {' '.join(map(str, os.getloadavg()))} ({os.cpu_count()} cores)")
    json.dump(results, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
