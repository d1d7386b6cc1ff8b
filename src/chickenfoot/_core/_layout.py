"""The board as the core keeps it: where the next tile may go, the nodes placed, and the placing rule.

* where the next tile may go (:class:`Openings`) is the open ends, kept by the value they offer,
  and the one node that may take several tiles (the center until it has its arms, a double until
  it has its toes);
* a board on its own (:class:`Layout`) is openings and nodes; a round is openings with more
  besides (:class:`chickenfoot._round.Round`);
* :func:`place_tile` is the one statement of what a play opens and closes (PLAY-1, PLAY-2,
  OPEN-3, FOOT-1 to FOOT-3), which a round's play and a board on its own both use.

Written, like the rest of the core, so mypyc can compile it to C (see docs/performance.md).
"""

from __future__ import annotations

from typing import Any, Final

from ._codes import FOOT_TOES, HALVES, HIGH, MAX_PIP, NONE

Ends = tuple[tuple[int, ...], ...]
"""For each value, the non-pending open ends offering it."""

NO_ENDS: Final[Ends] = ((),) * (MAX_PIP + 1)
"""No open end offering any value."""


class Placed:
    """One node of a board on its own: the tile, the node it hangs from, the value it offers, and the node before it."""

    __slots__ = ("before", "exposed", "parent", "tile")

    def __init__(self, tile: int, parent: int, exposed: int, *, before: Placed | None) -> None:
        self.tile = tile
        self.parent = parent  # NONE for the center
        self.exposed = exposed  # a double's own value, else the half not matched to the parent
        self.before = before


class Openings:
    """Where the next tile may go: the open ends by the value they offer, and the pending node.

    Every node with room for more than one tile is the pending node, and there is at most one
    (OPEN-2, FOOT-2); every other open end has room for exactly one tile (PLAY-2), so the open
    ends are kept by the value they offer. ``size`` counts the nodes, so the next one placed is
    node ``size``. A :class:`Layout` and a round are openings with more besides.
    """

    __slots__ = ("ends", "ends_mask", "missing", "pending", "pending_value", "size")

    # Set by the subclasses' constructors.
    size: int
    ends: Ends
    ends_mask: int  # a bit per value in ends
    pending: int  # the node every play must go onto (OPEN-2, FOOT-2), or NONE
    pending_value: int  # the value it offers
    missing: int  # how many more tiles it needs

    def accepts(self, value: int, onto: int) -> bool:
        """Tells whether a tile carrying ``value`` may go onto node ``onto`` now (PLAY-1, PLAY-2, OPEN-2, FOOT-2)."""
        if self.pending != NONE:
            return onto == self.pending and self.pending_value == value
        return onto in self.ends[value]

    def playable_mask(self) -> int:
        """Gets a bit per value a tile must carry to be playable now (PLAY-1, OPEN-2, FOOT-2)."""
        if self.pending != NONE:
            return 1 << self.pending_value
        return self.ends_mask

    def same_openings(self, other: Openings) -> bool:
        """Tells whether both offer the same open ends, in the same order, and the same pending node."""
        return (
            self.size == other.size
            and self.ends_mask == other.ends_mask
            and self.pending == other.pending
            and self.missing == other.missing
            and self.ends == other.ends
        )


def place_tile(openings: Openings, tile: int, onto: int) -> tuple[int, Ends, int, int, int, int]:
    """Places ``tile`` onto node ``onto``, where it fits: gets the value it offers and the openings after.

    Returns ``(exposed, ends, ends_mask, pending, pending_value, missing)``. The node the tile
    goes onto closes or fills (PLAY-2, OPEN-3, FOOT-3), and the tile opens an end offering its
    other half (PLAY-1), or, a double, starts a chicken foot pending until it has three toes
    (FOOT-1, FOOT-2). The new node is node ``openings.size``.
    """
    high, low = HALVES[tile]
    changed = list(openings.ends)  # the open ends by value, as they will be
    mask = openings.ends_mask
    pending = openings.pending
    pending_value = openings.pending_value
    missing = 0
    if pending != NONE:
        matched = pending_value
        missing = openings.missing - 1
        if not missing:
            pending = NONE
            pending_value = NONE
    else:
        matched = high if onto in changed[high] else low
        offering = changed[matched]
        at = 0
        while offering[at] != onto:  # offering.index(onto), which mypyc would call as a Python method
            at += 1
        rest = offering[:at] + offering[at + 1 :]  # PLAY-2: a non-pending end takes one tile, so it closes
        changed[matched] = rest
        if not rest:
            mask &= ~(1 << matched)
    if high == low:
        exposed = matched  # PLAY-1: a double offers its own value
        pending, pending_value, missing = openings.size, matched, FOOT_TOES  # FOOT-1: laid crosswise
    else:
        exposed = low if high == matched else high  # PLAY-1: the half not matched
        changed[exposed] = changed[exposed] + (openings.size,)
        mask |= 1 << exposed
    return exposed, tuple(changed), mask, pending, pending_value, missing


class Layout(Openings):
    """A board on its own: its openings and its nodes, the newest first (shared between layouts).

    What a :class:`~chickenfoot.Board` shows; a round's board is one of these on demand
    (``Round.layout``).
    """

    __slots__ = ("last", "nodes_view", "order_cache")

    def __init__(
        self,
        *,
        last: Placed,
        size: int,
        ends: Ends,
        ends_mask: int,
        pending: int,
        pending_value: int,
        missing: int,
    ) -> None:
        self.last = last
        self.size = size
        self.ends = ends
        self.ends_mask = ends_mask
        self.pending = pending
        self.pending_value = pending_value
        self.missing = missing
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
        """Returns the layout with ``tile`` played onto node ``onto``, where it fits (by :func:`place_tile`)."""
        exposed, ends, mask, pending, pending_value, missing = place_tile(self, tile, onto)
        return Layout(
            last=Placed(tile, onto, exposed, before=self.last),
            size=self.size + 1,
            ends=ends,
            ends_mask=mask,
            pending=pending,
            pending_value=pending_value,
            missing=missing,
        )

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
    return Layout(
        last=Placed(center, NONE, value, before=None),
        size=1,
        ends=NO_ENDS,
        ends_mask=0,
        pending=0,
        pending_value=value,
        missing=arms,
    )
