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
    """Builds a round from text: the hands, the board's plays, the yard (drawn from the front) and whose turn it is.

    A hand-set position, as a user sets up a puzzle: the tiles of the set it does not name are
    laid at the end of the yard and held back with the reserve (``reserve`` drawable tiles
    beyond them are named in ``yard``, the rules' reserve by default), so play can neither draw
    nor hold them. Whether a deal could reach it is ``state.status()``'s question, not the tests'.
    """
    players = len(hands)
    laid = board(center, plays, arms if arms is not None else rules.arms_for(players))
    named = [tile for hand in hands for tile in tiles(hand)] + list(tiles(yard)) + [node.tile for node in laid.nodes]
    rest = tuple(tile for tile in cf.full_set(rules.max_pip) if tile not in named)
    kept = rules.reserve_for(players) if reserve is None else reserve
    return RoundState(
        rules,
        tuple(tiles(hand) for hand in hands),
        tiles(yard) + rest,
        laid,
        current,
        drawn=Tile.parse(drawn) if drawn else None,
        reserve=kept + len(rest),
    )


def moves(state: cf.GameState | RoundState) -> set[str]:
    """Gets the legal moves as notation strings."""
    return {str(move) for move in cf.legal_moves(state)}
