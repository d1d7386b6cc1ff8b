"""Mutation tests of the statements of the rules, by hand: ``python benchmarks/mutation.py [--jobs N] [PATTERN ...]``.

mutmut (``pip install -e ".[mutation]"``) changes one small thing at a time in the modules named
by ``only_mutate`` in ``[tool.mutmut]`` of ``pyproject.toml``: the numpy batch (``batch/``) and
OpenSpiel's chance layer (``_chance.py``), the statements the conformance suite brought under
test (the engine's own modules, then ``_core.py`` (now ``_codes.py``, ``_layout.py``, ``_round.py``,
``_dealing.py`` and ``_plans.py``), ``_engine.py``, ``_board.py``, ``_deal.py`` and
``_scoring.py``, had their run before; add them back to ``only_mutate`` to run them again). Each
mutant changes an operator, a constant, a condition, and runs the tests that reach the changed
function, from the selection in ``[tool.mutmut]`` (the batch's and the chance layer's own
tests and the conformance suite), the fast loop's cases only (``-m "not slow"``). A mutant the
tests fail on is *killed*; one they pass on *survived*. The script prints every survivor's diff
and the share killed in each module; docs/quality.md explains the survivors. Each module must
reach 90%.

``PATTERN`` limits the run to mutants whose names match (``"chickenfoot.batch.*"``, for one
module ``"chickenfoot._game._chance.*"``); the report covers the modules that have results. A whole
run takes about 40 minutes on two shared cores: run it under ``nice -n 10``. mutmut keeps its results in
``mutants/``: after strengthening the tests, ``--survivors`` runs only the survivors again, and
``--report-only`` reprints the last figures. Editing ``[tool.mutmut]`` makes mutmut forget every
result and start over; after editing tests, delete ``mutants/tests`` and
``mutants/mutmut-stats.json`` so the new tests are copied and mapped to the functions they
reach. Not a CI step.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 0.90  # the share of mutants the tests must kill, in each module
# A mutant that hangs past its timeout is caught too: the tests did not pass on it.
KILLED = {"killed", "timeout"}
NOT_KILLED = {"survived", "no tests", "suspicious", "segfault"}


def mutmut(*args: str, quiet: bool = False) -> str:
    """Runs one mutmut command in the project root; returns what it printed."""
    command = [sys.executable, "-m", "mutmut", *args]
    env = {"HYPOTHESIS_PROFILE": "dev", **os.environ}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=quiet, text=True, check=False)
    return done.stdout if quiet else ""


def module_of(mutant: str) -> str:
    """Gets the module of a mutant: ``chickenfoot.batch._step.x_step__mutmut_3`` is one of ``batch._step``."""
    return mutant.split(".x", 1)[0]


def main(argv: list[str]) -> int:
    """Runs the mutants, then reports; exits 1 if a module has fewer than 90% killed."""
    parser = argparse.ArgumentParser(description="Mutation testing of every statement of the rules.")
    parser.add_argument("patterns", nargs="*", help="run only the mutants whose names match (fnmatch patterns)")
    parser.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    parser.add_argument("--report-only", action="store_true", help="report the last run without running")
    parser.add_argument("--survivors", action="store_true", help="run again only the mutants that survived")
    options = parser.parse_args(argv)
    if options.survivors:
        names = re.findall(r"^\s+(\S+): survived$", mutmut("results", quiet=True), re.M)
        mutmut("run", "--max-children", str(options.jobs), *names)
    elif not options.report_only:
        mutmut("run", "--max-children", str(options.jobs), *options.patterns)
    statuses = re.findall(r"^\s+(\S+): (.+)$", mutmut("results", "--all", "true", quiet=True), re.M)
    killed: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    unchecked: Counter[str] = Counter()
    for name, status in statuses:
        module = module_of(name)
        if status in KILLED | NOT_KILLED:
            checked[module] += 1
            killed[module] += status in KILLED
        elif status != "skipped":
            unchecked[module] += 1
        if status in NOT_KILLED:
            print(f"--- {status}: {name}")
            print(mutmut("show", name, quiet=True).strip())
    print()
    failing = 0
    for module in sorted(checked):
        share = killed[module] / checked[module]
        failing += share < TARGET
        more = f"; {unchecked[module]} not run yet" if unchecked[module] else ""
        print(f"{module:32} {killed[module]:5} of {checked[module]:5} killed ({share:.1%}){more}")
    total_killed, total = sum(killed.values()), sum(checked.values())
    if total:
        print(f"{'all':32} {total_killed:5} of {total:5} killed ({total_killed / total:.1%}); target {TARGET:.0%} each")
    return 1 if failing or not total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
