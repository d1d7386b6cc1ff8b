"""A round read from its public parts, checked: the well-formed position :class:`~chickenfoot.RoundState` takes.

:func:`core_round` checks each part (types, seats, every tile once, the drawn tile, the reserve,
the history) and gets the core round they make, over or not as the position says (END-1, END-2).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._core import NONE, Log, Round, nothing_to_do, round_on
from ._board import Board
from ._errors import InvalidPositionError
from ._moves import Draw, Pass, Play, move_code
from ._plans import settings_for
from ._rules import MAX_OPTION, MAX_PLAYERS, Rules
from ._tiles import TILES, Tile

__all__ = ["core_round", "seat_of"]


def _tuple_of_tiles(tiles: object, what: str) -> tuple[Tile, ...]:
    """Checks ``tiles`` is a sequence of tiles, and gets them as a tuple."""
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Iterable):
        raise TypeError(f"{what} is a sequence of chickenfoot.Tile, got {tiles!r:.40}")
    listed = tuple(tiles)
    for tile in listed:
        if type(tile) is not Tile:
            raise TypeError(f"{what} holds chickenfoot.Tile objects, got {tile!r:.40}")
    return listed


def seat_of(value: object, what: str, players: int) -> int:
    """Checks ``value`` (named ``what`` in the messages) is a seat of ``players``, and gets it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} is a seat (an int), got {value!r:.40}")
    if not 0 <= value < players:
        raise InvalidPositionError(f"{what} must be a seat from 0 to {players - 1}, got {value}")
    return int(value)


def _check_every_tile_once(
    rules: Rules, held: tuple[tuple[Tile, ...], ...], pile: tuple[Tile, ...], board: Board
) -> None:
    """SET-1: every tile of the set exactly once, in a hand, the yard or the board."""
    seen: dict[Tile, str] = {}
    places = [(f"player {seat}'s hand", hand) for seat, hand in enumerate(held)]
    places += [("the yard", pile), ("the board", tuple(node.tile for node in board.nodes))]
    for where, tiles in places:
        for tile in tiles:
            if tile.high > rules.max_pip:
                raise InvalidPositionError(f"{tile} in {where} is not in the double-{rules.max_pip} set")
            if tile in seen:
                raise InvalidPositionError(f"{tile} is in {seen[tile]} and in {where}: each tile is in one place")
            seen[tile] = where
    if len(seen) != rules.set_size:
        missing = ", ".join(str(tile) for tile in TILES[: rules.set_size] if tile not in seen)
        raise InvalidPositionError(f"tiles missing from the hands, yard and board: {missing}")


def _reserve(rules: Rules, reserve: object, players: int) -> int:
    """Gets the reserve a position keeps: the rules' (YARD-1) unless one is given."""
    if reserve is None:
        return rules.reserve_for(players)
    if isinstance(reserve, bool) or not isinstance(reserve, int):
        raise TypeError(f"reserve is an int, got {reserve!r:.40}")
    if not 0 <= reserve <= MAX_OPTION:
        raise InvalidPositionError(f"the reserve is a whole number from 0 to {MAX_OPTION:,}, got {reserve}")
    return int(reserve)


def core_round(
    rules: Rules,
    hands: object,
    yard: object,
    board: Board,
    current_player: object,
    drawn: object,
    reserve: object,
    history: object,
) -> Round:
    """Checks the parts of a round form a well-formed position (see :class:`RoundState`) and gets its core round."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a chickenfoot.Rules, such as Rules.trains(); got {rules!r:.40}")
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Iterable):
        raise TypeError(f"hands is a sequence of hands, one per seat; got {hands!r:.40}")
    held = tuple(_tuple_of_tiles(hand, f"hand {seat}") for seat, hand in enumerate(hands))
    players = len(held)
    if not 2 <= players <= MAX_PLAYERS:
        raise InvalidPositionError(f"a round has a hand per player, 2 to {MAX_PLAYERS}; got {players}")
    pile = _tuple_of_tiles(yard, "the yard")
    if type(board) is not Board:
        raise TypeError(f"board is a chickenfoot.Board, got {board!r:.40}")
    _check_every_tile_once(rules, held, pile, board)
    current = seat_of(current_player, "the player to move", players)
    if drawn is not None:
        if type(drawn) is not Tile:
            raise TypeError(f"drawn is a chickenfoot.Tile or None, got {drawn!r:.40}")
        if drawn not in held[current]:
            raise InvalidPositionError(f"the drawn tile {drawn} is not in the hand of player {current}, who is to move")
    kept = _reserve(rules, reserve, players)
    log = _log_of(history, players, len(board))
    settings = settings_for(rules)
    hands = tuple(tuple([tile.index for tile in hand]) for hand in held)
    yard = tuple([tile.index for tile in pile])
    # END-1, END-2: the position says whether the round is over. Whoever holds nothing went out
    # (the player to move, if several hold nothing: a position status() finds unreachable).
    empty = [seat for seat, hand in enumerate(held) if not hand]
    went_out = (current if current in empty else empty[0]) if empty else NONE
    return round_on(
        settings,
        board._layout,
        hands=hands,
        yard=yard,
        current=current,
        reserve=kept,
        drawn=NONE if drawn is None else drawn.index,
        over=bool(empty) or nothing_to_do(settings, hands, yard, kept, board._layout),
        went_out=went_out,
        log=log,
    )


def _log_of(history: object, players: int, nodes: int) -> Log:
    """Checks a history's entries are moves by seats, plays onto the board's nodes, and gets it as the core keeps it."""
    if isinstance(history, (str, bytes)) or not isinstance(history, Iterable):
        raise TypeError(f"history is a sequence of (player, move) pairs, got {history!r:.40}")
    log: Log = None
    for number, turn in enumerate(history, start=1):
        if type(turn) is not tuple or len(turn) != 2:
            raise TypeError(f"history entry {number} is a (player, move) pair, got {turn!r:.40}")
        player, move = turn
        seat = seat_of(player, f"the player of history entry {number}", players)
        kind = type(move)
        if kind is not Play and kind is not Draw and kind is not Pass:
            raise TypeError(f"history entry {number}'s move is a Play, Draw or Pass, got {move!r:.40}")
        if type(move) is Play and not 0 <= move.onto < nodes:
            raise InvalidPositionError(f"history entry {number} ({move}) names a node the board does not have")
        log = (seat, move_code(move), NONE, log)  # the board was built already: no node to rebuild
    return log
