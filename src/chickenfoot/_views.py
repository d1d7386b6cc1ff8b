"""Player views (stand-in for issue 3's module, written to the documented contract).

Only what the bots need: ``observe`` projects a game onto one seat.
"""

from __future__ import annotations

import attrs

from ._board import Board
from ._engine import legal_moves
from ._moves import Move
from ._rules import Rules
from ._state import GameState, PlayerIndex, Turn
from ._tiles import Tile

__all__ = ["PlayerView", "observe"]


@attrs.frozen
class PlayerView:
    """What one player may know of a game."""

    player: PlayerIndex
    rules: Rules
    players: int
    round_index: int
    hand: tuple[Tile, ...]
    board: Board
    hand_sizes: tuple[int, ...]
    yard_size: int
    reserve: int
    drawn: Tile | None
    current_player: PlayerIndex | None
    totals: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    history: tuple[Turn, ...]
    legal_moves: tuple[Move, ...]
    is_over: bool


def observe(state: GameState, player: PlayerIndex) -> PlayerView:
    """Projects ``state`` onto what ``player`` may know."""
    round_ = state.round
    mine = state.current_player == player
    return PlayerView(
        player=player,
        rules=state.rules,
        players=state.players,
        round_index=state.round_index,
        hand=round_.hands[player],
        board=round_.board,
        hand_sizes=tuple(len(hand) for hand in round_.hands),
        yard_size=len(round_.yard),
        reserve=round_.reserve,
        drawn=round_.drawn if mine else None,
        current_player=state.current_player,
        totals=state.totals,
        round_scores=tuple(result.scores for result in state.results),
        history=round_.history,
        legal_moves=legal_moves(state) if mine else (),
        is_over=state.is_over,
    )
