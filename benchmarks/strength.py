"""Writes the strength page: a ladder of the built-in bots in four settings, its tables and a plot.

    python benchmarks/strength.py --deals 56 --workers 2 --log-dir strength-logs

Plays one ladder (chickenfoot.tournament.run_ladder) per setting, trains and cross with 2 and 4
players, and the head-to-head ladders (the rollout bot against SearchBot at each --head-ms
budget, GreedyBot against HeaviestBot), each logged to --log-dir and resumed from there
(--only plays one setting's and writes no page), then writes docs/strength.md and, if
matplotlib is installed (``pip install ".[plot]"``), docs/_static/strength.svg. Run it on the
compiled build (``pip install .``): the page says which build measured it, and the time-budgeted
bots depend on the machine's speed.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import chickenfoot as cf
from chickenfoot.tournament import Comparison, LadderResult, run_ladder

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "strength.md"
PLOT = ROOT / "docs" / "_static" / "strength.svg"
SETTINGS = (("trains", 2), ("trains", 4), ("cross", 2), ("cross", 4))
BOTS = (
    "random",
    "heaviest",
    "greedy",
    "search:100",
    "search:{ms}ms",
    "sampler:{ms}ms",
    "rollout:{ms}ms",
    "omniscient:{ms}ms",
)
FULL_DEALS = 2 * math.comb(len(BOTS), 2)  # 2 players: every pair of bots seated twice
PAIRS = (
    ("rollout:{ms}ms", "search:{ms}ms"),
    ("sampler:{ms}ms", "search:{ms}ms"),
    ("greedy", "heaviest"),
    ("omniscient:{ms}ms", "rollout:{ms}ms"),
)
# The head-to-head ladders: the rollout bot and SearchBot at one table every deal (four players
# need four bots: greedy and heaviest fill the other seats).
HEAD = {2: ("rollout:{ms}ms", "search:{ms}ms"), 4: ("rollout:{ms}ms", "search:{ms}ms", "greedy", "heaviest")}
# GreedyBot against the baseline it must beat: two bots that meet at few deals of the big ladder
# get a ladder of their own (with four players, random and a quick sampler fill the table).
GREEDY = {2: ("greedy", "heaviest"), 4: ("greedy", "heaviest", "random", "sampler:100")}
# The page points to the one benchmarks/strength_games.py writes: SolverBot is rated apart from this ladder.
GAMES = (
    "`SolverBot` is measured apart, against `RolloutBot` and `SearchBot` by the whole game as "
    "players keep score, on [strength over whole games](strength-games.md)."
)

WHAT = {
    "random": "`RandomBot`: a legal move uniformly at random.",
    "heaviest": "`HeaviestBot`: its most valuable playable tile.",
    "greedy": "`GreedyBot`: one move ahead: tile value, follow-ups, ends the others likely lack (`greedy_score`).",
    "search:100": "`SearchBot`, 100 simulations a move: SO-ISMCTS over the public objects.",
    "search:{ms}ms": "`SearchBot` with {ms} ms of CPU time a move.",
    "sampler:{ms}ms": "`SamplerBot` with {ms} ms of CPU time a move: the same search on the core's integers, compiled.",
    "rollout:{ms}ms": "`RolloutBot` with {ms} ms of CPU time a move: every move played out by greedy play in sampled "
    "worlds.",
    "omniscient:{ms}ms": "`OmniscientBot` with {ms} ms a move: sees every hand (cheats); the upper bound.",
}


def _machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    build = "compiled core (mypyc)" if cf.__compiled__ else "pure Python"
    return (
        f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}, chickenfoot {cf.__version__}, {build}"
    )


def _cell(value: float, low: float, high: float, digits: int) -> str:
    text = f"{value:+.{digits}f}" if digits == 0 else f"{value:.{digits}f}"
    return text if math.isnan(low) else f"{text} ({low:.{digits}f} to {high:.{digits}f})"


def _table(result: LadderResult) -> list[str]:
    lines = [
        "| # | bot | rating (95% CI) | mean score per round (95% CI) | game win rate | games |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for rank, rating in enumerate(result.ratings(), start=1):
        name = f"`{rating.bot}`" + (" **(cheats)**" if rating.cheats else "")
        anchored = rating.low == rating.high == rating.rating == 0
        shown = "0 (anchor)" if anchored else _cell(rating.rating, rating.low, rating.high, 0)
        lines.append(
            f"| {rank} | {name} | {shown} | "
            f"{_cell(rating.mean_round_score, rating.score_low, rating.score_high, 2)} | "
            f"{rating.win_rate:.1%} | {rating.games} |"
        )
    return lines


def _row(comparison: Comparison) -> str:
    """Gets a head-to-head table's cells: the rating difference, the paired score difference, the rounds ahead."""
    return (
        f"{_cell(comparison.rating_difference, comparison.low, comparison.high, 0)} | "
        f"{_cell(comparison.score_difference, comparison.score_low, comparison.score_high, 2)} | "
        f"{comparison.first_ahead:.1%}"
    )


