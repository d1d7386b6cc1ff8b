"""chickenfoot: the domino game Chicken Foot as a typed, pure rules engine.

>>> import chickenfoot as cf
>>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
>>> while not game.is_over:
...     game = cf.apply(game, cf.legal_moves(game)[0])
>>> len(game.results), sum(game.totals) == sum(sum(r.scores) for r in game.results)
(10, True)
"""

from __future__ import annotations

from ._core import COMPILED
from ._game import (
    Board as Board,
    BotSpecError as BotSpecError,
    Draw as Draw,
    GameState as GameState,
    IllegalMoveError as IllegalMoveError,
    InvalidMoveError as InvalidMoveError,
    InvalidPositionError as InvalidPositionError,
    InvalidRecordError as InvalidRecordError,
    Move as Move,
    Node as Node,
    NodeIndex as NodeIndex,
    Outcome as Outcome,
    Pass as Pass,
    Pip as Pip,
    Play as Play,
    PlayerIndex as PlayerIndex,
    PlayerView as PlayerView,
    Problem as Problem,
    RoundResult as RoundResult,
    RoundState as RoundState,
    Rules as Rules,
    RulesError as RulesError,
    SpectatorView as SpectatorView,
    Termination as Termination,
    Tile as Tile,
    Turn as Turn,
    apply as apply,
    deal_round as deal_round,
    decide_winners as decide_winners,
    determinize as determinize,
    full_set as full_set,
    legal_moves as legal_moves,
    new_game as new_game,
    observe as observe,
    parse_move as parse_move,
    score_round as score_round,
    spectate as spectate,
)
from ._io import (
    FORMAT_VERSION as FORMAT_VERSION,
    GameRecord as GameRecord,
    from_json as from_json,
    parse_position as parse_position,
    perft as perft,
    position as position,
    record_schema as record_schema,
    replay as replay,
    to_json as to_json,
)

__version__ = "0.1.0"

__compiled__ = COMPILED
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
