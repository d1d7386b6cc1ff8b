"""Random games for property tests: hypothesis picks the rules, players, seed and how far to play."""

from __future__ import annotations

import random

from hypothesis import strategies as st

import chickenfoot as cf

RULES = (
    cf.Rules.trains(),
    cf.Rules.cross(),
    cf.Rules.trains(drawn_tile="may_play", draw_until_playable=True),
    cf.Rules.cross(drawn_tile="must_play", center_arms=6, max_pip=12),
    cf.Rules.trains(max_pip=6, reserve=0),
)


def play_randomly(game: cf.GameState, steps: int, rng: random.Random) -> cf.GameState:
    """Plays up to ``steps`` random legal moves."""
    for _ in range(steps):
        if game.is_over:
            break
        game = cf.apply(game, rng.choice(cf.legal_moves(game)))
    return game


@st.composite
def games(draw: st.DrawFn, rules: tuple[cf.Rules, ...] = RULES, max_steps: int = 400) -> cf.GameState:
    """Draws a game reached by random play under one of ``rules``."""
    chosen = draw(st.sampled_from(rules))
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, max_steps))
    return play_randomly(cf.new_game(chosen, players, seed), steps, random.Random(seed))
