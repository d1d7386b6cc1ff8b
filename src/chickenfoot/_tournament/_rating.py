"""Ratings on one Elo-like scale: a Bradley-Terry fit of pairwise results, by Newton's method.

Bot ``a`` beats bot ``b`` with probability ``1 / (1 + 10 ** ((r_b - r_a) / 400))``, as in Elo:
a 100-point gap is a 64% chance, 200 points 76%. The fit maximises the likelihood of every
pairwise result (a draw counts half a win each way), with a prior of one drawn comparison
between every two bots that met, so a bot that won or lost everything still gets a finite
rating. One bot, the anchor, is held at 0. Plain Python: a ladder has a handful of bots, and the
fit is a few Newton steps on a matrix that small.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["ELO", "Wins", "expected", "fit"]

ELO = 400 / math.log(10)
"""Elo points per unit of log-strength."""

Wins = list[list[float]]
"""``wins[a][b]``: how often bot ``a`` beat bot ``b`` (draws counted half to each)."""

_PRIOR = 0.5  # half a win each way between every two bots that met: one drawn comparison
_STEPS = 100
_TOLERANCE = 1e-9


def expected(rating: float, other: float) -> float:
    """Gets the chance that a bot rated ``rating`` beats one rated ``other``.

    >>> round(expected(100, 0), 3), expected(0, 0)
    (0.64, 0.5)
    """
    return 1 / (1 + 10 ** ((other - rating) / 400))


def fit(wins: Wins, anchor: int, start: Sequence[float] | None = None) -> list[float]:
    """Fits the ratings (Elo points, ``anchor`` at 0) that make ``wins`` likeliest; NaN for a bot that met nobody
    linked to the anchor.

    >>> [round(r) for r in fit([[0, 640], [360, 0]], anchor=1)]
    [100, 0]
    """
    bots = len(wins)
    met = [[wins[a][b] + wins[b][a] > 0 for b in range(bots)] for a in range(bots)]
    linked = _linked(met, anchor)
    # The prior keeps every strength finite; bots not linked to the anchor drop out of the fit.
    won = [
        [wins[a][b] + _PRIOR if met[a][b] and linked[a] and linked[b] else 0.0 for b in range(bots)]
        for a in range(bots)
    ]
    free = [a for a in range(bots) if linked[a] and a != anchor]
    theta = [0.0] * bots
    if start is not None:
        theta = [value / ELO if math.isfinite(value) else 0.0 for value in start]
        theta[anchor] = 0.0
    for _ in range(_STEPS):
        gradient = [0.0] * bots
        hessian = [[0.0] * bots for _ in range(bots)]
        for a in range(bots):
            for b in range(a + 1, bots):
                games = won[a][b] + won[b][a]
                if not games:
                    continue
                p = 1 / (1 + math.exp(theta[b] - theta[a]))  # a's chance against b
                gradient[a] += won[a][b] - games * p
                gradient[b] += won[b][a] - games * (1 - p)
                curvature = games * p * (1 - p)
                hessian[a][a] += curvature
                hessian[b][b] += curvature
                hessian[a][b] -= curvature
                hessian[b][a] -= curvature
        # Newton's step on the free ratings: solve (curvature) step = gradient.
        step = _solve([[hessian[a][b] for b in free] for a in free], [gradient[a] for a in free])
        for at, a in enumerate(free):
            theta[a] += step[at]
        if max((abs(value) for value in step), default=0.0) < _TOLERANCE:
            break
    return [theta[a] * ELO if linked[a] else math.nan for a in range(bots)]


def _linked(met: list[list[bool]], anchor: int) -> list[bool]:
    """Marks the bots joined to ``anchor`` by a chain of bots that met."""
    linked = [False] * len(met)
    linked[anchor] = True
    todo = [anchor]
    while todo:
        a = todo.pop()
        for b, together in enumerate(met[a]):
            if together and not linked[b]:
                linked[b] = True
                todo.append(b)
    return linked


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solves ``matrix @ x = vector`` by Gaussian elimination with partial pivoting (the matrix is small)."""
    size = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(rows[row][column]))
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        for row in range(column + 1, size):
            factor = rows[row][column] / lead
            if factor:
                for at in range(column, size + 1):
                    rows[row][at] -= factor * rows[column][at]
    solution = [0.0] * size
    for row in range(size - 1, -1, -1):
        total = rows[row][size] - sum(rows[row][at] * solution[at] for at in range(row + 1, size))
        solution[row] = total / rows[row][row]
    return solution
