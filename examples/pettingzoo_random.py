"""Plays a game of Chicken Foot in PettingZoo with a random policy that respects the action mask.

Run with::

    python -m pip install ".[pettingzoo]"   # from a checkout; "chickenfoot[pettingzoo]" once on PyPI
    python examples/pettingzoo_random.py --players 4 --seed 1
"""

from __future__ import annotations

import argparse

from chickenfoot import actions
from chickenfoot.pettingzoo import env


def main() -> None:
    """Plays a whole game and prints each agent's total reward."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=["trains", "cross"], default="trains")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = env(preset=args.preset, players=args.players)
    game.reset(seed=args.seed)
    for agent in game.possible_agents:
        game.action_space(agent).seed(args.seed)
    earned = dict.fromkeys(game.possible_agents, 0.0)
    steps = 0
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        earned[agent] += float(reward)
        if termination or truncation:
            game.step(None)
            continue
        action = int(game.action_space(agent).sample(observation["action_mask"]))
        if steps < 5:
            print(agent, actions.describe(action, game.rules))
        game.step(action)
        steps += 1
    assert game.game is not None
    print(f"{steps} steps; totals {game.game.totals}; winners {game.game.winners}")
    print("rewards:", earned)


if __name__ == "__main__":
    main()
