"""Benchmarks chickenfoot against itself and its peers, in one run, and writes the figures as JSON.

Run it with the package installed (``pip install ".[bench]"`` installs the peers, rich, and the
package with its core compiled where a C compiler is found; an editable install runs the pure core),
or from a checkout without installing (the pure core)::

    python benchmarks/run.py                 # about 2-3 minutes
    python benchmarks/run.py --quick         # about 30 seconds, noisier
    python benchmarks/run.py --json out.json

What it measures (every rate is the median of ``--repeat`` runs; min and max go to the JSON):

* random playouts: whole games of ``legal_moves`` + ``apply`` + a seeded random choice, moves and
  rounds per second, for both presets, 2/4/8 players and double-9/12/18 sets (configurations the
  rules refuse, such as *cross* with 8 players on double-9, are listed as skipped);
* microseconds per ``legal_moves`` (first call on a state, uncached), ``apply``, ``observe``,
  ``determinize`` and a JSON round trip (rows for functions this version lacks are skipped);
* memory: bytes retained per additional state when a playout keeps every state (tracemalloc);
* peers in the same run: OpenSpiel's ``python_block_dominoes`` (player actions per second, chance
  nodes sampled from ``chance_outcomes()`` like OpenSpiel's examples do) and the ``dominoes``
  package's random games (moves per second), each run back to back with chickenfoot's trains
  double-9 4-player playouts in every repeat, and the ratio taken within each repeat.

Rates use CPU time of this process (``time.process_time``) by default, because the machines this
runs on are often shared: wall time would measure the neighbours. ``--clock wall`` switches.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

if importlib.util.find_spec("chickenfoot") is None:  # run from a checkout without installing (pure core)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

import attrs

import chickenfoot as cf

PRESETS = {"trains": cf.Rules.trains, "cross": cf.Rules.cross}
PLAYERS = (2, 4, 8)
SETS = (9, 12, 18)
Clock = Callable[[], float]


# -- helpers ------------------------------------------------------------------------------------


def summary(values: Sequence[float]) -> dict[str, float]:
    """Sums up repeated measurements as min, median and max."""
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def machine() -> dict[str, Any]:
    """Describes the machine: CPU model, cores, Python and platform."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "chickenfoot": cf.__version__,
        "compiled core": cf.__compiled__,
    }


def playout(rules: cf.Rules, players: int, seed: int, rng: random.Random) -> tuple[int, int]:
    """Plays one whole game choosing uniformly at random; returns (moves, rounds)."""
    legal_moves, apply, uniform = cf.legal_moves, cf.apply, rng.random
    game = cf.new_game(rules, players, seed)
    moves = 0
    while True:
        legal = legal_moves(game)
        if not legal:
            return moves, len(game.results)
        game = apply(game, legal[int(uniform() * len(legal))])
        moves += 1


def rate(run_once: Callable[[], tuple[int, int]], budget: float, clock: Clock) -> tuple[float, float, int, int]:
    """Runs ``run_once`` (returning two counts) until ``budget`` seconds passed; gets both rates."""
    count_a = count_b = 0
    start = clock()
    while True:
        a, b = run_once()
        count_a += a
        count_b += b
        elapsed = clock() - start
        if elapsed >= budget:
            return count_a / elapsed, count_b / elapsed, count_a, count_b


# -- chickenfoot playouts -----------------------------------------------------------------------


def bench_playouts(budget: float, repeat: int, clock: Clock, only: str | None) -> list[dict[str, Any]]:
    """Measures random playouts per preset, player count and set."""
    rows: list[dict[str, Any]] = []
    for preset, make in PRESETS.items():
        for max_pip in SETS:
            for players in PLAYERS:
                name = f"{preset} d{max_pip} {players}p"
                if only and only not in name:
                    continue
                rules = make(max_pip=max_pip)
                try:
                    rules.check_players(players)
                except cf.RulesError as error:
                    rows.append({"preset": preset, "max_pip": max_pip, "players": players, "skipped": str(error)})
                    continue
                moves_rates, round_rates, moves_total = [], [], 0
                for attempt in range(repeat):
                    rng = random.Random(attempt)
                    seeds = iter(range(attempt * 100_000, (attempt + 1) * 100_000))

                    def once(
                        rules: cf.Rules = rules,
                        players: int = players,
                        rng: random.Random = rng,
                        seeds: Iterator[int] = seeds,
                    ) -> tuple[int, int]:
                        return playout(rules, players, next(seeds), rng)

                    per_move, per_round, moves, _ = rate(once, budget, clock)
                    moves_rates.append(per_move)
                    round_rates.append(per_round)
                    moves_total += moves
                rows.append(
                    {
                        "preset": preset,
                        "max_pip": max_pip,
                        "players": players,
                        "moves_per_s": summary(moves_rates),
                        "rounds_per_s": summary(round_rates),
                        "us_per_move": 1e6 / statistics.median(moves_rates),
                        "moves": moves_total,
                    }
                )
    return rows


