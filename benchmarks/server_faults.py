"""Kills the game server with SIGKILL under load, again and again, and checks that no acknowledged move is lost.

    nice -n 10 python benchmarks/server_faults.py --runs 100        # issue 30's loop
    nice -n 10 python benchmarks/server_faults.py --runs 5          # a quick look

Each run starts a server process (127.0.0.1 only) on a fresh SQLite file (synchronous=FULL),
creates ``--games`` games whose 4 seats are clients playing random legal moves over WebSocket,
and sends the server ``kill -9`` at a random moment of the next few seconds. Then, from the file
as the killed server left it:

* ``PRAGMA integrity_check`` passes;
* every move any client saw acknowledged is in the store, at the place its ack named;
* for every seat, replaying the game's seed and its stored moves up to the last state that seat
  was shown, through ``apply``, gives exactly the view it was shown;

and, after a restart on the same file, every game is served again at its stored length, with
each seat's view that of the replayed game, and the file checks again. The script stops after
``--runs`` runs or ``--minutes`` minutes, whichever comes first, prints what it found, and
exits with status 1 if any check failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _serving import Played, Seat, create_games, free_port, play_seat, request, start_server, stop_server

import chickenfoot as cf
from chickenfoot.server import Setup


async def _load(port: int, rows: list[list[Seat]], played: Played, kill_after: float, pid: int, seed: int) -> None:
    rng = random.Random(seed)
    tasks = [
        asyncio.ensure_future(play_seat(port, seat, played, random.Random(rng.random()), None))
        for row in rows
        for seat in row
    ]
    await asyncio.sleep(kill_after)
    os.kill(pid, signal.SIGKILL)
    await asyncio.gather(*tasks, return_exceptions=True)  # every connection drops with the server


def _stored(db: Path) -> tuple[str, dict[str, tuple[Setup, list[str]]]]:
    connection = sqlite3.connect(db)
    try:
        check = connection.execute("PRAGMA integrity_check").fetchone()[0]
        games: dict[str, tuple[Setup, list[str]]] = {
            game: (Setup.from_json(game, setup), [])
            for game, setup in connection.execute("SELECT id, setup FROM games").fetchall()
        }
        for game, _, move in connection.execute("SELECT game, seq, move FROM moves ORDER BY game, seq"):
            games[game][1].append(move)
    finally:
        connection.close()
    return check, games


def _view(setup: Setup, moves: list[str], seat: int) -> Any:
    game = cf.new_game(setup.rules, setup.players, setup.seed)
    for text in moves:
        game = cf.apply(game, cf.parse_move(text))
    return json.loads(cf.to_json(cf.observe(game, seat)))


async def _resumed(port: int, rows: list[list[Seat]], games: dict[str, tuple[Setup, list[str]]]) -> list[str]:
    from websockets.asyncio.client import connect

    problems: list[str] = []

    async def check(seat: Seat) -> None:
        setup, moves = games[seat.game]
        async with connect(f"ws://127.0.0.1:{port}/api/games/{seat.game}/ws", open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "seat": seat.seat, "token": seat.token}))
            sync = json.loads(await ws.recv())
        if sync.get("type") != "sync" or sync["seq"] != len(moves):
            problems.append(f"game {seat.game} seat {seat.seat}: restarted at {sync.get('seq')}, stored {len(moves)}")
        elif seat.seat is not None and sync["view"] != _view(setup, moves, seat.seat):
            problems.append(f"game {seat.game} seat {seat.seat}: the restarted view is not the replayed game's")

    await asyncio.gather(*(check(seat) for row in rows for seat in row))
    return problems


def one_run(folder: Path, number: int, games: int, rng: random.Random) -> tuple[list[str], dict[str, float]]:
    """Runs one kill and its checks; gets the problems found and the run's figures."""
    db, port = folder / f"run-{number:03}.sqlite3", free_port()
    server = start_server(db, port)
    played = Played()
    try:
        rows = create_games(port, games, ["human"] * 4)
        kill_after = rng.uniform(0.2, 3.0)
        asyncio.run(_load(port, rows, played, kill_after, server.pid, rng.randrange(2**32)))
    finally:
        server.kill()
        server.wait()
    problems = []
    check, stored = _stored(db)
    if check != "ok":
        problems.append(f"integrity_check after the kill: {check}")
    for game, seq, move in played.acked:
        moves = stored[game][1]
        if len(moves) < seq or moves[seq - 1] != move:
            problems.append(f"game {game}: acked move {seq} ({move}) is not in the store")
    for (game, seat), (seq, view) in played.views.items():
        setup, moves = stored[game]
        if len(moves) < seq:
            problems.append(f"game {game} seat {seat} was shown move {seq}; the store has {len(moves)}")
        elif view != _view(setup, moves[:seq], seat):
            problems.append(f"game {game} seat {seat}: replaying the store to move {seq} does not give the view shown")
    server = start_server(db, port)
    try:
        for row in rows:
            summary = request(port, f"/api/games/{row[0].game}")
            if summary["seq"] != len(stored[row[0].game][1]):
                problems.append(f"game {row[0].game}: served at {summary['seq']} after the restart")
        problems += asyncio.run(_resumed(port, rows, stored))
    finally:
        stop_server(server)
    check, _ = _stored(db)
    if check != "ok":
        problems.append(f"integrity_check after the restart: {check}")
    total = sum(len(moves) for _, moves in stored.values())
    db.unlink()
    return problems, {"kill_after": kill_after, "acked": len(played.acked), "stored": total}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=100, help="kills to make (default 100)")
    parser.add_argument(
        "--games", type=int, default=20, help="games in play at each kill (default 20, 80 client seats)"
    )
    parser.add_argument(
        "--minutes", type=float, default=30.0, help="stop after this long, runs done or not (default 30)"
    )
    parser.add_argument("--seed", type=int, default=30, help="seed for the kill moments and the moves")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the server processes too, in the finally blocks
    if options.runs < 1 or options.games < 1 or options.minutes <= 0:
        parser.error("--runs, --games and --minutes are positive")
    rng = random.Random(options.seed)
    deadline = time.monotonic() + 60 * options.minutes
    failures = acked = stored = runs = 0
    with tempfile.TemporaryDirectory(prefix="chickenfoot-faults-") as folder:
        for number in range(options.runs):
            if time.monotonic() > deadline:
                print(f"stopping: {options.minutes:g} minutes are up", flush=True)
                break
            problems, figures = one_run(Path(folder), number, options.games, rng)
            runs += 1
            acked += int(figures["acked"])
            stored += int(figures["stored"])
            failures += bool(problems)
            status = "ok" if not problems else f"{len(problems)} PROBLEMS"
            print(
                f"run {number + 1}: killed after {figures['kill_after']:.2f} s, {int(figures['acked'])} acked, "
                f"{int(figures['stored'])} stored: {status}",
                flush=True,
            )
            for problem in problems[:10]:
                print(f"    {problem}", flush=True)
    print(f"{runs} runs, {failures} with problems; {acked} acknowledged moves, all checked; {stored} stored")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
