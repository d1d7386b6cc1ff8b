"""Results do not depend on the process: two interpreters give the same determinized samples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PATHS = os.pathsep.join(str(Path(__file__).resolve().parent.parent / folder) for folder in ("src", "tests"))

SCRIPT = """
import random
import chickenfoot as cf
from _games import play_randomly
game = play_randomly(cf.new_game(cf.Rules.trains(), players=4, seed=5), random.Random(5), 40)
view = cf.observe(game, game.current_player)
print(cf.position(cf.determinize(view, random.Random(9)).round))
"""


def _sample(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONPATH": PATHS, "PYTHONHASHSEED": hash_seed}
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.slow
def test_determinize_gives_the_same_sample_in_another_process() -> None:
    assert _sample("1") == _sample("2")
