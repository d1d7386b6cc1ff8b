"""Sampling a full game consistent with a player's view, for information-set search (ISMCTS).

What the history proves
    Replaying the round's public history from its center shows the open values at every
    moment. A player who drew at the start of a turn held no tile fitting them (DRAW-4); a
    player who drew again within a turn (``draw_until_playable``) drew an unfitting tile; a
    player who passed without drawing held no fitting tile (YARD-2); in ``must_play`` a player
    who drew and then passed drew an unfitting tile (DRAW-2), while with ``may_play`` and
    ``draw_until_playable`` one who passed on a drawn tile with the yard still open drew a
    fitting tile (else they would have drawn again). Tiles drawn later are exempt, and
    a draw followed by a play in the same turn drew exactly the tile played.

How a sample is built
    Each player's tiles are put in *slots*: their starting hand, then one slot per draw whose
    tile was kept. A tile may sit in a slot only if it fitted no open value the player proved
    they lacked while holding it, and a tile played from hand sits in a slot acquired before
    that play.

    First, exactly (rejection sampling): a proposal is drawn uniformly among every past with the
    view's counts (the unseen tiles shuffled over the other hands and the yard, each player's
    tiles shuffled over their slots) and kept only if every tile sits where the history allows
    and the rebuilt round replays the public history through :func:`~chickenfoot.apply` (which
    also proves the round would not have ended earlier, END-2). What is kept is uniform over the
    consistent pasts. The viewer's own arrangement is drawn by its own loop (their tiles are the
    same in every past), which keeps it exact.

    If no proposal fits within a budget (300 proposals; views whose history rules out most
    pasts, about three in ten views of random play), the weighted placement takes over: tiles
    the player played later from hand take the earliest slots that allow them (earliest
    deadline first), and the hidden tiles are placed one at a time, in random order, into a slot
    or the yard with probability proportional to the room left there, among the places that
    still leave a complete placement possible (an alternating-path search, as in bipartite
    matching). The yard is shuffled, and the round rebuilt and replayed as above.

Bias
    The target is what a uniform deal makes likely given the public history: every consistent
    past (starting hands, and which tile each draw brought) equally likely, as if nobody's
    choices revealed anything. Counting pasts, not hands, matters: a hand holding no tile
    that fits could have got any of its tiles from the draw, so it is likelier than a hand
    whose one fitting tile must be the drawn one. The exact stage samples this target; tests
    compare it with an exact enumeration of small positions (chi-square), variants included.
    The weighted placement is close but not exact: placing tiles one by one with weights by
    room left slightly favours placements with many completions, and played tiles take the
    earliest slots rather than sampled ones. Neither stage models the *cross* deal's setup
    draws (DEAL-B2), which the history does not record. With ``center_fallback="highest_double"``
    and a center below the round's double, no starting hand held a double above the center, up
    to the round's double (the next-highest double held starts), and samples respect that.

What is not reproduced
    The seed (knowing it would reveal every deal) is replaced by a random one, so later rounds
    are dealt afresh. Finished rounds keep their true doubles, scores and who went out, but
    their ``final`` state is an empty placeholder (no hands, yard or layout), except the last
    round of a finished game, whose final state is the sampled round.
"""

from __future__ import annotations

import heapq
import random
from bisect import bisect_left
from collections.abc import Container, Sequence

import attrs

from ._board import Board
from ._errors import InvalidRecordError
from ._moves import Draw, Pass, Play
from ._state import GameState, RoundResult, RoundState, move_code, replace_round, round_of
from ._tiles import Tile
from ._views import PlayerView, observe

__all__ = ["determinize"]

_BEFORE_ROUND = -1  # the acquisition time of the starting hand
_ATTEMPTS = 100  # resamples allowed when a replay finds the round would have ended earlier
_EXACT_ATTEMPTS = 300  # proposals the exact sampler makes before the weighted placement takes over


