"""Immutable state: the round in play, the finished rounds, and the game around them."""

from __future__ import annotations

from typing import TypeAlias

import attrs

from ._board import Board
from ._build import builder, new
from ._moves import Move
from ._rules import Rules
from ._tiles import Tile

__all__ = ["GameState", "History", "PlayerIndex", "RoundResult", "RoundState", "Turn"]

PlayerIndex: TypeAlias = int
"""A seat, 0 to players - 1; turns go up and wrap around (TURN-1)."""

Turn: TypeAlias = tuple[PlayerIndex, Move]
"""One entry of a round's history: who moved, and the move."""

# A persistent list, newest first: (turn, rest) or None. Appending shares the whole past,
# so keeping every state of a playout costs one small tuple per move.
History: TypeAlias = tuple[Turn, "History"] | None


def _unroll(history: History) -> tuple[Turn, ...]:
    turns: list[Turn] = []
    while history is not None:
        turn, history = history
        turns.append(turn)
    turns.reverse()
    return tuple(turns)


@attrs.frozen(weakref_slot=False)  # no weakref slot: see _build
class RoundState:
    """Holds one round: hands, yard, layout, and whose turn it is.

    Two states are equal when their positions are; the history of moves that led there is
    kept (see :attr:`history`) but not compared.

    >>> import chickenfoot as cf
    >>> state = cf.new_game(cf.Rules.trains(), players=4, seed=7).round
    >>> [len(hand) for hand in state.hands], len(state.yard), state.reserve, state.double
    ([11, 11, 11, 11], 10, 1, 9)
    """

    rules: Rules
    """The rules in force."""
    hands: tuple[tuple[Tile, ...], ...]
    """Each player's tiles, by seat."""
    yard: tuple[Tile, ...]
    """The face-down draw pile; ``yard[0]`` is drawn next (DRAW-1)."""
    board: Board
    """The layout."""
    current_player: PlayerIndex
    """The player to move; once the round is over, the player who went out, or else whose turn was next."""
    reserve: int
    """How many yard tiles may never be drawn this round (YARD-1)."""
    drawn: Tile | None = None
    """The tile drawn this turn, which may or must now be played (DRAW-2, DRAW-3), else ``None``."""
    is_over: bool = False
    """Whether the round has ended (END-1, END-2)."""
    went_out: PlayerIndex | None = None
    """The player who played their last tile, if the round ended that way (END-1)."""
    log: History = attrs.field(default=None, eq=False, repr=False)
    """The moves of the round so far as a persistent list; read :attr:`history` instead."""
    # Caches the engine fills in on first use; a state's value never depends on them.
    _legal: tuple[Move, ...] | None = attrs.field(default=None, init=False, eq=False, repr=False)
    _held: int | None = attrs.field(default=None, init=False, eq=False, repr=False)

    @property
    def players(self) -> int:
        """Gets the number of players."""
        return len(self.hands)

    @property
    def double(self) -> int:
        """Gets the value of the center double."""
        return self.board.center.high

    @property
    def can_draw(self) -> bool:
        """Tells whether the yard holds more tiles than the reserve (DRAW-1, YARD-1)."""
        return len(self.yard) > self.reserve

    @property
    def history(self) -> tuple[Turn, ...]:
        """Gets every ``(player, move)`` of the round so far, oldest first."""
        return _unroll(self.log)

    def __str__(self) -> str:
        """Writes the state as text: whose turn, the layout as a tree, the hands and the yard."""
        from .render import _describe  # late: render imports this module

        return _describe(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        from .svg import render_svg  # late: svg imports this module

        return render_svg(self)


@attrs.frozen
class RoundResult:
    """Records how a round ended: its double, its scores and who went out (SCORE-1).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    >>> while not game.results:
    ...     game = cf.apply(game, cf.legal_moves(game)[0])
    >>> result = game.results[0]
    >>> result.double, result.scores == cf.round_scores(result.final), game.totals == result.scores
    (9, True, True)
    """

    double: int
    """The value of the round's center double."""
    scores: tuple[int, ...]
    """What each player scored this round."""
    went_out: PlayerIndex | None
    """The player who went out, or ``None`` if the round was blocked (END-2)."""
    final: RoundState
    """The round's last state."""


@attrs.frozen(weakref_slot=False)  # no weakref slot: see _build
class GameState:
    """Holds a whole game: the round in play, the rounds played, and the running totals (GAME-1).

    Build one with :func:`~chickenfoot.new_game`; :func:`~chickenfoot.apply` returns the next one.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=2)
    >>> game.round_index, game.totals, game.is_over, game.current_player == game.round.current_player
    (0, (0, 0, 0), False, True)
    """

    rules: Rules
    """The rules in force."""
    players: int
    """The number of players."""
    seed: int
    """The seed every deal of the game derives from (DEAL-2)."""
    round: RoundState
    """The round in play; once the game is over, the last round's final state."""
    round_index: int
    """The 0-based number of the round in play (ROUND-1)."""
    totals: tuple[int, ...]
    """Each player's score summed over the finished rounds."""
    results: tuple[RoundResult, ...] = ()
    """The finished rounds, oldest first."""
    winners: tuple[PlayerIndex, ...] = ()
    """The players who won, once the game is over (GAME-1, TIE-1, TIE-2); empty until then."""

    @property
    def is_over(self) -> bool:
        """Tells whether every round has been played."""
        return len(self.results) == self.rules.max_pip + 1  # Rules.rounds, inlined: read every move

    @property
    def current_player(self) -> PlayerIndex | None:
        """Gets the player to move, or ``None`` once the game is over."""
        return None if self.is_over else self.round.current_player

    @property
    def moves(self) -> tuple[Move, ...]:
        """Gets every move of the game so far, oldest first (enough to replay it from the seed)."""
        rounds = [result.final.history for result in self.results]
        if not self.is_over:
            rounds.append(self.round.history)
        return tuple(move for turns in rounds for _, move in turns)

    def __str__(self) -> str:
        """Writes the state as text: whose turn, the layout as a tree, the hands and the yard."""
        from .render import _describe  # late: render imports this module

        return _describe(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        from .svg import render_svg  # late: svg imports this module

        return render_svg(self)


# -- fast private constructors for the engine (see _build) ------------------------------------

_RoundBuilder = builder(RoundState)
_GameBuilder = builder(GameState)


def make_round(
    rules: Rules,
    hands: tuple[tuple[Tile, ...], ...],
    yard: tuple[Tile, ...],
    board: Board,
    current_player: PlayerIndex,
    reserve: int,
    drawn: Tile | None,
    is_over: bool,
    went_out: PlayerIndex | None,
    log: History,
    held: int | None,
) -> RoundState:
    """Builds a RoundState as its constructor would, several times faster; ``held`` seeds a cache."""
    if _RoundBuilder is None:  # pragma: no cover - see _build
        state = RoundState(rules, hands, yard, board, current_player, reserve, drawn, is_over, went_out, log)
        object.__setattr__(state, "_held", held)
        return state
    built = new(_RoundBuilder)
    built.rules = rules
    built.hands = hands
    built.yard = yard
    built.board = board
    built.current_player = current_player
    built.reserve = reserve
    built.drawn = drawn
    built.is_over = is_over
    built.went_out = went_out
    built.log = log
    built._legal = None
    built._held = held
    built.__class__ = RoundState
    made: RoundState = built
    return made


def make_game(
    rules: Rules,
    players: int,
    seed: int,
    round: RoundState,
    round_index: int,
    totals: tuple[int, ...],
    results: tuple[RoundResult, ...],
    winners: tuple[PlayerIndex, ...] = (),
) -> GameState:
    """Builds a GameState as its constructor would, several times faster."""
    if _GameBuilder is None:  # pragma: no cover - see _build
        return GameState(rules, players, seed, round, round_index, totals, results, winners)
    built = new(_GameBuilder)
    built.rules = rules
    built.players = players
    built.seed = seed
    built.round = round
    built.round_index = round_index
    built.totals = totals
    built.results = results
    built.winners = winners
    built.__class__ = GameState
    made: GameState = built
    return made


set_legal = RoundState.__dict__["_legal"].__set__  # fills the cache despite frozen __setattr__
set_held = RoundState.__dict__["_held"].__set__
