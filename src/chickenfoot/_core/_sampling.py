"""The work behind :func:`chickenfoot.determinize`, over plain ints.

:mod:`chickenfoot._game._determinize` explains the sampling, checks the view and builds the public
game; this module does the rest: it reads the history into one :class:`Seat` per player, draws
the exact sampler's proposals, runs the weighted placement and deals and replays a sampled start.
It is plain typed Python (no attrs), so ``pip install .`` compiles it with mypyc along with the
core; it runs unchanged as ordinary Python.

A tile is its index in the set, as in :mod:`chickenfoot._core._codes` (``HIGH``, ``LOW`` and
``VALUES_MASK`` read it back); a set of tiles is an int with a bit per tile index.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from typing import Final, TypeAlias, TypeVar

from ._codes import (
    DRAW,
    HALVES,
    HIGH,
    LOW,
    MAX_PIP,
    NONE,
    PASS,
    VALUES_MASK,
    Inconsistent,
    code_onto,
    code_tile,
    is_play,
    tile_text,
)
from ._matching import TileMatching
from ._round import BOARD_ONLY, Layout, Round, round_on, shuffle

__all__ = [
    "History",
    "Seat",
    "exact_sample",
    "place_played",
    "read_history",
    "replay",
    "start_of",
    "unseen_tiles",
    "weighted_sample",
]

BEFORE_ROUND: Final = -1
"""The acquisition time of the starting hand."""

EXACT_ATTEMPTS: Final = 300
"""Proposals the exact sampler makes before the weighted placement takes over."""

Slots: TypeAlias = list[list[list[int]]]
"""Each seat's tiles by slot: the starting hand first, then one slot per kept draw."""

Sample = TypeVar("Sample")

ANY_VALUE: Final = -1
"""A value mask with every bit set: a draw whose tile the history does not constrain (``Seat.must_fit``)."""

ANY_TILE: Final = -1
"""A tile set with every bit set: any tile (what :func:`carrying` gives for :data:`ANY_VALUE`)."""

CARRYING: Final[list[int]] = [
    sum(1 << tile for tile in range(len(VALUES_MASK)) if VALUES_MASK[tile] >> value & 1) for value in range(MAX_PIP + 1)
]
"""The tiles carrying each pip value."""


class Seat:
    """One seat's draw history: slots (acquisition times), proven no-play moments, plays from hand."""

    def __init__(self) -> None:
        self.slot_times: list[int] = [BEFORE_ROUND]
        self.slot_caps: list[int] = [0]
        self.events: list[tuple[int, int]] = []  # (time, mask of values the player proved to hold no tile for)
        self.played: list[tuple[int, int]] = []  # (tile, time) of plays from hand (not the tile just drawn)
        self.slot_of_draw: dict[int, int] = {}  # draw time -> slot index
        self.must_fit: dict[int, int] = {}  # draw time -> mask of values its tile is proven to carry
        self.undealt = 0  # the tiles no starting hand held

    def allows(self, index: int, tile: int) -> bool:
        """Tells whether slot ``index`` may hold ``tile``, as far as that slot alone says."""
        if index == 0 and self.undealt >> tile & 1:
            return False
        return VALUES_MASK[tile] & self.must_fit.get(self.slot_times[index], ANY_VALUE) != 0

    def first_slot_from(self, moment: int) -> int:
        """Gets the index of the first slot acquired at ``moment`` or later (the number of slots if none).

        A no-play moment ``t`` constrains the tiles acquired before ``t``; the draw at ``t`` itself
        brings a tile that was not part of the check.
        """
        times = self.slot_times  # in order, and few: a scan beats a bisection
        index = 0
        while index < len(times) and times[index] < moment:
            index += 1
        return index

    def last_violation(self, tile: int, before: int) -> int:
        """Gets the latest moment before ``before`` at which holding ``tile`` would contradict the history."""
        latest = BEFORE_ROUND - 1
        values = VALUES_MASK[tile]
        for time, mask in self.events:
            if time < before and values & mask and time > latest:
                latest = time
        return latest


