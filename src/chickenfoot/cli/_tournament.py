"""The ``tournament`` command: seeded games between bots, seats rotated, standings with intervals."""

from __future__ import annotations

import csv
import io
import json
import math
import shlex
from pathlib import Path

import attrs
import click
from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from .._bots import shown_name
from .._game import BotError, BotSpecError
from .._io import GameRecord, replay as replay_record
from ..bots import ProcessBot, kinds_help
from ..tournament import Standing, TournamentResult, run_tournament, wilson
from ._app import CONTEXT, _check_backend, _check_players, _console, _games_progress, _write
from ._options import bots_option, build_rules, parse_bots, rules_options
from ._records import save_record

__all__ = ["tournament"]

MAX_GAMES = 100_000
"""The most games ``chickenfoot tournament`` plays: each game's outcome is kept for the standings and JSON."""


def _trials(standing: Standing) -> int:
    """Counts the seat-games a standing's win rate is over (a bot in two seats plays two a game)."""
    return standing.games * standing.seats


def _shown_names(standings: tuple[Standing, ...]) -> list[str]:
    """Names each standing as the table shows it: a program by its handshake name, a ``py:`` bot by its
    class and arguments (numbered if two share one); the legend gives the whole name."""
    names = [standing.report.name or shown_name(standing.bot) for standing in standings]
    for name in set(names):
        if names.count(name) > 1:
            numbered = iter(range(1, len(names) + 1))
            names = [f"{shown} #{next(numbered)}" if shown == name else shown for shown in names]
    return names


def _standings_table(result: TournamentResult, names: list[str]) -> Table:
    players = len(result.lineup)
    table = Table(
        title=f"{len(result.outcomes)} games, seats rotated, seed {result.seed} (par win rate {1 / players:.0%})",
        title_justify="left",
    )
    table.add_column("bot", overflow="fold")  # a long name wraps, never cut
    for column in ("seats", "mean score/round\n(95% CI)", "win rate\n(95% CI)", "rounds\nwon/game"):
        table.add_column(column, justify="right", no_wrap=True)
    for name, standing in zip(names, result.standings, strict=True):
        half = standing.ci95
        mean = f"{standing.mean_round_score:.2f}" + ("" if math.isnan(half) else f" ± {half:.2f}")
        low, high = wilson(standing.win_rate, _trials(standing))
        rate = f"{standing.win_rate:.1%}" + ("" if math.isnan(low) else f" ({low:.0%}-{high:.0%})")
        table.add_row(Text(name), str(standing.seats), mean, rate, f"{standing.mean_rounds_won:.2f}")
    return table


def _legend(result: TournamentResult, names: list[str]) -> Text | None:
    """Says which lineup entry each program's handshake name stands for, or ``None`` if no name differs."""
    lines = [f"{name}: {standing.bot}" for name, standing in zip(names, result.standings, strict=True)]
    lines = [line for line, name, standing in zip(lines, names, result.standings, strict=True) if name != standing.bot]
    return Text("\n".join(lines)) if lines else None


def _faults(result: TournamentResult, names: list[str]) -> list[Text | Padding]:
    """Lists each faulting bot (its name on a line of its own) and its fault kinds, counts and first reasons."""
    shown: list[Text | Padding] = []
    for name, standing in zip(names, result.standings, strict=True):
        report = standing.report
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column("fault")
        table.add_column("count", justify="right")
        table.add_column("the first: where, and why", overflow="fold")
        for tally in report.faults:
            table.add_row(tally.kind, f"{tally.count:,}", Text(f"first in {tally.first.where()}: {tally.first.detail}"))
        if report.stopped:
            table.add_row("stopped", f"{report.stopped:,}", "moves forfeited without asking, after a fault stopped it")
        if table.row_count:
            shown += [Text(name, style="bold"), Padding(table, (0, 0, 0, 2))]
    if shown:
        shown.insert(0, Text("Faults (a forfeited move is played as the first legal move):"))
    return shown


def _result_json(result: TournamentResult) -> str:
    return json.dumps(
        {
            "rules": attrs.asdict(result.rules),
            "lineup": list(result.lineup),
            "seed": result.seed,
            "games": len(result.outcomes),
            "standings": [attrs.asdict(standing) for standing in result.standings],
            "outcomes": [attrs.asdict(outcome) for outcome in result.outcomes],
        },
        indent=1,
    )


def _result_csv(result: TournamentResult) -> str:
    """Writes the standings as CSV, floats to 4 decimals (6 significant digits at most matter here),
    with the win rate's Wilson interval."""
    buffer = io.StringIO()
    fields = [field.name for field in attrs.fields(Standing) if field.name != "report"]
    extra = ["name", "faults", "stopped", "win_low95", "win_high95"]
    writer = csv.DictWriter(buffer, fieldnames=[*fields, *extra], lineterminator="\n")
    writer.writeheader()
    for standing in result.standings:
        low, high = wilson(standing.win_rate, _trials(standing))
        report = standing.report
        row = {
            **attrs.asdict(standing, filter=lambda field, _: field.name != "report"),
            "win_low95": low,
            "win_high95": high,
            "name": report.name or standing.bot,
            "faults": report.fault_count,
            "stopped": report.stopped,
        }
        writer.writerow({key: round(value, 4) if isinstance(value, float) else value for key, value in row.items()})
    return buffer.getvalue()


