"""A round of the game as plain ints, from its deal to its score: the one place the rules of play are computed.

Everything here is ints, tuples and small plain classes, written so mypyc can compile it to C
(see docs/performance.md); the same file runs unchanged as ordinary Python. Tiles and move
codes are :mod:`._codes`' ints. The public :class:`~chickenfoot.RoundState` and
:class:`~chickenfoot.GameState` are thin views over :class:`Round`. In the order of the file:

* **the board**: :class:`Openings` says where the next tile may go: for each value, the nodes
  that take a tile carrying it now (every open end offering it, or, while a node pends, that node
  alone). :meth:`Openings.open_after` is the one statement of how a play changes that (PLAY-1,
  PLAY-2, OPEN-2, OPEN-3, FOOT-1 to FOOT-3); a board on its own is a :class:`Layout`;
* **the end of a round with nobody out**: :func:`can_draw`, :func:`blocked` (END-2) and
  :func:`foot_unfillable` (its variant), read together by :func:`nothing_to_do` after every move;
* **the round**: :class:`Round` is one object per state (openings, hands, yard, turn), whose
  nodes are those of the board it started on and then one per play of its history
  (:data:`Log`); :meth:`Round.legal` lists the legal moves, :meth:`Round.after` makes one, and
  :meth:`Round.scores` scores the round. What its states share is one :class:`Setup`;
* **the deal**: :class:`Deal` deals a round (DEAL-*) as a pure function of the seed and the
  round's number, with a shuffle spelled out so it depends only on the Mersenne Twister stream;
* **the game**: :class:`Game` is what a game holds beside the round in play, and
  :meth:`Game.close` ends a round: scored (SCORE-1), added up (GAME-1), and the next dealt
  (ROUND-1), or the winners decided (GAME-1, TIE-1, TIE-2).

A round caches its legal moves and the public objects showing it (:class:`Views`) in ordinary
fields; nothing else in this module changes an object once it is handed out: whether a round is
over is decided before it is built.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, Final, TypeAlias

from ._codes import (
    CODES,
    DOUBLES,
    DRAW,
    FOOT_TOES,
    HALVES,
    HIGH,
    IS_DOUBLE,
    MAX_PIP,
    NONE,
    PASS,
    VALUES_MASK,
    PublicMoves,
    code_onto,
    code_tile,
    is_play,
)

# -- the board ------------------------------------------------------------------------------

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


def replaced(items: tuple[Any, ...], at: int, item: Any) -> tuple[Any, ...]:
    """Returns ``items`` with ``items[at]`` replaced by ``item``."""
    changed = list(items)
    changed[at] = item
    return tuple(changed)


# -- the rules a round is played under ----------------------------------------------------


class Settings:
    """The rules a round's play depends on, read once from a :class:`~chickenfoot.Rules`."""

    def __init__(
        self,
        public: Any,
        *,
        max_pip: int,
        must_play: bool,
        draw_until_playable: bool,
        unfillable_foot_ends_round: bool,
        double_out_penalty: int,
        tile_values: tuple[int, ...],
        share_ties: bool,
    ) -> None:
        self.public = public  # the chickenfoot.Rules, compared by the views
        self.max_pip = max_pip
        self.tiles = DOUBLES[max_pip] + 1  # the set's size: tiles 0 to tiles - 1 (SET-1)
        self.rounds = max_pip + 1  # ROUND-1: a round per double, N-N down to 0-0
        self.must_play = must_play  # DRAW-2 (True) or DRAW-3 (False)
        self.draw_until_playable = draw_until_playable
        self.unfillable_foot_ends_round = unfillable_foot_ends_round
        self.double_out_penalty = double_out_penalty
        self.tile_values = tile_values  # SET-2, SCORE-2: what each tile scores left in hand
        self.share_ties = share_ties  # TIE-1 (True) or TIE-2 (False)


BOARD_ONLY: Final = Settings(
    None,
    max_pip=18,
    must_play=True,
    draw_until_playable=False,
    unfillable_foot_ends_round=False,
    double_out_penalty=0,
    tile_values=(),
    share_ties=True,
)
"""The settings of a round that only replays plays on a board (``_sampling``)."""


