"""Hypothesis strategies: rules configurations with a player count they can deal."""

from __future__ import annotations

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
