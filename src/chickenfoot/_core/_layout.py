"""The board as the core keeps it: where the next tile may go, the nodes placed, and the placing rules.

* where the next tile may go (:class:`Openings`) is, for each value, the nodes that take a tile
  carrying it now: every open end offering it, or, while a node pends (the center until it has
  its arms, a double until it has its toes), that node alone, the open ends waiting until it is
  full. The move generator and the checks read that table; :meth:`Openings.open_after` is the one
  statement of how a play changes it;
* a board on its own (:class:`Layout`) is openings and nodes; a round is openings with more
  besides (:class:`chickenfoot._core._round.Round`), and both place a tile with ``open_after``.

Written, like the rest of the core, so mypyc can compile it to C (see docs/performance.md).
"""

from __future__ import annotations

from typing import Any, Final

from ._codes import FOOT_TOES, HALVES, HIGH, MAX_PIP, NONE

Ends = tuple[tuple[int, ...], ...]
"""For each value, the non-pending open ends offering it."""

NO_ENDS: Final[Ends] = ((),) * (MAX_PIP + 1)
"""No open end offering any value."""


def pending_ends(value: int, node: int, values: int) -> Ends:
    """Gets the ends, for ``values`` values, while node ``node`` pends: it alone takes tiles, those carrying
    ``value`` (OPEN-2, FOOT-2)."""
    return (*NO_ENDS[:value], (node,), *NO_ENDS[value + 1 : values])


class Placed:
    """One node of a board on its own: the tile, the node it hangs from, the value it offers, and the node before it."""

    __slots__ = ("before", "exposed", "parent", "tile")

    def __init__(self, tile: int, parent: int, exposed: int, *, before: Placed | None) -> None:
        self.tile = tile
        self.parent = parent  # NONE for the center
        self.exposed = exposed  # a double's own value, else the half not matched to the parent
        self.before = before


class Openings:
    """Where the next tile may go: for each value, the nodes taking a tile that carries it; and the pending node.

    Every node with room for more than one tile is the pending node, and there is at most one
    (OPEN-2, FOOT-2): while there is one, it alone takes tiles, and the open ends wait
    (``waiting``). Every other open end has room for exactly one tile (PLAY-2), so the open ends
    are kept by the value they offer. ``size`` counts the nodes, so the next one placed is node
    ``size``. A :class:`Layout` and a round are openings with more besides.
    """

    __slots__ = ("ends", "ends_mask", "missing", "pending", "pending_value", "size", "waiting", "waiting_mask")

    # Set by whoever builds one (open_after, start_layout, the round's builders).
    size: int
    ends: Ends  # for each value, the nodes a tile carrying it may go onto now (PLAY-1, OPEN-2, FOOT-2)
    ends_mask: int  # a bit per value that plays now
    waiting: Ends  # while a node pends, the open ends by value, waiting for it to fill; else NO_ENDS
    waiting_mask: int  # a bit per value in waiting
    pending: int  # the node every play must go onto (OPEN-2, FOOT-2), or NONE
    pending_value: int  # the value it offers
    missing: int  # how many more tiles it needs

    def accepts(self, value: int, onto: int) -> bool:
        """Tells whether a tile carrying ``value`` may go onto node ``onto`` now (PLAY-1, PLAY-2, OPEN-2, FOOT-2)."""
        return onto in self.ends[value]

    def open_ends(self) -> tuple[Ends, int]:
        """Gets the open ends by the value they offer, the pending node left out, and a bit per value they offer."""
        if self.pending == NONE:
            return self.ends, self.ends_mask
        return self.waiting, self.waiting_mask

    def open_after(self, before: Openings, tile: int, onto: int) -> int:
        """Sets these openings to ``before``'s with ``tile`` placed onto node ``onto``, where it fits; gets its value.

        The value returned is the one the tile offers once placed. The new node is node
        ``before.size``.
        """
        high, low = HALVES[tile]
        size = before.size
        if before.pending != NONE:  # OPEN-2, FOOT-2: the pending node takes it; the open ends wait
            matched = before.pending_value
            opened = list(before.waiting)
            mask = before.waiting_mask
        else:
            matched = high if onto in before.ends[high] else low
            opened = list(before.ends)
            mask = before.ends_mask
            offering = opened[matched]
            at = 0
            while offering[at] != onto:  # offering.index(onto), which mypyc would call as a Python method
                at += 1
            rest = offering[:at] + offering[at + 1 :]  # PLAY-2: an open end takes one tile, so it closes
            opened[matched] = rest
            if not rest:
                mask &= ~(1 << matched)
        if high == low:  # FOOT-1: a double, laid crosswise, offers its own value and pends for three toes
            exposed = matched
            self.ends = pending_ends(matched, size, len(opened))  # FOOT-2: it alone takes tiles carrying its value
            self.ends_mask = 1 << matched
            self.waiting = tuple(opened)
            self.waiting_mask = mask
            self.pending = size
            self.pending_value = matched
            self.missing = FOOT_TOES
        else:
            exposed = low if high == matched else high  # PLAY-1: the half not matched opens an end
            opened[exposed] = opened[exposed] + (size,)
            mask |= 1 << exposed
            if before.missing > 1:  # the pending node takes more (OPEN-2, FOOT-2): the open ends still wait
                self.ends = before.ends
                self.ends_mask = before.ends_mask
                self.waiting = tuple(opened)
                self.waiting_mask = mask
                self.pending = before.pending
                self.pending_value = before.pending_value
                self.missing = before.missing - 1
            else:  # nothing pends, or it is full now (OPEN-3, FOOT-3): every open end takes a tile
                self.ends = tuple(opened)
                self.ends_mask = mask
                self.waiting = before.waiting if before.pending == NONE else NO_ENDS[: len(opened)]  # none wait
                self.waiting_mask = 0
                self.pending = NONE
                self.pending_value = NONE
                self.missing = 0
        self.size = size + 1
        return exposed

    def same_openings(self, other: Openings) -> bool:
        """Tells whether both offer the same ends, in the same order, and the same pending node."""
        return (
            self.size == other.size
            and self.ends_mask == other.ends_mask
            and self.pending == other.pending
            and self.missing == other.missing
            and self.ends == other.ends
            and self.waiting == other.waiting
        )


