"""Observation tensors: fixed size, what the player may see and nothing they may not."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given  # noqa: E402

import chickenfoot as cf  # noqa: E402
from _games import RULES, games  # noqa: E402
from chickenfoot.observation import blocks, observation, observation_size, write_observation  # noqa: E402


def block(vector: np.ndarray, game: cf.GameState, name: str) -> np.ndarray:
    start, size = next((start, size) for block, start, size in blocks(game.rules, game.players) if block == name)
    return vector[start : start + size]


@given(games(RULES))
def test_blocks_hold_the_players_view(game: cf.GameState) -> None:
    players = game.players
    round_ = game.round
    for seat in range(players):
        vector = observation(game, seat)
        assert vector.shape == (observation_size(game.rules, players),)
        assert sorted(np.flatnonzero(block(vector, game, "hand"))) == sorted(t.index for t in round_.hands[seat])
        assert block(vector, game, "board").sum() == len(round_.board.nodes)
        sizes = [len(round_.hands[(seat + k) % players]) for k in range(players)]
        assert block(vector, game, "hand_sizes").tolist() == sizes
        assert block(vector, game, "yard")[0] == len(round_.yard)
        ends = sum(len(ends) for ends in round_.board.ends_by_value)
        assert block(vector, game, "open_ends").sum() == ends
        assert block(vector, game, "center")[round_.board.center.high] == 1
        to_move = block(vector, game, "to_move")
        if game.is_over:
            assert to_move.sum() == 0
        else:
            assert to_move[(round_.current_player - seat) % players] == 1
        assert block(vector, game, "totals")[0] == game.totals[seat]


@given(games(RULES))
def test_hidden_tiles_do_not_show(game: cf.GameState) -> None:
    # A sample that differs only in what player 0 cannot see gives player 0 the same vector.
    view = cf.observe(game, 0)
    sample = cf.determinize(view, random.Random(1))
    assert (observation(sample, 0) == observation(game, 0)).all()


def test_pending_blocks_follow_the_center() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    vector = observation(game, 0)
    assert block(vector, game, "pending_value")[9] == 1
    assert block(vector, game, "pending_missing")[0] == 4  # OPEN-1: one arm per player
    assert block(vector, game, "pending_center")[0] == 1


def test_size_on_double_9_for_four_players() -> None:
    # 3 tile blocks of 55, 3 value blocks of 10, 2 pending scalars, 3 seat blocks of 4, yard 2, 10 rounds.
    assert observation_size(cf.Rules.trains(), 4) == 3 * 55 + 3 * 10 + 2 + 3 * 4 + 2 + 10


def test_bad_arguments_are_refused() -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    with pytest.raises(ValueError, match="seat from 0 to 3"):
        observation(game, 4)
    with pytest.raises(ValueError, match="needs the seat"):
        observation(game)
    with pytest.raises(ValueError, match="belongs to player 1"):
        observation(cf.observe(game, 1), 2)
    with pytest.raises(TypeError, match="PlayerView"):
        observation("game", 0)  # type: ignore[arg-type]


@pytest.mark.parametrize("out", [np.zeros(3, np.float32), np.zeros(221, np.float64), np.zeros((221, 1), np.float32)])
def test_write_observation_refuses_an_array_of_the_wrong_shape_or_type(out: object) -> None:
    game = cf.new_game(cf.Rules.trains(), players=4, seed=1)
    assert observation_size(game.rules, 4) == 221
    with pytest.raises(ValueError, match="out must be a float32 vector of 221 entries"):
        write_observation(game, 0, out)
