"""The bot protocol: a program in any language plays through JSON lines on its standard input and output.

The program starts and writes its handshake, ``{"bot": NAME, "protocol": 2}`` (or ``1``). On
each of its turns the engine writes the player's view as one JSON line (see
:func:`view_message`) and reads the answer: in version 1 a line in move notation (``9-5@3``),
in version 2 a JSON line ``{"type": "move", "id": ID, "move": "9-5@3"}`` echoing the view's
request id, optionally after ``info`` lines about the program's thinking. Version 2 programs
are also told when a round and the game are over. The engine closes the program's standard
input when done. The docs page "Bots in any language" is the full specification.

A program runs under a :class:`~chickenfoot.supervisor.Supervisor`: in its own session, every
exchange with a deadline, each line at most 64 KiB, standard error kept off the terminal, and
every process it started killed when it is stopped. A move it gets wrong is *forfeited*: the
first legal move is played instead and a :class:`BotFault` recorded.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Sequence
from typing import Any

from .._game import BotSpecError, Move, PlayerView
from ..supervisor import LINE_LIMIT, LineTooLong, ProgramEnded, ProgramTimeout, StartError, Supervisor
from ._faults import BotFault, BotReport, FaultKind
from ._messages import (
    PROTOCOL_VERSION as PROTOCOL_VERSION,
    Info as Info,
    MoveInfo as MoveInfo,
    ProtocolVersion,
    _info,
    _move,
    _quote,
    handshake_problem as handshake_problem,
    view_message as view_message,
)

__all__ = ["PROTOCOL_VERSION", "Info", "MoveInfo", "ProcessBot", "handshake_problem", "view_message"]

_GRACE = 0.5  # seconds a program gets to exit on its own once its stdin is closed
_EXIT_WAIT = 3.0  # seconds to wait, after a program's output ends, for its exit status
_DISCARD_LIMIT = 100  # lines that are no answer a program may write while one move is asked
_LOG_BYTES = 1 << 20  # bytes of standard error logged per program run


class _Log:
    """Appends a program's standard error and info lines to a file, each line one write, boundedly."""

    def __init__(self, path: str | os.PathLike[str], label: str) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.label = label
        self._left = _LOG_BYTES
        self._partial = b""
        self._dropped = 0

    def write(self, kind: str, text: str) -> None:
        os.write(self._fd, f"{self.label} {kind}: {text}\n".encode("utf-8", errors="replace"))

    def stderr(self, chunk: bytes) -> None:
        if self._left <= 0:
            self._dropped += len(chunk)
            return
        kept = chunk[: self._left]
        self._dropped += len(chunk) - len(kept)
        self._left -= len(kept)
        *lines, self._partial = (self._partial + kept).split(b"\n")
        for line in lines:
            self.write("stderr", line.decode("utf-8", errors="replace"))
        self._partial = self._partial[-LINE_LIMIT:]

    def close(self) -> None:
        if self._partial:
            self.write("stderr", self._partial.decode("utf-8", errors="replace"))
        if self._dropped:
            self.write("stderr", f"[{self._dropped:,} more bytes not logged]")
        os.close(self._fd)


class _Illegal(Exception):
    """An answer that is no legal move: the move is forfeited, the program keeps playing."""