Log: TypeAlias = "tuple[int, int, int, Any] | None"
"""A round's history, newest first: ``(player, move, exposed, the turns before)``; ``None`` before the first.

``exposed`` is the value a play's tile offers once placed (:data:`NONE` for a draw or a pass,
and for the turns of a round built from its parts), so the board can be rebuilt from the
history. A persistent list: the rounds after each move share the turns before it (the public
``RoundState.history`` is read from it, oldest first). (The turns before are a ``Log`` too;
mypyc cannot compile that recursive alias, so the annotation says ``Any``.)
"""


def pack_log(log: Log) -> bytes:
    """Writes a history in 4 bytes a turn, oldest first: the player, the exposed value + 1, the move (2 bytes)."""
    turns: list[int] = []
    link = log
    while link is not None:
        player, move, exposed, link = link
        turns.append(player | (exposed + 1) << 8 | move << 16)
    turns.reverse()
    return b"".join([turn.to_bytes(4, "little") for turn in turns])


def unpack_log(packed: bytes) -> Log:
    """Reads a history :func:`pack_log` wrote."""
    log: Log = None
    for at in range(0, len(packed), 4):
        turn = int.from_bytes(packed[at : at + 4], "little")
        log = (turn & 255, turn >> 16, (turn >> 8 & 255) - 1, log)
    return log


class Views:
    """The public objects showing one round, each made on first use (``None`` until then; see Round.pass_views_to)."""

    __slots__ = ("board", "earlier", "hands", "history", "layout", "newest", "state", "yard")

    def __init__(self) -> None:
        self.hands: Any = None
        self.yard: Any = None
        self.history: Any = None
        self.board: Any = None
        self.state: Any = None  # a weak reference to the public RoundState (chickenfoot._game._state.shows_round)
        self.layout: Layout | None = None  # the board as a Layout (Round.layout)
        self.newest: Placed | None = None  # the layout's last node, from the round before, until layout is made
        self.earlier: Any = None  # the history but its newest move, from the round before, until history is made


class Setup:
    """What every state of one round shares: the rules, the reserve, the board it started on, and its game."""

    __slots__ = ("base", "game", "reserve", "settings")

    def __init__(self, settings: Settings, *, reserve: int, base: Layout, game: Game | None) -> None:
        self.settings = settings
        self.reserve = reserve  # tiles that may never be drawn (YARD-1)
        self.base = base  # the board the round was built on, whose nodes are the round's first ones
        self.game = game  # the game the round is played in, or None


# -- the end of a round with nobody out ---------------------------------------------------


def can_draw(yard: tuple[int, ...], reserve: int) -> bool:
    """Tells whether a tile may be drawn: the yard holds more tiles than the reserve (DRAW-1, YARD-1)."""
    return len(yard) > reserve


def blocked(hands: tuple[tuple[int, ...], ...], yard: tuple[int, ...], reserve: int, board: Openings) -> bool:
    """END-2: nobody can draw, and no hand holds a tile carrying a value that plays on ``board`` (PLAY-1)."""
    if can_draw(yard, reserve):
        return False
    mask = board.ends_mask
    for hand in hands:
        for tile in hand:
            if VALUES_MASK[tile] & mask:
                return False
    return True


def foot_unfillable(hands: tuple[tuple[int, ...], ...], yard: tuple[int, ...], reserve: int, board: Openings) -> bool:
    """Tells whether a chicken foot is pending that fewer tiles carrying its value are left to fill (held or
    drawable) than the toes it misses (the center's arms are not a foot): the round's end under END-2's variant."""
    if board.pending == NONE or board.pending == 0:
        return False
    bit = 1 << board.pending_value
    available = sum(1 for hand in hands for tile in hand if VALUES_MASK[tile] & bit)
    available += sum(1 for at in range(len(yard) - reserve) if VALUES_MASK[yard[at]] & bit)
    return available < board.missing


