"""Tiles and moves as the core numbers them: the primitives every compiled module reads.

* a *tile* is its index in the set, ``high * (high + 1) // 2 + low`` (SET-1); :data:`HIGH`,
  :data:`LOW` (or :data:`HALVES`, both) and :data:`VALUES_MASK` read it back (a mask has one bit
  per pip value);
* a *move* is an int: a play is ``onto << 8 | tile`` (:func:`play`, read back by
  :func:`code_tile` and :func:`code_onto`); :data:`DRAW` and :data:`PASS` take tile numbers no
  tile has (:func:`is_play` tells them apart);
* :class:`PublicMoves` is a table indexed by move code: the public move objects for the views,
  or (:data:`CODES`) the codes themselves;
* :class:`Inconsistent` is what the core raises for a view whose history no deal fits (the
  reader of views reports it as :class:`~chickenfoot.InvalidRecordError`).

Written, like the rest of the core, so mypyc can compile it to C (see docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

NONE: Final = -1
"""No node, no seat, no tile."""

DRAW: Final = 255
"""The move code of a draw (DRAW-1): a play's code with a tile number no tile has."""

PASS: Final = 254
"""The move code of a pass (DRAW-2, DRAW-3, YARD-2), likewise."""

FOOT_TOES: Final = 3
"""How many toes a chicken foot takes (FOOT-1)."""

MAX_PIP: Final = 18
"""The largest set supported, double-18."""

MAX_PLAYERS: Final = 64
"""The most players a game may have (DEAL-1 allows fewer on small sets)."""

MAX_ARMS: Final = 8
"""The most arms a center takes (OPEN-1: "up to 8", *trains*)."""

HIGH: Final[tuple[int, ...]] = tuple(high for high in range(MAX_PIP + 1) for _ in range(high + 1))
"""The higher value of each tile."""

LOW: Final[tuple[int, ...]] = tuple(low for high in range(MAX_PIP + 1) for low in range(high + 1))
"""The lower value of each tile."""

HALVES: Final[tuple[tuple[int, int], ...]] = tuple(zip(HIGH, LOW, strict=True))
"""Both values of each tile, ``(high, low)``."""

VALUES_MASK: Final[tuple[int, ...]] = tuple((1 << HIGH[t]) | (1 << LOW[t]) for t in range(len(HIGH)))
"""A bit per pip value each tile carries."""

ALL_TILES: Final = len(HIGH)
"""How many tiles the largest set has: every tile number is below it."""

IS_DOUBLE: Final[tuple[bool, ...]] = tuple(HIGH[t] == LOW[t] for t in range(ALL_TILES))
"""Whether both halves of each tile carry the same value."""


class Inconsistent(ValueError):
    """Raised by the samplers for a view whose history no deal and play fit; the message says why."""


def tile_index(high: int, low: int) -> int:
    """Gets the index of the tile carrying ``high`` and ``low`` (``high >= low``)."""
    return high * (high + 1) // 2 + low


DOUBLES: Final[tuple[int, ...]] = tuple(tile_index(value, value) for value in range(MAX_PIP + 1))
"""The double of each value: ``DOUBLES[9]`` is 9-9."""


def play(tile: int, onto: int) -> int:
    """Gets the code of the move putting ``tile`` onto node ``onto``."""
    return onto << 8 | tile


def code_tile(move: int) -> int:
    """Gets the tile a play's code puts down (for a draw or a pass, :data:`DRAW` or :data:`PASS`)."""
    return move & 255


def code_onto(move: int) -> int:
    """Gets the node a play's code puts its tile onto."""
    return move >> 8


def is_play(move: int) -> bool:
    """Tells whether a move code is a play, not a draw or a pass."""
    return move & 255 < PASS


def tile_text(tile: int) -> str:
    """Writes ``tile`` as in notation, ``HIGH-LOW``."""
    return f"{HIGH[tile]}-{LOW[tile]}"


class PublicMoves:
    """What each move code stands for, made by ``make`` a node at a time and then shared.

    The table has a row of 256 codes per node: the plays onto that node of every tile of the
    largest set asked for so far (and, in node 0's row, the draw and the pass), so that a server
    of double-9 games makes 55 of a row's 190 plays. The views hand out these shared objects (the
    public moves, :data:`chickenfoot._game._state.MOVES`), so ``Round.after_public`` finds a move
    by identity; :data:`CODES` is the table of the codes themselves, from which ``Round.legal``
    lists them.
    """

    __slots__ = ("draw", "make", "nodes", "pass_", "table", "tiles")

    def __init__(self, draw: Any, pass_: Any, make: Callable[[int], Any]) -> None:
        self.draw = draw
        self.pass_ = pass_
        self.make = make  # makes what a play's code stands for
        self.table: list[Any] = []  # what each code stands for, None where no move has it
        self.nodes = 0  # the nodes the table has rows for
        self.tiles = 0  # the tiles each row has plays for: tiles 0 to tiles - 1

    def onto_nodes(self, nodes: int, tiles: int) -> list[Any]:
        """Gets the table by code, with every play of tiles 0 to ``tiles - 1`` onto nodes 0 to ``nodes - 1``."""
        table = self.table
        if tiles > self.tiles:  # a larger set than so far: the rows made take its tiles too
            for onto in range(self.nodes):
                for tile in range(self.tiles, tiles):
                    table[play(tile, onto)] = self.make(play(tile, onto))
            self.tiles = tiles
        for onto in range(self.nodes, nodes):
            row: list[Any] = [self.make(play(tile, onto)) for tile in range(self.tiles)]
            row += [None] * (256 - len(row))
            if onto == 0:
                row[DRAW] = self.draw
                row[PASS] = self.pass_
            table += row
            self.nodes = onto + 1
        return table


CODES: Final = PublicMoves(DRAW, PASS, lambda code: code)
"""The table of the move codes themselves: what ``Round.legal`` lists."""
