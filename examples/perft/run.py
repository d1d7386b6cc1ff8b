"""Checks the golden perft counts: ``python examples/perft/run.py [FILE.perft ...]``.

With no arguments it checks every ``*.perft`` file next to this script. It prints one line per
position and exits with status 1 if any count differs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import chickenfoot as cf
from chickenfoot._perft import read_perft_file


def check(path: Path) -> int:
    """Checks every case in one file; returns the number of wrong counts."""
    wrong = 0
    for case in read_perft_file(path.read_text(encoding="utf-8")):
        state = case.state
        started = time.perf_counter()
        for depth, expected in case.counts:
            got = cf.perft(state, depth)
            if got != expected:
                wrong += 1
                print(f"FAIL {path.name} {case.name} depth {depth}: expected {expected}, got {got}")
        elapsed = time.perf_counter() - started
        print(f"ok   {path.name} {case.name}: depths {[d for d, _ in case.counts]} in {elapsed:.2f}s")
    return wrong


def main(argv: list[str]) -> int:
    """Checks the files named in ``argv`` (default: every ``*.perft`` here)."""
    paths = [Path(arg) for arg in argv] or sorted(Path(__file__).parent.glob("*.perft"))
    wrong = sum(check(path) for path in paths)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
