"""Tournaments: many seeded games between bots, seats rotated, with results that do not depend on how they ran.

Game ``i`` of a tournament is a pure function of ``(rules, lineup, seed, i)``: its deal seed and
every bot's seed derive from those by SHA-256, and seat ``s`` is taken by ``lineup[(s + i) % n]``.
So the games can be sharded over any number of processes, or a Ray cluster, and the results,
gathered back in game order, are the same.
"""

from __future__ import annotations

import hashlib
import math
import os
import statistics
from collections.abc import Callable, Sequence
from typing import Literal, TypeAlias

import attrs

from ._engine import new_game
from ._rules import Rules
from .bots import check_spec, make_bot, play_out

__all__ = [
    "Backend",
    "Progress",
    "GameOutcome",
    "Standing",
    "TournamentResult",
    "play_game",
    "run_tournament",
]

Backend: TypeAlias = Literal["local", "ray"]
"""Where games run: local processes, or a Ray cluster (``chickenfoot[ray]``)."""

Progress: TypeAlias = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each finished game."""


def _derive(*parts: object) -> int:
    digest = hashlib.sha256("/".join(map(str, ("chickenfoot-tournament", *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "big")


@attrs.frozen
class GameOutcome:
    """Records one finished tournament game, seen by seat.

    >>> outcome = play_game(Rules.trains(), ["greedy", "random"], seed=1, index=0)
    >>> outcome.index, len(outcome.totals), sum(outcome.totals) == sum(map(sum, outcome.round_scores))
    (0, 2, True)
    """

    index: int
    """The game's number in the tournament, from 0."""
    seed: int
    """The seed the game was dealt from."""
    seats: tuple[int, ...]
    """For each seat, the index in the lineup of the bot sitting there."""
    round_scores: tuple[tuple[int, ...], ...]
    """Each round's scores, by seat."""
    totals: tuple[int, ...]
    """The final totals, by seat."""
    winners: tuple[int, ...]
    """The winning seats."""


def play_game(rules: Rules, lineup: Sequence[str], seed: int, index: int) -> GameOutcome:
    """Plays game ``index`` of a tournament: seats rotated by ``index``, everything seeded from ``seed``.

    >>> outcome = play_game(Rules.trains(), ["greedy", "random"], seed=1, index=1)
    >>> outcome.seats, len(outcome.round_scores)
    ((1, 0), 10)
    """
    players = len(lineup)
    seats = tuple((seat + index) % players for seat in range(players))
    game_seed = _derive(seed, index)
    bots = [make_bot(lineup[entry], seed=_derive(seed, index, seat)) for seat, entry in enumerate(seats)]
    game = play_out(new_game(rules, players=players, seed=game_seed), bots)
    return GameOutcome(
        index=index,
        seed=game_seed,
        seats=seats,
        round_scores=tuple(result.scores for result in game.results),
        totals=game.totals,
        winners=game.winners,
    )


@attrs.frozen
class Standing:
    """Sums up how one bot (all the seats it took, pooled) did over a tournament.

    >>> result = run_tournament(["greedy", "random"], games=2, seed=1, workers=1)
    >>> [(standing.bot, standing.games) for standing in result.standings]
    [('greedy', 2), ('random', 2)]
    """

    bot: str
    """The bot's name, as in the lineup."""
    seats: int
    """How many seats of each game it took."""
    games: int
    """The number of games."""
    mean_round_score: float
    """Its mean score per round (lower is better)."""
    ci95: float
    """Half-width of the 95% confidence interval of ``mean_round_score`` (normal, over games)."""
    win_rate: float
    """Its share of game wins per seat (a shared win counts as a fraction); 1/players is par."""
    win_ci95: float
    """Half-width of the 95% confidence interval of ``win_rate`` (normal, over games)."""
    mean_rounds_won: float
    """Rounds per game in which it scored the lowest (ties shared), per seat."""


def _mean_ci(samples: list[float]) -> tuple[float, float]:
    """Gets the mean and the half-width of its normal 95% confidence interval (NaN when undefined)."""
    if not samples:
        return math.nan, math.nan
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))


