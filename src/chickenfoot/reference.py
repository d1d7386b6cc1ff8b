"""The whole rules of Chicken Foot in one plain file: a teaching copy, and an oracle for the engine.

Each rule of the specification is a commented block below, named by its ID, in the order the
specification states them. Nothing here is fast: the board is a list of nodes, a node's room is
counted from its children, the legal plays are every tile in hand tried against every open node,
and the end of a round is found by scanning the hands. That is the point: the engine
(:func:`chickenfoot.legal_moves`, :func:`chickenfoot.apply`) keeps indexes and caches for speed,
and the tests check, move by move, that it agrees with this file.

:func:`legal_moves` and :func:`apply` take and return the same public states as the engine's, so
either can stand in for the other:

>>> import chickenfoot as cf
>>> from chickenfoot import reference
>>> game = reference.new_game(cf.Rules.trains(), players=4, seed=7)
>>> game == cf.new_game(cf.Rules.trains(), players=4, seed=7)
True
>>> move = reference.legal_moves(game)[0]
>>> reference.apply(game, move) == cf.apply(game, move)
True

An illegal move raises :class:`~chickenfoot.IllegalMoveError` naming the legal ones; the engine
explains in more detail why a move is refused.
"""

from __future__ import annotations

import hashlib
import random
from typing import TypeAlias, overload

from chickenfoot import (
    Board,
    Draw,
    GameState,
    IllegalMoveError,
    Move,
    Node,
    Pass,
    Play,
    RoundResult,
    RoundState,
    Rules,
    Tile,
    full_set,
)

__all__ = ["apply", "deal", "legal_moves", "new_game", "perft", "round_scores", "tile_value", "winners"]

_TOES = 3  # FOOT-1: a chicken foot takes exactly three toes.

_Nodes: TypeAlias = "list[Node] | tuple[Node, ...]"


# -- Sets and scoring values ----------------------------------------------------------------


def tile_value(rules: Rules, tile: Tile) -> int:
    """Gets what ``tile`` scores when it is left in a hand (SET-2, SCORE-2).

    >>> tile_value(Rules.cross(), Tile(0, 0)), tile_value(Rules.trains(blank_value=25), Tile(5, 0))
    (50, 30)
    """
    # SCORE-2: 0-0 is worth 50 in cross; in trains its pips, unless the 0-0 option is set.
    if tile == Tile(0, 0) and rules.double_blank_value is not None:
        return rules.double_blank_value
    # SET-2: a tile's score value is its pip sum; the blank option adds a fixed value per blank half.
    value = tile.high + tile.low
    if rules.blank_value is not None:
        value += rules.blank_value * [tile.high, tile.low].count(0)
    return value


# -- Dealing ----------------------------------------------------------------------------------


