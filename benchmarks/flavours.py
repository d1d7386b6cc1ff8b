"""Compares the compiled and the pure core with the engine before them and with OpenSpiel, in one run.

Run it with the compiled package installed (a venv: ``pip install .`` builds it where a C compiler
is found)::

    python benchmarks/flavours.py                  # about 2 minutes
    python benchmarks/flavours.py --quick          # about 30 seconds, noisier
    python benchmarks/flavours.py --before 7132f10 --json out.json

The engines, each imported under its own name in this one process:

* ``compiled``: the installed ``chickenfoot``, if its core is the mypyc-compiled one;
* ``pure``: this checkout's ``src/chickenfoot``, whose core is the plain ``.py`` modules;
* ``before``: the package at git revision ``--before`` (the engine before the flat core), exported
  with ``git archive``;
* OpenSpiel's ``python_block_dominoes`` (player actions; chance nodes sampled with
  ``random.choices``), when ``pyspiel`` is installed.

Each repeat runs every engine back to back and takes the ratios within the repeat (the load of a
shared machine drifts; neighbouring runs cancel most of it); the figures are medians over repeats.
Rates use CPU time (``time.process_time``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
Playout = Callable[[random.Random], int]


def load_package(directory: Path, name: str) -> ModuleType:
    """Imports the package in ``directory`` under the module name ``name`` (its imports are relative)."""
    spec = importlib.util.spec_from_file_location(
        name, directory / "__init__.py", submodule_search_locations=[str(directory)]
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"no package in {directory}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def export_revision(revision: str, into: Path) -> Path:
    """Writes ``src/chickenfoot`` as of git ``revision`` under ``into``; gets its directory."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src/chickenfoot"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src" / "chickenfoot"


def engines(before: str, workdir: Path) -> dict[str, ModuleType]:
    """Loads the engines to compare, by label; the compiled one only if it is installed."""
    loaded = {"before": load_package(export_revision(before, workdir), "chickenfoot_before")}
    loaded["pure"] = load_package(ROOT / "src" / "chickenfoot", "chickenfoot_pure")
    installed = importlib.import_module("chickenfoot")
    if getattr(installed, "__compiled__", False):
        loaded["compiled"] = installed
    else:
        print("no compiled chickenfoot installed (pip install . in a venv, with a C compiler): compiled skipped")
    return loaded


def playout(cf: ModuleType, rules: Any, players: int) -> Playout:
    """Gets a runner of whole random games (legal_moves + apply + a seeded choice); it returns moves."""
    seeds = iter(range(1 << 40))

    def once(rng: random.Random) -> int:
        legal_moves, apply, uniform = cf.legal_moves, cf.apply, rng.random
        game = cf.new_game(rules, players, next(seeds))
        moves = 0
        while True:
            legal = legal_moves(game)
            if not legal:
                return moves
            game = apply(game, legal[int(uniform() * len(legal))])
            moves += 1

    return once


