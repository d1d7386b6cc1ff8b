"""Self-play on a batch: one policy plays every seat of 128 whole games at once.

Each step, every game's player to move observes from their own seat (the vectors of
:mod:`chickenfoot.observation`, seats relative to the observer), the one policy picks among
their legal actions, and all games move together; finished games are dealt again. Run it::

    python examples/batch_selfplay.py

The policy here is a fixed random linear softmax; a learner would update it from the
``(observation, action, seat)`` records and the per-seat ``rewards`` the batch reports.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

import chickenfoot as cf
from chickenfoot import batch


def act(
    weights: NDArray[np.float32], obs: NDArray[np.float32], mask: NDArray[np.bool_], rng: np.random.Generator
) -> NDArray[np.intp]:
    """Samples one legal action per game from the softmax of ``obs @ weights`` over the legal actions.

    Gumbel-max: the argmax of the logits plus Gumbel noise is a sample of their softmax.
    """
    noise = -np.log(-np.log(rng.random(mask.shape, dtype=np.float32) + np.float32(1e-12)))
    chosen: NDArray[np.intp] = np.argmax(np.where(mask, obs @ weights + noise, -np.inf), axis=1)
    return chosen


def main() -> None:
    rules, players, size = cf.Rules.cross(), 4, 128
    rng = np.random.default_rng(0)
    games = batch.init(rules, players, np.arange(size))
    obs_size = batch.observations(games, 0).shape[1]
    weights = rng.normal(scale=0.1, size=(obs_size, games.tables.actions)).astype(np.float32)
    wins = np.zeros(players)
    finished = moves = 0
    start = time.process_time()
    while finished < 100:
        seats = games.current  # every game is observed by its player to move: one policy, every seat
        actions = act(weights, batch.observations(games, seats), batch.legal_action_mask(games), rng)
        moves += int((~games.game_over).sum())
        games = batch.step(games, actions, autoreset=True)
        ended = games.terminated
        wins += games.rewards[ended].clip(min=0).astype(bool).sum(axis=0)  # a share of the win counts as a win
        finished += int(ended.sum())
    elapsed = time.process_time() - start
    print(f"{finished} games of the cross rules, {players} players, one policy in every seat")
    print(f"{moves:,} moves in {elapsed:.1f} s of CPU: {moves / elapsed:,.0f} moves/s with observations and masks")
    print("wins by seat:", wins.astype(int).tolist())


if __name__ == "__main__":
    main()
