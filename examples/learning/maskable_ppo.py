"""Trains sb3-contrib's MaskablePPO on chickenfoot/Trains-v0 and reports its win rate against bots.

The agent takes one seat of a 2-player, one-round game of the *trains* rules (its seat drawn each
episode) and learns from the game reward (1 for a win, -1 for a loss, 0 for a shared win). It
is then played against random and greedy opponents, beside two reference policies in the same
seat and deals (random legal moves, and GreedyBot), each with a 95% confidence interval. First
it runs Stable-Baselines3's own environment checker. Run by hand (it needs torch; not a CI step)::

    # from a checkout ("chickenfoot[gymnasium]" once on PyPI); sb3-contrib brings stable-baselines3 and
    # torch (here: python -m pip install torch==2.13.0 first, the CPU build on disk, not a CUDA download)
    python -m pip install ".[gymnasium]" sb3-contrib
    python examples/learning/maskable_ppo.py --steps 100000 --games 1000
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import torch
from numpy.typing import NDArray
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env

import chickenfoot as cf
import chickenfoot.gymnasium
from chickenfoot import actions
from chickenfoot.bots import GreedyBot, RandomBot

Policy = Callable[[chickenfoot.gymnasium.ChickenfootEnv, NDArray[np.float32]], int]


def make_env(opponents: str, seed: int = 0) -> chickenfoot.gymnasium.ChickenfootEnv:
    """Builds the environment the agent trains and plays in."""
    env = gymnasium.make("chickenfoot/Trains-v0", players=2, rounds=1, history=True, opponents=opponents)
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, chickenfoot.gymnasium.ChickenfootEnv)
    return unwrapped


def win_rate(env: chickenfoot.gymnasium.ChickenfootEnv, policy: Policy, games: int) -> tuple[float, float]:
    """Plays ``games`` episodes (the same deals for every policy); gets the mean win share and its 95% CI."""
    shares = []
    for game in range(games):
        observation, _ = env.reset(seed=10**6 + game)
        done = False
        while not done:
            observation, _, done, _, _ = env.step(policy(env, observation))
        assert env.game is not None
        won = env.game.winners or cf.decide_winners(env.rules, env.game.totals, env.game.results)
        shares.append(1 / len(won) if env.seat in won else 0.0)
    mean = float(np.mean(shares))
    return mean, 1.96 * float(np.std(shares, ddof=1)) / math.sqrt(games)


def bot_policy(bot: cf.bots.Bot) -> Policy:
    """Plays a library bot in the agent's seat, through the action numbering."""

    def play(env: chickenfoot.gymnasium.ChickenfootEnv, observation: NDArray[np.float32]) -> int:
        assert env.game is not None
        return actions.encode(bot(cf.observe(env.game, env.seat)), env.game)

    return play


def main() -> None:
    """Checks the env with SB3, trains, and prints a table of win rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="training steps (agent decisions)")
    parser.add_argument("--games", type=int, default=1000, help="evaluation games per opponent")
    parser.add_argument("--train-against", default="random", help="the opponent while training: a bot name")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)

    check_env(make_env("greedy"))  # Stable-Baselines3's checker (Gymnasium's runs in the tests)
    print("stable_baselines3 check_env: passed")

    env = make_env(args.train_against)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps:,} steps against {args.train_against} in {time.perf_counter() - started:.0f} s")

    def agent(env: chickenfoot.gymnasium.ChickenfootEnv, observation: NDArray[np.float32]) -> int:
        action, _ = model.predict(observation, action_masks=env.action_masks(), deterministic=True)
        return int(action)

    policies: dict[str, Policy] = {
        "MaskablePPO": agent,
        "GreedyBot (reference)": bot_policy(GreedyBot()),
        "random moves (reference)": bot_policy(RandomBot(seed=args.seed)),
    }
    print(f"win rate per game, 2 players, one round, {args.games} games per cell (95% CI); par is 50%")
    print(f"{'policy':<26}{'vs random':>18}{'vs greedy':>18}")
    for name, policy in policies.items():
        cells = []
        for opponent in ("random", "greedy"):
            mean, half = win_rate(make_env(opponent), policy, args.games)
            cells.append(f"{mean:.1%} ± {half:.1%}")
        print(f"{name:<26}{cells[0]:>18}{cells[1]:>18}")


if __name__ == "__main__":
    main()
