"""Group commit: every store operation runs in one writer thread, on one connection, many to a transaction.

Each call queues an operation (a function of the connection); the thread runs whatever is
queued as one transaction and answers each caller once ``COMMIT`` has returned, all with the
error if it failed. An operation may refuse on its own (a :class:`~chickenfoot.server.StoreError`
it raises, like :class:`~chickenfoot.server.Fenced`) without failing the others; any other
exception it raises (a row it cannot read, a bug) is answered to its caller alone, as a
``StoreError`` naming the cause, and logged. Either way the operation's writes before it raised
are kept with the others', so an operation refuses before it writes. The writer thread lives
until the store is closed: whatever one operation raises, the calls after it are answered.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from ._store import Store, StoreError

__all__ = ["WriterStore"]

log = logging.getLogger("chickenfoot.server")

T = TypeVar("T")
Connection = TypeVar("Connection")

_BATCH = 512  # the most operations one transaction takes


@attrs.define
class _Operation(Generic[T]):
    run: Callable[[Any], T]
    future: asyncio.Future[T]


class _Stop:
    pass


class WriterStore(Store, Generic[Connection]):
    """A store whose operations run in one thread, on one connection, many to a transaction."""

    _errors: tuple[type[Exception], ...] = ()  # the driver's errors, reported as StoreError

    def __init__(self, owner: str) -> None:
        self.owner = owner
        self._queue: queue.SimpleQueue[_Operation[Any] | _Stop] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.transactions = 0
        """How many transactions have committed (a group commit counts once)."""

    # The back end's part: a connection, and its transactions.
    @abc.abstractmethod
    def _connect(self) -> Connection: ...

    @abc.abstractmethod
    def _begin(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _commit(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _rollback(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _disconnect(self, connection: Connection) -> None: ...

    async def open(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the store is open already")
        self._loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = self._loop.create_future()
        self._thread = threading.Thread(target=self._work, args=(ready,), name=f"{type(self).__name__} writer")
        self._thread.daemon = True  # a killed server must not hang on it; close() joins it
        self._thread.start()
        try:
            await ready
        except StoreError:
            await asyncio.to_thread(self._thread.join)
            self._thread = None
            raise

    async def close(self) -> None:
        if self._thread is None:
            return
        self._queue.put(_Stop())
        await asyncio.to_thread(self._thread.join)
        self._thread = None

    def _submit(self, run: Callable[[Connection], T]) -> asyncio.Future[T]:
        if self._thread is None or self._loop is None:
            raise RuntimeError("the store is not open: await store.open() first")
        future: asyncio.Future[T] = self._loop.create_future()
        self._queue.put(_Operation(run, future))
        return future

    def _answer(self, future: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
        assert self._loop is not None

        def settle() -> None:
            if future.done():  # the caller gave up waiting (cancelled)
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        with contextlib.suppress(RuntimeError):  # the loop has closed (its server never closed the store): nobody waits
            self._loop.call_soon_threadsafe(settle)

    def _work(self, ready: asyncio.Future[None]) -> None:
        try:
            connection = self._connect()
        except self._errors as error:
            self._answer(ready, None, StoreError(f"cannot open the store: {error}"))
            return
        self._answer(ready, None, None)
        try:
            while True:
                batch, stop = self._next_batch()
                if batch:
                    try:
                        connection = self._transaction(connection, batch)
                    except Exception as error:  # the back end failed oddly: the thread goes on
                        log.exception("the store's writer could not run a transaction")
                        connection = self._failed(connection, batch, StoreError(f"the store failed: {error!r}"))
                # Nothing of the batch is kept while the writer waits for the next: its moves and
                # futures, made among the games in play, would keep their memory after they end.
                del batch
                if stop:
                    return
        finally:
            self._disconnect(connection)

    def _next_batch(self) -> tuple[list[_Operation[Any]], bool]:
        """Waits for the next operations, at most :data:`_BATCH`; tells whether a stop came after them."""
        first = self._queue.get()
        if isinstance(first, _Stop):
            return [], True
        batch = [first]
        while len(batch) < _BATCH:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, _Stop):
                return batch, True
            batch.append(item)
        return batch, False

    def _transaction(self, connection: Connection, batch: list[_Operation[Any]]) -> Connection:
        """Runs ``batch`` as one transaction, then answers each operation: all after COMMIT, or all with its error."""
        results: list[tuple[object, BaseException | None]] = []
        try:
            self._begin(connection)
            for operation in batch:
                try:
                    results.append((operation.run(connection), None))
                except StoreError as refused:  # this operation's own answer (Fenced, say); the others go on
                    results.append((None, refused))
                except self._errors:
                    raise
                except Exception as error:  # answered to its caller, not fatal to the thread
                    log.exception("a store operation failed")
                    results.append((None, StoreError(f"the store could not do an operation: {error!r}")))
            self._commit(connection)
        except self._errors as error:
            return self._failed(connection, batch, StoreError(f"the store failed: {error}"))
        self.transactions += 1
        for operation, (result, refusal) in zip(batch, results, strict=True):
            self._answer(operation.future, result, refusal)
        return connection

    def _failed(self, connection: Connection, batch: list[_Operation[Any]], failure: StoreError) -> Connection:
        """Rolls a failed transaction back (connecting again if need be) and answers each operation with ``failure``."""
        try:
            self._rollback(connection)
        except Exception:  # the connection is no good: another one
            with contextlib.suppress(Exception):
                self._disconnect(connection)
            connection = self._reconnect(connection)
        for operation in batch:
            self._answer(operation.future, None, failure)
        return connection

    def _reconnect(self, old: Connection) -> Connection:
        try:
            return self._connect()
        except self._errors:
            return old  # the next transaction fails and tries again
