"""Dealing a round, as a pure function of (rules, players, seed, round) (DEAL-2).

The shuffle and the deal itself are in :class:`chickenfoot._core._round.Deal`, read from the rules
by :func:`chickenfoot._game._plans.deal_for`; this module checks the arguments and offers the deal's
steps on tiles to the OpenSpiel chance layer, which deals one tile at a time.
"""

from __future__ import annotations

from .._core import HIGH, LOW, NONE, find_center as find_center_index, round_rng, setup_seat, starter_seat
from ._board import Board
from ._errors import RulesError
from ._plans import deal_for
from ._rules import Rules, check_seed
from ._state import PlayerIndex, RoundState, round_of
from ._tiles import Tile

__all__ = ["deal_round", "find_center", "open_round", "round_rng", "setup_seat", "starter_seat"]


def deal_round(rules: Rules, players: int, seed: int, round_index: int) -> RoundState:
    """Deals round ``round_index`` (0-based): hands, yard, center and first player.

    Raises :class:`~chickenfoot.RulesError` for players the rules cannot deal (DEAL-1), a seed or
    a round number out of range, and :class:`TypeError` for arguments of the wrong type.

    >>> from chickenfoot import Rules
    >>> state = deal_round(Rules.trains(), players=4, seed=1, round_index=0)
    >>> [len(hand) for hand in state.hands], len(state.yard), str(state.board.center)
    ([11, 11, 11, 11], 10, '9-9')
    """
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a chickenfoot.Rules, such as Rules.trains(); got {rules!r:.40}")
    deal = deal_for(rules, players)
    check_seed(seed)
    if type(round_index) is not int:
        raise TypeError(f"round_index is an int, got {round_index!r:.40}")
    if not 0 <= round_index < rules.rounds:
        raise RulesError(
            f"round_index must be a whole number from 0 to {rules.rounds - 1} "
            f"(one round per double, ROUND-1), got {round_index}"
        )
    return round_of(deal.deal(seed, round_index))


def open_round(
    rules: Rules,
    hands: list[list[Tile]],
    yard: list[Tile],
    center: Tile,
    first: PlayerIndex,
) -> RoundState:
    """Lays ``center`` as node 0 and hands the first turn to ``first``: the round is ready to play (OPEN-1)."""
    players = len(hands)
    return RoundState(
        rules=rules,
        hands=tuple(map(tuple, hands)),
        yard=tuple(yard),
        board=Board.start(center, rules.arms_for(players)),
        current_player=first,
        reserve=rules.reserve_for(players),
    )


def find_center(rules: Rules, hands: list[list[Tile]], double: Tile) -> tuple[Tile, PlayerIndex | None]:
    """Finds the *cross* center and who places it; ``None`` for the placer when players must draw for it.

    DEAL-B2: whoever holds the round's double. With ``center_fallback="highest_double"`` and nobody
    holding it, the next-highest double held: the highest double anyone holds that is *lower* than
    the round's double (a round never starts above its scheduled double). Nobody holding one
    either means drawing for the round's double, as in DEAL-B2.
    """
    indexes = [[tile.index for tile in hand] for hand in hands]
    center, holder = find_center_index(indexes, double.index, rules.center_fallback == "highest_double")
    return Tile(HIGH[center], LOW[center]), None if holder == NONE else holder
