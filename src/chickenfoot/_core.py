"""The rules of a round as plain typed data: the one place legal moves, moves and deals are computed.

Everything here is ints, tuples and small plain classes, written so mypyc can compile it to C
(see docs/performance.md); the same file runs unchanged as ordinary Python. The public objects
(:class:`~chickenfoot.GameState`, :class:`~chickenfoot.RoundState`, :class:`~chickenfoot.Board`)
are thin views over the classes below.

The representation, for a reader of the rules:

* a *tile* is its index in the set, ``high * (high + 1) // 2 + low`` (SET-1); :data:`HIGH`,
  :data:`LOW` (or :data:`HALVES`, both) and :data:`VALUES_MASK` read it back (a mask has one bit
  per pip value);
* a *move* is an int: a play is ``onto << 8 | tile``; :data:`DRAW` and :data:`PASS` take tile
  numbers no tile has;
* where the next tile may go (:class:`Openings`) is the open ends, kept by the value they offer,
  and the one node that may take several tiles (the center until it has its arms, a double until
  it has its toes);
* a board on its own (:class:`Layout`) is openings and nodes; a round (:class:`Round`) is one
  object per state: openings, hands, yard and turn, whose nodes are those of the board it started
  on and then one per play of its history (:data:`Log`); what its states share (rules, reserve,
  that board, the game) is one :class:`Setup`;
* the rules of play are :meth:`Round.legal` (through ``_generate``) and :meth:`Round.after`
  (through ``_after_play``, ``_after_draw`` and ``_after_pass``), with :meth:`Round.blocked`
  and :meth:`Round.scores` for the end of a round, and :class:`Deal` for its start;
* ``_generate`` lists each legal move as a table indexed by move code has it
  (:class:`PublicMoves`): the public move objects for the views, or the codes themselves;
* a round caches its legal moves (as codes, as public moves, each once asked for), and the
  public objects showing it (:class:`Views`), in ordinary fields.

Nothing in this module changes an object once it is handed out, except the caches (fields
named ``*_cache``, ``*_view`` or ``views``), which only ever go from ``None`` to their one value.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, Final, TypeAlias

NONE: Final = -1
"""No node, no seat, no tile."""

DRAW: Final = 255
"""The move code of a draw (DRAW-1): a play's code with a tile number no tile has."""

PASS: Final = 254
"""The move code of a pass (DRAW-2, DRAW-3, YARD-2), likewise."""

FOOT_TOES: Final = 3
"""How many toes a chicken foot takes (FOOT-1)."""

MAX_PIP: Final = 18
"""The largest set supported, double-18."""

HIGH: Final[tuple[int, ...]] = tuple(high for high in range(MAX_PIP + 1) for _ in range(high + 1))
"""The higher value of each tile."""

LOW: Final[tuple[int, ...]] = tuple(low for high in range(MAX_PIP + 1) for low in range(high + 1))
"""The lower value of each tile."""

HALVES: Final[tuple[tuple[int, int], ...]] = tuple(zip(HIGH, LOW, strict=True))
"""Both values of each tile, ``(high, low)``."""

VALUES_MASK: Final[tuple[int, ...]] = tuple((1 << HIGH[t]) | (1 << LOW[t]) for t in range(len(HIGH)))
"""A bit per pip value each tile carries."""


def tile_index(high: int, low: int) -> int:
    """Gets the index of the tile carrying ``high`` and ``low`` (``high >= low``)."""
    return high * (high + 1) // 2 + low


def play(tile: int, onto: int) -> int:
    """Gets the code of the move putting ``tile`` onto node ``onto``."""
    return onto << 8 | tile


def replaced(items: tuple[Any, ...], at: int, item: Any) -> tuple[Any, ...]:
    """Returns ``items`` with ``items[at]`` replaced by ``item``."""
    changed = list(items)
    changed[at] = item
    return tuple(changed)


def is_double(tile: int) -> bool:
    """Tells whether both halves of ``tile`` carry the same value."""
    return HIGH[tile] == LOW[tile]


