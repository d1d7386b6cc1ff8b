"""Rating a ladder's games: each deal's games summed, the fit of them all, and its bootstrap over deals.

:class:`chickenfoot.tournament.LadderResult` asks for it; the fit itself is :mod:`chickenfoot._tournament._rating`'s.
"""

from __future__ import annotations

import itertools
import math
import random
from functools import lru_cache
from typing import Literal, TypeAlias

import attrs

from ._rating import Wins, fit

__all__ = ["LadderGame", "Unit"]

Unit: TypeAlias = Literal["round", "game"]
"""What one pairwise result is: a round (lower round score wins) or a game (lower total wins)."""


@attrs.frozen
class LadderGame:
    """Records one game of a ladder: a deal played with one seating.

    >>> from chickenfoot import Rules
    >>> from chickenfoot.tournament import run_ladder
    >>> result = run_ladder(["greedy", "random"], deals=1, rules=Rules.trains(max_pip=6), workers=1)
    >>> [(game.deal, game.seating) for game in result.games]
    [(0, (0, 1)), (0, (1, 0))]
    """

    deal: int
    """The deal's number, from 0."""
    seating: tuple[int, ...]
    """For each seat, the index in :attr:`LadderResult.bots` of the bot sitting there."""
    round_scores: tuple[tuple[int, ...], ...]
    """Each round's scores, by seat."""
    totals: tuple[int, ...]
    """The final totals, by seat."""
    winners: tuple[int, ...]
    """The winning seats."""
    faults: tuple[int, ...] = ()
    """The moves each seat forfeited (a program bot that failed), by seat; empty if none."""


class _Deal:
    """What one deal's games say, summed: pairwise wins, and each bot's scores, wins and faults."""

    def __init__(self, bots: int, games: list[LadderGame], unit: Unit) -> None:
        self.seated = set(games[0].seating)
        self.wins: Wins = [[0.0] * bots for _ in range(bots)]
        self.score = [0.0] * bots  # round scores summed
        self.rounds = [0] * bots  # seat-rounds played
        self.won = [0.0] * bots  # game wins (shared wins split)
        self.games = [0] * bots
        self.faults = [0] * bots
        for game in games:
            results = [game.totals] if unit == "game" else list(game.round_scores)
            for first, second in itertools.combinations(range(len(game.seating)), 2):
                a, b = game.seating[first], game.seating[second]
                for scores in results:
                    if scores[first] < scores[second]:
                        self.wins[a][b] += 1
                    elif scores[first] > scores[second]:
                        self.wins[b][a] += 1
                    else:
                        self.wins[a][b] += 0.5
                        self.wins[b][a] += 0.5
            for seat, bot in enumerate(game.seating):
                self.score[bot] += sum(scores[seat] for scores in game.round_scores)
                self.rounds[bot] += len(game.round_scores)
                self.won[bot] += (seat in game.winners) / len(game.winners)
                self.games[bot] += 1
                self.faults[bot] += game.faults[seat] if game.faults else 0

    def difference(self, a: int, b: int) -> float:
        """Gets bot ``a``'s mean round score minus bot ``b``'s at this deal."""
        return self.score[a] / self.rounds[a] - self.score[b] / self.rounds[b]


class _Analysis:
    """The fit of a ladder's games, and its bootstrap samples."""

    def __init__(
        self, bots: int, games: tuple[LadderGame, ...], seed: int, unit: Unit, anchor: int, samples: int
    ) -> None:
        by_deal: dict[int, list[LadderGame]] = {}
        for game in games:
            by_deal.setdefault(game.deal, []).append(game)
        self.deals = [_Deal(bots, games, unit) for games in by_deal.values()]
        self.games = [sum(deal.games[bot] for deal in self.deals) for bot in range(bots)]
        self.wins = [sum(deal.won[bot] for deal in self.deals) for bot in range(bots)]
        self.faults = [sum(deal.faults[bot] for deal in self.deals) for bot in range(bots)]
        self.scores = _scores(self.deals, bots)
        self.ratings = fit(_wins(self.deals, bots), anchor) if self.deals else [math.nan] * bots
        self.samples: list[list[float]] = []
        self.score_samples: list[list[float]] = [[] for _ in range(bots)]
        rng = random.Random(f"chickenfoot-ladder/bootstrap/{seed}")
        for _ in range(samples if len(self.deals) > 1 else 0):
            drawn = _resample(self.deals, rng)
            self.samples.append(fit(_wins(drawn, bots), anchor, start=self.ratings))
            for bot, score in enumerate(_scores(drawn, bots)):
                self.score_samples[bot].append(score)


def _resample(deals: list[_Deal], rng: random.Random) -> list[_Deal]:
    """Draws a bootstrap sample: as many deals as there are, with replacement."""
    return [deals[rng.randrange(len(deals))] for _ in deals]


@lru_cache(maxsize=16)
def _analysis(bots: int, games: tuple[LadderGame, ...], seed: int, unit: Unit, anchor: int, samples: int) -> _Analysis:
    """Fits a ladder of ``bots`` bots from its ``games``, bootstrap seeded by the ladder's ``seed``."""
    return _Analysis(bots, games, seed, unit, anchor, samples)


def _wins(deals: list[_Deal], bots: int) -> Wins:
    wins = [[0.0] * bots for _ in range(bots)]
    for deal in deals:
        for a in deal.seated:
            row, mine = wins[a], deal.wins[a]
            for b in deal.seated:
                row[b] += mine[b]
    return wins


def _scores(deals: list[_Deal], bots: int) -> list[float]:
    scores = []
    for bot in range(bots):
        rounds = sum(deal.rounds[bot] for deal in deals)
        scores.append(sum(deal.score[bot] for deal in deals) / rounds if rounds else math.nan)
    return scores


def _interval(samples: list[float]) -> tuple[float, float]:
    """Gets the 2.5th and 97.5th percentiles of ``samples``, NaN when there are none.

    A bootstrap sample that left a bot out (or cut it off from the anchor) gives it no rating;
    the interval is over the others, unless they are more than 2.5% of all: then it is NaN.
    """
    defined = sorted(value for value in samples if math.isfinite(value))
    if not defined or len(defined) < 0.975 * len(samples):
        return math.nan, math.nan
    last = len(defined) - 1
    return _percentile(defined, 0.025 * last), _percentile(defined, 0.975 * last)


def _percentile(ordered: list[float], at: float) -> float:
    below = math.floor(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)
