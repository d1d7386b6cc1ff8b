"""The ``ladder`` command: many bots on one rating scale, from duplicate deals."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path

import attrs
import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .._game import BotError
from ..bots import ProcessBot, kinds_help
from ..tournament import LadderResult, Unit, run_ladder
from ._app import _check_backend, _check_players, _console, _games_progress, _write
from ._options import build_rules, parse_bots, players_option, rules_options

__all__ = ["ladder_command", "ratings_table"]

DEFAULT_BOTS = "random,heaviest,greedy,search:200,search:1000"
"""The bots ``chickenfoot ladder`` rates unless told otherwise."""

CHEAT_MARK = " (cheats)"
"""Follows the name of a bot that sees more than its view, in every table."""


def _bracket(low: float, high: float, digits: int) -> str:
    return "" if math.isnan(low) else f" [{low:.{digits}f}, {high:.{digits}f}]"


def ratings_table(result: LadderResult, unit: Unit) -> Table:
    """Tabulates a ladder's ratings, best first, each bot by its label (a program by its handshake name,
    the legend below says which it is), a cheating bot marked."""
    seatings = "permutation" if result.seating == "permutations" else "rotation"
    table = Table(
        title=(
            f"{result.deals} deals x every seat {seatings}, {len(result.games)} games, {result.players} players, "
            f"seed {result.seed}; rated by {unit}; [95% bootstrap intervals over deals]"
        ),
        title_justify="left",
    )
    for column in ("bot", "rating", "score/round", "wins", "games"):
        table.add_column(column, justify="left" if column == "bot" else "right", no_wrap=column != "bot")
    ratings = result.ratings(unit=unit)
    for rating in ratings:
        name = Text(result.label(rating.bot))
        if rating.cheats:
            name.append(CHEAT_MARK, style="bold red")
        if rating.faults:
            name.append(f" ({rating.faults} moves forfeited)", style="red")
        anchored = rating.low == rating.high == rating.rating == 0
        table.add_row(
            name,
            "0 (anchor)" if anchored else f"{rating.rating:+.0f}{_bracket(rating.low, rating.high, 0)}",
            f"{rating.mean_round_score:.1f}{_bracket(rating.score_low, rating.score_high, 1)}",
            f"{rating.win_rate:.0%}",
            str(rating.games),
        )
    return table


def _comparison_lines(result: LadderResult, pairs: list[tuple[str, str]], unit: Unit) -> list[Text]:
    lines = []
    for first, second in pairs:
        comparison = result.compare(first, second, unit=unit)
        line = Text(f"{first} vs {second}: ")
        line.append(f"{comparison.rating_difference:+.0f}{_bracket(comparison.low, comparison.high, 0)} rating points")
        deals = comparison.deals
        if deals:
            line.append(
                f"; at {deals} shared deal{'s' if deals != 1 else ''}, {comparison.score_difference:+.2f}"
                f"{_bracket(comparison.score_low, comparison.score_high, 2)} points a round, ahead in "
                f"{comparison.first_ahead:.1%} of their {unit}s"
            )
        else:
            line.append("; they never sat at one table")
        lines.append(line)
    return lines


def _pairs(texts: tuple[str, ...], names: tuple[str, ...]) -> list[tuple[str, str]]:
    pairs = []
    for text in texts:
        first, colon, second = text.partition("/")
        first, second = first.strip(), second.strip()
        if not colon or not first or not second:
            raise click.BadParameter(
                f"{text!r}: write two bots as A/B, like search:200/greedy", param_hint="'--compare'"
            )
        for name in (first, second):
            if name not in names:
                raise click.BadParameter(
                    f"{name!r} is not in the ladder: its bots are {', '.join(names)}", param_hint="'--compare'"
                )
        pairs.append((first, second))
    return pairs


@click.command("ladder", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@rules_options
@players_option
@click.option(
    "--bots",
    default=DEFAULT_BOTS,
    show_default=True,
    metavar="LIST",
    help=f"The bots to rate, comma-separated: {kinds_help()}; omniscient sees every hand and plays only when named.",
)
@click.option(
    "--deals",
    type=click.IntRange(1, 100_000),
    default=50,
    show_default=True,
    help="Deals to play; each is played once per seat rotation (or permutation).",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Ladder seed: the tables and deals derive from it."
)
@click.option(
    "--seating",
    type=click.Choice(["rotations", "permutations"]),
    default="rotations",
    show_default=True,
    help="Replay each deal with every rotation of the seats, or every permutation.",
)
@click.option(
    "--unit",
    type=click.Choice(["round", "game"]),
    default="round",
    show_default=True,
    help="Rate by rounds (lower round score wins each pair) or by games (lower total).",
)
@click.option(
    "--compare",
    multiple=True,
    metavar="A/B",
    help="Also compare two bots, paired by deal, e.g. --compare sampler:50ms/search:50ms (repeatable).",
)
@click.option(
    "--move-seconds",
    type=click.FloatRange(0, 3600, min_open=True),
    default=5.0,
    show_default=True,
    help="Time a cmd: bot has for each move.",
)
@click.option("--workers", type=click.IntRange(1), default=None, help="Local worker processes [default: all cores].")
@click.option(
    "--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True, help="Local processes or Ray."
)
@click.option("--address", default=None, metavar="ADDR", help="Ray cluster address for --backend ray.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    metavar="FILE",
    help="Append each finished game to FILE (JSON lines); run again with it to resume.",
)
@click.option(
    "--json", "json_path", metavar="FILE", default=None, help="Also write ratings and games as JSON (- for stdout)."
)
def ladder_command(
    preset: str,
    rule_overrides: tuple[str, ...],
    players: int,
    bots: str,
    deals: int,
    seed: int,
    seating: str,
    unit: str,
    compare: tuple[str, ...],
    move_seconds: float,
    workers: int | None,
    backend: str,
    address: str | None,
    log_path: Path | None,
    json_path: str | None,
) -> None:
    """Rate bots on one scale from duplicate deals: every bot plays every seat of each deal it sits at."""
    rules = build_rules(preset, rule_overrides)
    _check_players(rules, players)
    names = parse_bots(bots)
    if len(set(names)) != len(names):
        raise click.BadParameter("name each bot once", param_hint="'--bots'")
    if len(names) < players:
        raise click.BadParameter(f"{players} players need {players} or more bots", param_hint="'--bots'")
    pairs = _pairs(compare, names)
    _check_backend(backend, address)
    console: Console = _console(stderr=json_path == "-")
    entrants = [
        ProcessBot(shlex.split(name[4:]), seconds=move_seconds, name=name) if name[:4].lower() == "cmd:" else name
        for name in names
    ]
    progress, advance = _games_progress()
    chosen: Unit = "game" if unit == "game" else "round"
    try:
        result = run_ladder(
            entrants,
            deals,
            rules=rules,
            players=players,
            seed=seed,
            seating="permutations" if seating == "permutations" else "rotations",
            workers=workers,
            backend="ray" if backend == "ray" else "local",
            address=address,
            progress=advance,
            log=log_path,
        )
    except (ImportError, ConnectionError, ValueError, BotError) as error:
        raise click.ClickException(str(error)) from None
    finally:
        progress.stop()
    console.print(ratings_table(result, chosen))
    legend = [f"{result.label(bot)}: {bot}" for bot in result.bots if result.label(bot) != bot]
    if legend:
        console.print(Text("\n".join(legend)))
    for line in _comparison_lines(result, pairs, chosen):
        console.print(line)
    if json_path is not None:
        _write(json_path, _result_json(result, pairs, chosen), console)


def _result_json(result: LadderResult, pairs: list[tuple[str, str]], unit: Unit) -> str:
    return json.dumps(
        {
            "rules": attrs.asdict(result.rules),
            "players": result.players,
            "bots": list(result.bots),
            "seed": result.seed,
            "seating": result.seating,
            "unit": unit,
            "deals": result.deals,
            "ratings": [attrs.asdict(rating) for rating in result.ratings(unit=unit)],
            "comparisons": [attrs.asdict(result.compare(a, b, unit=unit)) for a, b in pairs],
            "games": [attrs.asdict(game) for game in result.games],
        },
        indent=1,
    )
