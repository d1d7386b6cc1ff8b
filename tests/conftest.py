"""Shared test setup: hypothesis profiles and the ``rule`` marker."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# "ci" keeps the whole suite to a few minutes on 2 cores; "heavy" is for soaking by hand:
#   HYPOTHESIS_PROFILE=heavy python -m pytest tests/test_properties.py
settings.register_profile("ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("heavy", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
