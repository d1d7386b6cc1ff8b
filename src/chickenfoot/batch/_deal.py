"""Dealing rounds into a batch: vectorized with numpy, or exactly as ``new_game`` with the engine's deal.

The vectorized deal follows DEAL-A1..A4 and DEAL-B1..B3 step for step, with its randomness
drawn from a counter-based generator (SplitMix64 of the game's seed and the round), so each
game's deals are a pure function of (seed, round) whatever else is in the batch (DEAL-2).
The tiles differ from :func:`~chickenfoot.deal_round`'s (which draws from Python's Mersenne
Twister); ``deal="engine"`` calls that function per game instead, at Python speed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._game import RoundState, deal_round
from ._arrays import Batch

if TYPE_CHECKING:
    from numpy.typing import NDArray

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: NDArray[Any]) -> NDArray[Any]:
    """SplitMix64's output function: a bijection of 64-bit words that scrambles every bit."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def _random(seed: NDArray[Any], rounds: NDArray[Any], width: int) -> NDArray[Any]:
    """Gets ``len(seed) x width`` random words, a pure function of each (seed, round)."""
    base = _mix(_mix(seed.astype(np.uint64)) ^ rounds.astype(np.uint64))
    return _mix(base[:, None] + np.arange(1, width + 1, dtype=np.uint64) * _GOLDEN)


def start_games(batch: Batch, games: NDArray[Any], first_round: NDArray[Any] | None = None) -> None:
    """Starts new games in rows ``games``: zero totals and deal the first round (or ``first_round``)."""
    clear_games(batch, games, first_round)
    deal_rounds(batch, games)


def clear_games(batch: Batch, games: NDArray[Any], first_round: NDArray[Any] | None = None) -> None:
    """Readies rows ``games`` for new games (no scores, round 0 or ``first_round``) that the caller then deals."""
    batch.round_index[games] = 0 if first_round is None else first_round
    batch.totals[games] = 0
    batch.scores[games] = 0
    batch.game_over[games] = False


def deal_rounds(batch: Batch, games: NDArray[Any]) -> None:
    """Deals round ``batch.round_index`` of each game in ``games``."""
    if batch.deal == "engine":
        tb = batch.tables
        for game in games.tolist():  # the exact deal is Python, one game at a time
            state = deal_round(tb.rules, tb.players, int(batch.seed[game]), int(batch.round_index[game]))
            load_round(batch, game, state)
        return
    _deal_numpy(batch, games)


