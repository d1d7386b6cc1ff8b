"""How a round or a game ended, as values (END-1, END-2, GAME-1), in the manner of python-chess's ``Outcome``."""

from __future__ import annotations

import enum
from typing import Any

import attrs

from ._errors import InvalidPositionError

__all__ = ["Outcome", "Termination"]


class Termination(enum.Enum):
    """Names how a round or a game ended.

    >>> import chickenfoot as cf
    >>> cf.Termination("blocked"), cf.Termination.WENT_OUT.value
    (<Termination.BLOCKED: 'blocked'>, 'went_out')
    """

    WENT_OUT = "went_out"
    """END-1: a player played the last tile of their hand."""
    BLOCKED = "blocked"
    """END-2: nobody could play and nobody could draw."""
    UNFILLABLE_FOOT = "unfillable_foot"
    """END-2's variant (``Rules.unfillable_foot_ends_round``): a pending chicken foot could never get its
    three toes. A round where, besides, nobody can play or draw ends :attr:`BLOCKED`, the rule without the variant."""
    LAST_ROUND = "last_round"
    """ROUND-1, GAME-1: a game's last round was scored (a game ends no other way)."""


def _check_winners(outcome: Outcome, attribute: attrs.Attribute[Any], winners: Any) -> None:
    if type(outcome.termination) is not Termination:
        raise TypeError(f"an Outcome's termination is a Termination, got {outcome.termination!r:.40}")
    if type(winners) is not tuple or not all(type(seat) is int and seat >= 0 for seat in winners):
        raise TypeError(f"an Outcome's winners are a tuple of seats (ints), got {winners!r:.60}")
    termination = outcome.termination
    if termination is Termination.WENT_OUT and len(winners) != 1:
        raise InvalidPositionError(f"a round that ended WENT_OUT has one winner, who went out; got {winners}")
    if termination in (Termination.BLOCKED, Termination.UNFILLABLE_FOOT) and winners:
        raise InvalidPositionError(f"nobody went out of a round that ended {termination.name}; got winners {winners}")
    if termination is Termination.LAST_ROUND and not winners:
        raise InvalidPositionError("a finished game has one winner or more")


@attrs.frozen
class Outcome:
    """Tells how a round or a game ended: the :class:`Termination`, and who won.

    A round's winner is the player who went out (END-1); a blocked round has none. A game's
    winners are the players with the lowest total, ties settled by the rules (GAME-1, TIE-1, TIE-2).

    >>> import chickenfoot as cf
    >>> outcome = cf.Outcome(cf.Termination.WENT_OUT, (2,))
    >>> str(outcome), outcome.winner, str(cf.Outcome(cf.Termination.BLOCKED, ()))
    ('P2 went out', 2, 'blocked')
    """

    termination: Termination
    """How it ended."""
    winners: tuple[int, ...] = attrs.field(validator=_check_winners)
    """Who won: the player who went out of a round (none if it was blocked), or a game's winners."""

    @property
    def winner(self) -> int | None:
        """Gets the sole winner, or ``None`` when nobody or several players won."""
        return self.winners[0] if len(self.winners) == 1 else None

    def __str__(self) -> str:
        """Writes the outcome as a person says it: ``"P2 went out"``, ``"blocked"``, ``"P0 P3 won"``."""
        termination = self.termination
        if termination is Termination.WENT_OUT:
            return f"P{self.winners[0]} went out"
        if termination is Termination.BLOCKED:
            return "blocked"
        if termination is Termination.UNFILLABLE_FOOT:
            return "a chicken foot can no longer be filled"
        return f"{' '.join(f'P{seat}' for seat in self.winners)} won"
