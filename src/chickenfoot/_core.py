"""The rules of a round as plain typed data: the one place legal moves, moves and deals are computed.

Everything here is ints, tuples and small plain classes, written so mypyc can compile it to C
(see docs/performance.md); the same file runs unchanged as ordinary Python. The public objects
(:class:`~chickenfoot.GameState`, :class:`~chickenfoot.RoundState`, :class:`~chickenfoot.Board`)
are thin views over the classes below.

The representation, for a reader of the rules:

* a *tile* is its index in the set, ``high * (high + 1) // 2 + low`` (SET-1); :data:`HIGH`,
  :data:`LOW` and :data:`VALUES_MASK` read it back (a mask has one bit per pip value);
* a *move* is an int: a play is ``onto << 8 | tile``; :data:`DRAW` and :data:`PASS` take tile
  numbers no tile has;
* the layout (:class:`Layout`) keeps the open ends by the value they offer, and the one node that
  may take several tiles (the center until it has its arms, a double until it has its toes);
* a round caches its legal moves, and the public objects showing it, in ordinary fields.

Nothing in this module changes an object once it is handed out, except the caches (fields
named ``*_cache`` or ``*_view``), which only ever go from ``None`` to their one value.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, Final

NONE: Final = -1
"""No node, no seat, no tile."""

DRAW: Final = 255
"""The move code of a draw (DRAW-1): a play's code with a tile number no tile has."""

PASS: Final = 254
"""The move code of a pass (DRAW-2, DRAW-3, YARD-2), likewise."""

UNKNOWN: Final = -3
"""Not a move code: what :meth:`Round.code_of` gets for a move it did not hand out."""

FOOT_TOES: Final = 3
"""How many toes a chicken foot takes (FOOT-1)."""

MAX_PIP: Final = 18
"""The largest set supported, double-18."""

HIGH: Final[list[int]] = [high for high in range(MAX_PIP + 1) for _ in range(high + 1)]
"""The higher value of each tile."""

LOW: Final[list[int]] = [low for high in range(MAX_PIP + 1) for low in range(high + 1)]
"""The lower value of each tile."""

VALUES_MASK: Final[list[int]] = [(1 << HIGH[t]) | (1 << LOW[t]) for t in range(len(HIGH))]
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


def without(items: tuple[int, ...], item: int) -> tuple[int, ...]:
    """Returns ``items`` without the first occurrence of ``item``, the rest in order."""
    for at in range(len(items)):
        if items[at] == item:
            return items[:at] + items[at + 1 :]
    return items


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
        self.must_play = must_play  # DRAW-2 (True) or DRAW-3 (False)
        self.draw_until_playable = draw_until_playable
        self.unfillable_foot_ends_round = unfillable_foot_ends_round
        self.double_out_penalty = double_out_penalty
        self.tile_values = tile_values  # SET-2, SCORE-2: what each tile scores left in hand


class Placed:
    """One placed tile: the tile, the node it hangs from, the value it offers, and the node before it."""

    __slots__ = ("before", "exposed", "parent", "tile")

    def __init__(self, tile: int, parent: int, exposed: int, before: Placed | None) -> None:
        self.tile = tile
        self.parent = parent  # NONE for the center
        self.exposed = exposed  # a double's own value, else the half not matched to the parent
        self.before = before


