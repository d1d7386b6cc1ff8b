"""A step of the batch: each game's action checked and applied to its arrays (PLAY-*, FOOT-*, DRAW-*, TURN-1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._game import FOOT_TOES, IllegalMoveError

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray
from ._arrays import Batch, _flat, _live, _offsets, _set_slots, refresh
from ._ending import _blocked, _deal_next, _end_rounds, _foot_unfillable


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
    must be legal (as :func:`random_actions` and :func:`heaviest_actions` make them). With
    ``autoreset``, finished games are then dealt again, as by :func:`reset_finished`.
    """
    tb = batch.tables
    v = tb.values
    size = batch.size
    chosen = np.asarray(actions)
    if chosen.shape != (size,) or chosen.dtype.kind not in "iu":
        raise IllegalMoveError(f"actions must be {size} whole numbers, one per game; got {chosen.shape} {chosen.dtype}")
    chosen = chosen.astype(np.intp)  # small dtypes would wrap the action numbers below
    live = _live(batch) if where is None else _live(batch) & np.broadcast_to(np.asarray(where, dtype=np.bool_), (size,))
    if check:
        _check(batch, chosen, live)
    rows = _offsets(size, 1)
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
    by_mover = player * (v + 1) * size + rows  # + value * size: the mover's count of a value

    foot, out = _play(batch, is_play, matched, other, slot, tile, player, by_mover)
    _draw(batch, is_draw, is_play | is_pass, player, by_mover)

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


def _play(
    batch: Batch,
    is_play: NDArray[Any],
    matched: NDArray[Any],
    other: NDArray[Any],
    slot: NDArray[Any],
    tile: NDArray[Any],
    player: NDArray[Any],
    by_mover: NDArray[Any],
) -> tuple[NDArray[Any], NDArray[Any]]:
    """Plays each playing game's tile (the others write to the dummy column); gets the feet laid, and who went out."""
    tb = batch.tables
    t, v, p = tb.tiles, tb.values, tb.players
    size = batch.size
    rows = _offsets(size, 1)
    by_tile = _offsets(size, t + 1)  # flat offsets of each game's row in the B x (T+1) arrays
    held = _flat(batch.held)
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
    return foot, out


def _draw(
    batch: Batch, is_draw: NDArray[Any], clears: NDArray[Any], player: NDArray[Any], by_mover: NDArray[Any]
) -> None:
    """DRAW-1: yard[0] joins each drawing game's hand; its turn goes on with the drawn tile remembered.

    A play or a pass (``clears``) forgets the tile drawn before it. Fewer games draw than play,
    so this works on the drawing games alone.
    """
    tb = batch.tables
    p, v, size = tb.players, tb.values, batch.size
    by_tile = _offsets(size, tb.tiles + 1)
    held = _flat(batch.held)
    hand_count = _flat(batch.hand_count)
    batch.drawn[clears] = -1
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
