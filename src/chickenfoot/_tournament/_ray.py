"""Running tournament games as Ray tasks (the optional ``ray`` extra)."""

from __future__ import annotations

import collections
import importlib
import os
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .._io import needs

__all__ = ["cloudpickle_dumps", "import_ray", "run_on_ray"]

Task = TypeVar("Task")
Result = TypeVar("Result")


def import_ray() -> Any:
    """Imports Ray, or raises the error that says how to install it."""
    try:
        return importlib.import_module("ray")  # imported by name: ray is optional and untyped here
    except ModuleNotFoundError as error:
        raise needs("the ray backend", error) from None


def cloudpickle_dumps() -> Callable[[object], bytes]:
    """Gets the function Ray copies task arguments with (cloudpickle, which also copies lambdas)."""
    import_ray()  # says how to install Ray if it is missing
    dumps: Callable[[object], bytes] = importlib.import_module("ray.cloudpickle").dumps
    return dumps


def run_on_ray(
    function: Callable[[Task], Result],
    tasks: Iterable[Task],
    total: int,
    address: str | None,
    progress: Callable[[int, int], None] | None,
) -> list[Result]:
    """Runs ``function`` on every task as a Ray task and returns the results in task order.

    Connects to the cluster at ``address``, or starts a local Ray instance when ``address`` is
    ``None`` and none is running (its workers get this package's directory on their path, so
    a source checkout works too). Tasks are submitted as earlier ones finish, a window of
    them per CPU of the cluster, so the first results come at once whatever ``total`` is.
    """
    ray = import_ray()
    if not ray.is_initialized():
        if address is None:
            package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            path = os.pathsep.join(p for p in (package_root, os.environ.get("PYTHONPATH")) if p)
            ray.init(runtime_env={"env_vars": {"PYTHONPATH": path}}, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(function)
    window = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))
    results: list[Result] = []
    pending: collections.deque[Any] = collections.deque()
    for task in tasks:
        pending.append(remote.remote(task))
        if len(pending) >= window:
            results.append(_get(ray, pending.popleft()))
            if progress is not None:
                progress(len(results), total)
    while pending:
        results.append(_get(ray, pending.popleft()))
        if progress is not None:
            progress(len(results), total)
    return results


def _get(ray: Any, ref: Any) -> Any:
    """Gets a task's result; a task that raised one of this library's errors raises it here, as it is."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, ValueError) and type(cause).__module__.startswith("chickenfoot"):
            raise cause from None  # its message names what went wrong; Ray's traceback would bury it
        raise
