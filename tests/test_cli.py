"""The command line: ``chickenfoot simulate`` plays a whole game; bad options exit 2 without a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from chickenfoot.cli import main

SRC = str(Path(__file__).resolve().parent.parent / "src")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_simulate_prints_every_round_the_totals_and_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--preset", "cross", "--players", "3", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("\nRound ") == 10
    assert "#0 9-9 center" in out
    assert "#0 0-0 center" in out
    assert out.count("scores: ") == 10
    totals = [line for line in out.splitlines() if line.startswith("totals: ")]
    assert len(totals) == 1
    values = [int(part.split("=")[1]) for part in totals[0].split()[1:]]
    scores = [line for line in out.splitlines() if line.startswith("scores: ")]
    summed = [sum(int(line.split()[1 + p].split("=")[1]) for line in scores) for p in range(3)]
    assert values == summed
    winners = [int(w) for w in out.rsplit("winner", 1)[1].replace(",", " ").split() if w.isdigit()]
    assert winners
    assert all(values[w] == min(values) for w in winners)


def test_simulate_is_reproducible_from_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--seed", "9"])
    first = capsys.readouterr().out
    main(["simulate", "--seed", "9"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--players", "1"], "a game needs 2 or more players"),
        (["simulate", "--preset", "cross", "--players", "8"], "use a double-12 set"),
        (["simulate", "--players", "four"], "invalid int value"),
        (["simulate", "--preset", "dutch"], "invalid choice"),
        (["simulate", "--bogus"], "unrecognized arguments"),
        (["explode"], "invalid choice"),
        ([], "required"),
    ],
)
def test_bad_options_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    result = _run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
