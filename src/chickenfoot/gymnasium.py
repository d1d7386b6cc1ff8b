"""Chicken Foot as a single-agent Gymnasium environment: one seat learns, bots play the others.

Install the ``gymnasium`` extra (``python -m pip install ".[gymnasium]"`` from a checkout,
``"chickenfoot[gymnasium]"`` once it is on PyPI). Importing this module registers
``chickenfoot/Trains-v0`` and ``chickenfoot/Cross-v0`` (the *trains* and *cross* rules); without
the import, ``gymnasium.make("chickenfoot.gymnasium:chickenfoot/Trains-v0")`` imports it first.
Keyword arguments of ``gymnasium.make`` set the options of :class:`ChickenfootEnv`:

=====================  ===============  ==============================================================
option                 default          meaning
=====================  ===============  ==============================================================
``players``            2                number of players
``max_pip``            9                the set: 6, 9, 12, 15 or 18 (SET-1)
``rounds``             0                rounds per episode; 0 plays them all, one per double (ROUND-1)
``rules``              ``None``         a :class:`~chickenfoot.Rules` instead of the preset and ``max_pip``
``opponents``          ``"greedy"``     one bot for every other seat, or one per other seat: bot names
                                        (``"random"``, ``"search:50"``, ``"cmd:..."``) or bot objects
``seat``               ``None``         the agent's seat; ``None`` draws it afresh each episode
``reward``             ``"game"``       ``"game"``: at the end, 1 to a sole winner, ties share, the
                                        others ``-1/(players-1)``; ``"round"``: after each round, the
                                        mean round score minus the agent's, divided by the most a
                                        hand can hold (so within ``[-1, 1]``)
``illegal``            ``"penalty"``    an action whose mask entry is 0: ``"penalty"`` ends the
                                        episode with reward ``illegal_penalty`` (so checkers and
                                        unmasked exploration work); ``"raise"`` raises
                                        :class:`~chickenfoot.IllegalMoveError`
``illegal_penalty``    ``-1.0``         see ``illegal``
``history``            ``False``        append the public history (:func:`chickenfoot.observation.history`)
=====================  ===============  ==============================================================

The observation is the agent's :mod:`chickenfoot.observation` vector (relative seats), with
the public history appended if asked. The action space is ``Discrete`` over the stable action
numbering of :mod:`chickenfoot.actions`; :meth:`ChickenfootEnv.action_masks` (booleans, the
sb3-contrib convention) and ``info["action_mask"]`` (``int8``, what ``Discrete.sample`` takes)
flag the legal ones. A draw does not end the turn (DRAW-1): after a draw the agent acts again.
Opponents move between the agent's turns. The step that ends a round carries its
:class:`~chickenfoot.Outcome` in ``info["round_outcome"]`` (went out, blocked, an unfillable
foot, and who went out); the step that ends the episode carries the game's in ``info["outcome"]``
(its winners, over the rounds played).

>>> import gymnasium
>>> import chickenfoot.gymnasium
>>> env = gymnasium.make("chickenfoot/Trains-v0", players=3, rounds=1, opponents="random")
>>> observation, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = env.action_space.sample(info["action_mask"])
...     observation, reward, done, truncated, info = env.step(action)
>>> -0.5 <= reward <= 1.0, info["outcome"].termination
(True, <Termination.LAST_ROUND: 'last_round'>)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, TypeAlias

from ._io import needs

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from numpy.typing import NDArray
except ModuleNotFoundError as error:  # an optional extra
    raise needs(__name__, error, "gymnasium") from error

import attrs

from . import actions
from ._game import (
    GameState,
    IllegalMoveError,
    Outcome,
    Rules,
    Termination,
    apply,
    decide_winners,
    new_game,
    observe,
    win_utilities,
    worst_total,
)
from .bots import Bot, make_bot
from .observation import history_size, observation_size, upper_bounds, write_history, write_observation
from .render import render_text
from .tournament import Entrant

__all__ = ["ENV_IDS", "VECTOR_ENTRY_POINT", "ChickenfootEnv", "IllegalAction", "Reward"]

Reward: TypeAlias = Literal["game", "round"]
"""When the agent is paid: once at the end of the game (win utility), or after each round (scaled score)."""
IllegalAction: TypeAlias = Literal["raise", "penalty"]
"""What an illegal action does: raise, or end the episode with a penalty."""

ENV_IDS = ("chickenfoot/Trains-v0", "chickenfoot/Cross-v0")
"""The environments this module registers with Gymnasium."""

VECTOR_ENTRY_POINT: str | None = None
"""A vectorized implementation for ``gymnasium.make_vec`` (none yet: Gymnasium then vectorizes the env itself)."""


class ChickenfootEnv(gymnasium.Env[NDArray[np.float32], np.int64]):
    """One seat of a game against bots; see the module doc for the options."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's convention)

    def __init__(
        self,
        preset: str = "trains",
        players: int = 2,
        max_pip: int = 9,
        rounds: int = 0,
        *,
        rules: Rules | None = None,
        opponents: Entrant | Sequence[Entrant] = "greedy",
        seat: int | None = None,
        reward: Reward = "game",
        illegal: IllegalAction = "penalty",
        illegal_penalty: float = -1.0,
        history: bool = False,
        render_mode: str | None = None,
    ) -> None:
        """Builds the environment (see the module doc for each option)."""
        if rules is None:
            rules = Rules.preset(preset, max_pip=max_pip)
        rules.check_players(players)
        self.rounds = rounds or rules.rounds
        if not 1 <= self.rounds <= rules.rounds:
            raise ValueError(f"rounds must be 0 (all) or 1 to {rules.rounds}, got {rounds!r}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat must be None (drawn each episode) or 0 to {players - 1}, got {seat!r}")
        for name, value, allowed in (
            ("reward", reward, ("game", "round")),
            ("illegal", illegal, ("raise", "penalty")),
            ("render_mode", render_mode, (None, "ansi")),
        ):
            if value not in allowed:
                choices = " or ".join(repr(choice) if choice is not None else "None" for choice in allowed)
                raise ValueError(f"{name} must be {choices}, got {value!r}")
        entrants = _opponents(opponents, players)
        self.rules = rules
        self.players = players
        self.opponents: tuple[Entrant, ...] = tuple(entrants)
        self.fixed_seat = seat
        self.reward_kind: Reward = reward
        self.illegal: IllegalAction = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.history = history
        self.render_mode = render_mode
        self._base = observation_size(rules, players)
        size = self._base + (history_size(rules, players) if history else 0)
        self.observation_space = spaces.Box(
            low=0, high=upper_bounds(rules, players, self.rounds, with_history=history), shape=(size,), dtype=np.float32
        )
        self._actions = actions.action_count(rules)
        self._size = size
        self.action_space = spaces.Discrete(self._actions)
        self.game: GameState | None = None
        """The game in play (``None`` before the first reset)."""
        self.seat = 0 if seat is None else seat
        """The agent's seat this episode."""
        self._bots: list[Bot | None] = []
        self._random = random.Random()
        self._done = True
        self._round_outcome: Outcome | None = None  # of a round ended since the last info
        self._outcome: Outcome | None = None  # of the episode, once over

    # -- the Gymnasium API ---------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Deals a new game and plays the opponents up to the agent's first turn; a seed fixes the episode."""
        super().reset(seed=seed)
        self.close()  # the last episode's opponent programs, if any
        if seed is not None:
            self._random = random.Random(seed)
        rng = self._random
        self.seat = rng.randrange(self.players) if self.fixed_seat is None else self.fixed_seat
        self._bots = []
        others = iter(self.opponents)
        for seat in range(self.players):
            if seat == self.seat:
                self._bots.append(None)
                continue
            entrant = next(others)
            self._bots.append(make_bot(entrant, seed=rng.getrandbits(63)) if isinstance(entrant, str) else entrant)
        self.game = new_game(self.rules, self.players, seed=rng.getrandbits(63))
        self._done = False
        self._round_outcome = None
        self._outcome = None
        reward = self._play_opponents()
        assert not self._done, "the agent moves before any round ends"
        assert reward == 0.0
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Plays the agent's action, then the opponents up to its next turn or the end of the episode."""
        game = self.game
        if game is None or self._done:
            raise RuntimeError("the episode is over: call reset() to start another")
        legal = actions.legal_actions(game)
        number = _whole(action)
        if number is None or number not in legal:
            if self.illegal == "penalty":
                self._done = True
                return self._observation(), self.illegal_penalty, True, False, self._info(illegal=True)
            moves = ", ".join(f"{number} ({actions.describe(number, self.rules)})" for number in legal)
            raise IllegalMoveError(f"action {action!r} is not legal for the agent now; legal actions: {moves}")
        reward = self._advance(actions.decode(number, game))
        if not self._done:
            reward += self._play_opponents()
        return self._observation(), reward, self._done, False, self._info()

    def action_masks(self) -> NDArray[np.bool_]:
        """Flags the legal actions (the sb3-contrib ``MaskablePPO`` convention); all ``False`` once over."""
        mask = np.zeros(self._actions, np.bool_)
        if self.game is not None and not self._done:
            mask[actions.legal_actions(self.game)] = True
        return mask

    def render(self) -> str | None:
        """Draws the layout and the hand sizes as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi" or self.game is None:
            return None
        round_ = self.game.round
        sizes = " ".join(str(len(hand)) for hand in round_.hands)
        number = f"round {self.game.round_index + 1} of {self.game.rules.rounds}"  # counted from 1, as everywhere
        return f"{number} | you are P{self.seat} | hands {sizes}\n{render_text(round_)}"

    def close(self) -> None:
        """Stops the opponents' programs (bots that have a ``close``, such as ``ProcessBot``)."""
        for bot in self._bots:
            close = getattr(bot, "close", None)
            if callable(close):
                close()

    # -- inside --------------------------------------------------------------------------------

    def _advance(self, move: Any) -> float:
        """Applies one move; returns the agent's reward for a round or game it finished."""
        game = self.game
        assert game is not None
        after = apply(game, move)
        reward = 0.0
        finished = len(after.results) > len(game.results)
        if finished and self.reward_kind == "round":
            scores = after.results[-1].scores
            reward = (sum(scores) / self.players - scores[self.seat]) / worst_total(self.rules, 1)
        if finished:
            self._round_outcome = after.results[-1].outcome
        if len(after.results) >= self.rounds and not after.is_over:
            # An episode cut short: show the last round played, not the round the engine dealt next.
            after = attrs.evolve(after, round=after.results[-1].final, round_index=game.round_index)
        self.game = after
        if after.is_over or len(after.results) >= self.rounds:
            self._done = True
            won = after.winners or decide_winners(self.rules, after.totals, after.results)
            self._outcome = Outcome(Termination.LAST_ROUND, won)
            if self.reward_kind == "game":
                reward = win_utilities(self.players, won)[self.seat]
        return reward

    def _play_opponents(self) -> float:
        """Lets the bots move until it is the agent's turn or the episode ends; returns the agent's reward."""
        reward = 0.0
        while not self._done:
            assert self.game is not None
            mover = self.game.round.current_player
            bot = self._bots[mover]
            if bot is None:
                break
            reward += self._advance(bot(observe(self.game, mover)))
        return reward

    def _observation(self) -> NDArray[np.float32]:
        assert self.game is not None
        out = np.zeros(self._size, np.float32)
        view = observe(self.game, self.seat)
        write_observation(view, None, out[: self._base])
        if self.history:
            write_history(view, None, out[self._base :])
        return out

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        # int8, as gymnasium's Discrete.sample(mask) takes it; action_masks() gives bools, as sb3-contrib does.
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}
        if illegal:
            info["illegal_action"] = True
        if self._round_outcome is not None:  # a round ended during this step
            info["round_outcome"] = self._round_outcome
            self._round_outcome = None
        if self._outcome is not None:
            info["outcome"] = self._outcome
        return info


def _whole(action: object) -> int | None:
    """Reads an action number: an int, a numpy integer or a 0-d integer array (what agents pass); else ``None``."""
    if isinstance(action, bool):
        return None
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    return None


def _register() -> None:
    for env_id, preset in zip(ENV_IDS, ("trains", "cross"), strict=True):
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=f"{__name__}:ChickenfootEnv",
                vector_entry_point=VECTOR_ENTRY_POINT,
                kwargs={"preset": preset},
            )


_register()


def _opponents(opponents: Entrant | Sequence[Entrant], players: int) -> list[Entrant]:
    """Checks the opponents given, one for every other seat or one for all, and gets one per other seat."""
    entrants = [opponents] if isinstance(opponents, str) or callable(opponents) else list(opponents)
    if len(entrants) == 1:
        entrants *= players - 1
    if len(entrants) != players - 1:
        raise ValueError(f"give one opponent for every other seat, or {players - 1}, got {len(entrants)}")
    for entrant in entrants:
        if not isinstance(entrant, str) and not callable(entrant):
            raise ValueError(f"an opponent is a bot name or a bot (a callable from a view to a move), got {entrant!r}")
        if isinstance(entrant, str):
            make_bot(entrant)  # refuses a bad name now, with BotSpecError
    return entrants