def nothing_to_do(
    settings: Settings, hands: tuple[tuple[int, ...], ...], yard: tuple[int, ...], reserve: int, board: Openings
) -> bool:
    """Tells whether a round on ``board`` has nothing left to do but end with nobody out (END-2 or its variant)."""
    if blocked(hands, yard, reserve, board):
        return True
    return settings.unfillable_foot_ends_round and foot_unfillable(hands, yard, reserve, board)


# -- the round ----------------------------------------------------------------------------


class Round(Openings):
    """One round: its openings (inherited), its nodes, hands, yard, whose turn it is, and how the round stands.

    Tiles and seats are ints; ``drawn`` and ``went_out`` are :data:`NONE` when unset. What does
    not change from move to move (the rules, the reserve, the game) is the round's :class:`Setup`.
    The nodes are those of ``setup.base``, the board the round was built on (its center alone,
    once dealt), then one per play of the history (:attr:`log`) since. A round played in a game
    points to the game (the finished rounds and the totals) through its setup; two rounds are
    equal as positions, whatever their game and history.

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
        "packed",
        "setup",
        "views",
        "went_out",
        "yard",
    )

    setup: Setup
    hands: tuple[tuple[int, ...], ...]
    yard: tuple[int, ...]  # yard[0] is drawn next (DRAW-1)
    current: int
    drawn: int  # the tile drawn this turn (DRAW-2, DRAW-3)
    over: bool
    went_out: int
    log: Log  # None in a round a game keeps finished (bare), whose history is packed
    packed: bytes | None  # the history of a bare round (pack_log): 4 bytes a turn, not a tuple and an int
    legal_cache: list[int] | None  # the legal move codes, once asked for
    legal_view: tuple[Any, ...] | None  # the legal public moves, once asked for
    views: Views | None

    def can_draw(self) -> bool:
        """Tells whether the player to move may draw (:func:`can_draw`)."""
        return can_draw(self.yard, self.setup.reserve)

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
        link = self.links()
        count = self.size - self.setup.base.size
        while len(plays) < count:
            assert link is not None  # every node after the base's was placed by a play
            _, move, exposed, link = link
            if is_play(move):
                plays.append((move, exposed))
        return plays

    def layout(self) -> Layout:
        """Gets the board as a :class:`Layout`: ``base``'s nodes, then one per play since (made once)."""
        views = self.public()
        layout = views.layout
        if layout is None:
            last = views.newest
            if last is None:
                last = self.setup.base.last
                for move, exposed in reversed(self.plays_since_base()):
                    last = Placed(code_tile(move), code_onto(move), exposed, before=last)
            views.newest = None
            layout = views.layout = Layout()
            layout.last = last
            layout.size = self.size
            layout.ends = self.ends + NO_ENDS[len(self.ends) :]  # a layout keeps every value's, as a Board shows them
            layout.ends_mask = self.ends_mask
            layout.waiting = self.waiting + NO_ENDS[len(self.waiting) :]
            layout.waiting_mask = self.waiting_mask
            layout.pending = self.pending
            layout.pending_value = self.pending_value
            layout.missing = self.missing
        return layout

    def newest_tile(self) -> int:
        """Gets the tile placed last: the newest play's, or the base's newest if no play placed one since."""
        if self.size == self.setup.base.size:
            return self.setup.base.last.tile
        link = self.links()
        while link is not None:
            _, move, _, link = link
            if is_play(move):
                return code_tile(move)
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
            legal = self.legal_cache = self._generate(CODES.onto_nodes(self.size, self.setup.settings.tiles))
        return legal

    def history(self, moves: PublicMoves) -> tuple[tuple[int, Any], ...]:
        """Gets every ``(player, move)`` of the round, oldest first, as public moves."""
        views = self.public()
        turns: tuple[tuple[int, Any], ...] | None = views.history
        if turns is None:
            table = moves.onto_nodes(self.size, self.setup.settings.tiles)
            earlier = views.earlier
            if earlier is not None and self.log is not None:
                player, move, _, _ = self.log
                turns = (*earlier, (player, table[move]))
            else:
                listed: list[tuple[int, Any]] = []
                link = self.links()
                while link is not None:
                    player, move, _, link = link
                    listed.append((player, table[move]))
                listed.reverse()
                turns = tuple(listed)
            views.history = turns
            views.earlier = None
        return turns

    def public_legal(self, moves: PublicMoves) -> tuple[Any, ...]:
        """Gets the legal moves as public objects (built once per round)."""
        view = self.legal_view
        if view is None:
            tiles = self.setup.settings.tiles
            fits = moves.nodes >= self.size and moves.tiles >= tiles
            table = moves.table if fits else moves.onto_nodes(self.size, tiles)  # onto_nodes, inlined
            view = self.legal_view = tuple(self._generate(table))
        return view

    def _generate(self, table: list[Any]) -> list[Any]:
        """Lists the legal moves in the engine's fixed order, each as ``table`` (indexed by move code) has it.

        The plays first (PLAY-1: each tile that may be played, the drawn one or else the hand's, in
        order, onto each node that takes one of its values now, as the openings' ``ends`` say; a
        double once, its two halves alike), then a draw or a pass where the rules allow.
        """
        if self.over:
            return []
        drawn = self.drawn
        tiles = self.hands[self.current] if drawn == NONE else (drawn,)
        plays: list[Any] = []
        mask = self.ends_mask
        nodes = self.ends
        for tile in tiles:
            if VALUES_MASK[tile] & mask:  # carries a value that plays
                high, low = HALVES[tile]
                for onto in nodes[high]:
                    plays.append(table[onto << 8 | tile])  # play(tile, onto), spelled out in the hot loop
                if low != high:
                    for onto in nodes[low]:
                        plays.append(table[onto << 8 | tile])
        if drawn != NONE:
            if plays:
                if not self.setup.settings.must_play:
                    plays.append(table[PASS])  # DRAW-3: may play it or pass
                return plays  # DRAW-2: must play it
            if self.setup.settings.draw_until_playable and self.can_draw():
                return [table[DRAW]]  # variant of DRAW-1: keep drawing
            return [table[PASS]]  # DRAW-2: the drawn tile cannot be played
        if plays:
            return plays  # DRAW-4: no draw while a play exists
        return [table[DRAW] if self.can_draw() else table[PASS]]  # DRAW-1, YARD-2

    # -- how a round ends -------------------------------------------------------------------

    def blocked(self) -> bool:
        """Tells whether the round is blocked (END-2, :func:`blocked`)."""
        return blocked(self.hands, self.yard, self.setup.reserve, self)

    # -- moves ------------------------------------------------------------------------------

    def after_public(self, move: object, moves: PublicMoves, *, close: bool = False) -> Round | None:
        """Returns the round after ``move`` if :meth:`public_legal` handed it out from ``moves``, else ``None``.

        A public play is read back from its fields, ``move.tile.index`` and ``move.onto``: cheaper
        than keeping the codes beside the moves, or looking them up. With ``close``, a round the
        move ends is closed by its game (:meth:`Game.close`), as :meth:`after` does.
        """
        view = self.legal_view
        if view is not None:
            for candidate in view:
                if candidate is not move:
                    continue
                if move is moves.draw:
                    after = self._after_draw()
                elif move is moves.pass_:
                    after = self._after_pass()
                else:
                    played: Any = move  # a public play (chickenfoot.Play)
                    after = self._after_play(played.tile.index, played.onto)
                return after.closed() if close and after.over else after  # closed() only when a round ends
        return None

    def with_game(self, game: Game) -> Round:
        """Returns the same position played in ``game``."""
        return self._copied(game, log=self.links(), shown=True)

    def _copied(self, game: Game | None, *, log: Log, shown: bool) -> Round:
        """Returns the same position played in ``game`` (or in none), with ``log`` as its history."""
        setup = self.setup
        return self.moved(
            Setup(setup.settings, reserve=setup.reserve, base=setup.base, game=game),
            hands=self.hands,
            yard=self.yard,
            current=self.current,
            drawn=self.drawn,
            over=self.over,
            went_out=self.went_out,
            log=log,
            shown=shown,
        )

    def after(self, move: int, *, close: bool = False) -> Round:
        """Returns the round after ``move``, which must be one of :meth:`legal`.

        With ``close``, a round the move ends is closed by its game (:meth:`closed`): what
        ``apply`` gives for a game, where the searches, which stop at the round's end, leave it.
        """
        if is_play(move):
            after = self._after_play(code_tile(move), code_onto(move))
        elif move == DRAW:
            after = self._after_draw()
        else:
            after = self._after_pass()
        return after.closed() if close and after.over else after  # closed() only when a round ends

    def closed(self) -> Round:
        """Returns the round the game goes on with: this one or, once over, what :meth:`Game.close` gives.

        A round played outside a game (no ``setup.game``) is returned as it is.
        """
        game = self.setup.game
        if self.over and game is not None:
            return game.close(self)  # scored, added up, and the next round dealt or the winners decided
        return self

    def moved(
        self,
        setup: Setup,
        *,
        hands: tuple[tuple[int, ...], ...],
        yard: tuple[int, ...],
        current: int,
        drawn: int,
        over: bool,
        went_out: int,
        log: Log,
        shown: bool = True,
    ) -> Round:
        """Returns a round on the same board (the same nodes and openings), with the rest given.

        It starts from this round's views unless ``shown`` is false (:meth:`bare`).
        """
        after = Round()
        after.legal_cache = after.legal_view = after.views = None
        after.setup = setup
        after.hands = hands
        after.yard = yard
        after.current = current
        after.drawn = drawn
        after.over = over
        after.went_out = went_out
        after.log = log
        after.packed = None
        after.size = self.size
        after.ends = self.ends
        after.ends_mask = self.ends_mask
        after.waiting = self.waiting
        after.waiting_mask = self.waiting_mask
        after.pending = self.pending
        after.pending_value = self.pending_value
        after.missing = self.missing
        if shown and self.views is not None:
            self.pass_views_to(after)
        return after

    def bare(self) -> Round:
        """Returns this position without the objects made to show it, its history packed: what a game keeps of a
        round it has finished.

        Showing a finished round again is rare, and its views (a node per play, an entry per move,
        :meth:`pass_views_to`) and its log (a tuple and an int per turn) would be most of a long
        game's memory; they are made again from the packed history if asked for (:meth:`links`).
        It points to no game: the game points to it, and the game it was played in (with what
        that game made to show its results) can go.
        """
        kept = self._copied(None, log=None, shown=False)
        kept.packed = pack_log(self.links())
        return kept

    def links(self) -> Log:
        """Gets the round's history as a :data:`Log`: ``log``, or, in a bare round, made again from ``packed``."""
        packed = self.packed
        return self.log if packed is None else unpack_log(packed)

    def pass_views_to(self, after: Round) -> None:
        """Starts ``after``'s views from this round's: ``after`` is this round one move on, or on the same board.

        So showing every state of a round (a server, a UI) costs a node and a history entry a move,
        not a copy of the board and the history; a round nobody shows (a search's) pays one test.
        """
        views = self.views
        if views is None:
            return
        kept = after.views = Views()
        layout, history, log = views.layout, views.history, after.log
        if layout is not None and after.size == self.size:
            kept.layout = layout  # the same nodes and openings (Round.moved's contract)
        elif layout is not None and log is not None:  # a play: one node more
            kept.newest = Placed(code_tile(log[1]), code_onto(log[1]), log[2], before=layout.last)
        if history is not None and log is not None and log[3] is self.log:  # a move: one entry more
            kept.earlier = history

    def _after_play(self, tile: int, onto: int) -> Round:
        player = self.current
        hand = self.hands[player]
        at = 0
        while hand[at] != tile:  # hand.index(tile), which mypyc would call as a Python method
            at += 1
        hand = hand[:at] + hand[at + 1 :]
        hands = replaced(self.hands, player, hand)
        setup = self.setup
        after = Round()
        after.legal_cache = after.legal_view = after.views = None
        exposed = after.open_after(self, tile, onto)  # the board: PLAY-1, PLAY-2, OPEN-3, FOOT-1 to FOOT-3
        out = not hand  # END-1: out on the last tile, even with a foot pending
        after.setup = setup
        after.hands = hands
        after.yard = self.yard
        after.current = player if out else (player + 1) % len(hands)  # TURN-1
        after.drawn = NONE
        after.over = out or nothing_to_do(setup.settings, hands, self.yard, setup.reserve, after)  # END-2, every move
        after.went_out = player if out else NONE
        after.log = (player, onto << 8 | tile, exposed, self.log)  # play(tile, onto)
        after.packed = None
        if self.views is not None:
            self.pass_views_to(after)
        return after

    def _after_draw(self) -> Round:
        player = self.current
        tile = self.yard[0]
        hands = replaced(self.hands, player, self.hands[player] + (tile,))
        yard = self.yard[1:]
        setup = self.setup
        over = nothing_to_do(setup.settings, hands, yard, setup.reserve, self)  # DRAW-1 keeps the turn; END-2
        log = (player, DRAW, NONE, self.log)
        return self.moved(setup, hands=hands, yard=yard, current=player, drawn=tile, over=over, went_out=NONE, log=log)

    def _after_pass(self) -> Round:
        player = self.current
        setup = self.setup
        over = nothing_to_do(setup.settings, self.hands, self.yard, setup.reserve, self)  # END-2, every move
        log = (player, PASS, NONE, self.log)
        current = (player + 1) % len(self.hands)  # TURN-1
        return self.moved(
            setup, hands=self.hands, yard=self.yard, current=current, drawn=NONE, over=over, went_out=NONE, log=log
        )

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
        if self.went_out != NONE and IS_DOUBLE[self.newest_tile()]:
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


