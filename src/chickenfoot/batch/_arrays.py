"""The batch's arrays: every game's state as rows of fixed-shape arrays, and the views over them.

Every per-game quantity is a row of a fixed-shape array, and every rule is a whole-array
operation over the batch (the only Python loops run over players or rounds, never games):
legal actions in ``_legal``, a step in ``_step``, the end of rounds and games in ``_ending``,
the deal in ``_deal``. Writes that only some games make go to a *dummy* column (tile ``T``,
node ``T``, value ``V``) for the others, so no game is ever selected out of the batch on the hot path.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from ._tables import Tables

if TYPE_CHECKING:
    from numpy.typing import NDArray

ROUND_FIELDS = (
    "loc",
    "key",
    "yard",
    "yard_head",
    "yard_end",
    "node_tile",
    "node_parent",
    "node_count",
    "current",
    "drawn",
    "went_out",
)
"""The fields that make up a round's public state; finished rounds keep a copy of each (``final_*``)."""


@dataclasses.dataclass(frozen=True, eq=False)
class Batch:
    """Holds B games (or B single rounds) of one rules configuration and player count as arrays.

    Build one with :func:`init` or :func:`from_states`; read a game back with :func:`to_state`.
    The arrays are public for learning code to read (hands, board, scores); write to them only
    through :func:`step` and :func:`step_inplace`. With ``T`` tiles in the set, ``V = max_pip + 1``,
    ``P`` players and ``R`` rounds:
    """

    tables: Tables
    """The configuration: rules, players and lookup tables."""
    single_round: bool
    """Whether each game is one round (a :class:`~chickenfoot.RoundState`) or a whole game."""
    deal: str
    """``"numpy"`` (vectorized deals) or ``"engine"`` (:func:`~chickenfoot.deal_round`, exactly as ``new_game``)."""
    # -- the round in play -------------------------------------------------------------------------
    loc: NDArray[Any]
    """B x (T+1): where each tile is: a seat 0..P-1 (in that hand), P (the yard) or P+1 (the board)."""
    key: NDArray[Any]
    """B x (T+1): the order of tiles inside a hand (drawn tiles sort after dealt ones)."""
    yard: NDArray[Any]
    """B x (T+1): the yard's tiles in draw order; ``yard[yard_head:yard_end]`` is still there."""
    yard_head: NDArray[Any]
    yard_end: NDArray[Any]
    node_tile: NDArray[Any]
    """B x (T+1): the tile of each board node, in placement order (node 0 is the center)."""
    node_parent: NDArray[Any]
    """B x (T+1): the node each node hangs from (-1 for the center)."""
    node_count: NDArray[Any]
    ends: NDArray[Any]
    """(V+1) x V x B: per value, the non-pending open ends offering it, in node order (the action slots)."""
    ends_count: NDArray[Any]
    """(V+1) x B: how many non-pending open ends offer each value.

    Per-value arrays put the game last, so sums over values add whole rows (several times
    faster than reducing short rows)."""
    pending: NDArray[Any]
    """B: the pending node (OPEN-2, FOOT-2), or -1."""
    pending_value: NDArray[Any]
    missing: NDArray[Any]
    held: NDArray[Any]
    """P x (V+1) x B: per seat and value, the tiles in that hand carrying it (a double counts once)."""
    slots: NDArray[Any]
    """V x B: per value, how many nodes take a tile carrying it now (derived, refreshed by every step)."""
    mover: NDArray[Any]
    """V x B: per value, the tiles carrying it the player to move may play (derived; 0 once over)."""
    draw_ok: NDArray[Any]
    """B: whether drawing is legal now (derived: DRAW-1, DRAW-4, YARD-1)."""
    pass_ok: NDArray[Any]
    """B: whether passing is legal now (derived: DRAW-2, DRAW-3, YARD-2)."""
    hand_count: NDArray[Any]
    """B x P: tiles in each hand."""
    current: NDArray[Any]
    """B: the player to move (once a round is over: who went out, else whose turn was next)."""
    drawn: NDArray[Any]
    """B: the tile drawn this turn (DRAW-1), or -1."""
    round_over: NDArray[Any]
    went_out: NDArray[Any]
    # -- the game around it ------------------------------------------------------------------------
    seed: NDArray[Any]
    """B: each game's seed; every deal of the game is a function of it and the round (DEAL-2)."""
    round_index: NDArray[Any]
    totals: NDArray[Any]
    """B x P: the scores of the finished rounds, added up (GAME-1)."""
    game_over: NDArray[Any]
    """B: whether the game (in ``single_round`` mode: the round) is over."""
    terminated: NDArray[Any]
    """B: whether the game ended in the last step (kept when it was reset automatically)."""
    rewards: NDArray[Any]
    """B x P: what each player earned in the last step."""
    scores: NDArray[Any]
    """B x R x P: each finished round's scores (SCORE-1)."""
    final_loc: NDArray[Any]
    final_key: NDArray[Any]
    final_yard: NDArray[Any]
    final_yard_head: NDArray[Any]
    final_yard_end: NDArray[Any]
    final_node_tile: NDArray[Any]
    final_node_parent: NDArray[Any]
    final_node_count: NDArray[Any]
    final_current: NDArray[Any]
    final_drawn: NDArray[Any]
    final_went_out: NDArray[Any]
    reward: str = "win"
    """``"win"`` (zero-sum win utilities at the end) or ``"score"`` (per round: the mean score minus one's own)."""

    @property
    def size(self) -> int:
        """Gets B, the number of games."""
        return int(self.loc.shape[0])

    @property
    def players(self) -> int:
        """Gets the number of players of every game."""
        return self.tables.players

    def copy(self) -> Batch:
        """Returns a batch with copies of every array (what :func:`step` steps)."""
        arrays = {
            field.name: getattr(self, field.name).copy()
            for field in dataclasses.fields(self)
            if isinstance(getattr(self, field.name), np.ndarray)
        }
        return dataclasses.replace(self, **arrays)

    @property
    def nbytes(self) -> int:
        """Counts the bytes of every array of the batch."""
        return sum(
            getattr(self, field.name).nbytes
            for field in dataclasses.fields(self)
            if isinstance(getattr(self, field.name), np.ndarray)
        )


