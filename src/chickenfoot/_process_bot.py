"""The bot protocol: a program in any language plays through one JSON line in, one move line out.

The engine starts the program and reads its handshake, ``{"bot": NAME, "protocol": 1}``. On
each of its turns it writes the player's view as one JSON object on a line (see
:func:`view_message`) and reads back one line in move notation (``9-5@3``, ``draw``, ``pass``).
It closes the program's stdin when done. Everything the program writes to stderr passes through.

A move the program gets wrong is *forfeited*: the first legal move is played instead and a
:class:`BotFault` is recorded. An illegal or unreadable answer forfeits that move only; a crash,
a bad handshake or a timeout stops the program, and every later move of that bot is forfeited
without asking it (a program that missed its deadline may still answer late, out of step).
"""

from __future__ import annotations

import contextlib
import json
import math
import queue
import subprocess
import threading
import time
import weakref
from collections.abc import Sequence
from typing import IO, Any, Literal, TypeAlias

import attrs

from ._errors import InvalidMoveError
from ._moves import Move, parse_move
from ._views import PlayerView

__all__ = ["PROTOCOL_VERSION", "BotFault", "FaultKind", "ProcessBot", "view_message"]

PROTOCOL_VERSION = 1
"""The version of the bot protocol, named in the program's handshake."""

FaultKind: TypeAlias = Literal["startup", "crash", "timeout", "illegal", "stopped"]
"""What went wrong: no valid handshake, the program ended, no answer in time, an answer that is no legal move,
or the program was stopped at an earlier fault."""

_GRACE = 0.5  # seconds a program gets to exit on its own once its stdin is closed


@attrs.frozen
class BotFault:
    """Records one move a :class:`ProcessBot` forfeited, and why.

    >>> BotFault("illegal", round_index=0, turn=3, detail="'9-9@0' is not a legal move")
    BotFault(kind='illegal', round_index=0, turn=3, detail="'9-9@0' is not a legal move")
    """

    kind: FaultKind
    """What went wrong."""
    round_index: int
    """The round of the forfeited move, from 0."""
    turn: int
    """The number of moves already made in that round."""
    detail: str
    """What the program did, in words."""


def view_message(view: PlayerView) -> dict[str, Any]:
    """Writes a player's view as the protocol's JSON object: tiles and moves in notation, the legal moves included.

    >>> import chickenfoot as cf
    >>> message = view_message(cf.observe(cf.new_game(cf.Rules.trains(), players=2, seed=1), 0))
    >>> message["type"], message["protocol"], message["player"], message["legal_moves"][:1]
    ('view', 1, 0, ['9-8@0'])
    """
    return {
        "type": "view",
        "protocol": PROTOCOL_VERSION,
        "rules": attrs.asdict(view.rules),
        "players": view.players,
        "player": view.player,
        "round_index": view.round_index,
        "hand": [str(tile) for tile in view.hand],
        "board": [{"tile": str(node.tile), "parent": node.parent} for node in view.board.nodes],
        "hand_sizes": list(view.hand_sizes),
        "yard_size": view.yard_size,
        "reserve": view.reserve,
        "drawn": None if view.drawn is None else str(view.drawn),
        "current_player": view.current_player,
        "totals": list(view.totals),
        "round_doubles": list(view.round_doubles),
        "round_scores": [list(scores) for scores in view.round_scores],
        "round_went_out": list(view.round_went_out),
        "history": [[player, str(move)] for player, move in view.history],
        "legal_moves": [str(move) for move in view.legal_moves],
    }


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Forwards the program's output lines to the queue, then ``None`` at end of file."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):  # the pipe was closed under us
        pass
    lines.put(None)


def _stop(process: subprocess.Popen[str]) -> None:
    """Closes the program's stdin, gives it a moment to exit, then kills it; never raises."""
    if process.poll() is None:
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(_GRACE)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
    for stream in (process.stdin, process.stdout):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