def unseen_tiles(layout: Layout, hand: list[int], count: int) -> list[int]:
    """Lists the tiles of a ``count``-tile set neither on the board ``layout`` nor in ``hand``, in set order."""
    seen = 0
    for tile in hand:
        seen |= 1 << tile
    for placed in layout.nodes():
        seen |= 1 << placed.tile
    return [tile for tile in range(count) if not seen >> tile & 1]


class History:
    """A round's public history read seat by seat: each player's slots and what they proved."""

    def __init__(
        self, codes: list[int], movers: list[int], seats: list[Seat], identified: dict[int, int], layout: Layout
    ) -> None:
        self.codes = codes  # each move's core code
        self.movers = movers  # who made it
        self.seats = seats
        self.identified = identified  # draw time -> tile, for draws played at once
        self.start = layout  # the board before the first move
        self.layout = layout  # the board the history builds
        self.unfit = NONE  # the time of a play that is not onto the board or does not fit it


def read_history(
    codes: list[int],
    movers: list[int],
    layout: Layout,
    players: int,
    must_play: bool,
    draw_until_playable: bool,
    yard_size: int,
    reserve: int,
) -> History:
    """Replays the moves ``codes`` by ``movers`` on ``layout``, collecting each player's slots and constraints.

    Stops at the first play that does not fit the board, leaving its time in ``unfit`` and the
    board before it in ``layout``. The board is followed by a round on ``layout`` whose lone
    player holds the history's plays in order, so each is placed by the rules of play themselves.
    """
    seats = [Seat() for _ in range(players)]
    history = History(codes, movers, seats, {}, layout)
    plays = tuple([code_tile(code) for code in codes if is_play(code)])
    board = round_on(BOARD_ONLY, layout, hands=(plays,), yard=(), current=0, reserve=0)
    open_seat, open_time = NONE, NONE  # the player and time of the last draw this turn
    draws_left = codes.count(DRAW)
    for time in range(len(codes)):
        code, seat = codes[time], movers[time]
        player = seats[seat]
        if open_seat != seat:
            open_seat, open_time = NONE, NONE
        mask = board.ends_mask
        if code == DRAW:
            player.events.append((time, mask))  # DRAW-4 (or draw_until_playable: the last draw did not fit)
            player.slot_times.append(time)
            player.slot_caps.append(1)
            open_seat, open_time = seat, time
            draws_left -= 1
        elif code == PASS:
            if open_time == NONE or must_play:
                player.events.append((time, mask))  # YARD-2, or DRAW-2: the drawn tile did not fit
            elif draw_until_playable and yard_size + draws_left > reserve:
                # may_play and draw_until_playable: an unfitting tile, with the yard open, means draw again.
                player.must_fit[open_time] = mask
            open_seat, open_time = NONE, NONE
        else:
            tile, onto = code_tile(code), code_onto(code)
            high, low = HALVES[tile]
            if onto >= board.size or not (board.accepts(high, onto) or board.accepts(low, onto)):
                history.unfit = time
                history.layout = board.layout()
                return history
            if open_time != NONE:
                history.identified[open_time] = tile  # only the drawn tile may be played after a draw
            else:
                player.played.append((tile, time))
            board = board.after(code)
            open_seat, open_time = NONE, NONE
    history.layout = board.layout()
    _drop_identified(seats, history.identified)
    return history


def _drop_identified(seats: list[Seat], identified: dict[int, int]) -> None:
    """Drops the slots of draws played at once (they hold a known tile), renumbering the rest."""
    for player in seats:
        kept = [at for at, time in enumerate(player.slot_times) if time not in identified]
        player.slot_times = [player.slot_times[at] for at in kept]
        player.slot_caps = [player.slot_caps[at] for at in kept]
        player.slot_of_draw = {time: at for at, time in enumerate(player.slot_times) if time != BEFORE_ROUND}


