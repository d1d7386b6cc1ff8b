"""One game in memory on a node (:class:`Table`), what creating one gives back, and the server's refusals.

A table is the game's state rebuilt from its seed and stored moves, its connections on this
node, and whether this node holds the game's lease (and so plays its moves) or follows another
node's moves. What a table needs of a connection, and of whoever made a move, is said here as
protocols (:class:`Connection`, :class:`Mover`), so that this module imports neither.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import attrs

import chickenfoot as cf
from chickenfoot.bots import KINDS
from chickenfoot.svg import render_svg

from ._protocol import seat_view
from ._store import Setup, Stored, StoreError

__all__ = [
    "HUMAN",
    "SEATED_BOTS",
    "UNSEATED",
    "Connection",
    "Mover",
    "NewGame",
    "Refusal",
    "Table",
    "describe",
]

HUMAN = "human"
UNSEATED = {
    "omniscient": "sees every hand",
    "py": "runs code a client names",
    "cmd": "runs a program: the server's operator configures program bots",
    "solver": "solves worlds exactly, in time and memory the server's limits do not bound",
}
"""Why a client may not seat a kind of bot, for each kind it may not."""
SEATED_BOTS = tuple(kind.name for kind in KINDS if kind.fair and kind.name not in UNSEATED)
"""The built-in bots a client may seat: the fair ones whose thinking the server's limits bound."""


