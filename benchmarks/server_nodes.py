"""Measures several server nodes on one PostgreSQL database, on 127.0.0.1: moves a second, latency, takeover, kills.

    nice -n 10 python benchmarks/server_nodes.py                 # 1, 2, 3 nodes, and takeover: about 5 minutes
    nice -n 10 python benchmarks/server_nodes.py --kills 100     # then 100 runs of kill -9 over nodes under play
    nice -n 10 python benchmarks/server_nodes.py --dsn postgresql://me@db/chickenfoot --parts kills

Starts a throwaway PostgreSQL cluster (``scripts/postgres.sh``, Debian's PostgreSQL, a Unix
socket only, fsync on) unless ``--dsn`` names a cluster to use; each part runs on a database of
its own, created and dropped. The nodes are ``chickenfoot serve`` processes on 127.0.0.1.

1. **scale**: with 1, 2 and 3 nodes, ``--seated`` games (100) whose 4 seats are clients playing
   random legal moves, and a spectator each; *spread*, each game's seats on different nodes (so
   most moves are forwarded to the game's node), and *affine*, each game's clients on one node,
   the games spread over the nodes. Flat out: acknowledged moves a second; paced at ``--rate``:
   the ack latency (p50, p99).
2. **takeover**: three nodes with the default lease (10 s); a game held by one node, its next
   mover on another. The holder is killed (SIGKILL) and the mover moves at once: the time to its
   ack; and a bot game held by the killed node: the time to its next stored move. Five times.
3. **kills**: ``--kills`` runs, each three nodes (lease ``--lease``, 2 s) with ``--games`` games
   of 4 client seats spread over them; a random node is killed at a random moment (0.2 to 3 s in),
   its clients move to the other nodes and play on, and it is started again. Then every move any
   client saw acknowledged is in the database at its place, every seat's last view is the one
   the stored moves replay to, and every game moved again after the kill.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _serving import Played, Seat, cpu_seconds, create_games, free_port, percentile, start_server, stop_server

import chickenfoot as cf

ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def cluster(dsn: str | None) -> Iterator[str]:
    """Gives the DSN of a PostgreSQL cluster: ``dsn``, or a throwaway one started here and stopped after."""
    if dsn is not None:
        yield dsn
        return
    with tempfile.TemporaryDirectory(prefix="chickenfoot-pg-") as folder:
        started = subprocess.run(
            [str(ROOT / "scripts" / "postgres.sh"), "start", folder], check=True, capture_output=True, text=True
        )
        try:
            yield started.stdout.strip()
        finally:
            subprocess.run([str(ROOT / "scripts" / "postgres.sh"), "stop", folder], check=False)


@contextlib.contextmanager
def database(server: str) -> Iterator[str]:
    """Creates a fresh database on the cluster, gives its DSN (a URL), and drops it after."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    name = f"chickenfoot_{secrets.token_hex(4)}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    parts = conninfo_to_dict(server)
    host = parts.get("host", "")
    yield f"postgresql://{parts.get('user', '')}@/{name}?host={host}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


class Nodes:
    """Node processes on one database, each at its own port, that may be killed and started again."""

    def __init__(self, dsn: str, count: int, lease: float, bot_delay: float = 0.0) -> None:
        self.dsn, self.lease, self.bot_delay = dsn, lease, bot_delay
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen[bytes] | None] = [None] * count
        for number in range(count):
            self.start(number)

    def start(self, number: int) -> None:
        self.processes[number] = start_server(
            self.dsn, self.ports[number], lease=self.lease, owner=f"node{number}", bot_delay=self.bot_delay
        )

    def kill(self, number: int) -> None:
        process = self.processes[number]
        if process is not None:
            process.kill()
            process.wait()
            self.processes[number] = None

    def alive(self, number: int) -> bool:
        return self.processes[number] is not None

    def stop(self) -> None:
        for process in self.processes:
            if process is not None:
                stop_server(process)

    def cpu(self) -> float:
        return sum(cpu_seconds(process.pid) for process in self.processes if process is not None)


