"""chickenfoot: the domino game Chicken Foot as a typed, pure rules engine.

>>> import chickenfoot as cf
>>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
>>> while not game.is_over:
...     game = cf.apply(game, cf.legal_moves(game)[0])
>>> len(game.results), sum(game.totals) == sum(sum(r.scores) for r in game.results)
(10, True)
"""

from __future__ import annotations

import warnings
from typing import Any

from . import _flavour  # first: it chooses the compiled or the pure core, which the modules below read

# isort: split
from ._board import Board as Board, Node as Node
from ._deal import deal_round as deal_round
from ._determinize import determinize as determinize
from ._engine import apply as apply, legal_moves as legal_moves, new_game as new_game
from ._errors import (
    BotSpecError as BotSpecError,
    IllegalMoveError as IllegalMoveError,
    InvalidMoveError as InvalidMoveError,
    InvalidPositionError as InvalidPositionError,
    InvalidRecordError as InvalidRecordError,
    RulesError as RulesError,
)
from ._json_read import from_json as from_json
from ._json_write import to_json as to_json
from ._moves import (
    Draw as Draw,
    Move as Move,
    NodeIndex as NodeIndex,
    Pass as Pass,
    Play as Play,
    parse_move as parse_move,
)
from ._notation import parse_position as parse_position, position as position
from ._outcome import Outcome as Outcome, Termination as Termination
from ._perft import perft as perft
from ._records import (
    FORMAT_VERSION as FORMAT_VERSION,
    GameRecord as GameRecord,
    record_schema as record_schema,
    replay as replay,
)
from ._rules import Rules as Rules
from ._scoring import decide_winners as decide_winners, score_round as score_round
from ._state import (
    GameState as GameState,
    PlayerIndex as PlayerIndex,
    RoundResult as RoundResult,
    RoundState as RoundState,
    Turn as Turn,
)
from ._status import Problem as Problem
from ._tiles import Pip as Pip, Tile as Tile, full_set as full_set
from ._views import PlayerView as PlayerView, SpectatorView as SpectatorView, observe as observe, spectate as spectate

__version__ = "0.1.0"

__compiled__ = _flavour.COMPILED
"""Whether the rules core running is the one compiled by mypyc (see docs/performance.md)."""

__all__ = [
    "FORMAT_VERSION",
    "Board",
    "BotSpecError",
    "Draw",
    "GameRecord",
    "GameState",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Move",
    "Node",
    "NodeIndex",
    "Outcome",
    "Pass",
    "Pip",
    "Play",
    "PlayerIndex",
    "PlayerView",
    "Problem",
    "RoundResult",
    "RoundState",
    "Rules",
    "RulesError",
    "SpectatorView",
    "Termination",
    "Tile",
    "Turn",
    "apply",
    "deal_round",
    "decide_winners",
    "determinize",
    "from_json",
    "full_set",
    "legal_moves",
    "new_game",
    "observe",
    "parse_move",
    "parse_position",
    "perft",
    "position",
    "record_schema",
    "replay",
    "score_round",
    "spectate",
    "to_json",
]

_RENAMED = {"round_scores": "score_round", "winners": "decide_winners"}
"""Deprecated names (removed in the release after 0.1) and what they are now called: the old
names clashed with the attributes ``PlayerView.round_scores`` and ``GameState.winners``."""


def __getattr__(name: str) -> Any:
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(f"chickenfoot.{name} is deprecated: call chickenfoot.{new}", DeprecationWarning, stacklevel=2)
        return globals()[new]
    raise AttributeError(f"module 'chickenfoot' has no attribute {name!r}")
