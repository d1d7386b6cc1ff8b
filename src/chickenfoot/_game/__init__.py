"""The game as values: tiles, moves, rules, boards, states, views, and the engine that moves them.

The public values (:class:`~chickenfoot.Tile`, :class:`~chickenfoot.Rules`,
:class:`~chickenfoot.Board`, :class:`~chickenfoot.RoundState`, :class:`~chickenfoot.GameState`,
:class:`~chickenfoot.PlayerView` ...) are attrs classes over the compiled core's ints
(:mod:`chickenfoot._core`); :func:`~chickenfoot.apply` and :func:`~chickenfoot.legal_moves` are
:mod:`._engine`'s. The rest of the package reads this folder through the names below.
"""

from __future__ import annotations

from ._board import FOOT_TOES as FOOT_TOES, Board as Board, Node as Node, placed as placed
from ._chance import ChanceGame as ChanceGame
from ._deal import deal_round as deal_round
from ._determinize import Worlds as Worlds, determinize as determinize
from ._display import replay_html as replay_html
from ._engine import apply as apply, legal_moves as legal_moves, new_game as new_game
from ._errors import (
    BotError as BotError,
    BotSpecError as BotSpecError,
    IllegalMoveError as IllegalMoveError,
    InvalidMoveError as InvalidMoveError,
    InvalidPositionError as InvalidPositionError,
    InvalidRecordError as InvalidRecordError,
    RulesError as RulesError,
)
from ._moves import (
    DRAW as DRAW,
    MOVES as MOVES,
    PASS as PASS,
    Draw as Draw,
    Move as Move,
    NodeIndex as NodeIndex,
    Pass as Pass,
    Play as Play,
    move_code as move_code,
    moves_of as moves_of,
    parse_move as parse_move,
)
from ._outcome import Outcome as Outcome, Termination as Termination
from ._plans import deal_for as deal_for, settings_for as settings_for
from ._rules import (
    MAX_PLAYERS as MAX_PLAYERS,
    MAX_SEED as MAX_SEED,
    PRESETS as PRESETS,
    SUPPORTED_SETS as SUPPORTED_SETS,
    Rules as Rules,
    check_seed as check_seed,
    max_game_moves as max_game_moves,
    max_round_moves as max_round_moves,
)
from ._scoring import (
    decide_winners as decide_winners,
    score_round as score_round,
    win_utilities as win_utilities,
    worst_total as worst_total,
)
from ._state import (
    GameState as GameState,
    PlayerIndex as PlayerIndex,
    RoundResult as RoundResult,
    RoundState as RoundState,
    Turn as Turn,
)
from ._status import Problem as Problem, problems as problems
from ._tiles import TILE_PATTERN as TILE_PATTERN, Pip as Pip, Tile as Tile, full_set as full_set
from ._views import PlayerView as PlayerView, SpectatorView as SpectatorView, observe as observe, spectate as spectate
