"""Results do not depend on the process: two interpreters give the same determinized samples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parent.parent / "src")

SCRIPT = """
import random
import chickenfoot as cf
game = cf.new_game(cf.Rules.trains(), players=4, seed=5)
rng = random.Random(5)
for _ in range(40):
    game = cf.apply(game, rng.choice(cf.legal_moves(game)))
view = cf.observe(game, game.current_player)
print(cf.position(cf.determinize(view, random.Random(9)).round))
"""


def _sample(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONPATH": SRC, "PYTHONHASHSEED": hash_seed}
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_determinize_gives_the_same_sample_in_another_process() -> None:
    assert _sample("1") == _sample("2")
