"""The Ray backend gives exactly the local-process results (games are sharded by seed)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

import chickenfoot as cf  # noqa: E402
import chickenfoot.tournament  # noqa: E402

pytestmark = pytest.mark.slow  # starts a Ray cluster

SRC = Path(cf.__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # A small local instance; workers get this checkout on their path (it may not be installed).
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.usefixtures("local_ray")
def test_ray_tournament_equals_the_local_one() -> None:
    lineup = ["search:4", "greedy", "random"]
    rules = cf.Rules.trains(max_pip=6)
    seen: list[int] = []
    on_ray = cf.tournament.run_tournament(
        lineup, games=6, seed=3, rules=rules, backend="ray", progress=lambda done, total: seen.append(done)
    )
    local = cf.tournament.run_tournament(lineup, games=6, seed=3, rules=rules, workers=2)
    assert on_ray == local
    assert on_ray.standings == local.standings
    assert seen == [1, 2, 3, 4, 5, 6]
