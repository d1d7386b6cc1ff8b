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


@pytest.mark.usefixtures("local_ray")
def test_program_bots_report_the_same_names_and_faults_on_ray() -> None:
    import sys

    bots = Path(__file__).resolve().parent / "bots"
    examples = Path(__file__).resolve().parents[1] / "examples" / "bots"
    lineup = [
        cf.bots.ProcessBot([sys.executable, str(examples / "heaviest.py")], seconds=60, startup_seconds=60),
        cf.bots.ProcessBot([sys.executable, str(bots / "nonsense.py")], seconds=60, startup_seconds=60),
        cf.bots.ProcessBot([sys.executable, str(bots / "hangs.py")], seconds=0.3, startup_seconds=60),
    ]
    rules = cf.Rules.trains(max_pip=6)
    on_ray = cf.tournament.run_tournament(lineup, games=3, seed=4, rules=rules, backend="ray")
    local = cf.tournament.run_tournament(lineup, games=3, seed=4, rules=rules, workers=2)
    assert on_ray == local
    reports = [standing.report for standing in on_ray.standings]
    assert [report.name for report in reports] == ["heaviest (Python)", "nonsense", "hangs"]
    assert [report.fault_count for report in reports] == [0, 12, 3]


@pytest.mark.usefixtures("local_ray")
def test_a_failing_python_bot_raises_its_bot_error_from_ray() -> None:
    class Crashes:  # local: cloudpickle copies it by value to the Ray workers
        def __call__(self, view: cf.PlayerView) -> cf.Move:
            raise ZeroDivisionError("division by zero")

    with pytest.raises(cf.bots.BotError, match=r"bot 'Crashes' in seat \d of game 1 \(index 0\) raised ZeroDivision"):
        cf.tournament.run_tournament([Crashes(), "greedy"], games=1, rules=cf.Rules.trains(max_pip=6), backend="ray")


@pytest.mark.usefixtures("local_ray")
def test_ray_ladder_equals_the_local_one(tmp_path: Path) -> None:
    bots = ["greedy", "heaviest", "random"]
    rules = cf.Rules.trains(max_pip=6)
    log = tmp_path / "ladder.jsonl"
    on_ray = cf.tournament.run_ladder(bots, deals=4, rules=rules, seed=2, backend="ray", log=log)
    local = cf.tournament.run_ladder(bots, deals=4, rules=rules, seed=2, workers=1)
    assert on_ray == local
    assert len(log.read_text().splitlines()) == 1 + len(local.games)  # logged as they came back