class Settings:
    """The rules a round's play depends on, read once from a :class:`~chickenfoot.Rules`."""

    def __init__(
        self,
        public: Any,
        max_pip: int,
        must_play: bool,
        draw_until_playable: bool,
        unfillable_foot_ends_round: bool,
        double_out_penalty: int,
        tile_values: tuple[int, ...],
    ) -> None:
        self.public = public  # the chickenfoot.Rules, compared by the views
        self.max_pip = max_pip
        self.tiles = tile_index(max_pip, max_pip) + 1  # the set's size: tiles 0 to tiles - 1 (SET-1)
        self.rounds = max_pip + 1  # ROUND-1: a round per double, N-N down to 0-0
        self.must_play = must_play  # DRAW-2 (True) or DRAW-3 (False)
        self.draw_until_playable = draw_until_playable
        self.unfillable_foot_ends_round = unfillable_foot_ends_round
        self.double_out_penalty = double_out_penalty
        self.tile_values = tile_values  # SET-2, SCORE-2: what each tile scores left in hand


BOARD_ONLY: Final = Settings(None, MAX_PIP, True, False, False, 0, ())
"""The settings of a round that only places a tile on a board (:meth:`Layout.place`)."""


class Placed:
    """One node of a board on its own: the tile, the node it hangs from, the value it offers, and the node before it."""

    __slots__ = ("before", "exposed", "parent", "tile")

    def __init__(self, tile: int, parent: int, exposed: int, before: Placed | None) -> None:
        self.tile = tile
        self.parent = parent  # NONE for the center
        self.exposed = exposed  # a double's own value, else the half not matched to the parent
        self.before = before


class Openings:
    """Where the next tile may go: the open ends by the value they offer, and the pending node.

    Every node with room for more than one tile is the pending node, and there is at most one
    (OPEN-2, FOOT-2); every other open end has room for exactly one tile (PLAY-2), so the open
    ends are kept by the value they offer. ``size`` counts the nodes, so the next one placed is
    node ``size``. A :class:`Layout` and a :class:`Round` are openings with more besides.
    """

    __slots__ = ("ends", "ends_mask", "missing", "pending", "pending_value", "size")

    # Set by the subclasses' constructors.
    size: int
    ends: tuple[tuple[int, ...], ...]  # for each value, the non-pending open ends offering it
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


