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
from ._scoring import close_round, winners
from ._state import GameState, RoundState, make_game, make_round, set_held, set_legal
from ._tiles import MAX_SUPPORTED_PIP, Tile, full_set

__all__ = ["apply", "legal_moves", "new_game"]

State = TypeVar("State", GameState, RoundState)


class _PlayTable(dict[int, Play]):
    """Interned plays keyed ``onto << 8 | tile.index``: move generation hands out shared objects."""

    def __missing__(self, key: int) -> Play:
        play = self[key] = Play(full_set(MAX_SUPPORTED_PIP)[key & 255], key >> 8)
        return play


_PLAYS = _PlayTable()


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
#
# Every state caches its legal moves (RoundState._legal), so a caller's legal_moves() and the
# following apply() generate them once between them, and apply() validates a move by looking
# it up instead of re-deriving the rules.


def _plays_of(tile: Tile, board: Board) -> list[Play]:
    """Lists the places ``tile`` fits now (PLAY-1, OPEN-2, FOOT-2)."""
    table = _PLAYS
    pending = board.pending
    if pending is not None:
        if tile.mask >> board.node(pending).exposed & 1:
            return [table[pending << 8 | tile.index]]
        return []
    ends = board.ends_by_value
    index = tile.index
    plays = [table[onto << 8 | index] for onto in ends[tile.high]]
    if tile.low != tile.high:
        plays += [table[onto << 8 | index] for onto in ends[tile.low]]
    return plays


def _generate(state: RoundState) -> tuple[Move, ...]:
    if state.is_over:
        return ()
    board = state.board
    drawn = state.drawn
    if drawn is not None:
        plays = _plays_of(drawn, board)
        if plays:
            # DRAW-2: must play it; DRAW-3: may play it or pass.
            return tuple(plays) if state.rules.drawn_tile == "must_play" else (*plays, PASS)
        if state.rules.draw_until_playable and len(state.yard) > state.reserve:
            return (DRAW,)  # variant of DRAW-1: keep drawing
        return (PASS,)  # DRAW-2: the drawn tile cannot be played
    table = _PLAYS
    pending = board.pending
    plays = []
    if pending is not None:  # OPEN-2, FOOT-2: only the pending node takes tiles
        exposed = board.node(pending).exposed
        base = pending << 8
        for tile in state.hands[state.current_player]:
            if tile.mask >> exposed & 1:
                plays.append(table[base | tile.index])
    else:
        mask = board.ends_mask
        ends = board.ends_by_value
        for tile in state.hands[state.current_player]:
            if tile.mask & mask:  # PLAY-1: carries a value some open end offers
                index = tile.index
                for onto in ends[tile.high]:
                    plays.append(table[onto << 8 | index])
                if tile.low != tile.high:
                    for onto in ends[tile.low]:
                        plays.append(table[onto << 8 | index])
    if plays:
        return tuple(plays)  # DRAW-4: no draw while a play exists
    return (DRAW,) if len(state.yard) > state.reserve else (PASS,)  # DRAW-1, YARD-2


def _round_moves(state: RoundState) -> tuple[Move, ...]:
    legal = state._legal
    if legal is None:
        legal = _generate(state)
        set_legal(state, legal)
    return legal


def legal_moves(state: GameState | RoundState) -> tuple[Move, ...]:
    """Lists the moves the player to move may make, in a fixed order; empty once the game is over.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> all(move.onto == 0 for move in cf.legal_moves(game))   # OPEN-2: arms go on the center
    True
    """
    kind = type(state)
    if kind is GameState:
        game: GameState = state  # type: ignore[assignment]
        if len(game.results) == game.rules.max_pip + 1:  # GameState.is_over, inlined
            return ()
        state = game.round
        legal = state._legal
        if legal is None:
            legal = _generate(state)
            set_legal(state, legal)
        return legal
    if kind is RoundState:
        return _round_moves(state)  # type: ignore[arg-type]
    raise TypeError(f"legal_moves takes a GameState or RoundState, got {kind.__name__}")