class Refusal(Exception):
    """Raised when the server refuses a request; ``status`` is the HTTP status that says so, ``rule`` a rule ID."""

    def __init__(self, status: int, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.rule = rule


@attrs.frozen
class NewGame:
    """Holds a game just created: its id and, for each person's seat, the invitation that claims it (once)."""

    game: str
    """The game's id."""
    invites: tuple[str | None, ...]
    """Each seat's invitation, ``None`` for a bot's seat; shown once, and stored only as a hash."""


class Connection(Protocol):
    """What a table needs of a connection to it: its seat, its wishes, and a way to send and to close."""

    seat: int | None
    svg: bool

    def send(self, frame: str) -> None:
        """Queues a frame for the client."""

    def close(self, code: int, reason: str) -> None:
        """Closes the connection with ``code`` and ``reason``."""


class Mover(Protocol):
    """Whoever made a move, told what became of it: a connection on this node, or one on another."""

    def ack(self, seq: int, move: str) -> None:
        """Tells the mover its move is stored; the game now has ``seq`` moves."""

    def refuse(self, seq: int, move: str, refusal: Refusal) -> None:
        """Tells the mover its move was not played, and why."""

    def stale(self, seq: int, move: str) -> None:
        """Tells the mover its move was made at a state that is gone; the game has ``seq`` moves."""


def describe(setup: Setup, tokens: Sequence[str | None], seq: int, *, is_over: bool, expired: bool) -> dict[str, Any]:
    """Describes a game as anyone may see it (never the seed, a hand or the yard)."""
    return {
        "game": setup.game,
        "players": setup.players,
        "rules": json.loads(cf.to_json(setup.rules)),
        "rounds": setup.rules.rounds,
        "seats": _seats(setup, tokens),
        "seq": seq,
        "is_over": is_over,
        "expired": expired,
    }


def _seats(setup: Setup, tokens: Sequence[str | None]) -> list[dict[str, Any]]:
    return [
        {"kind": "human" if kind == HUMAN else "bot", "name": kind, "claimed": kind != HUMAN or token is not None}
        for kind, token in zip(setup.seats, tokens, strict=True)
    ]


class Table:
    """Holds one game in memory: its state, its log of moves, its seats' secrets (hashed) and its connections here.

    ``owned`` says this node holds the game's lease: it alone plays the game's moves (and its
    bots'); otherwise it applies the moves the owner announces. ``expire_seconds`` is how long
    the game may go without a move before it expires.
    """

    def __init__(self, stored: Stored, *, expire_seconds: float, joins: Callable[[], bool]) -> None:
        setup = stored.setup
        self.setup = setup
        self.invites = list(stored.invites)
        self.tokens = list(stored.tokens)
        self.expire_seconds = expire_seconds
        # The game rebuilt from its seed and every stored move, each through apply.
        self.game = cf.new_game(setup.rules, setup.players, setup.seed)
        self.seq = 0  # the number of moves made so far (the sequence number the next move is made at)
        # The log of moves, as sync frames send it: each finished round's written once as JSON
        # (its moves never change, and their tuples would be most of a long game's memory), the
        # round in play's as (round, player, move) entries.
        self._written: list[str] = []
        self._turns: list[tuple[int, int, str]] = []
        self.last: tuple[int, int, str] | None = None  # the last move made, as (round, player, move)
        for text in stored.moves:
            if self.game.is_over:
                raise StoreError(f"game {setup.game}'s log goes on after the game is over")
            self._apply(text)
        if self.game.is_over != stored.finished:
            raise StoreError(
                f"game {setup.game} is stored as {'over' if stored.finished else 'in play'}, its moves say not"
            )
        self.moved = time.monotonic() - stored.idle  # when the last move was made, on this node's clock
        self.lock = asyncio.Lock()  # one writer
        self.sessions: set[Connection] = set()
        self.owned = False
        self.joins = joins  # counts a spectator joining; False past the game's rate
        self.wake = asyncio.Event()  # set at every move, for the bots waiting for their turn
        self.bot_task: asyncio.Task[None] | None = None
        self._public: str | None = None  # the spectator document of the current state
        self._svgs: dict[int | None, str] = {}  # the current state drawn, by seat (None: a spectator's)

    @property
    def id(self) -> str:
        """Gets the game's id."""
        return self.setup.game

    @property
    def expired(self) -> bool:
        """Tells whether the game has gone ``expire_seconds`` without a move (and takes no more)."""
        return not self.game.is_over and time.monotonic() - self.moved >= self.expire_seconds

    def bots_turn(self, game: cf.GameState | None = None) -> bool:
        """Tells whether a bot the server seats is to move in ``game`` (this table's, by default)."""
        game = self.game if game is None else game
        player = game.current_player
        return player is not None and self.setup.seats[player] != HUMAN

    def summary(self) -> dict[str, Any]:
        """Describes the game as anyone may see it (never the seed, a hand or the yard)."""
        return describe(self.setup, self.tokens, self.seq, is_over=self.game.is_over, expired=self.expired)

    def advance(self, after: cf.GameState, text: str) -> None:
        """Applies a stored move: the log and the state move on, and what was written of the old state goes."""
        self._note(self.game, after, text)
        self.moved = time.monotonic()
        self._public = None
        self._svgs.clear()
        self.wake.set()

    def follow(self, text: str) -> None:
        """Applies a move another node stored (raises :class:`~chickenfoot.IllegalMoveError` if it does not apply)."""
        self._apply(text)
        self.moved = time.monotonic()
        self._public = None
        self._svgs.clear()
        self.wake.set()

    def _apply(self, text: str) -> None:
        self._note(self.game, cf.apply(self.game, cf.parse_move(text)), text)

    def _note(self, before: cf.GameState, after: cf.GameState, text: str) -> None:
        """Moves the game on to ``after``, ``text`` played, and logs the move."""
        player = before.current_player
        assert player is not None
        self.last = (before.round_index, player, text)
        self._turns.append(self.last)
        self.seq += 1
        self.game = after
        if after.is_over or after.round_index != before.round_index:  # the round is over: write it
            self._written.append(_entries(self._turns))
            self._turns = []

    def log_json(self) -> str:
        """Writes every move made so far as a JSON list of ``[round, player, move]``."""
        rounds = [*self._written, _entries(self._turns)] if self._turns else self._written
        return f"[{', '.join(rounds)}]"

    def view_json(self, seat: int | None) -> str:
        """Writes what ``seat`` (``None``: a spectator) may see now, as a view (or spectator) document."""
        if self._public is None:
            self._public = cf.to_json(cf.spectate(self.game))
        if seat is None:
            return self._public
        return seat_view(self._public, cf.observe(self.game, seat))

    def svg(self, seat: int | None) -> str:
        """Draws the board as ``seat`` (``None``: a spectator) sees it now, once per state and seat."""
        drawn = self._svgs.get(seat)
        if drawn is None:
            view = cf.spectate(self.game) if seat is None else cf.observe(self.game, seat)
            drawn = self._svgs[seat] = render_svg(view, hand=False)
        return drawn

    def sync_frame(self, seat: int | None, svg: bool) -> str:
        """Writes everything a connection of ``seat`` may know: the table, the log of moves and its view now."""
        head = json.dumps({"type": "sync", "seq": self.seq, "seat": seat, "table": self.summary()})
        frame = head[:-1] + ', "log": ' + self.log_json() + ', "view": ' + self.view_json(seat)
        if svg:
            frame += ', "svg": ' + json.dumps(self.svg(seat))
        return frame + "}"

    def broadcast(self) -> None:
        """Sends the last move, and each connection's view after it, to every connection here."""
        assert self.last is not None
        last = json.dumps(self.last)
        head = f'{{"type": "state", "seq": {self.seq}, "last": {last}, "view": '
        for session in list(self.sessions):
            frame = head + self.view_json(session.seat)
            if session.svg:
                frame += ', "svg": ' + json.dumps(self.svg(session.seat))
            session.send(frame + "}")

    def seat_taken(self, seat: int, token: str) -> None:
        """Notes a seat's claim (its token's hash) and tells every connection here."""
        self.tokens[seat] = token
        frame = json.dumps({"type": "seats", "seats": _seats(self.setup, self.tokens)})
        for session in list(self.sessions):
            session.send(frame)


def _entries(turns: list[tuple[int, int, str]]) -> str:
    """Writes log entries as the items of a JSON list (no brackets), so that rounds written apart join into one."""
    return json.dumps(turns)[1:-1]
