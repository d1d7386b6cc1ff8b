"""Immutable state: the round in play, the finished rounds, and the game around them.

:class:`RoundState` and :class:`GameState` are attrs classes whose fields are their public
attributes, declared once in the class: ``attrs.evolve``, ``attrs.asdict`` and ``attrs.fields``
see what a user sees. Each instance holds one core :class:`~chickenfoot._core.Round` (a game's
round reaches its :class:`~chickenfoot._core.Game` through its setup) and reads its fields
from it when asked (:func:`~._fields.read_from_core`, with the readers below each class): the
engine builds one small object per move, and the tuples of tiles only when someone asks. The
constructors check what they are given (a well-formed position,
:class:`~chickenfoot.InvalidPositionError` otherwise); the engine, which only ever makes
well-formed states, builds its views straight from the core (:func:`round_of`, :func:`game_of`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

import attrs

from .._core import HIGH, MAX_PIP, NONE, Game, Round
from . import _display
from ._board import Board, board_of
from ._errors import InvalidPositionError
from ._fields import read_from_core
from ._moves import MOVES, Move
from ._outcome import Outcome, Termination
from ._parts import core_round, seat_of
from ._plans import deal_for
from ._rules import Rules, check_seed
from ._status import Problem, problems
from ._tiles import TILES, Tile

__all__ = ["GameState", "PlayerIndex", "RoundResult", "RoundState", "Turn", "game_of", "round_of"]

PlayerIndex: TypeAlias = int
"""A seat, 0 to players - 1; turns go up and wrap around (TURN-1)."""

Turn: TypeAlias = tuple[PlayerIndex, Move]
"""One entry of a history: who moved, and the move."""


def _tiles(indexes: tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple([TILES[index] for index in indexes])


def termination_of(core: Round) -> Termination | None:
    """Gets how the core round ``core`` ended (END-1, END-2), or ``None`` while it is in play."""
    if not core.over:
        return None
    if core.went_out != NONE:
        return Termination.WENT_OUT
    return Termination.BLOCKED if core.blocked() else Termination.UNFILLABLE_FOOT


# -- a round ------------------------------------------------------------------------------------


class _ShowsRound:
    """Holds the core round a public state shows (set by its constructor, or by the engine)."""

    __slots__ = ("_round",)

    _round: Round


@attrs.frozen(init=False, eq=False, slots=False)
class RoundState(_ShowsRound):
    """Holds one round: hands, yard, layout, and whose turn it is.

    Build one from its parts to set up any well-formed position (a puzzle, a test of a bot):
    every tile of the set exactly once among the hands, the yard and the board, a seat to move,
    a drawn tile held by that seat. Whether a deal could have led there is :meth:`status`'s
    question. Whether the round is over, and how, follows from the position (:attr:`outcome`).

    An attrs class whose fields are the attributes below: ``attrs.evolve(state,
    current_player=2)`` builds the state with that change, checked as the constructor checks.
    Two states are equal when their positions are: the :attr:`history` is kept but not compared.

    >>> import chickenfoot as cf
    >>> state = cf.new_game(cf.Rules.trains(), players=4, seed=7).round
    >>> [len(hand) for hand in state.hands], len(state.yard), state.reserve, state.double
    ([11, 11, 11, 11], 10, 1, 9)
    >>> [field.name for field in attrs.fields(cf.RoundState)]
    ['rules', 'hands', 'yard', 'board', 'current_player', 'drawn', 'reserve', 'history']
    """

    __slots__ = ("__weakref__",)  # its core round holds it weakly (shows_round): a strong link would be a cycle

    rules: Rules
    """The rules in force."""
    hands: tuple[tuple[Tile, ...], ...]
    """Each player's tiles, by seat (the order inside a hand is the engine's)."""
    yard: tuple[Tile, ...]
    """The face-down draw pile; ``yard[0]`` is drawn next (DRAW-1)."""
    board: Board
    """The layout."""
    current_player: PlayerIndex
    """The player to move; once the round is over, the player who went out, or else whose turn was next."""
    drawn: Tile | None
    """The tile drawn this turn, which may or must now be played (DRAW-2, DRAW-3), else ``None``."""
    reserve: int
    """How many yard tiles may never be drawn this round (YARD-1); by default the rules' for the players."""
    history: tuple[Turn, ...] = attrs.field(eq=False, repr=False)
    """Every ``(player, move)`` of the round so far, oldest first; empty when not known. Not compared."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Sequence[Tile]],
        yard: Sequence[Tile],
        board: Board,
        current_player: PlayerIndex,
        *,
        drawn: Tile | None = None,
        reserve: int | None = None,
        history: Iterable[Turn] = (),
    ) -> None:
        """Builds a round from its parts, checking that they make a well-formed position.

        Raises :class:`~chickenfoot.InvalidPositionError` naming what does not fit (a tile held
        twice or missing, a seat that does not exist, a drawn tile not held), and
        :class:`TypeError` for a part of the wrong type.
        """
        _set_round(self, core_round(rules, hands, yard, board, current_player, drawn, reserve, history))

    @property
    def is_over(self) -> bool:
        """Tells whether the round has ended (END-1, END-2)."""
        return self._round.over

    @property
    def went_out(self) -> PlayerIndex | None:
        """Gets the player who played their last tile, if the round ended that way (END-1)."""
        went_out = self._round.went_out
        return None if went_out == NONE else went_out

    @property
    def outcome(self) -> Outcome | None:
        """Gets how the round ended (went out, blocked, an unfillable foot) and who went out; ``None`` in play.

        >>> import chickenfoot as cf
        >>> state = cf.deal_round(cf.Rules.trains(), players=2, seed=1, round_index=0)
        >>> state.outcome is None
        True
        """
        termination = termination_of(self._round)
        if termination is None:
            return None
        went_out = self._round.went_out
        return Outcome(termination, () if went_out == NONE else (went_out,))

    @property
    def players(self) -> int:
        """Gets the number of players."""
        return len(self._round.hands)

    @property
    def double(self) -> int:
        """Gets the value of the center double."""
        return HIGH[self._round.setup.base.node(0).tile]

    @property
    def can_draw(self) -> bool:
        """Tells whether the yard holds more tiles than the reserve (DRAW-1, YARD-1)."""
        return self._round.can_draw()

    def status(self) -> tuple[Problem, ...]:
        """Lists what makes the position one no deal and legal play could reach; empty when nothing does.

        The checks a strict reader makes (``parse_position(text, strict=True)``): the rules' reserve,
        arms and player count, a yard and hands of sizes a deal and the draws since can produce, no
        draw while holding a playable tile, the player who went out to move, and a history that
        builds the board in turn order. See :class:`~chickenfoot.Problem`.

        >>> import chickenfoot as cf
        >>> state = cf.deal_round(cf.Rules.trains(), players=2, seed=1, round_index=0)
        >>> state.status(), attrs.evolve(state, reserve=0).status()
        ((), (<Problem.RESERVE: 'reserve'>,))
        """
        return tuple(problem for problem, _ in problems(self))

    def is_valid(self) -> bool:
        """Tells whether a deal and legal play could reach the position: ``not state.status()``."""
        return not self.status()

    def __str__(self) -> str:
        """Writes the state as text: whose turn, the layout as a tree, the hands and the yard."""
        return _display.text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        return _display.svg(self)

    # The core compares positions (everything but the history) as ints, which is comparing the fields.
    def __eq__(self, other: object) -> bool:
        if type(other) is not RoundState:
            return NotImplemented
        return self._round == other._round

    def __hash__(self) -> int:
        return hash(self._round)


def _hands(state: RoundState) -> tuple[tuple[Tile, ...], ...]:
    views = state._round.public()
    hands: tuple[tuple[Tile, ...], ...] | None = views.hands
    if hands is None:
        hands = views.hands = tuple([_tiles(hand) for hand in state._round.hands])
    return hands


def _yard(state: RoundState) -> tuple[Tile, ...]:
    views = state._round.public()
    yard: tuple[Tile, ...] | None = views.yard
    if yard is None:
        yard = views.yard = _tiles(state._round.yard)
    return yard


def _board(state: RoundState) -> Board:
    views = state._round.public()
    board: Board | None = views.board
    if board is None:
        board = views.board = board_of(state._round.layout())
    return board


def _drawn(state: RoundState) -> Tile | None:
    drawn = state._round.drawn
    return None if drawn == NONE else TILES[drawn]


def _history(state: RoundState) -> tuple[Turn, ...]:
    history: tuple[Turn, ...] = state._round.history(MOVES)
    return history


read_from_core(
    RoundState,
    rules=lambda state: state._round.setup.settings.public,
    hands=_hands,
    yard=_yard,
    board=_board,
    current_player=lambda state: state._round.current,
    drawn=_drawn,
    reserve=lambda state: state._round.setup.reserve,
    history=_history,
)


# -- a finished round -------------------------------------------------------------------------


def _final_outcome(result: RoundResult) -> Outcome:
    if type(result.final) is not RoundState:
        raise TypeError(f"a RoundResult's final is a RoundState, got {type(result.final).__name__}")
    outcome = result.final.outcome
    if outcome is None:
        raise InvalidPositionError("a round's result needs its final state, a round that is over")
    return outcome


def _check_result(result: RoundResult, attribute: attrs.Attribute[Any], outcome: Any) -> None:
    if type(result.double) is not int or not 0 <= result.double <= MAX_PIP:
        raise TypeError(f"a RoundResult's double is a pip value (an int), got {result.double!r:.40}")
    if type(result.scores) is not tuple or not all(type(score) is int for score in result.scores):
        raise TypeError(f"a RoundResult's scores are a tuple of ints, got {result.scores!r:.40}")
    if type(outcome) is not Outcome:
        raise TypeError(f"a RoundResult's outcome is an Outcome, got {outcome!r:.40}")
    if len(result.scores) != result.final.players:
        raise InvalidPositionError(f"{len(result.scores)} scores for the {result.final.players} players of the round")
    if result.went_out is not None:
        seat_of(result.went_out, "the player who went out", result.final.players)
    if outcome.termination is Termination.LAST_ROUND or outcome.winner != result.went_out:
        raise InvalidPositionError(f"a round that ended {outcome} cannot have went_out={result.went_out}")
    if result.double != result.final.double:
        raise InvalidPositionError(
            f"the round's double is {result.final.double}, as its final state says, not {result.double}"
        )
    if result.final.is_over:  # a round still in play is refused by its outcome
        if outcome != result.final.outcome:
            raise InvalidPositionError(
                f"the round ended {result.final.outcome}, as its final state says, not {outcome}"
            )
        scored = result.final._round.scores()
        if result.scores != scored:
            raise InvalidPositionError(f"scores {result.scores} are not what the final hands score, {scored} (SCORE-1)")


@attrs.frozen
class RoundResult:
    """Records how a round ended: its double, its scores and who went out (SCORE-1).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=3)
    >>> while not game.results:
    ...     game = cf.apply(game, cf.legal_moves(game)[0])
    >>> result = game.results[0]
    >>> result.double, result.scores == cf.score_round(result.final), game.totals == result.scores
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
    outcome: Outcome = attrs.field(
        kw_only=True, default=attrs.Factory(_final_outcome, takes_self=True), validator=_check_result
    )
    """How the round ended; by default, as its final state says (:attr:`RoundState.outcome`)."""