@attrs.define
class _Player:
    """One seat's draw history: slots (acquisition times), proven no-play moments, plays from hand."""

    slot_times: list[int]
    slot_caps: list[int]
    events: list[tuple[int, int]]  # (time, mask of values the player proved to hold no tile for)
    played: list[tuple[Tile, int]]  # (tile, time) of plays from hand (not the tile just drawn)
    slot_of_draw: dict[int, int]  # draw time -> slot index
    must_fit: dict[int, int] = attrs.field(factory=dict)  # draw time -> mask its tile is proven to fit
    undealt: frozenset[Tile] = frozenset()  # tiles no starting hand held

    def allows(self, index: int, tile: Tile) -> bool:
        """Tells whether slot ``index`` may hold ``tile``, as far as that slot alone says."""
        if index == 0 and tile in self.undealt:
            return False
        return _fits(tile, self.must_fit.get(self.slot_times[index], -1))


def _fits(tile: Tile, mask: int) -> bool:
    return bool(tile.mask & mask)


def _first_slot_from(times: Sequence[int], moment: int) -> int:
    """Gets the index of the first slot acquired at ``moment`` or later (len(times) if none).

    A no-play moment ``t`` constrains the tiles acquired before ``t``; the draw at ``t`` itself
    brings a tile that was not part of the check.
    """
    return bisect_left(times, moment)  # the slot times are in order


def _last_violation(player: _Player, tile: Tile, before: int) -> int:
    """Gets the latest moment before ``before`` at which holding ``tile`` would contradict the history."""
    latest = _BEFORE_ROUND - 1
    for time, mask in player.events:
        if time < before and _fits(tile, mask) and time > latest:
            latest = time
    return latest


def _read_history(view: PlayerView) -> tuple[list[_Player], dict[int, Tile], Board]:
    """Replays the public history on the board, collecting each player's slots and constraints."""
    rules = view.rules
    board = Board.start(view.board.center, rules.arms_for(view.players))
    seats = [_Player([_BEFORE_ROUND], [0], [], [], {}) for _ in range(view.players)]
    identified: dict[int, Tile] = {}  # draw time -> tile, for draws played at once
    open_draw: tuple[int, int] | None = None  # (player, time) of the last draw this turn
    draws_left = sum(1 for _, move in view.history if type(move) is Draw)
    for time, (seat, move) in enumerate(view.history):
        if type(seat) is not int or not 0 <= seat < view.players:
            raise InvalidRecordError(f"history entry {time} names player {seat!r}, not a seat of the game")
        player = seats[seat]
        if open_draw is not None and open_draw[0] != seat:
            open_draw = None
        mask = board.playable_mask
        if type(move) is Draw:
            player.events.append((time, mask))  # DRAW-4 (or draw_until_playable: the last draw did not fit)
            player.slot_of_draw[time] = len(player.slot_times)
            player.slot_times.append(time)
            player.slot_caps.append(1)
            open_draw = (seat, time)
            draws_left -= 1
        elif type(move) is Pass:
            if open_draw is None or rules.drawn_tile == "must_play":
                player.events.append((time, mask))  # YARD-2, or DRAW-2: the drawn tile did not fit
            elif rules.draw_until_playable and view.yard_size + draws_left > view.reserve:
                # may_play and draw_until_playable: an unfitting tile, with the yard open, means draw again.
                player.must_fit[open_draw[1]] = mask
            open_draw = None
        elif type(move) is Play:
            tile, onto = move.tile, move.onto
            if type(tile) is not Tile or type(onto) is not int or not 0 <= onto < len(board):
                raise InvalidRecordError(f"history entry {time} ({move!r}) is not a play onto the board")
            offered = board.node(onto).exposed
            if not (tile.mask >> offered & 1 and board.accepts(offered, onto)):
                raise InvalidRecordError(f"history entry {time} ({move}) does not fit the board")
            if open_draw is not None:
                identified[open_draw[1]] = tile  # only the drawn tile may be played after a draw
            else:
                player.played.append((tile, time))
            board = board.place(tile, onto)
            open_draw = None
        else:
            raise InvalidRecordError(f"history entry {time} is {move!r}, not a move")
    if board != view.board:
        raise InvalidRecordError("the view's board is not the board its history builds")
    # Draws played at once leave no slot: drop them, renumbering the rest.
    for player in seats:
        kept = [(t, c) for t, c in zip(player.slot_times, player.slot_caps, strict=True) if t not in identified]
        player.slot_times = [t for t, _ in kept]
        player.slot_caps = [c for _, c in kept]
        player.slot_of_draw = {t: i for i, t in enumerate(player.slot_times) if t != _BEFORE_ROUND}
    return seats, identified, board


