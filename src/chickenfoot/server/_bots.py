"""The bots the server seats: each table's bots play their turns, off the players' path.

The quick bots (``random``, ``heaviest``, ``greedy``) choose in the event loop, in well under a
millisecond. The thinking ones (``search``, ``sampler``, ``rollout``) choose in worker processes,
a pool as large as the machine has cores, run at a lower priority than the server: a bot thinking
at one table never delays a person's move at another. A built-in bot's choice is a function of
its seed and its view alone, so a worker builds the bot for each move. Program bots (``--program``)
are processes already; a thread waits for each answer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool

import chickenfoot as cf
from chickenfoot.bots import KINDS, ProcessBot, make_bot

from ._table import HUMAN, Mover, Table

__all__ = ["Bots", "think"]

log = logging.getLogger("chickenfoot.server")

QUICK_BOTS = tuple(kind.name for kind in KINDS if kind.quick)  # choose in the event loop; the rest in workers
_RETRY_SECONDS = (0.2, 0.5, 1.0, 2.0, 5.0)  # a bot's move that could not be stored is tried again after these
_NICENESS = 10  # how much lower the workers' priority is than the server's

Play = Callable[[Table, int, int, str, Mover | None], Awaitable[bool]]


def think(kind: str, seed: int, view: cf.PlayerView) -> str:
    """Chooses a built-in bot's move from its view (in a worker process)."""
    return str(make_bot(kind, seed=seed)(view))


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):  # os.nice is POSIX's
        os.nice(_NICENESS)


class Bots:
    """Plays the moves of every table's bots through ``play``, each at its turn, while this node holds the table.

    ``programs`` are the program bots configured, each run with ``program_seconds`` a move;
    ``delay`` is how long a bot waits before it moves; ``workers`` the size of the pool of
    processes the thinking bots use (the machine's cores by default).
    """

    def __init__(
        self,
        play: Play,
        *,
        programs: Mapping[str, Sequence[str]],
        program_seconds: float,
        delay: float,
        workers: int | None,
    ) -> None:
        self._play = play
        self.programs = dict(programs)
        self._program_seconds = program_seconds
        self.delay = delay
        self._workers = workers or os.cpu_count() or 1
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._threads = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="chickenfoot program bot")
        self._running: dict[Table, dict[int, ProcessBot]] = {}

    def start(self, table: Table) -> None:
        """Starts playing the table's bots, if it has any and they have moves left to make."""
        has_bots = any(kind != HUMAN for kind in table.setup.seats)
        if table.owned and has_bots and table.bot_task is None and not table.game.is_over:
            table.bot_task = asyncio.get_running_loop().create_task(self._run(table), name=f"bots of {table.id}")

    async def stop(self, table: Table) -> None:
        """Stops playing the table's bots, and stops its program bots' processes."""
        task, table.bot_task = table.bot_task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._close_programs(table)

    async def close(self) -> None:
        """Stops the worker processes and threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def _run(self, table: Table) -> None:
        """Plays the table's bots' moves as their turns come, and tells program bots when rounds and the game end."""
        retries, told = 0, len(table.game.results)
        try:
            while table.owned and not table.game.is_over and not table.expired:
                if not table.bots_turn():
                    table.wake.clear()
                    await table.wake.wait()
                    told = await self._tell(table, told)
                    continue
                if self.delay:
                    await asyncio.sleep(self.delay)
                seq, seat = table.seq, table.game.current_player
                assert seat is not None
                text = await self._move(table, seat)
                if await self._play(table, seat, seq, text, None) or table.seq != seq:
                    retries = 0
                    told = await self._tell(table, told)
                    continue
                await asyncio.sleep(_RETRY_SECONDS[min(retries, len(_RETRY_SECONDS) - 1)])  # the store refused
                retries += 1
            await self._tell(table, told)
        finally:
            await self._close_programs(table)
            if table.bot_task is asyncio.current_task():
                table.bot_task = None

    async def _move(self, table: Table, seat: int) -> str:
        kind, game = table.setup.seats[seat], table.game
        view, seed = cf.observe(game, seat), table.setup.seed + seat
        loop = asyncio.get_running_loop()
        try:
            if kind in self.programs:
                return str(await loop.run_in_executor(self._threads, self._program(table, seat), view))
            if kind.partition(":")[0] in QUICK_BOTS:
                return think(kind, seed, view)
            return await self._think(kind, seed, view)
        except Exception as error:  # a bot's bug must not stop the game: its seat plays its first legal move
            log.exception(
                "bot %s in seat %d of game %s raised %s: its first legal move is played", kind, seat, table.id, error
            )
            return str(view.legal_moves[0])

    async def _think(self, kind: str, seed: int, view: cf.PlayerView) -> str:
        loop = asyncio.get_running_loop()
        for _ in range(2):  # a pool whose worker died is broken for good: the second try has a new one
            if self._pool is None:
                context = multiprocessing.get_context("spawn")  # no copy of this process's threads or sockets
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self._workers, mp_context=context, initializer=_lower_priority
                )
            try:
                return await loop.run_in_executor(self._pool, think, kind, seed, view)
            except BrokenProcessPool:
                log.error("a bot worker process died: starting the pool again")
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        raise RuntimeError("the bot workers keep dying")

    def _program(self, table: Table, seat: int) -> ProcessBot:
        programs = self._running.setdefault(table, {})
        bot = programs.get(seat)
        if bot is None:
            kind = table.setup.seats[seat]
            bot = programs[seat] = ProcessBot(list(self.programs[kind]), seconds=self._program_seconds, name=kind)
        return bot

    async def _tell(self, table: Table, told: int) -> int:
        """Tells the table's program bots of the rounds (and the game) that ended since ``told`` rounds had."""
        game = table.game
        if len(game.results) == told:
            return told
        loop = asyncio.get_running_loop()
        for seat, bot in list(self._running.get(table, {}).items()):
            for hook in ("round_over", "game_over") if game.is_over else ("round_over",):
                try:
                    await loop.run_in_executor(self._threads, getattr(bot, hook), cf.observe(game, seat))
                except Exception:
                    log.exception("bot %s in seat %d of game %s raised in %s", bot, seat, table.id, hook)
        return len(game.results)

    async def _close_programs(self, table: Table) -> None:
        programs = self._running.pop(table, {})
        loop = asyncio.get_running_loop()
        for bot in programs.values():
            await loop.run_in_executor(self._threads, bot.close)
