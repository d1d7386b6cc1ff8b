"""The server's limits: message sizes, rates, deadlines and counts, in one value; and the rate counters."""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict

import attrs

__all__ = ["Limits", "RateLimit", "Rates", "prefix"]


@attrs.frozen
class Limits:
    """Holds what the server allows each client, each address, each game and itself (the defaults suit people and bots).

    Rates and connections are counted by *address prefix*, not by address: the ``/24`` of an
    IPv4 address and the ``/56`` of an IPv6 one, which a single client holds whole, so that the
    next address does not start a new count.
    """

    message_bytes: int = 4096
    """The longest message a client may send, in bytes; a longer one closes its connection (1009)."""
    messages_per_second: float = 20.0
    """How many messages a connection may send a second, on average; more closes it (1008)."""
    message_burst: int = 40
    """How many messages a connection may send at once before the rate applies."""
    requests_per_second: float = 10.0
    """How many game creations, seat claims and WebSocket connections a prefix may make a second (HTTP 429 past it)."""
    request_burst: int = 100
    """How many of those one prefix may make at once."""
    backlog: int = 512
    """How many frames may wait for a slow client before it is dropped (it reconnects for the current view)."""
    send_seconds: float = 10.0
    """How long a frame may wait to be taken by the client (or a ping for its answer) before it is dropped."""
    ping_seconds: float = 5.0
    """How often a WebSocket client is pinged: one that takes no frames answers none, and is dropped."""
    hello_seconds: float = 10.0
    """How long a new connection has to say hello."""
    request_seconds: float = 10.0
    """How long an HTTP request may take to arrive whole, from its first byte (or the connection's opening)."""
    connections_per_prefix: int = 256
    """How many connections (HTTP and WebSocket) one prefix may hold open at once."""
    spectators_per_game: int = 64
    """How many spectators' connections one game takes (a seat's owner always gets in)."""
    spectators_per_second: float = 5.0
    """How many spectators may join one game a second, on average (bursts of ``spectators_per_game``)."""
    connections_per_seat: int = 4
    """How many connections one seat may have (a fifth one replaces the oldest)."""
    games: int = 10_000
    """How many games may be in play at once (not over, not expired), on all nodes together."""
    expire_seconds: float = 86_400.0
    """How long a game may go without a move before it expires: it no longer counts, and takes no more moves."""
    search_simulations: int = 2000
    """The largest budget of a ``search:N`` (or ``sampler:N``, ``rollout:N``) bot a client may ask for."""
    bot_seconds: float = 1.0
    """The most CPU time a move a client may give a bot (``sampler:500ms``)."""
    ipv4_prefix: int = 24
    """The bits of an IPv4 address that its rates and connections are counted by."""
    ipv6_prefix: int = 56
    """The bits of an IPv6 address that its rates and connections are counted by."""


def prefix(address: str, limits: Limits) -> str:
    """Gets the prefix an address is counted by: its network at the configured length, or the text itself.

    >>> limits = Limits()
    >>> prefix("203.0.113.77", limits), prefix("2001:db8:0:12ab::1", limits), prefix("testclient", limits)
    ('203.0.113.0/24', '2001:db8:0:1200::/56', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    bits = limits.ipv4_prefix if ip.version == 4 else limits.ipv6_prefix
    return str(ipaddress.ip_network(f"{ip}/{bits}", strict=False))


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

    def is_full(self, now: float) -> bool:
        """Tells whether the bucket has refilled by ``now`` (``time.monotonic()``): then it is as good as a new one."""
        return self._allowance + (now - self._last) * self._rate >= self._burst


class Rates:
    """Counts requests by key (an address prefix, a game) against one rate, remembering the ``keys`` most recent keys.

    A key whose bucket has refilled is forgotten when a new key comes: a fresh count would be
    the same, and the keys of games long finished or clients long gone would otherwise stay.

    >>> rates = Rates(1e-6, 2)  # a bucket that has taken anything refills in days
    >>> _ = rates.limit("seen")  # nothing taken: full
    >>> rates.take("busy"), len(rates)  # "seen" is forgotten
    (True, 1)
    >>> rates.take("next"), len(rates)  # "busy" is not full: remembered
    (True, 2)
    """

    def __init__(self, rate: float, burst: int, keys: int = 10_000) -> None:
        self._rate, self._burst, self._keys = rate, burst, keys
        self._limits: OrderedDict[str, RateLimit] = OrderedDict()

    def take(self, key: str) -> bool:
        """Counts one request of ``key``; tells whether it is within the limit."""
        return self.limit(key).take()

    def limit(self, key: str) -> RateLimit:
        """Gets the count of ``key`` (a fresh one for a key new or long unseen)."""
        limit = self._limits.get(key)
        if limit is None:
            self._forget_full()
            limit = self._limits[key] = RateLimit(self._rate, self._burst)
            if len(self._limits) > self._keys:
                self._limits.popitem(last=False)
        else:
            self._limits.move_to_end(key)
        return limit

    def __len__(self) -> int:
        return len(self._limits)

    def _forget_full(self) -> None:
        # From the least recent on, while they are full: each key is forgotten once, so a request costs O(1) on average.
        now = time.monotonic()
        while self._limits and next(iter(self._limits.values())).is_full(now):
            self._limits.popitem(last=False)
