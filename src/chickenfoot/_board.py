"""The layout: a tree of placed tiles, its open ends and its pending node, as a view over the core.

The board never rescans itself. Two facts keep that cheap:

* every node with room for more than one tile (the center while it lacks arms, a double while
  it lacks toes) is the pending node, and there is at most one (OPEN-2, FOOT-2);
* so every other open end has room for exactly one tile (PLAY-2), and the board can index
  those ends by the value they offer.

The rules of placing live in :class:`chickenfoot._core.Round` (a board places a tile as a round
does); a :class:`Board` holds a core :class:`~chickenfoot._core.Layout` and builds its
:class:`Node` objects only when someone asks for them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from . import _core
from ._core import NONE, Layout, Placed
from ._errors import IllegalMoveError
from ._moves import NodeIndex
from ._tiles import MAX_SUPPORTED_PIP, Pip, Tile, full_set

__all__ = ["FOOT_TOES", "Board", "Node", "misfit"]

FOOT_TOES = _core.FOOT_TOES  # FOOT-1

TILES = full_set(MAX_SUPPORTED_PIP)
"""Every tile, by its index (the core's tile number)."""


@attrs.frozen
class Node:
    """Records one placed tile: the tile, the node it hangs from, and the value it offers.

    >>> Node(Tile(9, 5), parent=0, exposed=5)
    Node(tile=Tile(9, 5), parent=0, exposed=5)
    """

    tile: Tile
    """The tile placed."""
    parent: NodeIndex | None
    """The node it attaches to; ``None`` for the center."""
    exposed: Pip
    """The value the node offers: a double's own value, else the half not matched to its parent."""


_NODES: dict[tuple[int, int, int], Node] = {}


def _node(placed: Placed) -> Node:
    """Gets the (shared) public node for a placed tile: nodes are values, so boards share them."""
    key = (placed.tile, placed.parent, placed.exposed)
    node = _NODES.get(key)
    if node is None:
        parent = None if placed.parent == NONE else placed.parent
        node = _NODES[key] = Node(TILES[placed.tile], parent, placed.exposed)
    return node


@attrs.frozen(init=False, repr=False)
class Board:
    """Holds the layout of a round: the placed tiles, the open ends by value, and the pending node.

    Construct one with :meth:`start` and :meth:`place` (or ``Board(nodes, ends_by_value,
    ends_mask, pending, missing)``).

    >>> board = Board.start(Tile(9, 9), arms=4)
    >>> board.pending, board.pending_value, board.open_ends
    (0, 9, (0,))
    >>> board = board.place(Tile(9, 5), onto=0)
    >>> [str(node.tile) for node in board.nodes], board.missing
    (['9-9', '9-5'], 3)
    """

    _layout: Layout
    # The core layout this board shows.

    def __init__(
        self,
        nodes: Iterable[Node],
        ends_by_value: tuple[tuple[NodeIndex, ...], ...],
        ends_mask: int,
        pending: NodeIndex | None,
        missing: int,
    ) -> None:
        """Builds a board from its parts (no checks: :meth:`start` and :meth:`place` keep them consistent)."""
        nodes = tuple(nodes)
        last: Placed | None = None
        for node in nodes:
            last = Placed(node.tile.index, NONE if node.parent is None else node.parent, node.exposed, last)
        if last is None:
            raise ValueError("a board holds at least its center")
        pending_value = NONE if pending is None else nodes[pending].exposed
        ends = tuple(ends_by_value)
        layout = Layout(last, len(nodes), ends, ends_mask, NONE if pending is None else pending, pending_value, missing)
        self.__attrs_init__(layout)

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Gets every placed tile; node 0 is the center, the rest in the order they were placed."""
        layout = self._layout
        nodes: tuple[Node, ...] | None = layout.nodes_view
        if nodes is None:
            nodes = layout.nodes_view = tuple([_node(placed) for placed in layout.nodes()])
        return nodes

    @property
    def ends_by_value(self) -> tuple[tuple[NodeIndex, ...], ...]:
        """Gets the non-pending open ends offering each pip value, by value (each has room for one tile)."""
        return self._layout.ends

    @property
    def ends_mask(self) -> int:
        """Gets a bit per pip value that some non-pending open end offers."""
        return self._layout.ends_mask

    @property
    def pending(self) -> NodeIndex | None:
        """Gets the node every play must go onto (OPEN-2, FOOT-2), or ``None``."""
        pending = self._layout.pending
        return None if pending == NONE else pending

    @property
    def missing(self) -> int:
        """Gets how many more tiles the pending node needs (0 when nothing is pending)."""
        return self._layout.missing

    def node(self, index: NodeIndex) -> Node:
        """Gets node ``index`` (like ``nodes[index]``).

        >>> Board.start(Tile(9, 9), arms=4).node(0)
        Node(tile=Tile(9, 9), parent=None, exposed=9)
        """
        size = self._layout.size
        if not -size <= index < size:
            raise IndexError(f"there is no node {index}: the board has nodes 0 to {size - 1}")
        return _node(self._layout.node(index + size if index < 0 else index))

    def __len__(self) -> int:
        """Counts the placed tiles, ``len(board.nodes)``."""
        return self._layout.size

    def __repr__(self) -> str:
        return (
            f"Board(nodes={self.nodes!r}, ends_by_value={self.ends_by_value!r}, ends_mask={self.ends_mask!r}, "
            f"pending={self.pending!r}, missing={self.missing!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (Board, (self.nodes, self.ends_by_value, self.ends_mask, self.pending, self.missing))

    @classmethod
    def start(cls, center: Tile, arms: int) -> Board:
        """Lays ``center`` as node 0, pending until it has ``arms`` arms (OPEN-1, OPEN-2)."""
        return board_of(_core.start_layout(center.index, arms))

    @property
    def center(self) -> Tile:
        """Gets the round's starting double."""
        return TILES[self._layout.node(0).tile]

    @property
    def pending_value(self) -> Pip | None:
        """Gets the value every play must carry while a node is pending, else ``None``."""
        layout = self._layout
        return None if layout.pending == NONE else layout.pending_value

    @property
    def open_ends(self) -> tuple[NodeIndex, ...]:
        """Gets the nodes a tile may go onto now: the pending node alone, else every open end."""
        layout = self._layout
        if layout.pending != NONE:
            return (layout.pending,)
        return tuple(sorted(index for ends in layout.ends for index in ends))

    @property
    def playable_mask(self) -> int:
        """Gets a bit per pip value a tile must carry to be playable now."""
        return self._layout.playable_mask()

    def accepts(self, value: Pip, onto: NodeIndex) -> bool:
        """Tells whether a tile carrying ``value`` may be matched against node ``onto`` now."""
        return self._layout.accepts(value, onto)

    def children(self, index: NodeIndex) -> tuple[NodeIndex, ...]:
        """Gets the nodes attached to node ``index``, in the order they were placed (scans)."""
        return tuple(i for i, placed in enumerate(self._layout.nodes()) if placed.parent == index)

    def place(self, tile: Tile, onto: NodeIndex) -> Board:
        """Returns the board with ``tile`` matched against node ``onto``.

        A double becomes a pending chicken foot needing three toes (FOOT-1, FOOT-2); the pending
        node stops pending once full (OPEN-3, FOOT-3); any other tile offers its other half (PLAY-1).
        Raises :class:`IndexError` for a node the board does not have, and
        :class:`~chickenfoot.IllegalMoveError`, with the rule, for a tile that does not fit there.
        """
        layout = self._layout
        if not 0 <= onto < layout.size:
            raise IndexError(f"there is no node {onto}: the board has nodes 0 to {layout.size - 1}")
        refusal = misfit(self, tile, onto)
        if refusal is not None:
            raise refusal
        return board_of(layout.place(tile.index, onto))

    def __str__(self) -> str:
        """Writes the layout as a tree (see :func:`chickenfoot.render.render_text`)."""
        from .render import render_text  # late: render imports this module

        return render_text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        from .svg import render_svg  # late: svg imports this module

        return render_svg(self)


def misfit(board: Board, tile: Tile, onto: NodeIndex) -> IllegalMoveError | None:
    """Gets why ``tile`` cannot go onto node ``onto`` of ``board`` (the rule it breaks), or ``None`` if it fits.

    >>> board = Board.start(Tile(9, 9), arms=2).place(Tile(9, 5), onto=0)
    >>> print(misfit(board, Tile(5, 3), onto=1))
    the center 9-9 still needs 1 arm: play a tile carrying 9 onto node 0
    >>> board = board.place(Tile(9, 8), onto=0)
    >>> print(misfit(board, Tile(4, 3), onto=1))
    4-3 does not match node 1, which offers a 5
    >>> print(misfit(board, Tile(8, 3), onto=2))
    None
    """
    if not 0 <= onto < len(board):
        return IllegalMoveError(f"there is no node {onto}: the board has nodes 0 to {len(board) - 1}", "PLAY-1")
    pending = board.pending
    if pending is not None and onto != pending:
        node, missing = board.node(pending), board.missing
        if pending == 0:
            what = f"the center {node.tile} still needs {missing} arm{'s' * (missing > 1)}"
        else:
            what = f"a chicken foot on {node.tile} is pending ({missing} toe{'s' * (missing > 1)} to go)"
        reason = f"{what}: play a tile carrying {node.exposed} onto node {pending}"
        return IllegalMoveError(reason, "OPEN-2" if pending == 0 else "FOOT-2")
    offered = board.node(onto).exposed
    if not tile.mask >> offered & 1:
        return IllegalMoveError(f"{tile} does not match node {onto}, which offers a {offered}", "PLAY-1")
    if not board.accepts(offered, onto):
        full = board.node(onto).tile
        rule = "OPEN-3" if onto == 0 else "FOOT-3" if full.is_double else "PLAY-2"
        return IllegalMoveError(f"node {onto} ({full}) takes no more tiles: play onto an open end", rule)
    return None


_new = object.__new__
_init_board = Board.__attrs_init__


def board_of(layout: Layout) -> Board:
    """Gets the public board showing ``layout``."""
    board: Board = _new(Board)
    _init_board(board, layout)
    return board