class Layout(Openings):
    """A board on its own: its openings and its nodes, the newest first (shared between layouts).

    What a :class:`~chickenfoot.Board` shows; a round's board is one of these on demand
    (:meth:`Round.layout`).
    """

    __slots__ = ("last", "nodes_view", "order_cache")

    def __init__(
        self,
        last: Placed,
        size: int,
        ends: tuple[tuple[int, ...], ...],
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
        """Returns the layout with ``tile`` played onto node ``onto``, where it fits.

        Played as a round plays it, by a lone player holding just that tile: the rules of
        placing are written once, in a round's play (:meth:`Round.after`).
        """
        lone = round_on(BOARD_ONLY, ((tile,),), (), self, 0, 0, NONE, False, NONE, None)
        return lone.after(play(tile, onto)).layout()

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


NO_ENDS: Final[tuple[tuple[int, ...], ...]] = ((),) * (MAX_PIP + 1)
"""No open end offering any value."""


def start_layout(center: int, arms: int) -> Layout:
    """Lays the center double as node 0, pending until it has ``arms`` arms (OPEN-1, OPEN-2)."""
    value = HIGH[center]
    return Layout(Placed(center, NONE, value, None), 1, NO_ENDS, 0, 0, value, arms)


class PublicMoves:
    """What each move code stands for, made by ``make`` a node at a time and then shared.

    The table has a row of 256 codes per node: the plays of every tile of the largest set onto
    that node (and, in node 0's row, the draw and the pass). The views hand out these shared
    objects (the public moves, :data:`chickenfoot._state.MOVES`), so :meth:`Round.after_public`
    finds a move by identity; :data:`CODES` is the table of the codes themselves, from which
    :meth:`Round.legal` lists them.
    """

    __slots__ = ("draw", "make", "nodes", "pass_", "table")

    def __init__(self, draw: Any, pass_: Any, make: Callable[[int], Any]) -> None:
        self.draw = draw
        self.pass_ = pass_
        self.make = make  # makes what a play's code stands for
        self.table: list[Any] = []  # what each code stands for, None where no move has it
        self.nodes = 0  # the nodes the table has rows for

    def onto_nodes(self, nodes: int) -> list[Any]:
        """Gets the table by code, with every play onto nodes 0 to ``nodes - 1``."""
        table = self.table
        for onto in range(self.nodes, nodes):
            row: list[Any] = [self.make(play(tile, onto)) for tile in range(tile_index(MAX_PIP, MAX_PIP) + 1)]
            row += [None] * (256 - len(row))
            if onto == 0:
                row[DRAW] = self.draw
                row[PASS] = self.pass_
            table += row
            self.nodes = onto + 1
        return table


CODES: Final = PublicMoves(DRAW, PASS, lambda code: code)
"""The table of the move codes themselves: what :meth:`Round.legal` lists."""


Log: TypeAlias = "tuple[int, int, int, Any] | None"
"""A round's history, newest first: ``(player, move, exposed, the turns before)``; ``None`` before the first.

``exposed`` is the value a play's tile offers once placed (:data:`NONE` for a draw or a pass,
and for the turns of a round built from its parts), so the board can be rebuilt from the
history. A persistent list: the rounds after each move share the turns before it (the public
``RoundState.history`` is read from it, oldest first). (The turns before are a ``Log`` too;
mypyc cannot compile that recursive alias, so the annotation says ``Any``.)
"""


class Views:
    """The public objects showing one round, each made on first use by the views (``None`` until then)."""

    __slots__ = ("board", "hands", "history", "layout", "state", "yard")

    def __init__(self) -> None:
        self.hands: Any = None
        self.yard: Any = None
        self.history: Any = None
        self.board: Any = None
        self.state: Any = None
        self.layout: Layout | None = None  # the board as a Layout (Round.layout)


class Setup:
    """What every state of one round shares: the rules, the reserve, the board it started on, and its game."""

    __slots__ = ("base", "game", "reserve", "settings")

    def __init__(self, settings: Settings, reserve: int, base: Layout, game: Game | None) -> None:
        self.settings = settings
        self.reserve = reserve  # tiles that may never be drawn (YARD-1)
        self.base = base  # the board the round was built on, whose nodes are the round's first ones
        self.game = game  # the game the round is played in, if any


class Round(Openings):
    """One round: its openings (inherited), its nodes, hands, yard, whose turn it is, and how the round stands.

    Tiles and seats are ints; ``drawn`` and ``went_out`` are :data:`NONE` when unset. What does
    not change from move to move (the rules, the reserve, the game) is the round's :class:`Setup`.
    The nodes are those of ``setup.base``, the board the round was built on (its center alone,
    once dealt), then one per play of the history (:attr:`log`) since. A round played in a game
    points to the :class:`Game` (the finished rounds and the totals) through its setup; two
    rounds are equal as positions, whatever their game and history.

    Every move makes one new round: it is the whole state, so a play allocates it, its history
    entry and its tuples, nothing else.
    """

    __slots__ = (
        "current",
        "drawn",
        "hands",
        "legal_cache",
        "legal_view",
        "log",
        "over",
        "setup",
        "views",
        "went_out",
        "yard",
    )

    def __init__(
        self,
        setup: Setup,
        hands: tuple[tuple[int, ...], ...],
        yard: tuple[int, ...],
        current: int,
        drawn: int,
        over: bool,
        went_out: int,
        log: Log,
        size: int,
        ends: tuple[tuple[int, ...], ...],
        ends_mask: int,
        pending: int,
        pending_value: int,
        missing: int,
    ) -> None:
        self.setup = setup
        self.hands = hands
        self.yard = yard  # yard[0] is drawn next (DRAW-1)
        self.current = current
        self.drawn = drawn  # the tile drawn this turn (DRAW-2, DRAW-3)
        self.over = over
        self.went_out = went_out
        self.log = log
        self.size = size
        self.ends = ends
        self.ends_mask = ends_mask
        self.pending = pending
        self.pending_value = pending_value
        self.missing = missing
        self.legal_cache: list[int] | None = None  # the legal move codes, once asked for
        self.legal_view: tuple[Any, ...] | None = None  # the legal public moves, once asked for
        self.views: Views | None = None

    def can_draw(self) -> bool:
        """Tells whether the yard holds more tiles than the reserve (DRAW-1, YARD-1)."""
        return len(self.yard) > self.setup.reserve

    def public(self) -> Views:
        """Gets the public objects showing this round made so far (the views fill it in)."""
        views = self.views
        if views is None:
            views = self.views = Views()
        return views

    # -- the board ------------------------------------------------------------------------

    def plays_since_base(self) -> list[tuple[int, int]]:
        """Lists the ``(move, exposed)`` of the plays that placed the nodes after ``base``'s, newest first."""
        plays: list[tuple[int, int]] = []
        link = self.log
        count = self.size - self.setup.base.size
        while len(plays) < count:
            assert link is not None  # every node after the base's was placed by a play
            _, move, exposed, link = link
            if move & 255 < PASS:
                plays.append((move, exposed))
        return plays

    def layout(self) -> Layout:
        """Gets the board as a :class:`Layout`: ``base``'s nodes, then one per play since (made once)."""
        views = self.public()
        layout = views.layout
        if layout is None:
            last = self.setup.base.last
            for move, exposed in reversed(self.plays_since_base()):
                last = Placed(move & 255, move >> 8, exposed, last)
            ends = self.ends + NO_ENDS[len(self.ends) :]  # a layout keeps every value's, as a Board shows them
            layout = Layout(last, self.size, ends, self.ends_mask, self.pending, self.pending_value, self.missing)
            views.layout = layout
        return layout

    def newest_tile(self) -> int:
        """Gets the tile placed last: the newest play's, or the base's newest if no play placed one since."""
        if self.size == self.setup.base.size:
            return self.setup.base.last.tile
        link = self.log
        while link is not None:
            _, move, _, link = link
            if move & 255 < PASS:
                return move & 255
        raise AssertionError("a node after the base's was placed by a play")

    def same_board(self, other: Round) -> bool:
        """Tells whether both rounds have the same board: openings, tiles and places."""
        if not self.same_openings(other):
            return False
        if self.setup.base is other.setup.base or self.setup.base == other.setup.base:
            return self.plays_since_base() == other.plays_since_base()
        return self.layout().same_nodes(other.layout())

    # -- legal moves -----------------------------------------------------------------------

    def legal(self) -> list[int]:
        """Lists the legal move codes in the engine's fixed order (computed once per round state; not to be changed)."""
        legal = self.legal_cache
        if legal is None:
            legal = self.legal_cache = self._generate(CODES.onto_nodes(self.size))
        return legal

    def history(self, moves: PublicMoves) -> tuple[tuple[int, Any], ...]:
        """Gets every ``(player, move)`` of the round, oldest first, as public moves."""
        views = self.public()
        turns: tuple[tuple[int, Any], ...] | None = views.history
        if turns is None:
            listed: list[tuple[int, Any]] = []
            table = moves.onto_nodes(self.size)
            link = self.log
            while link is not None:
                player, move, _, link = link
                listed.append((player, table[move]))
            listed.reverse()
            turns = views.history = tuple(listed)
        return turns

    def public_legal(self, moves: PublicMoves) -> tuple[Any, ...]:
        """Gets the legal moves as public objects (built once per round)."""
        view = self.legal_view
        if view is None:
            table = moves.table if moves.nodes >= self.size else moves.onto_nodes(self.size)  # onto_nodes, inlined
            view = self.legal_view = tuple(self._generate(table))
        return view

    def _plays_of(self, tile: int, table: list[Any]) -> list[Any]:
        """Lists the places ``tile`` fits now (PLAY-1, OPEN-2, FOOT-2), each as ``table`` has it."""
        plays: list[Any] = []
        if self.pending != NONE:
            if VALUES_MASK[tile] & 1 << self.pending_value:
                plays.append(table[play(tile, self.pending)])
            return plays
        for onto in self.ends[HIGH[tile]]:
            plays.append(table[play(tile, onto)])
        if not is_double(tile):
            for onto in self.ends[LOW[tile]]:
                plays.append(table[play(tile, onto)])
        return plays

    def _generate(self, table: list[Any]) -> list[Any]:
        """Lists the legal moves in the engine's fixed order, each as ``table`` (indexed by move code) has it."""
        if self.over:
            return []
        drawn = self.drawn
        if drawn != NONE:
            plays = self._plays_of(drawn, table)
            if plays:
                if not self.setup.settings.must_play:
                    plays.append(table[PASS])  # DRAW-3: may play it or pass
                return plays  # DRAW-2: must play it
            if self.setup.settings.draw_until_playable and self.can_draw():
                return [table[DRAW]]  # variant of DRAW-1: keep drawing
            return [table[PASS]]  # DRAW-2: the drawn tile cannot be played
        plays = []
        if self.pending != NONE:  # OPEN-2, FOOT-2: only the pending node takes tiles
            bit = 1 << self.pending_value
            base = self.pending << 8  # play(0, pending)
            for tile in self.hands[self.current]:
                if VALUES_MASK[tile] & bit:
                    plays.append(table[base | tile])
        else:
            mask = self.ends_mask
            ends = self.ends
            for tile in self.hands[self.current]:
                if VALUES_MASK[tile] & mask:  # PLAY-1: carries a value some open end offers
                    high, low = HALVES[tile]
                    for onto in ends[high]:
                        plays.append(table[onto << 8 | tile])  # play(tile, onto), spelled out in the hot loop
                    if low != high:
                        for onto in ends[low]:
                            plays.append(table[onto << 8 | tile])
        if plays:
            return plays  # DRAW-4: no draw while a play exists
        return [table[DRAW] if len(self.yard) > self.setup.reserve else table[PASS]]  # DRAW-1 (can_draw), YARD-2

    # -- how a round ends -------------------------------------------------------------------

    def blocked(self) -> bool:
        """END-2: nobody can draw (DRAW-1, YARD-1) and no hand holds a tile carrying a playable value."""
        if len(self.yard) > self.setup.reserve:
            return False
        playable = self.playable_mask()
        for hand in self.hands:
            for tile in hand:
                if VALUES_MASK[tile] & playable:
                    return False
        return True

    def foot_unfillable(self) -> bool:
        """Variant of END-2: the pending chicken foot needs more toes than tiles are left to fill it."""
        bit = 1 << self.pending_value
        available = sum(1 for hand in self.hands for tile in hand if VALUES_MASK[tile] & bit)
        yard = self.yard
        available += sum(1 for at in range(len(yard) - self.setup.reserve) if VALUES_MASK[yard[at]] & bit)
        return available < self.missing

    def ends_blocked(self) -> bool:
        """Tells whether the round has nothing left to do but end with nobody out (END-2 or the variant)."""
        if self.blocked():
            return True
        foot_pending = self.pending != NONE and self.pending != 0
        return self.setup.settings.unfillable_foot_ends_round and foot_pending and self.foot_unfillable()

    # -- moves ------------------------------------------------------------------------------

    def after_public(self, move: object, moves: PublicMoves) -> Round | None:
        """Returns the round after ``move`` if :meth:`public_legal` handed it out from ``moves``, else ``None``.

        A public play is read back from its fields, ``move.tile.index`` and ``move.onto``: cheaper
        than keeping the codes beside the moves, or looking them up.
        """
        view = self.legal_view
        if view is not None:
            for candidate in view:
                if candidate is not move:
                    continue
                if move is moves.draw:
                    return self._after_draw()
                if move is moves.pass_:
                    return self._after_pass()
                played: Any = move  # a public play (chickenfoot.Play)
                return self._after_play(played.tile.index, played.onto)
        return None

    def with_game(self, game: Game) -> Round:
        """Returns the same position played in ``game``."""
        setup = Setup(self.setup.settings, self.setup.reserve, self.setup.base, game)
        return self.moved(setup, self.hands, self.yard, self.current, self.drawn, self.over, self.went_out, self.log)

    def after(self, move: int) -> Round:
        """Returns the round after ``move``, which must be one of :meth:`legal`."""
        tile = move & 255
        if tile < PASS:
            return self._after_play(tile, move >> 8)
        if move == DRAW:
            return self._after_draw()
        return self._after_pass()

    def moved(
        self,
        setup: Setup,
        hands: tuple[tuple[int, ...], ...],
        yard: tuple[int, ...],
        current: int,
        drawn: int,
        over: bool,
        went_out: int,
        log: Log,
    ) -> Round:
        """Returns a round on the same board (the same nodes and openings), with the rest given."""
        return Round(
            setup,
            hands,
            yard,
            current,
            drawn,
            over,
            went_out,
            log,
            self.size,
            self.ends,
            self.ends_mask,
            self.pending,
            self.pending_value,
            self.missing,
        )

    def _after_play(self, tile: int, onto: int) -> Round:
        player = self.current
        hands = self.hands
        hand = hands[player]
        at = 0
        while hand[at] != tile:  # hand.index(tile), which mypyc would call as a Python method
            at += 1
        hand = hand[:at] + hand[at + 1 :]
        hands = replaced(hands, player, hand)
        # The board: the node the tile goes onto closes or fills (PLAY-2, OPEN-3, FOOT-3), and the
        # tile opens an end offering its other half (PLAY-1), or, a double, starts a chicken foot
        # pending until it has three toes (FOOT-1, FOOT-2).
        high, low = HALVES[tile]
        changed = list(self.ends)  # the open ends by value, as they will be
        mask = self.ends_mask
        pending = self.pending
        pending_value = self.pending_value
        missing = 0
        if pending != NONE:
            matched = pending_value
            missing = self.missing - 1
            if not missing:
                pending = NONE
                pending_value = NONE
        else:
            matched = high if onto in changed[high] else low
            offering = changed[matched]
            at = 0
            while offering[at] != onto:  # offering.index(onto), likewise
                at += 1
            rest = offering[:at] + offering[at + 1 :]  # PLAY-2: a non-pending end takes one tile, so it closes
            changed[matched] = rest
            if not rest:
                mask &= ~(1 << matched)
        if high == low:
            exposed = matched  # PLAY-1: a double offers its own value
            pending, pending_value, missing = self.size, matched, FOOT_TOES  # FOOT-1: laid crosswise
        else:
            exposed = low if high == matched else high  # PLAY-1: the half not matched
            changed[exposed] = changed[exposed] + (self.size,)
            mask |= 1 << exposed
        log = (player, onto << 8 | tile, exposed, self.log)
        over = not hand  # END-1: out on the last tile, even with a foot pending
        after = Round(
            self.setup,
            hands,
            self.yard,
            player if over else (player + 1) % len(hands),  # TURN-1
            NONE,
            over,
            player if over else NONE,
            log,
            self.size + 1,
            tuple(changed),
            mask,
            pending,
            pending_value,
            missing,
        )
        if over:
            return after
        # END-2, checked after every move (a play leaves the yard as it was: while it is open, the
        # round is not blocked); the variant only when a foot has just been laid.
        foot_laid = pending == self.size
        if (foot_laid and self.setup.settings.unfillable_foot_ends_round and after.foot_unfillable()) or (
            len(self.yard) <= self.setup.reserve and after.blocked()
        ):
            after.over = True  # still being built: nobody has seen it yet
        return after

    def _after_draw(self) -> Round:
        player = self.current
        tile = self.yard[0]
        hands = replaced(self.hands, player, self.hands[player] + (tile,))
        log = (player, DRAW, NONE, self.log)
        # DRAW-1: drawing does not end the turn.
        after = self.moved(self.setup, hands, self.yard[1:], player, tile, False, NONE, log)
        after.over = len(after.yard) <= self.setup.reserve and after.blocked()  # END-2, after every move (as below)
        return after

    def _after_pass(self) -> Round:
        player = self.current
        log = (player, PASS, NONE, self.log)
        after = self.moved(self.setup, self.hands, self.yard, (player + 1) % len(self.hands), NONE, False, NONE, log)
        # END-2, checked after every move; while the yard is open the round is not blocked, and
        # blocked() would say so too, but only after a call.
        after.over = len(self.yard) <= self.setup.reserve and after.blocked()
        return after

    # -- scoring ----------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """Scores the round: each player the value of the tiles left in hand (SCORE-1, SCORE-2).

        Going out on a double costs the rules' penalty, if any.
        """
        values = self.setup.settings.tile_values
        scores = [0] * len(self.hands)
        for seat, hand in enumerate(self.hands):
            for tile in hand:
                scores[seat] += values[tile]
        if self.went_out != NONE and is_double(self.newest_tile()):
            scores[self.went_out] += self.setup.settings.double_out_penalty
        return tuple(scores)

    # -- identity ---------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Round):
            return NotImplemented
        return (
            self.current == other.current
            and self.drawn == other.drawn
            and self.over == other.over
            and self.went_out == other.went_out
            and self.setup.reserve == other.setup.reserve
            and self.hands == other.hands
            and self.yard == other.yard
            and self.setup.settings.public == other.setup.settings.public
            and self.same_board(other)
        )

    def __hash__(self) -> int:
        return hash((self.hands, self.yard, self.current, self.drawn, self.over, self.size, self.ends, self.pending))


def round_on(
    settings: Settings,
    hands: tuple[tuple[int, ...], ...],
    yard: tuple[int, ...],
    layout: Layout,
    current: int,
    reserve: int,
    drawn: int,
    over: bool,
    went_out: int,
    log: Log,
    game: Game | None = None,
) -> Round:
    """Gets the round with ``layout`` as its board and the rest given (its history placed none of the nodes)."""
    return Round(
        Setup(settings, reserve, layout, game),
        hands,
        yard,
        current,
        drawn,
        over,
        went_out,
        log,
        layout.size,
        layout.ends[: settings.max_pip + 1],  # a round keeps only its set's values (less to copy per play)
        layout.ends_mask,
        layout.pending,
        layout.pending_value,
        layout.missing,
    )


# -- dealing (DEAL-2: a pure function of rules, players, seed and round) ---------------------


def round_rng(seed: int, round_index: int) -> random.Random:
    """Gets the random generator for one round's deal (DEAL-2).

    Seeded with an int derived by SHA-256, never ``hash()`` or the global generator, so a deal is
    the same on every machine and Python version.
    """
    digest = hashlib.sha256(f"chickenfoot/{seed}/{round_index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


BIT_LENGTH: Final[list[int]] = [n.bit_length() for n in range(256)]
"""``n.bit_length()`` for each ``n`` a shuffle draws below (a set has at most 190 tiles)."""


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffles ``items`` in place exactly as CPython 3.11's ``random.Random.shuffle`` does.

    Spelled out (Fisher-Yates over ``getrandbits`` with rejection) so a deal depends only on the
    Mersenne Twister stream, never on a library's shuffle (DEAL-2).
    """
    getrandbits: Callable[[int], int] = rng.getrandbits  # looked up once: a call per tile follows
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = BIT_LENGTH[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def shuffled_position(rng: random.Random, count: int, at: int) -> int:
    """Gets where the item at ``at`` of ``count`` items ends up once :func:`shuffle` shuffles them.

    Draws what the shuffle draws, and follows that one item instead of moving them all.
    """
    getrandbits: Callable[[int], int] = rng.getrandbits
    for i in range(count - 1, 0, -1):
        n = i + 1
        k = BIT_LENGTH[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        if at == i:
            at = j
        elif at == j:
            at = i
    return at


def starter_seat(round_index: int, position: int, players: int) -> int:
    """Gets the *trains* starter: players take shuffled tiles in turn from seat ``round_index mod players``,
    so the one who takes the double at ``position`` starts (DEAL-A1)."""
    return (round_index + position) % players


def setup_seat(round_index: int, players: int) -> int:
    """Gets the seat that draws first when nobody holds the center: ``round_index mod players`` (DEAL-B2)."""
    return round_index % players


def find_center(hands: list[list[int]], double: int, highest_double_fallback: bool) -> tuple[int, int]:
    """Finds the *cross* center and who places it: the holder of the round's double (DEAL-B2), or, with
    the highest-double fallback, of the next-highest double held (the highest below the round's
    double: a round never starts above its schedule); the holder is :data:`NONE` when players
    must draw for it."""
    for seat, hand in enumerate(hands):
        if double in hand:
            return double, seat
    best, holder = NONE, NONE
    if highest_double_fallback:
        for seat, hand in enumerate(hands):
            for tile in hand:
                if is_double(tile) and HIGH[tile] < HIGH[double] and (HIGH[tile], seat) > (best, holder):
                    best, holder = HIGH[tile], seat
    if holder == NONE:
        return double, NONE
    return tile_index(best, best), holder


class Deal:
    """How a round is dealt under the rules in force, for a given number of players."""

    def __init__(
        self,
        settings: Settings,
        players: int,
        trains: bool,
        hand_size: int,
        arms: int,
        reserve: int,
        highest_double_fallback: bool,
    ) -> None:
        self.settings = settings
        self.players = players
        self.trains = trains  # the trains deal (DEAL-A*), else the cross deal (DEAL-B*)
        self.hand_size = hand_size
        self.arms = arms
        self.reserve = reserve
        self.highest_double_fallback = highest_double_fallback

    def deal(self, seed: int, round_index: int, game: Game | None = None) -> Round:
        """Deals round ``round_index`` (0-based): hands, yard, center and first player (ROUND-1), played in ``game``."""
        rng = round_rng(seed, round_index)
        value = self.settings.max_pip - round_index  # ROUND-1: N-N down to 0-0
        double = tile_index(value, value)
        if self.trains:
            return self._deal_trains(round_index, double, rng, game)
        return self._deal_cross(round_index, double, rng, game)

    def _split(self, tiles: list[int]) -> tuple[list[list[int]], list[int]]:
        size = self.hand_size
        hands = [tiles[i * size : (i + 1) * size] for i in range(self.players)]
        return hands, tiles[self.players * size :]

    def _round(self, hands: list[list[int]], yard: list[int], center: int, first: int, game: Game | None) -> Round:
        frozen = tuple([tuple(hand) for hand in hands])
        layout = start_layout(center, self.arms)
        dealt = round_on(self.settings, frozen, tuple(yard), layout, first, self.reserve, NONE, False, NONE, None, game)
        dealt.over = dealt.ends_blocked()  # END-2: blocked as dealt (contrived options only), it ends at once
        return dealt

    def _deal_trains(self, round_index: int, double: int, rng: random.Random, game: Game | None) -> Round:
        # DEAL-A1: players take one shuffled tile each in turn from seat r mod n; whoever takes
        # the round's double is the starter. Only the double's position matters.
        count = self.settings.tiles
        starter = starter_seat(round_index, shuffled_position(rng, count, double), self.players)
        # DEAL-A2: the double is the center; the rest are shuffled again and dealt (DEAL-A3).
        rest = list(range(double)) + list(range(double + 1, count))
        shuffle(rng, rest)
        hands, yard = self._split(rest)
        return self._round(hands, yard, double, starter, game)  # DEAL-A4

    def _deal_cross(self, round_index: int, double: int, rng: random.Random, game: Game | None) -> Round:
        count = self.settings.tiles
        tiles = list(range(count))
        shuffle(rng, tiles)
        hands, yard = self._split(tiles)  # DEAL-B1
        center, holder = find_center(hands, double, self.highest_double_fallback)
        if holder == NONE:
            # DEAL-B2: players draw in turn from seat r mod n until one draws the double. This is
            # setup, not play, so the reserve does not stop it (the double may lie anywhere).
            seat = setup_seat(round_index, self.players)
            while yard[0] != double:
                hands[seat].append(yard.pop(0))
                seat = (seat + 1) % self.players
            yard.pop(0)
            holder = seat
        else:
            hands[holder].remove(center)
        return self._round(hands, yard, center, (holder + 1) % self.players, game)  # DEAL-B3


class Game:
    """A whole game but the round in play: the rules, the seed, and what the finished rounds left.

    The round in play points here (:attr:`Round.game`); the moves of a round share one game.
    """

    __slots__ = ("deal", "results", "round_index", "seed", "totals", "winners")

    def __init__(
        self,
        deal: Deal,
        seed: int,
        round_index: int,
        totals: tuple[int, ...],
        results: tuple[Any, ...],
        winners: tuple[int, ...],
    ) -> None:
        self.deal = deal
        self.seed = seed
        self.round_index = round_index
        self.totals = totals
        self.results = results  # the public RoundResult of each finished round
        self.winners = winners

    def is_over(self) -> bool:
        """Tells whether every round has been played (ROUND-1)."""
        return len(self.results) == self.deal.settings.rounds

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.seed == other.seed
            and self.round_index == other.round_index
            and self.deal.players == other.deal.players
            and self.totals == other.totals
            and self.winners == other.winners
            and self.results == other.results
        )

    def __hash__(self) -> int:
        return hash((self.seed, self.round_index, self.totals))
