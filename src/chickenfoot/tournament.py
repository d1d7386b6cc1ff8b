"""Tournaments: many seeded games between bots, seats rotated, with results that do not depend on how they ran.

A lineup mixes bot names (``"greedy"``, ``"search:100"``, ``"cmd:node bot.js"``, see
:func:`~chickenfoot.bots.make_bot`) with bot objects: a :class:`~chickenfoot.bots.Bot` instance
or any function from a view to a move. Game ``i`` of a tournament is a pure function of
``(rules, lineup, seed, i)``: its deal seed and every named bot's seed derive from those by
SHA-256, and seat ``s`` is taken by ``lineup[(s + i) % n]``. So the games can be sharded over any
number of processes, or a Ray cluster, and the results, gathered back in game order, are the
same, provided each bot object chooses from its view alone, as the built-in bots do (a bot
object is copied into each worker process, or used as is with ``workers=1``).

Program bots (:class:`~chickenfoot.bots.ProcessBot`) are never shared between games: each game
runs its own copy, and what each program called itself and did wrong comes back in the results
(:attr:`GameOutcome.reports`, :attr:`Standing.report`), the same for any number of workers and
on Ray. An in-process bot that raises or chooses an illegal move stops the tournament with a
:class:`~chickenfoot.bots.BotError` naming it, its seat, the game and the position. No process a
program bot started outlives the tournament, even when it is interrupted.
"""

from __future__ import annotations

import collections
import copy
import hashlib
import math
import os
import pickle
import signal
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from types import FrameType
from typing import Any, Literal, TypeAlias

import attrs

from . import supervisor
from ._engine import new_game
from ._errors import BotSpecError
from ._faults import BotReport
from ._moves import Move
from ._rules import Rules
from .bots import Bot, ProcessBot, _play, bot_name, check_spec, make_bot

__all__ = [
    "Backend",
    "Comparison",
    "Entrant",
    "GameOutcome",
    "LadderGame",
    "LadderResult",
    "Progress",
    "Rating",
    "Seating",
    "Standing",
    "TournamentResult",
    "Unit",
    "cheats",
    "ladder",
    "play_game",
    "run_tournament",
    "wilson",
]

Backend: TypeAlias = Literal["local", "ray"]
"""Where games run: local processes, or a Ray cluster (the ``ray`` extra)."""

Progress: TypeAlias = Callable[[int, int], None]
"""Called as ``progress(done, total)`` after each finished game."""

Entrant: TypeAlias = "str | Bot"
"""A lineup entry: a bot name for :func:`~chickenfoot.bots.make_bot`, or a bot (any callable from a view to a move)."""

_WINDOW = 4  # games queued per worker: enough to keep workers busy, few enough to start at once


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
    reports: tuple[BotReport, ...] = ()
    """What each seat's bot called itself and did wrong (see :class:`~chickenfoot.bots.BotReport`), by seat;
    empty when no seat has anything to report (no program played)."""
    moves: tuple[Move, ...] = ()
    """Every move of the game, in order, when the tournament kept them (``keep_moves=True``); else empty.

    With the rules, the player count and :attr:`seed` they make a :class:`~chickenfoot.GameRecord`."""


def _report(bot: Bot, index: int) -> BotReport:
    """Gets what a seat's bot reported over game ``index``: a program's handshake name and faults."""
    if not isinstance(bot, ProcessBot):
        return BotReport()
    faults = [attrs.evolve(fault, game=index) for fault in bot.faults]
    return BotReport.tally(bot.report().name, faults, bot.stopped)


def play_game(
    rules: Rules, lineup: Sequence[Entrant], seed: int, index: int, *, keep_moves: bool = False
) -> GameOutcome:
    """Plays game ``index`` of a tournament: seats rotated by ``index``, everything seeded from ``seed``.

    Bot names are built afresh for the game; a :class:`~chickenfoot.bots.ProcessBot` is copied, so
    the game runs its own program (stopped after it); other bot objects are used as they are.
    With ``keep_moves`` the outcome carries every move, so the game can be saved as a record.

    >>> outcome = play_game(Rules.trains(), ["greedy", "random"], seed=1, index=1)
    >>> outcome.seats, len(outcome.round_scores)
    ((1, 0), 10)
    """
    players = len(lineup)
    seats = tuple((seat + index) % players for seat in range(players))
    game_seed = _derive(seed, index)
    bots: list[Bot] = []
    for seat, entry in enumerate(seats):
        bot = lineup[entry]
        if isinstance(bot, str):
            bot = make_bot(bot, seed=_derive(seed, index, seat))
        elif isinstance(bot, ProcessBot):
            bot = copy.copy(bot)  # the settings only: this game's own program, faults and name
        bots.append(bot)
    try:
        game = _play(new_game(rules, players=players, seed=game_seed), bots, index)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if callable(close):  # a ProcessBot: stop its program between games
                close()
    reports = tuple(_report(bot, index) for bot in bots)
    return GameOutcome(
        index=index,
        seed=game_seed,
        seats=seats,
        round_scores=tuple(result.scores for result in game.results),
        totals=game.totals,
        winners=game.winners,
        reports=reports if any(report != BotReport() for report in reports) else (),
        moves=game.moves if keep_moves else (),
    )


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


_Task: TypeAlias = "tuple[Rules, tuple[Entrant, ...], int, int, bool, str]"


