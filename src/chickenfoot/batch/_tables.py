"""Constant tables of one rules configuration and player count: tiles by index, actions by parts."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np

from .._game import Rules, Tile, full_set
from ..actions import _play_parts

if TYPE_CHECKING:
    from numpy.typing import NDArray


@attrs.frozen(eq=False)
class Tables:
    """Holds the sizes and lookup tables every batch function of one configuration reads."""

    rules: Rules
    players: int
    tiles: int
    """T, the tiles in the set; tile ``t`` is ``full_set(max_pip)[t]`` (its ``Tile.index``)."""
    values: int
    """V = max_pip + 1."""
    actions: int
    """``V * V * (V - 1) + 2``, as in ``chickenfoot.actions``."""
    hand_size: int
    arms: int
    reserve: int
    high: NDArray[Any]
    """High half of tile t (T + 1 entries: the last is a dummy tile written to by games that do not move it)."""
    low: NDArray[Any]
    second: NDArray[Any]
    """The low half of tile t, or V for a double (it carries one value): a hand's second count to change."""
    pair: NDArray[Any]
    """V x V: the tile carrying both values (symmetric)."""
    score: NDArray[Any]
    """What tile t scores left in a hand (SET-2, SCORE-2); 0 for the dummy."""
    carries: NDArray[Any]
    """T x V: 1 where tile t carries the value (a double counts once)."""
    doubles: NDArray[Any]
    """V: the tile index of each double."""
    next_seat: NDArray[Any]
    """P: the seat after each seat (TURN-1)."""
    action_matched: NDArray[Any]
    """Per action: the value a play matches (V, the dummy value, for draw and pass)."""
    action_other: NDArray[Any]
    """Per action: the value a play exposes (V for a double, which opens a foot instead, and for draw and pass)."""
    action_slot: NDArray[Any]
    """Per action: the slot among the matched value's open ends (0 for draw and pass)."""
    action_tile: NDArray[Any]
    """Per action: the tile played (T, the dummy tile, for draw and pass)."""

    @property
    def yard_slot(self) -> int:
        """Gets the location code of a tile in the yard (seats are 0 to players - 1)."""
        return self.players

    @property
    def board_slot(self) -> int:
        """Gets the location code of a tile on the board."""
        return self.players + 1


@functools.lru_cache(maxsize=64)
def tables(rules: Rules, players: int) -> Tables:
    """Builds (once per configuration) the tables of ``rules`` with ``players`` players, checking the deal (DEAL-1)."""
    rules.check_players(players)
    tiles = full_set(rules.max_pip)
    count, values = len(tiles), rules.max_pip + 1
    high = np.array([tile.high for tile in tiles] + [0], dtype=np.intp)
    low = np.array([tile.low for tile in tiles] + [0], dtype=np.intp)
    second = np.where(high != low, low, values)
    pair = np.array([[Tile(a, b).index for b in range(values)] for a in range(values)], dtype=np.intp)
    score = np.array([rules.tile_value(tile) for tile in tiles] + [0], dtype=np.int32)
    carries = np.zeros((count, values), dtype=np.int16)
    carries[np.arange(count), high[:count]] = 1
    carries[np.arange(count), low[:count]] = 1
    doubles = np.array([Tile(value, value).index for value in range(values)], dtype=np.int16)
    # Every play action decoded once, as chickenfoot.actions numbers them, so a step looks its
    # parts up instead of dividing.
    plays = values * values * (values - 1)
    matched, other, slot = np.array([_play_parts(action, values) for action in range(plays)], dtype=np.intp).T
    action_matched = np.concatenate([matched, [values, values]])
    action_other = np.concatenate([np.where(matched != other, other, values), [values, values]])
    action_slot = np.concatenate([slot, [0, 0]])
    action_tile = np.concatenate([pair[matched, other], [count, count]])
    next_seat = (np.arange(players) + 1) % players
    decoded = (next_seat, action_matched, action_other, action_slot, action_tile)
    for array in (high, low, second, pair, score, carries, doubles, *decoded):
        array.flags.writeable = False
    return Tables(
        rules=rules,
        players=players,
        tiles=count,
        values=values,
        actions=values * values * (values - 1) + 2,
        hand_size=rules.hand_size_for(players),
        arms=rules.arms_for(players),
        reserve=rules.reserve_for(players),
        high=high,
        low=low,
        second=second,
        pair=pair,
        score=score,
        carries=carries,
        doubles=doubles,
        next_seat=next_seat,
        action_matched=action_matched,
        action_other=action_other,
        action_slot=action_slot,
        action_tile=action_tile,
    )
