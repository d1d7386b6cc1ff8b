"""Build a house-rules variant, check it, and play it.

The variant: a double-12 set, a six-arm "double chicken foot" center, 0-0 worth 25, going out on a
double costs 50, and a chicken foot that can no longer be filled ends the round at once.
"""

from __future__ import annotations

import random

import attrs

import chickenfoot as cf


def house_rules() -> cf.Rules:
    """Builds the variant from the *cross* preset; every option is a keyword."""
    return cf.Rules.cross(
        max_pip=12,  # SET-1: a double-12 set, so 13 rounds from 12-12 down to 0-0
        center_arms=6,  # OPEN-1: the "double chicken foot" center
        double_blank_value=25,  # SET-2 / SCORE-2: 0-0 left in hand scores 25
        double_out_penalty=50,  # going out on a double scores 50 instead of 0
        unfillable_foot_ends_round=True,  # END-2 variant
    )


def main() -> None:
    """Shows what the options change, what the rules refuse, and plays the variant."""
    rules = house_rules()
    print(f"{rules.set_size} tiles, {rules.rounds} rounds, {rules.hand_size_for(6)} tiles each for 6 players")

    # attrs.evolve changes one option of an existing configuration; the original is unchanged.
    strict = attrs.evolve(rules, drawn_tile="must_play")
    print(f"drawn tile: {rules.drawn_tile} in the house rules, {strict.drawn_tile} in the strict ones")

    # A configuration that cannot be dealt is refused with a message saying what to change (DEAL-1).
    try:
        cf.new_game(cf.Rules.cross(max_pip=6), players=5, seed=0)
    except cf.RulesError as error:
        print(f"refused: {error}")

    game = cf.new_game(rules, players=6, seed=2)
    rng = random.Random(2)
    while not game.is_over:
        game = cf.apply(game, rng.choice(cf.legal_moves(game)))
    blocked = sum(result.outcome.termination is not cf.Termination.WENT_OUT for result in game.results)
    print(f"played {len(game.results)} rounds ({blocked} blocked); totals {game.totals}; winners {game.winners}")


if __name__ == "__main__":
    main()
