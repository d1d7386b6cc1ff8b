"""The transition function: ``new_game``, ``legal_moves`` and ``apply``, the public face of the rules of play.

``legal_moves`` and ``apply`` accept a :class:`GameState` or a :class:`RoundState`; ``apply``
returns a new state of the same kind and never changes its input. ``apply`` is one path, each
step in one module: the move is checked (found among the legal moves, or refused with the
reason, :mod:`._checks`), the core round makes it in one call
(:meth:`~chickenfoot._core.Round.after`), which for a game also closes a round the move ends
(:meth:`~chickenfoot._core.Game.close`: scored, added up, the next dealt or the winners decided),
and the new state shows the core round.
"""

from __future__ import annotations

from typing import overload

from ._checks import checked_code
from ._moves import MOVES, Move
from ._plans import deal_for
from ._rules import Rules, check_seed
from ._state import GameState, RoundState, _set_round

_new = object.__new__

__all__ = ["apply", "legal_moves", "new_game"]


def new_game(rules: Rules, players: int, seed: int = 0) -> GameState:
    """Starts a game: checks the configuration (DEAL-1) and deals the first round.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> game.round_index, game.totals, str(game.round.board.center)
    (0, (0, 0, 0, 0), '9-9')
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a chickenfoot.Rules, such as Rules.trains(); got {rules!r:.40}")
    check_seed(seed)  # an int (TypeError), of at most 256 bits (RulesError)
    game: GameState = _new(GameState)
    _set_round(game, deal_for(rules, players).first_round(seed))
    return game


# -- move generation ------------------------------------------------------------------------
#
# Every core round caches its legal moves, so a caller's legal_moves() and the following
# apply() generate them once between them, and apply() validates a move by looking it up.


def legal_moves(state: GameState | RoundState) -> tuple[Move, ...]:
    """Lists the moves the player to move may make, in a fixed order; empty once the game is over.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> all(move.onto == 0 for move in cf.legal_moves(game))   # OPEN-2: arms go on the center
    True
    """
    # A finished game's round is over, so it has no legal moves either.
    if type(state) is GameState or type(state) is RoundState:
        return state._round.public_legal(MOVES)
    raise TypeError(f"legal_moves takes a GameState or RoundState, got {type(state).__name__}")


# -- applying moves -------------------------------------------------------------------------


@overload
def apply(state: GameState, move: Move) -> GameState: ...
@overload
def apply(state: RoundState, move: Move) -> RoundState: ...
def apply(state: GameState | RoundState, move: Move) -> GameState | RoundState:
    """Returns the state after ``move``; ``state`` itself is never changed.

    Raises :class:`IllegalMoveError`, with the reason, for a move that is not allowed.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> after = cf.apply(game, cf.legal_moves(game)[0])
    >>> len(after.round.board.nodes), len(game.round.board.nodes)
    (2, 1)
    """
    kind = type(state)
    if kind is not GameState and kind is not RoundState:
        raise TypeError(f"apply takes a GameState or RoundState, got {kind.__name__}")
    core = state._round
    in_game = kind is GameState  # a game's round that ends is closed by the core: scored, the next dealt
    after = core.after_public(move, MOVES, close=in_game)  # a move legal_moves handed out, found by identity
    if after is None:  # any other: checked, or refused with the reason
        after = core.after(checked_code(core, move, in_game=in_game), close=in_game)
    shown: GameState | RoundState = _new(kind)
    _set_round(shown, after)
    return shown