def stand_in_result(double: int, scores: tuple[int, ...], final: RoundState, outcome: Outcome) -> RoundResult:
    """Builds a :class:`RoundResult` whose final state only stands in for one a view never showed, unchecked.

    A determinized game knows a finished round's double, scores and outcome but not its hands:
    its ``final`` is a placeholder that does not score those scores, which the constructor refuses.
    """
    result = object.__new__(RoundResult)
    for name, value in (
        ("double", double),
        ("scores", scores),
        ("went_out", outcome.winner),
        ("final", final),
        ("outcome", outcome),
    ):
        object.__setattr__(result, name, value)
    return result


# -- a game -----------------------------------------------------------------------------------


@attrs.frozen(init=False, eq=False, slots=False)
class GameState(_ShowsRound):
    """Holds a whole game: the round in play, the rounds played, and the running totals (GAME-1).

    Start one with :func:`~chickenfoot.new_game`; :func:`~chickenfoot.apply` returns the next one.
    The constructor builds one from its parts (checked as :class:`RoundState`'s is, for what a
    game's parts must share); an attrs class, so ``attrs.evolve(game, totals=(5, 0))`` works.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=2)
    >>> game.round_index, game.totals, game.is_over, game.current_player == game.round.current_player
    (0, (0, 0, 0), False, True)
    """

    __slots__ = ()  # its core round is the round in play, whose setup points to its game

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
    results: tuple[RoundResult, ...]
    """The finished rounds, oldest first."""

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        round: RoundState,
        round_index: int,
        totals: Sequence[int],
        results: Sequence[RoundResult] = (),
    ) -> None:
        """Builds a game from its parts, checking they belong together: the round's rules and
        players are the game's, a total and a score per player, no more results than rounds.

        Raises :class:`~chickenfoot.InvalidPositionError` for parts that do not fit,
        :class:`~chickenfoot.RulesError` for rules that cannot deal the players (DEAL-1) or a seed
        out of range, and :class:`TypeError` for a part of the wrong type.
        """
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a chickenfoot.Rules, such as Rules.trains(); got {rules!r:.40}")
        if type(round) is not RoundState:
            raise TypeError(f"round is a RoundState, got {type(round).__name__}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an int, got {seed!r:.40}")
        check_seed(seed)
        deal = deal_for(rules, players)  # DEAL-1, and players' type
        if round.rules != rules or round.players != players:
            raise InvalidPositionError(
                f"the round is one of {round.players} players under {round.rules!r:.60}, not of this game's {players}"
            )
        if isinstance(round_index, bool) or not isinstance(round_index, int):
            raise TypeError(f"round_index is an int, got {round_index!r:.40}")
        if not 0 <= round_index < rules.rounds:
            raise InvalidPositionError(
                f"round_index must be a round of the game, 0 to {rules.rounds - 1} (ROUND-1), got {round_index}"
            )
        if isinstance(totals, (str, bytes)) or not isinstance(totals, Iterable):
            raise TypeError(f"totals is a sequence of ints, one per player; got {totals!r:.40}")
        sums = tuple(totals)
        if not all(type(total) is int for total in sums):
            raise TypeError(f"totals are ints, got {sums!r:.60}")
        if len(sums) != players:
            raise InvalidPositionError(f"{len(sums)} totals for {players} players")
        if isinstance(results, (str, bytes)) or not isinstance(results, Iterable):
            raise TypeError(f"results is a sequence of RoundResult, got {results!r:.40}")
        finished = tuple(results)
        if not all(type(result) is RoundResult for result in finished):
            raise TypeError("results are RoundResult objects")
        if len(finished) > rules.rounds:
            raise InvalidPositionError(f"{len(finished)} results, but the game has {rules.rounds} rounds (ROUND-1)")
        for number, result in enumerate(finished):
            if result.final.rules != rules or result.final.players != players:
                raise InvalidPositionError(f"result {number} is of another game: other rules or players")
        finals = tuple([result.final._round for result in finished])
        scores = tuple([result.scores for result in finished])
        game = Game(deal, seed=seed, round_index=round_index, totals=sums, finals=finals, round_scores=scores)
        game.results_view = finished
        core = round._round.with_game(game)
        shows_round(core, round)
        _set_round(self, core)

    @property
    def winners(self) -> tuple[PlayerIndex, ...]:
        """Gets the players who won, once the game is over (GAME-1, TIE-1, TIE-2); empty until then."""
        return _game(self).winners

    @property
    def is_over(self) -> bool:
        """Tells whether every round has been played."""
        return _game(self).is_over()

    @property
    def outcome(self) -> Outcome | None:
        """Gets how the game ended, :attr:`~chickenfoot.Termination.LAST_ROUND`, and its winners; ``None`` until over.

        >>> import chickenfoot as cf
        >>> cf.new_game(cf.Rules.trains(), players=2, seed=1).outcome is None
        True
        """
        game = _game(self)
        return Outcome(Termination.LAST_ROUND, game.winners) if game.is_over() else None

    @property
    def current_player(self) -> PlayerIndex | None:
        """Gets the player to move, or ``None`` once the game is over."""
        return None if _game(self).is_over() else self._round.current

    @property
    def history(self) -> tuple[Turn, ...]:
        """Gets every ``(player, move)`` of the game so far, oldest first: its moves replay it from the seed."""
        rounds = [result.final.history for result in self.results]
        if not self.is_over:
            rounds.append(self.round.history)
        return tuple([turn for turns in rounds for turn in turns])

    # Equal when both the games (as the core compares them) and the positions are: the fields.
    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return _game(self) == _game(other) and self._round == other._round

    def __hash__(self) -> int:
        return hash((_game(self), self._round))

    def __str__(self) -> str:
        """Writes the state as text: whose turn, the layout as a tree, the hands and the yard."""
        return _display.text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        return _display.svg(self)


