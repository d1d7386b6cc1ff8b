"""Shared test setup: hypothesis profiles and the ``rule`` marker."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from chickenfoot._game._board import _NODES
from chickenfoot._game._plans import _DEALS, _SETTINGS

try:
    from chickenfoot.batch._convert import _FINALS
except ImportError:  # no numpy
    _FINALS = {}

# "ci" keeps the whole suite to a few minutes on 2 cores; "heavy" is for soaking by hand:
#   HYPOTHESIS_PROFILE=heavy python -m pytest tests/test_properties.py
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("heavy", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _engine_caches_forgotten() -> None:
    """Forgets the caches of the engine (rules readings, deal plans, public nodes) and the batch before each test.

    For mutation testing (benchmarks/mutation.py): mutmut records which tests reach each
    function and forks one test process per mutant from a process that already ran the tests.
    A reading cached across tests would be built by whichever test came first (so only that
    test counts as reaching the code that builds it), and before the fork by the unmutated code.
    """
    _SETTINGS.clear()
    _DEALS.clear()
    _NODES.clear()
    _FINALS.clear()