# -- applying moves -------------------------------------------------------------------------


def _pending_reason(state: RoundState) -> str:
    board = state.board
    assert board.pending is not None
    node = board.node(board.pending)
    if board.pending == 0:
        what = f"the center {node.tile} still needs {board.missing} arm{'s' * (board.missing > 1)}"
    else:
        what = f"a chicken foot on {node.tile} is pending ({board.missing} toe{'s' * (board.missing > 1)} to go)"
    return f"{what}: play a tile carrying {node.exposed} onto node {board.pending}"


def _check_play(state: RoundState, move: Play) -> None:
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
    board = state.board
    if not 0 <= onto < len(board):
        raise IllegalMoveError(f"there is no node {onto}: the board has nodes 0 to {len(board) - 1}", "PLAY-1")
    if board.pending is not None and onto != board.pending:
        raise IllegalMoveError(_pending_reason(state), "OPEN-2" if board.pending == 0 else "FOOT-2")
    offered = board.node(onto).exposed
    if not tile.mask >> offered & 1:
        raise IllegalMoveError(f"{tile} does not match node {onto}, which offers a {offered}", "PLAY-1")
    if not board.accepts(offered, onto):
        full = board.node(onto).tile
        rule = "OPEN-3" if onto == 0 else "FOOT-3" if full.is_double else "PLAY-2"
        raise IllegalMoveError(f"node {onto} ({full}) takes no more tiles: play onto an open end", rule)
    raise IllegalMoveError(f"{move} is not a legal move now")  # pragma: no cover - the checks above are complete


# The tiles held in all hands, counted per value in one int, 5 bits a value (a value is on at
# most 19 tiles): what each tile adds.
_UNIT = [(1 << 5 * t.high) + (0 if t.high == t.low else 1 << 5 * t.low) for t in full_set(MAX_SUPPORTED_PIP)]


def _held(state: RoundState) -> int:
    """Gets the packed per-value counts of the tiles in all hands, kept up to date move by move.

    So END-2 and the unfillable-foot variant never rescan the hands.
    """
    held = state._held
    if held is None:
        held = 0
        for hand in state.hands:
            for tile in hand:
                held += _UNIT[tile.index]
        set_held(state, held)
    return held


def _foot_unfillable(state: RoundState, board: Board, held: int) -> bool:
    """Variant of END-2: the pending chicken foot needs more toes than there are tiles left to fill it."""
    assert board.pending is not None
    value = board.node(board.pending).exposed
    bit = 1 << value
    drawable = state.yard[: len(state.yard) - state.reserve]
    available = (held >> 5 * value & 31) + sum(1 for tile in drawable if tile.mask & bit)
    return available < board.missing


def _apply_play(state: RoundState, move: Play) -> RoundState:
    player = state.current_player
    hands = state.hands
    hand = hands[player]
    tile = move.tile
    # Find it by identity (tiles are interned): tuple.index would compare through Tile's
    # Python-level rich comparison, about 100 ns a tile.
    at = 0
    for held_tile in hand:
        if held_tile is tile:
            break
        at += 1
    hand = hand[:at] + hand[at + 1 :]
    board = state.board.place(tile, move.onto)
    held = _held(state) - _UNIT[tile.index]
    log = ((player, move), state.log)
    hands = (*hands[:player], hand, *hands[player + 1 :])
    if not hand:  # END-1: out on the last tile, even with a foot pending
        return make_round(state.rules, hands, state.yard, board, player, state.reserve, None, True, player, log, held)
    over = (
        state.rules.unfillable_foot_ends_round
        and tile.high == tile.low
        and board.pending == len(board) - 1
        and _foot_unfillable(state, board, held)
    ) or _blocked(state.yard, state.reserve, board, held)
    return make_round(
        state.rules,
        hands,
        state.yard,
        board,
        (player + 1) % len(hands),  # TURN-1
        state.reserve,
        None,
        over,
        None,
        log,
        held,
    )


