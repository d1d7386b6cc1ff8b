"""Trains sb3-contrib's MaskablePPO on the batched vector environment and reports its win rate against bots.

The agent plays seat 0 of ``--envs`` single rounds of the *trains* rules (2 players) at once,
against a vectorized random opponent, and learns from the round's win reward (1 for a win, -1
for a loss, 0 for a tie). Stable-Baselines3 takes its own ``VecEnv``, not a Gymnasium
``VectorEnv``, so a thin adapter (``SB3VecEnv``) translates between the two. The trained
policy (its most likely legal action) then plays ``--games`` rounds against the random and the
greedy opponent, beside random legal moves and the greedy move in the same seat and deals, each
with a Wilson 95% interval. Run by hand (it needs torch; not a CI step)::

    # from a checkout ("chickenfoot[gymnasium]" once on PyPI); sb3-contrib brings stable-baselines3 and
    # torch (here: python -m pip install torch==2.13.0 first, the CPU build on disk, not a CUDA download)
    python -m pip install ".[gymnasium]" sb3-contrib
    python examples/learning/batch_maskable_ppo.py --steps 50000 --games 4096
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray
from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

import chickenfoot as cf
from chickenfoot import batch
from chickenfoot.batch.env import BatchVectorEnv
from chickenfoot.tournament import wilson

Policy = Callable[[BatchVectorEnv, NDArray[np.float32]], NDArray[Any]]


class SB3VecEnv(VecEnv):  # type: ignore[misc,unused-ignore]  # VecEnv is Any where SB3 is not installed
    """Adapts a :class:`BatchVectorEnv` to Stable-Baselines3's ``VecEnv`` interface.

    The two differ in small ways: ``VecEnv.step`` returns ``dones`` and one info dict per game
    (a finished game's last observation under ``"terminal_observation"``), and ``reset`` takes
    its seed from ``seed()``. The vector environment's methods work on all games at once, so
    ``env_method`` calls one once and hands back its rows: ``env_method("action_masks")`` is
    how MaskablePPO gets the masks (``sb3_contrib.common.maskable.utils.get_action_masks``).
    """

    def __init__(self, env: BatchVectorEnv) -> None:
        """Wraps ``env``."""
        self.env = env
        self._actions: NDArray[Any] = np.zeros(env.num_envs, dtype=np.int64)
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self) -> NDArray[Any]:
        """Deals new games, from the seed given to ``seed()`` if any."""
        observations, _ = self.env.reset(seed=self._seeds[0])
        self._reset_seeds()
        return observations

    def step_async(self, actions: NDArray[Any]) -> None:
        """Keeps the actions for ``step_wait``."""
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        """Steps every game; a finished game is already dealt anew (its last observation is in its info)."""
        observations, rewards, terminated, truncated, infos = self.env.step(self._actions)
        dones = terminated | truncated
        game_infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            game_infos[i]["terminal_observation"] = infos["final_obs"][i]
            game_infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return observations, rewards, dones, game_infos

    def close(self) -> None:
        """Closes the vector environment."""
        self.env.close()

    def _games(self, indices: VecEnvIndices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """Gets an attribute of the vector environment, once per game asked for."""
        value = getattr(self.env, attr_name)
        return [value for _ in self._games(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Sets an attribute of the vector environment (it is shared by all its games)."""
        setattr(self.env, attr_name, value)

    def env_method(
        self, method_name: str, *method_args: Any, indices: VecEnvIndices = None, **method_kwargs: Any
    ) -> list[Any]:
        """Calls a method of the vector environment once; gets the rows of its result for the games asked for."""
        rows = getattr(self.env, method_name)(*method_args, **method_kwargs)
        return [rows[i] for i in self._games(indices)]

    def env_is_wrapped(self, wrapper_class: type[Any], indices: VecEnvIndices = None) -> list[bool]:
        """Tells that no game is wrapped (the games are rows of arrays, not Gymnasium environments)."""
        return [False for _ in self._games(indices)]


def games_of(env: BatchVectorEnv) -> batch.Batch:
    """Gets the batch of games a vector environment is playing."""
    assert env.games is not None, "reset() deals the games"
    return env.games


def win_rate(env: BatchVectorEnv, policy: Policy) -> float:
    """Plays the first round of each of the environment's games (the same deals for every policy); gets the win share.

    A won round counts 1, a tied one 1/2 (its reward is 0: the two players share the win).
    """
    observations, _ = env.reset(seed=10**6)
    first = np.full(env.num_envs, np.nan)
    while np.isnan(first).any():
        observations, rewards, terminated, _, _ = env.step(policy(env, observations))
        over = terminated & np.isnan(first)
        first[over] = (rewards[over] + 1) / 2  # 2 players: reward 1, 0 or -1
    return float(first.mean())


def main() -> None:
    """Trains, then prints a table of win rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000, help="training steps (agent decisions, all games)")
    parser.add_argument("--envs", type=int, default=64, help="games stepped at once while training")
    parser.add_argument("--games", type=int, default=4096, help="evaluation rounds per opponent")
    parser.add_argument("--max-pip", type=int, default=6, help="the set: 6 for double-6, 12 for double-12")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    rules = cf.Rules.trains(max_pip=args.max_pip)

    def make_env(opponent: str, games: int) -> BatchVectorEnv:
        return BatchVectorEnv(num_envs=games, rules=rules, players=2, opponent=opponent, single_round=True)

    env = SB3VecEnv(make_env("random", args.envs))
    # A rollout of 64 steps per game (4,096 decisions at 64 games) gives a dozen updates in 50,000 steps.
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=512, seed=args.seed, verbose=0)
    started = time.process_time()
    model.learn(total_timesteps=args.steps)
    cpu = time.process_time() - started
    print(f"trained {model.num_timesteps:,} steps ({args.envs} games at once) in {cpu:.0f} s of CPU")

    def agent(env: BatchVectorEnv, observations: NDArray[np.float32]) -> NDArray[Any]:
        actions, _ = model.predict(observations, action_masks=env.action_masks(), deterministic=True)
        return np.asarray(actions)

    rng = np.random.default_rng(args.seed)
    policies: dict[str, Policy] = {
        "MaskablePPO": agent,
        "random moves (reference)": lambda env, _: batch.random_actions(games_of(env), rng),
        "greedy moves (reference)": lambda env, _: batch.heaviest_actions(games_of(env)),
    }
    print(f"rounds won, 2 players, double-{args.max_pip}, {args.games} rounds per cell (Wilson 95% CI); par is 50%")
    print(f"{'policy in seat 0':<26}{'vs random':>22}{'vs greedy':>22}")
    for name, policy in policies.items():
        cells = []
        for opponent in ("random", "greedy"):
            rate = win_rate(make_env(opponent, args.games), policy)
            low, high = wilson(rate, args.games)
            cells.append(f"{rate:.1%} [{low:.1%}, {high:.1%}]")
        print(f"{name:<26}{cells[0]:>22}{cells[1]:>22}")


if __name__ == "__main__":
    main()
