"""A guard around each connection uvicorn serves: deadlines and a count that uvicorn's own limits leave open.

uvicorn closes a connection left idle between requests (``timeout_keep_alive``) and a WebSocket
that stops answering pings, but nothing bounds the time a request takes to arrive (a client
sending its headers a byte at a time), a connection that never sends one, or a client that
takes no bytes of what it is sent: each holds a socket, and its unsent bytes, for ever. The
guard wraps uvicorn's HTTP protocol (and the WebSocket protocol it switches to) and the
transport beneath, and aborts a connection:

* whose request has not arrived whole (its headers and its body) within
  :attr:`Limits.request_seconds` of its first byte (or of the connection's opening). The deadline
  ends when the request is whole, or when the server starts answering (one answered before its
  body is read, say): however long the answer then takes (a store slow to commit), the
  connection is not dropped for it. The guard learns that a request is whole from uvicorn's
  HTTP protocol (its request cycle's ``more_body``); were that not there, the deadline would
  end when the answer starts, as the old deadline did;
* whose writes have been stopped (the client takes nothing, its buffers full), or which has
  not finished closing, for :attr:`Limits.send_seconds`;
* opened by an address prefix that holds :attr:`Limits.connections_per_prefix` connections already.

It sees the TCP peer, not a proxy's ``X-Forwarded-For``: behind a proxy, raise the count.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar, cast

from ._limits import Limits, prefix

__all__ = ["guarded"]

log = logging.getLogger("chickenfoot.server")


class _Watched(asyncio.Transport):
    """The transport the protocol writes to: the real one, its writes and its switch of protocol seen by the guard."""

    def __init__(self, real: asyncio.Transport, guard: _Guard) -> None:
        super().__init__()
        self._real, self._guard = real, guard

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._guard.answering()
        self._real.write(data)

    def writelines(self, list_of_data: Any) -> None:
        self._guard.answering()
        self._real.writelines(list_of_data)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._guard.switched(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._guard.inner

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._real.get_extra_info(name, default)

    def is_closing(self) -> bool:
        return self._real.is_closing()

    def close(self) -> None:
        self._guard.closing()
        self._real.close()

    def abort(self) -> None:
        self._real.abort()

    def is_reading(self) -> bool:
        return self._real.is_reading()

    def pause_reading(self) -> None:
        self._real.pause_reading()

    def resume_reading(self) -> None:
        self._real.resume_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._real.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self._real.get_write_buffer_size()

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._real.get_write_buffer_limits()

    def can_write_eof(self) -> bool:
        return self._real.can_write_eof()

    def write_eof(self) -> None:
        self._real.write_eof()


class _Guard(asyncio.Protocol):
    """What the event loop sees of a connection: uvicorn's protocol inside, with the guard's deadlines around it."""

    limits: ClassVar[Limits]
    make_inner: ClassVar[Callable[..., asyncio.Protocol]]
    open_by_prefix: ClassVar[Counter[str]]
    refusing: ClassVar[set[str]]  # the prefixes refused since they reached their count

    def __init__(self, **options: Any) -> None:
        self.inner: asyncio.BaseProtocol = type(self).make_inner(**options)
        self._loop = asyncio.get_running_loop()
        self._transport: asyncio.Transport | None = None
        self._prefix: str | None = None
        self._http = True  # until the switch to WebSocket
        self._read = 0  # the id of uvicorn's cycle of the last request read whole
        self._request_timer: asyncio.TimerHandle | None = None
        self._stall_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)
        peer = transport.get_extra_info("peername")
        key = prefix(str(peer[0]) if isinstance(peer, tuple) else "", self.limits)
        if self.open_by_prefix[key] >= self.limits.connections_per_prefix:
            if key not in self.refusing:  # once each time the prefix reaches its count, not once a connection
                self.refusing.add(key)
                log.warning("refusing connections from %s: it holds %d", key, self.limits.connections_per_prefix)
            transport.abort()
            return
        self.open_by_prefix[key] += 1
        self._prefix, self._transport = key, transport
        self.inner.connection_made(_Watched(transport, self))
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._http and self._request_timer is None:
            self._arm()  # a request begins
        inner = self.inner
        cast(asyncio.Protocol, inner).data_received(data)
        if self._http and self.inner is inner:
            self._whole(getattr(inner, "cycle", None))

    def _whole(self, cycle: object) -> None:
        """Ends the request's deadline once uvicorn has read the newest request whole (headers and body)."""
        if cycle is None or id(cycle) == self._read or getattr(cycle, "more_body", True):
            return
        self._read = id(cycle)  # not the cycle itself, whose body it would keep
        self.answering()

    def eof_received(self) -> bool | None:
        return cast(asyncio.Protocol, self.inner).eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._request_timer, self._stall_timer):
            if timer is not None:
                timer.cancel()
        if self._prefix is None:  # refused: uvicorn never saw it
            return
        self.open_by_prefix[self._prefix] -= 1
        self.refusing.discard(self._prefix)
        if not self.open_by_prefix[self._prefix]:
            del self.open_by_prefix[self._prefix]
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._stall_timer is None:
            self._stall_timer = self._loop.call_later(self.limits.send_seconds, self._stalled)
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self._stall_timer is not None and not self._transport_closing():
            self._stall_timer.cancel()
            self._stall_timer = None
        self.inner.resume_writing()

    def _transport_closing(self) -> bool:
        return self._transport is not None and self._transport.is_closing()

    def closing(self) -> None:
        """Gives a closing connection :attr:`Limits.send_seconds` to send what it has left, as a stalled one."""
        if self._stall_timer is None and self._transport is not None:
            self._stall_timer = self._loop.call_later(self.limits.send_seconds, self._stalled)

    def answering(self) -> None:
        """Notes that the request is whole, or that the server is answering it: its deadline is met."""
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def switched(self, protocol: asyncio.BaseProtocol) -> None:
        """Hands the connection to another protocol (uvicorn's WebSocket's), out of the HTTP deadlines."""
        self.answering()
        self._http = False
        self.inner = protocol

    def _arm(self) -> None:
        self._request_timer = self._loop.call_later(self.limits.request_seconds, self._late)

    def _late(self) -> None:
        self._request_timer = None
        self._abort(f"sent no whole request within {self.limits.request_seconds:g} s")

    def _stalled(self) -> None:
        self._stall_timer = None
        self._abort(f"took nothing it was sent for {self.limits.send_seconds:g} s")

    def _abort(self, why: str) -> None:
        log.info("dropped a connection from %s: it %s", self._prefix, why)
        assert self._transport is not None
        self._transport.abort()  # at once, its unsent bytes dropped: closing would wait for them to go


def guarded(limits: Limits) -> type[asyncio.Protocol]:
    """Makes the protocol class to give uvicorn (``http=``): its own HTTP protocol, guarded by ``limits``."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    namespace = {"limits": limits, "make_inner": AutoHTTPProtocol, "open_by_prefix": Counter(), "refusing": set()}
    return cast(type[asyncio.Protocol], type("GuardedHTTPProtocol", (_Guard,), namespace))
