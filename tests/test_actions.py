"""The shared action encoding: fixed size, round trips, distinct actions, stable numbers."""

from __future__ import annotations

import random

import pytest
from hypothesis import given

import chickenfoot as cf
from _games import RULES, games, play_randomly
from chickenfoot import actions
from helpers import position

ALL_RULES = (*RULES, cf.Rules.cross(max_pip=18), cf.Rules.trains(max_pip=15))


@given(games(ALL_RULES))
def test_every_legal_move_round_trips_to_a_distinct_action(game: cf.GameState) -> None:
    moves = cf.legal_moves(game)
    codes = [actions.encode(move, game) for move in moves]
    assert len(set(codes)) == len(moves)
    assert all(0 <= code < actions.action_count(game.rules) for code in codes)
    assert [actions.decode(code, game) for code in codes] == list(moves)
    assert actions.legal_actions(game) == sorted(codes)
    mask = actions.action_mask(game)
    assert [i for i, flag in enumerate(mask) if flag] == sorted(codes)


@given(games(ALL_RULES))
def test_a_play_names_the_same_move_in_states_that_look_alike(game: cf.GameState) -> None:
    # The board is public: determinized samples of the mover's view decode every action alike.
    if game.is_over:
        return
    view = cf.observe(game, game.round.current_player)
    sample = cf.determinize(view, random.Random(0))
    for move in cf.legal_moves(game):
        code = actions.encode(move, game)
        assert actions.decode(code, sample) == move


@given(games(ALL_RULES))
def test_slots_stay_below_max_pip(game: cf.GameState) -> None:
    # The slot bound the encoding's size rests on: at most max_pip ends offer one value.
    board = game.round.board
    assert all(len(ends) <= game.rules.max_pip for ends in board.ends_by_value)


@pytest.mark.parametrize(("max_pip", "count"), [(6, 296), (9, 902), (12, 2030), (15, 3842), (18, 6500)])
def test_action_counts_per_set(max_pip: int, count: int) -> None:
    # (max_pip + 1) ** 2 oriented tiles, each with max_pip slots, then draw and pass.
    rules = cf.Rules.trains(max_pip=max_pip)
    assert actions.action_count(rules) == count
    assert actions.draw_action(rules) == count - 2
    assert actions.pass_action(rules) == count - 1


def test_numbers_are_stable() -> None:
    # Pinned from the documented formula (matched * 10 + other) * 9 + slot on double-9.
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    assert actions.encode(cf.parse_move("9-5@0"), game) == (9 * 10 + 5) * 9
    assert actions.describe((3 * 10 + 7) * 9 + 2, game.rules) == "7-3 on a 3 (slot 2)"
    assert actions.encode(cf.Draw(), game) == 900
    assert actions.encode(cf.Pass(), game) == 901


def test_slots_count_ends_in_node_order() -> None:
    # Node 3 offers 4, like node 1.
    state = position(cf.Rules.trains(), ["4-2", "8-8"], plays="9-4@0 9-3@0 4-3@2", arms=2, reserve=0)
    first, second = cf.Play(cf.Tile(4, 2), 1), cf.Play(cf.Tile(4, 2), 3)
    assert actions.encode(first, state) == (4 * 10 + 2) * 9 + 0
    assert actions.encode(second, state) == (4 * 10 + 2) * 9 + 1
    assert actions.decode((4 * 10 + 2) * 9 + 1, state) == second


def test_bad_numbers_and_moves_are_refused_clearly() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    with pytest.raises(cf.InvalidMoveError, match="0 to 901"):
        actions.decode(902, game)
    with pytest.raises(TypeError, match="an action is a whole number"):
        actions.decode("3", game)  # type: ignore[arg-type]
    with pytest.raises(cf.InvalidMoveError, match="such end"):
        actions.decode((4 * 10 + 2) * 9 + 0, game)  # nothing offers a 4 at the start
    with pytest.raises(cf.InvalidMoveError, match="no node 5"):
        actions.encode(cf.Play(cf.Tile(9, 5), 5), game)
    with pytest.raises(cf.InvalidMoveError, match="does not take"):
        actions.encode(cf.Play(cf.Tile(4, 2), 0), game)


def test_a_whole_game_plays_through_actions_alone() -> None:
    rng = random.Random(3)
    game = play_randomly(
        cf.new_game(cf.Rules.cross(), players=3, seed=3),
        rng,
        legal=actions.legal_actions,
        apply=lambda state, action: cf.apply(state, actions.decode(action, state)),
    )
    assert game.is_over
    assert actions.legal_actions(game) == []
    assert play_randomly(game, rng, 1) is game


@given(games(ALL_RULES))
def test_views_encode_like_states(game: cf.GameState) -> None:
    if game.is_over:
        return
    mover = game.round.current_player
    view = cf.observe(game, mover)
    assert actions.legal_actions(view) == actions.legal_actions(game)
    assert actions.action_mask(view) == actions.action_mask(game)
    other = cf.observe(game, (mover + 1) % game.players)
    assert actions.legal_actions(other) == []  # not their turn
    for move in cf.legal_moves(game):
        assert actions.decode(actions.encode(move, other), view) == move
