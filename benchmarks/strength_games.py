"""Writes the whole-game strength page: SolverBot against RolloutBot and SearchBot at three budgets.

    python benchmarks/strength_games.py --deals 10=40,50=16,200=4 --workers 1 --log-dir strength-games-logs

Plays one ladder (chickenfoot.tournament.run_ladder) per preset (trains, cross) and per budget of
CPU time a move: ``solver``, ``rollout`` and ``search`` at that budget, and ``greedy``, four
players, so every deal seats all four and is played once per rotation of the seats. Each ladder
is logged to --log-dir and resumed from there (--only plays one ladder and writes no page); then
it writes docs/strength-games.md. Players keep score by the game, not the round, so the page
gives each bot's mean total per game and its game wins beside the ratings by round. Run it on the
compiled build (``pip install .``): the page says which build measured it, and what a bot does in
its budget depends on the machine's speed.
"""

from __future__ import annotations

import argparse
import datetime
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from strength import _machine

import chickenfoot as cf
from chickenfoot.tournament import Comparison, LadderResult, run_ladder

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "strength-games.md"
PRESETS = ("trains", "cross")
PLAYERS = 4
BOTS = ("solver:{ms}ms", "rollout:{ms}ms", "search:{ms}ms", "greedy")
DEALS = "10=40,50=16,200=4"
SAMPLES = 1000  # bootstrap samples over deals
# What SolverBot was built to reach: rating points by round over each rival at these budgets,
# the interval excluding 0, and a lower mean total per game than the rollout bot at every budget.
TARGET_RATING = {"search": 100, "rollout": 50}
TARGET_BUDGETS = (50, 200)

WHAT = {
    "solver": "`SolverBot`: plays as the rollout bot until 12 tiles or fewer are in hand, then solves the "
    "round exactly in worlds sampled from its view and plays the move with the best mean value.",
    "rollout": "`RolloutBot`: every move played out by greedy play in worlds sampled from its view.",
    "search": "`SearchBot`: SO-ISMCTS over the public objects.",
    "greedy": "`GreedyBot`: one move ahead, no budget; it fills the fourth seat.",
}


def _budgets(text: str) -> dict[int, int]:
    """Reads ``10=16,50=6``: deals for each budget in milliseconds, in the order given."""
    deals = {}
    for part in text.split(","):
        ms, _, count = part.partition("=")
        deals[int(ms)] = int(count)
    if not deals or min(deals) <= 0 or min(deals.values()) <= 0:
        raise SystemExit(f"--deals {text!r}: give budgets and deals as MS=DEALS, both above 0")
    return deals


def _names(ms: int) -> list[str]:
    return [name.format(ms=ms) for name in BOTS]


def _interval(samples: list[float]) -> tuple[float, float]:
    """Gets the 2.5th and 97.5th percentiles of ``samples`` (NaN for none: one deal has no spread to sample)."""
    if not samples:
        return math.nan, math.nan
    ordered = sorted(samples)
    last = len(ordered) - 1

    def at(share: float) -> float:
        below = math.floor(share * last)
        above = min(below + 1, last)
        return ordered[below] + (ordered[above] - ordered[below]) * (share * last - below)

    return at(0.025), at(0.975)


class Games:
    """A ladder's whole-game figures: each bot's total and wins per game, by deal, bootstrapped over deals.

    The deal is the unit resampled, as for the ladder's ratings: its games share its tiles.
    """

    def __init__(self, result: LadderResult) -> None:
        self.result = result
        totals: dict[int, list[list[float]]] = {}
        wins: dict[int, list[list[float]]] = {}
        for game in result.games:
            deal_totals = totals.setdefault(game.deal, [[] for _ in result.bots])
            deal_wins = wins.setdefault(game.deal, [[] for _ in result.bots])
            for seat, bot in enumerate(game.seating):
                deal_totals[bot].append(game.totals[seat])
                deal_wins[bot].append((seat in game.winners) / len(game.winners))  # a shared win is split
        # Per deal, each bot's mean over the games it played there (every rotation: one per seat).
        self.totals = [[sum(games) / len(games) for games in deal] for deal in totals.values()]
        self.wins = [[sum(games) / len(games) for games in deal] for deal in wins.values()]
        self.games = len(result.games)

    def total(self, bot: str) -> tuple[float, float, float]:
        """Gets ``bot``'s mean total per game (lower is better), with its interval."""
        at = self.result.bots.index(bot)
        return self._stat(self.totals, lambda row: row[at])

    def win_rate(self, bot: str) -> tuple[float, float, float]:
        """Gets ``bot``'s share of the games it won (a shared win split), with its interval."""
        at = self.result.bots.index(bot)
        return self._stat(self.wins, lambda row: row[at])

    def total_difference(self, first: str, second: str) -> tuple[float, float, float]:
        """Gets ``first``'s mean total per game less ``second``'s, paired by deal, with its interval."""
        a, b = self.result.bots.index(first), self.result.bots.index(second)
        return self._stat(self.totals, lambda row: row[a] - row[b])

    def _stat(self, per_deal: list[list[float]], value: Callable[[list[float]], float]) -> tuple[float, float, float]:
        values = [value(row) for row in per_deal]
        rng = random.Random(f"strength-games/{self.result.seed}")
        samples = []
        for _ in range(SAMPLES if len(values) > 1 else 0):
            drawn = [values[rng.randrange(len(values))] for _ in values]
            samples.append(sum(drawn) / len(drawn))
        low, high = _interval(samples)
        return sum(values) / len(values), low, high