class _Stop(Exception):
    """A fault that stops the program: its kind and reason."""

    def __init__(self, kind: FaultKind, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind


class ProcessBot:
    """Plays through a program that speaks the bot protocol (see the docs page "Bots in any language").

    ``command`` is the program and its arguments, as for ``subprocess.Popen``. The program
    starts at the first move asked of it, with ``startup_seconds`` to write its handshake, and
    has ``seconds`` for each exchange (a move, or a version 2 notice). A move it gets wrong is
    forfeited (the first legal move is played) and recorded in ``faults``; after a fault
    that stops it (no handshake, an end, a timeout, an over-long line) its later moves are
    forfeited without asking it and counted in ``stopped``, until :meth:`close` (which
    play_out's callers such as tournaments call after each game) lets the next move start it
    afresh. :meth:`close` (or leaving a ``with`` block, or garbage collection) stops the
    program and every process it started. With ``log``, the program's standard error (1 MiB
    a run at most) and its info lines are appended to that file; without, standard error is
    kept only for fault messages. A copy (``copy.copy``, or pickling to another process)
    carries the settings only, and starts its own program.

    >>> import sys, chickenfoot as cf
    >>> program = "print('{\\"bot\\": \\"first\\", \\"protocol\\": 1}', flush=True)\\n"
    >>> program += "import sys, json\\nfor line in sys.stdin: print(json.loads(line)['legal_moves'][0], flush=True)"
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=1)
    >>> with ProcessBot([sys.executable, "-c", program]) as bot:
    ...     move = bot(cf.observe(game, game.current_player))
    ...     move == cf.legal_moves(game)[0], bot.name, bot.protocol, bot.faults
    (True, 'first', 1, [])
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        seconds: float = 5.0,
        startup_seconds: float = 10.0,
        name: str | None = None,
        log: str | os.PathLike[str] | None = None,
    ) -> None:
        """Builds a bot that will run ``command``, allowing ``seconds`` per move."""
        if isinstance(command, str) or not command or not all(isinstance(part, str) for part in command):
            raise ValueError(f"command must be a non-empty list of strings like ['node', 'bot.js'], got {command!r}")
        for label, value in (("seconds", seconds), ("startup_seconds", startup_seconds)):
            if type(value) not in (int, float) or not 0 < value < math.inf:
                raise ValueError(f"{label} must be a finite number above 0, got {value!r}")
        self.command = tuple(command)
        self.seconds = seconds
        self.startup_seconds = startup_seconds
        self.log = log
        self.name = name if name is not None else " ".join(self.command)
        """The given name; else the name from the program's handshake once it gave one, and the command until then."""
        self.faults: list[BotFault] = []
        """Every fault so far, oldest first."""
        self.stopped = 0
        """How many moves were forfeited without asking the program, because an earlier fault had stopped it."""
        self.handshake: dict[str, Any] | None = None
        """The program's latest valid handshake, decoded; ``None`` until it gave one."""
        self.info: Info | None = None
        """The last info line the program sent for the latest move asked (version 2), else ``None``."""
        self._named = name is not None
        self._program: Supervisor | None = None
        self._log: _Log | None = None
        self._request = 0  # the id of the latest view sent
        self._discards = 0  # lines discarded while the latest view was asked
        self._halted = False  # after a fault that stops the program: forfeit without asking

    def __repr__(self) -> str:
        return f"ProcessBot({list(self.command)!r}, seconds={self.seconds})"

    def __getstate__(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "seconds": self.seconds,
            "startup_seconds": self.startup_seconds,
            "name": self.name if self._named else None,
            "log": self.log,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        ProcessBot.__init__(
            self,
            state["command"],
            seconds=state["seconds"],
            startup_seconds=state["startup_seconds"],
            name=state["name"],
            log=state.get("log"),
        )

    def __enter__(self) -> ProcessBot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def protocol(self) -> ProtocolVersion | None:
        """Gets the protocol version the program's handshake named (1 or 2), or ``None`` before one."""
        return None if self.handshake is None else (1 if self.handshake["protocol"] == 1 else 2)

    @property
    def pid(self) -> int | None:
        """Gets the process id of the running program, or ``None`` while none runs."""
        return None if self._program is None else self._program.pid

    def report(self) -> BotReport:
        """Sums up the handshake name, the faults and the stopped moves so far (see :class:`BotReport`)."""
        return BotReport.tally(None if self.handshake is None else self.handshake["bot"], self.faults, self.stopped)

    def check(self) -> None:
        """Starts the program, reads its handshake and stops it again: what a tournament does before its first game.

        Raises :class:`~chickenfoot.BotSpecError` naming the bot and the cause when the program cannot
        start or its handshake is refused, so a run stops before any game rather than forfeiting
        every move. Run it on a copy (``copy.copy(bot).check()``) to leave the bot's name and
        handshake as they were.

        >>> ProcessBot(["no-such-program-here"], name="cmd:no-such-program-here").check()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        chickenfoot.BotSpecError: bot 'cmd:no-such-program-here' cannot play: cannot start 'no-such-program-here'...
        """
        try:
            self._start()
        except _Stop as error:
            raise BotSpecError(f"bot {self.name!r} cannot play: {error}") from None
        finally:
            self.close()

    def close(self) -> None:
        """Stops the program and every process it started (stdin closed, then killed); the next move starts anew."""
        if self._program is not None:
            self._program.stop(_GRACE)
            self._program = None
        if self._log is not None:
            self._log.close()
            self._log = None
        self._halted = False
        self._request = 0

    def __call__(self, view: PlayerView) -> Move:
        """Asks the program for a move; forfeits (plays the first legal move) when it fails."""
        moves = view.legal_moves
        if not moves:
            raise ValueError(
                f"player {view.player} has no move to make in this view: ask a bot only for the player to move"
            )
        if self._halted:
            self.stopped += 1
            return moves[0]
        self.info = None
        try:
            if self._program is None:
                self._start()
            return self._ask(view)
        except _Illegal as error:
            self._fault(view, "illegal", str(error))
        except _Stop as error:
            self._fault(view, error.kind, str(error))
            self.close()
            self._halted = True  # until close(): a tournament closes its bots after each game
        return moves[0]

    def round_over(self, view: PlayerView) -> None:
        """Tells a version 2 program that a round is over, with its scores (``view`` is seen after it)."""
        self._notify(
            view,
            {
                "type": "round_over",
                "protocol": 2,
                "round_index": len(view.round_scores) - 1,
                "scores": list(view.round_scores[-1]),
                "went_out": view.round_went_out[-1],
                "totals": list(view.totals),
            },
        )

    def game_over(self, view: PlayerView) -> None:
        """Tells a version 2 program that the game is over, with the totals and the winners."""
        message = {"type": "game_over", "protocol": 2, "totals": list(view.totals), "winners": list(view.winners)}
        self._notify(view, message)

    def _notify(self, view: PlayerView, message: dict[str, Any]) -> None:
        if self._program is None or self._halted or self.protocol != 2:
            return
        try:
            self._send(message, self.seconds, f"its {message['type']} message")
        except _Stop as error:
            self._fault(view, error.kind, str(error))
            self.close()
            self._halted = True

    def _fault(self, view: PlayerView, kind: FaultKind, detail: str) -> None:
        self.faults.append(BotFault(kind, round_index=view.round_index, turn=len(view.history), detail=detail))

    def _start(self) -> None:
        """Starts the program and reads its handshake, raising :class:`_Stop` ("startup") if that fails."""
        log = None if self.log is None else _Log(self.log, self.name)
        try:
            self._program = Supervisor(self.command, on_stderr=None if log is None else log.stderr)
        except StartError as error:
            if log is not None:
                log.close()
            raise _Stop("startup", str(error)) from None
        self._log = log
        if log is not None:
            log.label = f"{self.name} [{self._program.pid}]"
        try:
            line = self._line(time.monotonic() + self.startup_seconds)
        except ProgramTimeout:
            raise _Stop("startup", f"no handshake within {self.startup_seconds:g} s") from None
        except ProgramEnded:
            raise _Stop("startup", f"{self._ended()} before its handshake") from None
        except LineTooLong as error:
            raise _Stop("startup", f"the handshake: {error}") from None
        try:
            hello = json.loads(line)
        except ValueError:
            raise _Stop(
                "startup", f'the handshake must be a JSON line like {{"bot": NAME, "protocol": 2}}, got {_quote(line)}'
            ) from None
        problem = handshake_problem(hello)
        if problem is not None:
            raise _Stop("startup", problem)
        self.handshake = hello
        if not self._named:
            self.name = hello["bot"]
        if log is not None:
            log.label = f"{hello['bot']} [{self._program.pid}]"

    def _line(self, deadline: float) -> str:
        """Reads the program's next line that is not blank, CR LF read as LF, by the deadline."""
        assert self._program is not None
        while (left := deadline - time.monotonic()) > 0:  # blank lines without end cannot hold it past
            line = self._program.receive(left)
            if line.strip():
                return line.removesuffix("\r")
        raise ProgramTimeout("no line in time")

    def _send(self, message: dict[str, Any], seconds: float, what: str) -> None:
        assert self._program is not None
        try:
            self._program.send(json.dumps(message, separators=(",", ":")), seconds)
        except ProgramTimeout:
            raise _Stop("timeout", f"the program did not read {what} within {seconds:g} s") from None
        except ProgramEnded:
            raise _Stop("crash", self._ended()) from None

    def _ended(self) -> str:
        """Says how the program ended, or that it only closed its output, with its last words on stderr."""
        assert self._program is not None
        if self._program.wait_exit(_EXIT_WAIT):
            status = self._program.exit_status()
            how = f"the program ended (exit code {status})"
            if status is not None and status < 0:
                how = f"the program was killed by signal {-status}"
        else:
            how = "the program closed its standard output (it still ran)"
        last = [line for line in self._program.stderr_tail.splitlines() if line.strip()]
        return how if not last else f"{how}; its last words on stderr: {_quote(last[-1])}"

    def _ask(self, view: PlayerView) -> Move:
        """Sends the view and reads the answer, raising :class:`_Illegal` or :class:`_Stop` when the program fails."""
        assert self._program is not None
        deadline = time.monotonic() + self.seconds
        self._request += 1
        self._discards = 0
        version = self.protocol
        try:
            self._discard_waiting(view, deadline, version)
            self._send(view_message(view, request=self._request if version == 2 else None), self.seconds, "its view")
            while True:
                line = self._line(deadline)
                move = self._answer(line, view) if version == 2 else self._move(line, view)
                if move is not None:
                    return move
        except ProgramTimeout:
            raise _Stop("timeout", f"no answer within {self.seconds:g} s") from None
        except ProgramEnded:
            raise _Stop("crash", self._ended()) from None
        except LineTooLong as error:
            raise _Stop("overflow", str(error)) from None

    def _discard_waiting(self, view: PlayerView, deadline: float, version: int | None) -> None:
        """Discards the lines the program wrote before this view was sent (late or extra answers)."""
        assert self._program is not None
        while time.monotonic() < deadline:
            try:
                line = self._program.receive(0)
            except ProgramTimeout:
                return
            if not line.strip():
                continue
            if version == 2:  # discarded for the same reason as when it arrives after the view was sent
                self._answer(line.removesuffix("\r"), view, sent=False)
            else:
                self._discard(view, f"a line written while no view was asked: {_quote(line)}")

    def _discard(self, view: PlayerView, reason: str) -> None:
        """Records a discarded line, raising :class:`_Stop` ("overflow") past the limit for one view."""
        self._fault(view, "discarded", reason)
        self._discards += 1
        if self._discards > _DISCARD_LIMIT:
            raise _Stop("overflow", f"more than {_DISCARD_LIMIT} lines that were no answer to one view")

    def _move(self, text: object, view: PlayerView) -> Move:
        """Reads an answer's move, raising :class:`_Illegal` if it is no legal move of ``view``."""
        try:
            move = _move(text)
        except ValueError:
            raise _Illegal(f"{_quote(text)} is not a move") from None
        if move not in view.legal_moves:
            raise _Illegal(f"{move} is not a legal move")
        return move

    def _answer(self, line: str, view: PlayerView, *, sent: bool = True) -> Move | None:
        """Reads a version 2 line: the move it answers, or ``None`` for an info line or a discarded line.

        Before the view is ``sent``, every line is discarded (or refused), none taken as the answer.
        """
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise _Illegal(f'{_quote(line)} is not a JSON message like {{"type": "move", "id": ID, "move": "9-5@3"}}')
        kind = message["type"]
        request = message.get("id")
        earlier = type(request) is int and 0 < request < self._request
        current = sent and type(request) is int and request == self._request
        if kind == "move" and current:
            return self._move(message.get("move"), view)
        if kind == "move" and not earlier:
            raise _Illegal(f'the answer must echo "id": {self._request}, got {_quote(line)}')
        reason = None
        if kind == "move":
            reason = f"a second or late answer to view {request}: {_quote(line)}"
        elif kind != "info":
            reason = f"a message of unknown type: {_quote(line)}"
        elif earlier:
            reason = f"a late info line for view {request}: {_quote(line)}"
        elif not current:
            reason = f'an info line whose "id" is not {self._request}: {_quote(line)}'
        else:
            try:
                self.info = _info(message)
            except ValueError as error:
                reason = f"an info line that breaks the schema ({error}): {_quote(line)}"
            else:
                if self._log is not None:
                    self._log.write("info", line.strip())
                return None
        self._discard(view, reason)
        return None
