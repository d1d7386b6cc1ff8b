"""The Bradley-Terry fit behind the ladder: checked against scipy's optimiser, and against results made by hand."""

from __future__ import annotations

import math
import random

import pytest

from chickenfoot._tournament._rating import ELO, expected, fit


def _likeliest(wins: list[list[float]], anchor: int) -> list[float]:
    """Maximises the same likelihood (the prior included) with scipy's general optimiser: an independent oracle."""
    np = pytest.importorskip("numpy")
    optimize = pytest.importorskip("scipy.optimize")
    w = np.array(wins, dtype=float)
    met = (w + w.T) > 0
    won = w + 0.5 * met
    free = [bot for bot in range(len(wins)) if bot != anchor]

    def loss(values: object) -> float:
        theta = np.zeros(len(wins))
        theta[free] = values
        gap = theta[:, None] - theta[None, :]
        return float(-(won * (gap - np.logaddexp(0, gap))).sum())

    found = optimize.minimize(loss, np.zeros(len(free)), method="BFGS", options={"gtol": 1e-10})
    theta = np.zeros(len(wins))
    theta[free] = found.x
    return [float(value) * ELO for value in theta]


@pytest.mark.parametrize("seed", range(5))
def test_the_fit_agrees_with_a_general_optimiser(seed: int) -> None:
    rng = random.Random(seed)
    bots = rng.randrange(2, 7)
    wins = [[0.0 if a == b else rng.randrange(0, 40) + rng.choice((0, 0.5)) for b in range(bots)] for a in range(bots)]
    anchor = rng.randrange(bots)
    assert fit(wins, anchor) == pytest.approx(_likeliest(wins, anchor), abs=1e-3)


def test_a_known_win_rate_gives_its_elo_gap() -> None:
    # 7,600 wins in 10,000: 400 log10(0.76 / 0.24) = 200.2 points, the prior's half-game aside.
    ratings = fit([[0, 7600], [2400, 0]], anchor=1)
    assert ratings[1] == 0
    assert ratings[0] == pytest.approx(400 * math.log10(7600.5 / 2400.5))
    assert expected(ratings[0], ratings[1]) == pytest.approx(7600.5 / 10001)


def test_a_clean_sweep_stays_finite_and_the_anchor_sets_the_zero() -> None:
    ratings = fit([[0, 10, 0], [0, 0, 10], [0, 0, 0]], anchor=2)
    assert ratings[2] == 0
    assert all(math.isfinite(rating) for rating in ratings)
    assert ratings[0] > ratings[1] > ratings[2]
    shifted = fit([[0, 10, 0], [0, 0, 10], [0, 0, 0]], anchor=0)
    assert [r - ratings[0] for r in ratings] == pytest.approx(shifted)


def test_a_bot_that_met_no_one_linked_to_the_anchor_has_no_rating() -> None:
    wins = [[0, 5, 0, 0], [3, 0, 0, 0], [0, 0, 0, 4], [0, 0, 2, 0]]
    ratings = fit(wins, anchor=0)
    assert math.isnan(ratings[2])
    assert math.isnan(ratings[3])
    assert ratings[1] == pytest.approx(400 * math.log10(3.5 / 5.5))


def test_draws_count_half_each_way() -> None:
    assert fit([[0, 20.0], [20.0, 0]], anchor=0) == [0.0, 0.0]
