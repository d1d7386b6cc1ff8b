"""Finding processes by what their environment holds: how the tests see that no program outlived its supervisor."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest


def living_with(entry: str) -> list[int]:
    """Lists the processes (not zombies) whose environment holds ``entry`` (``NAME=VALUE``), on Linux."""
    wanted = entry.encode()
    found = []
    for path in Path("/proc").iterdir():
        if not path.name.isdigit():
            continue
        try:
            stat = (path / "stat").read_bytes()
            if stat[stat.rfind(b")") + 2 :].split()[0] == b"Z":
                continue
            if wanted in (path / "environ").read_bytes().split(b"\0"):
                found.append(int(path.name))
        except OSError:
            continue
    return found


@pytest.fixture
def marked() -> Iterator[tuple[dict[str, str], str]]:
    """Gives an environment with a mark that every process started from it inherits, and the mark.

    Whatever still runs with the mark when the test ends is killed: a test that failed halfway
    (before it stopped its tournament, say) leaves nothing to run on for an hour.
    """
    if not Path("/proc/self/environ").exists():
        pytest.skip("finding leftover processes reads /proc (Linux)")
    entry = f"CHICKENFOOT_TEST_RUN={secrets.token_hex(8)}"
    name, value = entry.split("=")
    yield {**os.environ, name: value}, entry
    for pid in living_with(entry):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
