"""Immutable state: the round in play, the finished rounds, and the game around them.

:class:`RoundState` and :class:`GameState` are views over a :class:`chickenfoot._core.Round`
(a game's round reaches its :class:`chickenfoot._core.Game` through its setup): each holds one
core round and reads its attributes from it, so the engine builds one small object per move and
the tuples of tiles only when asked for.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import attrs

from . import _core
from ._board import TILES, Board, board_of
from ._core import DRAW, NONE, PASS, Game, Log, Round, Settings, round_on
from ._moves import DRAW as DRAW_MOVE, PASS as PASS_MOVE, Draw, Move, Play
from ._rules import Rules
from ._tiles import Tile

__all__ = ["GameState", "History", "PlayerIndex", "RoundResult", "RoundState", "Turn"]

PlayerIndex: TypeAlias = int
"""A seat, 0 to players - 1; turns go up and wrap around (TURN-1)."""

Turn: TypeAlias = tuple[PlayerIndex, Move]
"""One entry of a round's history: who moved, and the move."""

# A persistent list, newest first: (turn, rest) or None, as RoundState's constructor takes it.
History: TypeAlias = tuple[Turn, "History"] | None


# -- moves as the core numbers them -----------------------------------------------------------


def _play_of(code: int) -> Move:
    return Play(TILES[code & 255], code >> 8)


MOVES = _core.PublicMoves(DRAW_MOVE, PASS_MOVE, _play_of)
"""The public move of each core move code."""


def move_code(move: Move) -> int:
    """Gets the core code of a public move."""
    if type(move) is Play:
        return _core.play(move.tile.index, move.onto)
    return DRAW if type(move) is Draw else PASS


# -- rules as the core reads them ---------------------------------------------------------------

_SETTINGS: dict[Rules, Settings] = {}


def settings_for(rules: Rules) -> Settings:
    """Gets the core's reading of ``rules`` (made once per distinct rules)."""
    settings = _SETTINGS.get(rules)
    if settings is None:
        values = tuple(rules.tile_value(tile) for tile in TILES)
        settings = _SETTINGS[rules] = Settings(
            rules,
            rules.max_pip,
            rules.drawn_tile == "must_play",
            rules.draw_until_playable,
            rules.unfillable_foot_ends_round,
            rules.double_out_penalty,
            values,
        )
    return settings


