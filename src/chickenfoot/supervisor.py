"""Supervised programs: a child process talked to in lines, with a deadline on every exchange.

A :class:`Supervisor` runs one program in a session of its own (so in its own process group)
and talks to it through non-blocking pipes: :meth:`~Supervisor.send` writes a line and
:meth:`~Supervisor.receive` reads one, each within a timeout, and a line longer than
:data:`LINE_LIMIT` is refused. Nothing can make a call wait past its timeout: no thread reads
the pipes, and a program that stops reading, floods its output or never ends a line costs
the caller its timeout and no more memory than one line. The program's standard error is
read along the way into a bounded tail (and an optional callback); it never reaches the
terminal.

:meth:`~Supervisor.stop` closes the program's input, gives it ``grace`` seconds to exit, then
kills its process group, every process of its session and, on Linux, every process that
inherited its marker in the environment (a child that detached with ``setsid`` keeps it),
and reaps the program. A wrapper script that does not ``exec``, or a bot that forks helpers
that keep its pipes, cannot outlive it. The Linux-only parts (the session and marker scans)
read ``/proc``; elsewhere the process group is killed.

Supervisors install no signal handlers and start no threads, so they may be used from any
thread, one thread at a time each (for example from an ``asyncio`` server through
``asyncio.to_thread``). :func:`tagged` and :func:`sweep` let an owner of many supervisors,
such as a tournament, kill whatever is left of all of them at once.

>>> import sys
>>> with Supervisor([sys.executable, "-c", "print(input().upper(), flush=True)"]) as program:
...     program.send("hello", timeout=5)
...     program.receive(timeout=5)
'HELLO'
"""

from __future__ import annotations

import collections
import contextlib
import contextvars
import errno
import math
import os
import secrets
import select
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence

__all__ = [
    "LINE_LIMIT",
    "LineTooLong",
    "MARKER",
    "ProgramEnded",
    "ProgramError",
    "ProgramTimeout",
    "Supervisor",
    "StartError",
    "new_tag",
    "stop_all",
    "sweep",
    "tagged",
]

LINE_LIMIT = 64 * 1024
"""The longest line, in bytes without its newline, a supervised program may write (64 KiB)."""

MARKER = "CHICKENFOOT_SUPERVISOR"
"""The environment variable that marks a supervised program and every process it starts."""

_CHUNK = 64 * 1024  # bytes read or written per system call
_STDERR_TAIL = 4096  # bytes of standard error kept for messages
_REAP_SECONDS = 5.0  # how long stop() waits for a killed program to be reaped
_SCANS = 20  # how many rounds of /proc scans stop() makes against processes that keep forking
_DEATH_SECONDS = 5.0  # how long stop() waits for the processes it killed to be dead

_tag: contextvars.ContextVar[str | None] = contextvars.ContextVar("chickenfoot_supervisor_tag", default=None)
_live: weakref.WeakSet[Supervisor] = weakref.WeakSet()


class ProgramError(RuntimeError):
    """Raised when a supervised program fails an exchange; the message says how."""


class StartError(ProgramError):
    """Raised when the program cannot be started (no such file, not executable)."""


class ProgramEnded(ProgramError):
    """Raised when the program has ended, or closed the pipe the exchange needs."""


class ProgramTimeout(ProgramError):
    """Raised when an exchange did not finish within its timeout."""


class LineTooLong(ProgramError):
    """Raised when the program writes a line longer than the limit (:data:`LINE_LIMIT` by default)."""


@contextlib.contextmanager
def tagged(tag: str) -> Iterator[None]:
    """Marks every supervisor started in this context (this thread or task) with ``tag``, for :func:`sweep`.

    ``tag`` is text without spaces, ``=`` or ``/``, such as one from :func:`new_tag`.
    """
    if not tag or any(character in tag for character in " =\0/"):
        raise ValueError(f"a tag is text without spaces, '=' or '/', got {tag!r}")
    token = _tag.set(tag)
    try:
        yield
    finally:
        _tag.reset(token)


def new_tag() -> str:
    """Makes a tag no other owner uses, for :func:`tagged`."""
    return f"{os.getpid()}-{secrets.token_hex(6)}"


def sweep(tag: str) -> int:
    """Kills every process, wherever it was started on this machine, marked with ``tag``; returns how many.

    Reads ``/proc`` (Linux); elsewhere it does nothing and returns 0.
    """
    prefix = f"{MARKER}={tag}/".encode()
    return _kill_scan(lambda pid, stat: _environ_has(pid, prefix, exact=False))


