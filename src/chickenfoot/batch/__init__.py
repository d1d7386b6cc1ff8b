"""Thousands of games at once: a batch of B games as fixed-shape numpy arrays (needs numpy).

Install the ``numpy`` extra (``python -m pip install ".[numpy]"`` from a checkout,
``"chickenfoot[numpy]"`` once it is on PyPI). The functions are pure in the style of pgx:
:func:`step` returns a new :class:`Batch` and never changes its input (:func:`step_inplace`
is the explicit in-place form). Actions use the stable numbering of
``chickenfoot.actions``, and :func:`to_state` turns any game of a batch back into the
public :class:`~chickenfoot.GameState` or :class:`~chickenfoot.RoundState` that
:func:`~chickenfoot.apply` would have produced, so the batch is tested move for move against
the rules engine.

>>> import numpy as np
>>> import chickenfoot as cf
>>> from chickenfoot import batch
>>> games = batch.init(cf.Rules.trains(), players=4, seeds=np.arange(1024))
>>> rng = np.random.default_rng(0)
>>> while not games.game_over.all():
...     games = batch.step_inplace(games, batch.random_actions(games, rng))
>>> games.totals.shape, bool((games.rewards.sum(axis=1) < 1e-5).all())
((1024, 4), True)

Every rules option, both presets, double-6 to double-18 and 2 to 8 players work; a batch
holds one rules configuration and one player count (its arrays have one shape), and the
configurations :meth:`~chickenfoot.Rules.check_players` refuses are refused here too.
"""

from __future__ import annotations

from ._arrays import Batch as Batch
from ._convert import current_player as current_player, from_states as from_states, init as init, to_state as to_state
from ._ending import reset_finished as reset_finished
from ._legal import (
    heaviest_actions as heaviest_actions,
    legal_action_mask as legal_action_mask,
    random_actions as random_actions,
)
from ._observe import observations as observations
from ._step import step as step, step_inplace as step_inplace

__all__ = [
    "Batch",
    "current_player",
    "from_states",
    "heaviest_actions",
    "init",
    "legal_action_mask",
    "observations",
    "random_actions",
    "reset_finished",
    "step",
    "step_inplace",
    "to_state",
]
