"""determinize's sampling: its int-level helpers against the plain way, and one view's reading reused (Worlds).

The sampler's exactness rests on two claims checked here: the early-stopping shuffle decides
exactly what a full shuffle checked afterwards decides, and the weighted pick draws what
``random.choices`` draws (so samples do not depend on which of the two ran).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

import chickenfoot as cf
from _games import games
from chickenfoot._core._matching import choose
from chickenfoot._core._sampling import shuffle_fitting
from chickenfoot._game._determinize import Worlds


@given(
    seed=st.integers(0, 2**32),
    size=st.integers(0, 30),
    masks=st.lists(st.integers(0, 2**30 - 1), max_size=30),
)
def test_shuffle_fitting_decides_what_a_full_shuffle_checked_afterwards_decides(
    seed: int, size: int, masks: list[int]
) -> None:
    allowed = masks[:size]
    items = list(range(size))
    kept = shuffle_fitting(items, allowed, random.Random(seed).random)
    # The full shuffle: the same Fisher-Yates draws, to the end, then the check.
    uniform, full = random.Random(seed).random, list(range(size))
    for at in range(size):
        pick = at + int(uniform() * (size - at))
        full[at], full[pick] = full[pick], full[at]
    fits = all(mask >> tile & 1 for tile, mask in zip(full, allowed, strict=False))
    assert kept == fits
    if kept:
        assert items == full


@given(seed=st.integers(0, 2**32), weights=st.lists(st.integers(1, 20), min_size=1, max_size=12))
def test_choose_draws_what_random_choices_draws(seed: int, weights: list[int]) -> None:
    choices = [10 * at for at in range(len(weights))]
    ours, theirs = random.Random(seed), random.Random(seed)
    assert choose(choices, weights, ours) == theirs.choices(choices, weights)[0]
    assert ours.getstate() == theirs.getstate()


@settings(max_examples=25)
@given(games(max_steps=150), st.integers(0, 2**32))
def test_a_view_read_once_samples_what_a_fresh_reading_samples(game: cf.GameState, seed: int) -> None:
    # The search bots read a view once (Worlds) and sample it many times: nothing a sample does may
    # change what the next one draws, so each must be the round determinize gives for the same generator.
    if game.is_over:
        return
    view = cf.observe(game, game.current_player if game.current_player is not None else 0)
    worlds = Worlds(view)
    for offset in range(4):
        sampled = worlds.sample(random.Random(seed + offset))
        fresh = cf.determinize(view, random.Random(seed + offset)).round
        assert sampled.hands == tuple(tuple(tile.index for tile in hand) for hand in fresh.hands)
        assert sampled.yard == tuple(tile.index for tile in fresh.yard)


@pytest.mark.rule("DEAL-B2")
def test_a_center_below_the_rounds_double_keeps_the_doubles_above_it_out_of_every_sampled_hand() -> None:
    # center_fallback="highest_double": 4-4 starts round 3 (double 7-7), so nobody was dealt 5-5, 6-6 or 7-7.
    rules = cf.Rules.cross(center_fallback="highest_double")
    state = cf.deal_round(rules, 4, 1, 2)
    assert state.board.center == cf.Tile(4, 4)
    game = cf.GameState(rules, 4, 1, state, 2, (0, 0, 0, 0))
    view = cf.observe(game, (state.current_player + 1) % 4)
    undealt = {cf.Tile(value, value).index for value in (5, 6, 7)}
    worlds = Worlds(view)
    rng = random.Random(3)
    held: set[int] = set()
    for _ in range(40):
        sampled = worlds.sample(rng)
        in_hands = {tile for seat, hand in enumerate(sampled.hands) if seat != view.player for tile in hand}
        assert not undealt & in_hands
        assert undealt <= set(sampled.yard)
        held |= in_hands
    # Only those three are kept out: every other unseen tile (0-0 too) turns up in some hand.
    assert held == {tile.index for tile in view.unseen} - undealt
