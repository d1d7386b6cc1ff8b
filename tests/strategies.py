"""Hypothesis strategies: rules configurations with a player count they can deal."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

import chickenfoot as cf

# Each published variant (SPEC.md), expressed as options of a preset.
VARIANTS: dict[str, dict[str, Any]] = {
    "plain": {},
    "six-arm center": {"center_arms": 6},
    "draw until playable": {"draw_until_playable": True},
    "drawn tile may be played": {"drawn_tile": "may_play"},
    "drawn tile must be played": {"drawn_tile": "must_play"},
    "reserve 0": {"reserve": 0},
    "reserve 1": {"reserve": 1},
    "reserve 2": {"reserve": 2},
    "0-0 worth 50": {"double_blank_value": 50},
    "0-0 worth 25": {"double_blank_value": 25},
    "blank halves worth 25": {"blank_value": 25},
    "double-6": {"max_pip": 6},
    "double-12": {"max_pip": 12},
    "double-15": {"max_pip": 15},
    "double-18": {"max_pip": 18},
    "unfillable foot ends the round": {"unfillable_foot_ends_round": True},
    "going out on a double scores 50": {"double_out_penalty": 50},
}
CROSS_ONLY = {"highest double starts": {"center_fallback": "highest_double"}}


def playable(rules: cf.Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except cf.RulesError:
        return False
    return True


@st.composite
def configurations(draw: st.DrawFn) -> tuple[cf.Rules, int]:
    """Draws rules (a preset with one or two variants) and a player count, 2 to 8, that can be dealt."""
    preset = draw(st.sampled_from(["trains", "cross"]))
    pool = {**VARIANTS, **(CROSS_ONLY if preset == "cross" else {})}
    names = draw(st.lists(st.sampled_from(sorted(pool)), max_size=2, unique=True))
    options: dict[str, Any] = {}
    for name in names:
        options.update(pool[name])
    build = cf.Rules.trains if preset == "trains" else cf.Rules.cross
    rules = build(**options)
    players = draw(st.integers(2, 8).filter(lambda n: playable(rules, n)))
    return rules, players


SET_UP_RULES = (
    cf.Rules.trains(max_pip=6),
    cf.Rules.cross(max_pip=6),
    cf.Rules.trains(max_pip=6, unfillable_foot_ends_round=True, drawn_tile="may_play"),
    cf.Rules.cross(center_arms=6),
)


@st.composite
def set_up_positions(draw: st.DrawFn) -> cf.RoundState:
    """Draws a position set up by hand, as a puzzle is, through the public constructors.

    A board grown by random placements on any double with any arm count, the other tiles dealt
    at random among 2 to 5 hands (some may be empty) and the yard, any seat to move, sometimes a
    drawn tile it holds, any reserve, sometimes a made-up history of moves by the seats. Most
    such positions are not reachable from a deal (``status()`` says why); all are well-formed.
    """
    rules = draw(st.sampled_from(SET_UP_RULES))
    players = draw(st.integers(2, 5))
    rng = random.Random(draw(st.integers(0, 2**32)))
    tiles = list(cf.full_set(rules.max_pip))
    center = rng.choice([tile for tile in tiles if tile.is_double])
    board = cf.Board.start(center, draw(st.integers(1, min(8, rules.max_pip))))
    rest = [tile for tile in tiles if tile is not center]
    for _ in range(draw(st.integers(0, 3 * len(rest)))):
        tile, onto = rng.choice(rest), rng.randrange(len(board))
        if cf.Play(tile, onto) in board_plays(board, tile):
            board = board.place(tile, onto)
            rest.remove(tile)
    hands: list[list[cf.Tile]] = [[] for _ in range(players)]
    yard: list[cf.Tile] = []
    for tile in rest:
        seat = rng.randrange(-1, players)
        (yard if seat < 0 else hands[seat]).append(tile)
    current = rng.randrange(players)
    drawn = rng.choice(hands[current]) if hands[current] and draw(st.booleans()) else None
    history: list[tuple[int, cf.Move]] = []
    for _ in range(draw(st.integers(0, 4))):
        move: cf.Move = rng.choice([cf.Draw(), cf.Pass(), cf.Play(rng.choice(tiles), rng.randrange(len(board)))])
        history.append((rng.randrange(players), move))
    return cf.RoundState(
        rules,
        hands,
        yard,
        board,
        current,
        drawn=drawn,
        reserve=draw(st.integers(0, len(yard) + 2)),
        history=history,
    )


def board_plays(board: cf.Board, tile: cf.Tile) -> list[cf.Play]:
    """Lists where ``tile`` may go on ``board`` now (PLAY-1, OPEN-2, FOOT-2)."""
    return [cf.Play(tile, onto) for onto in board.open_ends if tile.carries(board.node(onto).exposed)]
