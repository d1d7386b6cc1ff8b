"""Sampling hidden information (stand-in for issue 3's module, written to the documented contract)."""

from __future__ import annotations

import random

from ._state import GameState, RoundState
from ._tiles import Tile, full_set
from ._views import PlayerView

__all__ = ["determinize"]


def determinize(view: PlayerView, rng: random.Random) -> GameState:
    """Samples a game state consistent with ``view``: the hidden tiles shuffled over the other hands and the yard."""
    seen = {*view.hand, *(node.tile for node in view.board.nodes)}
    hidden = [tile for tile in full_set(view.rules.max_pip) if tile not in seen]
    rng.shuffle(hidden)
    hands: list[tuple[Tile, ...]] = []
    at = 0
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.player:
            hands.append(view.hand)
        else:
            hands.append(tuple(hidden[at : at + size]))
            at += size
    round_ = RoundState(
        rules=view.rules,
        hands=tuple(hands),
        yard=tuple(hidden[at:]),
        board=view.board,
        current_player=view.current_player if view.current_player is not None else view.player,
        reserve=view.reserve,
        drawn=view.drawn,
        is_over=view.is_over,
    )
    return GameState(
        rules=view.rules,
        players=view.players,
        seed=0,
        round=round_,
        round_index=view.round_index,
        totals=view.totals,
    )
