"""Runs every script in examples/ as a user would, so the examples cannot rot."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every example runs as a program

REPO = Path(__file__).resolve().parents[1]
# An example for an optional extra (OpenSpiel, PettingZoo) is skipped, not failed, where the extra
# is not installed; CI installs the extras, so there it runs.
MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")
EXAMPLES = sorted((REPO / "examples").glob("*.py"))


def test_there_are_examples() -> None:
    assert {path.name for path in EXAMPLES} >= {"quickstart.py", "custom_variant.py", "my_bot.py"}


@pytest.mark.parametrize("script", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs(script: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    missing = MISSING_MODULE.search(done.stderr) if done.returncode else None
    if missing and not missing[1].startswith("chickenfoot"):
        pytest.skip(f"{script.name} needs {missing[1]}, which is not installed (an optional extra)")
    assert done.returncode == 0, f"{script.name} failed:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{script.name} printed nothing"
