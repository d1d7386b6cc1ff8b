"""Dealing a round, as a pure function of (rules, players, seed, round) (DEAL-2).

The shuffle and the deal itself are in :class:`chickenfoot._core.Deal`; this module checks the
arguments and reads the rules into one.
"""

from __future__ import annotations

from . import _core
from ._core import Deal
from ._rules import Rules
from ._state import RoundState, round_of, settings_for

__all__ = ["deal_for", "deal_round", "round_rng"]

round_rng = _core.round_rng

_DEALS: dict[tuple[Rules, int], Deal] = {}


def deal_for(rules: Rules, players: int) -> Deal:
    """Gets how ``players`` are dealt under ``rules``, checking they can be (DEAL-1)."""
    deal = _DEALS.get((rules, players))
    if deal is None:
        rules.check_players(players)  # DEAL-1
        deal = _DEALS[rules, players] = Deal(
            settings_for(rules),
            players,
            rules.deal == "trains",
            rules.hand_size_for(players),
            rules.arms_for(players),
            rules.reserve_for(players),
            rules.center_fallback == "highest_double",
        )
    return deal


def deal_round(rules: Rules, players: int, seed: int, round_index: int) -> RoundState:
    """Deals round ``round_index`` (0-based): hands, yard, center and first player.

    >>> from chickenfoot import Rules
    >>> state = deal_round(Rules.trains(), players=4, seed=1, round_index=0)
    >>> [len(hand) for hand in state.hands], len(state.yard), str(state.board.center)
    ([11, 11, 11, 11], 10, '9-9')
    """
    deal = deal_for(rules, players)
    if type(round_index) is not int or not 0 <= round_index < rules.rounds:
        raise ValueError(
            f"round_index must be a whole number from 0 to {rules.rounds - 1} "
            f"(one round per double, ROUND-1), got {round_index!r}"
        )
    if type(seed) is not int:
        raise TypeError(f"seed must be an int, got {seed!r}")
    return round_of(deal.deal(seed, round_index))
