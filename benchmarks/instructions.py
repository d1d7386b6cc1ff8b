"""Plays whole random games for counting CPU instructions with callgrind, which load does not disturb.

Count the games, then the imports and the warm-up alone, and divide the difference by the moves
printed::

    valgrind --tool=callgrind python3.11 benchmarks/instructions.py
    valgrind --tool=callgrind python3.11 benchmarks/instructions.py --warm-up-only

Both first play five games of other seeds, so the count is of an engine in its steady state (the
interned public moves made), as in a long self-play run. With ``--determinize`` (and
``--determinize --warm-up-only``) it counts calls of :func:`chickenfoot.determinize` instead: on
the positions ``benchmarks/flavours.py`` times, once each to warm up, then three times each; it
prints the calls counted.

(Name the interpreter itself, not a shim script such as pyenv's ``python``.) With
``PYTHONPATH=src`` it counts this checkout's pure core; installed with ``pip install .`` in a venv,
the compiled one; ``git archive REV src/chickenfoot`` extracted elsewhere, an older engine.
"""

from __future__ import annotations

import random
import sys

from flavours import call_positions  # this script's directory is on the path

import chickenfoot as cf


def play(games: int, first_seed: int = 0) -> int:
    """Plays ``games`` random *trains* double-9 4-player games (seeds ``first_seed``, ...); gets the moves made."""
    rules, rng, moves = cf.Rules.trains(), random.Random(1), 0
    for seed in range(first_seed, first_seed + games):
        game = cf.new_game(rules, 4, seed)
        while legal := cf.legal_moves(game):
            game = cf.apply(game, legal[int(rng.random() * len(legal))])
            moves += 1
    return moves


def determinize(positions: int = 30, repeat: int = 3) -> int:
    """Calls ``determinize`` ``repeat`` times on each view of the flavours benchmark's positions; gets the calls."""
    views = [cf.observe(game, game.round.current_player) for game in call_positions(cf, positions)]
    sampler = random.Random(7)
    for view in views:
        cf.determinize(view, sampler)
    for _ in range(repeat):
        for view in views:
            cf.determinize(view, sampler)
    return repeat * len(views)


if __name__ == "__main__":
    warm_up_only = "--warm-up-only" in sys.argv
    if "--determinize" in sys.argv:
        print(determinize(repeat=0 if warm_up_only else 3))
    else:
        play(5, first_seed=1000)
        print(0 if warm_up_only else play(40))
