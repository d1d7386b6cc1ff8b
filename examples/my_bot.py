"""A complete Chicken Foot bot in about twenty lines, and a series against the library's bots.

A bot is a function from a :class:`chickenfoot.PlayerView` (what one seat may know) to a move.
Each seat sees only ``observe(game, seat)``, so no bot can peek at other hands or the yard.
"""

from __future__ import annotations

from collections.abc import Sequence

import chickenfoot as cf
from chickenfoot.bots import Bot, GreedyBot, RandomBot


def heavy_bot(view: cf.PlayerView) -> cf.Move:
    """Plays the heaviest playable tile, doubles first on ties; draws or passes only when it must."""
    plays = [move for move in view.legal_moves if isinstance(move, cf.Play)]
    if not plays:
        return view.legal_moves[0]  # a Draw or a Pass: the rules leave only this (DRAW-1, DRAW-4, YARD-2)
    value = view.rules.tile_value  # SET-2: what a tile would cost if left in hand (SCORE-1)
    return max(plays, key=lambda play: (value(play.tile), play.tile.is_double))


def make_heavy_bot() -> Bot:
    """Makes ``heavy_bot``, so the command line can seat it by name:
    ``chickenfoot tournament --bots "py:examples/my_bot.py:make_heavy_bot,greedy"``."""
    return heavy_bot


def match(bots: Sequence[Bot], seed: int) -> tuple[int, ...]:
    """Plays one game, each seat's bot seeing only its own view; returns the final totals."""
    game = cf.new_game(cf.Rules.trains(), players=len(bots), seed=seed)
    while not game.is_over:
        seat = game.current_player
        assert seat is not None  # only None once the game is over
        game = cf.apply(game, bots[seat](cf.observe(game, seat)))
    return game.totals


def main() -> None:
    """Plays a short series and prints each seat's points (lower is better)."""
    # A plain function is a Bot (called with a view, returns a move), so heavy_bot sits at the
    # table next to the library's own bots.
    series = [match([heavy_bot, RandomBot(seed), RandomBot(seed + 1), GreedyBot()], seed) for seed in range(10)]
    points = [sum(totals[seat] for totals in series) for seat in range(4)]
    print("points over 10 games:", ", ".join(f"seat {seat}: {p}" for seat, p in enumerate(points)))
    print("seats 1-2: RandomBot, seat 3: GreedyBot")
    print("heavy_bot (seat 0) " + ("won the series" if points[0] == min(points) else "did not win the series"))


if __name__ == "__main__":
    main()
