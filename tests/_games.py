"""Random play for every test: one walk along random legal moves, and a hypothesis strategy built on it."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st

import chickenfoot as cf

RULES = (
    cf.Rules.trains(),
    cf.Rules.cross(),
    cf.Rules.trains(drawn_tile="may_play", draw_until_playable=True),
    cf.Rules.cross(drawn_tile="must_play", center_arms=6, max_pip=12),
    cf.Rules.trains(max_pip=6, reserve=0),
)

State = TypeVar("State")


def _uniform(rng: random.Random, moves: Sequence[Any]) -> Any:
    return rng.choice(moves)


def random_walk(
    state: State,
    rng: random.Random,
    steps: int | None = None,
    *,
    pick: Callable[[random.Random, Sequence[Any]], Any] = _uniform,
    legal: Callable[[Any], Sequence[Any]] = cf.legal_moves,
    apply: Callable[[Any, Any], Any] = cf.apply,
) -> Iterator[tuple[State, Any, State]]:
    """Yields ``(state, move, after)`` along random legal play: ``steps`` moves, or until no move is legal.

    ``pick`` chooses among the legal moves (uniformly by default); ``legal`` and ``apply`` default
    to the engine's, so a walk can follow :mod:`chickenfoot.reference` too.
    """
    count = 0
    while steps is None or count < steps:
        moves = legal(state)
        if not moves:
            return
        move = pick(rng, moves)
        after = apply(state, move)
        yield state, move, after
        state = after
        count += 1


def play_randomly(state: State, rng: random.Random, steps: int | None = None, **options: Any) -> State:
    """Plays ``steps`` random legal moves from ``state`` (all the way, by default); gets where it ends."""
    end = state
    for _, _, end in random_walk(state, rng, steps, **options):  # noqa: B007 (the last one is kept)
        pass
    return end


@st.composite
def games(draw: st.DrawFn, rules: tuple[cf.Rules, ...] = RULES, max_steps: int = 400) -> cf.GameState:
    """Draws a game reached by random play under one of ``rules``."""
    chosen = draw(st.sampled_from(rules))
    players = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**32))
    steps = draw(st.integers(0, max_steps))
    return play_randomly(cf.new_game(chosen, players, seed), random.Random(seed), steps)
