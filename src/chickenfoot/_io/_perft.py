"""Perft: counting every legal move sequence from a position, to pin down the move generator.

Draws and passes are moves like plays. A sequence that ends the round (a player goes out,
or the round is blocked) stops there and counts once, however deep the search: perft never
crosses into the next round's deal, which is chance, not a move. So ``perft(state, 0)`` is 1,
and so is ``perft(state, depth)`` for a finished round.

Golden positions with their counts live in ``examples/perft/*.perft``, one block per position::

    id      a name for the position
    epd     the position, in the position notation (:func:`~chickenfoot.position`)
    perft   DEPTH COUNT      (one line per depth)

Blocks are separated by blank lines; ``#`` starts a comment. Run them with
``python examples/perft/run.py examples/perft/*.perft``.
"""

from __future__ import annotations

import attrs

from .._game import GameState, InvalidRecordError, RoundState, apply, legal_moves
from ._notation import parse_position

__all__ = ["PerftCase", "perft", "read_perft_file"]


def perft(state: RoundState | GameState, depth: int) -> int:
    """Counts the legal move sequences of ``depth`` moves from ``state`` (a round's end counts once).

    A :class:`GameState` is counted from its round in play. A negative ``depth`` raises
    :class:`ValueError`.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> perft(game, 1) == len(cf.legal_moves(game))
    True
    """
    if type(state) is GameState:
        state = state.round
    if type(state) is not RoundState:
        raise TypeError(f"perft takes a RoundState or GameState, got {type(state).__name__}")
    if type(depth) is not int:
        raise TypeError(f"depth is an int, got {depth!r:.40}")
    if depth < 0:
        raise ValueError(f"depth must be a whole number 0 or more, got {depth}")
    return _count(state, depth)


def _count(state: RoundState, depth: int) -> int:
    if depth == 0 or state.is_over:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(_count(apply(state, move), depth - 1) for move in moves)


@attrs.frozen
class PerftCase:
    """One golden position: its name, its notation, and the expected count at each depth."""

    name: str
    """The position's ``id``."""
    text: str
    """The position, in the position notation."""
    counts: tuple[tuple[int, int], ...]
    """``(depth, count)`` pairs."""

    @property
    def state(self) -> RoundState:
        """Reads the position."""
        return parse_position(self.text)


def read_perft_file(text: str) -> tuple[PerftCase, ...]:
    """Reads a ``.perft`` file's text into its cases (see the module docs).

    >>> (case,) = read_perft_file("id opening\\nepd trains 0 - 1 9-9/- - 9-9 play\\nperft 1 0\\n")
    >>> case.name, case.counts
    ('opening', ((1, 0),))
    """
    cases: list[PerftCase] = []
    for number, block in enumerate(text.split("\n\n"), start=1):
        lines = [line.split("#", 1)[0].strip() for line in block.splitlines()]
        lines = [line for line in lines if line]
        if not lines:
            continue
        name = epd = None
        counts: list[tuple[int, int]] = []
        for line in lines:
            key, _, value = line.partition(" ")
            if key == "id":
                name = value.strip()
            elif key == "epd":
                epd = value.strip()
            elif key == "perft":
                parts = value.split()
                if len(parts) != 2 or not all(part.isdigit() for part in parts):
                    raise InvalidRecordError(f"block {number}: write 'perft DEPTH COUNT', got {line!r}")
                counts.append((int(parts[0]), int(parts[1])))
            else:
                raise InvalidRecordError(f"block {number}: unknown line {line!r}; use id, epd or perft")
        if name is None or epd is None or not counts:
            raise InvalidRecordError(f"block {number}: a case needs an id, an epd and at least one perft line")
        cases.append(PerftCase(name, epd, tuple(counts)))
    return tuple(cases)
