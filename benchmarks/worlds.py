"""What a search bot's world costs: a fresh determinize against one view's Worlds sampled many times.

    python benchmarks/worlds.py [--games 20] [--samples 20] [--repeat 5]

The views are those GreedyBots face in the first round of four-player games, trains and cross
alternately (every fifth move). ``determinize`` checks the view, reads its history and builds a
public game for each world; :class:`~chickenfoot._game._determinize.Worlds` does the first two once a
view, as the search bots do once a decision (``--samples`` worlds: SearchBot's default is 20).
CPU time of this process; the medians of ``--repeat`` runs. Run it on the compiled build
(``pip install .``) to time what users run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import chickenfoot as cf
from chickenfoot._core import COMPILED
from chickenfoot._game._determinize import Worlds
from chickenfoot.bots import GreedyBot


def views(games: int) -> list[cf.PlayerView]:
    """Gets every fifth view GreedyBots face in the first round of ``games`` four-player games."""
    bot = GreedyBot()
    found = []
    for seed in range(games):
        game = cf.new_game(cf.Rules.trains() if seed % 2 else cf.Rules.cross(), 4, seed=seed)
        for step in range(1_000):
            if game.current_player is None or game.round_index > 0:
                break
            view = cf.observe(game, game.current_player)
            if step % 5 == 0:
                found.append(view)
            game = cf.apply(game, bot(view))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--samples", type=int, default=20, help="worlds sampled from each view")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sampled = views(args.games)
    worlds = len(sampled) * args.samples
    fresh, reused = [], []
    for _ in range(args.repeat):
        rng = random.Random(0)
        start = time.process_time()
        for view in sampled:
            for _ in range(args.samples):
                cf.determinize(view, rng)
        fresh.append((time.process_time() - start) / worlds * 1e6)
        rng = random.Random(0)
        start = time.process_time()
        for view in sampled:
            sample = Worlds(view).sample
            for _ in range(args.samples):
                sample(rng)
        reused.append((time.process_time() - start) / worlds * 1e6)
    a, b = statistics.median(fresh), statistics.median(reused)
    build = "compiled" if COMPILED else "pure"
    print(f"{build} build, {len(sampled)} views, {args.samples} worlds a view, median of {args.repeat} runs:")
    print(f"  determinize for each world:  {a:6.0f} µs a world")
    print(f"  one Worlds a view, sampled:  {b:6.0f} µs a world ({a / b:.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
