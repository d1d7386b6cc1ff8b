"""How a round starts, as plain typed data: on any board (:func:`round_on`), or dealt (DEAL-2: a pure
function of rules, players, seed and round).

:class:`Deal` is how a round is dealt under the rules in force (its steps are named functions:
:func:`starter_seat`, :func:`find_center`, :func:`setup_seat`), the shuffle is spelled out so
a deal depends only on the Mersenne Twister stream, and :class:`Game` is what a game holds
beside the round in play: the deal, the seed, and what the finished rounds left.

Written, like the rest of the core, so mypyc can compile it to C (see docs/performance.md).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any, Final

from ._codes import HIGH, NONE, is_double, tile_index
from ._layout import Layout, start_layout
from ._round import Log, Round, Settings, Setup, nothing_to_do


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


class Game:
    """A whole game but the round in play: the rules, the seed, and what the finished rounds left.

    The round in play points here (``Round.setup.game``); the moves of a round share one game.
    """

    __slots__ = ("deal", "results", "round_index", "seed", "totals", "winners")

    def __init__(
        self,
        deal: Deal,
        *,
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
