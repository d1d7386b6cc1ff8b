"""Bots: they return legal moves from what their seat sees, deterministically, and Greedy/Search play sensibly."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

import chickenfoot as cf
import chickenfoot.tournament
from _games import games
from chickenfoot.bots import Bot, GreedyBot, HeaviestBot, RandomBot, SamplerBot, SearchBot, greedy_score

Tile = cf.Tile


def _to_move(game: cf.GameState) -> cf.PlayerView:
    return cf.observe(game, game.round.current_player)


def test_bots_satisfy_the_protocol() -> None:
    for bot in (RandomBot(seed=1), GreedyBot(), SearchBot(simulations=5)):
        assert isinstance(bot, Bot)
    assert isinstance(lambda view: view.legal_moves[0], Bot)  # any callable is a bot
    assert not isinstance(42, Bot)


@given(games(), st.integers(0, 2**16))
def test_random_and_greedy_bots_choose_a_legal_move(game: cf.GameState, seed: int) -> None:
    if game.is_over:
        return
    view = _to_move(game)
    for bot in (RandomBot(seed=seed), GreedyBot()):
        move = bot(view)
        assert move in cf.legal_moves(game)
        cf.apply(game, move)  # and the engine accepts it


@settings(max_examples=8)
@given(games(max_steps=120), st.integers(0, 2**16))
def test_search_bot_chooses_a_legal_move_and_is_reproducible(game: cf.GameState, seed: int) -> None:
    if game.is_over:
        return
    view = _to_move(game)
    bot = SearchBot(simulations=12, seed=seed)
    move = bot(view)
    assert move in cf.legal_moves(game)
    assert SearchBot(simulations=12, seed=seed)(view) == move  # a pure function of seed and view


def _rating(view: cf.PlayerView, move: cf.Play) -> float:
    """GreedyBot's rating as its docstring states it, counted afresh."""
    tile = move.tile
    unseen = Counter(value for other in view.unseen for value in {other.high, other.low})
    others = [other for other in view.hand if other != tile]
    if tile.is_double:
        toe = any(other.carries(tile.high) for other in others)
        return view.rules.tile_value(tile) + (4 if toe else -3) - unseen[tile.high]
    exposed = tile.other(view.board.nodes[move.onto].exposed)
    follow = min(sum(other.carries(exposed) for other in others), 2)
    return view.rules.tile_value(tile) + follow - unseen[exposed]


@given(games())
def test_greedy_makes_the_play_its_rule_rates_best(game: cf.GameState) -> None:
    if game.is_over:
        return
    view = _to_move(game)
    move = GreedyBot()(view)
    plays = [m for m in view.legal_moves if type(m) is cf.Play]
    if type(move) is not cf.Play:
        assert not plays  # it draws or passes only when it cannot play
        return
    assert greedy_score(view, move) == _rating(view, move)
    assert _rating(view, move) == max(_rating(view, play) for play in plays)
    assert move == next(play for play in plays if _rating(view, play) == _rating(view, move))  # the first of equals


@given(games())
def test_heaviest_plays_its_most_valuable_tile(game: cf.GameState) -> None:
    if game.is_over:
        return
    view = _to_move(game)
    move = HeaviestBot()(view)
    plays = [m for m in view.legal_moves if type(m) is cf.Play]
    if not plays:
        assert move == view.legal_moves[0]
        return
    assert type(move) is cf.Play
    assert view.rules.tile_value(move.tile) == max(view.rules.tile_value(play.tile) for play in plays)


def test_random_bot_depends_only_on_seed_and_view() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    while len(cf.legal_moves(game)) < 3:
        game = cf.apply(game, cf.legal_moves(game)[0])
    view = _to_move(game)
    picks = {RandomBot(seed=s)(view) for s in range(40)}
    assert len(picks) > 1  # it does vary with the seed...
    assert all(RandomBot(seed=3)(view) == RandomBot(seed=3)(view) for _ in range(5))  # ...and only with it


