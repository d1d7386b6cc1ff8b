"""What one seated player, or a spectator, may know: pure projections of a game, with nothing hidden leaking.

A :class:`PlayerView` holds the viewer's own hand, the whole board, every hand's size, the
yard's size (not its order), the scores, and the public history of the round in play (who
played what where, who drew, who passed; a draw never shows the tile). Past rounds appear
only as their doubles, scores and who went out, never as their final states, which hold the
yard. Two games that differ only in what the viewer cannot see give equal views with equal
``repr``.

A :class:`SpectatorView` is what anyone watching may know: the same public fields, and no hand
at all (nor a drawn tile, nor anyone's legal moves, which would tell what the player to move
holds). Two games that differ only in hidden tiles give equal spectator views.
"""

from __future__ import annotations

import attrs

from . import _display
from ._board import Board
from ._engine import legal_moves as _legal_moves
from ._errors import InvalidPositionError
from ._moves import Move
from ._outcome import Outcome
from ._rules import Rules
from ._state import GameState, PlayerIndex, Turn
from ._tiles import Tile, full_set

__all__ = ["PlayerView", "SpectatorView", "observe", "spectate"]


@attrs.frozen
class PlayerView:
    """Holds everything player :attr:`player` may know about a game, and nothing more.

    Build one with :func:`observe`; sample full games consistent with it with
    :func:`~chickenfoot.determinize`.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> view = cf.observe(game, 3)
    >>> view.hand_sizes, view.yard_size, view.current_player == 3, len(view.legal_moves) > 0
    ((11, 11, 11, 11), 10, True, True)
    """

    player: PlayerIndex
    """The seat this view belongs to."""
    rules: Rules
    """The rules in force."""
    players: int
    """The number of players."""
    round_index: int
    """The 0-based number of the round in play (or the last round, once the game is over)."""
    hand: tuple[Tile, ...]
    """The viewer's own tiles, in the engine's order."""
    board: Board
    """The layout, open to all."""
    hand_sizes: tuple[int, ...]
    """How many tiles each player holds, by seat."""
    yard_size: int
    """How many tiles are left in the yard (their order is hidden)."""
    reserve: int
    """How many yard tiles may never be drawn this round (YARD-1)."""
    drawn: Tile | None
    """The tile the viewer drew this turn, if it is their turn and they drew; else ``None``."""
    current_player: PlayerIndex | None
    """The player to move, or ``None`` once the game is over."""
    totals: tuple[int, ...]
    """Each player's score summed over the finished rounds."""
    round_doubles: tuple[int, ...]
    """The center double's value of each finished round, oldest first."""
    round_scores: tuple[tuple[int, ...], ...]
    """Each finished round's scores by seat, oldest first."""
    round_went_out: tuple[PlayerIndex | None, ...]
    """Who went out in each finished round (``None`` for a blocked round), oldest first."""
    round_outcomes: tuple[Outcome, ...]
    """How each finished round ended (went out, blocked, an unfillable foot), oldest first."""
    winners: tuple[PlayerIndex, ...]
    """The winners once the game is over; empty until then."""
    outcome: Outcome | None
    """How the game ended, and its winners, once it is over; else ``None``."""
    history: tuple[Turn, ...]
    """Every ``(player, move)`` of the round in play, oldest first; a :class:`Draw` shows no tile."""
    legal_moves: tuple[Move, ...]
    """The viewer's legal moves when it is their turn, in the engine's order; else empty."""
    is_over: bool
    """Whether the game is over."""

    @property
    def is_my_turn(self) -> bool:
        """Tells whether the viewer is the player to move."""
        return self.current_player == self.player

    @property
    def unseen(self) -> tuple[Tile, ...]:
        """Gets the tiles the viewer cannot see (other hands and the yard), in set order.

        >>> import chickenfoot as cf
        >>> view = cf.observe(cf.new_game(cf.Rules.trains(), players=4, seed=7), 0)
        >>> len(view.unseen) == sum(view.hand_sizes) - len(view.hand) + view.yard_size
        True
        """
        seen = {node.tile for node in self.board.nodes}
        seen.update(self.hand)
        return tuple(tile for tile in full_set(self.rules.max_pip) if tile not in seen)

    def __str__(self) -> str:
        """Writes the view as text: whose turn, the layout as a tree, its own hand and the counts."""
        return _display.text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout and the viewer's hand for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        return _display.svg(self)