def windows(seats: list[Seat], viewer: int, hand: list[int], unseen: list[int], max_pip: int) -> list[list[int]]:
    """Gets, per seat and slot, the tiles the seat may hold that can sit in that slot, as far as the times say.

    A tile sits in a slot acquired after the last moment holding it would contradict the history
    (and, if it was played from hand, acquired before that play).
    """
    found: list[list[int]] = []
    for seat, player in enumerate(seats):
        by_slot = [0] * len(player.slot_times)
        for tile, when in player.played:
            low = player.first_slot_from(player.last_violation(tile, when))
            high = player.first_slot_from(when) - 1  # acquired before it was played
            for index in range(low, high + 1):
                by_slot[index] = by_slot[index] | 1 << tile
        # A tile still held sits in a slot acquired after the last moment the player proved to
        # lack one of its values: from the later of the first such slots for its two values on.
        first = [0] * (max_pip + 1)
        times, slot = player.slot_times, 0
        for time, mask in player.events:  # in time order, like the slots
            while slot < len(times) and times[slot] < time:
                slot += 1  # slot = player.first_slot_from(time)
            for value in range(max_pip + 1):
                if mask >> value & 1:
                    first[value] = slot
        starting = [0] * (len(by_slot) + 1)  # the held tiles by their first slot
        for tile in hand if seat == viewer else unseen:
            starting[max(first[HIGH[tile]], first[LOW[tile]])] |= 1 << tile
        held = 0
        for index in range(len(by_slot)):
            held |= starting[index]
            by_slot[index] = by_slot[index] | held
        found.append(by_slot)
    return found


def carrying(values: int) -> int:
    """Gets the tiles carrying one of ``values`` (a bit per pip value): :data:`ANY_TILE` for :data:`ANY_VALUE`."""
    if values == ANY_VALUE:
        return ANY_TILE
    tiles = 0
    for value in range(len(CARRYING)):
        if values >> value & 1:
            tiles |= CARRYING[value]
    return tiles


def shuffle_fitting(items: list[int], allowed: list[int], uniform: Callable[[], float]) -> bool:
    """Shuffles ``items`` in place, front to back, while each tile put at position ``i`` is in ``allowed[i]``.

    Returns ``False`` at the first tile that is not (the rest is left unshuffled); positions past
    the end of ``allowed`` take anything. Stopping there decides exactly what shuffling everything
    and checking afterwards would, only sooner: a rejected proposal costs a few draws, not a shuffle.
    (Fisher-Yates with ``int(uniform() * n)``, ``uniform`` a generator's ``random``: one C call
    per tile; its bias is below 2**-40.)
    """
    count, checked = len(items), len(allowed)
    for at in range(count):
        pick = at + int(uniform() * (count - at))
        tile = items[pick]
        items[pick] = items[at]
        items[at] = tile
        if at < checked and not allowed[at] >> tile & 1:
            return False
    return True


def cut(tiles: list[int], caps: list[int]) -> list[list[int]]:
    """Splits ``tiles`` into consecutive slots of the given capacities."""
    slots: list[list[int]] = []
    at = 0
    for cap in caps:
        slots.append(tiles[at : at + cap])
        at += cap
    return slots


def exact_sample(
    seats: list[Seat],
    viewer: int,
    hand: list[int],
    drawn: int,
    unseen: list[int],
    max_pip: int,
    rng: random.Random,
    replay: Callable[[Slots, list[int]], Sample | None],
) -> Sample | None:
    """Samples a past uniformly among those consistent with the view, or ``None`` if none turned up in time.

    Proposals are uniform over every past with the view's counts: the unseen tiles shuffled over
    the other hands' room and the yard, and each seat's tiles shuffled over its slots. A proposal
    is kept only if it fits the history and ``replay`` accepts it (gets a sample, not ``None``),
    so what is kept is uniform over the consistent pasts, exactly the target (rejection
    sampling). The viewer's own tiles (``hand``, ``drawn`` the one drawn this turn or :data:`NONE`) are the
    same in every past, so their arrangement is drawn by its own rejection loop, which leaves the
    result exact.
    """
    found = windows(seats, viewer, hand, unseen, max_pip)
    known = [[tile for tile, _ in player.played] for player in seats]
    known[viewer] += hand
    room = [sum(player.slot_caps) - len(tiles) for player, tiles in zip(seats, known, strict=True)]
    if room[viewer] != 0 or any(left < 0 for left in room):
        return None
    fitting = _fitting(seats, found, viewer, drawn)
    shares = _shares(seats, found, fitting, room)
    uniform = rng.random
    pool = list(unseen)
    hidden = sum(room)
    budget = EXACT_ATTEMPTS
    while budget > 0:
        own: list[list[int]] | None = None
        while own is None and budget > 0:
            budget -= 1
            tiles = list(known[viewer])
            if shuffle_fitting(tiles, fitting[viewer], uniform):
                own = cut(tiles, seats[viewer].slot_caps)
        slots: Slots = []
        while own is not None and len(slots) < len(seats) and budget > 0:
            budget -= 1
            if shuffle_fitting(pool, shares, uniform):
                slots = _deal_pool(seats, viewer, own, known, pool, room, fitting, uniform)
        if len(slots) == len(seats):
            sample = replay(slots, pool[hidden:])
            if sample is not None:
                return sample
    return None


