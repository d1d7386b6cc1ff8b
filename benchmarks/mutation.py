"""Mutation testing of the engine's rule modules, run by hand: ``python benchmarks/mutation.py [--jobs N]``.

mutmut (``pip install -e ".[mutation]"``) changes one small thing at a time in the rule modules,
the core's ``_codes.py``, ``_layout.py``, ``_round.py`` and ``_dealing.py`` (where the rules of play
are computed), ``_plans.py``, ``_engine.py``, ``_board.py``, ``_deal.py`` and
``_scoring.py`` (an operator, a constant, a condition) and runs
the tests that reach the changed function, from the fast selection in ``[tool.mutmut]`` of
``pyproject.toml`` (the differential tests against :mod:`chickenfoot.reference`, perft, rules,
scoring and deals). A mutant the tests fail on is *killed*; one they pass on *survived*. The
script prints the share killed and every survivor's diff; docs/quality.md explains each survivor.

It runs for about 40 minutes on two cores. mutmut keeps its results in ``mutants/``: after
strengthening the tests, ``--survivors`` runs only the survivors again, and ``--report-only``
reprints the last figures. Editing ``[tool.mutmut]`` makes mutmut forget every result and start
over; after editing tests, delete ``mutants/tests`` and ``mutants/mutmut-stats.json`` so the new
tests are copied and mapped to the functions they reach. Not a CI step.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.90  # the share of mutants the tests must kill


def mutmut(*args: str, quiet: bool = False) -> str:
    """Runs one mutmut command in the project root; returns what it printed."""
    command = [sys.executable, "-m", "mutmut", *args]
    env = {"HYPOTHESIS_PROFILE": "dev", "CHICKENFOOT_REFERENCE_STEPS": "200", **os.environ}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=quiet, text=True, check=False)
    return done.stdout if quiet else ""


def main(argv: list[str]) -> int:
    """Runs the mutants, then reports; exits 1 if fewer than 90% were killed."""
    parser = argparse.ArgumentParser(description="Mutation testing of the engine's rule modules.")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--report-only", action="store_true", help="report the last run without running")
    parser.add_argument("--survivors", action="store_true", help="run again only the mutants that survived")
    options = parser.parse_args(argv)
    if options.survivors:
        names = re.findall(r"^\s+(\S+): survived$", mutmut("results", quiet=True), re.M)
        mutmut("run", "--max-children", str(options.jobs), *names)
    elif not options.report_only:
        mutmut("run", "--max-children", str(options.jobs))
    mutmut("export-cicd-stats", quiet=True)
    stats = json.loads((ROOT / "mutants" / "mutmut-cicd-stats.json").read_text(encoding="utf-8"))
    # A mutant that hangs past its timeout is caught too: the tests did not pass on it.
    killed = stats["killed"] + stats["timeout"]
    checked = killed + stats["survived"] + stats["no_tests"] + stats["suspicious"] + stats["segfault"]
    unchecked = stats["total"] - stats["skipped"] - checked
    total = checked
    survivors = re.findall(r"^\s+(\S+): (survived|no tests|suspicious)$", mutmut("results", quiet=True), re.M)
    for name, status in survivors:
        print(f"--- {status}: {name}")
        print(mutmut("show", name, quiet=True).strip())
    share = killed / total if total else 0.0
    print(f"\n{killed} of {total} mutants killed ({share:.1%}); {len(survivors)} not killed; target {TARGET:.0%}")
    if unchecked:
        print(f"{unchecked} mutants not run yet (interrupted): run again to finish them")
    return 0 if share >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