def _play_task(task: _Task) -> GameOutcome:
    rules, lineup, seed, index, keep_moves, tag = task
    with supervisor.tagged(tag):  # the tournament's mark on its programs, for the sweep at its end
        return play_game(rules, lineup, seed, index, keep_moves=keep_moves)


def _check_entrant(at: int, entry: object) -> None:
    if isinstance(entry, str):
        check_spec(entry)
    elif not callable(entry):
        raise BotSpecError(
            f"lineup entry {at} is {entry!r}: give a bot name (random, greedy, search:N, cmd:COMMAND) "
            "or a bot, a callable from a view to a move"
        )


def _check_portable(lineup: tuple[Entrant, ...], dumps: Callable[[object], bytes], where: str) -> None:
    """Refuses a bot object that cannot be copied to ``where``, saying how to play it instead."""
    for entry in lineup:
        if isinstance(entry, str):
            continue
        try:
            dumps(entry)
        except Exception as error:  # pickling fails in many ways: PicklingError, TypeError, AttributeError
            raise BotSpecError(
                f"bot {bot_name(entry)} cannot be copied to {where} ({type(error).__name__}: {error}): "
                "define it at module level (a function or an instance of a module-level class), "
                "or play in this process with workers=1"
            ) from None


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
    (pickled) to the workers: one that cannot be, such as a lambda, is refused with
    :class:`~chickenfoot.BotSpecError` unless ``workers=1``. The results are the same whatever the
    backend and the number of workers. Games are handed out as workers free up, so even a
    huge ``games`` starts playing at once. With ``keep_moves`` each outcome carries its moves
    (:attr:`GameOutcome.moves`), for saving the games as records. Every process a program bot
    started is gone when it returns or raises (Ctrl-C included).

    >>> import chickenfoot as cf
    >>> def heaviest(view):
    ...     return max(view.legal_moves, key=lambda move: getattr(move, "tile", cf.Tile(0, 0)).pips)
    >>> result = run_tournament([heaviest, cf.bots.GreedyBot(), "random"], games=3, seed=1, workers=1)
    >>> [standing.bot for standing in result.standings], len(result.outcomes)
    (['heaviest', 'GreedyBot()', 'random'], 3)
    """
    rules = Rules.trains() if rules is None else rules
    lineup = tuple(lineup)
    for at, entry in enumerate(lineup):
        _check_entrant(at, entry)
    rules.check_players(len(lineup))
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a whole number of 1 or more, got {games!r}")
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be a whole number of 1 or more, got {workers!r}")
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    tag = supervisor.new_tag()
    tasks = ((rules, lineup, seed, index, keep_moves, tag) for index in range(games))
    try:
        if backend == "ray":
            from ._ray import cloudpickle_dumps, run_on_ray

            _check_portable(lineup, cloudpickle_dumps(), "Ray workers")
            outcomes = run_on_ray(_play_task, tasks, games, address, progress)
        else:
            workers = min(workers or os.cpu_count() or 1, games)
            if workers > 1:
                _check_portable(lineup, pickle.dumps, "worker processes")
            outcomes = _run_local(tasks, games, workers, progress)
    finally:
        supervisor.sweep(tag)  # whatever a killed worker left behind
    names = tuple(bot_name(entry) for entry in lineup)
    return TournamentResult(rules=rules, lineup=names, seed=seed, outcomes=tuple(outcomes))


def _run_local(tasks: Iterable[_Task], total: int, workers: int, progress: Progress | None) -> list[GameOutcome]:
    outcomes: list[GameOutcome] = []
    if workers == 1:
        for task in tasks:
            outcomes.append(_play_task(task))
            if progress is not None:
                progress(len(outcomes), total)
        return outcomes
    with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker) as pool:
        try:
            for outcome in _in_order(pool, tasks, window=_WINDOW * workers):
                outcomes.append(outcome)
                if progress is not None:
                    progress(len(outcomes), total)
        except BaseException:  # Ctrl-C, or an error in one game: the games in flight stop at once
            _stop_workers(pool)
            raise
    return outcomes


def _init_worker() -> None:
    # Ctrl-C in the terminal is for the parent, which stops the workers with SIGTERM: a worker
    # then kills its programs and exits, without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_worker)


def _exit_worker(signum: int, frame: FrameType | None) -> None:
    supervisor.stop_all()
    os._exit(128 + signum)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancels the games not started and ends the worker processes, which stop their programs first."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    processes = list((getattr(pool, "_processes", None) or {}).values())  # before it, no public handle
    pool.shutdown(wait=False, cancel_futures=True)
    if callable(terminate):
        terminate()
        return
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(10)


def _in_order(pool: Executor, tasks: Iterable[_Task], window: int) -> Iterator[GameOutcome]:
    """Plays the tasks on ``pool``, at most ``window`` queued at once, and yields their outcomes in task order."""
    pending: collections.deque[Any] = collections.deque()
    for task in tasks:
        pending.append(pool.submit(_play_task, task))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


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


# The ladder builds on the games above (play_game and its runners), so it is imported last.
from ._ladder import (  # noqa: E402
    Comparison as Comparison,
    LadderGame as LadderGame,
    LadderResult as LadderResult,
    Rating as Rating,
    Seating as Seating,
    Unit as Unit,
    cheats as cheats,
    ladder as ladder,
)

for _public in (Comparison, LadderGame, LadderResult, Rating, cheats, ladder):  # documented here
    _public.__module__ = __name__
