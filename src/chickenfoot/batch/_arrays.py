"""The batch's arrays and the rules of play over them: legal masks, sampling, and ``step``.

Every per-game quantity is a row of a fixed-shape array, and every rule is a whole-array
operation over the batch (the only Python loops run over players or rounds, never games).
Writes that only some games make go to a *dummy* column (tile ``T``, node ``T``, value ``V``)
for the others, so no game is ever selected out of the batch on the hot path.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from .._board import FOOT_TOES
from .._errors import IllegalMoveError
from ._tables import Tables

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

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


def greedy_actions(batch: Batch) -> NDArray[Any]:
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


# -- stepping ---------------------------------------------------------------------------------------


def _check(batch: Batch, actions: NDArray[Any], moving: NDArray[Any]) -> None:
    """Raises :class:`~chickenfoot.IllegalMoveError` naming the games whose action is not legal."""
    tb = batch.tables
    v, size = tb.values, batch.size
    known = (actions >= 0) & (actions < tb.actions)
    action = np.where(known, actions, tb.actions - 1)
    tile = tb.action_tile[action]
    matched = np.minimum(tb.action_matched[action], v - 1)  # draw and pass match the dummy value V
    usable = (_flat(batch.loc)[_offsets(size, tb.tiles + 1) + tile] == batch.current.astype(np.int8)) & (
        (batch.drawn < 0) | (batch.drawn == tile)
    )
    ok_play = known & (action < tb.actions - 2) & usable
    ok_play &= tb.action_slot[action] < _flat(batch.slots)[matched * size + _offsets(size, 1)]
    ok = ok_play | ((action == tb.actions - 2) & batch.draw_ok) | ((action == tb.actions - 1) & batch.pass_ok)
    bad = np.flatnonzero(moving & ~(ok & known))
    if bad.size:
        shown = ", ".join(f"game {i}: action {int(actions[i])}" for i in bad[:5])
        more = f" and {bad.size - 5} more" if bad.size > 5 else ""
        raise IllegalMoveError(
            f"illegal action in {bad.size} game{'s' * (bad.size > 1)} ({shown}{more}): "
            "pick actions where legal_action_mask(batch) is true"
        )


def step_inplace(
    batch: Batch, actions: ArrayLike, *, check: bool = True, where: ArrayLike | None = None, autoreset: bool = False
) -> Batch:
    """Applies one action per game to ``batch`` itself and returns it (the in-place form of :func:`step`).

    Finished games ignore their action, and so do the games ``where`` is false for (a B-array
    of flags; by default every game moves). With ``check``, an illegal action raises
    :class:`~chickenfoot.IllegalMoveError` before anything changes; without it, the actions
    must be legal (as :func:`random_actions` and :func:`greedy_actions` make them). With
    ``autoreset``, finished games are then dealt again, as by :func:`reset_finished`.
    """
    tb = batch.tables
    t, v, p = tb.tiles, tb.values, tb.players
    size = batch.size
    chosen = np.asarray(actions)
    if chosen.shape != (size,) or chosen.dtype.kind not in "iu":
        raise IllegalMoveError(f"actions must be {size} whole numbers, one per game; got {chosen.shape} {chosen.dtype}")
    chosen = chosen.astype(np.intp)  # small dtypes would wrap the action numbers below
    live = _live(batch) if where is None else _live(batch) & np.broadcast_to(np.asarray(where, dtype=np.bool_), (size,))
    if check:
        _check(batch, chosen, live)
    rows = _offsets(size, 1)
    by_tile = _offsets(size, t + 1)  # flat offsets of each game's row in the B x (T+1) arrays
    batch.terminated[:] = False
    batch.rewards[:] = 0
    # Games that do not move pass; a pass decodes to the dummy tile and values, which every
    # play write below then sends to the dummy column.
    action = np.where(live, chosen, tb.actions - 1)
    is_play = action < tb.actions - 2
    is_draw = action == tb.actions - 2
    is_pass = live & (action == tb.actions - 1)
    matched, other = tb.action_matched[action], tb.action_other[action]
    slot, tile = tb.action_slot[action], tb.action_tile[action]
    player = batch.current.copy()
    held = _flat(batch.held)
    by_mover = player * (v + 1) * size + rows  # + value * size: the mover's count of a value
    hand_count = _flat(batch.hand_count)
    pending = batch.pending >= 0

    # PLAY-1: the tile leaves the hand for a new node on the end the action names.
    open_row = np.where(pending, v, matched)
    ends = _flat(batch.ends)
    onto = np.where(pending, batch.pending, ends[(open_row * v + slot) * size + rows])
    node = np.where(is_play, batch.node_count, t)
    _flat(batch.node_tile)[by_tile + node] = tile
    _flat(batch.node_parent)[by_tile + node] = onto
    batch.node_count[:] += is_play
    _flat(batch.loc)[by_tile + tile] = tb.board_slot
    hand_count[rows * p + player] -= is_play
    held[by_mover + matched * size] -= 1
    held[by_mover + other * size] -= 1  # a double carries one value (``other`` is the dummy)
    # PLAY-2: a non-pending end takes one tile, so it leaves its value's list (the later slots move up).
    counts = _flat(batch.ends_count)
    _drop_end(batch, open_row, slot)
    counts[open_row * size + rows] -= 1
    # OPEN-3, FOOT-3: the pending node stops pending once full.
    filled = is_play & pending
    batch.missing[:] -= filled
    batch.pending[filled & (batch.missing == 0)] = -1
    # FOOT-1: a double becomes a pending foot; any other tile offers its other half at the end of that list.
    foot = is_play & (other == v)
    feet = np.flatnonzero(foot)
    batch.pending[feet] = node[feet]
    batch.pending_value[feet] = matched[feet]
    batch.missing[feet] = FOOT_TOES
    new_count = other * size + rows
    ends[(other * v + np.minimum(counts[new_count], v - 1)) * size + rows] = node
    counts[new_count] += 1
    batch.ends_count[v] = 0
    out = is_play & (hand_count[rows * p + player] == 0)  # END-1

    # DRAW-1: yard[0] joins the hand; the turn goes on with the drawn tile remembered. Fewer
    # games draw than play, so this works on the drawing games alone.
    batch.drawn[is_play | is_pass] = -1
    drawing = np.flatnonzero(is_draw)
    drawer = player[drawing]
    drawn = _flat(batch.yard)[by_tile[drawing] + batch.yard_head[drawing]]
    _flat(batch.loc)[by_tile[drawing] + drawn] = drawer
    batch.yard_head[drawing] += 1
    hand_count[drawing * p + drawer] += 1
    held[by_mover[drawing] + tb.high[drawn] * size] += 1
    held[by_mover[drawing] + tb.second[drawn] * size] += 1
    batch.held[:, v] = 0
    batch.drawn[drawing] = drawn

    # TURN-1: a play (unless it went out) or a pass hands the turn on.
    batch.current[:] = np.where((is_play & ~out) | is_pass, tb.next_seat[player], player)

    # END-2 after every move (and the unfillable-foot variant after a foot is laid).
    _set_slots(batch)
    ended = out | (live & _blocked(batch))
    if tb.rules.unfillable_foot_ends_round:
        ended |= foot & _foot_unfillable(batch)
    batch.round_over[:] |= ended
    np.copyto(batch.went_out, player, where=out)  # a round in play has went_out -1 already
    finished = np.flatnonzero(ended)
    going_on = _end_rounds(batch, finished) if finished.size else finished
    dealt = _deal_next(batch, going_on, restart=autoreset)
    refresh(batch, slots=dealt)  # the slots were set above, for every game a deal did not change
    return batch


def _drop_end(batch: Batch, open_row: NDArray[Any], slot: NDArray[Any]) -> None:
    """Removes end ``slot`` from list ``open_row`` of each game (PLAY-2), moving the later ends up one slot.

    Only games that played on an end before their list's last need a move; the others (and
    the games whose ``open_row`` is the dummy V) are left out.
    """
    v, size = batch.tables.values, batch.size
    games = np.flatnonzero(slot < _flat(batch.ends_count)[open_row * size + _offsets(size, 1)] - 1)
    if games.size == 0:
        return
    ends = _flat(batch.ends)
    line = (open_row[games] * v + np.arange(v)[:, None]) * size + games  # V x n: the flat places of the lists
    row = ends[line]
    ends[line[:-1]] = np.where(np.arange(v - 1)[:, None] < slot[games], row[:-1], row[1:])


def step(batch: Batch, actions: ArrayLike, *, check: bool = True, autoreset: bool = False) -> Batch:
    """Returns the batch after one action per game; ``batch`` itself is never changed.

    ``actions`` holds one action number per game (finished games ignore theirs). The new batch's
    ``terminated`` and ``rewards`` tell which games ended in this step and what they paid. With
    ``autoreset``, those games are dealt again at once (``terminated`` still says they ended).
    """
    return step_inplace(batch.copy(), actions, check=check, autoreset=autoreset)


def _in_hands(batch: Batch) -> NDArray[Any]:
    """Gets V x B: per value, the tiles carrying it in all hands."""
    return batch.held[:, : batch.tables.values].sum(axis=0, dtype=np.int16)


def _blocked(batch: Batch) -> NDArray[Any]:
    """END-2: nobody can draw (DRAW-1, YARD-1) and no hand holds a tile carrying a playable value."""
    someone_can_play = ((batch.slots > 0) & (_in_hands(batch) > 0)).any(axis=0)
    return ((batch.yard_end - batch.yard_head) <= batch.tables.reserve) & ~someone_can_play


def _foot_unfillable(batch: Batch) -> NDArray[Any]:
    """END-2 variant: the pending foot needs more toes than hands and the drawable yard hold."""
    tb = batch.tables
    rows = np.arange(batch.size)
    value = batch.pending_value[:, None]
    position = np.arange(tb.tiles + 1)
    drawable = (position >= batch.yard_head[:, None]) & (position < (batch.yard_end - tb.reserve)[:, None])
    carries = (tb.high[batch.yard] == value) | (tb.low[batch.yard] == value)
    available = _in_hands(batch)[batch.pending_value, rows] + (drawable & carries).sum(axis=1)
    return available < batch.missing


def _end_rounds(batch: Batch, games: NDArray[Any]) -> NDArray[Any]:
    """Scores the rounds that just ended (SCORE-1), adds them up (GAME-1); gets the games with a next round to deal."""
    tb = batch.tables
    scores = _hand_scores(batch, games)
    last = batch.node_tile[games, batch.node_count[games] - 1]
    out = batch.went_out[games]
    penalty = (out >= 0) & (tb.high[last] == tb.low[last])  # the double-out variant of SCORE-1
    scores[np.flatnonzero(penalty), out[penalty]] += tb.rules.double_out_penalty
    if batch.reward == "score":  # added up: a round blocked as dealt can end in the same step
        batch.rewards[games] += scores.mean(axis=1, keepdims=True) - scores
    if batch.single_round:
        batch.game_over[games] = True
        batch.terminated[games] = True
        if batch.reward == "win":
            batch.rewards[games] = _utilities(scores == scores.min(axis=1, keepdims=True))
        return games[:0]
    rounds = batch.round_index[games]
    batch.scores[games, rounds] = scores
    places = games * tb.rules.rounds + rounds  # (game, round) as one row index: one fancy index, not two
    for name in ROUND_FIELDS:
        now, final = getattr(batch, name), getattr(batch, "final_" + name)
        final.reshape(-1, *now.shape[1:])[places] = now[games]
    batch.totals[games] += scores
    last_round = rounds == tb.rules.rounds - 1
    over = games[last_round]
    if over.size:
        batch.game_over[over] = True
        batch.terminated[over] = True
        if batch.reward == "win":
            batch.rewards[over] = _utilities(winners(batch, over))
    going_on = games[~last_round]
    batch.round_index[going_on] += 1  # ROUND-1
    return going_on


def _deal_next(batch: Batch, going_on: NDArray[Any], *, restart: bool) -> bool:
    """Deals the next round of ``going_on`` and, with ``restart``, a new game (seed + B) in place of every finished one.

    One deal for both: a deal's cost is mostly its numpy calls, whatever the number of games.
    Tells whether it dealt any.
    """
    from ._deal import clear_games, deal_rounds

    over = np.flatnonzero(batch.game_over) if restart else going_on[:0]
    if over.size:
        batch.seed[over] += batch.size
        clear_games(batch, over, first_round=batch.round_index[over] if batch.single_round else None)
    dealt = np.concatenate([going_on, over])
    if dealt.size:
        deal_rounds(batch, dealt)
        close_dealt(batch, dealt)
    return bool(dealt.size)


def close_dealt(batch: Batch, games: NDArray[Any]) -> None:
    """Ends and scores the rounds of ``games`` that are over as dealt, and deals on until one is in play (END-2).

    Only contrived options deal a round in which nobody can play or draw; the engine ends it at
    once, without a forced pass, and so does the batch.
    """
    from ._deal import deal_rounds

    while games.size:
        _set_slots(batch)
        ended = games[(batch.round_over[games] | _blocked(batch)[games]) & ~batch.game_over[games]]
        if not ended.size:
            return
        batch.round_over[ended] = True
        batch.went_out[ended] = -1
        games = _end_rounds(batch, ended)
        if games.size:
            deal_rounds(batch, games)


def _hand_scores(batch: Batch, games: NDArray[Any]) -> NDArray[Any]:
    """Gets len(games) x P: what the tiles left in each hand score (SCORE-1), one weighted count over (game, place)."""
    tb = batch.tables
    t, n, places = tb.tiles, games.size, tb.players + 2
    at = (np.arange(n)[:, None] * places + batch.loc[games, :t]).ravel()
    weights = np.broadcast_to(tb.score[:t], (n, t)).ravel()
    totals = np.bincount(at, weights=weights, minlength=n * places).reshape(n, places)
    return totals[:, : tb.players].astype(np.int32)


def winners(batch: Batch, games: NDArray[Any]) -> NDArray[Any]:
    """Gets len(games) x P: who won each finished game (GAME-1, TIE-1, TIE-2)."""
    totals = batch.totals[games]
    won = totals == totals.min(axis=1, keepdims=True)
    if batch.tables.rules.tie_break == "share":
        return won
    # TIE-2: the most zero-score rounds, then the lowest non-zero round score, the next lowest, ...
    scores = batch.scores[games]
    zeros = (scores == 0).sum(axis=1)
    won &= zeros == np.where(won, zeros, -1).max(axis=1, keepdims=True)
    ordered = np.sort(np.where(scores == 0, np.iinfo(np.int32).max, scores), axis=1)
    for k in range(ordered.shape[1]):
        column = np.where(won, ordered[:, k, :], np.iinfo(np.int32).max)
        won &= column == column.min(axis=1, keepdims=True)
    return won


def _utilities(won: NDArray[Any]) -> NDArray[Any]:
    """Gets zero-sum win utilities as :func:`chickenfoot.win_utilities`: a win shared by the winners pays 1."""
    players = won.shape[1]
    share = won / won.sum(axis=1, keepdims=True)
    return (players / (players - 1) * (share - 1 / players)).astype(np.float32)


def reset_finished(batch: Batch) -> Batch:
    """Deals a new game in place of every finished one (seed + B), keeping ``terminated`` and ``rewards``."""
    if batch.game_over.any():
        _deal_next(batch, np.zeros(0, dtype=np.intp), restart=True)
        refresh(batch)
    return batch
