"""Keeping Python's cycle collector off the live games, in a process that serves them.

A server's heap is mostly its games: immutable, free of reference cycles, and growing with
every move. CPython runs a full collection whenever the old objects have grown by a quarter,
and a full collection walks every one of them: with 500 games in play, a pause of a few hundred
milliseconds every few seconds that finds next to nothing (docs/serving.md has the figures).
:func:`freeze_survivors` moves what has survived into the permanent generation
(:func:`gc.freeze`) every second, so collections walk only what is new, and every ten minutes
puts it all back (:func:`gc.unfreeze`) and collects everything once, for the rare cycles (an
exception's traceback, a dropped connection's buffers) that become unreachable once frozen.

Each freeze is preceded by a collection of what is not frozen yet: the objects made since the
last freeze, so its cost follows the last second's work, not the games in memory. Without it
the cycles that were already garbage (every HTTP request leaves some in uvicorn and h11) would
be frozen with the rest and kept until the sweep: a server answering a steady stream of
requests grew by thousands of objects a minute.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

__all__ = ["freeze_survivors"]

log = logging.getLogger("chickenfoot.server")


async def freeze_survivors(every: float = 1.0, sweep_every: float = 600.0) -> None:
    """Freezes the surviving objects every ``every`` seconds and sweeps them all every ``sweep_every``; runs until
    cancelled, leaving nothing frozen."""
    swept = time.monotonic()
    try:
        while True:
            await asyncio.sleep(every)
            if time.monotonic() - swept >= sweep_every:
                gc.unfreeze()
                began = time.perf_counter()
                found = gc.collect()
                swept = time.monotonic()
                pause = 1000 * (time.perf_counter() - began)
                log.debug("full collection: %d unreachable objects, %.0f ms", found, pause)
            else:
                gc.collect()  # only the unfrozen: what is garbage already must not be frozen with the rest
            gc.freeze()
    finally:
        gc.unfreeze()