def stop_all() -> None:
    """Stops every supervisor of this process at once, without grace (for a process that is about to exit)."""
    for supervisor in list(_live):
        supervisor.stop(grace=0)


class Supervisor:
    """Runs ``command`` in its own session and talks to it in lines of UTF-8 (see the module's docs).

    ``on_stderr`` is called with each chunk of the program's standard error as it is read
    (the last 4 KiB are also kept in :attr:`stderr_tail`). ``env`` replaces the environment
    (the marker is added to it). Raises :class:`StartError` if the program cannot be started.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        line_limit: int = LINE_LIMIT,
        on_stderr: Callable[[bytes], None] | None = None,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        """Starts ``command`` with its standard streams connected to pipes."""
        if isinstance(command, str) or not command or not all(isinstance(part, str) for part in command):
            raise ValueError(f"command must be a non-empty list of strings like ['node', 'bot.js'], got {command!r}")
        if type(line_limit) is not int or line_limit < 1:
            raise ValueError(f"line_limit must be a whole number of bytes above 0, got {line_limit!r}")
        self.command = tuple(command)
        self.line_limit = line_limit
        self._on_stderr = on_stderr
        tag = _tag.get() or "untagged"
        self.marker = f"{tag}/{secrets.token_hex(8)}"
        """The value of the ``CHICKENFOOT_SUPERVISOR`` variable in the program's environment."""
        environment = dict(os.environ if env is None else env)
        environment[MARKER] = self.marker
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                env=environment,
                cwd=cwd,
                start_new_session=True,  # its own session and process group: killed as a whole
                close_fds=True,
            )
        except OSError as error:
            raise StartError(f"cannot start {self.command[0]!r}: {error.strerror or error}") from None
        self.pid = self._process.pid
        """The program's process id (also its process group and session id)."""
        assert self._process.stdin is not None
        assert self._process.stdout is not None
        assert self._process.stderr is not None
        self._stdin: int | None = self._process.stdin.fileno()
        self._stdout: int | None = self._process.stdout.fileno()
        self._stderr: int | None = self._process.stderr.fileno()
        for fd in (self._stdin, self._stdout, self._stderr):
            os.set_blocking(fd, False)
        self._pidfd = _pidfd(self.pid)
        self._start_time = _start_time(self.pid)
        self._partial = bytearray()  # the line being read
        self._lines: collections.deque[bytes] = collections.deque()  # complete lines not yet received
        self._tail = bytearray()
        self._stopping = self._stopped = False
        self.returncode: int | None = None
        """The program's exit status once :meth:`stop` reaped it (negative: killed by that signal)."""
        _live.add(self)
        self._finalizer = weakref.finalize(self, _finalize, self._process, self.marker, self._pidfd, self._start_time)

    def __repr__(self) -> str:
        state = "stopped" if self._stopped else "running"
        return f"<Supervisor {list(self.command)!r} pid={self.pid} {state}>"

    def __enter__(self) -> Supervisor:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def stderr_tail(self) -> str:
        """Gets the last 4 KiB the program wrote to standard error, as text."""
        return self._tail.decode("utf-8", errors="replace")

    def exit_status(self) -> int | None:
        """Gets the program's exit status once it has ended (negative: the signal that ended it), else ``None``.

        The program is not reaped (so its process id is not reused) until :meth:`stop`.
        """
        if self._stopped:
            return self.returncode
        try:
            result = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.returncode
        if result is None or result.si_pid == 0:
            return None
        return result.si_status if result.si_code == os.CLD_EXITED else -result.si_status

    def wait_exit(self, timeout: float) -> bool:
        """Waits up to ``timeout`` seconds for the program to end, reading its stderr meanwhile; tells if it did."""
        if self._stopped:
            return True
        deadline = time.monotonic() + timeout
        while self.exit_status() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            watched = [] if self._pidfd is None else [self._pidfd]  # readable once the program ends
            for fd in self._ready(watched, [], min(left, 0.05 if self._pidfd is None else left)):
                if fd == self._stderr:
                    self._read_stderr()
        self._drain_stderr()  # what it wrote before it ended, whatever woke us first
        return True

    def send(self, line: str, timeout: float) -> None:
        """Writes ``line`` and a newline to the program's standard input within ``timeout`` seconds.

        Raises :class:`ProgramTimeout` if the program did not take it all in time (it stopped
        reading), :class:`ProgramEnded` if its input is closed.
        """
        if "\n" in line:
            raise ValueError("a line holds no newline")
        if self._stdin is None:
            raise ProgramEnded("the program was stopped")
        data = memoryview((line + "\n").encode("utf-8"))
        deadline = time.monotonic() + timeout
        while True:
            try:
                data = data[os.write(self._stdin, data[:_CHUNK]) :]
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise ProgramEnded("the program closed its standard input") from None
            if not data:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                raise ProgramTimeout(f"the program did not read its input within {_seconds(timeout)}")
            for fd in self._ready([], [self._stdin], left):
                if fd == self._stderr:
                    self._read_stderr()

    def receive(self, timeout: float) -> str:
        """Reads the program's next line within ``timeout`` seconds (0: only a line already there), without its newline.

        The line is decoded as UTF-8 (a bad byte reads as U+FFFD). Raises
        :class:`ProgramTimeout` if no whole line came in time, :class:`ProgramEnded` at the end
        of its output, :class:`LineTooLong` for a line over ``line_limit`` bytes.
        """
        if self._lines:
            return self._lines.popleft().decode("utf-8", errors="replace")
        if self._stdout is None:
            raise ProgramEnded("the program's output is closed")
        deadline = time.monotonic() + timeout
        while True:
            for fd in self._ready([self._stdout], [], max(0.0, deadline - time.monotonic())):
                if fd == self._stderr:
                    self._read_stderr()
                elif self._read_stdout():
                    return self._lines.popleft().decode("utf-8", errors="replace")
            if time.monotonic() >= deadline:
                raise ProgramTimeout(f"no line within {_seconds(timeout)}")

    def _ready(self, reads: list[int], writes: list[int], timeout: float) -> list[int]:
        """Waits up to ``timeout`` seconds until one of the descriptors (or stderr, always read) is ready."""
        poller = select.poll()  # no system call but the wait: cheap to build for each one
        for fd in reads:
            poller.register(fd, select.POLLIN)
        for fd in writes:
            poller.register(fd, select.POLLOUT)
        if self._stderr is not None:
            poller.register(self._stderr, select.POLLIN)
        # Any event, hang-up and error included, means "try the operation": it then tells what happened.
        return [fd for fd, _ in poller.poll(math.ceil(timeout * 1000))]

    def _read_stdout(self) -> bool:
        """Reads what the program wrote; tells whether a whole line is now waiting."""
        assert self._stdout is not None
        try:
            chunk = os.read(self._stdout, _CHUNK)
        except BlockingIOError:
            return False
        if not chunk:
            self._partial.clear()
            raise ProgramEnded("the program closed its standard output")
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            if len(self._partial) + end - start > self.line_limit:
                raise LineTooLong(f"the program wrote a line over {self.line_limit:,} bytes")
            self._lines.append(bytes(self._partial) + chunk[start:end])
            self._partial.clear()
            start = end + 1
        self._partial += chunk[start:]
        if len(self._partial) > self.line_limit:
            self._partial.clear()
            raise LineTooLong(f"the program wrote a line over {self.line_limit:,} bytes")
        return bool(self._lines)

    def _read_stderr(self) -> bool:
        """Reads a chunk of the program's standard error, if one is waiting; tells whether one was."""
        assert self._stderr is not None
        try:
            chunk = os.read(self._stderr, _CHUNK)
        except BlockingIOError:
            return False
        if not chunk:  # closed: stop watching it
            self._close_stderr()
            return False
        self._tail += chunk
        del self._tail[:-_STDERR_TAIL]
        if self._on_stderr is not None:
            self._on_stderr(chunk)
        return True

    def _drain_stderr(self) -> None:
        """Reads what is waiting in the standard error pipe, at most 1 MiB, without waiting for more."""
        for _ in range(16):
            if self._stderr is None or not self._read_stderr():
                return

    def _close_stderr(self) -> None:
        assert self._process.stderr is not None
        self._process.stderr.close()
        self._stderr = None

    def stop(self, grace: float = 0.5) -> int | None:
        """Closes the program's input, waits up to ``grace`` seconds for it to end, then kills all its processes.

        Returns the program's exit status (negative: the signal that ended it), or ``None``
        if it could not be reaped. Calling it again does nothing more.
        """
        if self._stopping:
            return self.returncode
        self._stopping = True
        _live.discard(self)
        if self._stdin is not None:
            with contextlib.suppress(OSError):
                assert self._process.stdin is not None
                self._process.stdin.close()
            self._stdin = None
        if grace > 0:
            self.wait_exit(grace)
        self._finalizer.detach()
        _kill(self.pid, self.marker, self._start_time)
        self._drain_stderr()  # its last words, for stderr_tail and on_stderr
        self.returncode = _reap(self._process, self._pidfd)
        self._stopped = True
        self._stdout = self._stderr = None
        return self.returncode