def _view_with(hand: tuple[Tile, ...], board: cf.Board, rules: cf.Rules | None = None) -> cf.PlayerView:
    """Builds a position where player 0 holds ``hand`` on ``board`` (the other tiles go to player 1 and the yard)."""
    rules = rules or cf.Rules.trains()
    placed = {node.tile for node in board.nodes}
    rest = [tile for tile in cf.full_set(rules.max_pip) if tile not in placed and tile not in hand]
    round_ = cf.RoundState(
        rules=rules, hands=(hand, tuple(rest[:10])), yard=tuple(rest[10:]), board=board, current_player=0, reserve=2
    )
    game = cf.GameState(rules=rules, players=2, seed=0, round=round_, round_index=0, totals=(0, 0))
    return cf.observe(game, 0)


def _open_board() -> cf.Board:
    board = cf.Board.start(Tile(9, 9), arms=2)
    return board.place(Tile(9, 5), onto=0).place(Tile(9, 3), onto=0)  # open ends: 5 (#1) and 3 (#2)


def test_greedy_sheds_the_highest_value_tile() -> None:
    # Plays: 5-1 onto 5 (6 points), 5-2 onto 5 (7), 6-3 onto 3 (9); 0-0 fits nowhere.
    view = _view_with((Tile(5, 1), Tile(6, 3), Tile(5, 2), Tile(0, 0)), _open_board())
    assert GreedyBot()(view) == cf.Play(Tile(6, 3), onto=2)


def test_greedy_prefers_a_double_it_can_follow_up() -> None:
    # 5-5 opens a foot on 5 and the hand holds two more 5s for its toes: worth more than 6-3.
    view = _view_with((Tile(5, 5), Tile(6, 3), Tile(5, 1), Tile(5, 2)), _open_board())
    assert GreedyBot()(view) == cf.Play(Tile(5, 5), onto=1)


def test_greedy_counts_one_toe_in_hand_as_enough_to_open_a_foot() -> None:
    # 5-5 with one more 5 in hand: 10 + 4 less the seven unseen 5s = 7; 6-3 onto 3: 9 less the
    # nine unseen 6s = 0. Without the toe (5-1 swapped for 8-7), 5-5 would rate 10 - 3 - 8 = -1.
    view = _view_with((Tile(5, 5), Tile(6, 3), Tile(5, 1)), _open_board())
    assert greedy_score(view, cf.Play(Tile(5, 5), onto=1)) == 7
    assert greedy_score(view, cf.Play(Tile(6, 3), onto=2)) == 0
    assert GreedyBot()(view) == cf.Play(Tile(5, 5), onto=1)


def test_greedy_avoids_a_foot_it_cannot_help_fill() -> None:
    # 3-3 would open a foot on 3 that nothing else in this hand can fill: shed 5-1 instead.
    view = _view_with((Tile(3, 3), Tile(5, 1), Tile(8, 7)), _open_board())
    assert GreedyBot()(view) == cf.Play(Tile(5, 1), onto=1)


def test_greedy_keeps_an_end_it_can_follow_and_the_others_likely_lack() -> None:
    # 5-2 is worth 7 and leaves a 2 (nine unseen, none to follow): 7 - 9 = -2. 3-1 is worth 4 and
    # leaves a 1 that 1-0 and 8-1 can follow, with seven unseen: 4 + 2 - 7 = -1. The lighter tile wins.
    board = cf.Board.start(Tile(6, 6), arms=2).place(Tile(6, 5), onto=0).place(Tile(6, 3), onto=0)
    view = _view_with((Tile(5, 2), Tile(3, 1), Tile(1, 0), Tile(8, 1)), board)
    assert greedy_score(view, cf.Play(Tile(5, 2), onto=1)) == -2
    assert greedy_score(view, cf.Play(Tile(3, 1), onto=2)) == -1
    assert GreedyBot()(view) == cf.Play(Tile(3, 1), onto=2)
    assert HeaviestBot()(view) == cf.Play(Tile(5, 2), onto=1)


