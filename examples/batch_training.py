"""Trains a masked linear softmax policy with REINFORCE on the batched vector environment (numpy only).

The learner plays seat 0 of single rounds of the *trains* rules (double-6, 2 players) against a
vectorized random opponent, 256 games at a time. Before and after training it plays
``--test-rounds`` rounds with its most likely action to measure the share of rounds it wins
(the lower round score wins; a tie counts half). Run it::

    python examples/batch_training.py                     # a few seconds: a smoke run
    python examples/batch_training.py --iterations 60     # about a minute of CPU: the figures in the docs

A deliberately tiny learner (one weight matrix, no deep-learning library): the point is the
loop over ``BatchVectorEnv``. Any masked policy-gradient library fits the same loop; MaskablePPO
reads ``env.action_masks()``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numpy.typing import NDArray

import chickenfoot as cf
from chickenfoot.actions import action_count
from chickenfoot.batch.env import BatchVectorEnv
from chickenfoot.observation import observation_size


def policy(weights: NDArray[np.float64], obs: NDArray[np.float32], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Gets the action probabilities: a softmax over the legal actions of ``obs @ weights``."""
    logits = np.where(mask, obs @ weights, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def win_share(env: BatchVectorEnv, weights: NDArray[np.float64], rounds: int) -> float:
    """Plays ``rounds`` rounds greedily with the policy; returns the learner's share of the wins."""
    obs, infos = env.reset(seed=12345)
    total, played = 0.0, 0
    while played < rounds:
        actions = np.argmax(policy(weights, obs, infos["action_mask"]), axis=1)
        obs, rewards, terminated, _, infos = env.step(actions)
        total += float((rewards[terminated] + 1).sum() / 2)  # win 1, tie 0.5, loss 0 (2 players)
        played += int(terminated.sum())
    return total / played


def train(iterations: int, envs: int, steps: int, rate: float, test_rounds: int) -> None:
    """Runs REINFORCE with a mean-reward baseline and prints the learner's win share before and after."""
    rules = cf.Rules.trains(max_pip=6)
    env = BatchVectorEnv(num_envs=envs, rules=rules, players=2, opponent="random", single_round=True)
    test_env = BatchVectorEnv(num_envs=1024, rules=rules, players=2, opponent="random", single_round=True)
    weights = np.zeros((observation_size(rules, 2), action_count(rules)))
    before = win_share(test_env, weights, test_rounds)
    print(f"win share before training: {before:.3f} (zero weights: always the lowest-numbered legal action)")
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=0)
    episode = np.arange(envs)
    next_episode = envs
    start = time.process_time()
    moves = 0
    for iteration in range(iterations):
        samples: list[tuple[NDArray[np.float32], NDArray[np.float64], NDArray[np.intp], NDArray[np.intp]]] = []
        returns: dict[int, float] = {}
        for _ in range(steps):
            mask = infos["action_mask"]
            odds = policy(weights, obs, mask)
            actions = (odds.cumsum(axis=1) > rng.random((envs, 1))).argmax(axis=1)
            samples.append((obs, odds, actions, episode.copy()))
            obs, rewards, terminated, _, infos = env.step(actions)
            moves += envs
            for i in np.flatnonzero(terminated):
                returns[int(episode[i])] = float(rewards[i])
                episode[i] = next_episode
                next_episode += 1
        baseline = float(np.mean(list(returns.values()))) if returns else 0.0
        gradient = np.zeros_like(weights)
        for observed, odds, actions, episodes in samples:
            advantage = np.array([returns.get(int(e), np.nan) for e in episodes]) - baseline
            done = ~np.isnan(advantage)
            step_gradient = -odds[done]
            step_gradient[np.arange(done.sum()), actions[done]] += 1  # d log p(action) / d logits
            gradient += observed[done].T @ (step_gradient * advantage[done, None])
        weights += rate * gradient / max(1, len(returns))
        if iteration % 10 == 0 or iteration == iterations - 1:
            print(f"iteration {iteration:3d}: {len(returns)} rounds, mean reward {baseline:+.3f}")
    elapsed = time.process_time() - start
    print(f"trained on {moves:,} learner moves in {elapsed:.1f} s of CPU ({moves / elapsed:,.0f} learner moves/s)")
    print(f"win share after training: {win_share(test_env, weights, test_rounds):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--steps", type=int, default=32)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--test-rounds", type=int, default=1024)
    args = parser.parse_args()
    train(args.iterations, args.envs, args.steps, args.rate, args.test_rounds)


if __name__ == "__main__":
    main()