def _finalize(process: subprocess.Popen[bytes], marker: str, pidfd: int | None, start_time: int | None) -> None:
    """Stops a program whose supervisor was dropped or outlived by the interpreter; never raises."""
    _kill(process.pid, marker, start_time)
    _reap(process, pidfd)


def _kill(pid: int, marker: str, start_time: int | None) -> None:
    """Kills the program's process group, its session and every process that carries its marker."""
    # The program is not reaped before _reap, so its pid (its group's and session's id) is not reused.
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)
    exact = f"{MARKER}={marker}".encode()
    newer = start_time or 0

    def ours(other: int, stat: list[bytes]) -> bool:
        if int(stat[2]) == pid or int(stat[3]) == pid:  # its process group or its session
            return True
        return int(stat[19]) >= newer and _environ_has(other, exact, exact=True)  # descendants start later

    _kill_scan(ours)


def _reap(process: subprocess.Popen[bytes], pidfd: int | None) -> int | None:
    """Reaps the killed program and closes its pipes; returns its exit status if it could be reaped."""
    returncode: int | None = None
    with contextlib.suppress(subprocess.TimeoutExpired):  # else stuck in the kernel: Popen reaps it later
        returncode = process.wait(_REAP_SECONDS)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
    if pidfd is not None:
        with contextlib.suppress(OSError):
            os.close(pidfd)
    return returncode


