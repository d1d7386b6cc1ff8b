"""The soak (benchmarks/soak.py) on a small budget: random games over every preset, set and variant."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.slow  # a soak: every configuration played for a while

SOAK = Path(__file__).resolve().parent.parent / "benchmarks" / "soak.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("chickenfoot_soak", SOAK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # attrs classes need their module registered
    spec.loader.exec_module(module)
    return module


def test_soak_plays_every_configuration_without_violations() -> None:
    soak = _load()
    # 300 moves of each game visit every configuration (about 40) and finish several rounds of each.
    result = soak.soak(moves=12_000, seed=1, per_game=300)
    assert result.violations == []
    assert result.moves == 12_000
    assert result.games >= 40
    assert result.rounds > 100
    assert result.checks > 5 * result.moves


def test_soak_reports_a_broken_invariant() -> None:
    soak = _load()
    result = soak.Soak()
    result.check(False, "something that must hold", "here")
    assert result.violations == ["here: something that must hold"]