# -- the deal -----------------------------------------------------------------------------


def round_on(
    settings: Settings,
    layout: Layout,
    *,
    hands: tuple[tuple[int, ...], ...],
    yard: tuple[int, ...],
    current: int,
    reserve: int,
    drawn: int = NONE,
    over: bool = False,
    went_out: int = NONE,
    log: Log = None,
    game: Any = None,
) -> Round:
    """Gets the round with ``layout`` as its board and the rest given (its history placed none of the nodes).

    Whether it is over is the caller's to say (:func:`nothing_to_do` tells END-2 from the parts).
    """
    start = Round()
    start.legal_cache = start.legal_view = start.views = None
    start.setup = Setup(settings, reserve=reserve, base=layout, game=game)
    start.hands = hands
    start.yard = yard
    start.current = current
    start.drawn = drawn
    start.over = over
    start.went_out = went_out
    start.log = log
    start.packed = None
    start.size = layout.size
    start.ends = layout.ends[: settings.max_pip + 1]  # a round keeps only its set's values (less to copy per play)
    start.ends_mask = layout.ends_mask
    start.waiting = layout.waiting[: settings.max_pip + 1]
    start.waiting_mask = layout.waiting_mask
    start.pending = layout.pending
    start.pending_value = layout.pending_value
    start.missing = layout.missing
    return start


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
                if IS_DOUBLE[tile] and HIGH[tile] < HIGH[double] and (HIGH[tile], seat) > (best, holder):
                    best, holder = HIGH[tile], seat
    if holder == NONE:
        return double, NONE
    return DOUBLES[best], holder


