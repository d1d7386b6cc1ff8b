"""The rules as the core plays them: a round's settings, and how a game's rounds are dealt.

Read once per distinct :class:`~chickenfoot.Rules` (and number of players), and held by every
game: so both the public states (which hold a game) and the deal (which makes them) read them
from here, below both.
"""

from __future__ import annotations

from .._core import MAX_PIP, Deal, Settings
from ._rules import Rules
from ._tiles import full_set

__all__ = ["deal_for", "settings_for"]

_SETTINGS: dict[Rules, Settings] = {}
_DEALS: dict[tuple[Rules, int], Deal] = {}
_TILES = full_set(MAX_PIP)  # every tile, by its index (the core's tile number)


def settings_for(rules: Rules) -> Settings:
    """Gets the core's reading of ``rules`` (made once per distinct rules)."""
    settings = _SETTINGS.get(rules)
    if settings is None:
        settings = _SETTINGS[rules] = Settings(
            rules,
            max_pip=rules.max_pip,
            must_play=rules.drawn_tile == "must_play",
            draw_until_playable=rules.draw_until_playable,
            unfillable_foot_ends_round=rules.unfillable_foot_ends_round,
            double_out_penalty=rules.double_out_penalty,
            tile_values=tuple(rules.tile_value(tile) for tile in _TILES),
            share_ties=rules.tie_break == "share",
        )
    return settings


def deal_for(rules: Rules, players: int) -> Deal:
    """Gets how ``players`` are dealt under ``rules``, checking they can be (DEAL-1)."""
    deal = _DEALS.get((rules, players))
    if deal is None:
        rules.check_players(players)  # DEAL-1
        deal = _DEALS[rules, players] = Deal(
            settings_for(rules),
            players=players,
            trains=rules.deal == "trains",
            hand_size=rules.hand_size_for(players),
            arms=rules.arms_for(players),
            reserve=rules.reserve_for(players),
            highest_double_fallback=rules.center_fallback == "highest_double",
        )
    return deal