def _place_played(player: _Player, seat: int) -> list[list[Tile]]:
    """Puts the tiles a player played from hand into the earliest slots that allow them (EDF)."""
    times = player.slot_times
    placed: list[list[Tile]] = [[] for _ in times]
    spans: list[tuple[int, int, Tile]] = []
    for tile, when in player.played:
        low = _first_slot_from(times, _last_violation(player, tile, when))
        high = _first_slot_from(times, when) - 1  # acquired before it was played
        if low > high:
            raise InvalidRecordError(f"player {seat}'s history is inconsistent: {tile} was played but never held")
        spans.append((low, high, tile))
    spans.sort(key=lambda span: span[0])
    heap: list[tuple[int, int, Tile]] = []
    next_span = 0
    for index, cap in enumerate(player.slot_caps):
        while next_span < len(spans) and spans[next_span][0] <= index:
            low, high, tile = spans[next_span]
            heapq.heappush(heap, (high, tile.index, tile))
            next_span += 1
        unfit: list[tuple[int, int, Tile]] = []
        while heap and len(placed[index]) < cap:
            entry = heapq.heappop(heap)
            high, _, tile = entry
            if high < index:
                raise InvalidRecordError(f"player {seat}'s history is inconsistent: {tile} cannot have been held")
            if player.allows(index, tile):
                placed[index].append(tile)
            else:
                unfit.append(entry)
        for entry in unfit:
            heapq.heappush(heap, entry)
    if heap or next_span < len(spans):
        raise InvalidRecordError(f"player {seat}'s history is inconsistent: more plays than tiles held")
    return placed


