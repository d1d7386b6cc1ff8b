"""Plays whole random games for counting CPU instructions with callgrind, which load does not disturb.

Count the games, then the imports alone, and divide the difference by the moves printed::

    valgrind --tool=callgrind python3.11 benchmarks/instructions.py
    valgrind --tool=callgrind python3.11 benchmarks/instructions.py --imports-only

(Name the interpreter itself, not a shim script such as pyenv's ``python``.) With
``PYTHONPATH=src`` it counts this checkout's pure core; installed with ``pip install .`` in a venv,
the compiled one; ``git archive REV src/chickenfoot`` extracted elsewhere, an older engine.
"""

from __future__ import annotations

import random
import sys

import chickenfoot as cf


def play(games: int) -> int:
    """Plays ``games`` random *trains* double-9 4-player games (seeds 0, 1, ...); gets the moves made."""
    rules, rng, moves = cf.Rules.trains(), random.Random(1), 0
    for seed in range(games):
        game = cf.new_game(rules, 4, seed)
        while legal := cf.legal_moves(game):
            game = cf.apply(game, legal[int(rng.random() * len(legal))])
            moves += 1
    return moves


if __name__ == "__main__":
    print(0 if "--imports-only" in sys.argv else play(40))
