"""Scoring a round and choosing the game's winners (SCORE-*, GAME-1, TIE-*)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from operator import add

from .._core import winners
from ._plans import settings_for
from ._rules import Rules
from ._state import PlayerIndex, RoundResult, RoundState
from ._tiles import full_set

__all__ = ["close_round", "decide_winners", "score_round", "win_utilities", "worst_total"]


def score_round(state: RoundState) -> tuple[int, ...]:
    """Scores a finished round: each player the value of the tiles left in hand (SCORE-1, SCORE-2).

    The player who went out holds nothing and so scores 0, unless the rules charge a penalty
    for going out with a double (``Rules.double_out_penalty``).

    >>> from chickenfoot import Rules, deal_round
    >>> state = deal_round(Rules.trains(), players=2, seed=0, round_index=0)
    >>> score_round(state) == tuple(sum(tile.pips for tile in hand) for hand in state.hands)
    True
    """
    if type(state) is not RoundState:
        raise TypeError(f"score_round takes a RoundState, got {type(state).__name__}")
    return state._round.scores()


def close_round(totals: Sequence[int], final: RoundState) -> tuple[RoundResult, tuple[int, ...]]:
    """Scores a finished round (SCORE-1) and adds its scores to the running totals (GAME-1).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    >>> while not game.results:
    ...     game = cf.apply(game, cf.legal_moves(game)[0])
    >>> result, totals = close_round((5, 0), game.results[0].final)
    >>> totals == (5 + result.scores[0], result.scores[1]), result.double, str(result.outcome)
    (True, 9, 'blocked')
    """
    scores = score_round(final)
    result = RoundResult(final.double, scores, final.went_out, final)
    return result, tuple(map(add, totals, scores))  # both have one entry per player


def decide_winners(rules: Rules, totals: Sequence[int], results: Sequence[RoundResult]) -> tuple[PlayerIndex, ...]:
    """Decides the winners of a finished game: the lowest total (GAME-1), ties settled per the rules.

    *trains* shares the win among the tied (TIE-1). *cross* prefers the most zero-score rounds,
    then the lower lowest non-zero round score, then the next lowest, and so on (TIE-2).

    >>> from chickenfoot import Rules
    >>> decide_winners(Rules.trains(), totals=(10, 5, 5), results=())
    (1, 2)
    """
    return winners(tuple(totals), tuple([result.scores for result in results]), settings_for(rules).share_ties)


def worst_total(rules: Rules, rounds: int) -> int:
    """Gets the highest total a player can reach in ``rounds`` rounds: every tile left in hand each round.

    Learning frameworks use it to bound scores and utilities.

    >>> from chickenfoot import Rules
    >>> worst_total(Rules.trains(), rounds=1)
    495
    """
    return rounds * (sum(map(rules.tile_value, full_set(rules.max_pip))) + rules.double_out_penalty)


def win_utilities(players: int, won: Sequence[PlayerIndex]) -> list[float]:
    """Gets zero-sum win/loss utilities: a win shared by ``won`` pays 1 in all; everyone's mean is 0.

    A sole winner gets exactly 1 and a loser exactly ``-1 / (players - 1)``, the bounds a game
    declares (each value is computed exactly, then rounded once).

    >>> win_utilities(3, [0]), win_utilities(7, [0])[0]
    ([1.0, -0.5, -0.5], 1.0)
    """
    # A winner's share is n/(n-1) * (1/k - 1/n) = (n-k) / (k(n-1)); a loser's is -1/(n-1).
    k = len(won)
    winner = Fraction(players - k, k * (players - 1))
    loser = Fraction(-1, players - 1)
    return [float(winner if seat in won else loser) for seat in range(players)]
