"""The layout: a tree of placed tiles that keeps its open ends and pending node up to date.

The board never rescans itself. Two facts keep that cheap:

* every node with room for more than one tile (the center while it lacks arms, a double while
  it lacks toes) is the pending node, and there is at most one (OPEN-2, FOOT-2);
* so every other open end has room for exactly one tile (PLAY-2), and the board can index
  those ends by the value they offer.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain
from typing import Any

import attrs

from ._build import builder, new
from ._moves import NodeIndex
from ._tiles import MAX_SUPPORTED_PIP, Pip, Tile

__all__ = ["Board", "Node", "FOOT_TOES"]

FOOT_TOES = 3  # FOOT-1

# The nodes are kept as full chunks of 16 (shared between boards) and a tail of fewer than 16:
# node i is in chunk i >> 4 at i & 15, or in the tail. Placing a tile copies the tail (and, once
# in 16 plays, the short tuple of chunks), not every node, so a board kept alive costs memory
# for what the move changed. The split depends only on the count, so equal node sequences have
# equal chunks and tails, and comparing those compares nodes.
_SHIFT = 4
_CHUNK = 1 << _SHIFT
_LOW = _CHUNK - 1


@attrs.frozen(weakref_slot=False)  # no weakref slot: see _build
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


@attrs.frozen(weakref_slot=False, init=False, repr=False)  # no weakref slot: see _build
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

    _head: tuple[tuple[Node, ...], ...]
    _tail: tuple[Node, ...]
    # The nodes, in full chunks and a tail; read :attr:`nodes`.
    ends_by_value: tuple[tuple[NodeIndex, ...], ...]
    """For each pip value, the non-pending open ends offering it (each has room for one tile)."""
    ends_mask: int
    """A bit per pip value that some non-pending open end offers."""
    pending: NodeIndex | None
    """The node every play must go onto (OPEN-2, FOOT-2), or ``None``."""
    missing: int
    """How many more tiles the pending node needs (0 when nothing is pending)."""
    _size: int = attrs.field(eq=False)
    _nodes: tuple[Node, ...] | None = attrs.field(eq=False)
    # len(nodes), and the nodes tuple once someone asked for it.

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
        setattr_ = object.__setattr__
        full = len(nodes) & ~_LOW
        setattr_(self, "_head", tuple(nodes[i : i + _CHUNK] for i in range(0, full, _CHUNK)))
        setattr_(self, "_tail", nodes[full:])
        setattr_(self, "ends_by_value", ends_by_value)
        setattr_(self, "ends_mask", ends_mask)
        setattr_(self, "pending", pending)
        setattr_(self, "missing", missing)
        setattr_(self, "_size", len(nodes))
        setattr_(self, "_nodes", nodes)

    @property
    def nodes(self) -> tuple[Node, ...]:
        """Gets every placed tile; node 0 is the center, the rest in the order they were placed."""
        nodes = self._nodes
        if nodes is None:
            nodes = (*chain.from_iterable(self._head), *self._tail)
            object.__setattr__(self, "_nodes", nodes)
        return nodes

    def node(self, index: NodeIndex) -> Node:
        """Gets node ``index`` (like ``nodes[index]``, without building the tuple).

        >>> Board.start(Tile(9, 9), arms=4).node(0)
        Node(tile=Tile(9, 9), parent=None, exposed=9)
        """
        if not 0 <= index < self._size:
            if -self._size <= index < 0:
                index += self._size
            else:
                raise IndexError(f"there is no node {index}: the board has nodes 0 to {self._size - 1}")
        chunk = index >> _SHIFT
        return (self._head[chunk] if chunk < len(self._head) else self._tail)[index & _LOW]

    def __len__(self) -> int:
        """Counts the placed tiles, ``len(board.nodes)``."""
        return self._size

    def __repr__(self) -> str:
        return (
            f"Board(nodes={self.nodes!r}, ends_by_value={self.ends_by_value!r}, ends_mask={self.ends_mask!r}, "
            f"pending={self.pending!r}, missing={self.missing!r})"
        )

    @classmethod
    def start(cls, center: Tile, arms: int) -> Board:
        """Lays ``center`` as node 0, pending until it has ``arms`` arms (OPEN-1, OPEN-2)."""
        empty: tuple[NodeIndex, ...] = ()
        return cls(
            nodes=(Node(center, None, center.high),),
            ends_by_value=(empty,) * (MAX_SUPPORTED_PIP + 1),
            ends_mask=0,
            pending=0,
            missing=arms,
        )

    @property
    def center(self) -> Tile:
        """Gets the round's starting double."""
        return self.node(0).tile

    @property
    def pending_value(self) -> Pip | None:
        """Gets the value every play must carry while a node is pending, else ``None``."""
        return None if self.pending is None else self.node(self.pending).exposed

    @property
    def open_ends(self) -> tuple[NodeIndex, ...]:
        """Gets the nodes a tile may go onto now: the pending node alone, else every open end."""
        if self.pending is not None:
            return (self.pending,)
        return tuple(sorted(index for ends in self.ends_by_value for index in ends))

    @property
    def playable_mask(self) -> int:
        """Gets a bit per pip value a tile must carry to be playable now."""
        if self.pending is not None:
            return 1 << self.node(self.pending).exposed
        return self.ends_mask

    def accepts(self, value: Pip, onto: NodeIndex) -> bool:
        """Tells whether a tile carrying ``value`` may be matched against node ``onto`` now."""
        if self.pending is not None:
            return onto == self.pending and self.node(onto).exposed == value
        return onto in self.ends_by_value[value]

    def children(self, index: NodeIndex) -> tuple[NodeIndex, ...]:
        """Gets the nodes attached to node ``index``, in the order they were placed (scans)."""
        return tuple(i for i, node in enumerate(self.nodes) if node.parent == index)

    def place(self, tile: Tile, onto: NodeIndex) -> Board:
        """Returns the board with ``tile`` matched against node ``onto``; the caller checked it fits.

        A double becomes a pending chicken foot needing three toes (FOOT-1, FOOT-2); the pending
        node stops pending once full (OPEN-3, FOOT-3); any other tile offers its other half (PLAY-1).
        """
        head, tail = self._head, self._tail
        index = self._size
        if not 0 <= onto < index:
            raise IndexError(f"there is no node {onto}: the board has nodes 0 to {index - 1}")
        chunk = onto >> _SHIFT
        matched = (head[chunk] if chunk < len(head) else tail)[onto & _LOW].exposed
        ends = list(self.ends_by_value)
        mask = self.ends_mask
        pending = self.pending
        if pending is not None:
            missing = self.missing - 1
            if not missing:
                pending = None
        else:
            # PLAY-2: a non-pending end takes one tile, so it closes.
            offering = ends[matched]
            if onto in offering:
                if len(offering) == 1:
                    ends[matched] = ()
                    mask &= ~(1 << matched)
                else:
                    at = offering.index(onto)
                    ends[matched] = offering[:at] + offering[at + 1 :]
            missing = 0
        if tile.high == tile.low:
            exposed = matched
            pending, missing = index, FOOT_TOES  # FOOT-1: laid crosswise, takes three toes
        else:
            exposed = tile.low if tile.high == matched else tile.high
            ends[exposed] += (index,)
            mask |= 1 << exposed
        # Nodes are values, so equal ones are shared between boards (and the playouts that keep them).
        key = (onto << 16) | (tile.index << 5) | exposed
        node = _NODES.get(key)
        if node is None:
            node = _NODES[key] = Node(tile, onto, exposed)
        tail = (*tail, node)
        if len(tail) == _CHUNK:
            head, tail = (*head, tail), ()
        if _BoardBuilder is None:  # pragma: no cover - see _build
            fields: dict[str, object] = {"_head": head, "_tail": tail, "ends_by_value": tuple(ends), "ends_mask": mask}
            fields.update(pending=pending, missing=missing, _size=index + 1, _nodes=None)
            made: Board = new(Board)
            for name, value in fields.items():
                object.__setattr__(made, name, value)
            return made
        built = new(_BoardBuilder)
        built._head = head
        built._tail = tail
        built.ends_by_value = tuple(ends)
        built.ends_mask = mask
        built.pending = pending
        built.missing = missing
        built._size = index + 1
        built._nodes = None
        built.__class__ = Board
        board: Board = built
        return board

    def __str__(self) -> str:
        """Writes the layout as a tree (see :func:`chickenfoot.render.render_text`)."""
        from .render import render_text  # late: render imports this module

        return render_text(self)

    def _repr_svg_(self) -> str:
        """Draws the layout for Jupyter (see :func:`chickenfoot.svg.render_svg`)."""
        from .svg import render_svg  # late: svg imports this module

        return render_svg(self)


_NODES: dict[int, Node] = {}
_BoardBuilder: Any = builder(Board)