class _Placement:
    """Tiles in places with fixed room, kept complete while tiles are fixed one by one."""

    def __init__(self, allowed: dict[Tile, list[int]], room: list[int]) -> None:
        self.allowed = allowed
        self.room = room
        self.members: list[set[Tile]] = [set() for _ in room]
        self.at: dict[Tile, int] = {}
        self.fixed: set[Tile] = set()
        self.fixed_count = [0] * len(room)
        for tile in sorted(allowed):
            if not self._augment(tile):
                raise InvalidRecordError(
                    f"no placement of the unseen tiles fits the view's history ({tile} fits nowhere)"
                )

    def _augment(self, tile: Tile) -> bool:
        """Places an unplaced tile, moving others along an alternating path if needed."""
        parent: dict[int, tuple[int, Tile]] = {}  # place -> (previous place, tile moved into it)
        frontier: list[tuple[int, Tile]] = [(-1, tile)]
        seen: set[int] = set()
        while frontier:
            next_frontier: list[tuple[int, Tile]] = []
            for origin, mover in frontier:
                for place in self.allowed[mover]:
                    if place in seen:
                        continue
                    seen.add(place)
                    parent[place] = (origin, mover)
                    if len(self.members[place]) < self.room[place]:
                        self._shift(parent, place, stop=-1)
                        return True
                    next_frontier.extend((place, other) for other in self.members[place] if other not in self.fixed)
            frontier = next_frontier
        return False

    def _shift(self, parent: dict[int, tuple[int, Tile]], place: int, stop: int) -> None:
        """Moves each tile on the path ending at ``place`` one step along, back to ``stop``."""
        while place != stop:
            origin, mover = parent[place]
            if origin >= 0:
                self.members[origin].discard(mover)
            self.members[place].add(mover)
            self.at[mover] = place
            place = origin

    def _reroute(self, tile: Tile, target: int) -> bool:
        """Moves ``tile`` to ``target``, pushing an unfixed tile out of it along a path to ``tile``'s place."""
        home = self.at[tile]
        parent: dict[int, tuple[int, Tile]] = {}
        frontier = [target]
        seen = {target}
        while frontier:
            next_frontier: list[int] = []
            for origin in frontier:
                for mover in self.members[origin]:
                    if mover in self.fixed or mover is tile:
                        continue
                    for place in self.allowed[mover]:
                        if place in seen:
                            continue
                        seen.add(place)
                        parent[place] = (origin, mover)
                        if place == home:
                            self.members[home].discard(tile)
                            self._shift(parent, place, stop=target)
                            self.members[target].add(tile)
                            self.at[tile] = target
                            return True
                        next_frontier.append(place)
            frontier = next_frontier
        return False

    def fix(self, tile: Tile, rng: random.Random) -> None:
        """Fixes ``tile`` in a place drawn with weight "room not yet fixed", among those still completable."""
        choices = [place for place in self.allowed[tile] if self.room[place] > self.fixed_count[place]]
        while True:
            weights = [self.room[place] - self.fixed_count[place] for place in choices]
            place = rng.choices(choices, weights)[0]
            if place == self.at[tile] or self._reroute(tile, place):
                break
            choices.remove(place)
        self.fixed.add(tile)
        self.fixed_count[place] += 1


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """Samples a whole game consistent with ``view``: hidden tiles spread over the other hands and the yard.

    The sample matches the view exactly (``observe(sample, view.player) == view``) and never
    contradicts the public history: a player who drew or passed for want of a play holds no
    tile that fitted then, unless drawn later. The module documentation says how it samples,
    its bias, and what is not reproduced (the seed; finished rounds' hidden details).

    Raises :class:`InvalidRecordError` if no game fits the view (a view not made by
    :func:`observe`).

    >>> import random
    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> for _ in range(12):
    ...     game = cf.apply(game, cf.legal_moves(game)[0])
    >>> view = cf.observe(game, 0)
    >>> sample = cf.determinize(view, random.Random(1))
    >>> cf.observe(sample, 0) == view, sample.round.hands[0] == game.round.hands[0]
    (True, True)
    """
    if type(view) is not PlayerView:
        raise TypeError(f"determinize takes a PlayerView (from observe), got {type(view).__name__}")
    _check_view(view)
    seats, identified, _ = _read_history(view)
    center, double = view.board.center.high, view.rules.round_double(view.round_index)
    if center < double:
        # center_fallback="highest_double": nobody was dealt the round's double or any double
        # above the center, so those were in the yard at the deal.
        undealt = frozenset(Tile(value, value) for value in range(center + 1, double + 1))
        for player in seats:
            player.undealt = undealt
    for seat, player in enumerate(seats):
        size = len(view.hand) if seat == view.player else view.hand_sizes[seat]
        player.slot_caps[0] = size + len(player.played) - (len(player.slot_times) - 1)
        if player.slot_caps[0] < 0:
            raise InvalidRecordError(f"player {seat} holds {size} tiles, fewer than their history allows")
    unseen = view.unseen
    exact = _exact_sample(view, seats, identified, unseen, rng)
    if exact is not None:
        return _game(view, exact, rng)
    played_slots = [_place_played(player, seat) for seat, player in enumerate(seats)]
    for _ in range(_ATTEMPTS):
        round_ = _sample_round(view, seats, played_slots, identified, unseen, rng)
        if round_ is not None:
            return _game(view, round_, rng)
    raise InvalidRecordError("no sampled deal replays the view's history; is the view from observe()?")


