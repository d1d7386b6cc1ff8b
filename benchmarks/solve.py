"""How fast solve finds the exact value of endgames: seconds and nodes per second by tiles left in all hands.

    python benchmarks/solve.py [--positions 20] [--tiles 8 10 12] [--climb 10] [--max-nodes 20000000]

The endgames come from real deals (round 0 of ``new_game``, seeds 0, 1, ...), played by
GreedyBot at even seeds and by random moves at odd ones until the hands hold ``--tiles`` tiles
between them; a deal whose round ends first is skipped. Each is solved for the player to move,
margin objective, with a fresh table. Four settings: two players on double-6 and four on
double-9, both presets. CPU time of this process (one core), so run it on the compiled build
(``pip install .``) alone on the machine, as users would run it.

With ``--climb SECONDS`` it goes on past the largest ``--tiles`` two tiles at a time, per
setting, until a class's 90th percentile passes SECONDS, and reports the largest class under
it. A solve is stopped at ``--max-nodes`` (counted as over any limit) so that one runaway
position cannot hold the run up.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import chickenfoot as cf
from chickenfoot.bots import GreedyBot

SETTINGS = (
    ("2-player double-6, trains", cf.Rules.trains(max_pip=6), 2),
    ("2-player double-6, cross", cf.Rules.cross(max_pip=6), 2),
    ("4-player double-9, trains", cf.Rules.trains(), 4),
    ("4-player double-9, cross", cf.Rules.cross(), 4),
)


@dataclass
class Row:
    """One setting's class of endgames: what solving them cost."""

    setting: str
    tiles: int
    positions: int
    median_s: float
    p90_s: float
    max_s: float
    nodes_per_s: float
    unproven: int


def endgames(rules: cf.Rules, players: int, tiles: int, count: int) -> Iterator[cf.RoundState]:
    """Yields ``count`` positions of round 0 with ``tiles`` tiles in all hands (at most as many as were dealt), reached
    by GreedyBot or random play."""
    bot = GreedyBot()
    found = 0
    seed = 0
    while found < count:
        game = cf.new_game(rules, players, seed=seed)
        rng = random.Random(seed)
        greedy = seed % 2 == 0
        seed += 1
        while game.round_index == 0 and sum(map(len, game.round.hands)) > tiles:
            assert game.current_player is not None
            moves = cf.legal_moves(game)
            move = bot(cf.observe(game, game.current_player)) if greedy else rng.choice(moves)
            game = cf.apply(game, move)
        if game.round_index == 0 and not game.round.is_over and sum(map(len, game.round.hands)) == tiles:
            found += 1
            yield game.round


def measure(setting: str, rules: cf.Rules, players: int, tiles: int, count: int, max_nodes: int) -> Row:
    """Solves ``count`` endgames of one class and sums up their times."""
    times: list[float] = []
    nodes = 0
    unproven = 0
    for state in endgames(rules, players, tiles, count):
        start = time.process_time()
        solution = cf.solve(state, max_nodes=max_nodes)
        times.append(time.process_time() - start)
        nodes += solution.nodes
        unproven += not solution.proven
    times.sort()
    return Row(
        setting=setting,
        tiles=tiles,
        positions=count,
        median_s=statistics.median(times),
        p90_s=times[max(0, -(-9 * count // 10) - 1)],  # the smallest time at or above 90% of them
        max_s=times[-1],
        nodes_per_s=nodes / max(sum(times), 1e-9),
        unproven=unproven,
    )


def show(row: Row) -> None:
    """Prints one row of the table."""
    print(
        f"{row.setting:27} {row.tiles:5} {row.positions:9} {row.median_s:9.3f} {row.p90_s:9.3f} {row.max_s:9.3f}"
        f" {row.nodes_per_s:12,.0f} {row.unproven:8}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=20, help="endgames per class")
    parser.add_argument("--tiles", type=int, nargs="+", default=[8, 10, 12], help="the classes: tiles in all hands")
    parser.add_argument("--climb", type=float, default=None, help="find the largest class with p90 under SECONDS")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="stop a solve after this many nodes")
    parser.add_argument("--only", default=None, help="only the settings whose name holds this text")
    parser.add_argument("--json", type=Path, default=None, help="also write the rows to this file")
    args = parser.parse_args()
    print(f"{'compiled' if cf.__compiled__ else 'pure Python'} build, CPU seconds of one core, margin objective")
    print(
        f"{'setting':27} {'tiles':>5} {'positions':>9} {'median s':>9} {'p90 s':>9} {'max s':>9}"
        f" {'nodes/s':>12} unproven"
    )
    rows: list[Row] = []
    largest: dict[str, int | None] = {}
    for setting, rules, players in SETTINGS:
        if args.only is not None and args.only not in setting:
            continue
        for tiles in args.tiles:
            rows.append(measure(setting, rules, players, tiles, args.positions, args.max_nodes))
            show(rows[-1])
        if args.climb is None:
            continue
        under = [row.tiles for row in rows if row.setting == setting and row.p90_s < args.climb and not row.unproven]
        largest[setting] = max(under, default=None)
        tiles = max(args.tiles)
        dealt = sum(map(len, cf.new_game(rules, players, seed=0).round.hands))
        while rows[-1].p90_s < args.climb and not rows[-1].unproven and tiles + 2 <= dealt:
            tiles += 2
            rows.append(measure(setting, rules, players, tiles, args.positions, args.max_nodes))
            show(rows[-1])
            if rows[-1].p90_s < args.climb and not rows[-1].unproven:
                largest[setting] = tiles
    for setting, tiles in largest.items():
        print(f"{setting}: the largest class with 90% of its endgames solved under {args.climb} s: {tiles} tiles")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