async def play_seat(nodes: Nodes, first: int, seat: Seat, played: Played, rng: random.Random, pace: Any) -> None:
    """Plays a seat's random legal moves on node ``first`` (another living one when it goes) until cancelled or over."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    at = first
    while True:
        url = f"ws://127.0.0.1:{nodes.ports[at]}/api/games/{seat.game}/ws"
        try:
            async with connect(url, max_size=2**22, open_timeout=30, ping_interval=None, compression=None) as ws:
                if await _play(ws, seat, played, rng, pace):
                    return
        except (ConnectionClosed, OSError, asyncio.TimeoutError):
            pass
        await asyncio.sleep(0.1)
        living = [number for number in range(len(nodes.ports)) if nodes.alive(number)]
        at = living[(living.index(at) + 1) % len(living)] if at in living else rng.choice(living)


async def _play(ws: Any, seat: Seat, played: Played, rng: random.Random, pace: Any) -> bool:
    """Plays on one connection; tells whether the game is over."""
    await ws.send(json.dumps({"type": "hello", "seat": seat.seat, "token": seat.token}))
    sent_at: float | None = None
    sent_seq = -1
    async for text in ws:
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
            return True
        if seat.token is None or view["current_player"] != seat.seat or frame["seq"] == sent_seq:
            continue
        if pace is not None:
            await pace.get()
        sent_seq, sent_at = frame["seq"], time.perf_counter()
        await ws.send(json.dumps({"type": "move", "seq": sent_seq, "move": rng.choice(view["legal_moves"])}))
    return False


async def _pacer(queue: asyncio.Queue[None], rate: float) -> None:
    tick, due = 0.005, time.perf_counter()
    while True:
        due += tick
        for _ in range(round(rate * tick)):
            if queue.full():
                break
            queue.put_nowait(None)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))


async def _scale_window(nodes: Nodes, layout: str, games: int, seconds: float, rate: float | None) -> dict[str, float]:
    played, rng = Played(), random.Random(42)
    count = len(nodes.ports)
    rows = create_games(nodes.ports[0], games, ["human"] * 4)
    pace: asyncio.Queue[None] | None = None if rate is None else asyncio.Queue(maxsize=max(1, int(rate * 0.02)))
    tasks = []
    for number, row in enumerate(rows):
        for seat in [*row, Seat(row[0].game, None, None)]:
            where = (
                (number + (seat.seat if seat.seat is not None else 1)) % count if layout == "spread" else number % count
            )
            tasks.append(
                asyncio.ensure_future(play_seat(nodes, where, seat, played, random.Random(rng.random()), pace))
            )
    pacer = None if pace is None or rate is None else asyncio.ensure_future(_pacer(pace, rate))
    await asyncio.sleep(3.0)  # every connection open and playing
    first, cpu, wall = len(played.latencies), nodes.cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    latencies, cpu, wall = played.latencies[first:], nodes.cpu() - cpu, time.perf_counter() - wall
    for task in [*tasks, *([pacer] if pacer else [])]:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {
        "acked_moves_per_second": len(latencies) / wall,
        "ack_p50_ms": 1000 * percentile(latencies, 0.50),
        "ack_p99_ms": 1000 * percentile(latencies, 0.99),
        "nodes_cpu_us_per_move": 1e6 * cpu / max(1, len(latencies)),
    }


def scale(server: str, games: int, seconds: float, rate: float) -> dict[str, dict[str, float]]:
    """Measures 1, 2 and 3 nodes, spread and affine, flat out and paced."""
    results: dict[str, dict[str, float]] = {}
    for layout in ("spread", "affine"):
        for count in (1, 2, 3):
            if layout == "affine" and count == 1:
                continue  # the same as spread on one node
            for paced in (None, rate):
                with database(server) as dsn:
                    nodes = Nodes(dsn, count, 10.0)
                    try:
                        figures = asyncio.run(_scale_window(nodes, layout, games, seconds, paced))
                    finally:
                        nodes.stop()
                label = f"{count} node{'s' * (count > 1)}, {layout}, {'paced' if paced else 'flat out'}"
                results[label] = figures
                print(f"{label}: " + ", ".join(f"{key} {value:,.1f}" for key, value in figures.items()), flush=True)
    return results


def _stored(dsn: str) -> dict[str, tuple[Any, list[str], bool]]:
    """Reads every game's set-up, stored moves and whether it is over, straight from the database."""
    import psycopg

    from chickenfoot.server import Setup

    with psycopg.connect(dsn) as connection:
        games: dict[str, tuple[Any, list[str], bool]] = {
            game: (Setup.from_json(game, setup), [], bool(finished))
            for game, setup, finished in connection.execute("SELECT id, setup, finished FROM games")
        }
        for game, _, move in connection.execute("SELECT game, seq, move FROM moves ORDER BY game, seq"):
            games[game][1].append(move)
    return games