def _kill_scan(match: Callable[[int, list[bytes]], bool]) -> int:
    """Kills every process (but this one) that ``match(pid, stat fields)`` picks, scanning /proc until none is left."""
    if not sys.platform.startswith("linux"):
        return 0
    killed = {os.getpid()}
    for _ in range(_SCANS):  # again, for the children of processes that forked while we looked
        found = [pid for pid, stat in _processes() if pid not in killed and stat[0] != b"Z" and match(pid, stat)]
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed.update(found)
        if not found:
            break
    killed.discard(os.getpid())
    _await_death(killed)
    return len(killed)


def _await_death(pids: set[int]) -> None:
    """Waits (a moment, at most _DEATH_SECONDS) until the killed processes are dead: gone, or zombies."""
    deadline = time.monotonic() + _DEATH_SECONDS
    pause = 0.001
    while pids and time.monotonic() < deadline:
        pids = {pid for pid in pids if _alive(pid)}
        if pids:
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :].split()[0] not in (b"Z", b"X")


def _processes() -> Iterator[tuple[int, list[bytes]]]:
    """Lists the processes of this machine with the fields of /proc/PID/stat after the command (state first)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as file:
                    stat = file.read()
            except OSError:
                continue
            # Fields after ")": state, ppid, pgrp, session, ...; the command may hold spaces and parentheses.
            yield int(entry), stat[stat.rfind(b")") + 2 :].split()


def _environ_has(pid: int, entry: bytes, *, exact: bool) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as file:
            variables = file.read().split(b"\0")
    except OSError:
        return False
    if exact:
        return entry in variables
    return any(variable.startswith(entry) for variable in variables)


def _start_time(pid: int) -> int | None:
    """Gets when a process started, in clock ticks since boot (field 22 of /proc/PID/stat), if known."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            stat = file.read()
    except OSError:
        return None
    return int(stat[stat.rfind(b")") + 2 :].split()[19])


def _pidfd(pid: int) -> int | None:
    """Opens a descriptor that becomes readable when the process ends (Linux 5.3+), if the system has them."""
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is None:
        return None
    try:
        fd: int = pidfd_open(pid)
    except OSError as error:
        if error.errno in (errno.ENOSYS, errno.EPERM, errno.ESRCH):
            return None
        raise
    return fd


def _seconds(value: float) -> str:
    return f"{value:g} s"