def test_greedy_score_rates_plays_only() -> None:
    view = _view_with((Tile(5, 2),), _open_board())
    with pytest.raises(TypeError, match="greedy_score rates a play"):
        greedy_score(view, cf.Draw())  # type: ignore[arg-type]


def test_greedy_fills_a_pending_foot_with_its_best_toe() -> None:
    board = _open_board().place(Tile(5, 5), onto=1)  # a foot on 5 is pending at node 3
    view = _view_with((Tile(5, 0), Tile(5, 4), Tile(9, 8)), board)
    assert GreedyBot()(view) == cf.Play(Tile(5, 4), onto=3)


def test_search_bot_rejects_bad_budgets() -> None:
    with pytest.raises(ValueError, match="simulations"):
        SearchBot(simulations=0)
    with pytest.raises(ValueError, match="worlds"):
        SearchBot(worlds=0)


@pytest.mark.parametrize("seconds", [math.inf, math.nan, 0, 0.0, -1, "1", True])
def test_search_bot_refuses_a_time_budget_that_would_never_end_or_never_search(seconds: object) -> None:
    with pytest.raises(ValueError, match="seconds must be a finite number above 0"):
        SearchBot(seconds=seconds)  # type: ignore[arg-type]


def test_search_bot_with_a_time_budget_answers_in_time() -> None:
    import time

    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    view = _to_move(game)
    started = time.perf_counter()
    assert SearchBot(simulations=1, seconds=0.05)(view) in view.legal_moves
    # The budget is 0.05 s; the bound only says it stops, with room for a machine busy with other work.
    assert time.perf_counter() - started < 10.0


def test_search_bot_makes_a_forced_move_without_searching() -> None:
    board = _open_board().place(Tile(5, 5), onto=1)  # pending foot on 5: only 5-4 fits
    view = _view_with((Tile(5, 4), Tile(9, 8)), board)
    assert view.legal_moves == (cf.Play(Tile(5, 4), onto=3),)
    assert SearchBot(simulations=10**9)(view) == view.legal_moves[0]  # would never return if it searched


@pytest.mark.slow
def test_search_beats_random_over_a_few_games() -> None:
    # Double-6 keeps games short: 7 rounds of 5 tiles each.
    lineup = ["search:20", "random", "random", "random"]
    result = cf.tournament.run_tournament(lineup, games=6, seed=11, workers=1, rules=cf.Rules.trains(max_pip=6))
    search, random_ = result.standings
    assert search.mean_round_score < random_.mean_round_score


def test_bots_refuse_a_view_without_a_move_to_make() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    idle = (game.round.current_player + 1) % 4
    view = cf.observe(game, idle)
    for bot in (RandomBot(), GreedyBot(), SearchBot(simulations=5)):
        with pytest.raises(ValueError, match=f"player {idle} has no move to make"):
            bot(view)


@pytest.mark.parametrize("exploration", [-0.1, float("nan"), float("inf")])
def test_search_bot_refuses_an_unusable_exploration_constant(exploration: float) -> None:
    with pytest.raises(ValueError, match="exploration must be a finite number of 0 or more"):
        SearchBot(exploration=exploration)


def test_search_bot_repr_shows_what_makes_it_play_differently() -> None:
    assert repr(SearchBot(simulations=5, seed=2)) == "SearchBot(simulations=5, seed=2)"
    assert "worlds=3" in repr(SearchBot(worlds=3))
    assert "exploration=1.5" in repr(SearchBot(exploration=1.5))
    # SearchBot's own defaults (20 worlds), not the sampler's (32), decide what the repr leaves out.
    full = SearchBot(simulations=7, seconds=0.5, seed=3, exploration=1.5, worlds=32)
    assert repr(full) == "SearchBot(simulations=7, seconds=0.5, seed=3, exploration=1.5, worlds=32)"
    assert repr(SamplerBot(worlds=20)) == "SamplerBot(simulations=1000, seed=0, worlds=20)"