def _deal_numpy(batch: Batch, games: NDArray[Any]) -> None:
    tb = batch.tables
    t, v, p, hand = tb.tiles, tb.values, tb.players, tb.hand_size
    n = games.size
    rounds = batch.round_index[games]
    double = tb.rules.max_pip - rounds.astype(np.intp)  # ROUND-1
    center = tb.doubles[double].astype(np.intp)
    words = _random(batch.seed[games], rounds, t + 1)
    deck = np.argsort(words[:, :t], axis=1)  # a uniform shuffle of the set
    cross = tb.rules.deal == "cross"
    if not cross:
        # DEAL-A1: the starter is whoever takes the double when the shuffled tiles go round from
        # seat r mod n; only the double's position counts, and it is uniform.
        starter = (rounds + words[:, t] % np.uint64(t)).astype(np.intp) % p
        # DEAL-A2: the double is the center; the rest, still uniformly shuffled, are dealt.
        deck = deck[deck != center[:, None]].reshape(n, t - 1)
    rows = games[:, None]
    position = np.arange(deck.shape[1])
    dealt = p * hand  # DEAL-A3, DEAL-B1
    batch.loc[games] = tb.board_slot
    batch.loc[rows, deck] = np.where(position < dealt, position // hand, tb.yard_slot)
    batch.key[rows, deck] = position
    yard_size = deck.shape[1] - dealt
    batch.yard[games] = t
    batch.yard[games, :yard_size] = deck[:, dealt:]
    batch.yard_head[games] = 0
    batch.yard_end[games] = yard_size
    if cross:
        at = np.argmax(deck == center[:, None], axis=1)
        holder = np.where(at < dealt, at // hand, -1)
        if tb.rules.center_fallback == "highest_double":
            # The variant: with nobody holding the round's double, the highest double held below
            # it is the center (a round never starts above its double).
            held = batch.loc[rows, tb.doubles[None, :]] < p  # n x V: each double's value, held by a seat
            held &= np.arange(v) < double[:, None]
            best = v - 1 - np.argmax(held[:, ::-1], axis=1)
            use = (holder < 0) & held.any(axis=1)
            center = np.where(use, tb.doubles[best], center)
            holder = np.where(use, batch.loc[games, center], holder)
            double = np.where(use, best, double)
        # DEAL-B2: nobody holds it: seats from r mod n draw in turn until one draws the double.
        nobody = holder < 0
        draws = np.where(nobody, at - dealt, 0)
        drawing = (np.arange(yard_size) < draws[:, None]) & nobody[:, None]
        seats = (rounds[:, None] + np.arange(yard_size)) % p
        batch.loc[rows, deck[:, dealt:]] = np.where(drawing, seats, batch.loc[rows, deck[:, dealt:]])
        holder = np.where(nobody, (rounds + draws) % p, holder)
        batch.yard_head[games] = np.where(nobody, draws + 1, 0)
        batch.loc[games, center] = tb.board_slot
        first = (holder + 1) % p  # DEAL-B3
    else:
        first = starter  # DEAL-A4
    count_hands(batch, games)
    _open_rounds(batch, games, center, double, first)


def _open_rounds(
    batch: Batch, games: NDArray[Any], center: NDArray[Any], double: NDArray[Any], first: NDArray[Any]
) -> None:
    """Lays each game's center as node 0 and hands the first turn to ``first`` (OPEN-1)."""
    batch.node_tile[games, 0] = center
    batch.node_parent[games, 0] = -1
    batch.node_count[games] = 1
    batch.ends_count[:, games] = 0
    batch.pending[games] = 0  # OPEN-2: the center is pending until it has its arms
    batch.pending_value[games] = double
    batch.missing[games] = batch.tables.arms
    batch.current[games] = first
    batch.drawn[games] = -1
    batch.round_over[games] = False
    batch.went_out[games] = -1


def count_hands(batch: Batch, games: NDArray[Any]) -> None:
    """Sets ``held`` and ``hand_count`` of ``games`` from where their tiles are (one count each)."""
    tb = batch.tables
    t, v, p, n = tb.tiles, tb.values, tb.players, games.size
    places = p + 2  # the seats, the yard and the board
    loc = batch.loc[games, :t].astype(np.intp)
    column = np.arange(n)[:, None]
    # Per (place, value, game): each tile counts once for its high half and once for its low
    # half, a double's second count going to the dummy value V.
    halves = np.concatenate([loc * (v + 1) + tb.high[:t], loc * (v + 1) + tb.second[:t]]) * n
    halves += np.concatenate([column, column])
    held = np.bincount(halves.ravel(), minlength=places * (v + 1) * n).reshape(places, v + 1, n)
    batch.held[:, :v, games] = held[:p, :v]
    batch.held[:, v, games] = 0
    sizes = np.bincount((column * places + loc).ravel(), minlength=n * places).reshape(n, places)
    batch.hand_count[games] = sizes[:, :p]


def load_round(batch: Batch, game: int, state: RoundState) -> None:
    """Writes ``state`` into row ``game`` of ``batch`` (Python: for loading and exact deals)."""
    tb = batch.tables
    t, v = tb.tiles, tb.values
    loc = [tb.board_slot] * (t + 1)
    key = [0] * (t + 1)
    held = [[0] * (v + 1) for _ in state.hands]
    for seat, hand in enumerate(state.hands):
        for position, tile in enumerate(hand):
            loc[tile.index] = seat
            key[tile.index] = position
            held[seat][tile.high] += 1
            held[seat][tile.low] += tile.low != tile.high
    for position, tile in enumerate(state.yard):
        loc[tile.index] = tb.yard_slot
        key[tile.index] = t + position  # drawn tiles join a hand after every dealt one
    batch.loc[game] = loc
    batch.key[game] = key
    batch.held[:, :, game] = held
    batch.hand_count[game] = [len(hand) for hand in state.hands]
    batch.yard[game] = t
    batch.yard[game, : len(state.yard)] = [tile.index for tile in state.yard]
    batch.yard_head[game] = 0
    batch.yard_end[game] = len(state.yard)
    board = state.board
    nodes = board.nodes
    batch.node_tile[game, : len(nodes)] = [node.tile.index for node in nodes]
    batch.node_parent[game, : len(nodes)] = [-1 if node.parent is None else node.parent for node in nodes]
    batch.node_count[game] = len(nodes)
    batch.ends[:, :, game] = 0
    for value in range(v):
        ends = sorted(board.ends_by_value[value])
        batch.ends[value, : len(ends), game] = ends
        batch.ends_count[value, game] = len(ends)
    batch.ends_count[v, game] = 0
    batch.pending[game] = -1 if board.pending is None else board.pending
    batch.pending_value[game] = 0 if board.pending is None else board.node(board.pending).exposed
    batch.missing[game] = board.missing
    batch.current[game] = state.current_player
    batch.drawn[game] = -1 if state.drawn is None else state.drawn.index
    batch.round_over[game] = state.is_over
    batch.went_out[game] = -1 if state.went_out is None else state.went_out