def _lease_left(dsn: str, game: str) -> float:
    """Gets how long the lease of ``game`` had to run, by the database's clock."""
    import psycopg

    with psycopg.connect(dsn) as connection:
        row = connection.execute("SELECT lease - date_part('epoch', now()) FROM games WHERE id = %s", (game,))
        return float(row.fetchone()[0])  # type: ignore[index]


async def _wait_for(condition: Any, seconds: float) -> float:
    """Waits until ``condition()`` holds; gets how long it took (or raises after ``seconds``)."""
    began = time.perf_counter()
    while not await asyncio.to_thread(condition):
        if time.perf_counter() - began > seconds:
            raise RuntimeError(f"nothing moved within {seconds:g} s")
        await asyncio.sleep(0.02)
    return time.perf_counter() - began


async def _frame(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if frame["type"] == kind:
            return frame


async def _takeover_once(dsn: str) -> dict[str, float]:
    """Kills the node holding a person's game and a bot game; gets the time to the next ack, and to the bots' move."""
    from websockets.asyncio.client import connect

    nodes = Nodes(dsn, 3, 10.0, bot_delay=0.2)
    try:
        row = create_games(nodes.ports[0], 1, ["human", "human"])[0]
        urls = [f"ws://127.0.0.1:{nodes.ports[1 + n]}/api/games/{row[0].game}/ws" for n in (0, 1)]
        async with connect(urls[0], compression=None) as first, connect(urls[1], compression=None) as second:
            sockets = [first, second]
            views = []
            for seat, ws in zip(row, sockets, strict=True):
                await ws.send(json.dumps({"type": "hello", "seat": seat.seat, "token": seat.token}))
                views.append(await _frame(ws, "sync"))
            mover = views[0]["view"]["current_player"]
            move = views[mover]["view"]["legal_moves"][0]
            await sockets[mover].send(json.dumps({"type": "move", "seq": 0, "move": move}))
            await _frame(sockets[mover], "ack")  # the mover's node holds the game now
            victim, other = 1 + mover, 1 - mover
            view = await _frame(sockets[other], "state")
            bots = create_games(nodes.ports[victim], 1, ["random", "random"])[0][0].game  # held by the victim too
            await asyncio.sleep(1.0)
            nodes.kill(victim)
            killed = time.perf_counter()
            before = len(_stored(dsn)[bots][1])  # read once the node is dead: nothing more of it comes
            left = _lease_left(dsn, row[0].game)
            await sockets[other].send(json.dumps({"type": "move", "seq": 1, "move": view["view"]["legal_moves"][0]}))
            await _frame(sockets[other], "ack")
            person = time.perf_counter() - killed
            await _wait_for(lambda: len(_stored(dsn)[bots][1]) > before, 60.0)
            bot = time.perf_counter() - killed
        return {"lease_left_at_kill_seconds": left, "person_ack_seconds": person, "bot_move_seconds": bot}
    finally:
        nodes.stop()


def takeover(server: str, times: int = 5) -> dict[str, float]:
    """Measures takeovers with the default lease, ``times`` times; gets the median and the worst of each figure."""
    runs = []
    for _ in range(times):
        with database(server) as dsn:
            runs.append(asyncio.run(_takeover_once(dsn)))
        print(f"takeover: {runs[-1]}", flush=True)
    figures: dict[str, float] = {}
    for key in runs[0]:
        values = sorted(run[key] for run in runs)
        figures[f"{key}_median"], figures[f"{key}_max"] = values[len(values) // 2], values[-1]
    return figures


def _view(setup: Any, moves: list[str], seat: int) -> Any:
    game = cf.new_game(setup.rules, setup.players, setup.seed)
    for text in moves:
        game = cf.apply(game, cf.parse_move(text))
    return json.loads(cf.to_json(cf.observe(game, seat)))


async def _kill_under_play(nodes: Nodes, rows: list[list[Seat]], played: Played, rng: random.Random) -> dict[str, Any]:
    tasks = [
        asyncio.ensure_future(
            play_seat(nodes, (number + seat.seat) % 3, seat, played, random.Random(rng.random()), None)
        )
        for number, row in enumerate(rows)
        for seat in row
        if seat.seat is not None
    ]
    kill_after, victim = rng.uniform(0.2, 3.0), rng.randrange(3)
    await asyncio.sleep(kill_after)
    at_kill = {game: len(moves) for game, (_, moves, _) in (await asyncio.to_thread(_stored, nodes.dsn)).items()}
    nodes.kill(victim)
    await asyncio.sleep(nodes.lease + 2.0)  # the clients move to the other nodes; the games go on there
    nodes.start(victim)
    await asyncio.sleep(1.0)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"kill_after": kill_after, "victim": victim, "at_kill": at_kill}


def _check(dsn: str, played: Played, at_kill: dict[str, int]) -> tuple[list[str], int]:
    """Checks a kill's run against the database; gets the problems found and the moves stored."""
    problems = []
    stored = _stored(dsn)
    for game, seq, move in played.acked:
        moves = stored[game][1]
        if len(moves) < seq or moves[seq - 1] != move:
            problems.append(f"game {game}: acked move {seq} ({move}) is not in the store")
    for (game, seat), (seq, view) in played.views.items():
        setup, moves, _ = stored[game]
        if len(moves) < seq:
            problems.append(f"game {game} seat {seat} was shown move {seq}; the store has {len(moves)}")
        elif view != _view(setup, moves[:seq], seat):
            problems.append(f"game {game} seat {seat}: replaying the store to move {seq} does not give the view shown")
    for game, (_, moves, finished) in stored.items():
        if len(moves) <= at_kill.get(game, 0) and not finished:
            problems.append(f"game {game} did not move after the kill (at {len(moves)} moves)")
    return problems, sum(len(moves) for _, moves, _ in stored.values())


def kills(server: str, runs: int, games: int, lease: float, seed: int) -> dict[str, float]:
    """Runs ``runs`` kills of a random node under play, checking each; gets the totals."""
    rng = random.Random(seed)
    failures = acked = stored = 0
    for number in range(runs):
        with database(server) as dsn:
            nodes = Nodes(dsn, 3, lease)
            try:
                rows = create_games(nodes.ports[number % 3], games, ["human"] * 4)
                played = Played()
                run = asyncio.run(_kill_under_play(nodes, rows, played, rng))
                problems, moves = _check(dsn, played, run["at_kill"])
            finally:
                nodes.stop()
        failures += bool(problems)
        acked, stored = acked + len(played.acked), stored + moves
        status = "ok" if not problems else f"{len(problems)} PROBLEMS"
        print(
            f"kill {number + 1}: node{run['victim']} after {run['kill_after']:.2f} s, {len(played.acked)} acked,"
            f" {moves} stored: {status}",
            flush=True,
        )
        for problem in problems[:10]:
            print(f"    {problem}", flush=True)
    return {"runs": runs, "runs_with_problems": failures, "acked_moves_checked": acked, "moves_stored": stored}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--dsn", help="a PostgreSQL cluster to create the databases on (default: start one here)")
    parser.add_argument("--parts", default="scale,takeover", help="which parts, of scale,takeover,kills")
    parser.add_argument("--seated", type=int, default=100, help="games of 4 client seats for the scale part (100)")
    parser.add_argument("--seconds", type=float, default=15.0, help="each scale window, in seconds (default 15)")
    parser.add_argument("--rate", type=float, default=500.0, help="the paced rate, moves a second (default 500)")
    parser.add_argument("--kills", type=int, default=0, help="runs of kill -9 (default 0; with it, kills runs)")
    parser.add_argument("--games", type=int, default=10, help="games in play at each kill (default 10)")
    parser.add_argument("--lease", type=float, default=2.0, help="the nodes' lease in the kills part (default 2 s)")
    parser.add_argument("--seed", type=int, default=42, help="seed for the kill moments, nodes and moves")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the node processes too, in the finally blocks
    parts = set(options.parts.split(",")) | ({"kills"} if options.kills else set())
    if not parts <= {"scale", "takeover", "kills"} or not 1 <= options.seconds <= 300:
        parser.error("--parts names scale, takeover and kills; --seconds is 1 to 300")
    results: dict[str, Any] = {}
    with cluster(options.dsn) as server:
        if "scale" in parts:
            results["scale"] = scale(server, options.seated, options.seconds, options.rate)
        if "takeover" in parts:
            results["takeover"] = takeover(server)
        if "kills" in parts:
            results["kills"] = kills(server, max(1, options.kills), options.games, options.lease, options.seed)
    print(f"load average at the end: {' '.join(map(str, os.getloadavg()))} ({os.cpu_count()} cores)")
    json.dump(results, sys.stdout, indent=2)
    print()
    return 1 if results.get("kills", {}).get("runs_with_problems") else 0


if __name__ == "__main__":
    sys.exit(main())
