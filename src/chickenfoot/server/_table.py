"""One game in play on the server (:class:`Table`), what creating one gives back, and the server's refusals."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

import chickenfoot as cf
from chickenfoot.bots import KINDS, Bot, ProcessBot, make_bot
from chickenfoot.svg import render_svg

from ._protocol import seat_view
from ._store import Stored, StoreError

if TYPE_CHECKING:
    from ._games import Session

__all__ = ["HUMAN", "SEATED_BOTS", "CloseConnection", "NewGame", "Refusal", "SendFrame", "Table"]

HUMAN = "human"
SEATED_BOTS = tuple(kind.name for kind in KINDS if kind.fair and kind.name != "cmd")
"""The built-in bots a client may seat: the fair ones (``omniscient`` sees every hand, and is for measuring
only; a ``cmd:`` program is the operator's to configure)."""


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


SendFrame = Callable[[str], Awaitable[None]]
CloseConnection = Callable[[int, str], Awaitable[None]]


class Table:
    """Holds one game in play: its state, its log of moves, its seats' secrets (hashed) and its connections."""

    def __init__(self, stored: Stored, *, programs: Mapping[str, Sequence[str]], program_seconds: float) -> None:
        setup = stored.setup
        self.setup = setup
        self.invites = list(stored.invites)
        self.tokens = list(stored.tokens)
        # The game rebuilt from its seed and every stored move, each through apply.
        game = cf.new_game(setup.rules, setup.players, setup.seed)
        self.log: list[tuple[int, int, str]] = []
        for text in stored.moves:
            player = game.current_player
            if player is None:
                raise StoreError(f"game {setup.game}'s log goes on after the game is over")
            self.log.append((game.round_index, player, text))
            game = cf.apply(game, cf.parse_move(text))
        if game.is_over != stored.finished:
            raise StoreError(
                f"game {setup.game} is stored as {'over' if stored.finished else 'in play'}, its moves say not"
            )
        self.game = game
        self.lock = asyncio.Lock()  # one writer
        self.sessions: set[Session] = set()
        self.fenced = False
        self.bots: dict[int, Bot] = {
            seat: _bot(kind, setup.seed + seat, programs, program_seconds)
            for seat, kind in enumerate(setup.seats)
            if kind != HUMAN and not game.is_over
        }
        self.told = len(game.results)  # how many finished rounds the bots have been told of
        self.wake = asyncio.Event()
        self.bot_task: asyncio.Task[None] | None = None
        self._public: str | None = None  # the spectator document of the current state
        self._svgs: dict[int | None, str] = {}  # the current state drawn, by seat (None: a spectator's)

    @property
    def id(self) -> str:
        """Gets the game's id."""
        return self.setup.game

    @property
    def seq(self) -> int:
        """Gets the number of moves made so far (the sequence number the next move is made at)."""
        return len(self.log)

    def seats(self) -> list[dict[str, Any]]:
        """Describes each seat for clients: who sits there and whether it is taken."""
        return [
            {"kind": "human" if kind == HUMAN else "bot", "name": kind, "claimed": kind != HUMAN or token is not None}
            for kind, token in zip(self.setup.seats, self.tokens, strict=True)
        ]

    def summary(self) -> dict[str, Any]:
        """Describes the game as anyone may see it (never the seed, a hand or the yard)."""
        return {
            "game": self.id,
            "players": self.setup.players,
            "rules": json.loads(cf.to_json(self.setup.rules)),
            "rounds": self.setup.rules.rounds,
            "seats": self.seats(),
            "seq": self.seq,
            "is_over": self.game.is_over,
        }

    def advance(self, after: cf.GameState, text: str) -> None:
        """Applies a stored move: the log and the state move on, and what was written of the old state goes."""
        before = self.game
        assert before.current_player is not None
        self.log.append((before.round_index, before.current_player, text))
        self.game = after
        self._public = None
        self._svgs.clear()
        self.wake.set()

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


def _bot(kind: str, seed: int, programs: Mapping[str, Sequence[str]], seconds: float) -> Bot:
    if kind in programs:
        return ProcessBot(list(programs[kind]), seconds=seconds, name=kind)
    return make_bot(kind, seed=seed)
