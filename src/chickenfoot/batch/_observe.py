"""Observation vectors for a whole batch, entry for entry those of :mod:`chickenfoot.observation`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..observation import blocks, observation_size
from ._arrays import Batch

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray


def observations(batch: Batch, seats: ArrayLike) -> NDArray[Any]:
    """Gets B x size: each game's observation for its seat in ``seats`` (one int, or one per game).

    Row ``i`` equals ``chickenfoot.observation.observation(to_state(batch, i), seat)`` for a
    whole-game batch (the same blocks, relative seats, and only what that seat may see). A
    single-round batch fills the same blocks, with totals of 0 and its round's number.

    >>> import numpy as np
    >>> import chickenfoot as cf
    >>> from chickenfoot import batch
    >>> from chickenfoot.observation import observation
    >>> games = batch.init(cf.Rules.trains(), players=4, seeds=np.arange(2))
    >>> bool((batch.observations(games, 0)[1] == observation(batch.to_state(games, 1), 0)).all())
    True
    """
    tb = batch.tables
    t, v, p, size = tb.tiles, tb.values, tb.players, batch.size
    seat = np.broadcast_to(np.asarray(seats, dtype=np.intp), (size,))
    if ((seat < 0) | (seat >= p)).any():
        raise ValueError(f"seats are 0 to {p - 1}, got {seats!r}")
    block = {name: (start, width) for name, start, width in blocks(tb.rules, p)}
    out = np.zeros((size, observation_size(tb.rules, p)), dtype=np.float32)

    def part(name: str) -> NDArray[Any]:
        start, width = block[name]
        return out[:, start : start + width]

    rows = np.arange(size)
    over = batch.game_over
    mine = (batch.current == seat) & ~over
    loc = batch.loc[:, :t]
    part("hand")[:] = loc == seat[:, None]
    drawn = np.where(mine & (batch.drawn >= 0), batch.drawn, t)
    part("drawn")[:] = np.arange(t) == drawn[:, None]
    part("board")[:] = loc == tb.board_slot
    part("open_ends")[:] = batch.ends_count[:v].T
    pending = batch.pending >= 0
    part("pending_value")[:] = (np.arange(v) == batch.pending_value[:, None]) & pending[:, None]
    part("pending_missing")[:, 0] = np.where(pending, batch.missing, 0)
    part("pending_center")[:, 0] = batch.pending == 0
    part("center")[:] = np.arange(v) == tb.high[batch.node_tile[:, 0]][:, None]
    yard = batch.yard_end - batch.yard_head
    part("yard")[:, 0] = yard
    part("yard")[:, 1] = np.maximum(0, yard - tb.reserve)
    relative = (seat[:, None] + np.arange(p)) % p  # entry k is the seat k places after the observer
    part("hand_sizes")[:] = batch.hand_count[rows[:, None], relative]
    part("totals")[:] = batch.totals[rows[:, None], relative]
    to_move = (batch.current - seat) % p
    part("to_move")[:] = (np.arange(p) == to_move[:, None]) & ~over[:, None]
    part("round")[:] = np.arange(tb.rules.rounds) == batch.round_index[:, None]
    return out
