"""A complete Chicken Foot bot in about twenty lines, and a match against random players.

The bot reads only its own legal moves and the rules' tile values. (Once ``chickenfoot.observe``
is available it can take a ``PlayerView`` instead of the whole state; see docs/bots.md.)
"""

from __future__ import annotations

import random

import chickenfoot as cf


def heavy_bot(game: cf.GameState) -> cf.Move:
    """Plays the heaviest playable tile, doubles first on ties; draws or passes only when it must."""
    moves = cf.legal_moves(game)
    plays = [move for move in moves if isinstance(move, cf.Play)]
    if not plays:
        return moves[0]  # a Draw or a Pass: the rules leave only this (DRAW-1, DRAW-4, YARD-2)
    value = game.rules.tile_value  # SET-2: what a tile would cost if left in hand (SCORE-1)
    return max(plays, key=lambda play: (value(play.tile), play.tile.is_double))


def match(seed: int, players: int = 4) -> tuple[int, ...]:
    """Plays seat 0 as ``heavy_bot`` against random players; returns the final totals."""
    rng = random.Random(seed)
    game = cf.new_game(cf.Rules.trains(), players=players, seed=seed)
    while not game.is_over:
        move = heavy_bot(game) if game.current_player == 0 else rng.choice(cf.legal_moves(game))
        game = cf.apply(game, move)
    return game.totals


def main() -> None:
    """Plays a short series and prints each seat's points (lower is better)."""
    series = [match(seed) for seed in range(10)]
    points = [sum(totals[seat] for totals in series) for seat in range(4)]
    print("points over 10 games:", ", ".join(f"seat {seat}: {p}" for seat, p in enumerate(points)))
    print("heavy_bot (seat 0) " + ("won the series" if points[0] == min(points) else "did not win the series"))


if __name__ == "__main__":
    main()
