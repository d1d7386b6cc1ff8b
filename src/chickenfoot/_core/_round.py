"""A round as plain typed data: the one place legal moves and moves are computed.

Everything here is ints, tuples and small plain classes, written so mypyc can compile it to C
(see docs/performance.md); the same file runs unchanged as ordinary Python. The public
:class:`~chickenfoot.RoundState` and :class:`~chickenfoot.GameState` are thin views over
:class:`Round`. Tiles and move codes are :mod:`._codes`' ints, the board is :mod:`._layout`'s
openings, and the deal is :mod:`._deal`'s.

* a round (:class:`Round`) is one object per state: openings, hands, yard and turn, whose nodes
  are those of the board it started on and then one per play of its history (:data:`Log`); what
  its states share (rules, reserve, that board, the game) is one :class:`Setup`;
* the rules of play are :meth:`Round.legal` (through ``_generate``, which reads where each
  tile fits in the openings' ``ends``) and :meth:`Round.after` (through
  ``_after_play``, which places the tile with :meth:`~._layout.Openings.open_after`,
  ``_after_draw`` and ``_after_pass``); :func:`can_draw`, :func:`blocked` and
  :func:`foot_unfillable` state when a round ends with nobody out (END-2 and its variant), and
  :meth:`Round.scores` its score;
* a round caches its legal moves (as codes, as public moves, each once asked for), and the
  public objects showing it (:class:`Views`), in ordinary fields.

Nothing in this module changes an object once it is handed out, except the caches (fields
named ``*_cache``, ``*_view`` or ``views``), which only ever go from ``None`` to their one value:
whether a round is over is decided before it is built.
"""

from __future__ import annotations

from typing import Any, Final, TypeAlias

from ._codes import (
    CODES,
    DRAW,
    HALVES,
    NONE,
    PASS,
    VALUES_MASK,
    PublicMoves,
    code_onto,
    code_tile,
    is_double,
    is_play,
    replaced,
    tile_index,
)
from ._layout import NO_ENDS, Layout, Openings, Placed


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


BOARD_ONLY: Final = Settings(
    None,
    max_pip=18,
    must_play=True,
    draw_until_playable=False,
    unfillable_foot_ends_round=False,
    double_out_penalty=0,
    tile_values=(),
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


class Views:
    """The public objects showing one round, each made on first use (``None`` until then; see Round.pass_views_to)."""

    __slots__ = ("board", "earlier", "hands", "history", "layout", "newest", "state", "yard")

    def __init__(self) -> None:
        self.hands: Any = None
        self.yard: Any = None
        self.history: Any = None
        self.board: Any = None
        self.state: Any = None  # a weak reference to the public RoundState (chickenfoot._state.shows_round)
        self.layout: Layout | None = None  # the board as a Layout (Round.layout)
        self.newest: Placed | None = None  # the layout's last node, from the round before, until layout is made
        self.earlier: Any = None  # the history but its newest move, from the round before, until history is made


class Setup:
    """What every state of one round shares: the rules, the reserve, the board it started on, and its game."""

    __slots__ = ("base", "game", "reserve", "settings")

    def __init__(self, settings: Settings, *, reserve: int, base: Layout, game: Any) -> None:
        self.settings = settings
        self.reserve = reserve  # tiles that may never be drawn (YARD-1)
        self.base = base  # the board the round was built on, whose nodes are the round's first ones
        # The chickenfoot._dealing.Game the round is played in, or None: that module deals rounds,
        # so it imports this one, and the field cannot name its type here.
        self.game = game


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
    log: Log
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
        link = self.log
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
        link = self.log
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
            legal = self.legal_cache = self._generate(CODES.onto_nodes(self.size))
        return legal

    def history(self, moves: PublicMoves) -> tuple[tuple[int, Any], ...]:
        """Gets every ``(player, move)`` of the round, oldest first, as public moves."""
        views = self.public()
        turns: tuple[tuple[int, Any], ...] | None = views.history
        if turns is None:
            table = moves.onto_nodes(self.size)
            earlier = views.earlier
            if earlier is not None and self.log is not None:
                player, move, _, _ = self.log
                turns = (*earlier, (player, table[move]))
            else:
                listed: list[tuple[int, Any]] = []
                link = self.log
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
            table = moves.table if moves.nodes >= self.size else moves.onto_nodes(self.size)  # onto_nodes, inlined
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

    def with_game(self, game: Any) -> Round:
        """Returns the same position played in ``game`` (a ``chickenfoot._dealing.Game``)."""
        setup = Setup(self.setup.settings, reserve=self.setup.reserve, base=self.setup.base, game=game)
        return self.moved(
            setup,
            hands=self.hands,
            yard=self.yard,
            current=self.current,
            drawn=self.drawn,
            over=self.over,
            went_out=self.went_out,
            log=self.log,
        )

    def after(self, move: int) -> Round:
        """Returns the round after ``move``, which must be one of :meth:`legal`."""
        if is_play(move):
            return self._after_play(code_tile(move), code_onto(move))
        if move == DRAW:
            return self._after_draw()
        return self._after_pass()

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
    ) -> Round:
        """Returns a round on the same board (the same nodes and openings), with the rest given."""
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
        after.size = self.size
        after.ends = self.ends
        after.ends_mask = self.ends_mask
        after.waiting = self.waiting
        after.waiting_mask = self.waiting_mask
        after.pending = self.pending
        after.pending_value = self.pending_value
        after.missing = self.missing
        if self.views is not None:
            self.pass_views_to(after)
        return after

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