class Layout(Openings):
    """A board on its own: its openings and its nodes, the newest first (shared between layouts).

    What a :class:`~chickenfoot.Board` shows; a round's board is one of these on demand
    (``Round.layout``).
    """

    __slots__ = ("last", "nodes_view", "order_cache")

    last: Placed  # the newest node

    def __init__(self) -> None:
        """Builds a layout with only its caches set: whoever builds one sets its openings and ``last`` next, by name."""
        self.order_cache: list[Placed] | None = None  # the placed tiles in order, once asked for
        self.nodes_view: Any = None  # the public nodes, once asked for

    def nodes(self) -> list[Placed]:
        """Lists the placed tiles, the center first."""
        order = self.order_cache
        if order is None:
            order = []
            link: Placed | None = self.last
            while link is not None:
                order.append(link)
                link = link.before
            order.reverse()
            self.order_cache = order
        return order

    def node(self, index: int) -> Placed:
        """Gets the placed tile at node ``index`` (0 to size - 1), walking back from the newest if need be."""
        order = self.order_cache
        if order is not None:
            return order[index]
        link = self.last
        for _ in range(self.size - 1 - index):
            before = link.before
            assert before is not None  # index >= 0
            link = before
        return link

    def place(self, tile: int, onto: int) -> Layout:
        """Returns the layout with ``tile`` played onto node ``onto``, where it fits (:meth:`Openings.open_after`)."""
        after = Layout()
        exposed = after.open_after(self, tile, onto)
        after.last = Placed(tile, onto, exposed, before=self.last)
        return after

    def same_nodes(self, other: Layout) -> bool:
        """Tells whether both layouts hold the same tiles in the same places."""
        if self.size != other.size:
            return False
        mine: Placed | None = self.last
        theirs: Placed | None = other.last
        while mine is not None and theirs is not None and mine is not theirs:
            if mine.tile != theirs.tile or mine.parent != theirs.parent or mine.exposed != theirs.exposed:
                return False
            mine, theirs = mine.before, theirs.before
        return True

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Layout):
            return NotImplemented
        return self.same_openings(other) and self.same_nodes(other)

    def __hash__(self) -> int:
        return hash((self.size, self.last.tile, self.last.parent, self.ends, self.pending, self.missing))


def start_layout(center: int, arms: int) -> Layout:
    """Lays the center double as node 0, pending until it has ``arms`` arms (OPEN-1, OPEN-2)."""
    value = HIGH[center]
    layout = Layout()
    layout.last = Placed(center, NONE, value, before=None)
    layout.size = 1
    layout.ends = pending_ends(value, 0, len(NO_ENDS))  # OPEN-2: the center alone takes tiles until it has its arms
    layout.ends_mask = 1 << value
    layout.waiting = NO_ENDS
    layout.waiting_mask = 0
    layout.pending = 0
    layout.pending_value = value
    layout.missing = arms
    return layout
