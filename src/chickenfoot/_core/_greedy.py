"""GreedyBot's rating of a play, and rounds played out by it, over the core's ints (compiled with the core).

The one statement of the rating: :class:`~chickenfoot.bots.GreedyBot` rates a view's plays with
:func:`rating`, and :func:`greedy_playout` plays a whole round with it for every seat, as the
playouts of :class:`~chickenfoot.bots.RolloutBot`. A rating reads two counts per pip value:
the tiles in the mover's hand carrying it, and the tiles carrying it that are not on the board
(in any hand or the yard). Whoever rates from a view knows both: the unseen tiles are the
second count less the first, so the choice is the same in every round the view allows.
"""

from __future__ import annotations

from typing import Final

from ._codes import HIGH, LOW, PASS
from ._round import Round

__all__ = ["best_play", "count_values", "greedy_playout", "off_board_counts", "rating"]

FOLLOW_UPS: Final = 2
"""At most this many tiles in hand that could follow on the end a play leaves count for it."""

TOE_IN_HAND: Final = 4
"""What a double is worth more when the hand holds a toe to follow it (FOOT-1)."""

NO_TOE: Final = -3
"""And what it is worth more when only the others could fill its foot: a loss, being negative."""


def rating(tile: int, offered: int, held: list[int], off_board: list[int], value: int) -> int:
    """Rates playing ``tile`` onto an end offering ``offered``; higher is better.

    ``held[v]`` counts the tiles in the mover's hand carrying ``v`` (``tile`` among them), and
    ``off_board[v]`` the tiles carrying ``v`` that are not on the board; ``value`` is what
    ``tile`` scores left in hand (SCORE-1), which is where the rating starts. A double opens a
    chicken foot (FOOT-1): worth :data:`TOE_IN_HAND` more with another tile of its value in
    hand, :data:`NO_TOE` without. Any other tile leaves an end: a point for each other tile in
    hand that could follow on it (at most :data:`FOLLOW_UPS`). Either way, a point less for each
    unseen tile (another hand's or the yard's) carrying the value left open: the fewer the
    others may hold, the likelier they cannot play on it.
    """
    high = HIGH[tile]
    low = LOW[tile]
    if high == low:
        toe = TOE_IN_HAND if held[high] > 1 else NO_TOE
        return value + toe - (off_board[high] - held[high])
    exposed = low if offered == high else high
    follow_ups = held[exposed] - 1
    if follow_ups > FOLLOW_UPS:
        follow_ups = FOLLOW_UPS
    return value + follow_ups - (off_board[exposed] - held[exposed])


def count_values(tiles: tuple[int, ...], counts: list[int]) -> None:
    """Adds to ``counts[v]`` one for each of ``tiles`` carrying ``v`` (a double once)."""
    for tile in tiles:
        high = HIGH[tile]
        low = LOW[tile]
        counts[high] += 1
        if low != high:
            counts[low] += 1


def best_play(state: Round, moves: list[int], held: list[int], off_board: list[int]) -> int:
    """Gets the move of ``moves`` (``state.legal()``) with the best :func:`rating`, the first of equals.

    With no play among them it is the first move (the draw or the pass). ``held`` is scratch
    space, one entry per pip value, overwritten with the mover's counts.
    """
    for value in range(len(held)):
        held[value] = 0
    count_values(state.hands[state.current], held)
    values = state.setup.settings.tile_values
    ends = state.ends
    best = moves[0]
    best_rating = 0
    found = False
    for move in moves:
        tile = move & 255
        if tile >= PASS:  # not a play (code_tile, inlined)
            continue
        # The value the node it goes onto (code_onto, inlined) takes: its high half's, or its low half's.
        offered = HIGH[tile] if (move >> 8) in ends[HIGH[tile]] else LOW[tile]
        rated = rating(tile, offered, held, off_board, values[tile])
        if not found or rated > best_rating:
            best, best_rating, found = move, rated, True
    return best


def off_board_counts(state: Round) -> list[int]:
    """Counts, for each pip value, the tiles carrying it that are not on the board (in the hands and the yard)."""
    off_board = [0] * (state.setup.settings.max_pip + 1)
    for hand in state.hands:
        count_values(hand, off_board)
    count_values(state.yard, off_board)
    return off_board


def greedy_playout(state: Round) -> Round:
    """Plays the round to its end, every seat making :func:`best_play` (so the same for the same round)."""
    off_board = off_board_counts(state)
    held = [0] * len(off_board)
    while not state.over:
        moves = state.legal()
        move = moves[0] if len(moves) == 1 else best_play(state, moves, held, off_board)
        tile = move & 255
        if tile < PASS:  # a play: its tile joins the board
            off_board[HIGH[tile]] -= 1
            if LOW[tile] != HIGH[tile]:
                off_board[LOW[tile]] -= 1
        state = state.after(move)
    return state