class Deal:
    """How a round is dealt under the rules in force, for a given number of players."""

    def __init__(
        self,
        settings: Settings,
        *,
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

    def first_round(self, seed: int) -> Round:
        """Deals the first round of a new game played with ``seed`` (closed at once if it is dealt blocked)."""
        game = Game(self, seed=seed, round_index=0, totals=(0,) * self.players, finals=(), round_scores=())
        first = self.deal(seed, 0, game)
        return game.close(first) if first.over else first

    def deal(self, seed: int, round_index: int, game: Game | None = None) -> Round:
        """Deals round ``round_index`` (0-based): hands, yard, center and first player (ROUND-1), played in ``game``."""
        rng = round_rng(seed, round_index)
        value = self.settings.max_pip - round_index  # ROUND-1: N-N down to 0-0
        double = DOUBLES[value]
        if self.trains:
            return self._deal_trains(round_index, double, rng, game)
        return self._deal_cross(round_index, double, rng, game)

    def _split(self, tiles: list[int]) -> tuple[list[list[int]], list[int]]:
        size = self.hand_size
        hands = [tiles[i * size : (i + 1) * size] for i in range(self.players)]
        return hands, tiles[self.players * size :]

    def _round(self, hands: list[list[int]], yard: list[int], center: int, first: int, game: Game | None) -> Round:
        frozen = tuple([tuple(hand) for hand in hands])
        stock = tuple(yard)
        layout = start_layout(center, self.arms)
        return round_on(
            self.settings,
            layout,
            hands=frozen,
            yard=stock,
            current=first,
            reserve=self.reserve,
            over=nothing_to_do(self.settings, frozen, stock, self.reserve, layout),  # END-2: blocked as dealt, it ends
            game=game,
        )

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


# -- the game -----------------------------------------------------------------------------


class Game:
    """A whole game but the round in play: how rounds are dealt, the seed, and what the finished rounds left.

    The round in play points here (``Round.setup.game``); the states of one round share one game.
    """

    __slots__ = ("deal", "finals", "results_view", "round_index", "round_scores", "seed", "totals", "winners")

    def __init__(
        self,
        deal: Deal,
        *,
        seed: int,
        round_index: int,
        totals: tuple[int, ...],
        finals: tuple[Round, ...],
        round_scores: tuple[tuple[int, ...], ...],
    ) -> None:
        self.deal = deal
        self.seed = seed
        self.round_index = round_index
        self.totals = totals
        self.finals = finals  # the last state of each finished round
        self.round_scores = round_scores  # and its scores
        self.winners: tuple[int, ...] = ()
        if len(finals) == deal.settings.rounds:  # the last round was played: GAME-1
            self.winners = winners(totals, round_scores, deal.settings.share_ties)
        self.results_view: Any = None  # the public RoundResult of each finished round, once asked for

    def is_over(self) -> bool:
        """Tells whether every round has been played (ROUND-1)."""
        return len(self.finals) == self.deal.settings.rounds

    def close(self, final: Round) -> Round:
        """Ends this game's round ``final``, which is over: gets the round the game goes on with.

        The round is scored (SCORE-1) and added up (GAME-1); the next round is dealt (ROUND-1),
        and, dealt blocked (END-2, with contrived options only), ends as it is dealt. After the
        last round the winners are decided (GAME-1, TIE-1, TIE-2) and ``final`` shows the
        finished game.
        """
        game = self
        while True:
            scores = final.scores()
            totals = tuple([total + score for total, score in zip(game.totals, scores, strict=True)])
            finals = (*game.finals, final.bare())
            round_scores = (*game.round_scores, scores)
            index = game.round_index if len(finals) == game.deal.settings.rounds else game.round_index + 1
            after = Game(
                game.deal, seed=game.seed, round_index=index, totals=totals, finals=finals, round_scores=round_scores
            )
            if after.is_over():
                return final.with_game(after)
            final = game.deal.deal(game.seed, index, after)
            if not final.over:
                return final
            game = after

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.seed == other.seed
            and self.round_index == other.round_index
            and self.deal.players == other.deal.players
            and self.totals == other.totals
            and self.round_scores == other.round_scores
            and self.finals == other.finals
        )

    def __hash__(self) -> int:
        return hash((self.seed, self.round_index, self.totals))


def winners(totals: tuple[int, ...], round_scores: tuple[tuple[int, ...], ...], share_ties: bool) -> tuple[int, ...]:
    """Gets the winners of a finished game from its totals and each round's scores (GAME-1, TIE-1, TIE-2).

    The lowest total wins. Tied, they share the win (TIE-1, ``share_ties``), or the most rounds
    scored 0 wins, then the lower lowest non-zero round score, then the next lowest, and so on (TIE-2).
    """
    best = min(totals)
    tied = [player for player, total in enumerate(totals) if total == best]
    if share_ties or len(tied) == 1:
        return tuple(tied)
    keys: list[tuple[int, list[int]]] = []
    for player in tied:
        scores = [scores[player] for scores in round_scores]
        keys.append((-scores.count(0), sorted(score for score in scores if score)))
    top = min(keys)
    return tuple([player for player, key in zip(tied, keys, strict=True) if key == top])