def _game(state: GameState) -> Game:
    game = state._round.setup.game
    assert game is not None  # the round of a GameState is always in a game
    return game


def _round(state: GameState) -> RoundState:
    core = state._round
    shown = core.public().state
    view: RoundState | None = None if shown is None else shown()
    if view is None:
        view = round_of(core)
        shows_round(core, view)
    return view


def _results(state: GameState) -> tuple[RoundResult, ...]:
    game = _game(state)
    results: tuple[RoundResult, ...] | None = game.results_view
    if results is None:
        results = game.results_view = tuple([_result_of(final) for final in game.finals])
    return results


def _result_of(final: Round) -> RoundResult:
    """Gets the public result of the core round ``final``, which is over."""
    return RoundResult(HIGH[final.setup.base.node(0).tile], final.scores(), _went_out(final), round_of(final))


def _went_out(core: Round) -> PlayerIndex | None:
    return None if core.went_out == NONE else core.went_out


read_from_core(
    GameState,
    rules=lambda state: _game(state).deal.settings.public,
    players=lambda state: _game(state).deal.players,
    seed=lambda state: _game(state).seed,
    round=_round,
    round_index=lambda state: _game(state).round_index,
    totals=lambda state: _game(state).totals,
    results=_results,
)


# -- the engine's views: a core round shown as it is, without the constructors' checks -------

_new = object.__new__
_set_round: Callable[[object, Round], None] = vars(_ShowsRound)["_round"].__set__  # the slot's descriptor


def shows_round(core: Round, state: RoundState) -> None:
    """Makes ``state`` the one a game on ``core`` shows as its round (``game.round``), for as long as it is in use.

    The round holds it weakly: a round that held its own public state would be a reference
    cycle, so every state a server or a UI had shown would wait for the cycle collector (which
    then runs over every live game) instead of being freed when the next move replaces it.
    """
    core.public().state = weakref.ref(state)


def round_of(core: Round) -> RoundState:
    """Gets the public state showing the core round ``core``."""
    state: RoundState = _new(RoundState)
    _set_round(state, core)
    return state


def game_of(core: Round) -> GameState:
    """Gets the public state showing the core round ``core``, which is played in a game."""
    state: GameState = _new(GameState)
    _set_round(state, core)
    return state