@attrs.frozen
class TournamentResult:
    """Holds every game of a tournament, and the standings computed from them.

    >>> result = run_tournament(["greedy", "random"], games=2, seed=1, workers=1)
    >>> result.lineup, [outcome.seats for outcome in result.outcomes]
    (('greedy', 'random'), [(0, 1), (1, 0)])
    """

    rules: Rules
    """The rules played."""
    lineup: tuple[str, ...]
    """The bots, one per player; seats rotate through them game by game."""
    seed: int
    """The tournament's seed."""
    outcomes: tuple[GameOutcome, ...]
    """The games, in order."""

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Gets one :class:`Standing` per distinct bot name, in lineup order."""
        names = list(dict.fromkeys(self.lineup))
        rows = []
        for name in names:
            entries = {i for i, spec in enumerate(self.lineup) if spec == name}
            per_game: list[float] = []
            wins: list[float] = []
            rounds_won: list[float] = []
            for outcome in self.outcomes:
                mine = [seat for seat, entry in enumerate(outcome.seats) if entry in entries]
                mine_scores = [scores[seat] for scores in outcome.round_scores for seat in mine]
                per_game.append(sum(mine_scores) / len(mine_scores))
                wins.append(sum(1 for seat in outcome.winners if seat in mine) / len(outcome.winners) / len(mine))
                won = 0.0
                for scores in outcome.round_scores:
                    low = min(scores)
                    tied = [seat for seat, score in enumerate(scores) if score == low]
                    won += sum(1 for seat in tied if seat in mine) / len(tied)
                rounds_won.append(won / len(mine))
            mean, ci95 = _mean_ci(per_game)
            win_rate, win_ci95 = _mean_ci(wins)
            rows.append(
                Standing(
                    bot=name,
                    seats=len(entries),
                    games=len(per_game),
                    mean_round_score=mean,
                    ci95=ci95,
                    win_rate=win_rate,
                    win_ci95=win_ci95,
                    mean_rounds_won=_mean_ci(rounds_won)[0],
                )
            )
        return tuple(rows)


def _play_task(task: tuple[Rules, tuple[str, ...], int, int]) -> GameOutcome:
    return play_game(*task)


def run_tournament(
    lineup: Sequence[str],
    games: int,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: Backend = "local",
    address: str | None = None,
    progress: Progress | None = None,
) -> TournamentResult:
    """Plays ``games`` games between the bots of ``lineup`` (one per player), seats rotated.

    ``workers`` local processes (default: all cores; 1 plays in this process), or with
    ``backend="ray"`` tasks on the Ray cluster at ``address`` (``None`` starts or joins a
    local one). The results are the same whatever the backend and the number of workers.

    >>> result = run_tournament(["greedy", "random"], games=4, seed=1, workers=1)
    >>> [standing.bot for standing in result.standings], len(result.outcomes)
    (['greedy', 'random'], 4)
    """
    rules = Rules.trains() if rules is None else rules
    lineup = tuple(lineup)
    for spec in lineup:
        check_spec(spec)
    rules.check_players(len(lineup))
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of 1 or more, got {games!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of 1 or more, got {workers!r}")
    tasks = [(rules, lineup, seed, index) for index in range(games)]
    if backend == "ray":
        outcomes = _run_ray(tasks, address, progress)
    elif backend == "local":
        outcomes = _run_local(tasks, workers or os.cpu_count() or 1, progress)
    else:
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    return TournamentResult(rules=rules, lineup=lineup, seed=seed, outcomes=tuple(outcomes))


def _run_local(
    tasks: list[tuple[Rules, tuple[str, ...], int, int]], workers: int, progress: Progress | None
) -> list[GameOutcome]:
    outcomes: list[GameOutcome] = []
    if workers == 1 or len(tasks) == 1:
        for task in tasks:
            outcomes.append(_play_task(task))
            if progress is not None:
                progress(len(outcomes), len(tasks))
        return outcomes
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
        for outcome in pool.map(_play_task, tasks):  # map yields in task order
            outcomes.append(outcome)
            if progress is not None:
                progress(len(outcomes), len(tasks))
    return outcomes


def _run_ray(
    tasks: list[tuple[Rules, tuple[str, ...], int, int]], address: str | None, progress: Progress | None
) -> list[GameOutcome]:
    from ._ray import run_on_ray

    return run_on_ray(_play_task, tasks, address, progress)
