"""Moves: small hashable values with a text form that round-trips ("9-5@3", "draw", "pass")."""

from __future__ import annotations

import operator
import re
import string
from collections.abc import Sequence
from typing import SupportsIndex, TypeAlias

import attrs

from .._core import DRAW as DRAW_CODE, PASS as PASS_CODE, PublicMoves, code_onto, code_tile, is_play, play
from ._errors import InvalidMoveError
from ._tiles import TILE_PATTERN, TILES, Tile

__all__ = ["MOVES", "Draw", "Move", "NodeIndex", "Pass", "Play", "move_code", "moves_of", "parse_move"]

NodeIndex: TypeAlias = int
"""A node's position in :attr:`Board.nodes`: 0 is the center, then in the order placed."""

_PLAY_TEXT = re.compile(TILE_PATTERN + "@([0-9]{1,6})")


def _node_index(value: SupportsIndex) -> int:
    """Takes any integer (numpy's too) as a node index; refuses bools, floats and text."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"a Play's onto is a node index, a whole number like 3; got {value!r}")
    return operator.index(value)


def _is_tile(_: object, __: object, value: Tile) -> None:
    if type(value) is not Tile:
        raise TypeError(f"a Play's tile is a chickenfoot.Tile, like Tile(9, 5); got {value!r}")


@attrs.frozen
class Play:
    """Puts ``tile`` from the mover's hand onto node ``onto`` (PLAY-1).

    >>> move = Play(Tile(9, 5), onto=3)
    >>> str(move), parse_move("9-5@3") == move
    ('9-5@3', True)
    """

    tile: Tile = attrs.field(validator=_is_tile)
    """The tile played."""
    onto: NodeIndex = attrs.field(converter=_node_index)
    """The index of the board node the tile attaches to (any integer type is taken as an int)."""

    def __str__(self) -> str:
        return f"{self.tile}@{self.onto}"

    def __repr__(self) -> str:
        return f"Play({self.tile!r}, onto={self.onto})"


@attrs.frozen
class Draw:
    """Takes ``yard[0]`` into the mover's hand (DRAW-1). Written ``"draw"``.

    >>> str(Draw()), parse_move("draw") == Draw()
    ('draw', True)
    """

    def __str__(self) -> str:
        return "draw"


@attrs.frozen
class Pass:
    """Ends the turn without playing (DRAW-2, DRAW-3, YARD-2). Written ``"pass"``.

    >>> str(Pass()), parse_move("pass") == Pass()
    ('pass', True)
    """

    def __str__(self) -> str:
        return "pass"


Move: TypeAlias = Play | Draw | Pass
"""Any move a player can make."""

DRAW = Draw()
PASS = Pass()


def _play_of(code: int) -> Move:
    return Play(TILES[code_tile(code)], code_onto(code))


MOVES = PublicMoves(DRAW, PASS, _play_of)
"""The public move of each core move code (made once, then shared: the engine finds a move by identity)."""


def move_code(move: Move) -> int:
    """Gets the core code of a public move."""
    if type(move) is Play:
        return play(move.tile.index, move.onto)
    return DRAW_CODE if type(move) is Draw else PASS_CODE


def moves_of(codes: Sequence[int]) -> tuple[Move, ...]:
    """Gets the public moves of core move codes (a line of play found by a search)."""
    plays = [code for code in codes if is_play(code)]
    nodes = max((code_onto(code) for code in plays), default=0) + 1
    table = MOVES.onto_nodes(nodes, max((code_tile(code) for code in plays), default=0) + 1)
    return tuple(table[code] for code in codes)


def parse_move(text: str) -> Move:
    """Parses the move notation: ``"9-5@3"`` (tile at node), ``"draw"`` or ``"pass"``.

    >>> parse_move("draw"), parse_move(" 5-9@0 ")
    (Draw(), Play(Tile(9, 5), onto=0))
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_move reads text like '9-5@3', 'draw' or 'pass', got {text!r:.40}")
    if not text.isascii():  # fullwidth or Arabic-Indic digits and Unicode spaces are not the notation
        raise InvalidMoveError(f"{text!r:.40} is not a move: the notation is ASCII, like '9-5@3', 'draw' or 'pass'")
    cleaned = text.strip(string.whitespace).lower()
    if cleaned == "draw":
        return DRAW
    if cleaned == "pass":
        return PASS
    match = _PLAY_TEXT.fullmatch(cleaned.replace(" ", ""))
    if match is None:
        raise InvalidMoveError(f"{text!r} is not a move: write 'HIGH-LOW@NODE' (like '9-5@3'), 'draw' or 'pass'")
    try:
        tile = Tile(int(match[1]), int(match[2]))
    except ValueError as error:
        raise InvalidMoveError(f"{text!r} is not a move: {error}") from None
    return Play(tile, int(match[3]))