def _fitting(seats: list[Seat], found: list[list[int]], viewer: int, drawn: int) -> list[list[int]]:
    """Gets what each position of each seat's arrangement (its slots in order, by capacity) may hold."""
    fitting: list[list[int]] = []
    for seat, (player, window) in enumerate(zip(seats, found, strict=True)):
        by_slot = [
            tiles & carrying(player.must_fit.get(time, ANY_VALUE))  # as Seat.allows reads it
            for tiles, time in zip(window, player.slot_times, strict=True)
        ]
        by_slot[0] &= ~player.undealt
        if seat == viewer and drawn != NONE:
            by_slot[-1] &= 1 << drawn  # the viewer's drawn tile came with their last draw
        fitting.append([tiles for tiles, cap in zip(by_slot, player.slot_caps, strict=True) for _ in range(cap)])
    return fitting


def _shares(seats: list[Seat], found: list[list[int]], fitting: list[list[int]], room: list[int]) -> list[int]:
    """Gets where each unseen tile may go, checked as a proposal is drawn (an early no).

    A seat with one slot takes what that slot may hold, a seat with draws any tile some slot of it may hold.
    """
    shares: list[int] = []
    for seat, player in enumerate(seats):
        if room[seat]:
            share = 0
            if len(player.slot_caps) == 1:
                share = fitting[seat][0]
            else:
                for slot_tiles in found[seat]:
                    share |= slot_tiles
            shares += [share] * room[seat]
    return shares


def _deal_pool(
    seats: list[Seat],
    viewer: int,
    own: list[list[int]],
    known: list[list[int]],
    pool: list[int],
    room: list[int],
    fitting: list[list[int]],
    uniform: Callable[[], float],
) -> Slots:
    """Deals the shuffled pool into the other seats' room and arranges each seat's tiles; empty if one does not fit."""
    slots: Slots = []
    start = 0
    for seat, player in enumerate(seats):
        if seat == viewer:
            slots.append(own)
            continue
        tiles = known[seat] + pool[start : start + room[seat]]
        start += room[seat]
        if not shuffle_fitting(tiles, fitting[seat], uniform):
            return []
        slots.append(cut(tiles, player.slot_caps))
    return slots


def place_played(player: Seat, seat: int) -> list[list[int]]:
    """Puts the tiles a player played from hand into the earliest slots that allow them (EDF)."""
    placed: list[list[int]] = [[] for _ in player.slot_times]
    spans: list[tuple[int, int, int]] = []
    for tile, when in player.played:
        low = player.first_slot_from(player.last_violation(tile, when))
        high = player.first_slot_from(when) - 1  # acquired before it was played
        if low > high:
            raise Inconsistent(f"player {seat}'s history is inconsistent: {tile_text(tile)} was played but never held")
        spans.append((low, high, tile))
    spans.sort(key=lambda span: span[0])
    heap: list[tuple[int, int]] = []
    next_span = 0
    for index, cap in enumerate(player.slot_caps):
        while next_span < len(spans) and spans[next_span][0] <= index:
            _, high, tile = spans[next_span]
            heapq.heappush(heap, (high, tile))
            next_span += 1
        unfit: list[tuple[int, int]] = []
        while heap and len(placed[index]) < cap:
            entry = heapq.heappop(heap)
            high, tile = entry
            if high < index:
                raise Inconsistent(f"player {seat}'s history is inconsistent: {tile_text(tile)} cannot have been held")
            if player.allows(index, tile):
                placed[index].append(tile)
            else:
                unfit.append(entry)
        for entry in unfit:
            heapq.heappush(heap, entry)
    if heap or next_span < len(spans):
        raise Inconsistent(f"player {seat}'s history is inconsistent: more plays than tiles held")
    return placed


