"""The layout: a tree of placed tiles, its open ends and its pending node, as a view over the core.

The board never rescans itself. Two facts keep that cheap:

* every node with room for more than one tile (the center while it lacks arms, a double while
  it lacks toes) is the pending node, and there is at most one (OPEN-2, FOOT-2);
* so every other open end has room for exactly one tile (PLAY-2), and the board can index
  those ends by the value they offer.

The rules of placing live in :meth:`chickenfoot._core._round.Openings.open_after` (a board places
a tile as a round does); a :class:`Board` holds a core :class:`~chickenfoot._core._round.Layout` and builds its
:class:`Node` objects only when someone asks for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from .._core import FOOT_TOES as _FOOT_TOES, NONE, Layout, Placed, start_layout
from . import _display
from ._checks import misfit
from ._errors import InvalidPositionError
from ._fields import read_from_core
from ._moves import NodeIndex
from ._rules import MAX_ARMS
from ._tiles import TILES, Pip, Tile

__all__ = ["FOOT_TOES", "Board", "Node", "board_of", "placed"]

FOOT_TOES = _FOOT_TOES  # FOOT-1


def _check_node(node: Node, attribute: attrs.Attribute[Any], exposed: Any) -> None:
    if type(node.tile) is not Tile:
        raise TypeError(f"a Node's tile is a chickenfoot.Tile, got {node.tile!r:.40}")
    if node.parent is not None and type(node.parent) is not int:
        raise TypeError(f"a Node's parent is a node index (an int) or None, got {node.parent!r:.40}")
    if type(exposed) is not int:
        raise TypeError(f"a Node's exposed value is a pip (an int), got {exposed!r:.40}")


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
    exposed: Pip = attrs.field(validator=_check_node)
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


class _ShowsLayout:
    """Holds the core layout a :class:`Board` shows (set by its constructor, or by :func:`board_of`)."""

    __slots__ = ("_layout",)

    _layout: Layout


@attrs.frozen(init=False, eq=False, slots=False)
class Board(_ShowsLayout):
    """Holds the layout of a round: the placed tiles and the center's arms, from which the open ends follow.

    Build one from its nodes, in placement order, and the arm count: each node is checked as
    the placement rules place it (PLAY-1, PLAY-2, OPEN-2, OPEN-3, FOOT-1 to FOOT-3), and
    everything else is derived. :meth:`start` and :meth:`place` build one a tile at a time.
    An attrs class: ``attrs.evolve(board, arms=5)`` builds the board with that change, checked
    the same way.

    >>> board = Board.start(Tile(9, 9), arms=4)
    >>> board.pending, board.pending_value, board.open_ends
    (0, 9, (0,))
    >>> board = board.place(Tile(9, 5), onto=0)
    >>> [str(node.tile) for node in board.nodes], board.missing
    (['9-9', '9-5'], 3)
    >>> Board(board.nodes, arms=1).pending is None   # a one-arm center is full
    True
    """

    __slots__ = ()

    nodes: tuple[Node, ...]
    """Every placed tile; node 0 is the center, the rest in the order they were placed."""
    arms: int
    """How many arms the center takes (OPEN-1), 1 to 8."""

    def __init__(self, nodes: Iterable[Node], arms: int) -> None:
        """Builds a board from its nodes, each placed in turn, and the center's arm count.

        Raises :class:`~chickenfoot.InvalidPositionError` naming the first node the placement
        rules refuse, and :class:`TypeError` for anything but :class:`Node` objects and an int.
        """
        _set_layout(self, _layout_of(nodes, arms))

    # A board's nodes and arms fix its openings, and its openings and nodes fix its arms, so
    # comparing the core layouts (openings and nodes, as ints) is comparing the fields.
    def __eq__(self, other: object) -> bool:
        if type(other) is not Board:
            return NotImplemented
        return self._layout == other._layout

    def __hash__(self) -> int:
        return hash(self._layout)

    @property
    def ends_by_value(self) -> tuple[tuple[NodeIndex, ...], ...]:
        """Gets the non-pending open ends offering each pip value, by value (each has room for one tile)."""
        return self._layout.open_ends()[0]

    @property
    def ends_mask(self) -> int:
        """Gets a bit per pip value that some non-pending open end offers."""
        return self._layout.open_ends()[1]

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
        """Gets node ``index`` (like ``nodes[index]``, and like it raises :class:`IndexError`).

        >>> Board.start(Tile(9, 9), arms=4).node(0)
        Node(tile=Tile(9, 9), parent=None, exposed=9)
        """
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a node index is an int, got {index!r:.40}")
        size = self._layout.size
        if not -size <= index < size:
            raise IndexError(f"there is no node {index}: the board has nodes 0 to {size - 1}")
        return _node(self._layout.node(index + size if index < 0 else index))

    def __len__(self) -> int:
        """Counts the placed tiles, ``len(board.nodes)``."""
        return self._layout.size

    @classmethod
    def start(cls, center: Tile, arms: int) -> Board:
        """Lays ``center`` as node 0, pending until it has ``arms`` arms (OPEN-1, OPEN-2).

        >>> Board.start(Tile(9, 5), arms=4)
        Traceback (most recent call last):
        ...
        chickenfoot.InvalidPositionError: the center 9-5 is not a double
        """
        if type(center) is not Tile:
            raise TypeError(f"the center is a chickenfoot.Tile, like Tile(9, 9); got {center!r:.40}")
        return placed(center, (), arms)

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
        return tuple(sorted({index for ends in self._layout.ends for index in ends}))

    @property
    def playable_mask(self) -> int:
        """Gets a bit per pip value a tile must carry to be playable now."""
        return self._layout.ends_mask

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
        Raises :class:`~chickenfoot.IllegalMoveError`, with the rule, for a tile that does not fit
        there or a node the board does not have, as :func:`~chickenfoot.apply` does.
        """
        if type(tile) is not Tile:
            raise TypeError(f"place takes a chickenfoot.Tile, like Tile(9, 5); got {tile!r:.40}")
        if isinstance(onto, bool) or not isinstance(onto, int):
            raise TypeError(f"a node index is an int, got {onto!r:.40}")
        refusal = misfit(self._layout, tile, onto)
        if refusal is not None:
            raise refusal
        return board_of(self._layout.place(tile.index, onto))

    def __str__(self) -> str:
        """Writes the layout as a tree (see :func:`chickenfoot.render.render_text`)."""
        return _display.text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        return _display.svg(self)


