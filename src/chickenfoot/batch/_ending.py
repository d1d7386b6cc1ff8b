"""The end of the batch's rounds and games: blocked, scored, won, dealt again (END-*, SCORE-*, TIE-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray
from ._arrays import ROUND_FIELDS, Batch, _set_slots, refresh
from ._deal import clear_games, deal_rounds


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
