"""What each part of SolverBot adds: a ladder of SolverBot with and without inference, RolloutBot and SearchBot.

    python benchmarks/solver_parts.py --ms 10 --players 4 --preset trains --deals 10 --workers 1

Plays one ladder (chickenfoot.tournament.run_ladder, duplicate deals, every rotation of the seats)
between ``solver`` (exact endgames and inference, ``infer=True``), ``solver`` without inference
(the default), ``rollout``
(the same search before the endgame, no exact solving) and ``search``, each with ``--ms``
milliseconds of CPU time a move, and prints the paired comparisons by round and by game
(rating difference with its interval, and mean totals per game). SolverBot without inference
less RolloutBot is what exact solving adds; SolverBot less SolverBot without inference is what
inference adds. Run it on the compiled build (``pip install .``).
"""

from __future__ import annotations

import argparse
import statistics

import chickenfoot as cf
from chickenfoot.bots import Bot, RolloutBot, SearchBot, SolverBot
from chickenfoot.tournament import run_ladder


def main() -> int:
    """Plays the ladder and prints the comparisons."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--ms", type=int, default=10, help="CPU milliseconds a move for every search bot")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--preset", choices=["trains", "cross"], default="trains")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", default=None, help="append each game to this file and resume from it")
    args = parser.parse_args()
    seconds = args.ms / 1000
    bots: dict[str, Bot] = {
        "solver": SolverBot(seconds=seconds, infer=True),
        "solver-no-inference": SolverBot(seconds=seconds),
        "rollout": RolloutBot(seconds=seconds),
        "search": SearchBot(seconds=seconds),
    }
    for name, bot in bots.items():
        bot.name = name  # type: ignore[attr-defined]  # the name standings show
    rules = cf.Rules.preset(args.preset)
    result = run_ladder(
        list(bots.values()),
        args.deals,
        rules=rules,
        players=args.players,
        seed=args.seed,
        workers=args.workers,
        log=args.log,
    )
    print(f"{args.preset}, {args.players} players, {args.ms} ms a move, {args.deals} deals, {len(result.games)} games")
    totals: dict[str, list[int]] = {name: [] for name in bots}
    for game in result.games:
        for seat, index in enumerate(game.seating):
            totals[result.bots[index]].append(game.totals[seat])
    for name, got in totals.items():
        half = 1.96 * statistics.stdev(got) / len(got) ** 0.5 if len(got) > 1 else float("nan")
        print(f"  {name:22} mean total per game {statistics.mean(got):7.1f} ± {half:.1f} over {len(got)} games")
    for first, second in [
        ("solver", "rollout"),
        ("solver-no-inference", "rollout"),
        ("solver", "solver-no-inference"),
        ("solver", "search"),
    ]:
        for unit in ("round", "game"):
            c = result.compare(first, second, unit=unit)
            print(
                f"  {first} - {second}, by {unit}: rating {c.rating_difference:+.0f} [{c.low:+.0f}, {c.high:+.0f}],"
                f" score {c.score_difference:+.1f} [{c.score_low:+.1f}, {c.score_high:+.1f}] over {c.deals} deals"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
