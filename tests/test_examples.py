"""Runs every script in examples/ as a user would, so the examples cannot rot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from optional import imports_of_source, skip_unless_importable

pytestmark = pytest.mark.slow  # every example runs as a program

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((REPO / "examples").glob("*.py"))


def test_there_are_examples() -> None:
    assert {path.name for path in EXAMPLES} >= {"quickstart.py", "custom_variant.py", "my_bot.py"}


@pytest.mark.parametrize("script", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_runs(script: Path) -> None:
    """Runs a script; one that imports an optional extra (OpenSpiel, PettingZoo) is skipped where
    the extra is not installed, naming it (CI installs every extra, so there it runs)."""
    skip_unless_importable(imports_of_source(script.read_text(encoding="utf-8")), script.name)
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
    assert done.returncode == 0, f"{script.name} failed:\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip(), f"{script.name} printed nothing"