def open_spiel_playout() -> Playout | None:
    """Gets a runner of random python_block_dominoes games counting player actions, or ``None``."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games")  # registers the Python games
    except ImportError:
        print("pyspiel is not installed (pip install open_spiel): OpenSpiel skipped")
        return None
    game = pyspiel.load_game("python_block_dominoes")

    def once(rng: random.Random) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                choices, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(choices, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                actions += 1
        return actions

    return once


def moves_per_second(run: Playout, budget: float, seed: int) -> float:
    """Runs whole games for ``budget`` CPU seconds; gets moves per CPU second."""
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    while True:
        moves += run(rng)
        elapsed = time.process_time() - start
        if elapsed >= budget:
            return moves / elapsed


def call_positions(cf: ModuleType, games: int) -> list[Any]:
    """Gets the positions the call costs are timed on: random trains double-9 4-player games, 10 to 119 moves in."""
    rng = random.Random(5)
    positions = []
    for seed in range(games):
        game = cf.new_game(cf.Rules.trains(), 4, seed)
        for _ in range(rng.randrange(10, 120)):
            legal = cf.legal_moves(game)
            if not legal:
                break
            game = cf.apply(game, legal[int(rng.random() * len(legal))])
        if not game.is_over:
            positions.append(game)
    return positions


def call_costs(cf: ModuleType, games: int, repeat: int) -> dict[str, float]:
    """Times observe and determinize on :func:`call_positions` (us per call)."""
    positions = call_positions(cf, games)
    views = [cf.observe(game, game.current_player) for game in positions]
    costs: dict[str, list[float]] = {"observe": [], "determinize": []}
    for _ in range(repeat):
        start = time.process_time()
        for game in positions:
            cf.observe(game, game.current_player)
        costs["observe"].append((time.process_time() - start) / len(positions) * 1e6)
        sampler = random.Random(7)
        start = time.process_time()
        for view in views:
            cf.determinize(view, sampler)
        costs["determinize"].append((time.process_time() - start) / len(views) * 1e6)
    return {name: statistics.median(values) for name, values in costs.items()}


def measure(loaded: dict[str, ModuleType], budget: float, repeat: int, games: int) -> dict[str, Any]:
    """Runs every engine back to back per repeat; gets the medians of rates and ratios."""
    runs: dict[str, Playout] = {}
    for label, cf in loaded.items():
        runs[f"{label} d9 4p"] = playout(cf, cf.Rules.trains(), 4)
        runs[f"{label} d18 8p"] = playout(cf, cf.Rules.trains(max_pip=18), 8)
    peer = open_spiel_playout()
    if peer is not None:
        runs["OpenSpiel python_block_dominoes"] = peer
    rates: dict[str, list[float]] = {name: [] for name in runs}
    ratios: dict[str, list[float]] = {}
    for attempt in range(repeat):
        measured = {name: moves_per_second(run, budget, attempt) for name, run in runs.items()}
        for name, value in measured.items():
            rates[name].append(value)
        for label in loaded:
            mine = measured[f"{label} d9 4p"]
            pairs = {f"{label} / before (d9 4p)": mine / measured["before d9 4p"]}
            pairs[f"{label}: d18 8p per move / d9 4p per move"] = mine / measured[f"{label} d18 8p"]
            if peer is not None:
                pairs[f"{label} / OpenSpiel"] = mine / measured["OpenSpiel python_block_dominoes"]
            for name, value in pairs.items():
                ratios.setdefault(name, []).append(value)
    calls = {label: call_costs(cf, games, max(3, repeat)) for label, cf in loaded.items()}
    return {
        "moves_per_s": {name: statistics.median(values) for name, values in rates.items()},
        "ratios": {name: statistics.median(values) for name, values in ratios.items()},
        "us_per_call": calls,
        "call_ratios": {
            f"{label} {name} speed-up over before": calls["before"][name] / calls[label][name]
            for label in loaded
            if label != "before"
            for name in calls[label]
        },
        "budget_s": budget,
        "repeat": repeat,
        "python": sys.version.split()[0],
    }


def main(argv: list[str] | None = None) -> int:
    """Parses the options, runs the comparison, prints it, and writes the JSON if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="7132f10", help="git revision of the engine to compare with")
    parser.add_argument("--budget", type=float, default=1.5, help="CPU seconds per engine and repeat")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--games", type=int, default=30, help="games to take positions from for call costs")
    parser.add_argument("--quick", action="store_true", help="short budget and few repeats (noisier)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)
    if args.quick:
        args.budget, args.repeat, args.games = 0.5, 3, 10
    with tempfile.TemporaryDirectory() as workdir:
        report = measure(engines(args.before, Path(workdir)), args.budget, args.repeat, args.games)
    report["before"] = args.before
    for section in ("moves_per_s", "ratios", "call_ratios"):
        print(f"\n{section}")
        for name, value in report[section].items():
            print(f"  {name:<52} {value:>12,.2f}")
    print("\nus_per_call")
    for label, costs in report["us_per_call"].items():
        print(f"  {label:<10} " + "  ".join(f"{name} {value:,.1f}" for name, value in costs.items()))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