def _windows(view: PlayerView, seats: list[_Player], unseen: tuple[Tile, ...]) -> list[dict[Tile, tuple[int, int]]]:
    """Gets, per seat, the slots each tile it may hold can sit in: ``(first, last)``, or none if it cannot.

    A tile sits in a slot acquired after the last moment holding it would contradict the history
    (and, if it was played from hand, acquired before that play).
    """
    windows: list[dict[Tile, tuple[int, int]]] = []
    for seat, player in enumerate(seats):
        times = player.slot_times
        window: dict[Tile, tuple[int, int]] = {}
        for tile, when in player.played:
            low = _first_slot_from(times, _last_violation(player, tile, when))
            high = _first_slot_from(times, when) - 1  # acquired before it was played
            if low <= high:
                window[tile] = (low, high)
        # A tile still held sits in a slot acquired after the last moment the player proved to
        # lack one of its values: the later of the first such slots for its two values.
        latest = [_BEFORE_ROUND - 1] * (view.rules.max_pip + 1)
        for time, mask in player.events:
            for value in range(len(latest)):
                if mask >> value & 1:
                    latest[value] = max(latest[value], time)
        first = [_first_slot_from(times, time) for time in latest]
        last = len(times) - 1
        held = view.hand if seat == view.player else unseen
        if not player.events:
            window.update(dict.fromkeys(held, (0, last)))  # nothing proven: any slot
        else:
            for tile in held:
                low = max(first[tile.high], first[tile.low])
                if low <= last:
                    window[tile] = (low, last)
        windows.append(window)
    return windows


def _shuffle_fitting(items: list[Tile], allowed: Sequence[Container[Tile]], rng: random.Random) -> bool:
    """Shuffles ``items`` in place, front to back, while each tile put at position ``i`` is in ``allowed[i]``.

    Returns ``False`` at the first tile that is not (the rest is left unshuffled); positions past
    the end of ``allowed`` take anything. Stopping there decides exactly what shuffling everything
    and checking afterwards would, only sooner: a rejected proposal costs a few draws, not a shuffle.
    (Fisher-Yates with ``int(random() * n)``: one C call per tile; its bias is below 2**-40.)
    """
    uniform = rng.random
    count, checked = len(items), len(allowed)
    for at in range(count):
        pick = at + int(uniform() * (count - at))
        items[at], items[pick] = items[pick], items[at]
        if at < checked and items[at] not in allowed[at]:
            return False
    return True