def empty(tables: Tables, size: int, *, single_round: bool, deal: str, reward: str) -> Batch:
    """Allocates a batch of ``size`` games with every array zeroed (no game dealt yet)."""
    t, v, p = tables.tiles, tables.values, tables.players
    rounds = 0 if single_round else tables.rules.rounds
    i8, i16, n = np.int8, np.int16, np.intp

    def z(shape: tuple[int, ...], dtype: type) -> NDArray[Any]:
        return np.zeros(shape, dtype=dtype)

    return Batch(
        tables=tables,
        single_round=single_round,
        deal=deal,
        reward=reward,
        loc=z((size, t + 1), i8),
        key=z((size, t + 1), i16),
        yard=z((size, t + 1), i16),
        yard_head=z((size,), n),
        yard_end=z((size,), n),
        node_tile=z((size, t + 1), i16),
        node_parent=z((size, t + 1), i16),
        node_count=z((size,), n),
        ends=z((v + 1, v, size), i16),
        ends_count=z((v + 1, size), i16),
        pending=z((size,), n),
        pending_value=z((size,), n),
        missing=z((size,), n),
        held=z((p, v + 1, size), i16),
        slots=z((v, size), i16),
        mover=z((v, size), i16),
        draw_ok=z((size,), np.bool_),
        pass_ok=z((size,), np.bool_),
        hand_count=z((size, p), i16),
        current=z((size,), n),
        drawn=z((size,), n),
        round_over=z((size,), np.bool_),
        went_out=z((size,), n),
        seed=z((size,), np.int64),
        round_index=z((size,), n),
        totals=z((size, p), np.int32),
        game_over=z((size,), np.bool_),
        terminated=z((size,), np.bool_),
        rewards=z((size, p), np.float32),
        scores=z((size, rounds, p), np.int32),
        final_loc=z((size, rounds, t + 1), i8),
        final_key=z((size, rounds, t + 1), i16),
        final_yard=z((size, rounds, t + 1), i16),
        final_yard_head=z((size, rounds), n),
        final_yard_end=z((size, rounds), n),
        final_node_tile=z((size, rounds, t + 1), i16),
        final_node_parent=z((size, rounds, t + 1), i16),
        final_node_count=z((size, rounds), n),
        final_current=z((size, rounds), n),
        final_drawn=z((size, rounds), n),
        final_went_out=z((size, rounds), n),
    )


