"""Root test setup: optional extras, and a CI switch that turns every skip into a failure.

A module of ``src/chickenfoot`` whose optional extra is not installed (``chickenfoot.gymnasium``
without gymnasium, say) is reported as skipped, naming the extra, instead of failing to import
for its doctests; which import belongs to which extra is ``chickenfoot._io._extras.EXTRA_OF``, the
table the package's own error messages read, so a module added later needs no entry here. The
test modules skip themselves the same way (``pytest.importorskip``, ``helpers.skip_if_missing``).
So the README's test command runs the core suite in a venv with only the ``test`` extra.

CI installs every extra and sets ``CHICKENFOOT_REQUIRE_EXTRAS=1``: then a skip means something
CI should have run did not, and it fails the run instead of hiding.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from chickenfoot._io._extras import why_missing

_PACKAGE = Path(__file__).resolve().parent / "src" / "chickenfoot"
_REQUIRE_ALL = os.environ.get("CHICKENFOOT_REQUIRE_EXTRAS") == "1"


def _module_name(path: Path) -> str | None:
    """Gets the dotted name of a module of the package's source tree, or ``None`` for other files."""
    if path.suffix != ".py" or _PACKAGE not in path.resolve().parents:
        return None
    parts = path.resolve().relative_to(_PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _fail_skip(report: pytest.CollectReport | pytest.TestReport) -> None:
    if _REQUIRE_ALL and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under CHICKENFOOT_REQUIRE_EXTRAS=1 (install every extra): {report.longrepr}"


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Reports a package module that failed to import for want of its optional extra as skipped, with the reason."""
    report = yield
    module = _module_name(collector.path) if report.failed and isinstance(collector, pytest.File) else None
    reason = why_missing(module) if module is not None else None
    if reason is not None:
        report = pytest.CollectReport(collector.nodeid, "skipped", (str(collector.path), 0, f"Skipped: {reason}"), [])
    _fail_skip(report)
    return report


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skip(outcome.get_result())