def _exact_sample(
    view: PlayerView,
    seats: list[_Player],
    identified: dict[int, Tile],
    unseen: tuple[Tile, ...],
    rng: random.Random,
) -> RoundState | None:
    """Samples a past uniformly among those consistent with the view, or ``None`` if none turned up in time.

    Proposals are uniform over every past with the view's counts: the unseen tiles shuffled over
    the other hands' room and the yard, and each seat's tiles shuffled over its slots. A proposal
    is kept only if it fits the history, so what is kept is uniform over the consistent pasts,
    exactly the target (rejection sampling). The viewer's own tiles are the same in every past,
    so their arrangement is drawn by its own rejection loop, which leaves the result exact.
    """
    windows = _windows(view, seats, unseen)
    known = [[tile for tile, _ in player.played] for player in seats]
    known[view.player] += view.hand
    room = [sum(player.slot_caps) - len(tiles) for player, tiles in zip(seats, known, strict=True)]
    if room[view.player] != 0 or any(left < 0 for left in room):
        return None
    room[view.player] = 0
    # What each position of a seat's arrangement (its slots in order, by capacity) may hold.
    fitting: list[list[set[Tile]]] = []
    for seat, (player, window) in enumerate(zip(seats, windows, strict=True)):
        by_slot = []
        for index, time in enumerate(player.slot_times):
            fit = player.must_fit.get(time, -1)  # as _Player.allows reads it
            barred = player.undealt if index == 0 else frozenset()
            by_slot.append(
                {tile for tile, (low, high) in window.items() if low <= index <= high and tile.mask & fit} - barred
            )
        if seat == view.player and view.drawn is not None:
            by_slot[-1] &= {view.drawn}  # the viewer's drawn tile came with their last draw
        fitting.append([tiles for tiles, cap in zip(by_slot, player.slot_caps, strict=True) for _ in range(cap)])
    # Where each unseen tile may go, checked as the proposal is drawn (an early no): a seat with
    # one slot takes what that slot may hold, a seat with draws any tile some slot of it may hold.
    shares: list[Container[Tile]] = []
    for seat in range(len(seats)):
        share = fitting[seat][0] if len(seats[seat].slot_caps) == 1 else windows[seat]
        shares += [share] * room[seat]

    def arrange(seat: int, tiles: list[Tile]) -> list[list[Tile]] | None:
        """Shuffles ``tiles`` over the seat's slots; ``None`` if the history rules that arrangement out."""
        if not _shuffle_fitting(tiles, fitting[seat], rng):
            return None
        cut, at = [], 0
        for cap in seats[seat].slot_caps:
            cut.append(tiles[at : at + cap])
            at += cap
        return cut

    pool = list(unseen)
    budget = _EXACT_ATTEMPTS
    while budget > 0:
        own = None
        while own is None and budget > 0:
            budget -= 1
            own = arrange(view.player, list(known[view.player]))
        slots: list[list[list[Tile]]] = []
        while own is not None and len(slots) < len(seats) and budget > 0:
            budget -= 1
            if not _shuffle_fitting(pool, shares, rng):
                continue
            slots, start = [], 0
            for seat in range(len(seats)):
                if seat == view.player:
                    slots.append(own)
                    continue
                cut = arrange(seat, known[seat] + pool[start : start + room[seat]])
                start += room[seat]
                if cut is None:
                    slots = []
                    break
                slots.append(cut)
        if len(slots) == len(seats):
            round_ = _replay(view, seats, slots, identified, pool[sum(room) :], rng)
            if round_ is not None:
                return round_
    return None


def _check_view(view: PlayerView) -> None:
    """Checks the counts a sample depends on, so a hand-made view fails with a reason."""
    sizes = view.hand_sizes
    if not (
        view.players >= 2
        and len(sizes) == view.players
        and 0 <= view.player < view.players
        and sizes[view.player] == len(view.hand)
    ):
        raise InvalidRecordError("the view's players, seat and hand sizes disagree: is it from observe()?")
    if len(view.unseen) != sum(sizes) - len(view.hand) + view.yard_size:
        raise InvalidRecordError("the view's hand sizes and yard size do not add up to the unseen tiles")
    if view.drawn is not None:
        last = view.history[-1] if view.history else None
        if view.drawn not in view.hand or last is None or last != (view.player, Draw()):
            raise InvalidRecordError("the view's drawn tile is not the viewer's last draw")


