"""A fixed, stable numbering of moves for learning frameworks (OpenSpiel, PettingZoo).

A rules configuration has ``V * V * (V - 1) + 2`` distinct actions, where ``V = max_pip + 1``:

* a **play** is named by what it does, not by node numbers, which grow without bound:
  ``(matched, other, slot)``, where ``matched`` is the value of the end the tile goes onto,
  ``other`` the tile's other half (``matched`` again for a double), and ``slot`` the rank of the
  target node among the nodes accepting ``matched`` now, in node order (0 for the pending node).
  Its action is ``(matched * V + other) * (V - 1) + slot``;
* **draw** is ``V * V * (V - 1)`` and **pass** the one after it.

``slot`` is below ``V - 1`` in every reachable position: the nodes offering ``matched`` are
non-double tiles carrying it, and there are only ``max_pip`` of those in a set (one fewer
when the tile being played is one of them). So distinct legal moves get distinct actions, and
an action names the same move in every position a player cannot tell apart (the board is
public), which is what search over information sets needs.

=========  =====  ========
set        plays  actions
=========  =====  ========
double-6   294    296
double-9   900    902
double-12  2028   2030
double-15  3840   3842
double-18  6498   6500
=========  =====  ========

The numbering is part of the public API: it will not change between versions.

>>> import chickenfoot as cf
>>> from chickenfoot import actions
>>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
>>> actions.action_count(game.rules)
902
>>> move = cf.legal_moves(game)[0]
>>> action = actions.encode(move, game)
>>> actions.decode(action, game) == move
True
>>> actions.decode(actions.draw_action(game.rules), game)
Draw()
"""

from __future__ import annotations

import operator

from ._game import (
    DRAW,
    PASS,
    Board,
    Draw,
    GameState,
    InvalidMoveError,
    Move,
    NodeIndex,
    Pass,
    Pip,
    Play,
    PlayerView,
    RoundState,
    Rules,
    Tile,
    legal_moves,
)

__all__ = [
    "action_count",
    "action_mask",
    "decode",
    "describe",
    "draw_action",
    "encode",
    "legal_actions",
    "pass_action",
    "play_action",
]


def _values(rules: Rules) -> int:
    return rules.max_pip + 1


def action_count(rules: Rules) -> int:
    """Gets the number of distinct actions under ``rules``: every play, then draw, then pass.

    >>> action_count(Rules.trains()), action_count(Rules.cross(max_pip=6))
    (902, 296)
    """
    values = _values(rules)
    return values * values * (values - 1) + 2


def draw_action(rules: Rules) -> int:
    """Gets the action that draws a tile (DRAW-1).

    >>> draw_action(Rules.trains())
    900
    """
    return action_count(rules) - 2


def pass_action(rules: Rules) -> int:
    """Gets the action that passes (DRAW-2, DRAW-3, YARD-2).

    >>> pass_action(Rules.trains())
    901
    """
    return action_count(rules) - 1


def play_action(rules: Rules, matched: Pip, other: Pip, slot: int) -> int:
    """Gets the action of a play from its parts: matched value, other half, slot.

    >>> play_action(Rules.trains(), matched=9, other=5, slot=0)
    855
    """
    values = _values(rules)
    if not (0 <= matched < values and 0 <= other < values and 0 <= slot < values - 1):
        raise InvalidMoveError(
            f"a play on double-{rules.max_pip} has values 0 to {rules.max_pip} and a slot 0 to {values - 2}, "
            f"got matched={matched}, other={other}, slot={slot}"
        )
    return (matched * values + other) * (values - 1) + slot


def _play_parts(action: int, values: int) -> tuple[Pip, Pip, int]:
    """Splits a play's action number into ``(matched, other, slot)``: the inverse of :func:`play_action`."""
    pair, slot = divmod(action, values - 1)
    matched, other = divmod(pair, values)
    return matched, other, slot


def _board(state: GameState | RoundState | PlayerView) -> Board:
    if type(state) is GameState:
        return state.round.board
    if type(state) is RoundState or type(state) is PlayerView:
        return state.board
    raise TypeError(f"expected a GameState, RoundState or PlayerView, got {type(state).__name__}")


def _accepting(board: Board, value: Pip) -> tuple[NodeIndex, ...]:
    """Lists the nodes a tile carrying ``value`` may go onto now, in node order (PLAY-1, OPEN-2, FOOT-2)."""
    if board.pending is not None:
        return (board.pending,) if board.nodes[board.pending].exposed == value else ()
    return tuple(sorted(board.ends_by_value[value]))


