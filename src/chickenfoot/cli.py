"""The ``chickenfoot`` command line."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from ._engine import apply, legal_moves, new_game
from ._errors import RulesError
from ._render import render_text
from ._rules import Rules

__all__ = ["main"]

PRESETS = {"trains": Rules.trains, "cross": Rules.cross}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chickenfoot", description="Chicken Foot dominoes: a pure rules engine.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    simulate = commands.add_parser(
        "simulate",
        help="play a complete game between random bots and print every round",
        description="Play a complete game between random bots: each round's final layout, scores, the totals.",
    )
    simulate.add_argument("--preset", choices=sorted(PRESETS), default="trains", help="rules preset (default: trains)")
    simulate.add_argument("--players", type=int, default=4, metavar="N", help="number of players (default: 4)")
    simulate.add_argument("--seed", type=int, default=0, metavar="S", help="seed for the deals and the bots")
    return parser


def simulate(preset: str, players: int, seed: int) -> int:
    """Plays one game between seeded random bots and prints it."""
    game = new_game(PRESETS[preset](), players=players, seed=seed)
    chooser = random.Random(seed)
    print(f"Chicken Foot, {preset} rules, {players} players, seed {seed}")
    while not game.is_over:
        game = apply(game, chooser.choice(legal_moves(game)))
    for number, result in enumerate(game.results, start=1):
        ending = f"player {result.went_out} went out" if result.went_out is not None else "blocked"
        print(f"\nRound {number}: {result.double}-{result.double}, {ending}")
        print(render_text(result.final))
        print("scores: " + "  ".join(f"P{seat}={score}" for seat, score in enumerate(result.scores)))
    print("\ntotals: " + "  ".join(f"P{seat}={total}" for seat, total in enumerate(game.totals)))
    names = ", ".join(f"player {seat}" for seat in game.winners)
    print(f"winner{'s' if len(game.winners) > 1 else ''}: {names}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line; returns the exit code (2 for a usage error)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return simulate(args.preset, args.players, args.seed)
    except RulesError as error:
        parser.exit(2, f"{parser.prog} {args.command}: error: {error}\n")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
