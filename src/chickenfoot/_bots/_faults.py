"""What went wrong with a program bot, as values: one fault, and a bot's faults tallied over games."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, TypeAlias, get_args

import attrs

__all__ = ["FAULT_KINDS", "BotFault", "BotReport", "FaultKind", "FaultTally"]

FaultKind: TypeAlias = Literal["startup", "crash", "timeout", "overflow", "illegal", "discarded"]
"""What went wrong: no valid handshake, the program ended, no answer in time, a line over the
length limit, an answer that is no legal move, or a line the engine had to discard."""

FAULT_KINDS: tuple[FaultKind, ...] = get_args(FaultKind)
"""Every fault kind: the ones that stop a program first."""


@attrs.frozen
class BotFault:
    """Records one thing a program bot did wrong, where, and why.

    Every kind but ``"discarded"`` forfeits the move being asked (the first legal move is played
    instead); ``"startup"``, ``"crash"``, ``"timeout"`` and ``"overflow"`` also stop the program
    for the rest of the game.

    >>> BotFault("illegal", round_index=0, turn=3, detail="'9-9@0' is not a legal move")
    BotFault(kind='illegal', round_index=0, turn=3, detail="'9-9@0' is not a legal move", game=None)
    """

    kind: FaultKind
    """What went wrong."""
    round_index: int
    """The round it happened in, from 0."""
    turn: int
    """The number of moves already made in that round."""
    detail: str
    """What the program did, in words."""
    game: int | None = None
    """The index of the tournament game it happened in, from 0 (``None`` outside a tournament)."""

    def where(self) -> str:
        """Says where the fault happened, counting from 1, as a person reads it.

        >>> BotFault("timeout", round_index=1, turn=4, detail="", game=0).where()
        'game 1, round 2, move 5'
        """
        place = f"round {self.round_index + 1}, move {self.turn + 1}"
        return place if self.game is None else f"game {self.game + 1}, {place}"


@attrs.frozen
class FaultTally:
    """Counts the faults of one kind of one bot, and keeps the first of them."""

    kind: FaultKind
    """The kind counted."""
    count: int
    """How many faults of that kind there were."""
    first: BotFault
    """The first of them: its place and reason."""


def _in_order(tallies: Iterable[FaultTally]) -> tuple[FaultTally, ...]:
    """Sorts tallies by when their first fault happened (kinds in :data:`FAULT_KINDS` order on a tie)."""

    def when(tally: FaultTally) -> tuple[int, int, int, int]:
        first = tally.first
        return (-1 if first.game is None else first.game, first.round_index, first.turn, FAULT_KINDS.index(tally.kind))

    return tuple(sorted(tallies, key=when))


@attrs.frozen
class BotReport:
    """Tells what a bot called itself and what went wrong with it, in one game or pooled over many.

    Tournaments give one per seat of each game (:attr:`~chickenfoot.tournament.GameOutcome.reports`)
    and one per bot of the lineup (:attr:`~chickenfoot.tournament.Standing.report`); ``+`` pools
    two, the earlier first.

    >>> first = BotReport.tally("hangs", [BotFault("timeout", 0, 2, "no answer within 1 s", game=0)], stopped=40)
    >>> second = BotReport.tally("hangs", [BotFault("timeout", 0, 1, "no answer within 1 s", game=1)], stopped=45)
    >>> pooled = first + second
    >>> [(tally.kind, tally.count, tally.first.where()) for tally in pooled.faults], pooled.stopped
    ([('timeout', 2, 'game 1, round 1, move 3')], 85)
    """

    name: str | None = None
    """The name the bot gave itself: a program's handshake name (``None`` for a bot that is no
    program, or a program that never shook hands)."""
    faults: tuple[FaultTally, ...] = ()
    """Its faults, one tally per kind that happened, in the order each kind first happened."""
    stopped: int = 0
    """The moves forfeited without asking it, after a fault stopped its program (not counted in ``faults``)."""

    @classmethod
    def tally(cls, name: str | None, faults: Iterable[BotFault], stopped: int = 0) -> BotReport:
        """Builds a report from a bot's faults, oldest first."""
        counts: dict[FaultKind, int] = {}
        firsts: dict[FaultKind, BotFault] = {}
        for fault in faults:
            counts[fault.kind] = counts.get(fault.kind, 0) + 1
            firsts.setdefault(fault.kind, fault)
        return cls(
            name=name,
            faults=_in_order(FaultTally(kind, count, firsts[kind]) for kind, count in counts.items()),
            stopped=stopped,
        )

    @property
    def fault_count(self) -> int:
        """Counts its faults of every kind."""
        return sum(tally.count for tally in self.faults)

    def __add__(self, later: BotReport) -> BotReport:
        """Pools this report with a later one: counts add up, the first faults and name are the earliest."""
        if not isinstance(later, BotReport):
            return NotImplemented
        mine = {tally.kind: tally for tally in self.faults}
        for tally in later.faults:
            earlier = mine.get(tally.kind)
            mine[tally.kind] = (
                tally if earlier is None else FaultTally(tally.kind, earlier.count + tally.count, earlier.first)
            )
        return BotReport(
            name=self.name if self.name is not None else later.name,
            faults=_in_order(mine.values()),
            stopped=self.stopped + later.stopped,
        )
