"""Observation tensors: one fixed-size ``float32`` vector per player, for learning (needs numpy).

Install with ``pip install chickenfoot[numpy]`` (the OpenSpiel and PettingZoo extras include it).
The vector holds only what ``player`` may see. Seats are *relative*: entry 0 of every per-seat
block is ``player``, entry 1 the next player to move after them (TURN-1), and so on, so one
policy can play every seat. With ``S`` tiles in the set, ``V = max_pip + 1`` values, ``n``
players and ``R = max_pip + 1`` rounds, the blocks are, in order:

==================  =====  ==================================================================
block               size   meaning
==================  =====  ==================================================================
``hand``            S      1 for each tile in the player's hand (by :attr:`Tile.index`)
``drawn``           S      1 for the tile the player drew this turn and may or must play
``board``           S      1 for each tile on the board
``open_ends``       V      per value, how many non-pending open ends offer it
``pending_value``   V      one-hot value of the pending node (all 0 when none)
``pending_missing`` 1      tiles the pending node still needs (0 when none)
``pending_center``  1      1 while the pending node is the center (OPEN-2)
``center``          V      one-hot value of the round's center double
``hand_sizes``      n      tiles in each hand, relative seats
``yard``            2      tiles in the yard; tiles that may still be drawn (DRAW-1, YARD-1)
``to_move``         n      one-hot relative seat of the player to move (all 0 once over)
``totals``          n      each player's score over the finished rounds, relative seats
``round``           R      one-hot round number (ROUND-1)
==================  =====  ==================================================================

Counts and scores are raw numbers, not scaled. On double-9 with 4 players the vector has
3 * 55 + 10 + 10 + 1 + 1 + 10 + 4 + 2 + 4 + 4 + 10 = 221 entries.

>>> import chickenfoot as cf
>>> from chickenfoot.observation import observation, observation_size
>>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
>>> vector = observation(game, player=0)
>>> vector.shape, observation_size(game.rules, 4), int(vector[:55].sum())
((221,), 221, 11)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ._rules import Rules
from ._state import GameState

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["layout", "observation", "observation_size", "write_observation"]


def layout(rules: Rules, players: int) -> tuple[tuple[str, int, int], ...]:
    """Gets the blocks of the observation vector as ``(name, start, size)``, in order.

    >>> [name for name, _, _ in layout(Rules.trains(), 4)][:4]
    ['hand', 'drawn', 'board', 'open_ends']
    """
    tiles, values = rules.set_size, rules.max_pip + 1
    sizes = (
        ("hand", tiles),
        ("drawn", tiles),
        ("board", tiles),
        ("open_ends", values),
        ("pending_value", values),
        ("pending_missing", 1),
        ("pending_center", 1),
        ("center", values),
        ("hand_sizes", players),
        ("yard", 2),
        ("to_move", players),
        ("totals", players),
        ("round", rules.rounds),
    )
    blocks = []
    start = 0
    for name, size in sizes:
        blocks.append((name, start, size))
        start += size
    return tuple(blocks)


def observation_size(rules: Rules, players: int) -> int:
    """Gets the length of the observation vector for ``players`` players under ``rules``.

    >>> observation_size(Rules.trains(), 2), observation_size(Rules.cross(max_pip=12), 4)
    (215, 341)
    """
    _, start, size = layout(rules, players)[-1]
    return start + size


def _check(state: GameState, player: int) -> None:
    if type(state) is not GameState:
        raise TypeError(f"observation takes a GameState, got {type(state).__name__}")
    if type(player) is not int or not 0 <= player < state.players:
        raise ValueError(f"player must be a seat from 0 to {state.players - 1}, got {player!r}")


def write_observation(state: GameState, player: int, out: NDArray[np.float32]) -> None:
    """Writes ``player``'s observation of ``state`` into ``out`` (zeroed first), without allocating.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> out = np.ones(observation_size(game.rules, 4), np.float32)
    >>> write_observation(game, 1, out)
    >>> bool((out == observation(game, 1)).all())
    True
    """
    _check(state, player)
    blocks = {name: start for name, start, _ in layout(state.rules, state.players)}
    out.fill(0)
    round_ = state.round
    board = round_.board
    players = state.players
    for tile in round_.hands[player]:
        out[blocks["hand"] + tile.index] = 1
    if round_.drawn is not None and round_.current_player == player and not round_.is_over:
        out[blocks["drawn"] + round_.drawn.index] = 1
    for node in board.nodes:
        out[blocks["board"] + node.tile.index] = 1
    for value, ends in enumerate(board.ends_by_value[: state.rules.max_pip + 1]):
        out[blocks["open_ends"] + value] = len(ends)
    if board.pending is not None:
        out[blocks["pending_value"] + board.nodes[board.pending].exposed] = 1
        out[blocks["pending_missing"]] = board.missing
        out[blocks["pending_center"]] = board.pending == 0
    out[blocks["center"] + board.center.high] = 1
    yard = len(round_.yard)
    out[blocks["yard"]] = yard
    out[blocks["yard"] + 1] = max(0, yard - round_.reserve)
    for offset in range(players):
        seat = (player + offset) % players
        out[blocks["hand_sizes"] + offset] = len(round_.hands[seat])
        out[blocks["totals"] + offset] = state.totals[seat]
    if not state.is_over and not round_.is_over:
        out[blocks["to_move"] + (round_.current_player - player) % players] = 1
    out[blocks["round"] + min(state.round_index, state.rules.rounds - 1)] = 1


def observation(state: GameState, player: int) -> NDArray[np.float32]:
    """Gets ``player``'s observation of ``state`` as a new ``float32`` vector (layout above).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=1)
    >>> observation(game, 2).dtype
    dtype('float32')
    """
    out = np.zeros(observation_size(state.rules, state.players), np.float32)
    write_observation(state, player, out)
    return out
