"""Builders for hand-made positions, so each rule test states its position in a line or two."""

from __future__ import annotations

from collections.abc import Sequence

import chickenfoot as cf
from chickenfoot import Board, RoundState, Rules, Tile


def tiles(text: str) -> tuple[Tile, ...]:
    """Parses ``"9-5 8-3"`` into tiles."""
    return tuple(Tile.parse(word) for word in text.split())


def board(center: str, plays: str = "", arms: int = 4) -> Board:
    """Lays ``center`` and then each ``"tile@node"`` of ``plays`` (no hand involved)."""
    result = Board.start(Tile.parse(center), arms)
    for word in plays.split():
        move = cf.parse_move(word)
        assert isinstance(move, cf.Play)
        result = result.place(move.tile, move.onto)
    return result


def position(
    rules: Rules,
    hands: Sequence[str],
    *,
    center: str = "9-9",
    plays: str = "",
    arms: int | None = None,
    yard: str = "",
    current: int = 0,
    drawn: str | None = None,
    reserve: int | None = None,
) -> RoundState:
    """Builds a round state from text: hands, the board's plays, the yard and whose turn it is."""
    players = len(hands)
    return RoundState(
        rules=rules,
        hands=tuple(tiles(hand) for hand in hands),
        yard=tiles(yard),
        board=board(center, plays, arms if arms is not None else rules.arms_for(players)),
        current_player=current,
        reserve=rules.reserve_for(players) if reserve is None else reserve,
        drawn=Tile.parse(drawn) if drawn else None,
    )


def moves(state: cf.GameState | RoundState) -> set[str]:
    """Gets the legal moves as notation strings."""
    return {str(move) for move in cf.legal_moves(state)}
