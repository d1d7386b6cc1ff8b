"""The library's errors: few, all under :class:`ValueError`, each with a reason a person can act on.

One policy holds at every entry point (docs/api.md, "Errors"): a value of the wrong *type* raises
:class:`TypeError`; a value of the right type that the library does not accept raises the error
of its kind below; a reader given text never raises anything but :class:`InvalidRecordError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._state import GameState

__all__ = [
    "BotError",
    "BotSpecError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "RulesError",
]


class RulesError(ValueError):
    """Raised for a rules configuration that cannot be played, saying what to change: an option,
    a player count the set cannot deal (DEAL-1), a seed or a round number out of range.

    >>> from chickenfoot import Rules
    >>> Rules.cross(center_arms=9)
    Traceback (most recent call last):
    ...
    chickenfoot.RulesError: center_arms must be None (the preset's rule) or a whole number from 1 to 8, got 9
    """


class InvalidMoveError(ValueError):
    """Raised when a tile or a move names nothing the game has: text that does not parse, pips
    outside 0 to 18 (``Tile(10, 19)`` as ``Tile.parse("10-19")``), or an action number
    (``chickenfoot.actions``) that names no move or a play the numbering cannot encode.

    >>> from chickenfoot import Tile, parse_move
    >>> parse_move("9-5@")
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidMoveError: '9-5@' is not a move: write 'HIGH-LOW@NODE' (like '9-5@3'), 'draw' or 'pass'
    >>> Tile(10, 19)
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidMoveError: a tile's pips run from 0 to 18, got 10 and 19
    """


class IllegalMoveError(ValueError):
    """Raised when a well-formed move is not allowed in the position.

    The message says why, e.g. ``"9-5 does not match node 3, which offers a 4"``.
    The state the move was applied to is never changed.

    :attr:`rule` names the SPEC rule ID the refusal rests on, so a UI can link the reason to
    its rule.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> cf.apply(game, cf.Play(cf.Tile(9, 5), onto=0))
    Traceback (most recent call last):
    ...
    chickenfoot.IllegalMoveError: player 3 does not hold 9-5
    >>> try:
    ...     cf.apply(game, cf.Pass())
    ... except cf.IllegalMoveError as error:
    ...     print(error.rule)
    DRAW-4
    """

    rule: str | None
    """The ID of the rule that refuses the move (``"PLAY-1"``), or ``None`` where no one rule does
    (a chance outcome the OpenSpiel game does not offer). A value that is not a move at all is a
    :class:`TypeError`."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.rule = rule

    def __reduce__(self) -> tuple[type[IllegalMoveError], tuple[str, str | None]]:
        # Keep the rule through pickling (tournament workers send errors between processes).
        return type(self), (str(self), self.rule)


class InvalidPositionError(ValueError):
    """Raised when the parts given for a board, a round or a game do not make a well-formed position.

    Well-formed is what any position needs, reached from a deal or set up by hand: a board whose
    tiles were each placed by the placement rules, every tile of the set exactly once among the
    hands, the yard and the board, a seat to move, a drawn tile held by that seat. Whether a deal
    could have led there is another question, which :meth:`RoundState.status` answers.

    >>> import chickenfoot as cf
    >>> cf.Board([cf.Node(cf.Tile(9, 9), None, 9), cf.Node(cf.Tile(5, 3), 0, 3)], arms=4)
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidPositionError: board node 1: 5-3 does not match node 0, which offers a 9 (PLAY-1)
    """


class InvalidRecordError(ValueError):
    """Raised when saved data cannot be read: position text, JSON, a game record, or a view.

    The message names what is wrong (a missing field, a tile held twice, a tile that does not
    fit the node it is placed on, an unsupported version, a number past the readers' limits) and
    where. Whatever text they are given, nothing else escapes the readers: no ``KeyError``,
    ``TypeError`` or ``IndexError`` (passing them something that is not text is a ``TypeError``).

    >>> import chickenfoot as cf
    >>> cf.from_json("[]")
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidRecordError: $: a document is a JSON object with type and version, got a list
    """


class BotSpecError(ValueError):
    """Raised for a bot name that :func:`~chickenfoot.bots.make_bot` does not know, saying what is allowed,
    and for a bot that cannot play at all: a program that does not start or whose handshake is refused
    (:meth:`~chickenfoot.bots.ProcessBot.check`), a ``py:`` bot that cannot be loaded or built.

    >>> from chickenfoot.bots import make_bot
    >>> make_bot("smart")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chickenfoot.BotSpecError: unknown bot 'smart': use one of random, heaviest, greedy, search[:N|:Nms], ...
    """


class BotError(ValueError):
    """Raised when a bot playing in this process fails: it raised an exception, or chose a move that is not legal.

    The message names the bot, its seat, the tournament game (when there is one) and the
    position; the bot's own exception is chained as ``__cause__``. A program bot
    (:class:`~chickenfoot.bots.ProcessBot`) never raises it: its failures are recorded faults.

    >>> import chickenfoot as cf
    >>> def careless(view):
    ...     return cf.Pass()
    >>> game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=3)
    >>> try:
    ...     cf.bots.play_out(game, [careless, cf.bots.GreedyBot()])
    ... except cf.bots.BotError as error:
    ...     print(error.bot, error.seat, error.game, error.state.round_index)
    careless 0 None 0
    """

    bot: str
    """The bot's name (see :func:`~chickenfoot.bots.bot_name`)."""
    seat: int
    """The seat it played in."""
    state: GameState
    """The position it was asked to move in."""
    game: int | None
    """The index of the tournament game, from 0 (``None`` outside a tournament)."""

    def __init__(self, reason: str, bot: str, seat: int, state: GameState, game: int | None = None) -> None:
        super().__init__(reason)
        self.bot = bot
        self.seat = seat
        self.state = state
        self.game = game

    def __reduce__(self) -> tuple[type[BotError], tuple[str, str, int, GameState, int | None]]:
        # Keep the fields through pickling (tournament workers send errors between processes).
        return type(self), (str(self), self.bot, self.seat, self.state, self.game)


# Tracebacks and reprs name the errors where users import them from: ``chickenfoot.IllegalMoveError``.
for _error in (BotSpecError, IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidRecordError, RulesError):
    _error.__module__ = "chickenfoot"
BotError.__module__ = "chickenfoot.bots"
del _error