def _blocked(yard: tuple[Tile, ...], reserve: int, board: Board, held: int) -> bool:
    """END-2: nobody can draw (DRAW-1, YARD-1) and no hand holds a tile carrying a playable value."""
    if len(yard) > reserve:
        return False
    playable = board.playable_mask
    while playable:
        bit = playable & -playable
        if held >> 5 * (bit.bit_length() - 1) & 31:
            return False
        playable ^= bit
    return True


def ends_blocked(state: RoundState) -> bool:
    """Tells whether the round has nothing left to do but end, with nobody going out.

    END-2 (nobody can play or draw), or, under the variant, a pending foot that can no longer be
    filled. The engine applies this after every move; readers of saved positions check with it.
    """
    board, held = state.board, _held(state)
    if _blocked(state.yard, state.reserve, board, held):
        return True
    foot_pending = board.pending is not None and board.pending != 0
    return state.rules.unfillable_foot_ends_round and foot_pending and _foot_unfillable(state, board, held)


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


def _apply_draw(state: RoundState, move: Draw) -> RoundState:
    player = state.current_player
    tile = state.yard[0]
    yard = state.yard[1:]
    hands = state.hands
    held = _held(state) + _UNIT[tile.index]
    return make_round(
        state.rules,
        (*hands[:player], hands[player] + (tile,), *hands[player + 1 :]),
        yard,
        state.board,
        player,  # DRAW-1: drawing does not end the turn
        state.reserve,
        tile,
        _blocked(yard, state.reserve, state.board, held),  # END-2, checked after every move
        None,
        ((player, move), state.log),
        held,
    )


def _apply_pass(state: RoundState, move: Pass) -> RoundState:
    player = state.current_player
    held = _held(state)
    over = _blocked(state.yard, state.reserve, state.board, held)  # END-2, checked after every move
    return make_round(
        state.rules,
        state.hands,
        state.yard,
        state.board,
        (player + 1) % len(state.hands),  # TURN-1
        state.reserve,
        None,
        over,
        None,
        ((player, move), state.log),
        held,
    )


def _apply_round(state: RoundState, move: Move) -> RoundState:
    if state.is_over:
        raise IllegalMoveError("the round is over: no more moves", "END-1" if state.went_out is not None else "END-2")
    kind = type(move)
    if kind is not Play and kind is not Draw and kind is not Pass:
        raise IllegalMoveError(f"{move!r} is not a move: use Play, Draw or Pass, or parse_move('9-5@3')")
    legal = _round_moves(state)
    for candidate in legal:  # by identity first: generated moves are interned, and == is slow
        if candidate is move:
            break
    else:
        if move in legal:
            move = legal[legal.index(move)]
        else:
            if kind is Play:
                _check_play(state, move)  # type: ignore[arg-type]
            raise _refuse(state, move, legal)  # type: ignore[arg-type]
    if kind is Play:
        return _apply_play(state, move)  # type: ignore[arg-type]
    if kind is Draw:
        return _apply_draw(state, move)  # type: ignore[arg-type]
    return _apply_pass(state, move)  # type: ignore[arg-type]


def _apply_game(game: GameState, move: Move) -> GameState:
    if len(game.results) == game.rules.max_pip + 1:  # GameState.is_over, inlined
        raise IllegalMoveError("the game is over: no more moves", "ROUND-1")
    state = _apply_round(game.round, move)
    if not state.is_over:
        return make_game(game.rules, game.players, game.seed, state, game.round_index, game.totals, game.results)
    # The round ended: score it (SCORE-1), add up (GAME-1), then deal the next round (ROUND-1).
    result, totals = close_round(game.totals, state)
    results = (*game.results, result)
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