@click.command(context_settings=CONTEXT)
@rules_options
@click.option(
    "--games",
    type=click.IntRange(1, MAX_GAMES),
    default=100,
    show_default=True,
    help=f"Number of games (at most {MAX_GAMES:,}).",
)
@bots_option(
    "search:50,greedy,greedy,greedy",
    f"The lineup, one bot per player, comma-separated: {kinds_help()}; cmd:COMMAND is a program speaking "
    "the bot protocol, omniscient sees every hand (marked as cheating).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Tournament seed; game i's deal derives from it.")
@click.option(
    "--move-seconds",
    type=click.FloatRange(0, 3600, min_open=True),
    default=5.0,
    show_default=True,
    help="Time a cmd: bot has for each move; a late answer forfeits its moves for the rest of the game.",
)
@click.option(
    "--startup-seconds",
    type=click.FloatRange(0, 3600, min_open=True),
    default=10.0,
    show_default=True,
    help="Time a cmd: bot has to start and write its handshake, in each game.",
)
@click.option(
    "--bot-log",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    metavar="FILE",
    help="Append what cmd: bots write to stderr (1 MiB a game at most) and their info lines to FILE.",
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=None,
    help="Local worker processes [default: all cores]. Results do not depend on it.",
)
@click.option(
    "--backend",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Run games in local processes, or as Ray tasks (needs the ray extra).",
)
@click.option(
    "--address",
    default=None,
    metavar="ADDR",
    help="Ray cluster address for --backend ray (e.g. ray://head:10001 or auto) [default: start a local Ray].",
)
@click.option(
    "--json", "json_path", metavar="FILE", default=None, help="Also write standings and games as JSON (- for stdout)."
)
@click.option("--csv", "csv_path", metavar="FILE", default=None, help="Also write the standings as CSV (- for stdout).")
@click.option(
    "--save-games",
    "save_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    metavar="DIR",
    help="Save every game as a record naming its players: DIR/game-0001.json, ... (read with `replay`).",
)
def tournament(
    preset: str,
    rule_overrides: tuple[str, ...],
    games: int,
    bots: str,
    seed: int,
    move_seconds: float,
    startup_seconds: float,
    bot_log: Path | None,
    workers: int | None,
    backend: str,
    address: str | None,
    json_path: str | None,
    csv_path: str | None,
    save_dir: Path | None,
) -> None:
    """Play many games between bots, seats rotated, and tabulate how each did."""
    rules = build_rules(preset, rule_overrides)
    lineup = parse_bots(bots)
    if len(lineup) < 2:
        raise click.BadParameter("a tournament needs two or more bots, one per player", param_hint="'--bots'")
    _check_players(rules, len(lineup))
    _check_backend(backend, address)
    console = _console(stderr=json_path == "-" or csv_path == "-")
    if bot_log is not None:
        try:
            bot_log.open("a", encoding="utf-8").close()
        except OSError as error:
            problem = f"cannot write {bot_log}: {error.strerror or error}"
            raise click.BadParameter(problem, param_hint="'--bot-log'") from None
    # A program's bot gets the times asked for, and keeps its bot name in the lineup (the
    # standings show its handshake name, with a legend).
    entrants = [
        ProcessBot(shlex.split(name[4:]), seconds=move_seconds, startup_seconds=startup_seconds, name=name, log=bot_log)
        if name[:4].lower() == "cmd:"
        else name
        for name in lineup
    ]
    progress, advance = _games_progress()
    try:
        result = run_tournament(
            entrants,
            games,
            rules=rules,
            seed=seed,
            workers=workers,
            backend="ray" if backend == "ray" else "local",
            address=address,
            progress=advance,
            keep_moves=save_dir is not None,
        )
    except (ImportError, ConnectionError, BotError, BotSpecError) as error:
        raise click.ClickException(str(error)) from None
    finally:
        progress.stop()
    _report(result, console, json_path, csv_path, save_dir)


def _report(
    result: TournamentResult, console: Console, json_path: str | None, csv_path: str | None, save_dir: Path | None
) -> None:
    """Prints the standings (with a legend and the programs' faults) and writes the files asked for."""
    names = _shown_names(result.standings)
    console.print(_standings_table(result, names))
    legend = _legend(result, names)
    for shown in ([legend] if legend is not None else []) + _faults(result, names):
        console.print(shown)
    if json_path is not None:
        _write(json_path, _result_json(result), console)
    if csv_path is not None:
        _write(csv_path, _result_csv(result), console)
    if save_dir is not None:
        _save_games(result, save_dir, console)


def _save_games(result: TournamentResult, directory: Path, console: Console) -> None:
    """Writes each game of ``result`` as a record whose headers name the bot in every seat."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise click.ClickException(f"cannot write games to {directory}: {error}") from None
    players = len(result.lineup)
    for outcome in result.outcomes:
        game = replay_record(GameRecord(result.rules, players, outcome.seed, outcome.moves))[-1]
        names = [result.lineup[entry] for entry in outcome.seats]
        event = f"chickenfoot tournament, seed {result.seed}, game {outcome.index + 1}"
        save_record(game, directory / f"game-{outcome.index + 1:04d}.json", names=names, event=event)
    console.print(Text(f"saved {len(result.outcomes)} games to {directory}"))
