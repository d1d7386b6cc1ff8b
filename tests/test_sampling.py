"""determinize's int-level helpers (chickenfoot._sampling) against the plain way of doing the same thing.

The sampler's exactness rests on two claims checked here: the early-stopping shuffle decides
exactly what a full shuffle checked afterwards decides, and the weighted pick draws what
``random.choices`` draws (so samples do not depend on which of the two ran).
"""

from __future__ import annotations

import random

from hypothesis import given, strategies as st

from chickenfoot._matching import choose
from chickenfoot._sampling import shuffle_fitting


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