class Layout:
    """The board: the placed tiles (newest first, shared between layouts), the open ends, the pending node.

    Every node with room for more than one tile is the pending node, and there is at most one
    (OPEN-2, FOOT-2); every other open end has room for exactly one tile (PLAY-2), so the open
    ends are kept by the value they offer.
    """

    __slots__ = (
        "ends",
        "ends_mask",
        "last",
        "missing",
        "nodes_view",
        "order_cache",
        "pending",
        "pending_value",
        "size",
    )

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
        self.ends = ends  # for each value, the non-pending open ends offering it
        self.ends_mask = ends_mask  # a bit per value in ends
        self.pending = pending  # the node every play must go onto (OPEN-2, FOOT-2), or NONE
        self.pending_value = pending_value  # the value it offers
        self.missing = missing  # how many more tiles it needs
        self.order_cache: list[Placed] | None = None  # the placed tiles in order, once asked for
        self.nodes_view: Any = None  # the public nodes, once asked for

    def placed(self) -> list[Placed]:
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

    def at(self, index: int) -> Placed:
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

    def place(self, tile: int, onto: int, matched: int) -> Layout:
        """Returns the layout with ``tile`` matched against node ``onto``, which offers ``matched``.

        A double becomes a pending chicken foot needing three toes (FOOT-1, FOOT-2); the pending
        node stops pending once full (OPEN-3, FOOT-3); any other tile offers its other half (PLAY-1).
        """
        changed = list(self.ends)  # the open ends by value, as they will be
        mask = self.ends_mask
        pending = self.pending
        pending_value = self.pending_value
        missing = 0
        if pending != NONE:
            missing = self.missing - 1
            if not missing:
                pending = NONE
                pending_value = NONE
        else:
            offering: tuple[int, ...] = changed[matched]  # PLAY-2: a non-pending end takes one tile, so it closes
            rest = without(offering, onto)
            changed[matched] = rest
            if not rest:
                mask &= ~(1 << matched)
        index = self.size
        high = HIGH[tile]
        low = LOW[tile]
        if high == low:
            exposed = matched
            pending, pending_value, missing = index, matched, FOOT_TOES  # FOOT-1: laid crosswise
        else:
            exposed = low if high == matched else high
            changed[exposed] = changed[exposed] + (index,)
            mask |= 1 << exposed
        ends = tuple(changed)
        return Layout(Placed(tile, onto, exposed, self.last), index + 1, ends, mask, pending, pending_value, missing)

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
        return (
            self.ends == other.ends
            and self.ends_mask == other.ends_mask
            and self.pending == other.pending
            and self.missing == other.missing
            and self.same_nodes(other)
        )

    def __hash__(self) -> int:
        return hash((self.size, self.last.tile, self.last.parent, self.ends, self.pending, self.missing))


def start_layout(center: int, arms: int) -> Layout:
    """Lays the center double as node 0, pending until it has ``arms`` arms (OPEN-1, OPEN-2)."""
    value = HIGH[center]
    no_ends: tuple[int, ...] = ()
    return Layout(Placed(center, NONE, value, None), 1, (no_ends,) * (MAX_PIP + 1), 0, 0, value, arms)


class PublicMoves:
    """The public move object of each move code, made by ``make`` a node at a time and then shared.

    The views hand out these shared objects, so :meth:`Round.code_of` finds a move by identity.
    """

    __slots__ = ("draw", "make", "pass_", "table", "tiles")

    def __init__(self, draw: Any, pass_: Any, make: Callable[[int], Any]) -> None:
        self.draw = draw
        self.pass_ = pass_
        self.make = make  # makes the public play of a code
        self.table: list[Any] = []  # the public move at each code, None where not made (or no move has it)
        self.tiles = 0  # the plays made so far are those of tiles 0 to tiles - 1

    def onto_nodes(self, nodes: int, tiles: int) -> list[Any]:
        """Gets the public moves by code, with every play of tiles 0 to ``tiles - 1`` onto nodes 0 to ``nodes - 1``."""
        table = self.table
        made = len(table) >> 8
        if tiles > self.tiles:  # a larger set than so far
            for onto in range(made):
                for tile in range(self.tiles, tiles):
                    table[play(tile, onto)] = self.make(play(tile, onto))
            self.tiles = tiles
        for onto in range(made, nodes):
            row: list[Any] = [self.make(play(tile, onto)) for tile in range(self.tiles)]
            row += [None] * (256 - len(row))
            if onto == 0:
                row[DRAW] = self.draw
                row[PASS] = self.pass_
            table += row
        return table


class Turn:
    """One entry of a round's history, newest first: who moved, the move code, and the turns before."""

    __slots__ = ("before", "move", "player")

    def __init__(self, player: int, move: int, before: Turn | None) -> None:
        self.player = player
        self.move = move
        self.before = before


