"""Compares this checkout's engine with the one at an earlier revision, in one run: instructions and batch speed.

Run it from a checkout, by hand (it builds two compiled installs, about 10 minutes in all)::

    python benchmarks/before_after.py --before de6b3bc
    python benchmarks/before_after.py --before de6b3bc --skip-batch --games 20

Both engines are built the same way: the source at ``--before`` (extracted with ``git archive``)
and this checkout's, each run pure (``PYTHONPATH`` to its ``src``) and compiled (``pip install``
into a private venv that sees this interpreter's packages). Then:

* **instructions**: ``benchmarks/instructions.py`` (whole random games through ``legal_moves`` and
  ``apply``) under callgrind, which counts instructions, not seconds, so a shared machine does
  not disturb it. A count is the games' count less the imports' and the warm-up's (the same
  script with ``--warm-up-only``), divided by the moves played;
* **batch**: ``chickenfoot.batch`` at B = 4096, random legal actions applied by ``step_inplace``,
  moves per second of CPU time; the two engines alternate ``--repeat`` times and the figure is
  the median of the ratios of neighbouring runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTRUCTIONS = ROOT / "benchmarks" / "instructions.py"

BATCH = """
import sys, time
import numpy as np
import chickenfoot as cf
from chickenfoot import batch
games = batch.init(cf.Rules.trains(), 4, np.arange(4096))
rng = np.random.default_rng(0)
moves = 0
start = time.process_time()
while time.process_time() - start < float(sys.argv[1]):
    moves += int((~games.game_over).sum())
    batch.step_inplace(games, batch.random_actions(games, rng), check=True, autoreset=True)
print(moves / (time.process_time() - start))
"""


def extract(revision: str, into: Path) -> Path:
    """Extracts the checkout as it stood at ``revision`` into ``into``; gets the tree's root."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True)
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def snapshot(into: Path) -> Path:
    """Copies this checkout's package sources and build files into ``into``; gets the copy's root."""
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        into.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, into / name)
    shutil.copytree(ROOT / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    return into


def compiled_python(tree: Path, into: Path) -> Path:
    """Installs the package of ``tree`` compiled into a new venv at ``into``; gets its interpreter."""
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(into)], check=True)
    python = into / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(tree)], check=True, cwd=into)
    check = "import chickenfoot, sys; sys.exit(not chickenfoot.__compiled__)"
    subprocess.run([str(python), "-c", check], check=True, cwd=into)
    return python


def instructions(python: Path, src: Path | None, warm_up_only: bool, games_flag: list[str]) -> tuple[int, int]:
    """Runs instructions.py under callgrind; gets the instructions counted and the moves it printed."""
    with tempfile.TemporaryDirectory() as temp:
        out = Path(temp) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(python), str(INSTRUCTIONS)]
        command += ["--warm-up-only"] if warm_up_only else []
        env = {**os.environ, "PYTHONPATH": str(src)} if src is not None else dict(os.environ)
        env.pop("CHICKENFOOT_PURE", None)
        run = subprocess.run(command + games_flag, check=True, capture_output=True, text=True, env=env, cwd=temp)
        moves = int(run.stdout.split()[-1])
        summary = next(line for line in out.read_text().splitlines() if line.startswith("summary:"))
        return int(summary.split()[1]), moves


def per_move(python: Path, src: Path | None) -> float:
    """Gets the instructions one move costs: the games' count less the warm-up's, over the moves."""
    total, moves = instructions(python, src, False, [])
    base, _ = instructions(python, src, True, [])
    return (total - base) / moves


def batch_rate(python: Path, src: Path | None, seconds: float) -> float:
    """Gets the batch's moves per second at B = 4096 for the engine ``python`` (with ``src``) runs."""
    env = {**os.environ, "PYTHONPATH": str(src)} if src is not None else dict(os.environ)
    run = subprocess.run(
        [str(python), "-c", BATCH, str(seconds)], check=True, capture_output=True, text=True, env=env, cwd="/"
    )
    return float(run.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", required=True, help="the revision to compare with")
    parser.add_argument("--repeat", type=int, default=7, help="alternating batch runs of each engine")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds a batch run")
    parser.add_argument("--skip-batch", action="store_true")
    parser.add_argument("--skip-instructions", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        before = extract(args.before, Path(temp) / "before")
        # A copy of this checkout as it is now (edits included), so that editing it during the run
        # cannot change what is measured.
        now = snapshot(Path(temp) / "now")
        engines = {
            "before": (before / "src", compiled_python(before, Path(temp) / "before-venv")),
            "now": (now / "src", compiled_python(now, Path(temp) / "now-venv")),
        }
        if not args.skip_instructions:
            print("instructions a move (callgrind, benchmarks/instructions.py):")
            for flavour in ("pure", "compiled"):
                counts: dict[str, float] = {}
                for name, (src, compiled) in engines.items():
                    python = Path(sys.executable) if flavour == "pure" else compiled
                    counts[name] = per_move(python, src if flavour == "pure" else None)
                change = counts["now"] / counts["before"] - 1
                old, new = counts["before"], counts["now"]
                print(f"  {flavour:<9} before {old:>10,.0f}  now {new:>10,.0f}  change {change:+.2%}")
        if not args.skip_batch:
            ratios: list[float] = []
            rates: dict[str, list[float]] = {"before": [], "now": []}
            python = Path(sys.executable)
            for _ in range(args.repeat):
                pair = {name: batch_rate(python, src, args.seconds) for name, (src, _) in engines.items()}
                for name, rate in pair.items():
                    rates[name].append(rate)
                ratios.append(pair["now"] / pair["before"])
            print("batch, B = 4096, step_inplace with random legal actions (moves/s, CPU time, medians):")
            print(
                f"  before {statistics.median(rates['before']):>12,.0f}  now {statistics.median(rates['now']):>12,.0f}"
                f"  change {statistics.median(ratios) - 1:+.2%} (median of {args.repeat} paired ratios)"
            )


if __name__ == "__main__":
    main()
