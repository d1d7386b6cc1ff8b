"""Exact answers: the value of a round position with every tile known, :func:`solve`, and its :class:`Solution`.

A perfect-information solver, as bridge programs have double-dummy solvers: given every hand
and the yard's order (a real deal, a puzzle set up by hand, or a world from
:func:`~chickenfoot.determinize`), it finds the lowest value a player can guarantee to the end
of the round, and a line of play that keeps to it. The search is the compiled core's
(alpha-beta with a transposition table over the core's own moves); this module checks the
arguments and shows what it found as public values. :func:`solve` is also ``chickenfoot.solve``.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import attrs

from ._core import EXACT, MARGIN, NO_LIMIT, SCORE, UPPER, Round, solve_round
from ._game import GameState, Move, PlayerView, RoundState, moves_of

__all__ = ["Bound", "Objective", "Solution", "solve"]

Objective: TypeAlias = Literal["score", "margin"]
"""What :func:`solve` measures: the player's round score, or that score less the lowest of the others'."""

Bound: TypeAlias = Literal["exact", "upper", "lower"]
"""What a :class:`Solution`'s value is: the value, or a bound on it (the value is at most / at least it)."""

_OBJECTIVES: dict[str, int] = {"score": SCORE, "margin": MARGIN}


@attrs.frozen
class Solution:
    """Holds the exact value of a round position for one player, a line of play that keeps to it, and the cost.

    A search cut short by its node budget gives a bound, not the value:

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    >>> solution = cf.solve(game, max_nodes=100)
    >>> solution.proven, solution.bound, solution.nodes
    (False, 'upper', 100)
    """

    value: int
    """The lowest value ``player`` can guarantee, whatever the others do (with :attr:`bound` other than
    ``"exact"``, a bound on it)."""
    bound: Bound
    """``"exact"``: :attr:`value` is proven. ``"upper"``: the node budget ran out, and the value is at most
    :attr:`value` (``player`` was to move, and has a move that does that well); ``"lower"``: it ran out,
    and the value is at least :attr:`value` (another seat was to move, and has a move that holds ``player`` to
    it)."""
    line: tuple[Move, ...]
    """A principal variation: every seat's moves from the position to the end of the round, each keeping to the
    value (each seat's best answer to the others' best play). With a bound, the moves the search
    finished, which may stop before the round's end."""
    nodes: int
    """The positions the search for the value visited (each round reached, the finished ones included): never
    more than ``max_nodes``; 0 for a finished round. Once the value is proven, the search for :attr:`line` (mostly
    read from the search's table) is not counted."""
    player: int
    """The seat whose value it is."""
    objective: Objective
    """What the value measures: ``"score"``, ``player``'s round score; ``"margin"``, that score less the lowest
    of the others' round scores."""

    @property
    def proven(self) -> bool:
        """Tells whether :attr:`value` is the exact value, not a bound left by the node budget."""
        return self.bound == "exact"


def _checked(state: object, player: object, objective: object, max_nodes: object) -> tuple[Round, int, int]:
    """Checks :func:`solve`'s arguments; gets the core round, the seat and the node budget."""
    if type(state) is GameState:
        state = state.round
    if type(state) is PlayerView:
        raise TypeError(
            "solve takes a RoundState or GameState, got PlayerView: a view hides the other hands and the yard, "
            "which solve needs; solve a world of it from chickenfoot.determinize(view, rng) instead"
        )
    if type(state) is not RoundState:
        raise TypeError(f"solve takes a RoundState or GameState, got {type(state).__name__}")
    core = state._round
    if type(objective) is not str:
        raise TypeError(f"objective is 'score' or 'margin' (a str), got {objective!r:.40}")
    if objective not in _OBJECTIVES:
        raise ValueError(f"objective must be 'score' or 'margin', got {objective!r:.40}")
    seat = core.current if player is None else player
    if type(seat) is not int:
        raise TypeError(f"player is a seat (an int) or None for the player to move, got {player!r:.40}")
    if not 0 <= seat < len(core.hands):
        raise ValueError(f"player must be a seat from 0 to {len(core.hands) - 1}, got {seat}")
    budget = NO_LIMIT
    if max_nodes is not None:
        if type(max_nodes) is not int:
            raise TypeError(f"max_nodes is a whole number (an int) or None for no limit, got {max_nodes!r:.40}")
        if max_nodes < 0:
            raise ValueError(f"max_nodes must be a whole number 0 or more (or None for no limit), got {max_nodes}")
        budget = min(max_nodes, NO_LIMIT)
    return core, seat, budget


def solve(
    state: RoundState | GameState,
    *,
    player: int | None = None,
    objective: Objective = "margin",
    max_nodes: int | None = None,
) -> Solution:
    """Solves a round position exactly: the lowest value ``player`` can guarantee, to the end of the round.

    Every hand and the yard's order are read from ``state`` (a deal, a hand-set puzzle, a world
    from :func:`~chickenfoot.determinize`; a :class:`~chickenfoot.GameState` is solved in its round in play),
    and a draw takes ``yard[0]``, as :func:`~chickenfoot.apply` does. ``objective="score"``
    measures ``player``'s round score (SCORE-1); ``"margin"`` that score less the lowest round
    score among the others (with two players, the score difference). ``player`` (default: the
    player to move) minimises it and every other seat maximises it: the value is what ``player``
    guarantees against the worst the others can do together. The search is alpha-beta with a
    transposition table, over the engine's own legal moves, compiled with the core.

    A finished round's value is its score's, with an empty line. ``max_nodes`` caps the
    positions the search for the value visits (:attr:`Solution.nodes`): if it runs out, the value
    is a bound (:attr:`Solution.bound`), on the side of the seat to move, as far as the searches
    that finished moved it (so the widest possible if none did). Raises
    :class:`ValueError` for an objective that is not one of the two, a seat the round does not
    have, or a negative ``max_nodes``; :class:`TypeError` for an argument of the wrong type.

    The puzzle of the positions page (docs/positions.md): can player 0 go out in two turns?

    >>> import chickenfoot as cf
    >>> T = cf.Tile
    >>> board = cf.Board.start(T(6, 6), arms=2).place(T(6, 5), onto=0).place(T(6, 2), onto=0)
    >>> hands = ((T(5, 5), T(2, 1)), (T(4, 4), T(3, 0)))
    >>> placed = {*hands[0], *hands[1], *(node.tile for node in board.nodes)}
    >>> yard = [tile for tile in cf.full_set(6) if tile not in placed]
    >>> puzzle = cf.RoundState(cf.Rules.trains(max_pip=6), hands, yard, board, current_player=0)
    >>> solution = cf.solve(puzzle, objective="score")
    >>> solution.value, solution.proven, " ".join(map(str, solution.line))
    (0, True, '2-1@2 draw pass 5-5@1')
    """
    core, seat, budget = _checked(state, player, objective, max_nodes)
    solved = solve_round(core, seat, _OBJECTIVES[objective], None, budget)
    bound: Bound = "exact" if solved.kind == EXACT else "upper" if solved.kind == UPPER else "lower"
    return Solution(
        value=solved.value,
        bound=bound,
        line=moves_of(solved.line),
        nodes=solved.nodes,
        player=seat,
        objective=objective,
    )
