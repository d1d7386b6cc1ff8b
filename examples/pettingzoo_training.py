"""Trains a masked linear softmax policy by REINFORCE in self-play on the PettingZoo environment.

A minimal, numpy-only training loop that shows the pieces an RL library needs: the observation
vector, the action mask (illegal actions get probability 0), per-agent rewards, and episodes
that end with every agent terminated. Run with::

    python -m pip install ".[pettingzoo]"   # from a checkout; "chickenfoot[pettingzoo]" once on PyPI
    python examples/pettingzoo_training.py --episodes 50
"""

from __future__ import annotations

import argparse

import numpy as np
from numpy.typing import NDArray

from chickenfoot.pettingzoo import env

Vector = NDArray[np.float64]


def policy(weights: Vector, features: Vector, mask: NDArray[np.int8]) -> Vector:
    """Gets action probabilities: a softmax over the legal actions' scores."""
    scores = weights @ features
    scores = np.where(mask == 1, scores, -np.inf)
    scores -= scores.max()
    probabilities: Vector = np.exp(scores)
    normalized: Vector = probabilities / probabilities.sum()
    return normalized


def main() -> None:
    """Trains for a few episodes and prints the mean reward of seat 0 per block of episodes."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=50)
    parser.add_argument("--learning-rate", type=float, default=0.01)
    args = parser.parse_args()

    game = env(preset="cross", players=2, rounds=1, reward="score")
    rng = np.random.default_rng(0)
    shape = game.observation_space("player_0")["observation"].shape
    assert shape is not None
    size = shape[0]
    actions = int(game.action_space("player_0").n)
    weights = np.zeros((actions, size))  # one policy shared by every seat (relative observations)
    recent: list[float] = []
    for episode in range(args.episodes):
        game.reset(seed=episode)
        trajectory: dict[str, list[tuple[Vector, NDArray[np.int8], int]]] = {a: [] for a in game.possible_agents}
        returns = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            observation, reward, termination, truncation, _ = game.last()
            returns[agent] += float(reward)
            if termination or truncation:
                game.step(None)
                continue
            features = observation["observation"].astype(np.float64) / 10.0
            mask = observation["action_mask"]
            action = int(rng.choice(actions, p=policy(weights, features, mask)))
            trajectory[agent].append((features, mask, action))
            game.step(action)
        # REINFORCE: push up the log-probability of each action taken, scaled by the return.
        for agent, steps in trajectory.items():
            for features, mask, action in steps:
                gradient = -np.outer(policy(weights, features, mask), features)
                gradient[action] += features
                weights += args.learning_rate * returns[agent] * gradient / max(1, len(steps))
        recent.append(returns["player_0"])
        if (episode + 1) % 10 == 0:
            print(f"episodes {episode - 8:>4}-{episode + 1:<4} mean reward of player_0: {np.mean(recent):+.1f}")
            recent.clear()


if __name__ == "__main__":
    main()