def _sample_round(
    view: PlayerView,
    seats: list[_Player],
    played_slots: list[list[list[Tile]]],
    identified: dict[int, Tile],
    unseen: tuple[Tile, ...],
    rng: random.Random,
) -> RoundState | None:
    # Places: one per (seat, slot) with room left after the played tiles, then the yard.
    places: list[tuple[int, int]] = []
    room: list[int] = []
    for seat, player in enumerate(seats):
        for index, cap in enumerate(player.slot_caps):
            left = cap - len(played_slots[seat][index])
            if left < 0:
                raise InvalidRecordError(f"player {seat}'s history is inconsistent with their hand size")
            if left:
                places.append((seat, index))
                room.append(left)
    yard_place = len(places)
    room.append(view.yard_size)
    allowed: dict[Tile, list[int]] = {}
    own = set(view.hand)
    # The viewer's own drawn tile sits in their last slot, and nothing else does.
    drawn_place = places.index((view.player, len(seats[view.player].slot_times) - 1)) if view.drawn else None
    for tile in (*view.hand, *unseen):
        options: list[int] = []
        for place, (seat, index) in enumerate(places):
            if (seat == view.player) != (tile in own):
                continue
            if drawn_place is not None and (place == drawn_place) != (tile is view.drawn):
                continue
            player = seats[seat]
            if not player.allows(index, tile):
                continue
            if index >= _first_slot_from(player.slot_times, _last_violation(player, tile, len(view.history))):
                options.append(place)
        if tile not in own:
            options.append(yard_place)
        allowed[tile] = options
    placement = _Placement(allowed, room)
    order = list(unseen)
    rng.shuffle(order)
    for tile in order:
        placement.fix(tile, rng)
    slots: list[list[list[Tile]]] = [[list(tiles) for tiles in seat_slots] for seat_slots in played_slots]
    for place, (seat, index) in enumerate(places):
        slots[seat][index].extend(sorted(placement.members[place]))
    yard = sorted(placement.members[yard_place])
    rng.shuffle(yard)
    return _replay(view, seats, slots, identified, yard, rng)


def _replay(
    view: PlayerView,
    seats: list[_Player],
    slots: list[list[list[Tile]]],
    identified: dict[int, Tile],
    yard: list[Tile],
    rng: random.Random,
) -> RoundState | None:
    """Rebuilds the round's start from the sampled slots and replays the history; ``None`` if it fails."""
    drawn: list[Tile] = []
    for time, (seat, move) in enumerate(view.history):
        if type(move) is Draw:
            tile = identified.get(time)
            if tile is None:
                (tile,) = slots[seat][seats[seat].slot_of_draw[time]]
            drawn.append(tile)
    hands = []
    for seat in range(view.players):
        hand = list(slots[seat][0])
        rng.shuffle(hand)
        hands.append(tuple(hand))
    history = view.history
    first = history[0][0] if history else view.current_player
    rules = view.rules
    state = RoundState(
        rules=rules,
        hands=tuple(hands),
        yard=(*drawn, *yard),
        board=Board.start(view.board.center, rules.arms_for(view.players)),
        current_player=first if first is not None else 0,
        reserve=view.reserve,
    )
    core = state._round  # replayed by the core: the moves are known to be well formed
    for _, move in history:
        code = move_code(move)
        if core.over or code not in core.legal():
            return None  # this deal would have ended the round earlier, or blocked a move
        core = core.after(code)
    state = round_of(core)
    if state.is_over != view.is_over:
        return None
    ordered = (*state.hands[: view.player], view.hand, *state.hands[view.player + 1 :])
    if sorted(ordered[view.player]) != sorted(state.hands[view.player]):
        raise InvalidRecordError("the viewer's hand does not match their history")  # pragma: no cover
    return replace_round(state, hands=ordered)


def _game(view: PlayerView, round_: RoundState, rng: random.Random) -> GameState:
    rules, players = view.rules, view.players
    results = []
    for number, (double, scores, went_out) in enumerate(
        zip(view.round_doubles, view.round_scores, view.round_went_out, strict=True)
    ):
        if view.is_over and number == len(view.round_scores) - 1:
            final = round_
        else:
            final = RoundState(
                rules=rules,
                hands=((),) * players,
                yard=(),
                board=Board.start(Tile(double, double), rules.arms_for(players)),
                current_player=0,
                reserve=rules.reserve_for(players),
                is_over=True,
                went_out=went_out,
            )
        results.append(RoundResult(double=double, scores=scores, went_out=went_out, final=final))
    game = GameState(
        rules=rules,
        players=players,
        seed=rng.getrandbits(63),
        round=round_,
        round_index=view.round_index,
        totals=view.totals,
        results=tuple(results),
        winners=view.winners,
    )
    if observe(game, view.player) != view:
        raise InvalidRecordError("no game fits the view: is it from observe()?")
    return game
