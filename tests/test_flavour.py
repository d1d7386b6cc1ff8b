"""The compiled and the pure core: which one runs, and that CI tests the one it means to.

CI runs the whole suite twice (see .ci/run): against the editable install, which is pure Python,
and against a built wheel, whose core mypyc compiled. ``CHICKENFOOT_EXPECT_COMPILED`` says which
one a run is meant to test, so a run that silently imported the other fails here.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import chickenfoot as cf
from chickenfoot._core import _round


def test_compiled_says_whether_the_core_is_an_extension_module() -> None:
    assert cf.__compiled__ is (not str(_round.__file__).endswith(".py"))


@pytest.mark.skipif("CHICKENFOOT_EXPECT_COMPILED" not in os.environ, reason="only CI says which flavour it tests")
def test_the_flavour_under_test_is_the_one_ci_asked_for() -> None:
    assert cf.__compiled__ is (os.environ["CHICKENFOOT_EXPECT_COMPILED"] == "1")


@pytest.mark.slow
def test_chickenfoot_pure_loads_the_python_core() -> None:
    code = "import chickenfoot as cf; print(cf.__compiled__, cf._core._round.__file__.endswith('_round.py'))"
    env = {**os.environ, "CHICKENFOOT_PURE": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


@pytest.mark.slow
def test_chickenfoot_pure_loads_the_python_sampler_too() -> None:
    # determinize's loops (_sampling) are compiled with the core; the pure flavour runs both as Python.
    code = "import chickenfoot as cf; print(cf._core._sampling.__file__.endswith('_sampling.py'))"
    env = {**os.environ, "CHICKENFOOT_PURE": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True"]
