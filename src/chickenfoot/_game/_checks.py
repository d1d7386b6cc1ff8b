"""Checking a move, and saying why one is refused: the reason, and the rule it rests on.

:func:`checked_code` is how :func:`~chickenfoot.apply` checks a move that :func:`~chickenfoot.legal_moves`
did not hand out: it looks the move up among the legal moves (the core's generator, the one
statement of what may be played), and only a move it does not find is explained, rule by rule.
:func:`misfit` explains a tile a board does not take, for :meth:`Board.place
<chickenfoot.Board.place>`, a board built node by node, and a play; it reads the same openings
the generator reads (for each value, the nodes taking a tile that carries it now).
"""

from __future__ import annotations

from .._core import NONE, Layout, Round
from ._errors import IllegalMoveError
from ._moves import MOVES, Draw, Move, Pass, Play, move_code
from ._tiles import TILES, Tile

__all__ = ["checked_code", "misfit"]


def checked_code(core: Round, move: Move, *, in_game: bool) -> int:
    """Gets the core code of ``move`` if it is legal now in the core round ``core``, or raises why it is not.

    ``in_game`` says whether the move is made in a game (a :class:`~chickenfoot.GameState`), which
    may be over. A value that is not a move raises :class:`TypeError`; a move that is not
    allowed, :class:`~chickenfoot.IllegalMoveError` with the reason and the rule.
    """
    kind = type(move)
    if kind is not Play and kind is not Draw and kind is not Pass:
        raise TypeError(f"{move!r:.40} is not a move: use Play, Draw or Pass, or parse_move('9-5@3')")
    code = move_code(move)
    if code in core.legal():
        return code
    if in_game and core.setup.game is not None and core.setup.game.is_over():
        raise IllegalMoveError("the game is over: no more moves", "ROUND-1")
    if core.over:
        raise IllegalMoveError("the round is over: no more moves", "END-1" if core.went_out != NONE else "END-2")
    raise _play_refused(core, move) if isinstance(move, Play) else _draw_or_pass_refused(core, move)


def _play_refused(core: Round, move: Play) -> IllegalMoveError:
    """Gets the reason a play that is not among the legal moves is illegal."""
    tile, onto = move.tile, move.onto  # Play's constructor checked their types
    player = core.current
    settings = core.setup.settings
    if tile.high > settings.max_pip:
        return IllegalMoveError(f"{tile} is not in this double-{settings.max_pip} set", "SET-1")
    if core.drawn != NONE and tile.index != core.drawn:
        return IllegalMoveError(
            f"player {player} drew {TILES[core.drawn]} this turn: only that tile may be played now (DRAW-2/DRAW-3)",
            "DRAW-2" if settings.must_play else "DRAW-3",
        )
    if tile.index not in core.hands[player]:
        return IllegalMoveError(f"player {player} does not hold {tile}", "PLAY-1")
    refusal = misfit(core.layout(), tile, onto)
    if refusal is not None:
        return refusal
    return IllegalMoveError(f"{move} is not a legal move now")  # pragma: no cover - the checks above are complete


def _draw_or_pass_refused(core: Round, move: Draw | Pass) -> IllegalMoveError:
    """Gets the reason a draw or a pass that is not among the legal moves is illegal."""
    player = core.current
    plays = [str(legal) for legal in core.public_legal(MOVES) if type(legal) is Play]
    if core.drawn != NONE:
        drawn = TILES[core.drawn]
        if plays and type(move) is Pass:
            reason = f"player {player} drew {drawn}, which must be played (DRAW-2): {plays[0]}"
            return IllegalMoveError(reason, "DRAW-2")
        return IllegalMoveError(f"player {player} already drew {drawn} this turn: play it or pass", "DRAW-1")
    if plays:
        verb = "draw" if type(move) is Draw else "pass"
        shown = ", ".join(plays[:3]) + (", ..." if len(plays) > 3 else "")
        return IllegalMoveError(f"player {player} can play ({shown}) and so may not {verb} (DRAW-4)", "DRAW-4")
    if type(move) is Pass:
        reason = f"player {player} cannot play but the yard has tiles to draw: draw first (DRAW-4)"
        return IllegalMoveError(reason, "DRAW-4")
    reserve = core.setup.reserve
    tiles = f"{reserve} tile{'s' * (reserve != 1)}"
    reason = f"the yard is down to its reserve of {tiles}: nothing may be drawn, so pass (YARD-2)"
    return IllegalMoveError(reason, "YARD-2")


def misfit(layout: Layout, tile: Tile, onto: int) -> IllegalMoveError | None:
    """Gets why ``tile`` cannot go onto node ``onto`` of ``layout`` (the rule it breaks), or ``None`` if it fits.

    >>> from chickenfoot import Board, Tile
    >>> board = Board.start(Tile(9, 9), arms=2).place(Tile(9, 5), onto=0)
    >>> print(misfit(board._layout, Tile(5, 3), onto=1))
    the center 9-9 still needs 1 arm: play a tile carrying 9 onto node 0
    >>> board = board.place(Tile(9, 8), onto=0)
    >>> print(misfit(board._layout, Tile(4, 3), onto=1))
    4-3 does not match node 1, which offers a 5
    >>> print(misfit(board._layout, Tile(8, 3), onto=2))
    None
    """
    if layout.accepts(tile.high, onto) or layout.accepts(tile.low, onto):
        return None
    if not 0 <= onto < layout.size:
        return IllegalMoveError(f"there is no node {onto}: the board has nodes 0 to {layout.size - 1}", "PLAY-1")
    pending = layout.pending
    if pending != NONE and onto != pending:
        node, missing = layout.node(pending), layout.missing
        if pending == 0:
            what = f"the center {TILES[node.tile]} still needs {missing} arm{'s' * (missing > 1)}"
        else:
            what = f"a chicken foot on {TILES[node.tile]} is pending ({missing} toe{'s' * (missing > 1)} to go)"
        reason = f"{what}: play a tile carrying {node.exposed} onto node {pending}"
        return IllegalMoveError(reason, "OPEN-2" if pending == 0 else "FOOT-2")
    node = layout.node(onto)
    if not tile.carries(node.exposed):
        return IllegalMoveError(f"{tile} does not match node {onto}, which offers a {node.exposed}", "PLAY-1")
    # The node offers the tile's value but takes no tile: it is full.
    rule = "OPEN-3" if onto == 0 else "FOOT-3" if TILES[node.tile].is_double else "PLAY-2"
    return IllegalMoveError(f"node {onto} ({TILES[node.tile]}) takes no more tiles: play onto an open end", rule)
