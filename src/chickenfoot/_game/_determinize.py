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
    are dealt afresh. Finished rounds keep their true doubles, scores and outcomes, but their
    ``final`` state is a stand-in: a well-formed position on the round's center that ends the
    same way (who went out holds nothing; else nobody can play or draw), whose hands are not the
    round's; except the last round of a finished game, whose final state is the sampled round.

Where the work is done
    This module checks the view, turns its history into move codes and builds the public game.
    Reading the history, the proposals and the weighted placement run over tiles as ints and
    sets of tiles as bitsets in :mod:`chickenfoot._core._sampling`, which ``pip install .`` compiles
    with the core; the replay is the core's own (``Round.legal`` and ``Round.after``). A search
    that samples one view many times holds a :class:`Worlds`, which checks the view and reads
    its history once and then gives a core round per sample, without the public game.
"""

from __future__ import annotations

import random

from .._core import (
    DRAW,
    NONE,
    PASS,
    History,
    Inconsistent,
    Round,
    Slots,
    exact_sample,
    is_play,
    place_played,
    read_history,
    replaced,
    replay,
    round_on,
    start_layout,
    start_of,
    tile_index,
    unseen_tiles,
    weighted_sample,
)
from ._board import Board, board_of
from ._errors import InvalidRecordError
from ._moves import Draw, Pass, Play
from ._outcome import Outcome
from ._plans import settings_for
from ._state import GameState, RoundState, round_of, stand_in_result
from ._tiles import Tile, full_set
from ._views import PlayerView, observe

__all__ = ["determinize"]

_ATTEMPTS = 100  # resamples allowed when a replay finds the round would have ended earlier


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
    return _game(view, round_of(Worlds(view)._sample(rng)), rng)  # _game checks the sample fits the view


class Worlds:
    """Samples core rounds consistent with one view: the view checked and its history read once.

    :func:`determinize` is one sample dressed as a public game; the search bots draw many for
    one decision, each costing only the sampling and the replay of the round's moves.

    Raises :class:`InvalidRecordError` if the view's counts or history are impossible (when
    built), or if no game fits the view (at the first sample, which is checked as
    :func:`determinize` checks its game: a view not made by :func:`observe` is refused, not
    searched).
    """

    def __init__(self, view: PlayerView) -> None:
        """Checks ``view`` and reads its history into each seat's slots and constraints."""
        self.view = view
        self.unseen = _check_view(view)
        self.history = history = _read_history(view)
        seats = history.seats
        center, double = view.board.center.high, view.rules.round_double(view.round_index)
        if center < double:
            # center_fallback="highest_double": nobody was dealt the round's double or any double
            # above the center, so those were in the yard at the deal.
            undealt = 0
            for value in range(center + 1, double + 1):
                undealt |= 1 << tile_index(value, value)
            for player in seats:
                player.undealt = undealt
        for seat, player in enumerate(seats):
            size = len(view.hand) if seat == view.player else view.hand_sizes[seat]
            player.slot_caps[0] = size + len(player.played) - (len(player.slot_times) - 1)
            if player.slot_caps[0] < 0:
                raise InvalidRecordError(f"player {seat} holds {size} tiles, fewer than their history allows")
        self.hand = [tile.index for tile in view.hand]
        self.drawn = NONE if view.drawn is None else view.drawn.index
        self.played_slots: Slots | None = None  # the weighted placement's, made on first use
        self.fits = False  # whether a sample has been shown to fit the whole view

    def sample(self, rng: random.Random) -> Round:
        """Samples the round as it stands, its hidden tiles dealt as the view allows (as in :func:`determinize`)."""
        round_ = self._sample(rng)
        if not self.fits:
            # What the sampling does not read (the scores, whose turn it is) must fit too; its
            # own generator, so the check leaves the caller's stream as it was.
            _game(self.view, round_of(round_), random.Random(0))
            self.fits = True
        return round_

    def _sample(self, rng: random.Random) -> Round:
        view, history, hand, drawn = self.view, self.history, self.hand, self.drawn
        seats = history.seats

        def rebuild(slots: Slots, yard: list[int]) -> Round | None:
            return _replay(view, history, slots, yard, rng)

        try:  # the core's samplers say why no deal fits the view; a reader of views says it as its error
            exact = exact_sample(seats, view.player, hand, drawn, self.unseen, view.rules.max_pip, rng, rebuild)
            if exact is not None:
                return exact
            if self.played_slots is None:
                self.played_slots = [place_played(player, seat) for seat, player in enumerate(seats)]
            for _ in range(_ATTEMPTS):
                slots, yard = weighted_sample(
                    seats,
                    self.played_slots,
                    view.player,
                    hand,
                    drawn,
                    self.unseen,
                    view.yard_size,
                    len(view.history),
                    rng,
                )
                round_ = rebuild(slots, yard)
                if round_ is not None:
                    return round_
        except Inconsistent as error:
            raise InvalidRecordError(str(error)) from None
        raise InvalidRecordError("no sampled deal replays the view's history; is the view from observe()?")


def _check_view(view: PlayerView) -> list[int]:
    """Checks the counts a sample depends on, so a hand-made view fails with a reason; gets the unseen tiles."""
    sizes = view.hand_sizes
    if not (
        view.players >= 2
        and len(sizes) == view.players
        and 0 <= view.player < view.players
        and sizes[view.player] == len(view.hand)
    ):
        raise InvalidRecordError("the view's players, seat and hand sizes disagree: is it from observe()?")
    unseen = unseen_tiles(view.board._layout, [tile.index for tile in view.hand], view.rules.set_size)  # view.unseen
    if len(unseen) != sum(sizes) - len(view.hand) + view.yard_size:
        raise InvalidRecordError("the view's hand sizes and yard size do not add up to the unseen tiles")
    if view.drawn is not None:
        last = view.history[-1] if view.history else None
        if view.drawn not in view.hand or last is None or last != (view.player, Draw()):
            raise InvalidRecordError("the view's drawn tile is not the viewer's last draw")
    return unseen


