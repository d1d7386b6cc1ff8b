"""The transition function: ``legal_moves`` and ``apply``, the public face of the rules of play.

Both accept a :class:`GameState` or a :class:`RoundState`; ``apply`` returns a new state of the
same kind and never changes its input. The rules themselves are read in
:mod:`chickenfoot._round`; this module checks what callers pass, explains refusals, and closes
rounds into games.
"""

from __future__ import annotations

from typing import NoReturn, TypeVar, overload

from .._core import NONE, Game, Round
from ._board import misfit
from ._errors import IllegalMoveError
from ._moves import Draw, Move, Pass, Play
from ._plans import deal_for
from ._rules import Rules, check_seed
from ._scoring import close_round, decide_winners
from ._state import MOVES, GameState, RoundState, _set_game, game_of, move_code, round_of, shows_round

_new = object.__new__

__all__ = ["apply", "legal_moves", "new_game"]

State = TypeVar("State", GameState, RoundState)


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
    deal = deal_for(rules, players)
    return _settled(
        deal.deal(seed, 0, Game(deal, seed=seed, round_index=0, totals=(0,) * players, results=(), winners=()))
    )


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


def _check_play(state: RoundState, move: Play) -> NoReturn:
    """Raises the reason a play that is not among the legal moves is illegal."""
    tile, onto = move.tile, move.onto  # Play's constructor checked their types
    player = state.current_player
    if state.drawn is not None and tile is not state.drawn:
        raise IllegalMoveError(
            f"player {player} drew {state.drawn} this turn: only that tile may be played now (DRAW-2/DRAW-3)",
            "DRAW-2" if state.rules.drawn_tile == "must_play" else "DRAW-3",
        )
    if tile not in state.hands[player]:
        raise IllegalMoveError(f"player {player} does not hold {tile}", "PLAY-1")
    refusal = misfit(state.board, tile, onto)
    if refusal is not None:
        raise refusal
    raise IllegalMoveError(f"{move} is not a legal move now")  # pragma: no cover - the checks above are complete


def _refuse(state: RoundState, move: Draw | Pass, legal: tuple[Move, ...]) -> IllegalMoveError:
    player = state.current_player
    plays = [str(m) for m in legal if type(m) is Play]
    if state.drawn is not None:
        if plays and type(move) is Pass:
            return IllegalMoveError(
                f"player {player} drew {state.drawn}, which must be played (DRAW-2): {plays[0]}", "DRAW-2"
            )
        return IllegalMoveError(f"player {player} already drew {state.drawn} this turn: play it or pass", "DRAW-1")
    if plays:
        verb = "draw" if type(move) is Draw else "pass"
        return IllegalMoveError(
            f"player {player} can play ({', '.join(plays[:3])}{', ...' if len(plays) > 3 else ''}) "
            f"and so may not {verb} (DRAW-4)",
            "DRAW-4",
        )
    if type(move) is Pass:
        return IllegalMoveError(
            f"player {player} cannot play but the yard has tiles to draw: draw first (DRAW-4)", "DRAW-4"
        )
    return IllegalMoveError(
        f"the yard is down to its reserve of {state.reserve} tile{'s' * (state.reserve != 1)}: "
        "nothing may be drawn, so pass (YARD-2)",
        "YARD-2",
    )


def _checked_code(core: Round, move: Move) -> int:
    """Gets the core code of ``move``, or raises why it is not legal now."""
    kind = type(move)
    if kind is not Play and kind is not Draw and kind is not Pass:
        raise TypeError(f"{move!r:.40} is not a move: use Play, Draw or Pass, or parse_move('9-5@3')")
    if core.over:
        raise IllegalMoveError("the round is over: no more moves", "END-1" if core.went_out != NONE else "END-2")
    code = move_code(move)
    if code not in core.legal():
        state = round_of(core)
        if isinstance(move, Play):
            _check_play(state, move)
        raise _refuse(state, move, core.public_legal(MOVES))
    return code


def _apply_game(core: Round, move: Move, after: Round | None) -> GameState:
    """Applies ``move`` to a game's round ``core``, given ``after``, the round after it if it was found by identity."""
    game = core.setup.game
    assert game is not None  # the round of a GameState
    if after is None:
        if game.is_over() and type(move) in (Play, Draw, Pass):
            raise IllegalMoveError("the game is over: no more moves", "ROUND-1")
        after = core.after(_checked_code(core, move))
    return _settled(after)


def _settled(core: Round) -> GameState:
    """Gets the game showing the core round ``core``, closing it first if it is over.

    A round that ended is scored (SCORE-1) and added up (GAME-1), and the next is dealt
    (ROUND-1); a round dealt blocked (END-2, with contrived options only) ends as it is dealt.
    """
    while core.over:
        game: Game | None = core.setup.game
        assert game is not None  # the round of a GameState
        final = round_of(core)
        result, totals = close_round(game.totals, final)
        results = (*game.results, result)
        deal = game.deal
        rules: Rules = deal.settings.public
        if len(results) == deal.settings.rounds:  # ROUND-1: that was the last round
            winners = decide_winners(rules, totals, results)
            over = Game(
                deal, seed=game.seed, round_index=game.round_index, totals=totals, results=results, winners=winners
            )
            last = core.with_game(over)
            shows_round(last, final)
            return game_of(last)
        index = game.round_index + 1
        core = deal.deal(
            game.seed, index, Game(deal, seed=game.seed, round_index=index, totals=totals, results=results, winners=())
        )
    return game_of(core)


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
    if type(state) is GameState:
        core = state._round
        after = core.after_public(move, MOVES)  # the move by identity among those legal_moves handed out
        if after is not None and not after.over:  # the usual case, kept short
            view: GameState = _new(GameState)
            _set_game(view, after)
            return view
        return _apply_game(core, move, after)
    if type(state) is RoundState:
        core = state._round
        after = core.after_public(move, MOVES)
        return round_of(core.after(_checked_code(core, move)) if after is None else after)
    raise TypeError(f"apply takes a GameState or RoundState, got {type(state).__name__}")