def _comparisons(result: LadderResult, ms: int) -> list[str]:
    lines = []
    for first, second in PAIRS:
        first, second = first.format(ms=ms), second.format(ms=ms)
        comparison = result.compare(first, second)
        gap = _cell(comparison.rating_difference, comparison.low, comparison.high, 0)
        text = f"- `{first}` against `{second}`: **{gap}** rating points"
        if comparison.deals:
            text += (
                f"; at the {comparison.deals} deal{'s' if comparison.deals > 1 else ''} they shared, "
                f"{_cell(comparison.score_difference, comparison.score_low, comparison.score_high, 2)} "
                f"points a round, ahead in {comparison.first_ahead:.1%} of their rounds"
            )
        lines.append(text + ".")
    return lines


def _short_run(deals: int) -> list[str]:
    """Gets the page's warning when ``deals`` is too few to seat every pair of bots twice in 2 players, else none."""
    full = FULL_DEALS
    if deals >= full:
        return []
    return [
        f"- **Short run**: {deals} deals, not the {full} that seat every pair of bots twice in 2 players (what "
        "the time allowed): there each pair met at one deal at most, so the 2-player tables have wide "
        "intervals or none; the head-to-head ladders below carry the comparison of the two searches."
    ]


def _plot(results: dict[tuple[str, int], LadderResult]) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        matplotlib.rcParams["svg.hashsalt"] = "chickenfoot"  # the same ids every run: no churn in the SVG
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is missing (pip install '.[plot]'): the plot is not redrawn", file=sys.stderr)
        return False
    figure, axes = plt.subplots(1, len(results), figsize=(3.2 * len(results), 3.6), sharey=True)
    for axis, ((preset, players), result) in zip(axes, results.items(), strict=True):
        by_name = {rating.bot: rating for rating in result.ratings()}
        ratings = [by_name[name] for name in result.bots]  # one order in every panel: they share the labels
        positions = range(len(ratings))
        values = [rating.rating for rating in ratings]
        errors = [
            [max(rating.rating - rating.low, 0) if not math.isnan(rating.low) else 0 for rating in ratings],
            [max(rating.high - rating.rating, 0) if not math.isnan(rating.high) else 0 for rating in ratings],
        ]
        colours = ["#b22222" if rating.cheats else "#2f5d8a" for rating in ratings]
        axis.barh(positions, values, xerr=errors, color=colours, capsize=3)
        axis.set_yticks(list(positions), [rating.bot for rating in ratings], fontsize=8)
        axis.set_title(f"{preset}, {players} players", fontsize=9)
        axis.axvline(0, color="black", linewidth=0.6)
        axis.set_xlabel("rating (Elo points)", fontsize=8)
        axis.tick_params(axis="x", labelsize=7)
    figure.suptitle("Ladder ratings with 95% bootstrap intervals (red: sees every hand)", fontsize=10)
    figure.tight_layout()
    PLOT.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(PLOT, format="svg", metadata={"Date": None})
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--deals", type=int, default=FULL_DEALS, help="deals per setting (2 players: every pair of bots twice)"
    )
    parser.add_argument("--head-deals", type=int, default=30, help="deals per setting of the head-to-head ladders")
    parser.add_argument("--ms", type=int, default=10, help="CPU milliseconds a move of the time-budgeted bots")
    parser.add_argument(
        "--head-ms", default="10,50", help="CPU milliseconds a move of the head-to-head ladders, comma-separated"
    )
    parser.add_argument("--greedy-deals", type=int, default=100, help="deals per setting of greedy against heaviest")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log-dir", type=Path, default=Path("strength-logs"))
    parser.add_argument("--only", default=None, help="play only this setting, as trains-2 (the page needs all four)")
    args = parser.parse_args()
    bots = [name.format(ms=args.ms) for name in BOTS]
    args.log_dir.mkdir(parents=True, exist_ok=True)
    results: dict[tuple[str, int], LadderResult] = {}
    started = time.perf_counter()
    settings = [(preset, players) for preset, players in SETTINGS if args.only in (None, f"{preset}-{players}")]
    for preset, players in settings:
        log = args.log_dir / f"{preset}-{players}-seed{args.seed}.jsonl"

        def progress(done: int, total: int, preset: str = preset, players: int = players) -> None:
            if done % 20 == 0 or done == total:
                elapsed = time.perf_counter() - started
                print(f"{preset} {players}p: {done}/{total} games, {elapsed:.0f} s", file=sys.stderr, flush=True)

        results[preset, players] = run_ladder(
            bots,
            args.deals,
            rules=cf.Rules.preset(preset),
            players=players,
            seed=args.seed,
            workers=args.workers,
            progress=progress,
            log=log,
        )

    def own_ladder(names: Sequence[str], deals: int, preset: str, players: int, log: str) -> LadderResult:
        """Plays a ladder of ``names`` alone in one setting, logged to ``log`` in --log-dir."""
        rules = cf.Rules.preset(preset)
        path = args.log_dir / f"{log}-seed{args.seed}.jsonl"
        result = run_ladder(names, deals, rules=rules, players=players, seed=args.seed, workers=args.workers, log=path)
        print(f"{log}: done, {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        return result

    heads: dict[tuple[str, int, int], LadderResult] = {}
    for ms in [int(ms) for ms in args.head_ms.split(",")]:
        for preset, players in settings:
            names = [name.format(ms=ms) for name in HEAD[players]]
            heads[preset, players, ms] = own_ladder(
                names, args.head_deals, preset, players, f"head-{preset}-{players}-{ms}ms"
            )
    greedy = {
        (preset, players): own_ladder(GREEDY[players], args.greedy_deals, preset, players, f"greedy-{preset}-{players}")
        for preset, players in settings
    }
    if len(results) < len(SETTINGS):
        return 0
    command = (
        f"python benchmarks/strength.py --deals {args.deals} --head-deals {args.head_deals} --ms {args.ms} "
        f"--head-ms {args.head_ms} --greedy-deals {args.greedy_deals} --seed {args.seed}"
    )
    lines = [
        "# Strength",
        "",
        "<!-- Written by benchmarks/strength.py: edit that script, not this page. -->",
        "",
        "Every built-in bot on one ladder ({func}`~chickenfoot.tournament.run_ladder`) in each of four settings: "
        "duplicate deals (each deal played once per rotation of its table's seats, so every bot at the "
        "table holds every hand), ratings from a Bradley-Terry fit of every pairwise round result "
        "(the lower round score wins; Elo points, the weakest bot at 0; 100 points is a 64% chance "
        "of scoring less than the other in a round), 95% intervals by bootstrap over deals.",
        "",
        GAMES,
        "",
        f"- Command: `{command} --workers {args.workers}` (with `--log-dir` it resumes; the same "
        "ladder from the command line is `chickenfoot ladder --bots ... --deals N --players P --preset X`).",
        f"- Date: {datetime.date.today().isoformat()}; "
        f"{sum(len(r.games) for r in (*results.values(), *heads.values(), *greedy.values())):,} games, kept in the "
        "logs of "
        "`--log-dir` (a run plays only what they lack).",
        f"- Machine: {_machine()}.",
        f"- Budget: the time-budgeted bots get {args.ms} ms of CPU time a move (measured by the bot with "
        "`time.thread_time`, so the load on the machine does not shorten it); `search:100` gets 100 "
        "simulations a move. A forced move (one legal move) is made at once by every search bot.",
        f"- Deals: {args.deals} per setting, seed {args.seed}, the tables cycling through every group of bots.",
        *_short_run(args.deals),
        "",
        "## The bots",
        "",
        *(f"- `{name.format(ms=args.ms)}`: {WHAT[name].format(ms=args.ms)}" for name in BOTS),
        "",
        "```{image} _static/strength.svg",
        ":alt: Ratings of every bot in the four settings, with their intervals",
        "```",
        "",
    ]
    lines += [
        "## RolloutBot against SearchBot at the same CPU time",
        "",
        f"A ladder of its own per setting and budget, {args.head_deals} deals, with the two bots at the "
        "table in every deal (with four players, `greedy` and `heaviest` fill the other seats): the "
        "rating difference of `rollout` over `search` with its 95% interval, and paired by deal, the "
        "difference of their mean round scores (below 0: the rollout bot scored less).",
        "",
        "| setting | CPU time a move | rating difference (95% CI) | score difference per round (95% CI) "
        "| rounds ahead |",
        "| --- | --- | --- | --- | --- |",
    ]
    for (preset, players, ms), head in heads.items():
        comparison = head.compare(f"rollout:{ms}ms", f"search:{ms}ms")
        lines.append(f"| {preset}, {players} players | {ms} ms | {_row(comparison)} |")
    lines += [
        "",
        "The rollout bot's playouts follow one fixed policy, GreedyBot's: more rollouts sharpen its "
        "estimate of each move but never plan past that policy, while SearchBot's tree grows with its "
        "budget. So the gap between them is widest at small budgets and narrows as the budget grows.",
    ]
    lines += [
        "",
        "## GreedyBot against HeaviestBot",
        "",
        f"A ladder of its own per setting, {args.greedy_deals} deals, `greedy` and `heaviest` at the table in "
        "every deal (with four players, `random` and `sampler:100` fill the other seats): the rating "
        "difference of `greedy` over `heaviest`, and paired by deal, the difference of their mean round scores.",
        "",
        "| setting | rating difference (95% CI) | score difference per round (95% CI) | rounds ahead |",
        "| --- | --- | --- | --- |",
    ]
    for (preset, players), result in greedy.items():
        lines.append(f"| {preset}, {players} players | {_row(result.compare('greedy', 'heaviest'))} |")
    lines.append("")
    for (preset, players), result in results.items():
        lines += [
            f"## {preset.capitalize()}, {players} players",
            "",
            *_table(result),
            "",
            *_comparisons(result, args.ms),
            "",
        ]
    PAGE.write_text("\n".join(lines), encoding="utf-8")
    _plot(results)
    print(f"wrote {PAGE}" + (f" and {PLOT}" if PLOT.exists() else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