def _read_history(view: PlayerView) -> History:
    """Reads the public history: each player's slots and constraints, checking every move on the board."""
    codes: list[int] = []
    movers: list[int] = []
    malformed: InvalidRecordError | None = None  # the first entry that is not a move by a seat
    players = view.players
    for time, (seat, move) in enumerate(view.history):
        if type(seat) is not int or not 0 <= seat < players:
            malformed = InvalidRecordError(f"history entry {time} names player {seat!r}, not a seat of the game")
            break
        if type(move) is Play:
            tile, onto = move.tile, move.onto
            if type(tile) is not Tile or type(onto) is not int or onto < 0:
                malformed = InvalidRecordError(f"history entry {time} ({move!r}) is not a play onto the board")
                break
            codes.append(onto << 8 | tile.index)  # _codes.play(tile.index, onto), spelled out in the loop
        elif type(move) is Draw:
            codes.append(DRAW)
        elif type(move) is Pass:
            codes.append(PASS)
        else:
            malformed = InvalidRecordError(f"history entry {time} is {move!r}, not a move")
            break
        movers.append(seat)
    rules, board = view.rules, view.board
    # The board before the history: the center, or the nodes of a position set up by hand, which
    # no move of the history placed (the history's plays are the board's last nodes).
    set_up = len(board) - sum(1 for code in codes if is_play(code))
    if set_up < 1:
        raise InvalidRecordError("the view's history has more plays than its board has nodes")
    layout = start_layout(board.center.index, board.arms)
    for node in board.nodes[1:set_up]:
        assert node.parent is not None  # only the center has none
        layout = layout.place(node.tile.index, node.parent)
    must_play, until = rules.drawn_tile == "must_play", rules.draw_until_playable
    history = read_history(codes, movers, layout, players, must_play, until, view.yard_size, view.reserve)
    if history.unfit != NONE:
        time = history.unfit
        move = view.history[time][1]
        assert type(move) is Play  # only plays can fail to fit
        if move.onto >= history.layout.size:
            raise InvalidRecordError(f"history entry {time} ({move!r}) is not a play onto the board")
        raise InvalidRecordError(f"history entry {time} ({move}) does not fit the board")
    if malformed is not None:
        raise malformed
    if board_of(history.layout) != view.board:
        raise InvalidRecordError("the view's board is not the board its history builds")
    return history


def _replay(
    view: PlayerView,
    history: History,
    slots: Slots,
    yard: list[int],
    rng: random.Random,
) -> Round | None:
    """Rebuilds the round's start from the sampled slots and replays the history; ``None`` if it fails."""
    hands, stock = start_of(history, slots, yard, rng)
    first = history.movers[0] if history.movers else view.current_player
    rules = view.rules
    start = round_on(
        settings_for(rules),
        history.start,
        hands=hands,
        yard=stock,
        current=first if first is not None else 0,
        reserve=view.reserve,
    )
    core = replay(start, history.codes)  # None if this deal would have ended the round earlier, or blocked a move
    if core is None or core.over != view.is_over:
        return None
    mine = tuple(tile.index for tile in view.hand)  # the viewer's hand in the engine's order
    if sorted(mine) != sorted(core.hands[view.player]):
        raise InvalidRecordError("the viewer's hand does not match their history")  # pragma: no cover
    hands = replaced(core.hands, view.player, mine)
    return core.moved(
        core.setup,
        hands=hands,
        yard=core.yard,
        current=core.current,
        drawn=core.drawn,
        over=core.over,
        went_out=core.went_out,
        log=core.log,
    )


def _placeholder_final(view: PlayerView, double: int, outcome: Outcome) -> RoundState:
    """Builds a stand-in final state for a finished round, whose tiles the view never shows.

    A well-formed position that ends as the round did: who went out holds nothing; otherwise
    every tile carrying the center's value lies in a yard kept as reserve, so nobody can play
    or draw. Its hands are not the round's (the view has only its scores, kept in the result).
    """
    rules, players = view.rules, view.players
    center = Tile(double, double)
    hands: list[list[Tile]] = [[] for _ in range(players)]
    yard: list[Tile] = []
    out = outcome.winner
    seats = [seat for seat in range(players) if seat != out]
    for tile in full_set(rules.max_pip):
        if tile is center:
            continue
        if out is None and tile.carries(double):
            yard.append(tile)
        else:
            hand = hands[seats[sum(map(len, hands)) % len(seats)]]
            hand.append(tile)
    return RoundState(
        rules,
        hands,
        yard,
        Board.start(center, rules.arms_for(players)),
        0 if out is None else out,
        reserve=len(yard),
    )


def _game(view: PlayerView, round_: RoundState, rng: random.Random) -> GameState:
    rules, players = view.rules, view.players
    results = []
    for number, (double, scores, outcome) in enumerate(
        zip(view.round_doubles, view.round_scores, view.round_outcomes, strict=True)
    ):
        if view.is_over and number == len(view.round_scores) - 1:
            final = round_
        else:
            final = _placeholder_final(view, double, outcome)
        results.append(stand_in_result(double, scores, final, outcome))  # its hands sampled, or stood in for
    game = GameState(
        rules=rules,
        players=players,
        seed=rng.getrandbits(63),
        round=round_,
        round_index=view.round_index,
        totals=view.totals,
        results=tuple(results),
    )
    if observe(game, view.player) != view:
        raise InvalidRecordError("no game fits the view: is it from observe()?")
    return game
