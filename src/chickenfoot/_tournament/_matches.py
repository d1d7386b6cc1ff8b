"""One tournament game and the machinery that runs many: what :mod:`chickenfoot.tournament` and the ladder share.

A game is a pure function of ``(rules, lineup, seed, index)`` (:func:`play_game`); the runners
play tasks in worker processes and give back the outcomes in task order. The public names are
shown as :mod:`chickenfoot.tournament`'s, which re-exports them.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import hashlib
import multiprocessing
import multiprocessing.context
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import FrameType
from typing import Any, Literal, TypeAlias

import attrs

from .. import supervisor
from .._bots import Bot, BotReport, ProcessBot, bot_name, check_spec, make_bot, play, shown_name
from .._game import BotSpecError, Move, Rules, new_game

__all__ = ["Backend", "Entrant", "GameOutcome", "Progress", "play_game"]


# Shown, with their docs, as chickenfoot.tournament's.
Backend: TypeAlias = Literal["local", "ray"]
Progress: TypeAlias = Callable[[int, int], None]
Entrant: TypeAlias = "str | Bot"

_WINDOW = 4  # games queued per worker: enough to keep workers busy, few enough to start at once


def derive_seed(*parts: object) -> int:
    digest = hashlib.sha256("/".join(map(str, ("chickenfoot-tournament", *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "big")


@attrs.frozen
class GameOutcome:
    """Records one finished tournament game, seen by seat.

    >>> from chickenfoot import Rules
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

    >>> from chickenfoot import Rules
    >>> outcome = play_game(Rules.trains(), ["greedy", "random"], seed=1, index=1)
    >>> outcome.seats, len(outcome.round_scores)
    ((1, 0), 10)
    """
    players = len(lineup)
    seats = tuple((seat + index) % players for seat in range(players))
    game_seed = derive_seed(seed, index)
    bots: list[Bot] = []
    for seat, entry in enumerate(seats):
        bot = lineup[entry]
        if isinstance(bot, str):
            bot = make_bot(bot, seed=derive_seed(seed, index, seat))
        elif isinstance(bot, ProcessBot):
            bot = copy.copy(bot)  # the settings only: this game's own program, faults and name
        bots.append(bot)
    try:
        game = play(new_game(rules, players=players, seed=game_seed), bots, index)
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
        moves=tuple([move for _, move in game.history]) if keep_moves else (),
    )


Task: TypeAlias = "tuple[Rules, tuple[Entrant, ...], int, int, bool, str]"


def play_task(task: Task) -> GameOutcome:
    rules, lineup, seed, index, keep_moves, tag = task
    with supervisor.tagged(tag):  # the tournament's mark on its programs, for the sweep at its end
        return play_game(rules, lineup, seed, index, keep_moves=keep_moves)


def check_entrant(at: int, entry: object) -> None:
    if isinstance(entry, str):
        check_spec(entry)
    elif not callable(entry):
        raise BotSpecError(
            f"lineup entry {at} is {entry!r}: give a bot name (random, greedy, rollout, search:N, cmd:COMMAND) "
            "or a bot, a callable from a view to a move"
        )


def check_starts(lineup: Sequence[Entrant]) -> tuple[str, ...]:
    """Makes sure every bot of a lineup can play before the first game: each program starts and gives a
    handshake (then stops), each ``py:`` bot loads and builds; else raises :class:`~chickenfoot.BotSpecError`
    naming the bot and the cause, so a run never forfeits a whole tournament's moves.

    Gets each entry's name as tables show it: a program's handshake name, a ``py:`` bot's class and
    arguments, else its bot name.
    """
    shown = []
    for entry in lineup:
        program: ProcessBot | None = None
        if isinstance(entry, str):
            kind = check_spec(entry).kind
            built = make_bot(entry) if kind in ("py", "cmd") else None
            if isinstance(built, ProcessBot):
                program = ProcessBot(built.command, name=entry.strip())
        elif isinstance(entry, ProcessBot):
            program = copy.copy(entry)  # a copy: the entry keeps its name until its games give one
        if program is not None:
            program.check()
        handshake = None if program is None else program.report().name
        shown.append(handshake or (shown_name(entry) if isinstance(entry, str) else bot_name(entry)))
    return tuple(shown)


def check_portable(lineup: tuple[Entrant, ...], dumps: Callable[[object], bytes], where: str) -> None:
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


def check_for_workers(lineup: tuple[Entrant, ...]) -> None:
    """Refuses a bot that worker processes cannot get: one ``pickle`` cannot copy, or one defined interactively.

    Each worker is a fresh interpreter (:func:`worker_pool`) that finds a bot's function or class
    by importing its module; a bot defined at a prompt or in a notebook lives in a ``__main__``
    no file holds, so no worker could find it.
    """
    check_portable(lineup, pickle.dumps, "worker processes")
    if getattr(sys.modules.get("__main__"), "__file__", None) is not None:
        return
    for entry in lineup:
        if not isinstance(entry, str) and getattr(entry, "__module__", None) == "__main__":
            raise BotSpecError(
                f"bot {bot_name(entry)} is defined in an interactive session, which worker processes "
                "cannot import: define it in a module (a .py file) and import it, "
                "or play in this process with workers=1"
            )


class _WorkerProcess(multiprocessing.context.SpawnProcess):
    """A worker process that Ctrl-C cannot stop half-started, nor stop its pool while it starts it."""

    def start(self) -> None:
        with _ctrl_c_held():
            super().start()


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Holds Ctrl-C off while a worker starts, from the worker and from this process.

    Ctrl-C in a terminal reaches every process of the job. A worker still importing the package
    would stop with a traceback, so it starts with SIGINT blocked (a child inherits the mask) and
    ignores it once started (:func:`_init_worker`). This process takes a Ctrl-C that came meanwhile
    once the worker is whole: stopped halfway, it would leave a worker reading what it never sent.
    """
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no process groups, no signal masks
        yield
        return
    came: list[int] = []
    previous = signal.getsignal(signal.SIGINT)
    # Only the main thread runs Python's signal handlers, and only Python's can be put back.
    defer = threading.current_thread() is threading.main_thread() and previous is not None
    if defer:
        signal.signal(signal.SIGINT, lambda signum, frame: came.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if defer:
            signal.signal(signal.SIGINT, previous)
            if came:
                signal.raise_signal(signal.SIGINT)


class _WorkerContext(multiprocessing.context.SpawnContext):
    """Starts one pool's workers as fresh interpreters, and keeps each it started, to stop them all."""

    def __init__(self) -> None:
        super().__init__()
        self.started: list[_WorkerProcess] = []

    # A method where the base class has a class: ProcessPoolExecutor calls it all the same.
    def Process(self, *args: Any, **kwargs: Any) -> _WorkerProcess:  # type: ignore[override]
        process = _WorkerProcess(*args, **kwargs)
        self.started.append(process)
        return process


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Gives a pool of ``workers`` processes for games; on an error or Ctrl-C, stops the games in flight at once.

    Each worker is a fresh interpreter on every platform ("spawn"). A forked worker would start
    with the locks of this process's other threads as they stood at the fork (a program's
    standard-error pump, a logging handler, a test runner's): one held then is never released in
    the worker, which hangs at its first print, and the tournament with it. Ctrl-C is the
    parent's: a worker ignores it, and is held from it as it starts (:func:`_ctrl_c_held`).
    """
    context = _WorkerContext()
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_init_worker) as pool:
        try:
            yield pool
        except BaseException:
            _stop_workers(pool, context.started)
            raise


def run_local(tasks: Iterable[Task], total: int, workers: int, progress: Progress | None) -> list[GameOutcome]:
    outcomes: list[GameOutcome] = []
    if workers == 1:
        for task in tasks:
            outcomes.append(play_task(task))
            if progress is not None:
                progress(len(outcomes), total)
        return outcomes
    with worker_pool(workers) as pool:
        for outcome in in_order(pool, tasks, window=_WINDOW * workers):
            outcomes.append(outcome)
            if progress is not None:
                progress(len(outcomes), total)
    return outcomes


def _init_worker() -> None:
    # Ctrl-C in the terminal is for the parent, which stops the workers with SIGTERM: a worker
    # then kills its programs and exits, without a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # held off as it started (_WorkerProcess)
    signal.signal(signal.SIGTERM, _exit_worker)


def _exit_worker(signum: int, frame: FrameType | None) -> None:
    supervisor.stop_all()
    os._exit(128 + signum)


def _stop_workers(pool: ProcessPoolExecutor, started: list[_WorkerProcess]) -> None:
    """Cancels the games not started and ends every worker started, which stop their programs first.

    ``started`` holds the workers the pool has not yet counted as its own too (one whose start a
    Ctrl-C followed at once), which would otherwise outlive it.
    """
    pool.shutdown(wait=False, cancel_futures=True)
    for process in started:
        if process.is_alive():
            process.terminate()
    for process in started:
        if process.pid is not None:
            process.join(10)


def in_order(pool: Executor, tasks: Iterable[Task], window: int) -> Iterator[GameOutcome]:
    """Plays the tasks on ``pool``, at most ``window`` queued at once, and yields their outcomes in task order."""
    pending: collections.deque[Future[GameOutcome]] = collections.deque()
    for task in tasks:
        pending.append(pool.submit(play_task, task))
        if len(pending) >= window:
            yield _outcome(pending.popleft())
    while pending:
        yield _outcome(pending.popleft())


def _outcome(future: Future[GameOutcome]) -> GameOutcome:
    try:
        return future.result()
    except BrokenProcessPool as error:
        raise BrokenProcessPool(
            "a worker process died before its game ended (killed, or out of memory; or a script that "
            'plays on several workers outside `if __name__ == "__main__":`, which each worker imports)'
        ) from error
