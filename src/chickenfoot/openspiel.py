"""Chicken Foot as an OpenSpiel game: ``pyspiel.load_game("python_chickenfoot")``.

Install the ``openspiel`` extra (``python -m pip install ".[openspiel]"`` from a checkout,
``"chickenfoot[openspiel]"`` once it is on PyPI); importing this module registers the game.
Parameters (all optional):

=============  ==========  ===============================================================
parameter      default     meaning
=============  ==========  ===============================================================
``preset``     ``trains``  ``"trains"`` or ``"cross"`` (``Rules.trains()``, ``Rules.cross()``)
``players``    4           number of players
``max_pip``    9           the set: 6, 9, 12, 15 or 18 (SET-1)
``rounds``     0           rounds to play; 0 plays them all, one per double (ROUND-1)
``utility``    ``win``     ``"win"``: 1 to a sole winner, ties share, zero-sum; ``"score"``:
                           the mean total minus one's own total, in points
=============  ==========  ===============================================================

Actions are ``chickenfoot.actions``; chance events (the deal, each draw) are explicit as in
``chickenfoot._game._chance``, with a tile's ``chickenfoot.Tile.index`` (or the starter's seat)
as the outcome. Observation tensors are ``chickenfoot.observation``; the information-state
tensor appends who played each board tile and each seat's draws and passes this round.
``ChickenfootState.resample_from_infostate()`` samples the unseen tiles again through
``chickenfoot.determinize``, which is what OpenSpiel's (Python) ISMCTS bot needs.

>>> import pyspiel
>>> import chickenfoot.openspiel
>>> game = pyspiel.load_game("python_chickenfoot", {"preset": "cross", "players": 3, "rounds": 1})
>>> game.num_distinct_actions(), game.num_players()
(902, 3)
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player() in (0, 1, 2)
True
"""

from __future__ import annotations

import random
from typing import Any

from ._io import needs

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as error:  # an optional extra
    raise needs(__name__, error, "openspiel") from error

from . import actions
from ._game import (
    ChanceGame,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    Rules,
    Termination,
    max_round_moves,
    win_utilities,
    worst_total,
)
from .observation import blocks, observation_size, write_history, write_observation
from .render import render_text

__all__ = ["GAME_NAME", "ChickenfootGame", "ChickenfootObserver", "ChickenfootState", "IllegalActionError", "rules_for"]

GAME_NAME = "python_chickenfoot"
"""The short name the game is registered under."""

_DEFAULTS: dict[str, Any] = {"preset": "trains", "players": 4, "max_pip": 9, "rounds": 0, "utility": "win"}
_MAX_PLAYERS = 8

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Chicken Foot",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def rules_for(params: dict[str, Any]) -> Rules:
    """Builds the ``Rules`` that game parameters describe.

    >>> rules_for({"preset": "cross", "max_pip": 12}).deal
    'cross'
    """
    preset = params.get("preset", _DEFAULTS["preset"])
    max_pip = params.get("max_pip", _DEFAULTS["max_pip"])
    return Rules.preset(preset, max_pip=max_pip)