def observe(state: GameState, player: PlayerIndex) -> PlayerView:
    """Projects ``state`` onto what ``player`` may know (see :class:`PlayerView`).

    Raises :class:`~chickenfoot.InvalidPositionError` if ``player`` is not a seat of the game.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=1)
    >>> view = cf.observe(game, 0)
    >>> view.hand == game.round.hands[0], view.history
    (True, ())
    """
    if type(state) is not GameState:
        raise TypeError(f"observe takes a GameState, got {type(state).__name__}")
    if type(player) is not int:
        raise TypeError(f"player is a seat (an int), got {player!r:.40}")
    if not 0 <= player < state.players:
        raise InvalidPositionError(f"player must be a seat from 0 to {state.players - 1}, got {player}")
    round_ = state.round
    current = state.current_player
    mine = current == player
    return PlayerView(
        player=player,
        rules=state.rules,
        players=state.players,
        round_index=state.round_index,
        hand=round_.hands[player],
        board=round_.board,
        hand_sizes=tuple(len(hand) for hand in round_.hands),
        yard_size=len(round_.yard),
        reserve=round_.reserve,
        drawn=round_.drawn if mine else None,
        current_player=current,
        totals=state.totals,
        round_doubles=tuple(result.double for result in state.results),
        round_scores=tuple(result.scores for result in state.results),
        round_went_out=tuple(result.went_out for result in state.results),
        round_outcomes=tuple(result.outcome for result in state.results),
        winners=state.winners,
        outcome=state.outcome,
        history=round_.history,
        legal_moves=_legal_moves(state) if mine else (),
        is_over=state.is_over,
    )


@attrs.frozen
class SpectatorView:
    """Holds everything anyone watching a game may know: no hand, no drawn tile, no legal moves.

    Its fields are :class:`PlayerView`'s public ones, with the same meanings and values; a
    seat's view adds only ``player``, ``hand``, ``drawn`` and ``legal_moves``. Build one with
    :func:`spectate`.

    >>> import chickenfoot as cf
    >>> view = cf.spectate(cf.new_game(cf.Rules.trains(), players=4, seed=7))
    >>> view.hand_sizes, view.yard_size, view.current_player, hasattr(view, "hand")
    ((11, 11, 11, 11), 10, 3, False)
    """

    rules: Rules
    """The rules in force."""
    players: int
    """The number of players."""
    round_index: int
    """The 0-based number of the round in play (or the last round, once the game is over)."""
    board: Board
    """The layout, open to all."""
    hand_sizes: tuple[int, ...]
    """How many tiles each player holds, by seat."""
    yard_size: int
    """How many tiles are left in the yard (their order is hidden)."""
    reserve: int
    """How many yard tiles may never be drawn this round (YARD-1)."""
    current_player: PlayerIndex | None
    """The player to move, or ``None`` once the game is over."""
    totals: tuple[int, ...]
    """Each player's score summed over the finished rounds."""
    round_doubles: tuple[int, ...]
    """The center double's value of each finished round, oldest first."""
    round_scores: tuple[tuple[int, ...], ...]
    """Each finished round's scores by seat, oldest first."""
    round_went_out: tuple[PlayerIndex | None, ...]
    """Who went out in each finished round (``None`` for a blocked round), oldest first."""
    round_outcomes: tuple[Outcome, ...]
    """How each finished round ended (went out, blocked, an unfillable foot), oldest first."""
    winners: tuple[PlayerIndex, ...]
    """The winners once the game is over; empty until then."""
    outcome: Outcome | None
    """How the game ended, and its winners, once it is over; else ``None``."""
    history: tuple[Turn, ...]
    """Every ``(player, move)`` of the round in play, oldest first; a :class:`Draw` shows no tile."""
    is_over: bool
    """Whether the game is over."""

    @property
    def unseen(self) -> tuple[Tile, ...]:
        """Gets the tiles nobody watching can see (every hand and the yard), in set order.

        >>> import chickenfoot as cf
        >>> view = cf.spectate(cf.new_game(cf.Rules.trains(), players=4, seed=7))
        >>> len(view.unseen) == sum(view.hand_sizes) + view.yard_size
        True
        """
        seen = {node.tile for node in self.board.nodes}
        return tuple(tile for tile in full_set(self.rules.max_pip) if tile not in seen)

    def __str__(self) -> str:
        """Writes the view as text: whose turn, the layout as a tree and the counts, no hand."""
        return _display.text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout and each player's tile count for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        return _display.svg(self)


def spectate(state: GameState) -> SpectatorView:
    """Projects ``state`` onto what anyone watching may know (see :class:`SpectatorView`).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=1)
    >>> view = cf.spectate(game)
    >>> view.hand_sizes == cf.observe(game, 0).hand_sizes, view.history
    (True, ())
    """
    if type(state) is not GameState:
        raise TypeError(f"spectate takes a GameState, got {type(state).__name__}")
    round_ = state.round
    return SpectatorView(
        rules=state.rules,
        players=state.players,
        round_index=state.round_index,
        board=round_.board,
        hand_sizes=tuple(len(hand) for hand in round_.hands),
        yard_size=len(round_.yard),
        reserve=round_.reserve,
        current_player=state.current_player,
        totals=state.totals,
        round_doubles=tuple(result.double for result in state.results),
        round_scores=tuple(result.scores for result in state.results),
        round_went_out=tuple(result.went_out for result in state.results),
        round_outcomes=tuple(result.outcome for result in state.results),
        winners=state.winners,
        outcome=state.outcome,
        history=round_.history,
        is_over=state.is_over,
    )
