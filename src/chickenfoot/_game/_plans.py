"""The rules as the core plays them: a round's settings, a game's deal plan, and how its winners are decided.

Read once per distinct :class:`~chickenfoot.Rules` (and number of players), and held by every
game: so both the public states (which hold a game) and the deal (which makes them) read them
from here, below both.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._core import MAX_PIP, Deal, Settings
from ._rules import Rules
from ._tiles import full_set

__all__ = ["deal_for", "settings_for", "winners_by_scores"]

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


def winners_by_scores(rules: Rules, totals: Sequence[int], round_scores: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Gets the winners of a finished game from its totals and each round's scores (GAME-1, TIE-1, TIE-2).

    The lowest total wins. *trains* shares the win among the tied (TIE-1); *cross* prefers the
    most zero-score rounds, then the lower lowest non-zero round score, then the next lowest,
    and so on (TIE-2).
    """
    best = min(totals)
    tied = [player for player, total in enumerate(totals) if total == best]
    if rules.tie_break == "share" or len(tied) == 1:
        return tuple(tied)

    def tie_key(player: int) -> tuple[int, list[int]]:
        scores = [round_[player] for round_ in round_scores]
        nonzero = sorted(score for score in scores if score)
        return (-scores.count(0), nonzero)

    keys = {player: tie_key(player) for player in tied}
    top = min(keys.values())
    return tuple(player for player in tied if keys[player] == top)
