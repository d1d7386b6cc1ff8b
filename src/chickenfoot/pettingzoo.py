"""Chicken Foot as a PettingZoo AEC environment with action masks.

Install the ``pettingzoo`` extra (``python -m pip install ".[pettingzoo]"`` from a checkout,
``"chickenfoot[pettingzoo]"`` once it is on PyPI). Agents are ``"player_0"`` … in seat order.
Each agent observes a dict: ``"observation"``, the ``chickenfoot.observation`` vector (its own
view, relative seats), and ``"action_mask"``, an ``int8`` flag per action of
``chickenfoot.actions`` (all 0 unless it is that agent's turn); the same mask is in each
agent's ``info["action_mask"]``. With ``history=True`` the observation vector also carries the
public history of the round (``chickenfoot.observation.history``: who played each tile, each
seat's draws and passes), the same content as the OpenSpiel information state. The agent to
move may act twice in a row: a draw does not end the turn (DRAW-1). After the step that ends a
round, every agent's ``info["round_outcome"]`` is its :class:`~chickenfoot.Outcome` (went out,
blocked, an unfillable foot, and who went out); once the game ends, ``info["outcome"]`` is the
game's (its winners, over the rounds played).

Rewards: ``reward="win"`` (default) pays at the end only: 1 to a sole winner, ties share, and
the total over all agents is 0 (the same as the OpenSpiel game's ``"win"`` utility).
``reward="score"`` pays after every round: the mean round score minus one's own, in points,
or with ``scale=True`` divided by the most one hand can hold (``worst_total(rules, 1)``), so
within ``[-1, 1]``.

>>> from chickenfoot.pettingzoo import env
>>> game = env(preset="trains", players=3, rounds=1)
>>> game.reset(seed=42)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     action = None if termination or truncation else game.action_space(agent).sample(observation["action_mask"])
...     game.step(action)
>>> game.agents
[]
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ._io import needs

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as error:  # an optional extra
    raise needs(__name__, error, "pettingzoo") from error

import attrs

from . import actions
from ._game import (
    GameState,
    Outcome,
    Rules,
    Termination,
    apply,
    decide_winners,
    legal_moves,
    new_game,
    win_utilities,
    worst_total,
)
from .observation import history_size, observation_size, upper_bounds, write_history, write_observation
from .render import render_text

__all__ = ["ChickenfootEnv", "env", "raw_env"]


class ChickenfootEnv(AECEnv[str, dict[str, Any], int | None]):  # type: ignore[misc, unused-ignore]
    """The environment; see the module doc. Build it with ``env()`` for PettingZoo's wrappers."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "chickenfoot_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "trains",
        players: int = 4,
        max_pip: int = 9,
        rounds: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
        rules: Rules | None = None,
        history: bool = False,
        scale: bool = False,
    ) -> None:
        super().__init__()
        if rules is None:
            rules = Rules.preset(preset, max_pip=max_pip)
        rules.check_players(players)
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', got {reward!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.rules = rules
        self.players = players
        self.rounds = rounds or rules.rounds
        if not 1 <= self.rounds <= rules.rounds:
            raise ValueError(f"rounds must be 0 (all) or 1 to {rules.rounds}, got {rounds}")
        self.reward = reward
        self.history = history
        self.scale = scale
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        count = actions.action_count(rules)
        high = upper_bounds(rules, players, self.rounds, with_history=history)
        self._base = observation_size(rules, players)
        self._size = self._base + (history_size(rules, players) if history else 0)
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low=0, high=high, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(count,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self._rng = random.Random()
        self.game: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Dict:
        """Gets ``agent``'s observation space (the same object every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """Gets ``agent``'s action space: one ``gymnasium.spaces.Discrete`` over every action."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deals a new game; the same ``seed`` gives the same game (DEAL-2)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game = new_game(self.rules, self.players, seed=self._rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.agent_selection = self._agent_to_move()
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._update_masks()

    def _mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        assert self.game is not None
        mask = np.zeros(actions.action_count(self.rules), np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask[actions.legal_actions(self.game)] = 1
        return mask

    def _update_masks(self) -> None:
        for agent in self.agents:
            self.infos[agent]["action_mask"] = self._mask(agent)

    def _agent_to_move(self) -> str:
        assert self.game is not None
        return self.possible_agents[self.game.round.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        """Gets ``agent``'s observation: its view of the game and its action mask."""
        assert self.game is not None
        seat = self.possible_agents.index(agent)
        vector = np.zeros(self._size, np.float32)
        write_observation(self.game, seat, vector[: self._base])
        if self.history:
            write_history(self.game, seat, vector[self._base :])
        return {"observation": vector, "action_mask": self._mask(agent)}

    def step(self, action: int | None) -> None:
        """Plays ``action`` for the agent to move (``None`` once it is done, as PettingZoo asks)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None
        if action is None:
            raise ValueError(f"{agent} must act: pick an action whose action_mask entry is 1")
        move = actions.decode(int(action), game)
        if move not in legal_moves(game):
            legal = ", ".join(str(m) for m in legal_moves(game))
            raise ValueError(f"action {int(action)} ({move}) is not legal for {agent}; legal moves: {legal}")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        after = apply(game, move)
        finished = len(after.results) > len(game.results)
        for info in self.infos.values():
            info.pop("round_outcome", None)  # it tells of the step that ended the round, not later ones
            if finished:
                info["round_outcome"] = after.results[-1].outcome
        if finished and self.reward == "score":
            scores = after.results[-1].scores
            mean = sum(scores) / self.players
            unit = worst_total(self.rules, 1) if self.scale else 1
            for seat, score in enumerate(scores):
                self.rewards[self.possible_agents[seat]] = (mean - score) / unit
        if len(after.results) >= self.rounds and not after.is_over:
            # A game cut short: show the last round played, not the round the engine dealt next.
            after = attrs.evolve(after, round=after.results[-1].final, round_index=game.round_index)
        self.game = after
        if after.is_over or len(after.results) >= self.rounds:
            if self.reward == "win":
                self._pay_winners(after)
            won = after.winners or decide_winners(self.rules, after.totals, after.results)
            for info in self.infos.values():
                info["outcome"] = Outcome(Termination.LAST_ROUND, won)
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._agent_to_move()
        self._update_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _pay_winners(self, game: GameState) -> None:
        won = game.winners or decide_winners(self.rules, game.totals, game.results)
        for agent, utility in zip(self.possible_agents, win_utilities(self.players, won), strict=True):
            self.rewards[agent] = utility

    def render(self) -> str | None:
        """Draws the layout and the hand sizes as text (printed in ``"human"`` mode)."""
        if self.game is None:
            return None
        round_ = self.game.round
        sizes = " ".join(f"{agent}:{len(hand)}" for agent, hand in zip(self.possible_agents, round_.hands, strict=True))
        number = f"round {self.game.round_index + 1} of {self.game.rules.rounds}"  # counted from 1, as everywhere
        text = f"{number} | hands {sizes} | yard {len(round_.yard)}\n{render_text(round_)}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Releases nothing: the environment holds no resources."""


def raw_env(**kwargs: Any) -> ChickenfootEnv:
    """Builds the environment without wrappers (see ``ChickenfootEnv`` for the options)."""
    return ChickenfootEnv(**kwargs)


def env(**kwargs: Any) -> ChickenfootEnv:
    """Builds the environment (see ``ChickenfootEnv`` for the options).

    It comes unwrapped, so its attributes (like ``ChickenfootEnv.game``) stay typed; it
    already refuses illegal actions, and PettingZoo's wrappers can be added on top.
    """
    return ChickenfootEnv(**kwargs)
