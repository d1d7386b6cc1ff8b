"""Running tournament games as Ray tasks (the optional extra ``chickenfoot[ray]``)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["run_on_ray"]

Task = TypeVar("Task")
Result = TypeVar("Result")


def _ray() -> Any:
    try:
        return importlib.import_module("ray")  # imported by name: ray is optional and untyped here
    except ImportError:
        raise ImportError(
            "the ray backend needs Ray: install it with  python -m pip install 'chickenfoot[ray]'"
        ) from None


def run_on_ray(
    function: Callable[[Task], Result],
    tasks: list[Task],
    address: str | None,
    progress: Callable[[int, int], None] | None,
) -> list[Result]:
    """Runs ``function`` on every task as a Ray task and returns the results in task order.

    Connects to the cluster at ``address``, or starts a local Ray instance when ``address`` is
    ``None`` and none is running (its workers get this package's directory on their path, so
    a source checkout works too).
    """
    ray = _ray()
    if not ray.is_initialized():
        if address is None:
            package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
            ray.init(runtime_env={"env_vars": {"PYTHONPATH": path}}, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(function)
    refs = [remote.remote(task) for task in tasks]
    position = {ref: at for at, ref in enumerate(refs)}
    results: list[Any] = [None] * len(refs)
    waiting = list(refs)
    done = 0
    while waiting:
        finished, waiting = ray.wait(waiting, num_returns=1)
        for ref in finished:
            results[position[ref]] = ray.get(ref)
            done += 1
            if progress is not None:
                progress(done, len(refs))
    return results
