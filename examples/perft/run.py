"""Checks the golden perft counts: ``python examples/perft/run.py [--reference] [--write] [FILE.perft ...]``.

With no files it checks every ``*.perft`` file next to this script, counting with the engine's
:func:`chickenfoot.perft`. ``--reference`` counts with :func:`chickenfoot.reference.perft`, the
plain rules, instead (each position read into the reference's values by
:func:`chickenfoot.conformance.reference_round`); ``--write`` regenerates the counts in the files
from the reference (the golden counts are made that way: ``git diff`` then shows any count that
changed). It prints one line per position and exits with status 1 if any count differs.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import chickenfoot as cf
from chickenfoot import reference
from chickenfoot._io._perft import read_perft_file
from chickenfoot.conformance import reference_round

Counter = Callable[[cf.RoundState, int], int]


def _reference_perft(state: cf.RoundState, depth: int) -> int:
    return reference.perft(reference_round(state), depth)


def check(path: Path, count: Counter) -> int:
    """Checks every case in one file with ``count``; returns the number of wrong counts."""
    wrong = 0
    for case in read_perft_file(path.read_text(encoding="utf-8")):
        state = case.state
        started = time.perf_counter()
        for depth, expected in case.counts:
            got = count(state, depth)
            if got != expected:
                wrong += 1
                print(f"FAIL {path.name} {case.name} depth {depth}: expected {expected}, got {got}")
        elapsed = time.perf_counter() - started
        print(f"ok   {path.name} {case.name}: depths {[d for d, _ in case.counts]} in {elapsed:.2f}s")
    return wrong


def write(path: Path) -> None:
    """Rewrites every ``perft DEPTH COUNT`` line of one file with the reference's count."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    for number, block in enumerate(blocks):
        cases = read_perft_file(block)
        if cases:
            state = cases[0].state

            def count(match: re.Match[str], state: cf.RoundState = state) -> str:
                return f"perft {match[1]} {reference.perft(reference_round(state), int(match[1]))}"

            blocks[number] = re.sub(r"(?m)^perft (\d+) \d+", count, block)
    path.write_text("\n\n".join(blocks), encoding="utf-8")
    print(f"wrote {path}")


def main(argv: list[str]) -> int:
    """Checks (or with ``--write`` regenerates) the files named in ``argv`` (default: every ``*.perft`` here)."""
    flags = {arg for arg in argv if arg.startswith("--")}
    paths = [Path(arg) for arg in argv if arg not in flags] or sorted(Path(__file__).parent.glob("*.perft"))
    if "--write" in flags:
        for path in paths:
            write(path)
        return 0
    count: Counter = _reference_perft if "--reference" in flags else cf.perft
    wrong = sum(check(path, count) for path in paths)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