# -- legal moves ------------------------------------------------------------------------------------
#
# Hot paths index rows with flat offsets (``array.reshape(-1)[offset + column]``): numpy's 2-D
# fancy indexing costs several times more per game.


def _flat(array: NDArray[Any]) -> NDArray[Any]:
    """Gets a flat view of a C-contiguous array (every batch array is one)."""
    return array.reshape(-1)


@functools.lru_cache(maxsize=16)
def _offsets(size: int, width: int) -> NDArray[Any]:
    """Gets B flat offsets ``game * width``: where each game's row starts in a B x width array (cached)."""
    offsets = np.arange(size) * width
    offsets.flags.writeable = False
    return offsets


def _live(batch: Batch) -> NDArray[Any]:
    return ~batch.game_over & ~batch.round_over


def _usable(batch: Batch) -> NDArray[Any]:
    """Gets B x T: the tiles the player to move may play (the drawn tile alone after a draw, DRAW-2/DRAW-3)."""
    t = batch.tables.tiles
    usable = batch.loc[:, :t] == batch.current.astype(np.int8)[:, None]  # seats fit loc's int8
    drew = np.flatnonzero(batch.drawn >= 0)  # few games: fix their rows alone
    usable[drew] = np.arange(t) == batch.drawn[drew, None]
    usable[np.flatnonzero(~_live(batch))] = False
    return usable


def refresh(batch: Batch, *, slots: bool = True) -> None:
    """Recomputes the derived arrays (``slots``, ``mover``, ``draw_ok``, ``pass_ok``) after the others changed."""
    if slots:
        _set_slots(batch)
    batch.mover[:] = _mover_values(batch)
    batch.draw_ok[:], batch.pass_ok[:] = _others(batch, _any_play(batch))


def _set_slots(batch: Batch) -> None:
    """Sets ``slots``: per value, how many nodes take a tile carrying it now (OPEN-2, FOOT-2, PLAY-1)."""
    size = batch.size
    pending = batch.pending >= 0
    np.multiply(batch.ends_count[: batch.tables.values], ~pending, out=batch.slots)  # the open ends, if none pends
    _flat(batch.slots)[batch.pending_value * size + _offsets(size, 1)] += pending  # else the pending node alone


def _mover_values(batch: Batch) -> NDArray[Any]:
    """Gets V x B: per value, the tiles carrying it that the player to move may play."""
    tb = batch.tables
    v = tb.values
    held, current = batch.held, batch.current
    mover = held[0, :v] * (current == 0)
    for seat in range(1, tb.players):  # adding each seat's masked counts beats gathering each game's row
        mover += held[seat, :v] * (current == seat)
    drew = np.flatnonzero(batch.drawn >= 0)
    mover[:, drew] = tb.carries[batch.drawn[drew]].T  # DRAW-2, DRAW-3: the drawn tile alone
    mover *= _live(batch)
    return mover


def _any_play(batch: Batch) -> NDArray[Any]:
    """Gets B flags: whether the player to move has a play (DRAW-4)."""
    return np.any((batch.mover > 0) & (batch.slots > 0), axis=0)


def _others(batch: Batch, any_play: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Gets B flags: whether draw is legal, whether pass is legal (DRAW-1..4, YARD-2)."""
    rules = batch.tables.rules
    live = _live(batch)
    can_draw = (batch.yard_end - batch.yard_head) > batch.tables.reserve
    drew = batch.drawn >= 0
    draw_ok = ~any_play & can_draw & (~drew | rules.draw_until_playable)
    pass_ok = (~any_play & ~draw_ok) | (drew & any_play & (rules.drawn_tile == "may_play"))
    return draw_ok & live, pass_ok & live


# -- stepping ---------------------------------------------------------------------------------------
