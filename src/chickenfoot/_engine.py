"""The transition function: ``legal_moves`` and ``apply``, the only place the rules of play are read.

Both accept a :class:`GameState` or a :class:`RoundState`; ``apply`` returns a new state of the
same kind and never changes its input.
"""

from __future__ import annotations

from typing import TypeVar, overload

from ._board import Board
from ._deal import deal_round
from ._errors import IllegalMoveError
from ._moves import DRAW, PASS, Draw, Move, Pass, Play
from ._rules import Rules
from ._scoring import round_scores, winners
from ._state import GameState, RoundResult, RoundState
from ._tiles import Tile

__all__ = ["apply", "legal_moves", "new_game"]

State = TypeVar("State", GameState, RoundState)

# Plays are interned: move generation hands out shared objects instead of building new ones.
_PLAYS: dict[int, Play] = {}


def _play(tile: Tile, onto: int) -> Play:
    key = onto << 8 | tile.index
    play = _PLAYS.get(key)
    if play is None:
        play = _PLAYS[key] = Play(tile, onto)
    return play


def new_game(rules: Rules, players: int, seed: int = 0) -> GameState:
    """Starts a game: checks the configuration (DEAL-1) and deals the first round.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> game.round_index, game.totals, str(game.round.board.center)
    (0, (0, 0, 0, 0), '9-9')
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a chickenfoot.Rules, such as Rules.trains(); got {rules!r}")
    if type(seed) is not int:
        raise TypeError(f"seed must be an int, got {seed!r}")
    first = deal_round(rules, players, seed, 0)
    return GameState(rules=rules, players=players, seed=seed, round=first, round_index=0, totals=(0,) * players)


# -- move generation ------------------------------------------------------------------------


def _plays_of(tile: Tile, board: Board) -> list[Play]:
    """Lists the places ``tile`` fits now (PLAY-1, OPEN-2, FOOT-2)."""
    if board.pending is not None:
        if tile.mask >> board.nodes[board.pending].exposed & 1:
            return [_play(tile, board.pending)]
        return []
    ends = board.ends_by_value
    plays = [_play(tile, onto) for onto in ends[tile.high]]
    if tile.low != tile.high:
        plays += [_play(tile, onto) for onto in ends[tile.low]]
    return plays


def _all_plays(hand: tuple[Tile, ...], board: Board) -> list[Play]:
    mask = board.playable_mask
    plays: list[Play] = []
    for tile in hand:
        if tile.mask & mask:
            plays += _plays_of(tile, board)
    return plays


def _round_moves(state: RoundState) -> tuple[Move, ...]:
    if state.is_over:
        return ()
    rules = state.rules
    drawn = state.drawn
    if drawn is not None:
        plays = _plays_of(drawn, state.board)
        if plays:
            # DRAW-2: must play it; DRAW-3: may play it or pass.
            return tuple(plays) if rules.drawn_tile == "must_play" else (*plays, PASS)
        if rules.draw_until_playable and state.can_draw:
            return (DRAW,)  # variant of DRAW-1: keep drawing
        return (PASS,)  # DRAW-2: the drawn tile cannot be played
    plays = _all_plays(state.hands[state.current_player], state.board)
    if plays:
        return tuple(plays)  # DRAW-4: no draw while a play exists
    return (DRAW,) if state.can_draw else (PASS,)  # DRAW-1, YARD-2


def legal_moves(state: GameState | RoundState) -> tuple[Move, ...]:
    """Lists the moves the player to move may make, in a fixed order; empty once the game is over.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> all(move.onto == 0 for move in cf.legal_moves(game))   # OPEN-2: arms go on the center
    True
    """
    if type(state) is GameState:
        return () if state.is_over else _round_moves(state.round)
    if type(state) is RoundState:
        return _round_moves(state)
    raise TypeError(f"legal_moves takes a GameState or RoundState, got {type(state).__name__}")


# -- applying moves -------------------------------------------------------------------------


def _pending_reason(state: RoundState) -> str:
    board = state.board
    assert board.pending is not None
    node = board.nodes[board.pending]
    if board.pending == 0:
        what = f"the center {node.tile} still needs {board.missing} arm{'s' * (board.missing > 1)}"
    else:
        what = f"a chicken foot on {node.tile} is pending ({board.missing} toe{'s' * (board.missing > 1)} to go)"
    return f"{what}: play a tile carrying {node.exposed} onto node {board.pending}"


def _check_play(state: RoundState, move: Play) -> None:
    tile, onto = move.tile, move.onto
    if type(tile) is not Tile or type(onto) is not int:
        raise IllegalMoveError(f"{move!r} is malformed: a Play needs a Tile and an int node index")
    player = state.current_player
    if state.drawn is not None and tile is not state.drawn:
        raise IllegalMoveError(
            f"player {player} drew {state.drawn} this turn: only that tile may be played now (DRAW-2/DRAW-3)"
        )
    if tile not in state.hands[player]:
        raise IllegalMoveError(f"player {player} does not hold {tile}")
    board = state.board
    if not 0 <= onto < len(board.nodes):
        raise IllegalMoveError(f"there is no node {onto}: the board has nodes 0 to {len(board.nodes) - 1}")
    if board.pending is not None and onto != board.pending:
        raise IllegalMoveError(_pending_reason(state))
    offered = board.nodes[onto].exposed
    if not tile.mask >> offered & 1:
        raise IllegalMoveError(f"{tile} does not match node {onto}, which offers a {offered}")
    if not board.accepts(offered, onto):
        raise IllegalMoveError(f"node {onto} ({board.nodes[onto].tile}) takes no more tiles: play onto an open end")


def _blocked(state: RoundState) -> bool:
    """END-2: nobody can play and nobody can draw. Scans hands only once the yard is down to the reserve."""
    if state.can_draw:
        return False
    mask = state.board.playable_mask
    return not any(tile.mask & mask for hand in state.hands for tile in hand)


def _foot_unfillable(state: RoundState) -> bool:
    """Variant of END-2: the new chicken foot needs more toes than there are tiles left to fill it."""
    board = state.board
    bit = 1 << board.nodes[-1].exposed
    drawable = state.yard[: len(state.yard) - state.reserve]
    available = sum(1 for hand in state.hands for tile in hand if tile.mask & bit)
    available += sum(1 for tile in drawable if tile.mask & bit)
    return available < board.missing


def _apply_play(state: RoundState, move: Play) -> RoundState:
    _check_play(state, move)
    player = state.current_player
    hands = state.hands
    hand = hands[player]
    at = hand.index(move.tile)
    hand = hand[:at] + hand[at + 1 :]
    board = state.board.place(move.tile, move.onto)
    went_out = player if not hand else None  # END-1: out on the last tile, even with a foot pending
    after = RoundState(
        rules=state.rules,
        hands=(*hands[:player], hand, *hands[player + 1 :]),
        yard=state.yard,
        board=board,
        current_player=player if went_out is not None else (player + 1) % len(hands),  # TURN-1
        reserve=state.reserve,
        drawn=None,
        is_over=went_out is not None,
        went_out=went_out,
        log=((player, move), state.log),
    )
    if after.is_over:
        return after
    if (
        state.rules.unfillable_foot_ends_round
        and move.tile.high == move.tile.low
        and board.pending == len(board.nodes) - 1
        and _foot_unfillable(after)
    ) or _blocked(after):
        return _ended(after)
    return after


def _ended(state: RoundState) -> RoundState:
    return RoundState(
        rules=state.rules,
        hands=state.hands,
        yard=state.yard,
        board=state.board,
        current_player=state.current_player,
        reserve=state.reserve,
        drawn=state.drawn,
        is_over=True,
        log=state.log,
    )


def _refuse(state: RoundState, move: Draw | Pass, legal: tuple[Move, ...]) -> IllegalMoveError:
    player = state.current_player
    if state.drawn is not None:
        plays = [str(m) for m in legal if type(m) is Play]
        if plays and type(move) is Pass:
            return IllegalMoveError(f"player {player} drew {state.drawn}, which must be played (DRAW-2): {plays[0]}")
        return IllegalMoveError(f"player {player} already drew {state.drawn} this turn: play it or pass")
    plays = [str(m) for m in legal if type(m) is Play]
    if plays:
        verb = "draw" if type(move) is Draw else "pass"
        return IllegalMoveError(
            f"player {player} can play ({', '.join(plays[:3])}{', ...' if len(plays) > 3 else ''}) "
            f"and so may not {verb} (DRAW-4)"
        )
    if type(move) is Pass:
        return IllegalMoveError(f"player {player} cannot play but the yard has tiles to draw: draw first (DRAW-4)")
    return IllegalMoveError(
        f"the yard is down to its reserve of {state.reserve} tile{'s' * (state.reserve != 1)}: "
        "nothing may be drawn, so pass (YARD-2)"
    )


def _apply_draw_or_pass(state: RoundState, move: Draw | Pass) -> RoundState:
    legal = _round_moves(state)
    if move not in legal:
        raise _refuse(state, move, legal)
    player = state.current_player
    if type(move) is Draw:
        tile = state.yard[0]
        hands = state.hands
        after = RoundState(
            rules=state.rules,
            hands=(*hands[:player], hands[player] + (tile,), *hands[player + 1 :]),
            yard=state.yard[1:],
            board=state.board,
            current_player=player,  # DRAW-1: drawing does not end the turn
            reserve=state.reserve,
            drawn=tile,
            log=((player, move), state.log),
        )
    else:
        after = RoundState(
            rules=state.rules,
            hands=state.hands,
            yard=state.yard,
            board=state.board,
            current_player=(player + 1) % len(state.hands),
            reserve=state.reserve,
            log=((player, move), state.log),
        )
    return _ended(after) if _blocked(after) else after  # END-2, checked after every move


def _apply_round(state: RoundState, move: Move) -> RoundState:
    if state.is_over:
        raise IllegalMoveError("the round is over: no more moves")
    kind = type(move)
    if kind is Play:
        return _apply_play(state, move)  # type: ignore[arg-type]
    if kind is Draw or kind is Pass:
        return _apply_draw_or_pass(state, move)  # type: ignore[arg-type]
    raise IllegalMoveError(f"{move!r} is not a move: use Play, Draw or Pass, or parse_move('9-5@3')")


def _apply_game(game: GameState, move: Move) -> GameState:
    if game.is_over:
        raise IllegalMoveError("the game is over: no more moves")
    state = _apply_round(game.round, move)
    if not state.is_over:
        return GameState(
            rules=game.rules,
            players=game.players,
            seed=game.seed,
            round=state,
            round_index=game.round_index,
            totals=game.totals,
            results=game.results,
        )
    # The round ended: score it (SCORE-1), add up (GAME-1), then deal the next round (ROUND-1).
    scores = round_scores(state)
    results = (*game.results, RoundResult(double=state.double, scores=scores, went_out=state.went_out, final=state))
    totals = tuple(total + score for total, score in zip(game.totals, scores, strict=True))
    rules = game.rules
    if len(results) == rules.rounds:
        return GameState(
            rules=rules,
            players=game.players,
            seed=game.seed,
            round=state,
            round_index=game.round_index,
            totals=totals,
            results=results,
            winners=winners(rules, totals, results),
        )
    return GameState(
        rules=rules,
        players=game.players,
        seed=game.seed,
        round=deal_round(rules, game.players, game.seed, game.round_index + 1),
        round_index=game.round_index + 1,
        totals=totals,
        results=results,
    )


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
        return _apply_game(state, move)
    if type(state) is RoundState:
        return _apply_round(state, move)
    raise TypeError(f"apply takes a GameState or RoundState, got {type(state).__name__}")