# -- per-call costs -----------------------------------------------------------------------------


def recorded_positions(games: int) -> list[tuple[cf.GameState, cf.Move]]:
    """Plays trains double-9 4-player games at random and keeps every (state, move) pair."""
    rng = random.Random(12345)
    pairs = []
    for seed in range(games):
        game = cf.new_game(cf.Rules.trains(), 4, seed)
        while True:
            legal = cf.legal_moves(game)
            if not legal:
                break
            move = legal[int(rng.random() * len(legal))]
            pairs.append((game, move))
            game = cf.apply(game, move)
    return pairs


def per_call(
    fn: Callable[[Any], object], items: Sequence[Any], repeat: int, clock: Clock, prepare: Callable[[], object] | None
) -> dict[str, float]:
    """Times ``fn`` over ``items`` ``repeat`` times; gets microseconds per call."""
    times = []
    for _ in range(repeat):
        if prepare is not None:
            prepare()
        start = clock()
        for item in items:
            fn(item)
        times.append((clock() - start) / len(items) * 1e6)
    return summary(times)


def bench_calls(games: int, repeat: int, clock: Clock) -> list[dict[str, Any]]:
    """Measures microseconds per engine call on positions from random trains double-9 4-player games."""
    pairs = recorded_positions(games)
    states = [game for game, _ in pairs]
    rows: list[dict[str, Any]] = []

    # legal_moves caches its answer on the state; the first call is the cost a playout pays, so
    # each repeat starts from copies made by the public constructors, which carry no cache.
    def fresh(game: Any) -> Any:
        try:
            return attrs.evolve(game, round=attrs.evolve(game.round))
        except TypeError:  # an older engine, whose states were attrs classes of one private field
            state = importlib.import_module("chickenfoot._game._state")
            return state.replace_game(game, round=state.replace_round(game.round))

    def forget() -> None:
        states[:] = [fresh(game) for game in states]

    note = "first call on a state (the answer is then cached on it)"
    rows.append({"name": "legal_moves", "us": per_call(cf.legal_moves, states, repeat, clock, forget), "note": note})
    rows.append({"name": "legal_moves (cached)", "us": per_call(cf.legal_moves, states, repeat, clock, None)})
    rows.append(
        {
            "name": "apply",
            "us": per_call(lambda pair: cf.apply(*pair), pairs, repeat, clock, None),
            "note": "a legal move, after legal_moves on the state (as in a playout)",
        }
    )
    sample = states[:: max(1, len(states) // 300)]
    observe = getattr(cf, "observe", None)
    determinize = getattr(cf, "determinize", None)
    to_json, from_json = getattr(cf, "to_json", None), getattr(cf, "from_json", None)
    missing = "skipped: no chickenfoot.{} in this version"
    if observe is not None:
        rows.append(
            {
                "name": "observe",
                "us": per_call(lambda game: observe(game, game.current_player), sample, repeat, clock, None),
                "note": "the player to move's view",
            }
        )
        if determinize is not None:
            views = [observe(game, game.current_player) for game in sample[:100]]
            rng = random.Random(7)
            rows.append(
                {
                    "name": "determinize",
                    "us": per_call(lambda view: determinize(view, rng), views, repeat, clock, None),
                    "note": "one sampled game per view",
                }
            )
        else:
            rows.append({"name": "determinize", "skipped": missing.format("determinize")})
    else:
        rows.append({"name": "observe", "skipped": missing.format("observe")})
        rows.append({"name": "determinize", "skipped": missing.format("determinize")})
    if to_json is not None and from_json is not None:
        rows.append(
            {
                "name": "JSON round trip",
                "us": per_call(lambda game: from_json(to_json(game)), sample[:100], repeat, clock, None),
                "note": "from_json(to_json(game)) of a game in progress",
            }
        )
    else:
        rows.append({"name": "JSON round trip", "skipped": missing.format("to_json/from_json")})
    return rows


# -- memory -------------------------------------------------------------------------------------


def bench_memory(configs: Iterable[tuple[str, int, int]]) -> list[dict[str, Any]]:
    """Measures bytes retained per additional state when a playout keeps every state."""
    rows = []
    for preset, max_pip, players in configs:
        rules = PRESETS[preset](max_pip=max_pip)

        def keep_all(seed: int, rules: cf.Rules = rules, players: int = players) -> list[cf.GameState]:
            rng = random.Random(seed)
            game = cf.new_game(rules, players, seed)
            kept = [game]
            while True:
                legal = cf.legal_moves(game)
                if not legal:
                    return kept
                game = cf.apply(game, legal[int(rng.random() * len(legal))])
                kept.append(game)

        # Play the measured game once first: the engine interns plays and nodes in tables every
        # game shares, and their growth (in steps, as dicts resize) is not the cost of a state.
        keep_all(2)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        kept = keep_all(2)
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        rows.append(
            {
                "preset": preset,
                "max_pip": max_pip,
                "players": players,
                "states": len(kept),
                "bytes_per_state": (after - before) / len(kept),
            }
        )
        del kept
    return rows


# -- peers, head to head -----------------------------------------------------------------------
#
# Each repeat runs chickenfoot and then every peer back to back, and the ratio is taken within the
# repeat: on a shared machine the load drifts, and a ratio of neighbouring runs cancels most of it.

Runner = Callable[[random.Random], Callable[[], tuple[int, int]]]


def chickenfoot_runner() -> Runner:
    """Plays trains double-9 4-player games (the headline configuration), counting moves."""
    rules = cf.Rules.trains()

    def make(rng: random.Random) -> Callable[[], tuple[int, int]]:
        seeds = iter(range(rng.randrange(1 << 30), 1 << 31))
        return lambda: playout(rules, 4, next(seeds), rng)

    return make


def open_spiel_runner(numpy_chance: bool) -> Callable[[], Runner]:
    """Plays OpenSpiel python_block_dominoes at random, counting player actions.

    Chance nodes (the deal) are sampled from ``chance_outcomes()`` either the way OpenSpiel's
    examples do (``np.random.choice(actions, p=probabilities)``) or with the cheaper
    ``random.choices``; their time counts either way.
    """

    def factory() -> Runner:
        pyspiel = importlib.import_module("pyspiel")
        importlib.import_module("open_spiel.python.games")  # registers the Python games
        numpy = importlib.import_module("numpy")
        game = pyspiel.load_game("python_block_dominoes")

        def make(rng: random.Random) -> Callable[[], tuple[int, int]]:
            sampler = numpy.random.RandomState(rng.randrange(1 << 31))

            def once() -> tuple[int, int]:
                state = game.new_initial_state()
                actions = 0
                while not state.is_terminal():
                    if state.is_chance_node():
                        choices, weights = zip(*state.chance_outcomes(), strict=True)
                        if numpy_chance:
                            state.apply_action(int(sampler.choice(choices, p=weights)))
                        else:
                            state.apply_action(rng.choices(choices, weights)[0])
                    else:
                        legal = state.legal_actions()
                        state.apply_action(legal[int(rng.random() * len(legal))])
                        actions += 1
                return actions, 1

            return once

        return make

    return factory


def dominoes_runner() -> Runner:
    """Plays the PyPI ``dominoes`` package's games at random, counting moves."""
    dominoes = importlib.import_module("dominoes")

    def make(rng: random.Random) -> Callable[[], tuple[int, int]]:
        random.seed(rng.random())  # dominoes deals with the global generator

        def once() -> tuple[int, int]:
            game = dominoes.Game.new()
            moves = 0
            while game.result is None:
                legal = game.valid_moves
                game.make_move(*legal[int(rng.random() * len(legal))])
                moves += 1
            return moves, 1

        return once

    return make


PEERS: tuple[tuple[str, str, str, Callable[[], Runner], str], ...] = (
    (
        "OpenSpiel python_block_dominoes",
        "player actions/s",
        "open_spiel",
        open_spiel_runner(numpy_chance=True),
        "chance nodes sampled with np.random.choice(outcomes, p=probabilities), as OpenSpiel's examples do; "
        "their time counts, only player actions are counted",
    ),
    (
        "OpenSpiel python_block_dominoes (random.choices)",
        "player actions/s",
        "open_spiel",
        open_spiel_runner(numpy_chance=False),
        "the same with chance nodes sampled by the cheaper random.choices: the stricter comparison",
    ),
    (
        "dominoes (PyPI)",
        "moves/s",
        "dominoes",
        dominoes_runner,
        "Game.new(), then valid_moves/make_move until a result (mutable state; passes are automatic)",
    ),
)


def bench_peers(budget: float, repeat: int, clock: Clock) -> list[dict[str, Any]]:
    """Runs chickenfoot and each installed peer back to back per repeat; gets rates and ratios."""
    runners: dict[str, Runner] = {"chickenfoot": chickenfoot_runner()}
    rows: dict[str, dict[str, Any]] = {
        "chickenfoot": {"name": "chickenfoot trains double-9 4p", "unit": "moves/s", "rates": [], "ratios": []}
    }
    for name, unit, package, factory, note in PEERS:
        rows[name] = {"name": name, "unit": unit, "note": note}
        try:
            runners[name] = factory()
        except Exception as error:  # any failure to import or load means the peer is unavailable
            rows[name]["unavailable"] = f"{type(error).__name__}: {error} (pip install {package})"
        else:
            rows[name].update(rates=[], ratios=[])
    for attempt in range(repeat):
        measured = {}
        for name, make in runners.items():
            measured[name], _, _, _ = rate(make(random.Random(attempt)), budget, clock)
            rows[name]["rates"].append(measured[name])
        for name in runners:
            rows[name]["ratios"].append(measured["chickenfoot"] / measured[name])
    out = []
    for row in rows.values():
        if "rates" in row:
            row["per_s"] = summary(row.pop("rates"))
            row["chickenfoot_ratio"] = summary(row.pop("ratios"))
        out.append(row)
    return out


# -- output -------------------------------------------------------------------------------------


def tables(report: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """Lays the report out as titled tables of strings."""
    out = []
    rows = []
    for row in report["playouts"]:
        label = [row["preset"], f"double-{row['max_pip']}", str(row["players"])]
        if "skipped" in row:
            rows.append([*label, "skipped", "", "", "the rules refuse it"])
        else:
            moves, rounds = row["moves_per_s"], row["rounds_per_s"]
            spread = f"{moves['min']:,.0f}-{moves['max']:,.0f}"
            rows.append(
                [*label, f"{moves['median']:,.0f}", spread, f"{rounds['median']:,.1f}", f"{row['us_per_move']:.2f}"]
            )
    out.append(("Random playouts", ["preset", "set", "players", "moves/s", "min-max", "rounds/s", "us/move"], rows))
    rows = []
    for row in report["calls"]:
        if "skipped" in row:
            rows.append([row["name"], "-", row["skipped"]])
        else:
            us = row["us"]
            rows.append([row["name"], f"{us['median']:.2f} ({us['min']:.2f}-{us['max']:.2f})", row.get("note", "")])
    out.append(("Per call (trains, double-9, 4 players)", ["call", "us median (min-max)", "note"], rows))
    rows = [
        [
            row["preset"],
            f"double-{row['max_pip']}",
            str(row["players"]),
            str(row["states"]),
            f"{row['bytes_per_state']:,.0f}",
        ]
        for row in report["memory"]
    ]
    out.append(("Memory per kept state", ["preset", "set", "players", "states kept", "bytes/state"], rows))
    rows = []
    for row in report["peers"]:
        if "unavailable" in row:
            rows.append([row["name"], row["unit"], "unavailable", "", row["unavailable"][:70]])
        else:
            per_s, ratio = row["per_s"], row["chickenfoot_ratio"]
            rows.append(
                [
                    row["name"],
                    row["unit"],
                    f"{per_s['median']:,.0f}",
                    f"{per_s['min']:,.0f}-{per_s['max']:,.0f}",
                    f"{ratio['median']:.1f}x ({ratio['min']:.1f}-{ratio['max']:.1f})",
                ]
            )
    out.append(
        ("Head to head, back to back per repeat", ["engine", "unit", "per s", "min-max", "chickenfoot is"], rows)
    )
    return out


def show(report: dict[str, Any]) -> None:
    """Prints the report's tables with rich if it is installed, else as plain text."""
    try:
        from rich.console import Console
        from rich.table import Table

        console: Console | None = Console(width=max(120, Console().width))
    except ImportError:
        console = None
    for title, header, rows in tables(report):
        if console is not None:
            table = Table(title=title, title_justify="left")
            for name in header:
                table.add_column(
                    name, justify="left" if name in ("preset", "call", "note", "engine", "unit") else "right"
                )
            for row in rows:
                table.add_row(*row)
            console.print(table)
        else:
            widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]
            print(f"\n{title}")
            for row in [header, ["-" * w for w in widths], *rows]:
                print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths, strict=False)).rstrip())
    print()
    for line in report["summary"]:
        print(line)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the benchmarks, prints the tables and writes the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (noisier figures)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--repeat", type=int, help="runs per figure (default 5, quick 3)")
    parser.add_argument("--seconds", type=float, help="time budget per playout run (default 1.0, quick 0.25)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="CPU time of this process or wall time")
    parser.add_argument("--only", help="run only playout rows whose label contains this, e.g. 'trains d9 4p'")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    budget = args.seconds or (0.25 if args.quick else 1.0)
    clock: Clock = time.process_time if args.clock == "cpu" else time.perf_counter

    report: dict[str, Any] = {
        "schema": 1,
        "command": " ".join(["python", "benchmarks/run.py", *(argv if argv is not None else sys.argv[1:])]),
        "machine": machine(),
        "clock": "process CPU time" if args.clock == "cpu" else "wall time",
        "repeat": repeat,
        "seconds_per_run": budget,
    }
    report["playouts"] = bench_playouts(budget, repeat, clock, args.only)
    report["calls"] = bench_calls(4 if args.quick else 12, repeat, clock)
    report["memory"] = bench_memory([("trains", 9, 4), ("trains", 18, 8), ("cross", 12, 8)])
    report["peers"] = bench_peers(budget, repeat, clock)

    ours = next((r for r in report["playouts"] if (r["preset"], r["max_pip"], r["players"]) == ("trains", 9, 4)), None)
    big = next((r for r in report["playouts"] if (r["preset"], r["max_pip"], r["players"]) == ("trains", 18, 8)), None)
    head = report["peers"][0]["per_s"]["median"]
    report["ratios"] = {}
    summary_lines = [f"chickenfoot trains double-9 4 players: {head:,.0f} moves/s head to head (target >= 200,000)"]
    for peer in report["peers"][1:]:
        if "per_s" in peer:
            ratio = peer["chickenfoot_ratio"]["median"]
            report["ratios"][peer["name"]] = ratio
            summary_lines.append(
                f"  = {ratio:.1f}x {peer['name']} ({peer['per_s']['median']:,.0f} {peer['unit']}; "
                f"median of per-repeat ratios, range {peer['chickenfoot_ratio']['min']:.1f}-"
                f"{peer['chickenfoot_ratio']['max']:.1f})"
            )
        else:
            summary_lines.append(f"  {peer['name']}: unavailable ({peer['unavailable']})")
    if ours is not None and big is not None and "us_per_move" in ours and "us_per_move" in big:
        scale = big["us_per_move"] / ours["us_per_move"]
        report["ratios"]["cost per move, trains d18 8p / d9 4p"] = scale
        summary_lines.append(f"cost per move, double-18 8 players / double-9 4 players: {scale:.2f} (target <= 1.5)")
    report["summary"] = summary_lines
    show(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
