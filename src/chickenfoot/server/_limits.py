"""The server's limits: message sizes, rates, backlogs and counts, in one value."""

from __future__ import annotations

import time

import attrs

__all__ = ["Limits", "RateLimit"]


@attrs.frozen
class Limits:
    """Holds what the server allows each client, each game and itself (the defaults suit people and bots alike)."""

    message_bytes: int = 4096
    """The longest message a client may send, in bytes; a longer one closes its connection (1009)."""
    messages_per_second: float = 20.0
    """How many messages a connection may send a second, on average; more closes it (1008)."""
    message_burst: int = 40
    """How many messages a connection may send at once before the rate applies."""
    requests_per_second: float = 10.0
    """How many game creations and seat claims one address may make a second, on average (HTTP 429 past it)."""
    request_burst: int = 100
    """How many of those one address may make at once."""
    backlog: int = 512
    """How many frames may wait for a slow client before it is dropped (it reconnects for the current view)."""
    hello_seconds: float = 10.0
    """How long a new connection has to say hello."""
    connections_per_game: int = 64
    """How many connections (seats and spectators) one game takes."""
    games: int = 10_000
    """How many games may be in play at once."""
    search_simulations: int = 2000
    """The largest budget of a ``search:N`` (or ``sampler:N``, ``rollout:N``) bot a client may ask for."""
    bot_seconds: float = 1.0
    """The most CPU time a move a client may give a bot (``sampler:500ms``)."""


class RateLimit:
    """Counts a client's messages against a rate and a burst (a token bucket)."""

    __slots__ = ("_allowance", "_burst", "_last", "_rate")

    def __init__(self, rate: float, burst: int) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._allowance = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        """Counts one message; tells whether it is within the limit.

        >>> limit = RateLimit(1.0, 2)
        >>> limit.take(), limit.take(), limit.take()
        (True, True, False)
        """
        now = time.monotonic()
        self._allowance = min(self._burst, self._allowance + (now - self._last) * self._rate)
        self._last = now
        if self._allowance < 1.0:
            return False
        self._allowance -= 1.0
        return True
