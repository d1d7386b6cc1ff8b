"""Measures SearchBot against three GreedyBots: mean score per round and win rate, with 95% CIs.

    PYTHONPATH=src python benchmarks/strength.py --games 500 --simulations 100 --workers 2

These are the games of ``chickenfoot tournament --bots search:100,greedy,greedy,greedy --games 500
--seed 0`` (same seeds, seats rotated, same standings); this script also appends each finished game
to ``--log`` as a JSON line and resumes from it, so a long run can be stopped and continued.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs

import chickenfoot as cf
import chickenfoot.tournament


def _play(task: tuple[tuple[str, ...], int, int]) -> cf.tournament.GameOutcome:
    lineup, seed, index = task
    return cf.tournament.play_game(cf.Rules.trains(), lineup, seed, index)


def _load(log: Path) -> dict[int, cf.tournament.GameOutcome]:
    done: dict[int, cf.tournament.GameOutcome] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            data = json.loads(line)
            done[data["index"]] = cf.tournament.GameOutcome(
                index=data["index"],
                seed=data["seed"],
                seats=tuple(data["seats"]),
                round_scores=tuple(tuple(scores) for scores in data["round_scores"]),
                totals=tuple(data["totals"]),
                winners=tuple(data["winners"]),
            )
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--log", type=Path, default=None, help="JSON-lines file of finished games (resumed)")
    args = parser.parse_args()
    lineup = (f"search:{args.simulations}", args.opponent, args.opponent, args.opponent)
    log = args.log or Path(f"strength-{lineup[0].replace(':', '')}-{args.seed}.jsonl")
    done = _load(log)
    todo = [(lineup, args.seed, index) for index in range(args.games) if index not in done]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool, log.open("a") as sink:
        for outcome in pool.map(_play, todo):
            done[outcome.index] = outcome
            sink.write(json.dumps(attrs.asdict(outcome)) + "\n")
            sink.flush()
            if len(done) % 25 == 0:
                print(f"{len(done)}/{args.games} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    outcomes = tuple(done[index] for index in sorted(done) if index < args.games)
    result = cf.tournament.TournamentResult(rules=cf.Rules.trains(), lineup=lineup, seed=args.seed, outcomes=outcomes)
    # Paired by game: the search seat's mean round score minus the other seats' mean.
    differences = []
    for outcome in outcomes:
        search = [seat for seat, entry in enumerate(outcome.seats) if entry == 0]
        others = [seat for seat, entry in enumerate(outcome.seats) if entry != 0]
        mean = [
            sum(scores[s] for scores in outcome.round_scores for s in seats) / (len(seats) * len(outcome.round_scores))
            for seats in (search, others)
        ]
        differences.append(mean[0] - mean[1])
    half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else math.nan
    report = {
        "lineup": list(lineup),
        "games": len(outcomes),
        "seed": args.seed,
        "standings": [attrs.asdict(standing) for standing in result.standings],
        "paired_difference": {"mean": statistics.fmean(differences), "ci95": half},
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
