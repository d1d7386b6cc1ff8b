"""Measures the game server under load, on 127.0.0.1 only: acknowledged moves a second, ack latency, idle memory.

    nice -n 10 python benchmarks/server_load.py                 # the three measurements, about 2 minutes
    nice -n 10 python benchmarks/server_load.py --seconds 10    # shorter windows
    nice -n 10 python benchmarks/server_load.py --no-compression   # as serve --no-compression

1. **bots**: ``--games`` games (500) of 4 server-seated ``random`` bots, each with a spectator
   connected; moves stored (committed) a second, counted from the spectators' frames (each
   frame follows a COMMIT).
2. **seats**: ``--seated`` games (100) whose 4 seats are clients playing random legal moves
   over WebSocket, plus a spectator each: first as fast as they can (acknowledged moves a
   second), then paced to ``--rate`` (1,000) moves a second, with the latency from sending a
   move to its ack (p50, p99).
3. **idle**: the server's resident memory with ``--idle`` (1,000) games created, every seat
   claimed, and nobody playing.

Each part starts its own server process on a fresh SQLite file (synchronous=FULL: every
commit is synced), running the ``chickenfoot`` this Python imports (the docs' figures: a venv
with ``pip install ".[server]"``, whose core is compiled), and stops it; the script prints the
figures and exits. Targets (issue 30): at least 2,000 acked moves/s, p99 under 100 ms at 1,000
moves/s, under 300 MB idle.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib.util
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from _serving import (
    Played,
    cpu_seconds,
    create_games,
    free_port,
    percentile,
    play_seat,
    rss_mb,
    start_server,
    stop_server,
    stored_moves,
    watch,
)


class Window:
    """Measures a stretch of time: wall time, the server's CPU time and the moves committed in it."""

    def __init__(self, pid: int, db: Path) -> None:
        self.pid, self.db = pid, db
        self.wall, self.cpu, self.moves = time.perf_counter(), cpu_seconds(pid), stored_moves(db)

    def figures(self) -> dict[str, float]:
        wall = time.perf_counter() - self.wall
        cpu = cpu_seconds(self.pid) - self.cpu
        moves = stored_moves(self.db) - self.moves
        return {
            "stored_moves_per_second": moves / wall,
            "server_cpu_share": cpu / wall,
            "server_cpu_us_per_move": 1e6 * cpu / max(1, moves),
            "moves_per_server_cpu_second": moves / max(cpu, 1e-9),
        }


async def _bots(port: int, pid: int, db: Path, games: int, seconds: float) -> dict[str, float]:
    played = Played()
    tasks = []
    for row in create_games(port, games, ["random"] * 4):  # the bots start as each game is created
        tasks.append(asyncio.ensure_future(watch(port, row[0].game, played)))
        await asyncio.sleep(0)
    await asyncio.sleep(2.0)  # every spectator connected and synced
    window = Window(pid, db)
    await asyncio.sleep(seconds)
    figures = window.figures()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {**figures, "games_finished": played.finished}


async def _pacer(queue: asyncio.Queue[None], rate: float) -> None:
    tick, due = 0.005, time.perf_counter()
    while True:
        due += tick
        for _ in range(round(rate * tick)):
            if queue.full():
                break
            queue.put_nowait(None)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))


async def _seats(port: int, pid: int, db: Path, games: int, seconds: float, rate: float | None) -> dict[str, float]:
    played = Played()
    rows = create_games(port, games, ["human"] * 4)
    pace: asyncio.Queue[None] | None = None if rate is None else asyncio.Queue(maxsize=max(1, int(rate * 0.02)))
    rng = random.Random(30)
    tasks = [asyncio.ensure_future(watch(port, row[0].game, played)) for row in rows]
    await asyncio.sleep(1.0)
    tasks += [
        asyncio.ensure_future(play_seat(port, seat, played, random.Random(rng.random()), pace))
        for row in rows
        for seat in row
    ]
    pacer = None if pace is None or rate is None else asyncio.ensure_future(_pacer(pace, rate))
    await asyncio.sleep(2.0)  # warmed up: every connection open
    first, window, client = len(played.latencies), Window(pid, db), time.process_time()
    await asyncio.sleep(seconds)
    figures, client = window.figures(), time.process_time() - client
    latencies = played.latencies[first:]
    for task in [*tasks, *([pacer] if pacer else [])]:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "acked_moves_per_second": len(latencies) / (seconds or 1),
        "ack_p50_ms": 1000 * percentile(latencies, 0.50),
        "ack_p99_ms": 1000 * percentile(latencies, 0.99),
        "ack_max_ms": 1000 * max(latencies),
        **figures,
        "client_cpu_share": client / seconds,
    }


def _idle(port: int, pid: int, games: int) -> dict[str, float]:
    before = rss_mb(pid)
    create_games(port, games, ["human"] * 4)
    time.sleep(1.0)
    return {"rss_mb_before": before, "rss_mb_idle": rss_mb(pid), "games": games}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=500, help="games of 4 bots for part 1 (default 500)")
    parser.add_argument("--seated", type=int, default=100, help="games of 4 client seats for part 2 (default 100)")
    parser.add_argument("--rate", type=float, default=1000.0, help="the paced rate of part 2, moves a second (1000)")
    parser.add_argument("--idle", type=int, default=1000, help="idle games for part 3 (default 1000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="each measuring window, in seconds (default 20)")
    parser.add_argument(
        "--no-compression", action="store_true", help="serve uncompressed frames (chickenfoot serve --no-compression)"
    )
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server processes too, in the finally blocks
    if not 1 <= options.seconds <= 300:
        parser.error("--seconds is 1 to 300")
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="chickenfoot-load-") as folder:
        for part in ("bots", "seats, flat out", "seats, paced", "idle"):
            db, port = Path(folder) / f"{part.replace(', ', '-').replace(' ', '')}.sqlite3", free_port()
            server = start_server(db, port, compression=not options.no_compression)
            try:
                if part == "bots":
                    results[part] = asyncio.run(_bots(port, server.pid, db, options.games, options.seconds))
                elif part == "seats, flat out":
                    results[part] = asyncio.run(_seats(port, server.pid, db, options.seated, options.seconds, None))
                elif part == "seats, paced":
                    results[part] = asyncio.run(
                        _seats(port, server.pid, db, options.seated, options.seconds, options.rate)
                    )
                else:
                    results[part] = _idle(port, server.pid, options.idle)
            finally:
                stop_server(server)
            connection = sqlite3.connect(db)
            results[part]["moves_in_store"] = connection.execute("SELECT count(*) FROM moves").fetchone()[0]
            connection.close()
            print(f"{part}: " + ", ".join(f"{key} {value:,.1f}" for key, value in results[part].items()), flush=True)
            gc.collect()
    import chickenfoot as cf

    build = (
        "compiled (mypyc)"
        if cf.__compiled__
        else "pure Python (an editable install or a checkout: pip install . compiles it)"
    )
    # The server runs on this interpreter, whose uvicorn takes uvloop when it can import it (the server extra).
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio's own (no uvloop installed)"
    print(
        f"load average at the end: {' '.join(map(str, os.getloadavg()))} (2 cores); core: {build}; event loop: {loop}"
    )
    json.dump(results, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
