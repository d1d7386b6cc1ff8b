"""Shared test setup: hypothesis profiles and the ``rule`` marker."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from chickenfoot._deal import _DEALS
from chickenfoot._state import _SETTINGS

# "ci" keeps the whole suite to a few minutes on 2 cores; "heavy" is for soaking by hand:
#   HYPOTHESIS_PROFILE=heavy python -m pytest tests/test_properties.py
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("heavy", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True, scope="session")
def _rules_read_afresh() -> None:
    """Forgets the engine's per-rules readings (core settings, deal plans) before the tests run.

    Mutation testing (benchmarks/mutation.py) forks one test process per mutant from a process
    that already ran the tests; readings cached there were built by the unmutated code, and
    would hide a mutant in the code that builds them.
    """
    _SETTINGS.clear()
    _DEALS.clear()