class Round:
    """One round: hands, yard, layout, whose turn it is, and how the round stands.

    Tiles and seats are ints; ``drawn`` and ``went_out`` are :data:`NONE` when unset. A round
    played in a game points to the :class:`Game` (the finished rounds and the totals), which
    the rounds after each move share; two rounds are equal as positions, whatever their game.
    """

    __slots__ = (
        "board_view",
        "current",
        "drawn",
        "game",
        "hands",
        "hands_view",
        "history_view",
        "layout",
        "legal_cache",
        "legal_view",
        "log",
        "over",
        "reserve",
        "settings",
        "state_view",
        "went_out",
        "yard",
        "yard_view",
    )

    def __init__(
        self,
        settings: Settings,
        hands: tuple[tuple[int, ...], ...],
        yard: tuple[int, ...],
        layout: Layout,
        current: int,
        reserve: int,
        drawn: int,
        over: bool,
        went_out: int,
        log: Turn | None,
        game: Game | None = None,
    ) -> None:
        self.settings = settings
        self.hands = hands
        self.yard = yard  # yard[0] is drawn next (DRAW-1)
        self.layout = layout
        self.current = current
        self.reserve = reserve  # tiles that may never be drawn (YARD-1)
        self.drawn = drawn  # the tile drawn this turn (DRAW-2, DRAW-3)
        self.over = over
        self.went_out = went_out
        self.log = log
        self.game = game  # the game this round is played in, if any
        self.legal_cache: list[int] | None = None  # the legal move codes, once asked for
        # The public objects showing this round, built on first use by the views.
        self.legal_view: Any = None
        self.hands_view: Any = None
        self.yard_view: Any = None
        self.history_view: Any = None
        self.board_view: Any = None
        self.state_view: Any = None

    def can_draw(self) -> bool:
        """Tells whether the yard holds more tiles than the reserve (DRAW-1, YARD-1)."""
        return len(self.yard) > self.reserve

    # -- legal moves -----------------------------------------------------------------------

    def legal(self) -> list[int]:
        """Lists the legal move codes in the engine's fixed order (computed once per round state; not to be changed)."""
        legal = self.legal_cache
        if legal is None:
            legal = self._generate()
            self.legal_cache = legal
        return legal

    def history(self, moves: PublicMoves) -> tuple[tuple[int, Any], ...]:
        """Gets every ``(player, move)`` of the round, oldest first, as public moves."""
        turns: tuple[tuple[int, Any], ...] | None = self.history_view
        if turns is None:
            listed: list[tuple[int, Any]] = []
            table = moves.onto_nodes(self.layout.size, self.settings.tiles)
            link = self.log
            while link is not None:
                listed.append((link.player, table[link.move]))
                link = link.before
            listed.reverse()
            turns = self.history_view = tuple(listed)
        return turns

    def public_legal(self, moves: PublicMoves) -> tuple[Any, ...]:
        """Gets the legal moves as public objects (built once per round)."""
        view: tuple[Any, ...] | None = self.legal_view
        if view is None:
            table = moves.onto_nodes(self.layout.size, self.settings.tiles)
            view = self.legal_view = tuple([table[code] for code in self.legal()])
        return view

    def code_of(self, move: object) -> int:
        """Gets the code of ``move`` if it is one of the public legal moves handed out, else :data:`UNKNOWN`."""
        view: tuple[Any, ...] | None = self.legal_view
        if view is not None:
            for at, candidate in enumerate(view):
                if candidate is move:
                    return self.legal()[at]
        return UNKNOWN

    def _plays_of(self, tile: int) -> list[int]:
        """Lists the places ``tile`` fits now (PLAY-1, OPEN-2, FOOT-2)."""
        layout = self.layout
        plays: list[int] = []
        if layout.pending != NONE:
            if VALUES_MASK[tile] >> layout.pending_value & 1:
                plays.append(play(tile, layout.pending))
            return plays
        for onto in layout.ends[HIGH[tile]]:
            plays.append(play(tile, onto))
        if LOW[tile] != HIGH[tile]:
            for onto in layout.ends[LOW[tile]]:
                plays.append(play(tile, onto))
        return plays

    def _generate(self) -> list[int]:
        if self.over:
            return []
        drawn = self.drawn
        if drawn != NONE:
            plays = self._plays_of(drawn)
            if plays:
                if not self.settings.must_play:
                    plays.append(PASS)  # DRAW-3: may play it or pass
                return plays  # DRAW-2: must play it
            if self.settings.draw_until_playable and self.can_draw():
                return [DRAW]  # variant of DRAW-1: keep drawing
            return [PASS]  # DRAW-2: the drawn tile cannot be played
        layout = self.layout
        plays = []
        if layout.pending != NONE:  # OPEN-2, FOOT-2: only the pending node takes tiles
            value = layout.pending_value
            base = play(0, layout.pending)
            for tile in self.hands[self.current]:
                if VALUES_MASK[tile] >> value & 1:
                    plays.append(base | tile)
        else:
            mask = layout.ends_mask
            ends = layout.ends
            for tile in self.hands[self.current]:
                if VALUES_MASK[tile] & mask:  # PLAY-1: carries a value some open end offers
                    high = HIGH[tile]
                    low = LOW[tile]
                    for onto in ends[high]:
                        plays.append(onto << 8 | tile)  # play(tile, onto), spelled out in the hot loop
                    if low != high:
                        for onto in ends[low]:
                            plays.append(onto << 8 | tile)
        if plays:
            return plays  # DRAW-4: no draw while a play exists
        return [DRAW] if self.can_draw() else [PASS]  # DRAW-1, YARD-2

    # -- how a round ends -------------------------------------------------------------------

    def blocked(self) -> bool:
        """END-2: nobody can draw (DRAW-1, YARD-1) and no hand holds a tile carrying a playable value."""
        if len(self.yard) > self.reserve:
            return False
        playable = self.layout.playable_mask()
        for hand in self.hands:
            for tile in hand:
                if VALUES_MASK[tile] & playable:
                    return False
        return True

    def foot_unfillable(self) -> bool:
        """Variant of END-2: the pending chicken foot needs more toes than tiles are left to fill it."""
        layout = self.layout
        value = layout.pending_value
        bit = 1 << value
        available = sum(1 for hand in self.hands for tile in hand if VALUES_MASK[tile] & bit)
        yard = self.yard
        available += sum(1 for at in range(len(yard) - self.reserve) if VALUES_MASK[yard[at]] & bit)
        return available < layout.missing

    def ends_blocked(self) -> bool:
        """Tells whether the round has nothing left to do but end with nobody out (END-2 or the variant)."""
        if self.blocked():
            return True
        pending = self.layout.pending
        foot_pending = pending != NONE and pending != 0
        return self.settings.unfillable_foot_ends_round and foot_pending and self.foot_unfillable()

    # -- moves ------------------------------------------------------------------------------

    def after_public(self, move: object) -> Round | None:
        """Returns the round after ``move`` if it is one of the public legal moves handed out, else ``None``."""
        code = self.code_of(move)
        if code == UNKNOWN:
            return None
        return self.after(code)

    def with_game(self, game: Game) -> Round:
        """Returns the same position played in ``game``."""
        return Round(
            self.settings,
            self.hands,
            self.yard,
            self.layout,
            self.current,
            self.reserve,
            self.drawn,
            self.over,
            self.went_out,
            self.log,
            game,
        )

    def after(self, move: int) -> Round:
        """Returns the round after ``move``, which must be one of :meth:`legal`."""
        if move == DRAW:
            return self._after_draw()
        if move == PASS:
            return self._after_pass()
        return self._after_play(move & 255, move >> 8)

    def _after_play(self, tile: int, onto: int) -> Round:
        player = self.current
        hands = self.hands
        hand = without(hands[player], tile)
        hands = replaced(hands, player, hand)
        layout = self.layout
        if layout.pending != NONE:
            matched = layout.pending_value
        else:
            matched = HIGH[tile] if onto in layout.ends[HIGH[tile]] else LOW[tile]
        layout = layout.place(tile, onto, matched)
        log = Turn(player, play(tile, onto), self.log)
        if not hand:  # END-1: out on the last tile, even with a foot pending
            return Round(
                self.settings, hands, self.yard, layout, player, self.reserve, NONE, True, player, log, self.game
            )
        after = Round(
            self.settings,
            hands,
            self.yard,
            layout,
            (player + 1) % len(hands),  # TURN-1
            self.reserve,
            NONE,
            False,
            NONE,
            log,
            self.game,
        )
        # END-2, checked after every move; the variant only when a foot has just been laid.
        foot_laid = layout.pending == layout.size - 1
        if (foot_laid and self.settings.unfillable_foot_ends_round and after.foot_unfillable()) or after.blocked():
            after.over = True  # still being built: nobody has seen it yet
        return after

    def _after_draw(self) -> Round:
        player = self.current
        tile = self.yard[0]
        hands = self.hands
        hands = replaced(hands, player, hands[player] + (tile,))
        after = Round(
            self.settings,
            hands,
            self.yard[1:],
            self.layout,
            player,  # DRAW-1: drawing does not end the turn
            self.reserve,
            tile,
            False,
            NONE,
            Turn(player, DRAW, self.log),
            self.game,
        )
        after.over = after.blocked()  # END-2, checked after every move
        return after

    def _after_pass(self) -> Round:
        player = self.current
        after = Round(
            self.settings,
            self.hands,
            self.yard,
            self.layout,
            (player + 1) % len(self.hands),  # TURN-1
            self.reserve,
            NONE,
            False,
            NONE,
            Turn(player, PASS, self.log),
            self.game,
        )
        after.over = after.blocked()  # END-2, checked after every move
        return after

    # -- scoring ----------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """Scores the round: each player the value of the tiles left in hand (SCORE-1, SCORE-2).

        Going out on a double costs the rules' penalty, if any.
        """
        values = self.settings.tile_values
        scores = [0] * len(self.hands)
        for seat, hand in enumerate(self.hands):
            for tile in hand:
                scores[seat] += values[tile]
        if self.went_out != NONE and is_double(self.layout.last.tile):
            scores[self.went_out] += self.settings.double_out_penalty
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
            and self.reserve == other.reserve
            and self.hands == other.hands
            and self.yard == other.yard
            and self.layout == other.layout
            and self.settings.public == other.settings.public
        )

    def __hash__(self) -> int:
        return hash((self.hands, self.yard, self.current, self.drawn, self.over, self.layout))


# -- dealing (DEAL-2: a pure function of rules, players, seed and round) ---------------------


def round_rng(seed: int, round_index: int) -> random.Random:
    """Gets the random generator for one round's deal (DEAL-2).

    Seeded with an int derived by SHA-256, never ``hash()`` or the global generator, so a deal is
    the same on every machine and Python version.
    """
    digest = hashlib.sha256(f"chickenfoot/{seed}/{round_index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffles ``items`` in place exactly as CPython 3.11's ``random.Random.shuffle`` does.

    Spelled out (Fisher-Yates over ``getrandbits`` with rejection) so a deal depends only on the
    Mersenne Twister stream, never on a library's shuffle (DEAL-2).
    """
    getrandbits: Callable[[int], int] = rng.getrandbits  # looked up once: a call per tile follows
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


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

    def deal(self, seed: int, round_index: int) -> Round:
        """Deals round ``round_index`` (0-based): hands, yard, center and first player (ROUND-1)."""
        rng = round_rng(seed, round_index)
        value = self.settings.max_pip - round_index  # ROUND-1: N-N down to 0-0
        double = tile_index(value, value)
        if self.trains:
            return self._deal_trains(round_index, double, rng)
        return self._deal_cross(round_index, double, rng)

    def _split(self, tiles: list[int]) -> tuple[list[list[int]], list[int]]:
        size = self.hand_size
        hands = [tiles[i * size : (i + 1) * size] for i in range(self.players)]
        return hands, tiles[self.players * size :]

    def _round(self, hands: list[list[int]], yard: list[int], center: int, first: int) -> Round:
        frozen = tuple([tuple(hand) for hand in hands])
        layout = start_layout(center, self.arms)
        return Round(self.settings, frozen, tuple(yard), layout, first, self.reserve, NONE, False, NONE, None)

    def _deal_trains(self, round_index: int, double: int, rng: random.Random) -> Round:
        # DEAL-A1: players take one shuffled tile each in turn from seat r mod n; whoever takes
        # the round's double is the starter. Only the double's position matters.
        count = self.settings.tiles
        tiles = list(range(count))
        shuffle(rng, tiles)
        starter = starter_seat(round_index, tiles.index(double), self.players)
        # DEAL-A2: the double is the center; the rest are shuffled again and dealt (DEAL-A3).
        rest = [tile for tile in range(count) if tile != double]
        shuffle(rng, rest)
        hands, yard = self._split(rest)
        return self._round(hands, yard, double, starter)  # DEAL-A4

    def _deal_cross(self, round_index: int, double: int, rng: random.Random) -> Round:
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
        return self._round(hands, yard, center, (holder + 1) % self.players)  # DEAL-B3


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
        return len(self.results) == self.deal.settings.max_pip + 1

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
