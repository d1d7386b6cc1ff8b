"""Root test setup: optional extras, and a CI switch that turns every skip into a failure.

Modules whose optional extra is not installed are not collected for doctests, so the core suite
runs on attrs alone. CI installs every extra and sets ``CHICKENFOOT_REQUIRE_EXTRAS=1``: then a
skip means something CI should have run did not, and it fails the run instead of hiding.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Generator
from typing import Any

import pytest

_EXTRAS = {
    "src/chickenfoot/observation.py": "numpy",
    "src/chickenfoot/openspiel.py": "pyspiel",
    "src/chickenfoot/pettingzoo.py": "pettingzoo",
}
_REQUIRE_ALL = os.environ.get("CHICKENFOOT_REQUIRE_EXTRAS") == "1"

collect_ignore = (
    [] if _REQUIRE_ALL else [p for p, module in _EXTRAS.items() if importlib.util.find_spec(module) is None]
)


def _fail_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if _REQUIRE_ALL and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CHICKENFOOT_REQUIRE_EXTRAS=1 (install every extra): {report.longrepr}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip(outcome.get_result())