def encode(move: Move, state: GameState | RoundState | PlayerView) -> int:
    """Encodes ``move`` as an action number; a play needs ``state`` to name its target node.

    Raises :class:`~chickenfoot.InvalidMoveError` for a play onto a node that does not take
    the tile now (the encoding names only plays that can be made).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> encode(cf.Pass(), game), encode(cf.parse_move("9-5@0"), game)
    (901, 855)
    """
    board = _board(state)  # and a TypeError for anything but a state or a view
    rules = state.rules
    if type(move) is Draw:
        return draw_action(rules)
    if type(move) is Pass:
        return pass_action(rules)
    if type(move) is not Play:
        raise TypeError(f"{move!r:.40} is not a move: use Play, Draw or Pass")
    tile, onto = move.tile, move.onto
    if not 0 <= onto < len(board.nodes):
        raise InvalidMoveError(f"cannot encode {move}: there is no node {onto}")
    matched = board.nodes[onto].exposed
    accepting = _accepting(board, matched)
    if onto not in accepting or not tile.carries(matched):
        raise InvalidMoveError(f"cannot encode {move}: node {onto} does not take {tile} now")
    return play_action(rules, matched, tile.other(matched), accepting.index(onto))


def _check_action(action: object, count: int) -> int:
    if isinstance(action, bool) or not hasattr(type(action), "__index__"):
        raise TypeError(f"an action is a whole number (an int, or a numpy integer), got {action!r:.40}")
    number = operator.index(action)  # type: ignore[arg-type]  # numpy integers welcome
    if not 0 <= number < count:
        raise InvalidMoveError(f"an action is a whole number from 0 to {count - 1}, got {action!r}")
    return number


def decode(action: int, state: GameState | RoundState | PlayerView) -> Move:
    """Decodes an action number into the move it names in ``state``.

    Raises :class:`~chickenfoot.InvalidMoveError` when the number is out of range or names a
    play onto a slot that does not exist in ``state``. The move is not checked for legality
    (the tile may not be in the mover's hand); ``legal_actions()`` lists the legal ones.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> decode(855, game), decode(901, game)
    (Play(Tile(9, 5), onto=0), Pass())
    """
    board = _board(state)  # and a TypeError for anything but a state or a view
    rules = state.rules
    count = action_count(rules)
    action = _check_action(action, count)
    if action == count - 2:
        return DRAW
    if action == count - 1:
        return PASS
    matched, other, slot = _play_parts(action, _values(rules))
    accepting = _accepting(board, matched)
    if slot >= len(accepting):
        raise InvalidMoveError(
            f"action {action} plays {Tile(matched, other)} onto open end {slot} offering {matched}, "
            f"but {len(accepting)} such end{'s' * (len(accepting) != 1)} take{'s' * (len(accepting) == 1)} "
            "a tile now"
        )
    return Play(Tile(matched, other), accepting[slot])


def describe(action: int, rules: Rules) -> str:
    """Describes an action without a state: ``"9-5 on a 9 (slot 0)"``, ``"draw"`` or ``"pass"``.

    >>> describe(855, Rules.trains()), describe(900, Rules.trains())
    ('9-5 on a 9 (slot 0)', 'draw')
    """
    count = action_count(rules)
    action = _check_action(action, count)
    if action == count - 2:
        return "draw"
    if action == count - 1:
        return "pass"
    matched, other, slot = _play_parts(action, _values(rules))
    return f"{Tile(matched, other)} on a {matched} (slot {slot})"


def legal_actions(state: GameState | RoundState | PlayerView) -> list[int]:
    """Lists the actions of the legal moves, in increasing order (empty once play is over).

    A :class:`~chickenfoot.PlayerView` lists them only on its owner's turn, as its
    ``legal_moves`` do.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> [decode(action, game) for action in legal_actions(game)] == sorted(
    ...     cf.legal_moves(game), key=lambda move: encode(move, game))
    True
    """
    moves = state.legal_moves if type(state) is PlayerView else legal_moves(state)  # type: ignore[arg-type]
    return sorted(encode(move, state) for move in moves)


def action_mask(state: GameState | RoundState | PlayerView) -> list[bool]:
    """Gets one flag per action, true for the legal ones.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> mask = action_mask(game)
    >>> len(mask), sum(mask) == len(cf.legal_moves(game))
    (902, True)
    """
    mask = [False] * action_count(state.rules)
    for action in legal_actions(state):
        mask[action] = True
    return mask
