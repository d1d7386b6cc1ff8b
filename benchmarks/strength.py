"""Measures SearchBot against three GreedyBots: mean score per round and win rate, with 95% CIs.

    PYTHONPATH=src python benchmarks/strength.py --games 500 --simulations 100 --workers 2

Seats rotate game by game, and every game is seeded, so the figures reproduce exactly.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import attrs

import chickenfoot as cf


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args()
    search = f"search:{args.simulations}"
    lineup = [search, args.opponent, args.opponent, args.opponent]
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 25 == 0 or done == total:
            print(f"{done}/{total} games, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    result = cf.run_tournament(lineup, args.games, seed=args.seed, workers=args.workers, progress=progress)
    rows = [attrs.asdict(standing) for standing in result.standings]
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {"lineup": lineup, "games": args.games, "seed": args.seed, "seconds": round(seconds), "standings": rows},
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