class ProcessBot:
    """Plays through a program that speaks the bot protocol (see the docs page "Bots in any language").

    ``command`` is the program and its arguments, as for ``subprocess.Popen``. The program
    starts at the first move asked of it, with ``startup_seconds`` to write its handshake, and
    has ``seconds`` for each move. A move it gets wrong is forfeited (the first legal move is
    played) and recorded in ``faults``; after a crash or timeout it is stopped and its later
    moves are forfeited without asking it, until :meth:`close` (which tournaments call after
    each game) lets the next move start it afresh. :meth:`close` (or leaving a ``with`` block, or
    garbage collection) stops the program. A copy sent to another process (pickled) carries
    the command only, and starts its own program.

    >>> import sys, chickenfoot as cf
    >>> program = "print('{\\"bot\\": \\"first\\", \\"protocol\\": 1}', flush=True)\\n"
    >>> program += "import sys, json\\nfor line in sys.stdin: print(json.loads(line)['legal_moves'][0], flush=True)"
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=1)
    >>> with ProcessBot([sys.executable, "-c", program]) as bot:
    ...     move = bot(cf.observe(game, game.current_player))
    ...     move == cf.legal_moves(game)[0], bot.name, bot.faults
    (True, 'first', [])
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        seconds: float = 5.0,
        startup_seconds: float = 10.0,
        name: str | None = None,
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
        self.name = name if name is not None else " ".join(self.command)
        """The name from the program's handshake (until then, or if given, the given name or command)."""
        self.faults: list[BotFault] = []
        """Every move forfeited so far, oldest first."""
        self._named = name is not None
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stopped = False  # after a crash or timeout: forfeit without asking
        self._finalizer: weakref.finalize[Any, Any] | None = None

    def __repr__(self) -> str:
        return f"ProcessBot({list(self.command)!r}, seconds={self.seconds})"

    def __getstate__(self) -> dict[str, Any]:
        return {
            "command": self.command,
            "seconds": self.seconds,
            "startup_seconds": self.startup_seconds,
            "name": self.name if self._named else None,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        ProcessBot.__init__(
            self,
            state["command"],
            seconds=state["seconds"],
            startup_seconds=state["startup_seconds"],
            name=state["name"],
        )

    def __enter__(self) -> ProcessBot:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Stops the program (stdin closed, then killed if it lingers); the next move starts it afresh."""
        if self._finalizer is not None:
            self._finalizer()  # runs _stop once
        self._process = None
        self._finalizer = None
        self._stopped = False

    def __call__(self, view: PlayerView) -> Move:
        """Asks the program for a move; forfeits (plays the first legal move) when it fails."""
        moves = view.legal_moves
        if not moves:
            raise ValueError(
                f"player {view.player} has no move to make in this view: ask a bot only for the player to move"
            )
        if self._stopped:
            return self._forfeit(view, "stopped", "the program was stopped at an earlier fault")
        if self._process is None:
            problem = self._start()
            if problem is not None:
                return self._forfeit(view, "startup", problem, stop=True)
        assert self._process is not None
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(json.dumps(view_message(view), separators=(",", ":")) + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError):
            return self._forfeit(view, "crash", f"the program ended (exit code {self._process.poll()})", stop=True)
        answer = self._read(self.seconds)
        if answer is None:
            return self._forfeit(view, "crash", f"the program ended (exit code {self._process.poll()})", stop=True)
        if answer is _TIMEOUT:
            return self._forfeit(view, "timeout", f"no answer within {self.seconds} s", stop=True)
        try:
            move = parse_move(answer)
        except InvalidMoveError:
            return self._forfeit(view, "illegal", f"{answer.strip()[:80]!r} is not a move")
        if move not in moves:
            return self._forfeit(view, "illegal", f"{move} is not a legal move")
        return move

    def _start(self) -> str | None:
        """Starts the program and reads its handshake; returns what went wrong, if anything."""
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as error:
            return f"cannot start {self.command[0]!r}: {error.strerror or error}"
        self._process = process
        self._lines = queue.Queue()
        self._finalizer = weakref.finalize(self, _stop, process)
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        line = self._read(self.startup_seconds)
        if line is None:
            return f"the program ended before its handshake (exit code {process.poll()})"
        if line is _TIMEOUT:
            return f"no handshake within {self.startup_seconds} s"
        try:
            hello = json.loads(line)
        except ValueError:
            hello = None
        if not isinstance(hello, dict) or hello.get("protocol") != PROTOCOL_VERSION:
            return f'the handshake must be a JSON line like {{"bot": NAME, "protocol": 1}}, got {line.strip()[:80]!r}'
        if not self._named and isinstance(hello.get("bot"), str) and hello["bot"].strip():
            self.name = hello["bot"].strip()
        return None

    def _read(self, seconds: float) -> str | None:
        """Gets the program's next line; ``None`` at end of output, :data:`_TIMEOUT` if none comes in time."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return _TIMEOUT
            if line is None or line.strip():  # blank lines are ignored
                return line

    def _forfeit(self, view: PlayerView, kind: FaultKind, detail: str, *, stop: bool = False) -> Move:
        self.faults.append(BotFault(kind, round_index=view.round_index, turn=len(view.history), detail=detail))
        if stop:
            self.close()
            self._stopped = True  # until close(): a tournament closes its bots after each game
        return view.legal_moves[0]


_TIMEOUT = "\x00timeout"  # a sentinel no line read from a text pipe can equal (lines end with a newline)