def deal(rules: Rules, players: int, seed: int, round_index: int) -> RoundState:
    """Deals round ``round_index`` (0-based) of a game: hands, yard, center and first player.

    >>> state = deal(Rules.trains(), players=4, seed=1, round_index=2)
    >>> [len(hand) for hand in state.hands], len(state.yard), str(state.board.nodes[0].tile)
    ([11, 11, 11, 11], 10, '7-7')
    """
    # DEAL-1: a configuration that cannot be dealt is refused, saying what to change.
    rules.check_players(players)
    # ROUND-1: one round per double, from N-N down to 0-0; round r starts with double N-r.
    if type(round_index) is not int or not 0 <= round_index <= rules.max_pip:
        raise ValueError(f"round_index must be from 0 to {rules.max_pip} (ROUND-1), got {round_index!r}")
    double = Tile(rules.max_pip - round_index, rules.max_pip - round_index)
    # DEAL-2: the deal is a pure function of (rules, players, seed, round).
    digest = hashlib.sha256(f"chickenfoot/{seed}/{round_index}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:16], "big"))
    size = rules.hand_size_for(players)  # DEAL-A3, DEAL-B1

    if rules.deal == "trains":
        # DEAL-A1: all tiles are shuffled; players take one tile each in turn, starting with
        # player r mod n; the first to take the round's double is the starter. All tiles go back.
        tiles = list(full_set(rules.max_pip))
        rng.shuffle(tiles)
        starter = (round_index + tiles.index(double)) % players
        # DEAL-A2: the round's double is set aside as the center; the rest are shuffled; each
        # player is dealt the hand size for the player count; what is left is the yard.
        rest = [tile for tile in full_set(rules.max_pip) if tile != double]
        rng.shuffle(rest)
        hands = [rest[seat * size : (seat + 1) * size] for seat in range(players)]
        yard = rest[players * size :]
        # DEAL-A4: the starter moves first.
        return _start_round(rules, hands, yard, double, first=starter)

    # DEAL-B1: all tiles are shuffled; each player is dealt 7; the rest is the yard.
    tiles = list(full_set(rules.max_pip))
    rng.shuffle(tiles)
    hands = [tiles[seat * size : (seat + 1) * size] for seat in range(players)]
    yard = tiles[players * size :]
    # DEAL-B2: the player holding the round's double places it as the center.
    center = double
    holder = next((seat for seat in range(players) if double in hands[seat]), None)
    # Variant: when nobody holds the round's double, the next-highest double held starts instead
    # (the highest double anyone holds that is lower than the round's double).
    if holder is None and rules.center_fallback == "highest_double":
        lower = [tile for hand in hands for tile in hand if tile.is_double and tile.high < double.high]
        if lower:
            center = max(lower, key=lambda tile: tile.high)
            holder = next(seat for seat in range(players) if center in hands[seat])
    if holder is None:
        # DEAL-B2: if nobody holds it, players in turn, starting with player r mod n, draw one
        # tile each from the yard into their hand until one draws it; that player places it.
        seat = round_index % players
        while True:
            tile = yard.pop(0)
            if tile == center:
                holder = seat
                break
            hands[seat].append(tile)
            seat = (seat + 1) % players
    else:
        hands[holder].remove(center)
    # DEAL-B3: the player after the one who placed the center moves first.
    return _start_round(rules, hands, yard, center, first=(holder + 1) % players)


def _start_round(rules: Rules, hands: list[list[Tile]], yard: list[Tile], center: Tile, first: int) -> RoundState:
    players = len(hands)
    dealt = RoundState(
        rules,
        tuple(tuple(hand) for hand in hands),
        tuple(yard),
        _board(rules, players, [Node(center, None, center.high)]),
        first,
        reserve=_reserve(rules, players),
    )
    return _ended(dealt, went_out=None)  # END-2: a round can be blocked as dealt (with contrived options)


def _reserve(rules: Rules, players: int) -> int:
    # YARD-1: trains: the last 2 tiles stay in the yard with two players, the last 1 with three
    # or more; cross: none. The reserve option overrides both.
    if rules.reserve is not None:
        return rules.reserve
    if rules.deal == "cross":
        return 0
    return 2 if players == 2 else 1


def new_game(rules: Rules, players: int, seed: int = 0) -> GameState:
    """Starts a game and deals its first round (ROUND-1).

    >>> new_game(Rules.trains(), players=2, seed=3).round_index
    0
    """
    first = deal(rules, players, seed, 0)
    return _closed(
        GameState(rules=rules, players=players, seed=seed, round=first, round_index=0, totals=(0,) * players)
    )


# -- The board --------------------------------------------------------------------------------


def _capacity(rules: Rules, nodes: _Nodes, players: int, index: int) -> int:
    # OPEN-1: the center takes a fixed number of arms: trains one per player, cross 4 (or the
    # option). FOOT-1: any other double takes exactly three toes. PLAY-2: a non-double takes one.
    if index == 0:
        return rules.center_arms if rules.center_arms is not None else (players if rules.deal == "trains" else 4)
    return _TOES if nodes[index].tile.is_double else 1


def _rooms(rules: Rules, nodes: _Nodes, players: int) -> list[int]:
    """Counts, for every node, how many more tiles it takes: its capacity less its children."""
    children = [0] * len(nodes)
    for node in nodes:
        if node.parent is not None:
            children[node.parent] += 1
    return [_capacity(rules, nodes, players, index) - children[index] for index in range(len(nodes))]


def _pending(rules: Rules, nodes: _Nodes, players: int) -> int | None:
    # OPEN-2: until the center has all its arms it is the pending node.
    # FOOT-2: while a foot has fewer than three toes it is the pending node.
    # At most one node is pending at a time, so the first found is the one.
    rooms = _rooms(rules, nodes, players)
    for index, node in enumerate(nodes):
        if (index == 0 or node.tile.is_double) and rooms[index] > 0:
            return index
    return None


def _open_nodes(state: RoundState) -> list[int]:
    """Lists the nodes a tile may go onto now: the pending node alone, else every node with room."""
    nodes, players = state.board.nodes, len(state.hands)
    pending = _pending(state.rules, nodes, players)
    if pending is not None:  # OPEN-2, FOOT-2: every play goes onto the pending node.
        return [pending]
    # OPEN-3, FOOT-3: a full center or foot takes no more tiles; play is open on every open end.
    rooms = _rooms(state.rules, nodes, players)
    return [index for index in range(len(nodes)) if rooms[index] > 0]


def _board(rules: Rules, players: int, nodes: list[Node]) -> Board:
    """Builds the public :class:`~chickenfoot.Board` for ``nodes``, on a center taking its arms (OPEN-1)."""
    return Board(nodes, arms=_capacity(rules, nodes, players, 0))


# -- Playing ----------------------------------------------------------------------------------


def _plays(state: RoundState, tiles: tuple[Tile, ...]) -> list[Move]:
    # PLAY-1: a play puts one tile from the mover's hand onto an open end whose exposed value the
    # tile carries. So: every tile against every open node.
    open_nodes = _open_nodes(state)
    nodes = state.board.nodes
    return [Play(tile, onto) for tile in tiles for onto in open_nodes if tile.carries(nodes[onto].exposed)]


def _can_draw(state: RoundState) -> bool:
    # DRAW-1, YARD-1: a player may draw if the yard holds more tiles than the reserve.
    return len(state.yard) > state.reserve


def _round_moves(state: RoundState) -> tuple[Move, ...]:
    if state.is_over:
        return ()
    rules = state.rules
    if state.drawn is not None:
        plays = _plays(state, (state.drawn,))
        if plays and rules.drawn_tile == "must_play":
            # DRAW-2: trains: if the drawn tile can be played it must be played, this turn.
            return tuple(plays)
        if plays:
            # DRAW-3: cross: if the drawn tile can be played the player may play it or pass.
            return (*plays, Pass())
        if rules.draw_until_playable and _can_draw(state):
            # Variant of DRAW-1: draw until a playable tile turns up.
            return (Draw(),)
        # DRAW-2: if not, the player passes.
        return (Pass(),)
    plays = _plays(state, state.hands[state.current_player])
    if plays:
        # DRAW-4: a player may not draw while holding a legal play.
        return tuple(plays)
    if _can_draw(state):
        # DRAW-1: a player with no legal play must draw one tile (DRAW-4: and may not pass).
        return (Draw(),)
    # YARD-2: a player who can neither play nor draw passes.
    return (Pass(),)


def legal_moves(state: GameState | RoundState) -> tuple[Move, ...]:
    """Lists the moves the player to move may make; empty once the round or game is over.

    >>> import chickenfoot as cf
    >>> game = new_game(cf.Rules.trains(), players=4, seed=7)
    >>> sorted(map(str, legal_moves(game))) == sorted(map(str, cf.legal_moves(game)))
    True
    """
    if isinstance(state, GameState):
        # ROUND-1: after the last round there are no more moves.
        return () if state.is_over else _round_moves(state.round)
    return _round_moves(state)


def _next_round_state(state: RoundState, move: Move) -> RoundState:
    player = state.current_player
    players = len(state.hands)
    hands = list(state.hands)
    yard = state.yard
    nodes = list(state.board.nodes)
    history = (*state.history, (player, move))
    if isinstance(move, Play):
        hand = list(hands[player])
        hand.remove(move.tile)
        hands[player] = tuple(hand)
        # PLAY-1: the tile's other value becomes exposed; a double exposes its own value.
        matched = nodes[move.onto].exposed
        exposed = matched if move.tile.is_double else move.tile.other(matched)
        nodes.append(Node(move.tile, move.onto, exposed))
        board = _board(state.rules, players, nodes)
        # END-1: a round ends at once when a player plays the last tile of their hand, even with
        # a foot pending; the player who went out stays the player to move.
        # TURN-1: turns go 0, 1, ..., n-1, 0, ...; one play per turn; a double earns no extra turn.
        after = _state(state, tuple(hands), yard, board, player if not hand else (player + 1) % players, None, history)
        return _ended(after, went_out=player if not hand else None)
    if isinstance(move, Draw):
        # DRAW-1: draw yard[0]. Drawing does not end the turn: the drawn tile goes into the hand
        # and is remembered as drawn until the turn ends.
        hands[player] = (*hands[player], yard[0])
        return _ended(_state(state, tuple(hands), yard[1:], state.board, player, yard[0], history), went_out=None)
    # TURN-1: a pass ends the turn.
    return _ended(_state(state, state.hands, yard, state.board, (player + 1) % players, None, history), went_out=None)


def _state(
    before: RoundState,
    hands: tuple[tuple[Tile, ...], ...],
    yard: tuple[Tile, ...],
    board: Board,
    current: int,
    drawn: Tile | None,
    history: tuple[tuple[int, Move], ...],
) -> RoundState:
    return RoundState(before.rules, hands, yard, board, current, drawn=drawn, reserve=before.reserve, history=history)


def _ended(after: RoundState, went_out: int | None) -> RoundState:
    """Checks that the engine's state ends the round exactly when these rules do (END-1, END-2)."""
    # END-2: checked after every move, a draw included.
    over = went_out is not None or _blocked(after) or _foot_unfillable(after)
    if after.is_over != over or after.went_out != went_out:
        raise AssertionError(
            f"the engine's state is over={after.is_over}, went_out={after.went_out}; "
            f"the rules say over={over}, went_out={went_out}"
        )
    return after


# -- Ending a round and scoring ---------------------------------------------------------------


def _blocked(state: RoundState) -> bool:
    # END-2: a round ends at once when nobody can play and nobody can draw, including when a
    # pending foot can no longer be filled.
    if _can_draw(state):
        return False
    nodes = state.board.nodes
    offered = [nodes[index].exposed for index in _open_nodes(state)]
    return not any(tile.carries(value) for hand in state.hands for tile in hand for value in offered)


def _foot_unfillable(state: RoundState) -> bool:
    # Variant of END-2: a foot that can no longer be filled ends the round at once: it lacks more
    # toes than there are tiles carrying its value in the hands and in the drawable yard.
    if not state.rules.unfillable_foot_ends_round:
        return False
    nodes, players = state.board.nodes, len(state.hands)
    foot = _pending(state.rules, nodes, players)
    if foot is None or foot == 0:
        return False
    value = nodes[foot].exposed
    drawable = state.yard[: len(state.yard) - state.reserve]
    left = [tile for hand in state.hands for tile in hand if tile.carries(value)]
    left += [tile for tile in drawable if tile.carries(value)]
    return len(left) < _rooms(state.rules, nodes, players)[foot]


def round_scores(state: RoundState) -> tuple[int, ...]:
    """Scores a finished round: each player the value of the tiles left in hand (SCORE-1).

    >>> import chickenfoot as cf
    >>> state = deal(cf.Rules.trains(), players=2, seed=0, round_index=0)
    >>> round_scores(state) == cf.score_round(state)
    True
    """
    # SCORE-1: each player scores the value of the tiles left in hand; who went out scores 0.
    scores = [sum(tile_value(state.rules, tile) for tile in hand) for hand in state.hands]
    # Variant: going out on a double scores a penalty.
    if state.went_out is not None and state.board.nodes[-1].tile.is_double:
        scores[state.went_out] += state.rules.double_out_penalty
    return tuple(scores)


def winners(rules: Rules, totals: tuple[int, ...], results: tuple[RoundResult, ...]) -> tuple[int, ...]:
    """Gets the winners of a finished game (GAME-1, TIE-1, TIE-2).

    >>> winners(Rules.trains(), (10, 5, 5), ())
    (1, 2)
    """
    # GAME-1: after the last round the lowest total wins.
    lowest = min(totals)
    tied = [player for player in range(len(totals)) if totals[player] == lowest]
    if rules.tie_break == "share":
        # TIE-1: trains: players tied on the lowest total share the win.
        return tuple(tied)

    # TIE-2: cross: among the tied, the one with the most zero-score rounds wins; if still tied,
    # the one whose lowest non-zero round score is lower wins, then the next lowest, and so on;
    # if still tied they share the win.
    def rounds(player: int) -> list[int]:
        return [result.scores[player] for result in results]

    most_zeros = max(rounds(player).count(0) for player in tied)
    tied = [player for player in tied if rounds(player).count(0) == most_zeros]
    best = min(sorted(score for score in rounds(player) if score != 0) for player in tied)
    return tuple(player for player in tied if sorted(score for score in rounds(player) if score != 0) == best)


# -- Applying a move to a game ----------------------------------------------------------------


@overload
def apply(state: GameState, move: Move) -> GameState: ...
@overload
def apply(state: RoundState, move: Move) -> RoundState: ...
def apply(state: GameState | RoundState, move: Move) -> GameState | RoundState:
    """Returns the state after ``move``; ``state`` itself is never changed.

    When a round ends, the game records its :class:`~chickenfoot.RoundResult`, adds the scores
    to the totals and deals the next round; after the last round it names the winners.

    >>> import chickenfoot as cf
    >>> game = new_game(cf.Rules.trains(), players=4, seed=7)
    >>> len(apply(game, legal_moves(game)[0]).round.board.nodes)
    2
    """
    if isinstance(state, RoundState):
        if move not in _round_moves(state):
            raise IllegalMoveError(
                f"{move} is not legal now; the legal moves are {list(map(str, _round_moves(state)))}"
            )
        return _next_round_state(state, move)
    if state.is_over:
        raise IllegalMoveError("the game is over: no more moves")
    game = state
    after = apply(game.round, move)
    return _closed(GameState(game.rules, game.players, game.seed, after, game.round_index, game.totals, game.results))


def _closed(game: GameState) -> GameState:
    """Scores the round in play if it is over and deals the next, until a round is in play or the game is over."""
    while not game.is_over and game.round.is_over:
        game = _next_round(game, game.round)
    return game


def _next_round(game: GameState, after: RoundState) -> GameState:
    # END-2: a round that is over as dealt (only contrived options deal one) ends at once too.
    # SCORE-1 and GAME-1: the round is scored and the scores add up.
    scores = round_scores(after)
    result = RoundResult(double=after.board.nodes[0].tile.high, scores=scores, went_out=after.went_out, final=after)
    results = (*game.results, result)
    totals = tuple(total + score for total, score in zip(game.totals, scores, strict=True))
    # ROUND-1: one round per double, from N-N down to 0-0.
    if len(results) == game.rules.max_pip + 1:
        game_over = GameState(game.rules, game.players, game.seed, after, game.round_index, totals, results)
        if game_over.winners != winners(game.rules, totals, results):  # the engine's GAME-1, TIE-*
            raise AssertionError(
                f"the engine's winners are {game_over.winners}, the rules' {winners(game.rules, totals, results)}"
            )
        return game_over
    following = deal(game.rules, game.players, game.seed, game.round_index + 1)
    return GameState(game.rules, game.players, game.seed, following, game.round_index + 1, totals, results)


def perft(state: GameState | RoundState, depth: int) -> int:
    """Counts the move sequences of ``depth`` moves from ``state``'s round; a round's end counts once.

    The golden counts in ``examples/perft/`` are made with this counter and checked with the
    engine's :func:`chickenfoot.perft`.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> perft(game, 2) == cf.perft(game, 2)
    True
    """
    state = state.round if isinstance(state, GameState) else state
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(apply(state, move), depth - 1) for move in legal_moves(state))
