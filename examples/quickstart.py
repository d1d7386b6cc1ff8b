"""Play one game of Chicken Foot between random players and show how it went.

Run it from a clone with ``PYTHONPATH=src python examples/quickstart.py`` (or after installing).
"""

from __future__ import annotations

import random

import chickenfoot as cf
import chickenfoot.render


def main() -> None:
    """Plays a four-player game of the *trains* preset and prints each round and the winner."""
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)  # deals the first round (9-9)
    rng = random.Random(7)  # the players' choices; the deals come from the game's own seed
    while not game.is_over:
        moves = cf.legal_moves(game)  # never empty until the game is over
        game = cf.apply(game, rng.choice(moves))  # a new state: the old one is unchanged

    # Each finished round keeps its final state, so its board can still be drawn.
    last = game.results[-1]
    print(f"The last round started with {last.double}-{last.double}:")
    print(cf.render.render_text(last.final))
    for number, result in enumerate(game.results, start=1):
        print(f"round {number:2}: {result.outcome!s:20} scores {result.scores}")  # "P2 went out", "blocked"
    print(f"totals {game.totals}; {game.outcome}")  # "P1 won": the lowest total wins


if __name__ == "__main__":
    main()
