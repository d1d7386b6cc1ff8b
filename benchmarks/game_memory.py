"""What a whole game holds in memory once it is over, when every state of it was shown, as a server shows them.

    python benchmarks/game_memory.py [--games 20] [--players 2] [--preset trains]

Each game is played to its end by random legal moves (seeds 1, 2, ...); after every move the
spectator's view is written as JSON and each seat's view is made, as ``chickenfoot serve`` does
for a game with a watcher and its bots. The figure is what tracemalloc counts as still allocated
once the games are over and kept, a game at a time (the cycle collector run first, which also
empties Python's free lists). A game keeps its finished rounds bare (their histories packed, no
views); the last round, the game's ``round``, stays as it was shown.
"""

from __future__ import annotations

import argparse
import gc
import random
import tracemalloc

import chickenfoot as cf


def play_shown(rules: cf.Rules, players: int, seed: int) -> cf.GameState:
    """Plays a game to its end by random legal moves, showing every state to a spectator and to each seat."""
    game = cf.new_game(rules, players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        game = cf.apply(game, rng.choice(cf.legal_moves(game)))
        cf.to_json(cf.spectate(game))
        for seat in range(players):
            cf.observe(game, seat)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games kept (default 20)")
    parser.add_argument("--players", type=int, default=2, help="players a game (default 2)")
    parser.add_argument("--preset", choices=["trains", "cross"], default="trains", help="the rules (default trains)")
    options = parser.parse_args()
    rules = cf.Rules.trains() if options.preset == "trains" else cf.Rules.cross()
    play_shown(rules, options.players, 0)  # the shared move tables and the modules, made before counting
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    games = [play_shown(rules, options.players, seed) for seed in range(1, options.games + 1)]
    gc.collect()
    held = (tracemalloc.get_traced_memory()[0] - before) / len(games)
    moves = sum(len(game.history) for game in games) / len(games)
    print(
        f"{options.preset}, {options.players} players: {held / 1024:.1f} KB a finished game "
        f"({moves:.0f} moves, {held / moves:.0f} bytes a move), {len(games)} games"
    )


if __name__ == "__main__":
    main()
