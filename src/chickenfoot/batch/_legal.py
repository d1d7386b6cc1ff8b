"""The batch's legal actions: every game's mask, and random and greedy choices (PLAY-1, DRAW-*)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray
from ._arrays import Batch, _flat, _offsets, _usable


def legal_action_mask(batch: Batch) -> NDArray[Any]:
    """Gets B x actions: true for each game's legal actions (the numbering of ``chickenfoot.actions``).

    A finished game has no legal action (its row is all false), as ``action_mask`` of a finished state.
    """
    tb = batch.tables
    v, size = tb.values, batch.size
    mask = np.zeros((size, tb.actions), dtype=np.bool_)
    mask[:, -2], mask[:, -1] = batch.draw_ok, batch.pass_ok
    # A play (matched, other, slot) is legal when the mover may play tile (matched, other) and the
    # matched value has more than ``slot`` slots. Few tiles are playable, so only their rows of
    # V - 1 slot flags are written, each a prefix from a table: once matched on the high half,
    # once on the low half (a double writes its one row twice).
    reach = np.minimum(batch.slots, v - 1)
    game, tile = np.divmod(np.flatnonzero(_usable(batch)), tb.tiles)
    plays = mask[:, :-2].reshape(size, v * v, v - 1)  # a view: rows of the mask split by (tile as matched, other; slot)
    high, low = tb.high[tile], tb.low[tile]
    for matched, other in ((high, low), (low, high)):
        slots = reach[matched, game]
        some = np.flatnonzero(slots)
        plays[game[some], (matched * v + other)[some]] = _prefixes(v - 1)[slots[some]]
    return mask


@functools.lru_cache(maxsize=16)
def _prefixes(width: int) -> NDArray[Any]:
    """Gets (width + 1) x width flags: row ``k`` has its first ``k`` entries true (cached, read-only)."""
    table = np.arange(width) < np.arange(width + 1)[:, None]
    table.flags.writeable = False
    return table


def _pick_row(weights: NDArray[Any], n: NDArray[Any]) -> NDArray[Any]:
    """Gets per column the row holding the ``n``-th unit of weight (0-based): rows whose running total is ``n`` or less.

    ``weights`` is small and whole (counts, or flags for the ``n``-th true row); int16 keeps the running totals cheap.
    """
    total = np.zeros(weights.shape[1], dtype=np.int16)
    row = np.zeros(weights.shape[1], dtype=np.int16)
    for weight in weights[:-1]:  # a loop over a short axis (the values); the last row is never passed
        total += weight
        row += total <= n
    return row.astype(np.intp)


def random_actions(batch: Batch, rng: np.random.Generator) -> NDArray[Any]:
    """Picks a legal action per game uniformly at random, without building the mask (same distribution).

    A play is a matched value, one of its slots and a tile carrying it, so the pick goes value
    first (weighted by its plays), then slot and tile, each uniform; no per-tile array is built.
    A finished game gets the pass action, which :func:`step` ignores for it.
    """
    tb = batch.tables
    v, size = tb.values, batch.size
    rows = _offsets(size, 1)
    slots, mover = _flat(batch.slots), _flat(batch.mover)
    per_value = batch.slots * batch.mover  # V x B: plays matched against each value
    count = per_value.sum(axis=0, dtype=np.int16)
    uniform = rng.random((3, size))
    pick = (uniform[0] * (count + batch.pass_ok)).astype(np.int16)  # pass is the last choice when legal with plays
    matched = _pick_row(per_value, pick)
    at = matched * size + rows
    slot = (uniform[1] * slots[at]).astype(np.intp)
    # The tiles carrying ``matched`` the mover may play, by their other half (the table is
    # symmetric): take one at random; the mover holds ``mover[matched]`` of them.
    tiles = tb.pair.take(matched, axis=0).T  # V x B
    usable = _flat(batch.loc)[_offsets(size, tb.tiles + 1) + tiles] == batch.current.astype(np.int8)
    other = _pick_row(usable, (uniform[2] * mover[at]).astype(np.int16))
    drawn = batch.drawn
    other = np.where(drawn < 0, other, tb.high[drawn] + tb.low[drawn] - matched)  # DRAW-2/3
    action = (matched * v + other) * (v - 1) + slot
    action = np.where(pick >= count, tb.actions - 1, action)
    return np.where(batch.draw_ok, tb.actions - 2, action)


def heaviest_actions(batch: Batch) -> NDArray[Any]:
    """Picks per game the play of the highest-scoring tile (SCORE-1 sheds most), else draws or passes.

    Ties go to the lowest tile index and then to its high half's first slot; with a playable
    drawn tile it plays it. A vectorized cousin of ``GreedyBot``
    without its chicken-foot look-ahead.
    """
    tb = batch.tables
    t, v = tb.tiles, tb.values
    rows = np.arange(batch.size)
    slots = batch.slots.T
    by_high = slots[:, tb.high[:t]]
    by_low = slots[:, tb.low[:t]]
    plays = _usable(batch) & ((by_high > 0) | (by_low > 0))
    draw_ok = batch.draw_ok
    tile = np.argmax(np.where(plays, tb.score[:t] + 1, 0), axis=1)
    on_high = by_high[rows, tile] > 0
    high, low = tb.high[tile].astype(np.intp), tb.low[tile].astype(np.intp)
    matched, other = np.where(on_high, high, low), np.where(on_high, low, high)
    action = np.where(plays.any(axis=1), (matched * v + other) * (v - 1), tb.actions - 1)
    return np.where(draw_ok, tb.actions - 2, action)
