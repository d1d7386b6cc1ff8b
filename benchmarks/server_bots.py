"""Measures a person's ack latency while bots the server seats think at other tables, on 127.0.0.1 only.

    nice -n 10 python benchmarks/server_bots.py                 # 8 search:2000 bots, 30 s windows
    nice -n 10 python benchmarks/server_bots.py --seconds 60 --bot search:500

Starts a server process on a fresh SQLite file (synchronous=FULL, bots moving without delay).
A client plays both seats of a two-person game, one move at a time, ``--rate`` moves a second,
and times each move from sending it to its ack: first with nothing else on the server (the
baseline), then with ``--tables`` games of four ``--bot`` bots each, all thinking (the default,
2 tables of ``search:2000``, is eight such bots). The bots think in the server's pool of worker
processes, at a lower priority than the server, so that a person's move does not wait for them.
Prints the latencies (p50, p99, max) and the server's CPU; the target is a p99 under 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _serving import cpu_seconds, create_games, free_port, percentile, request, start_server, stop_server


async def _person(port: int, seconds: float, rate: float) -> list[float]:
    """Plays two-person games on both seats for ``seconds``; gets each move's seconds from send to ack."""
    from websockets.asyncio.client import connect

    latencies: list[float] = []
    rng = random.Random(42)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        row = create_games(port, 1, ["human", "human"])[0]
        url = f"ws://127.0.0.1:{port}/api/games/{row[0].game}/ws"
        async with connect(url, compression=None) as first, connect(url, compression=None) as second:
            sockets = [first, second]
            views: list[dict[str, Any]] = []
            for taken, ws in zip(row, sockets, strict=True):
                await ws.send(json.dumps({"type": "hello", "seat": taken.seat, "token": taken.token}))
                views.append(await _frame(ws, "sync"))
            while time.monotonic() < deadline and not views[0]["view"]["is_over"]:
                mover = views[0]["view"]["current_player"]
                move = rng.choice(views[mover]["view"]["legal_moves"])
                began = time.perf_counter()
                await sockets[mover].send(json.dumps({"type": "move", "seq": views[0]["seq"], "move": move}))
                await _frame(sockets[mover], "ack")
                latencies.append(time.perf_counter() - began)
                for seat, ws in enumerate(sockets):  # each seat's state frame of the move
                    views[seat] = await _frame(ws, "state")
                await asyncio.sleep(1 / rate)
    return latencies


async def _frame(ws: Any, kind: str) -> dict[str, Any]:
    """Reads frames until one of ``kind`` (failing on a refusal, or after 30 s)."""
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if frame["type"] == kind:
            return frame
        if frame["type"] in ("refused", "stale"):
            raise RuntimeError(f"the move was not played: {frame}")


def _window(port: int, pid: int, seconds: float, rate: float, bot_games: list[str]) -> dict[str, float]:
    cpu, wall, bot_moves = cpu_seconds(pid), time.perf_counter(), _moves(port, bot_games)
    latencies = asyncio.run(_person(port, seconds, rate))
    return {
        "moves": len(latencies),
        "bot_moves": _moves(port, bot_games) - bot_moves,
        "ack_p50_ms": 1000 * percentile(latencies, 0.50),
        "ack_p99_ms": 1000 * percentile(latencies, 0.99),
        "ack_max_ms": 1000 * max(latencies),
        "server_cpu_share": (cpu_seconds(pid) - cpu) / (time.perf_counter() - wall),
    }


def _moves(port: int, games: list[str]) -> int:
    return sum(request(port, f"/api/games/{game}")["seq"] for game in games)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bot", default="search:2000", help="the bot at the other tables (default search:2000)")
    parser.add_argument("--tables", type=int, default=2, help="games of four such bots (default 2: eight bots)")
    parser.add_argument("--seconds", type=float, default=30.0, help="each measuring window, in seconds (default 30)")
    parser.add_argument("--rate", type=float, default=10.0, help="the person's moves a second (default 10)")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server process too, in the finally block
    if not 1 <= options.seconds <= 600 or options.tables < 0 or options.rate <= 0:
        parser.error("--seconds is 1 to 600, --tables 0 or more, --rate positive")
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="chickenfoot-bots-") as folder:
        port = free_port()
        server = start_server(Path(folder) / "games.sqlite3", port, bot_delay=0.0)
        try:
            results["alone"] = _window(port, server.pid, options.seconds, options.rate, [])
            print(f"alone: {results['alone']}", flush=True)
            bot_games = [row[0].game for row in create_games(port, options.tables, [options.bot] * 4)]
            time.sleep(2.0)  # the workers started, every bot thinking
            label = f"with {options.tables} tables of 4 {options.bot} bots thinking"
            results[label] = _window(port, server.pid, options.seconds, options.rate, bot_games)
            print(f"{label}: {results[label]}", flush=True)
        finally:
            stop_server(server)
    print(f"load average at the end: {' '.join(map(str, os.getloadavg()))} ({os.cpu_count()} cores)")
    json.dump(results, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
