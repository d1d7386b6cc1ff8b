"""A Gymnasium vector environment over a batch: one learner's seat in ``num_envs`` games at once.

Needs ``gymnasium`` (the ``pettingzoo`` extra installs it). Each sub-environment is a game
in which the learner plays ``seat`` and vectorized opponents (``"random"``, ``"heaviest"``, or
a function of the batch) play the other seats between the learner's turns. Observations are
the vectors of :mod:`chickenfoot.observation` from the learner's seat; ``infos["action_mask"]``
holds the legal actions (and :meth:`BatchVectorEnv.action_masks` too, for MaskablePPO).
Finished games are reset in the same step (``AutoresetMode.SAME_STEP``): the last observation
of a finished game is in ``infos["final_obs"]``.

>>> import numpy as np
>>> import chickenfoot as cf
>>> from chickenfoot.batch.env import BatchVectorEnv
>>> env = BatchVectorEnv(num_envs=8, rules=cf.Rules.trains(), players=4, opponent="heaviest")
>>> observations, infos = env.reset(seed=1)
>>> observations.shape, infos["action_mask"].shape
((8, 221), (8, 902))
>>> mask = infos["action_mask"]
>>> actions = np.array([np.flatnonzero(row)[0] for row in mask])
>>> observations, rewards, terminated, truncated, infos = env.step(actions)
>>> rewards.shape, terminated.dtype
((8,), dtype('bool'))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._io import needs

try:
    import gymnasium
    import numpy as np
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space
    from numpy.typing import NDArray
except ModuleNotFoundError as error:  # an optional extra
    raise needs(__name__, error, "gymnasium") from error

from .._game import Rules
from ..actions import action_count
from ..observation import observation_size
from ._arrays import Batch
from ._convert import init
from ._ending import reset_finished
from ._legal import heaviest_actions, legal_action_mask, random_actions
from ._observe import observations
from ._step import step_inplace

__all__ = ["BatchVectorEnv", "Opponent"]

Opponent = Callable[[Batch], NDArray[Any]]
"""A vectorized opponent: gets one action per game of the batch (only the games an opponent is to move in count)."""

_MAX_OPPONENT_STEPS = 100_000  # a safety stop; a game ends long before (every move shrinks hands, yard or board room)


class BatchVectorEnv(gymnasium.vector.VectorEnv):
    """Runs ``num_envs`` games of Chicken Foot as one vectorized single-agent environment.

    ``reward`` is ``"win"`` (zero-sum win utilities when the game ends) or ``"score"`` (after
    each round, the mean round score minus the learner's). ``single_round`` plays one round
    per episode instead of a whole game.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (gymnasium reads it from the class)

    def __init__(
        self,
        num_envs: int = 64,
        rules: Rules | None = None,
        players: int = 4,
        *,
        opponent: str | Opponent = "random",
        seat: int = 0,
        single_round: bool = False,
        reward: str = "win",
    ) -> None:
        """Builds the environment; the games are dealt by :meth:`reset`."""
        self.rules = Rules.trains() if rules is None else rules
        self.rules.check_players(players)
        if type(seat) is not int or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, got {seat!r}")
        if type(num_envs) is not int or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number, 1 or more; got {num_envs!r}")
        self.num_envs = num_envs
        self.players = players
        self.seat = seat
        self.single_round = single_round
        self.reward = reward
        self._opponent = self._pick_opponent(opponent)
        size = observation_size(self.rules, players)
        self.single_observation_space = gymnasium.spaces.Box(0, np.inf, (size,), np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(action_count(self.rules))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        self.games: Batch | None = None

    def _pick_opponent(self, opponent: str | Opponent) -> Opponent:
        if opponent == "random":
            return lambda games: random_actions(games, self._rng)
        if opponent == "heaviest":
            return heaviest_actions
        if callable(opponent):
            return opponent
        raise ValueError(f"opponent must be 'random', 'heaviest' or a function of the batch, got {opponent!r}")

    def _batch(self) -> Batch:
        if self.games is None:
            raise RuntimeError("call reset() before step()")
        return self.games

    def _opponents_move(self) -> tuple[NDArray[Any], NDArray[Any]]:
        """Lets the opponents move until it is the learner's turn everywhere; returns its rewards and endings."""
        games = self._batch()
        reward = np.zeros(self.num_envs, dtype=np.float32)
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        for _ in range(_MAX_OPPONENT_STEPS):
            waiting = ~games.game_over & (games.current != self.seat)
            if not waiting.any():
                break
            step_inplace(games, self._opponent(games), where=waiting)
            reward += games.rewards[:, self.seat]
            ended |= games.terminated
        return reward, ended

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": legal_action_mask(self._batch())}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[Any], dict[str, Any]]:
        """Deals ``num_envs`` new games (game i from ``seed + i``); the opponents move up to the learner's turn."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        seeds = (
            np.asarray(seed) + np.arange(self.num_envs)
            if isinstance(seed, int)
            else self._rng.integers(0, 2**62, self.num_envs)
        )
        self.games = init(self.rules, self.players, seeds, single_round=self.single_round, reward=self.reward)
        self._opponents_move()
        return observations(self.games, self.seat), self._infos()

    def step(
        self, actions: NDArray[Any]
    ) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """Plays the learner's actions, then the opponents' moves; resets finished games in the same step."""
        games = self._batch()
        step_inplace(games, np.asarray(actions))
        reward = games.rewards[:, self.seat].copy()
        ended = games.terminated.copy()
        more, ended_later = self._opponents_move()
        reward += more
        ended |= ended_later
        infos: dict[str, Any] = {}
        if ended.any():
            infos["final_obs"] = observations(games, self.seat)
            infos["_final_obs"] = ended
            reset_finished(games)
            self._opponents_move()  # the new games' opening moves up to the learner's turn
        infos.update(self._infos())
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return observations(games, self.seat), reward, ended, truncated, infos

    def action_masks(self) -> NDArray[Any]:
        """Gets the legal actions of every game (the method MaskablePPO's vector support reads)."""
        return legal_action_mask(self._batch())