def weighted_sample(
    seats: list[Seat],
    played_slots: Slots,
    viewer: int,
    hand: list[int],
    drawn: int,
    unseen: list[int],
    yard_size: int,
    now: int,
    rng: random.Random,
) -> tuple[Slots, list[int]]:
    """Places the hidden tiles one at a time with weights by room left; gets the slots and the yard.

    ``played_slots`` holds each seat's tiles played from hand (from :func:`place_played`), ``now``
    is the length of the history.
    """
    # Places: one per (seat, slot) with room left after the played tiles, then the yard.
    places: list[tuple[int, int]] = []
    room: list[int] = []
    for seat, player in enumerate(seats):
        for index, cap in enumerate(player.slot_caps):
            left = cap - len(played_slots[seat][index])
            if left < 0:
                raise Inconsistent(f"player {seat}'s history is inconsistent with their hand size")
            if left:
                places.append((seat, index))
                room.append(left)
    yard_place = len(places)
    room.append(yard_size)
    allowed: dict[int, list[int]] = {}
    own = set(hand)
    # The viewer's own drawn tile sits in their last slot, and nothing else does.
    drawn_place = places.index((viewer, len(seats[viewer].slot_times) - 1)) if drawn != NONE else NONE
    for tile in hand + unseen:
        options: list[int] = []
        for place, (seat, index) in enumerate(places):
            if (seat == viewer) != (tile in own):
                continue
            if drawn_place != NONE and (place == drawn_place) != (tile == drawn):
                continue
            player = seats[seat]
            if not player.allows(index, tile):
                continue
            if index >= player.first_slot_from(player.last_violation(tile, now)):
                options.append(place)
        if tile not in own:
            options.append(yard_place)
        allowed[tile] = options
    placement = TileMatching(allowed, room)  # complete, or Inconsistent: no past fits the view
    order = list(unseen)
    shuffle(rng, order)
    for tile in order:
        placement.fix(tile, rng)
    slots: Slots = [[list(tiles) for tiles in seat_slots] for seat_slots in played_slots]
    for place, (seat, index) in enumerate(places):
        slots[seat][index].extend(sorted(placement.members[place]))
    yard = sorted(placement.members[yard_place])
    shuffle(rng, yard)
    return slots, yard


def start_of(
    history: History, slots: Slots, yard: list[int], rng: random.Random
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Gets the starting hands (each seat's first slot, shuffled) and the yard (each draw's tile, then ``yard``)."""
    drawn: list[int] = []
    for time, code in enumerate(history.codes):
        if code == DRAW:
            tile = history.identified.get(time, NONE)
            if tile == NONE:
                seat = history.movers[time]
                (tile,) = slots[seat][history.seats[seat].slot_of_draw[time]]
            drawn.append(tile)
    hands: list[tuple[int, ...]] = []
    for seat_slots in slots:
        hand = list(seat_slots[0])
        shuffle(rng, hand)
        hands.append(tuple(hand))
    return tuple(hands), tuple(drawn + yard)


def replay(start: Round, codes: list[int]) -> Round | None:
    """Plays ``codes`` from ``start``; ``None`` if one is not legal when it comes, or the round ends before the last."""
    round_ = start
    for code in codes:
        if round_.over or code not in round_.legal():
            return None
        round_ = round_.after(code)
    return round_
