"""The chance layer beyond what the conformance suite checks: copies, views, information states, resampling.

Its deals, draws and odds go through ``test_conformance.py`` (the chance layer and OpenSpiel are
statements of the rules there); these tests need no extra.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

import chickenfoot as cf
from chickenfoot import reference
from chickenfoot._game._chance import ChanceGame
from chickenfoot.conformance import reference_round


def advance(game: ChanceGame, rng: random.Random, events: int) -> ChanceGame:
    """Plays ``events`` chance outcomes (by their odds) and moves (at random) on ``game`` itself."""
    for _ in range(events):
        if game.is_over:
            break
        if game.is_chance:
            outcomes = game.chance_outcomes()
            game.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            game.apply_move(rng.choice(game.legal_moves()))
    return game


def _fields(game: ChanceGame) -> tuple[object, ...]:
    """Gets every field of ``game``, lists copied: a snapshot later changes cannot reach."""
    return (
        game.rules,
        game.players,
        game.rounds,
        game.round_index,
        list(game.totals),
        list(game.results),
        [list(hand) for hand in game.hands],
        list(game.pool),
        game.starter,
        game.setup_seat,
        game.round,
        game.drawing,
        list(game.events),
    )


@pytest.mark.parametrize("events", [0, 5, 40, 200])
@pytest.mark.parametrize("rules", [cf.Rules.trains(max_pip=6), cf.Rules.cross(max_pip=6)], ids=["trains", "cross"])
def test_a_copy_equals_its_game_and_goes_its_own_way(rules: cf.Rules, events: int) -> None:
    game = advance(ChanceGame.start(rules, 3), random.Random(events), events)
    before = _fields(game)
    for twin in (game.copy(), copy.deepcopy(game)):
        assert twin == game
        assert _fields(twin) == before
        advance(twin, random.Random(1), 60)  # deals, moves, round ends: everything a game changes
        assert _fields(game) == before
        assert twin != game


def test_a_view_shows_nobody_to_move_while_dealing_or_once_over() -> None:
    game = ChanceGame.start(cf.Rules.cross(max_pip=6), 2)
    for _ in range(3):  # part way into the deal: the hands so far, no moves
        game.apply_chance(game.chance_outcomes()[0][0])
    view = game.view(0)
    assert (view.current_player, view.drawn, view.legal_moves) == (None, None, ())
    assert len(view.hand) == 3
    advance(game, random.Random(0), 20)
    while game.is_chance:
        advance(game, random.Random(0), 1)
    mover = game.current_player
    assert game.view(mover).legal_moves == game.legal_moves()
    assert game.view(mover).current_player == mover
    assert game.view((mover + 1) % 2).legal_moves == ()
    advance(game, random.Random(0), 100_000)
    assert game.is_over
    assert game.view(0).legal_moves == ()
    assert game.view(0).current_player is None


@pytest.mark.parametrize("seed", range(4))
def test_an_information_state_is_what_its_player_saw_then_their_hand(seed: int) -> None:
    game = advance(ChanceGame.start(cf.Rules.trains(max_pip=6), 3), random.Random(seed), 30 + 7 * seed)
    for player in range(3):
        parts = game.information(player).split(" | ")
        seen = [text for who, text in game.events if who in (None, player)]
        assert parts[: len(seen)] == seen
        hand = game.round.hands[player] if game.round is not None else game.hands[player]
        assert parts[len(seen)] == "hand " + " ".join(map(str, sorted(hand)))
        drew = game.round is not None and game.round.drawn is not None and game.round.current_player == player
        assert parts[len(seen) + 1 :] == ([f"drawn {game.round.drawn}"] if drew else [])  # type: ignore[union-attr]
        assert len(seen) < len(game.events)  # the others' deals and draws stay theirs


@pytest.mark.parametrize("events", [4, 12, 60, 90])
def test_resampling_deals_the_unseen_tiles_again_and_keeps_what_the_player_saw(events: int) -> None:
    game = advance(ChanceGame.start(cf.Rules.cross(max_pip=6), 3), random.Random(events), events)
    player = 1
    samples = [game.resample(player, random.Random(seed)) for seed in range(12)]
    for sample in samples:
        assert sample.information(player) == game.information(player)
        assert [who for who, _ in sample.events] == [who for who, _ in game.events]
        assert all(text == "?" for who, text in sample.events if who not in (None, player))
        if game.round is None:  # during the deal: the hands so far and the undealt tiles
            assert sample.hands[player] == game.hands[player]
            assert [len(hand) for hand in sample.hands] == [len(hand) for hand in game.hands]
            unseen = Counter(t for seat, hand in enumerate(game.hands) if seat != player for t in hand) + Counter(
                game.pool
            )
            dealt = Counter(t for seat, hand in enumerate(sample.hands) if seat != player for t in hand)
            assert dealt + Counter(sample.pool) == unseen
            assert sample.pool == sorted(sample.pool)
        else:
            assert sample.round is not None
            assert sample.round.hands[player] == game.round.hands[player]
            assert [len(hand) for hand in sample.round.hands] == [len(hand) for hand in game.round.hands]
            assert sample.round.board == game.round.board
        assert _fields(game) == _fields(game.copy())  # the game itself is left alone
    others = {tuple(map(tuple, s.hands)) if s.round is None else s.round.hands for s in samples}
    assert len(others) > 1  # the unseen tiles really are dealt again


def test_an_outcome_not_offered_is_refused_naming_the_event_and_changes_nothing() -> None:
    trains = ChanceGame.start(cf.Rules.trains(max_pip=6), 2)  # first the starter: a seat
    before = _fields(trains)
    with pytest.raises(cf.IllegalMoveError) as refused:
        trains.apply_chance(2)
    assert str(refused.value) == "chance outcome 2 is not offered: the next event is a starter seat, one of [0, 1]"
    assert _fields(trains) == before
    trains.apply_chance(1)
    dealt = trains.chance_outcomes()[0][0]
    trains.apply_chance(dealt)
    with pytest.raises(cf.IllegalMoveError) as refused:  # then tiles: an index, none dealt twice
        trains.apply_chance(dealt)
    offered = [outcome for outcome, _ in trains.chance_outcomes()]
    assert str(refused.value) == (
        f"chance outcome {dealt} is not offered: the next event is a tile index, one of {offered[:8]} ..."
    )
    with pytest.raises(cf.IllegalMoveError, match="chance outcome '3' is not offered"):
        trains.apply_chance("3")  # type: ignore[arg-type]
    cross = ChanceGame.start(cf.Rules.cross(max_pip=6), 2)
    with pytest.raises(cf.IllegalMoveError, match=r"^chance outcome 28 is not offered: the next event is a tile index"):
        cross.apply_chance(28)  # the cross deal starts with a tile: double-6 has 28, numbered 0 to 27


def test_the_refusal_of_the_unfillable_foot_says_why_and_what_to_do() -> None:
    with pytest.raises(cf.RulesError) as refused:
        ChanceGame.start(cf.Rules.trains(unfillable_foot_ends_round=True), 2)
    assert str(refused.value) == (
        "unfillable_foot_ends_round counts the tiles that can still be drawn, but the chance layer keeps "
        "the yard as a pool whose reserve is whatever is left at the end: use reserve=0 with it"
    )


def test_a_game_of_fewer_rounds_ends_after_them() -> None:
    game = advance(ChanceGame.start(cf.Rules.cross(max_pip=6), 2, rounds=2), random.Random(3), 100_000)
    assert game.is_over
    assert len(game.results) == 2
    assert game.round_index == 1


def test_a_deal_in_progress_shows_as_the_hands_so_far_around_the_rounds_double() -> None:
    game = ChanceGame.start(cf.Rules.trains(max_pip=6), 3)
    game.apply_chance(2)  # the starter: seat 2
    for _ in range(4):
        game.apply_chance(game.chance_outcomes()[-1][0])
    with pytest.raises(RuntimeError) as refused:
        game.game_state()  # no round is in play yet
    assert str(refused.value) == "no round is in play while a deal is in progress: see view()"
    view = game.view(0)
    assert (view.round_index, view.totals, view.round_scores, view.winners) == (0, (0, 0, 0), (), ())
    assert view.hand_sizes == (4, 0, 0)
    assert len(view.hand) == 4
    assert view.current_player is None  # nobody moves while the deal goes on
    assert (view.reserve, view.yard_size, view.legal_moves) == (1, len(game.pool), ())
    assert view.board.nodes == (cf.Node(cf.Tile(6, 6), None, 6),)
    assert (view.board.pending, view.board.missing) == (0, 3)


def test_the_view_of_a_later_deal_shows_the_finished_rounds_and_nobody_to_move() -> None:
    rules = cf.Rules.trains(max_pip=6)
    game = ChanceGame.start(rules, 2)
    rng = random.Random(3)
    while not game.results:
        advance(game, rng, 1)
    assert game.round is None  # the next round's deal has begun
    view = game.view(1)
    assert (view.player, view.rules, view.players, view.round_index) == (1, rules, 2, 1)
    assert view.round_doubles == (6,)
    assert view.round_scores == (game.results[0].scores,)
    assert view.round_went_out == (game.results[0].went_out,)
    assert view.round_outcomes == (game.results[0].outcome,)
    assert view.totals == tuple(game.totals)
    assert (view.reserve, view.history, view.is_over, view.outcome, view.drawn) == (2, (), False, None, None)
    assert view.board.nodes == (cf.Node(cf.Tile(5, 5), None, 5),)


def test_the_winners_and_the_finished_games_view_follow_the_totals() -> None:
    rules = cf.Rules.cross(max_pip=6)
    game = advance(ChanceGame.start(rules, 3, rounds=2), random.Random(5), 10_000)
    assert game.is_over
    assert game.winners() == cf.decide_winners(rules, tuple(game.totals), tuple(game.results))
    results = tuple(reference.Result(r.double, r.scores, r.went_out, reference_round(r.final)) for r in game.results)
    assert game.winners() == reference.decide_winners(rules, tuple(game.totals), results)  # TIE-2 by the oracle
    state = game.game_state()
    assert (state.seed, state.round_index, state.totals) == (0, 1, tuple(game.totals))
    rounds = [text for _, text in game.events if text.startswith("round ")]
    assert rounds == ["round 1", "round 2"]  # counted from 1, as people read them
    ends = [text for _, text in game.events if "; scores " in text]
    assert ends == [f"{r.outcome}; scores {' '.join(map(str, r.scores))}" for r in game.results]
    view = game.view(2)
    assert (view.current_player, view.drawn, view.legal_moves) == (None, None, ())


def test_a_draw_asked_for_while_a_play_is_legal_is_refused_and_changes_nothing() -> None:
    game = ChanceGame.start(cf.Rules.trains(max_pip=6), 2)
    while game.is_chance:
        advance(game, random.Random(0), 1)
    assert all(type(move) is cf.Play for move in game.legal_moves())  # the center takes its arms first
    before = _fields(game)
    with pytest.raises(cf.IllegalMoveError, match="DRAW-4"):
        game.apply_move(cf.Draw())
    assert _fields(game) == before
    assert not game.is_chance


def test_the_drawer_alone_sees_the_tile_drawn_and_a_copy_keeps_the_setup_draws_going() -> None:
    # DRAW-3: under the cross rules a playable drawn tile may be kept, so a turn can wait on it.
    drawn = None
    for seed in range(200):
        game = ChanceGame.start(cf.Rules.cross(max_pip=6), 3)
        rng = random.Random(seed)
        while not game.is_over and drawn is None:
            advance(game, rng, 1)
            if not game.is_chance and game.round is not None and game.round.drawn is not None:
                drawn = game
        if drawn is not None:
            break
    assert drawn is not None
    assert drawn.round is not None
    mover = drawn.round.current_player
    assert drawn.information(mover).endswith(f" | drawn {drawn.round.drawn}")
    assert all("drawn" not in drawn.information(seat).split(" | ")[-1] for seat in range(3) if seat != mover)
    # DEAL-B2: nobody holds 6-6 when it is the last tile of the pool: the seats draw for it.
    setup = ChanceGame.start(cf.Rules.cross(max_pip=6, hand_size=3), 2)
    while setup.setup_seat is None:
        setup.apply_chance(setup.chance_outcomes()[0][0])
    twin = setup.copy()
    assert (twin.setup_seat, twin == setup) == (setup.setup_seat, True)
    twin.apply_chance(twin.chance_outcomes()[0][0])
    assert twin.setup_seat != setup.setup_seat