class ChickenfootGame(pyspiel.Game):  # type: ignore[misc]
    """The game; build it with ``pyspiel.load_game("python_chickenfoot", {...})``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        rules = rules_for(params)
        players = params["players"]
        rules.check_players(players)
        rounds = params["rounds"] or rules.rounds
        if not 1 <= rounds <= rules.rounds:
            raise ValueError(f"rounds must be 0 (all) or 1 to {rules.rounds}, got {rounds}")
        utility = params["utility"]
        if utility == "win":
            low, high = -1 / (players - 1), 1.0
        elif utility == "score":
            high = worst_total(rules, rounds) * (players - 1) / players
            low = -high
        else:
            raise ValueError(f"utility must be 'win' or 'score', got {utility!r}")
        info = pyspiel.GameInfo(
            num_distinct_actions=actions.action_count(rules),
            max_chance_outcomes=rules.set_size,
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0,
            max_game_length=rounds * max_round_moves(rules, players),
        )
        super().__init__(_GAME_TYPE, info, params)
        self.rules = rules
        self.players = players
        self.rounds = rounds
        self.utility = utility

    def new_initial_state(self) -> ChickenfootState:
        """Starts a game at the first chance event of the first deal."""
        return ChickenfootState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ChickenfootObserver:
        """Makes the observer OpenSpiel asks for tensors and strings.

        It honours ``perfect_recall`` and ``private_info``: ``SINGLE_PLAYER`` (the default)
        includes the player's hand and drawn tile, ``NONE`` leaves them out (their blocks of the
        tensor stay 0, so the shape is the same). It refuses what it cannot give: every player's
        private information (``ALL_PLAYERS``), or private information without the public.
        """
        if iig_obs_type is None:
            return ChickenfootObserver(self.rules, self.players, False, params)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "the chickenfoot observer gives one player's view (private_info SINGLE_PLAYER) or the public "
                "view (NONE), not every player's hands (ALL_PLAYERS): read the state itself for those"
            )
        if not iig_obs_type.public_info:
            raise ValueError(
                "the chickenfoot observer always includes the public information: ask for public_info=True"
            )
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        return ChickenfootObserver(self.rules, self.players, bool(iig_obs_type.perfect_recall), params, private)


class IllegalActionError(pyspiel.SpielError, IllegalMoveError):  # type: ignore[misc]
    """Raised by ``apply_action`` for an action not in ``legal_actions()`` or ``chance_outcomes()``.

    It is a ``pyspiel.SpielError``, as OpenSpiel's own games raise, and a
    :class:`chickenfoot.IllegalMoveError`; the state is left unchanged.
    """


class ChickenfootState(pyspiel.State):  # type: ignore[misc]
    """A state of the game: a thin layer over :class:`chickenfoot.RoundState` and the engine."""

    def __init__(self, game: ChickenfootGame) -> None:
        super().__init__(game)
        self.core = ChanceGame.start(game.rules, game.players, game.rounds)
        self.utility: str = game.utility

    def current_player(self) -> int:
        """Gets the player to move, or OpenSpiel's CHANCE or TERMINAL."""
        core = self.core
        if core.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if core.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        return core.current_player

    def _legal_actions(self, player: int) -> list[int]:
        assert player == self.current_player()
        round_ = self.core.round
        assert round_ is not None
        return actions.legal_actions(round_)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Lists the next chance event's outcomes and their probabilities."""
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        # Only what legal_actions()/chance_outcomes() offer; anything else leaves the state as it was.
        core = self.core
        try:
            if core.is_chance:
                core.apply_chance(int(action))
                return
            round_ = core.round
            assert round_ is not None
            if int(action) not in actions.legal_actions(round_):
                raise IllegalMoveError(f"action {action} is not one of legal_actions() {actions.legal_actions(round_)}")
            core.apply_move(actions.decode(int(action), round_))
        except ValueError as error:
            raise IllegalActionError(str(error)) from None

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.core.chance_text(int(action))
        round_ = self.core.round
        if round_ is not None and not self.core.is_chance:
            try:
                return str(actions.decode(int(action), round_))
            except InvalidMoveError:
                pass
        return actions.describe(int(action), self.core.rules)

    def is_terminal(self) -> bool:
        """Tells whether the last round has been scored."""
        return self.core.is_over

    def returns(self) -> list[float]:
        """Gets each player's utility: 0 until the end (see the module doc for the two kinds)."""
        core = self.core
        players = core.players
        if not core.is_over:
            return [0.0] * players
        if self.utility == "score":
            mean = sum(core.totals) / players
            return [mean - total for total in core.totals]
        return win_utilities(players, core.winners())

    def round_outcomes(self) -> list[Outcome]:
        """Lists how each finished round ended: went out, blocked or an unfillable foot, and who went out.

        (OpenSpiel's states have no info dictionary; each round's end is also an event of the
        information state strings, ``"P2 went out; scores 0 14 3"``.)
        """
        return [result.outcome for result in self.core.results]

    def outcome(self) -> Outcome | None:
        """Gets how the game ended (its last round played) and its winners, once terminal; else ``None``."""
        core = self.core
        return Outcome(Termination.LAST_ROUND, core.winners()) if core.is_over else None

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ChickenfootState:
        """Returns a state ``player_id`` cannot tell from this one, with the unseen tiles sampled again.

        Used by OpenSpiel's ISMCTS bot; ``probability_sampler`` seeds the sample. The copy keeps
        this state's ``history()`` (the true actions); its hands and yard are the sample's.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        state: ChickenfootState = self.clone()
        state.core = self.core.resample(player_id, rng)
        return state

    def __str__(self) -> str:
        core = self.core
        lines = [f"round {core.round_index + 1} of {core.rules.rounds} totals {' '.join(map(str, core.totals))}"]
        if core.round is None:
            lines.append("dealing: " + " / ".join(" ".join(map(str, hand)) for hand in core.hands))
        else:
            for seat, hand in enumerate(core.round.hands):
                lines.append(f"p{seat}: {' '.join(map(str, hand))}")
            lines.append(f"yard: {len(core.round.yard)}")
            lines.append(render_text(core.round))
        return "\n".join(lines)


class ChickenfootObserver:
    """Fills OpenSpiel's observation or information-state tensor and strings for one player."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        perfect_recall: bool,
        params: dict[str, Any] | None,
        private: bool = True,
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = perfect_recall
        self.private = private
        self.players = players
        self.rules = rules
        base = observation_size(rules, players)
        tiles = rules.set_size
        pieces = [(name, size) for name, _, size in blocks(rules, players)]
        if perfect_recall:
            pieces += [("played_by", tiles * players), ("draws", players), ("passes", players)]
        self.base = base
        self.tensor = np.zeros(sum(size for _, size in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        start = 0
        for name, size in pieces:
            view = self.tensor[start : start + size]
            self.dict[name] = view.reshape(tiles, players) if name == "played_by" else view
            start += size

    def set_from(self, state: ChickenfootState, player: int) -> None:
        """Writes ``player``'s view of ``state`` into ``tensor``."""
        core = state.core
        write_observation(core.view(player), None, self.tensor[: self.base])
        if not self.private:  # public information only: no hand, no drawn tile
            self.dict["hand"][:] = 0
            self.dict["drawn"][:] = 0
        if not self.perfect_recall:
            return
        if core.round is None:
            self.tensor[self.base :] = 0
            return
        write_history(core.view(player), None, self.tensor[self.base :])

    def string_from(self, state: ChickenfootState, player: int) -> str:
        """Describes ``player``'s view: everything seen so far, or just the present."""
        core = state.core
        if self.perfect_recall and self.private:
            return f"p{player} | {core.information(player)}"
        if self.perfect_recall:  # the events everyone saw
            return " | ".join([f"p{player}", *(text for seen_by, text in core.events if seen_by is None)])
        view = core.view(player)
        board = view.board
        parts = [f"p{player}", f"round {view.round_index + 1}"]
        if self.private:
            parts.append(f"hand {' '.join(map(str, sorted(view.hand)))}")
        parts += [
            f"board {' '.join(f'{node.tile}@{node.parent}' for node in board.nodes)}",
            f"pending {board.pending}",
            f"sizes {' '.join(map(str, view.hand_sizes))}",
            f"yard {view.yard_size}",
            f"totals {' '.join(map(str, view.totals))}",
        ]
        if view.drawn is not None and self.private:
            parts.append(f"drawn {view.drawn}")
        if view.current_player is not None:
            parts.append(f"to move p{view.current_player}")
        return " | ".join(parts)


pyspiel.register_game(_GAME_TYPE, ChickenfootGame)