def _tiles(indexes: tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple([TILES[index] for index in indexes])


def _tile_or_none(index: int) -> Tile | None:
    return None if index == NONE else TILES[index]


def _seat_or_none(seat: int) -> int | None:
    return None if seat == NONE else seat


@attrs.frozen(init=False, repr=False)
class RoundState:
    """Holds one round: hands, yard, layout, and whose turn it is.

    Two states are equal when their positions are; the history of moves that led there is
    kept (see :attr:`history`) but not compared.

    >>> import chickenfoot as cf
    >>> state = cf.new_game(cf.Rules.trains(), players=4, seed=7).round
    >>> [len(hand) for hand in state.hands], len(state.yard), state.reserve, state.double
    ([11, 11, 11, 11], 10, 1, 9)
    """

    _round: Round
    # The core round this state shows.

    def __init__(
        self,
        rules: Rules,
        hands: tuple[tuple[Tile, ...], ...],
        yard: tuple[Tile, ...],
        board: Board,
        current_player: PlayerIndex,
        reserve: int,
        drawn: Tile | None = None,
        is_over: bool = False,
        went_out: PlayerIndex | None = None,
        log: History = None,
    ) -> None:
        """Builds a round from its parts (no checks: readers such as :func:`parse_position` check)."""
        turns: list[Turn] = []
        while log is not None:
            turn, log = log
            turns.append(turn)
        chain: Log = None
        for player, move in reversed(turns):
            chain = (player, move_code(move), NONE, chain)
        core = round_on(
            settings_for(rules),
            tuple(tuple(tile.index for tile in hand) for hand in hands),
            tuple(tile.index for tile in yard),
            board._layout,
            current_player,
            reserve,
            NONE if drawn is None else drawn.index,
            is_over,
            NONE if went_out is None else went_out,
            chain,
        )
        self.__attrs_init__(core)

    @property
    def rules(self) -> Rules:
        """Gets the rules in force."""
        rules: Rules = self._round.setup.settings.public
        return rules

    @property
    def hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Gets each player's tiles, by seat."""
        core = self._round
        views = core.public()
        hands: tuple[tuple[Tile, ...], ...] | None = views.hands
        if hands is None:
            hands = views.hands = tuple([_tiles(hand) for hand in core.hands])
        return hands

    @property
    def yard(self) -> tuple[Tile, ...]:
        """Gets the face-down draw pile; ``yard[0]`` is drawn next (DRAW-1)."""
        core = self._round
        views = core.public()
        yard: tuple[Tile, ...] | None = views.yard
        if yard is None:
            yard = views.yard = _tiles(core.yard)
        return yard

    @property
    def board(self) -> Board:
        """Gets the layout."""
        views = self._round.public()
        board: Board | None = views.board
        if board is None:
            board = views.board = board_of(self._round.layout())
        return board

    @property
    def current_player(self) -> PlayerIndex:
        """Gets the player to move; once the round is over, the player who went out, or else whose turn was next."""
        return self._round.current

    @property
    def reserve(self) -> int:
        """Gets how many yard tiles may never be drawn this round (YARD-1)."""
        return self._round.setup.reserve

    @property
    def drawn(self) -> Tile | None:
        """Gets the tile drawn this turn, which may or must now be played (DRAW-2, DRAW-3), else ``None``."""
        return _tile_or_none(self._round.drawn)

    @property
    def is_over(self) -> bool:
        """Tells whether the round has ended (END-1, END-2)."""
        return self._round.over

    @property
    def went_out(self) -> PlayerIndex | None:
        """Gets the player who played their last tile, if the round ended that way (END-1)."""
        return _seat_or_none(self._round.went_out)

    @property
    def players(self) -> int:
        """Gets the number of players."""
        return len(self._round.hands)

    @property
    def double(self) -> int:
        """Gets the value of the center double."""
        return _core.HIGH[self._round.setup.base.node(0).tile]

    @property
    def can_draw(self) -> bool:
        """Tells whether the yard holds more tiles than the reserve (DRAW-1, YARD-1)."""
        return self._round.can_draw()

    @property
    def history(self) -> tuple[Turn, ...]:
        """Gets every ``(player, move)`` of the round so far, oldest first."""
        history: tuple[Turn, ...] = self._round.history(MOVES)
        return history

    @property
    def log(self) -> History:
        """Gets the moves of the round so far as a persistent list, newest first; read :attr:`history` instead."""
        log: History = None
        for turn in self.history:
            log = (turn, log)
        return log

    def __repr__(self) -> str:
        return (
            f"RoundState(rules={self.rules!r}, hands={self.hands!r}, yard={self.yard!r}, board={self.board!r}, "
            f"current_player={self.current_player!r}, reserve={self.reserve!r}, drawn={self.drawn!r}, "
            f"is_over={self.is_over!r}, went_out={self.went_out!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        parts = (self.rules, self.hands, self.yard, self.board, self.current_player, self.reserve)
        return (RoundState, (*parts, self.drawn, self.is_over, self.went_out, self.log))

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


def _game_and_position(core: Round) -> tuple[Game | None, Round]:
    return core.setup.game, core


@attrs.frozen(init=False, repr=False)
class GameState:
    """Holds a whole game: the round in play, the rounds played, and the running totals (GAME-1).

    Build one with :func:`~chickenfoot.new_game`; :func:`~chickenfoot.apply` returns the next one.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=2)
    >>> game.round_index, game.totals, game.is_over, game.current_player == game.round.current_player
    (0, (0, 0, 0), False, True)
    """

    _round: Round = attrs.field(eq=_game_and_position)
    # The core round this state shows, which points to its game: two states are equal when
    # both the games and the positions are.

    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        round: RoundState,
        round_index: int,
        totals: tuple[int, ...],
        results: tuple[RoundResult, ...] = (),
        winners: tuple[PlayerIndex, ...] = (),
    ) -> None:
        """Builds a game from its parts (no checks: :func:`~chickenfoot.new_game` and the readers check)."""
        from ._deal import deal_for  # the deal reads this module's states

        game = Game(deal_for(rules, players), seed, round_index, totals, results, winners)
        core = round._round.with_game(game)
        core.public().state = round
        self.__attrs_init__(core)

    @property
    def _game(self) -> Game:
        game = self._round.setup.game
        assert game is not None  # the round of a GameState is always in a game
        return game

    @property
    def rules(self) -> Rules:
        """Gets the rules in force."""
        rules: Rules = self._game.deal.settings.public
        return rules

    @property
    def players(self) -> int:
        """Gets the number of players."""
        return self._game.deal.players

    @property
    def seed(self) -> int:
        """Gets the seed every deal of the game derives from (DEAL-2)."""
        return self._game.seed

    @property
    def round(self) -> RoundState:
        """Gets the round in play; once the game is over, the last round's final state."""
        views = self._round.public()
        view: RoundState | None = views.state
        if view is None:
            view = views.state = round_of(self._round)
        return view

    @property
    def round_index(self) -> int:
        """Gets the 0-based number of the round in play (ROUND-1)."""
        return self._game.round_index

    @property
    def totals(self) -> tuple[int, ...]:
        """Gets each player's score summed over the finished rounds."""
        return self._game.totals

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Gets the finished rounds, oldest first."""
        results: tuple[RoundResult, ...] = self._game.results
        return results

    @property
    def winners(self) -> tuple[PlayerIndex, ...]:
        """Gets the players who won, once the game is over (GAME-1, TIE-1, TIE-2); empty until then."""
        return self._game.winners

    @property
    def is_over(self) -> bool:
        """Tells whether every round has been played."""
        return self._game.is_over()

    @property
    def current_player(self) -> PlayerIndex | None:
        """Gets the player to move, or ``None`` once the game is over."""
        return None if self._game.is_over() else self._round.current

    @property
    def moves(self) -> tuple[Move, ...]:
        """Gets every move of the game so far, oldest first (enough to replay it from the seed)."""
        rounds = [result.final.history for result in self.results]
        if not self.is_over:
            rounds.append(self.round.history)
        return tuple(move for turns in rounds for _, move in turns)

    def __repr__(self) -> str:
        return (
            f"GameState(rules={self.rules!r}, players={self.players!r}, seed={self.seed!r}, round={self.round!r}, "
            f"round_index={self.round_index!r}, totals={self.totals!r}, results={self.results!r}, "
            f"winners={self.winners!r})"
        )

    def __str__(self) -> str:
        """Writes the state as text: whose turn, the layout as a tree, the hands and the yard."""
        from .render import _describe  # late: render imports this module

        return _describe(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        from .svg import render_svg  # late: svg imports this module

        return render_svg(self)

    def __reduce__(self) -> tuple[Any, ...]:
        parts = (self.rules, self.players, self.seed, self.round, self.round_index, self.totals)
        return (GameState, (*parts, self.results, self.winners))


_new = object.__new__
_init_round = RoundState.__attrs_init__
_init_game = GameState.__attrs_init__


def round_of(core: Round) -> RoundState:
    """Gets the public state showing the core round ``core``."""
    state: RoundState = _new(RoundState)
    _init_round(state, core)
    return state


def game_of(core: Round) -> GameState:
    """Gets the public state showing the core round ``core``, which is played in a game."""
    state: GameState = _new(GameState)
    _init_game(state, core)
    return state


def replace_round(state: RoundState, **changes: Any) -> RoundState:
    """Returns ``state`` with some of its constructor's arguments changed (like ``attrs.evolve``)."""
    parts: dict[str, Any] = {
        "rules": state.rules,
        "hands": state.hands,
        "yard": state.yard,
        "board": state.board,
        "current_player": state.current_player,
        "reserve": state.reserve,
        "drawn": state.drawn,
        "is_over": state.is_over,
        "went_out": state.went_out,
        "log": state.log,
    }
    parts.update(changes)
    return RoundState(**parts)


def replace_game(game: GameState, **changes: Any) -> GameState:
    """Returns ``game`` with some of its constructor's arguments changed (like ``attrs.evolve``)."""
    parts: dict[str, Any] = {
        "rules": game.rules,
        "players": game.players,
        "seed": game.seed,
        "round": game.round,
        "round_index": game.round_index,
        "totals": game.totals,
        "results": game.results,
        "winners": game.winners,
    }
    parts.update(changes)
    return GameState(**parts)
