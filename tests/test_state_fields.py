"""The state classes keep attrs' promises with their public attributes as fields: evolve, asdict,
fields, equality, hashing, pickling; and the names renamed for clashing warn, one release."""

from __future__ import annotations

import pickle
import random

import attrs
import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import games, play_randomly

FIELDS = {
    cf.RoundState: ["rules", "hands", "yard", "board", "current_player", "drawn", "reserve", "history"],
    cf.GameState: ["rules", "players", "seed", "round", "round_index", "totals", "results"],
    cf.Board: ["nodes", "arms"],
    cf.RoundResult: ["double", "scores", "went_out", "final", "outcome"],
    cf.Outcome: ["termination", "winners"],
}


@pytest.mark.parametrize("cls", list(FIELDS), ids=lambda cls: cls.__name__)
def test_the_fields_are_the_public_attributes(cls: type) -> None:
    assert attrs.has(cls)
    assert [field.name for field in attrs.fields(cls)] == FIELDS[cls]
    assert all(not field.name.startswith("_") for field in attrs.fields(cls))


def _states(game: cf.GameState) -> list[object]:
    return [game, game.round, game.round.board, *game.results]


@given(games(max_steps=300))
def test_asdict_and_evolve_see_the_fields_and_evolve_rebuilds_an_equal_state(game: cf.GameState) -> None:
    for state in _states(game):
        cls = type(state)
        parts = attrs.asdict(state, recurse=False)  # type: ignore[call-overload]
        assert list(parts) == FIELDS[cls]
        assert parts == {name: getattr(state, name) for name in FIELDS[cls]}
        rebuilt = attrs.evolve(state)  # type: ignore[misc]
        assert rebuilt == state
        assert hash(rebuilt) == hash(state)
        assert cls(**parts) == state
        copy = pickle.loads(pickle.dumps(state))
        assert copy == state
        assert attrs.asdict(copy, recurse=False) == parts  # type: ignore[call-overload]
    assert attrs.evolve(game.round).history == game.round.history


@given(games(max_steps=200), games(max_steps=200))
def test_equality_is_equality_of_the_fields(first: cf.GameState, second: cf.GameState) -> None:
    # The core compares as ints what the fields hold; this checks the two never disagree.
    for a, b in [(first, second), (first.round, second.round), (first.round.board, second.round.board)]:
        compared = [field.name for field in attrs.fields(type(a)) if field.eq]
        assert (a == b) == all(getattr(a, name) == getattr(b, name) for name in compared)
        if a == b:
            assert hash(a) == hash(b)


def test_history_is_a_field_that_is_not_compared() -> None:
    (history,) = [field for field in attrs.fields(cf.RoundState) if field.name == "history"]
    assert not history.eq
    assert not history.repr


def test_evolve_changes_one_field_and_checks_as_the_constructor_does() -> None:
    game = play_randomly(cf.new_game(cf.Rules.cross(), 3, seed=2), random.Random(2), 40)
    state = game.round
    seat = next(seat for seat in range(3) if seat != state.current_player)
    moved = attrs.evolve(state, current_player=seat, drawn=None)
    assert (moved.current_player, moved.hands, moved.board) == (seat, state.hands, state.board)
    assert state.current_player != seat  # the original is untouched
    with pytest.raises(cf.InvalidPositionError, match="each tile is in one place"):
        attrs.evolve(state, yard=(*state.yard, state.hands[0][0]))
    assert attrs.evolve(game, totals=(7, 8, 9)).totals == (7, 8, 9)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.hands = ()  # type: ignore[misc]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        game.seed = 1  # type: ignore[misc]


def test_winners_follow_the_totals_a_finished_game_is_given() -> None:
    game = play_randomly(cf.new_game(cf.Rules.trains(), 2, seed=1), random.Random(1), 10_000)
    loser = next(seat for seat in range(2) if seat not in game.winners)
    changed = attrs.evolve(game, totals=tuple(-1 if seat == loser else 0 for seat in range(2)))
    assert changed.winners == (loser,)
    assert changed.outcome == cf.Outcome(cf.Termination.LAST_ROUND, (loser,))


@given(games(max_steps=100), st.integers(0, 3))
def test_engine_views_and_constructor_built_states_are_interchangeable(game: cf.GameState, seat: int) -> None:
    rebuilt = attrs.evolve(
        game, round=attrs.evolve(game.round, board=cf.Board(game.round.board.nodes, game.round.board.arms))
    )
    assert rebuilt == game
    assert cf.legal_moves(rebuilt) == cf.legal_moves(game)
    viewer = seat % game.players
    assert cf.observe(rebuilt, viewer) == cf.observe(game, viewer)
    if not game.is_over:
        move = cf.legal_moves(game)[0]
        assert cf.apply(rebuilt, move) == cf.apply(game, move)


def test_the_chance_layers_double_tile_is_the_rounds_double() -> None:
    from chickenfoot._game._chance import ChanceGame

    game = ChanceGame.start(cf.Rules.trains(), 2)
    assert game.double_tile == cf.Tile(9, 9)