def _nodes(board: Board) -> tuple[Node, ...]:
    layout = board._layout
    nodes: tuple[Node, ...] | None = layout.nodes_view
    if nodes is None:
        nodes = layout.nodes_view = tuple([_node(placed) for placed in layout.nodes()])
    return nodes


def _arms(board: Board) -> int:
    layout = board._layout  # the arms placed, and those the pending center still needs
    placed = sum(1 for node in layout.nodes() if node.parent == 0)
    return placed + layout.missing if layout.pending == 0 else placed


read_from_core(Board, nodes=_nodes, arms=_arms)

_new = object.__new__
_set_layout: Callable[[object, Layout], None] = vars(_ShowsLayout)["_layout"].__set__  # the slot's descriptor


def board_of(layout: Layout) -> Board:
    """Gets the public board showing ``layout``."""
    board: Board = _new(Board)
    _set_layout(board, layout)
    return board


def _layout_of(nodes: Iterable[Node], arms: int) -> Layout:
    """Places ``nodes`` in turn on a center taking ``arms`` arms, refusing the first the placement rules refuse."""
    if isinstance(nodes, (str, bytes)):
        raise TypeError("a board's nodes are Node objects, not text: read a position with parse_position")
    given = tuple(nodes)
    for node in given:
        if type(node) is not Node:
            raise TypeError(f"a board's nodes are chickenfoot.Node objects, got {node!r:.40}")
    if not given:
        raise InvalidPositionError("a board holds at least its center")
    center = given[0]
    if center.parent is not None or center.exposed != center.tile.high:
        raise InvalidPositionError(f"the center {center.tile} has no parent and offers {center.tile.high}")
    layout = placed(center.tile, [(node.tile, node.parent) for node in given[1:]], arms)._layout
    for number, (node, made) in enumerate(zip(given, layout.nodes(), strict=True)):
        if made.exposed != node.exposed:
            raise InvalidPositionError(
                f"board node {number}: {node.tile} on node {node.parent} offers {made.exposed}, not {node.exposed}"
            )
    return layout


def placed(center: Tile, placements: Sequence[tuple[Tile, int | None]], arms: int) -> Board:
    """Lays ``center`` and places each ``(tile, parent)`` in turn, refusing the first the placement rules refuse.

    Raises :class:`~chickenfoot.InvalidPositionError` naming the node and the rule; the readers
    of positions and JSON build their boards here too.
    """
    if isinstance(arms, bool) or not isinstance(arms, int):
        raise TypeError(f"arms is an int, the arms the center takes; got {arms!r:.40}")
    if not 1 <= arms <= MAX_ARMS:
        raise InvalidPositionError(f"a center takes 1 to {MAX_ARMS} arms (OPEN-1), got {arms}")
    if not center.is_double:
        raise InvalidPositionError(f"the center {center} is not a double")
    board = board_of(start_layout(center.index, arms))
    seen = {center: 0}
    for number, (tile, parent) in enumerate(placements, start=1):
        if tile in seen:
            raise InvalidPositionError(
                f"board node {number}: {tile} is node {seen[tile]} already; each tile is in one place"
            )
        seen[tile] = number
        if parent is None or not 0 <= parent < number:
            raise InvalidPositionError(f"board node {number} ({tile}) must name an earlier node as its parent")
        refusal = misfit(board._layout, tile, parent)
        if refusal is not None:
            raise InvalidPositionError(f"board node {number}: {refusal} ({refusal.rule})")
        board = board_of(board._layout.place(tile.index, parent))
    return board