def _cell(value: float, low: float, high: float, digits: int, *, sign: bool = False, percent: bool = False) -> str:
    scale, unit = (100, "%") if percent else (1, "")

    def shown(number: float) -> float:
        return round(number * scale, digits) + 0.0  # + 0.0: no "-0" for a small negative rounded away

    text = f"{shown(value):{'+' if sign else ''}.{digits}f}{unit}"
    if math.isnan(low):
        return f"{text} (no interval)"
    return f"{text} ({shown(low):.{digits}f} to {shown(high):.{digits}f})"


def _rating(comparison: Comparison) -> str:
    return _cell(comparison.rating_difference, comparison.low, comparison.high, 0, sign=True)


def _verdict(met: bool, shown: bool) -> str:
    """Says whether a target is met: the figure on the right side of it, and its interval excluding 0."""
    if met and shown:
        return "met"
    return "missed (on the right side, but the interval includes 0)" if met else "missed"


def _targets(preset: str, ladders: dict[int, LadderResult], games: dict[int, Games]) -> list[str]:
    lines = []
    for rival, points in TARGET_RATING.items():
        for ms in TARGET_BUDGETS:
            if ms not in ladders:
                lines.append(f"- `solver` at least {points:+d} rating points over `{rival}` at {ms} ms: not measured.")
                continue
            comparison = ladders[ms].compare(f"solver:{ms}ms", f"{rival}:{ms}ms")
            verdict = _verdict(comparison.rating_difference >= points, comparison.low > 0)
            lines.append(
                f"- `solver` at least {points:+d} rating points over `{rival}` at {ms} ms: "
                f"{_rating(comparison)}, **{verdict}**."
            )
    for ms, figures in games.items():
        difference, low, high = figures.total_difference(f"solver:{ms}ms", f"rollout:{ms}ms")
        verdict = _verdict(difference < 0, high < 0)
        lines.append(
            f"- `solver` totals less per game than `rollout` at {ms} ms: "
            f"{_cell(difference, low, high, 1, sign=True)} points, **{verdict}**."
        )
    return [
        f"### Targets, {preset}",
        "",
        "What `SolverBot` was built to reach. A rating target is met when the difference reaches it and its "
        "interval excludes 0; the totals target when the difference and its whole interval are below 0.",
        "",
        *lines,
        "",
    ]


def _section(preset: str, ladders: dict[int, LadderResult]) -> list[str]:
    games = {ms: Games(result) for ms, result in ladders.items()}
    lines = [
        f"## {preset.capitalize()}, {PLAYERS} players",
        "",
        "| CPU time a move | deals (games) | rating by round, `solver` over `rollout` | rating by round, "
        "`solver` over `search` | total per game, `solver` minus `rollout`, paired by deal |",
        "| --- | --- | --- | --- | --- |",
    ]
    for ms, result in ladders.items():
        solver, rollout, search = (name.format(ms=ms) for name in BOTS[:3])
        paired = games[ms].total_difference(solver, rollout)
        lines.append(
            f"| {ms} ms | {result.deals} ({len(result.games)}) | {_rating(result.compare(solver, rollout))} | "
            f"{_rating(result.compare(solver, search))} | {_cell(*paired, 1, sign=True)} |"
        )
    lines += [
        "",
        "| CPU time a move | bot | mean total per game (lower is better) | game wins | mean score per round |",
        "| --- | --- | --- | --- | --- |",
    ]
    for ms, result in ladders.items():
        by_name = {rating.bot: rating for rating in result.ratings()}
        for name in result.bots:
            rating = by_name[name]
            lines.append(
                f"| {ms} ms | `{name}` | {_cell(*games[ms].total(name), 1)} | "
                f"{_cell(*games[ms].win_rate(name), 0, percent=True)} | "
                f"{_cell(rating.mean_round_score, rating.score_low, rating.score_high, 2)} |"
            )
    return [*lines, "", *_targets(preset, ladders, games)]


