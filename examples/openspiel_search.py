"""Plays one round of Chicken Foot in OpenSpiel: ISMCTS against MCTS against a random player.

ISMCTS searches over the information state, resampling hidden tiles through
``chickenfoot.determinize``; plain MCTS searches the true state (it peeks at every hand), so it
is an upper bound, not a fair opponent. Run with::

    python -m pip install ".[openspiel]"   # from a checkout; "chickenfoot[openspiel]" once on PyPI
    python examples/openspiel_search.py --simulations 100
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import chickenfoot.openspiel  # noqa: F401  (registers "python_chickenfoot")


def main() -> None:
    """Plays the round and prints each decision and the returns."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=["trains", "cross"], default="cross")
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = pyspiel.load_game("python_chickenfoot", {"preset": args.preset, "players": 3, "rounds": 1})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = {
        # OpenSpiel's Python ISMCTS; its C++ ISMCTSBot segfaults on Python games (python_kuhn_poker too).
        0: ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng),
        1: mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator, random_state=rng),
    }
    names = {0: "ismcts", 1: "mcts", 2: "random"}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=weights)))
            continue
        player = state.current_player()
        bot = bots.get(player)
        action = bot.step(state) if bot is not None else int(rng.choice(state.legal_actions()))
        print(f"{names[player]:>6} (p{player}): {state.action_to_string(player, action)}")
        state.apply_action(action)
    print("returns:", dict(zip(names.values(), state.returns(), strict=True)))


if __name__ == "__main__":
    main()
