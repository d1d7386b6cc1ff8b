"""The bot interface (:class:`Bot`), what every bot uses to choose, and the simple bots: random, heaviest, greedy.

Every bot reads :func:`moves_to_choose` (a view's legal moves, or why it has none) and draws its
randomness from :func:`view_rng` (seeded by the bot's seed and the view, so a choice is a pure
function of both, and tournaments give the same results on any number of workers).
"""

from __future__ import annotations

import math
import random
from typing import Protocol, runtime_checkable

from .._core import count_values, rating
from .._game import Move, Play, PlayerView

__all__ = ["Bot", "GreedyBot", "HeaviestBot", "RandomBot", "greedy_score", "moves_to_choose", "view_rng"]


@runtime_checkable
class Bot(Protocol):
    """Chooses a move: any callable from a :class:`~chickenfoot.PlayerView` to one of ``view.legal_moves``.

    A bot may also have ``round_over(view)`` and ``game_over(view)`` methods: :func:`play_out`
    (so tournaments too) calls them with the bot's view after each round and after the game.

    >>> import chickenfoot as cf
    >>> isinstance(GreedyBot(), Bot), isinstance(lambda view: view.legal_moves[0], Bot)
    (True, True)
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the move to make; called only when it is the view's player's turn."""
        ...


def moves_to_choose(view: PlayerView) -> tuple[Move, ...]:
    """Gets the view's legal moves, refusing a view in which its player has no move to make."""
    if not view.legal_moves:
        raise ValueError(
            f"player {view.player} has no move to make in this view (it is not their turn, or the game is over): "
            "ask a bot only for the player to move"
        )
    return view.legal_moves


def view_rng(seed: int, view: PlayerView) -> random.Random:
    """Gets a bot's random generator for one decision: a pure function of its seed and the view."""
    # A string seed is hashed with SHA-512 by `random`, the same on every machine and process.
    return random.Random(f"{seed}/{view.player}/{view.round_index}/{len(view.history)}/{sum(view.totals)}")


class RandomBot:
    """Picks uniformly among the legal moves, seeded.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> RandomBot(seed=1)(view) in view.legal_moves
    True
    """

    def __init__(self, seed: int = 0) -> None:
        """Builds a random bot whose choices depend only on ``seed`` and the view."""
        self.seed = seed

    def __call__(self, view: PlayerView) -> Move:
        """Returns a legal move chosen at random."""
        return view_rng(self.seed, view).choice(moves_to_choose(view))

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


class HeaviestBot:
    """Plays its most valuable playable tile (the first of equals, in the engine's order); else draws or passes.

    The simplest sensible strategy, and the baseline any heuristic should beat: a tile left in
    hand scores its value against its holder (SCORE-1), so shed the heaviest first.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> move = HeaviestBot()(view)
    >>> max(view.rules.tile_value(m.tile) for m in view.legal_moves) == view.rules.tile_value(move.tile)
    True
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the most valuable play, else the first legal move (draw or pass)."""
        moves = moves_to_choose(view)
        best: Move = moves[0]
        best_value = -1
        for move in moves:
            if type(move) is Play:
                value = view.rules.tile_value(move.tile)
                if value > best_value:
                    best, best_value = move, value
        return best

    def __repr__(self) -> str:
        return "HeaviestBot()"


def _value_counts(view: PlayerView) -> tuple[list[int], list[int]]:
    """Counts, per pip value, the tiles carrying it in the view's hand, and those off the board (in hand or unseen)."""
    held = [0] * (view.rules.max_pip + 1)
    count_values(tuple([tile.index for tile in view.hand]), held)
    off_board = list(held)
    count_values(tuple([tile.index for tile in view.unseen]), off_board)
    return held, off_board


def greedy_score(view: PlayerView, move: Play) -> float:
    """Rates a play for :class:`GreedyBot` (higher is better).

    The tile's value (SCORE-1: what it would cost left in hand); plus one point per other tile in
    hand that could follow on the end it leaves (at most two); minus one point per unseen tile
    (in the other hands or the yard) carrying that end's value, so ends the others are unlikely
    to match are preferred. A double (which opens a chicken foot, FOOT-1) gets 4 points if the
    hand holds a toe for it, else loses 3, and loses a point per unseen tile of its value.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    >>> view = cf.observe(game, game.current_player)
    >>> [(str(play), greedy_score(view, play)) for play in view.legal_moves]
    [('9-3@0', 7.0), ('9-6@0', 8.0), ('9-4@0', 10.0)]
    """
    if type(move) is not Play:
        raise TypeError(f"greedy_score rates a play, got {move!r}")
    held, off_board = _value_counts(view)
    offered = view.board.nodes[move.onto].exposed
    return float(rating(move.tile.index, offered, held, off_board, view.rules.tile_value(move.tile)))


class GreedyBot:
    """Makes the best play by :func:`greedy_score`, looking one move ahead and no further.

    It sheds valuable tiles, keeps ends it can follow, prefers ends the others are unlikely to
    match (counting the unseen tiles of each value), and opens a chicken foot when it holds a
    toe for it. With no play it draws or passes (the only legal moves then); a playable drawn
    tile it plays. It beats :class:`HeaviestBot` on the ladder (see the strength page).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, game.current_player)
    >>> GreedyBot()(view) in view.legal_moves
    True
    """

    def __call__(self, view: PlayerView) -> Move:
        """Returns the best-rated play, else the first legal move (draw or pass)."""
        moves = moves_to_choose(view)
        best: Move = moves[0]
        best_score = -math.inf
        counts: tuple[list[int], list[int]] | None = None
        nodes = view.board.nodes
        for move in moves:
            if type(move) is Play:
                if counts is None:
                    counts = _value_counts(view)
                tile = move.tile
                score = rating(tile.index, nodes[move.onto].exposed, *counts, view.rules.tile_value(tile))
                if score > best_score:
                    best, best_score = move, score
        return best

    def __repr__(self) -> str:
        return "GreedyBot()"
