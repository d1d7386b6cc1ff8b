"""Invariants over random games of every preset, player count and variant (hypothesis)."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import play_randomly, random_walk
from chickenfoot import IllegalMoveError, Tile
from strategies import configurations


def _tile_places(state: cf.RoundState) -> Counter[Tile]:
    hands = [tile for hand in state.hands for tile in hand]
    return Counter(hands + list(state.yard) + [node.tile for node in state.board.nodes])


def _illegal_candidates(state: cf.GameState, rng: random.Random) -> list[cf.Move]:
    """Moves of every kind the rules forbid here: wrong tile, wrong node, draw/pass out of turn."""
    legal = set(cf.legal_moves(state))
    board = state.round.board
    hand = state.round.hands[state.round.current_player]
    tiles = cf.full_set(state.rules.max_pip)
    candidates: list[cf.Move] = [cf.Draw(), cf.Pass()]
    candidates += [cf.Play(tile, rng.randrange(len(board.nodes) + 2)) for tile in rng.sample(tiles, 4)]
    candidates += [cf.Play(tile, node) for tile in hand for node in range(len(board.nodes))]
    return [move for move in candidates if move not in legal]


def _check_step(game: cf.GameState, rng: random.Random, deep: bool) -> None:
    state = game.round
    # every tile of the set is in exactly one place
    assert _tile_places(state) == Counter(cf.full_set(game.rules.max_pip))
    legal = cf.legal_moves(game)
    assert legal, "legal_moves is empty only when the game is over"
    assert len(set(legal)) == len(legal)
    before = copy.deepcopy(game) if deep else None
    # every legal move applies
    for move in legal:
        after = cf.apply(game, move)
        assert after is not game
    # every illegal move raises and changes nothing
    for move in _illegal_candidates(game, rng)[:12]:
        try:
            cf.apply(game, move)
        except IllegalMoveError:
            pass
        else:  # pragma: no cover - the failure message says what went wrong
            raise AssertionError(f"{move} is not in legal_moves but was accepted")
    if before is not None:
        assert game == before
        assert game.round.history == before.round.history


@pytest.mark.slow
@given(configurations(), st.integers(0, 2**32 - 1))
def test_invariants_hold_at_every_step_of_random_rounds(config: tuple[cf.Rules, int], seed: int) -> None:
    rules, players = config
    rng = random.Random(seed)
    # Two rounds with every check at every step; the whole-game tests cover the rest.
    for steps, (game, _, after) in enumerate(random_walk(cf.new_game(rules, players=players, seed=seed), rng)):
        if game.round_index >= 2:
            break
        _check_step(game, rng, deep=steps % 7 == 0)
        if after.round_index != game.round_index or after.is_over:
            final = after.results[-1]
            # round scores equal the values left in hands (plus the going-out-on-a-double penalty)
            values = tuple(sum(rules.tile_value(t) for t in hand) for hand in final.final.hands)
            penalty = [0] * players
            if final.went_out is not None and final.final.board.nodes[-1].tile.is_double:
                penalty[final.went_out] = rules.double_out_penalty
            assert final.scores == tuple(v + p for v, p in zip(values, penalty, strict=True))
            assert final.final.is_over


@given(configurations(), st.integers(0, 2**32 - 1))
def test_same_seed_and_choices_give_the_same_states(config: tuple[cf.Rules, int], seed: int) -> None:
    rules, players = config

    def play() -> list[cf.GameState]:
        states = [cf.new_game(rules, players=players, seed=seed)]
        for _, _, after in random_walk(states[0], random.Random(seed)):
            states.append(after)
            if after.round_index >= 1:
                break
        return states

    first, second = play(), play()
    assert first == second
    # replaying the recorded moves from the seed rebuilds the same states
    replayed = cf.new_game(rules, players=players, seed=seed)
    for move, expected in zip((move for _, move in first[-1].history), first[1:], strict=True):
        replayed = cf.apply(replayed, move)
        assert replayed == expected


@given(configurations(), st.integers(0, 2**32 - 1))
def test_the_yard_never_drops_below_the_reserve(config: tuple[cf.Rules, int], seed: int) -> None:
    rules, players = config
    start = cf.new_game(rules, players=players, seed=seed)
    floor = min(start.round.reserve, len(start.round.yard))  # a cross deal's draws for the double may dig in
    for before, move, game in random_walk(start, random.Random(seed)):
        if before.round_index >= 3:
            break
        if isinstance(move, cf.Draw):
            assert len(before.round.yard) > before.round.reserve
        if game.round_index != before.round_index:
            floor = min(game.round.reserve, len(game.round.yard))
        assert len(game.round.yard) >= floor


def test_any_move_after_the_game_ends_is_refused() -> None:
    game = play_randomly(cf.new_game(cf.Rules.cross(), players=3, seed=4), random.Random(4))
    assert game.is_over
    for move in (cf.Draw(), cf.Pass(), cf.Play(Tile(9, 5), 0)):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            cf.apply(game, move)
