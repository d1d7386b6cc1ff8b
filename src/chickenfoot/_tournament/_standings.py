"""A tournament's games and standings: :func:`run_tournament`, and the :class:`TournamentResult` it returns."""

from __future__ import annotations

import math
import os
import statistics
from collections.abc import Sequence

import attrs

from .. import supervisor
from .._bots import BotReport, bot_name
from .._game import Rules
from ._matches import (
    Backend,
    Entrant,
    GameOutcome,
    Progress,
    check_entrant,
    check_for_workers,
    check_portable,
    check_starts,
    play_task,
    run_local,
)

__all__ = ["Standing", "TournamentResult", "run_tournament", "wilson"]


@attrs.frozen
class Standing:
    """Sums up how one bot (all the seats it took, pooled) did over a tournament.

    >>> result = run_tournament(["greedy", "random"], games=2, seed=1, workers=1)
    >>> [(standing.bot, standing.games) for standing in result.standings]
    [('greedy', 2), ('random', 2)]
    """

    bot: str
    """The bot's name: as in the lineup for a bot name, else its ``name`` attribute, function name or repr."""
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
    report: BotReport = attrs.field(factory=BotReport)
    """What it called itself and did wrong over the tournament: a program's handshake name and faults, pooled."""


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
    """The bots' names (see :attr:`Standing.bot`), one per player; seats rotate through them game by game."""
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
            report = BotReport()
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
                for seat in mine if outcome.reports else ():
                    report += outcome.reports[seat]
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
                    report=report,
                )
            )
        return tuple(rows)


def run_tournament(
    lineup: Sequence[Entrant],
    games: int,
    *,
    rules: Rules | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: Backend = "local",
    address: str | None = None,
    progress: Progress | None = None,
    keep_moves: bool = False,
) -> TournamentResult:
    """Plays ``games`` games between the bots of ``lineup`` (one per player), seats rotated.

    Each entry is a bot name (see :func:`~chickenfoot.bots.make_bot`) or a bot object: a
    :class:`~chickenfoot.bots.Bot` or any function from a view to a move. ``workers`` local
    processes (default: all cores; 1 plays in this process), or with ``backend="ray"`` tasks on
    the Ray cluster at ``address`` (``None`` starts or joins a local one). Bot objects are copied
    (pickled) to the workers: one that cannot be, such as a lambda or a bot defined at an
    interactive prompt, is refused with :class:`~chickenfoot.BotSpecError` unless ``workers=1``.
    Each local worker is a fresh Python process that imports the modules of the bots it gets, so
    a script that plays on several workers does so under ``if __name__ == "__main__":``. The
    results are the same whatever the backend and the number of workers. Games are handed out as
    workers free up, so even a huge ``games`` starts playing at once. With ``keep_moves`` each
    outcome carries its moves (:attr:`GameOutcome.moves`), for saving the games as records. Every
    process a program bot started is gone when it returns or raises (Ctrl-C included). Before the
    first game each program bot is started once and each ``py:`` bot built: one that cannot play
    stops the tournament there with a :class:`~chickenfoot.BotSpecError` naming it and the cause.

    >>> import chickenfoot as cf, chickenfoot.bots
    >>> def heaviest(view):
    ...     return max(view.legal_moves, key=lambda move: getattr(move, "tile", cf.Tile(0, 0)).pips)
    >>> result = run_tournament([heaviest, cf.bots.GreedyBot(), "random"], games=3, seed=1, workers=1)
    >>> [standing.bot for standing in result.standings], len(result.outcomes)
    (['heaviest', 'GreedyBot()', 'random'], 3)
    """
    rules = Rules.trains() if rules is None else rules
    lineup = tuple(lineup)
    _check_arguments(lineup, rules, games, workers, backend)
    tag = supervisor.new_tag()
    tasks = ((rules, lineup, seed, index, keep_moves, tag) for index in range(games))
    try:
        if backend == "ray":
            from ._ray import cloudpickle_dumps, run_on_ray

            check_portable(lineup, cloudpickle_dumps(), "Ray workers")
            outcomes = run_on_ray(play_task, tasks, games, address, progress)
        else:
            workers = min(workers or os.cpu_count() or 1, games)
            if workers > 1:
                check_for_workers(lineup)
            outcomes = run_local(tasks, games, workers, progress)
    finally:
        supervisor.sweep(tag)  # whatever a killed worker left behind
    names = tuple(bot_name(entry) for entry in lineup)
    return TournamentResult(rules=rules, lineup=names, seed=seed, outcomes=tuple(outcomes))


def _check_arguments(lineup: tuple[Entrant, ...], rules: Rules, games: int, workers: int | None, backend: str) -> None:
    """Checks a tournament's arguments, saying what is wrong with the first that is, then that every bot can play."""
    for at, entry in enumerate(lineup):
        check_entrant(at, entry)
    rules.check_players(len(lineup))
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of 1 or more, got {games!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of 1 or more, got {workers!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    check_starts(lineup)  # last: it starts programs, which the checks above spare a wrong call


def wilson(rate: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Gets the Wilson score interval of a success rate over ``trials`` (95% by default).

    Unlike rate ± 1.96 standard errors it stays within 0 to 1 and is not zero-width after a
    few games that all went one way.

    >>> low, high = wilson(1.0, 4)
    >>> round(low, 3), high
    (0.51, 1.0)
    """
    if trials <= 0 or math.isnan(rate):
        return math.nan, math.nan
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z / (1 + z * z / trials) * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)
