"""Benchmarks the batched engine (``chickenfoot.batch``) next to the single-game engine, in one run.

Run from a checkout (needs numpy and git)::

    python benchmarks/batch.py                    # about 2 minutes
    python benchmarks/batch.py --quick            # about 45 seconds, noisier
    python benchmarks/batch.py --json out.json

What it measures, every rate the median of ``--repeat`` rounds in which each contender runs back
to back (so a busy machine slows them alike), in moves per second with every player's moves counted:

* the single-game engine: whole random games of ``legal_moves`` + ``apply`` + a seeded random
  choice, as the engine stood at ``--baseline`` (default 7132f10, extracted with ``git archive``
  and run in a subprocess) and as it is in this checkout;
* the batch at B = 1, 64, 1024, 4096: whole random games with automatic reset, each step a
  uniform random legal action per game, four ways: ``random_actions`` + ``step_inplace``; the
  same with ``check=False`` (``random_actions`` is legal by construction, and the tests prove it);
  ``random_actions`` + the pure ``step`` (it copies the batch each step); and the full
  ``legal_action_mask`` + a uniform draw among each row's true flags + ``step_inplace``;
* memory: bytes of the batch's arrays per game (whole games and single rounds), and of one mask row.

The headline is ``B=4096 inplace``: uniform random legal moves (``random_actions`` draws from
the distribution of the legal-action mask without building it; the tests check it) applied by
``step_inplace`` with its legality check on, against the targets of issue 15 (at least
1,000,000 moves/s and 10 times the baseline).

Rates use CPU time of the measuring process (``time.process_time``): the machines this runs on
are shared, and wall time would measure the neighbours.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # run from a checkout without installing

import numpy as np  # noqa: E402

import chickenfoot as cf  # noqa: E402
from chickenfoot import batch  # noqa: E402

SIZES = (1, 64, 1024, 4096)
WAYS = ("inplace", "unchecked", "pure", "mask")

# The single-game playout, run here and (as text) in the baseline's subprocess.
SINGLE = """
import random, sys, time
import chickenfoot as cf

def single(seconds):
    rules = cf.Rules.trains()
    rng = random.Random(0)
    moves, seed = 0, 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = cf.new_game(rules, 4, seed)
        seed += 1
        while not game.is_over:
            legal = cf.legal_moves(game)
            game = cf.apply(game, legal[rng.randrange(len(legal))])
            moves += 1
    return moves / (time.process_time() - start)
"""
namespace: dict[str, Any] = {}
exec(SINGLE, namespace)


def baseline_tree(commit: str, into: Path) -> Path:
    """Extracts the package as it stood at ``commit`` and returns its ``src`` directory."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src"], check=True, capture_output=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def baseline_rate(src: Path, seconds: float) -> float:
    """Runs the single-game playouts of the baseline engine in a subprocess; returns moves per second."""
    code = SINGLE + f"\nprint(single({seconds}))"
    run = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, env={"PYTHONPATH": str(src)}
    )
    return float(run.stdout)


def batch_rate(size: int, way: str, seconds: float, rules: cf.Rules, players: int) -> float:
    """Plays random whole games on a batch of ``size`` for ``seconds`` of CPU; returns moves per second."""
    games = batch.init(rules, players, np.arange(size))
    rng = np.random.default_rng(0)
    moves = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        moves += int((~games.game_over).sum())
        actions = sample(batch.legal_action_mask(games), rng) if way == "mask" else batch.random_actions(games, rng)
        if way == "pure":
            games = batch.step(games, actions, autoreset=True)
        else:
            batch.step_inplace(games, actions, check=way != "unchecked", autoreset=True)
    return moves / (time.process_time() - start)


def sample(mask: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """Draws per row one of its true columns, uniformly (column 0 for a row with none)."""
    rows, width = mask.shape
    true = np.flatnonzero(mask)  # row-major, so each row's columns are one run
    counts = np.bincount(true // width, minlength=rows)
    if true.size == 0:
        return np.zeros(rows, dtype=np.intp)
    pick = np.cumsum(counts) - counts + (rng.random(rows) * counts).astype(np.intp)
    return np.where(counts > 0, true[np.minimum(pick, true.size - 1)] - np.arange(rows) * width, 0)


def memory(rules: cf.Rules, players: int) -> dict[str, float]:
    """Gets the bytes per game of a batch's arrays, whole games and single rounds, and of one mask row."""
    whole = batch.init(rules, players, np.arange(256))
    single = batch.init(rules, players, np.arange(256), single_round=True)
    return {
        "whole_game_bytes_per_game": whole.nbytes / 256,
        "single_round_bytes_per_game": single.nbytes / 256,
        "mask_bytes_per_game": float(batch.legal_action_mask(single).shape[1]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (still --repeat of each), noisier figures")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", default="7132f10", help="commit of the single-game engine to compare with")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="batch sizes, comma-separated")
    parser.add_argument("--ways", default=",".join(WAYS), help="which of inplace, pure, mask to run")
    args = parser.parse_args()
    seconds = 0.7 if args.quick else 2.0
    rules, players = cf.Rules.trains(), 4
    rates: dict[str, list[float]] = {"baseline": [], "single": []}
    with tempfile.TemporaryDirectory() as temp:
        src = baseline_tree(args.baseline, Path(temp))
        for _ in range(args.repeat):
            rates["baseline"].append(baseline_rate(src, seconds))
            rates["single"].append(namespace["single"](seconds))
            for size in map(int, args.sizes.split(",")):
                for way in args.ways.split(","):
                    if way == "mask" and size < 1024:
                        continue
                    rates.setdefault(f"B={size} {way}", []).append(batch_rate(size, way, seconds, rules, players))
    base = statistics.median(rates["baseline"])
    print(f"trains, double-9, {players} players, random whole games; moves/s (all players), CPU time")
    print(f"{'contender':<22}{'moves/s':>12}{'x baseline':>12}")
    figures: dict[str, Any] = {"rates": {}, "memory": memory(rules, players), "baseline_commit": args.baseline}
    for name, values in rates.items():
        rate = statistics.median(values)
        figures["rates"][name] = {"median": rate, "min": min(values), "max": max(values)}
        print(f"{name:<22}{rate:>12,.0f}{rate / base:>12.1f}")
    for name, value in figures["memory"].items():
        print(f"{name}: {value:,.0f}")
    if "B=4096 inplace" in rates:
        rate = statistics.median(rates["B=4096 inplace"])
        met = rate >= 1_000_000 and rate >= 10 * base
        verdict = "met" if met else "NOT met"
        print(f"headline (B=4096 inplace): {rate:,.0f} moves/s, {rate / base:.1f}x baseline; targets {verdict}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