def _page(results: dict[tuple[str, int], LadderResult], command: str, deals: dict[int, int]) -> str:
    few = min(deals.values())
    lines = [
        "# Strength over whole games",
        "",
        "<!-- Written by benchmarks/strength_games.py: edit that script, not this page. -->",
        "",
        "Players keep score by the game, so this page measures `SolverBot` as they would: its mean "
        "total per game and its game wins against `RolloutBot` and `SearchBot` at the same CPU time a "
        "move, beside its ratings by round. One ladder ({func}`~chickenfoot.tournament.run_ladder`) per "
        f"preset and budget, {PLAYERS} players, so every deal seats all four bots and is played once per "
        "rotation of the seats: each bot holds each hand once, and the luck of the deal cancels out of "
        "the paired figures. Ratings are Elo points from a Bradley-Terry fit of every pairwise round "
        "result (the lower round score wins; 100 points is a 64% chance of scoring less in a round). "
        "Every interval is 95%, by bootstrap over deals, the unit sampled. [Strength](strength.md) "
        "rates every bot by round in four settings.",
        "",
        f"- Command: `{command}` (with `--log-dir` it resumes; one ladder from the command line is "
        "`chickenfoot ladder --bots solver:50ms,rollout:50ms,search:50ms,greedy --players 4 --preset trains "
        "--deals N`, and `--unit game` rates it by game).",
        f"- Date: {datetime.date.today().isoformat()}; {sum(len(r.games) for r in results.values()):,} games, "
        "kept in the logs of `--log-dir`.",
        f"- Machine: {_machine()}.",
        "- Budget: CPU time a move, measured by the bot with `time.thread_time`, so the load on the machine "
        "does not shorten it; a forced move is made at once.",
        "- Deals: " + ", ".join(f"{count} at {ms} ms" for ms, count in deals.items()) + " per preset, seed 0.",
    ]
    if few < 10:
        lines.append(
            f"- **Few deals**: {few} at the largest budget (what the time allowed). Deals vary a lot, so "
            "the intervals there are wide, and a bootstrap over so few deals understates even that spread: "
            "read those rows as a first look, not a result."
        )
    lines += [
        "",
        "## The bots",
        "",
        *(f"- `{name.partition(':')[0]}`: {WHAT[name.partition(':')[0]]}" for name in BOTS),
        "",
    ]
    for preset in PRESETS:
        ladders = {ms: results[preset, ms] for ms in deals if (preset, ms) in results}
        lines += _section(preset, ladders)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", default=DEALS, help="deals for each budget, as MS=DEALS comma-separated")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--log-dir", type=Path, default=Path("strength-games-logs"))
    parser.add_argument("--only", default=None, help="play only this ladder, as trains-50 (the page needs all)")
    args = parser.parse_args(argv)
    deals = _budgets(args.deals)
    args.log_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results: dict[tuple[str, int], LadderResult] = {}
    for ms, count in deals.items():  # the budgets in the order given: the small ones first
        for preset in PRESETS:
            if args.only not in (None, f"{preset}-{ms}"):
                continue

            def progress(done: int, total: int, preset: str = preset, ms: int = ms) -> None:
                elapsed = time.perf_counter() - started
                print(f"{preset} {ms} ms: {done}/{total} games, {elapsed:.0f} s", file=sys.stderr, flush=True)

            results[preset, ms] = run_ladder(
                _names(ms),
                count,
                rules=cf.Rules.preset(preset),
                players=PLAYERS,
                seed=args.seed,
                workers=args.workers,
                progress=progress,
                log=args.log_dir / f"{preset}-{ms}ms-seed{args.seed}.jsonl",
            )
    if args.only is not None:
        return 0
    command = f"python benchmarks/strength_games.py --deals {args.deals} --seed {args.seed} --workers {args.workers}"
    PAGE.write_text(_page(results, command, deals), encoding="utf-8")
    print(f"wrote {PAGE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
