"""The ``analyse`` command: every legal move of a position, with the search's estimate and line."""

from __future__ import annotations

import json
import math

import click

from .._bots import EXACT_NODES, EXACT_WORLDS, Unsolved
from .._game import GameState, InvalidRecordError, PlayerView, RoundState, observe
from .._io import parse_position
from ..bots import Analysis, analyse
from ._app import _console
from ._show import SIMULATIONS, analysis_table

__all__ = ["view_of_position"]


def view_of_position(state: RoundState, seat: int | None) -> PlayerView:
    """Gets what ``seat`` (default: the player to move) knows of a position: its own hand, the board and the counts.

    Raises :class:`click.BadParameter` when the seat is not the player to move.
    """
    turn = state.current_player
    if state.is_over:
        raise click.BadParameter(
            "the round in this position is over: there is no move to analyse", param_hint="POSITION"
        )
    if seat is None:
        seat = turn
    if not 0 <= seat < state.players:
        raise click.BadParameter(f"seat {seat} does not exist with {state.players} players", param_hint="'--seat'")
    if seat != turn:
        raise click.BadParameter(f"it is P{turn}'s turn in this position: analyse --seat {turn}", param_hint="'--seat'")
    rules = state.rules
    round_index = min(max(rules.max_pip - state.double, 0), rules.rounds - 1)
    game = GameState(rules, state.players, 0, state, round_index, (0,) * state.players)
    return observe(game, seat)


def _json(analysis: Analysis) -> str:
    def number(value: float | None) -> float | None:
        return None if value is None or math.isnan(value) else round(value, 4)

    rows = [
        {
            "move": str(row.move),
            "score": number(row.score),
            "low": number(row.low),
            "high": number(row.high),
            "visits": row.visits,
            "win": number(row.win),
            "line": [str(move) for move in row.line],
        }
        for row in analysis.moves
    ]
    data = {"player": analysis.player, "simulations": analysis.simulations, "exact": analysis.exact, "moves": rows}
    return json.dumps(data, indent=1)


@click.command("analyse", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("position")
@click.option(
    "--seat", type=click.IntRange(0, 7), default=None, help="The seat to analyse for [default: the player to move]."
)
@click.option(
    "--simulations",
    type=click.IntRange(1, 10_000_000),
    default=None,
    help=f"Simulations to run [default: {SIMULATIONS:,}].",
)
@click.option(
    "--seconds",
    type=click.FloatRange(0, 3600, min_open=True),
    default=None,
    help="Search for this much CPU time instead (not reproducible).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the search.")
@click.option(
    "--exact",
    is_flag=True,
    help=f"Solve each world exactly after every move (--simulations: worlds, default {EXACT_WORLDS}).",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(1, None),
    default=None,
    help=f"With --exact: leave out a world whose solve needs more positions [default: {EXACT_NODES:,}].",
)
@click.option("--json", "as_json", is_flag=True, help="Print the analysis as JSON instead of a table.")
def analyse_command(
    position: str,
    seat: int | None,
    simulations: int | None,
    seconds: float | None,
    seed: int,
    exact: bool,
    max_nodes: int | None,
    as_json: bool,
) -> None:
    """Estimate every legal move of POSITION (the position notation, quoted) for the player to move.

    The search sees only that seat's hand: the other hands and the yard are dealt at random
    from the unseen tiles for each simulation (a position has no history to narrow them).
    With --exact, each world dealt is solved exactly after every move, and a move's score is
    its mean over the worlds (double-dummy analysis): for positions with few tiles left.
    """
    if simulations is not None and seconds is not None:
        raise click.BadParameter("give --simulations or --seconds, not both", param_hint="'--seconds'")
    if max_nodes is not None and not exact:
        raise click.BadParameter("--max-nodes is the budget of --exact: give both", param_hint="'--max-nodes'")
    try:
        state = parse_position(position)
    except InvalidRecordError as error:
        raise click.BadParameter(str(error), param_hint="POSITION") from None
    view = view_of_position(state, seat)
    if exact:
        nodes = EXACT_NODES if max_nodes is None else max_nodes
        try:
            analysis = analyse(view, simulations=simulations, seconds=seconds, seed=seed, exact=True, max_nodes=nodes)
        except Unsolved as error:
            if error.by_time:
                reason = f"no world was solved in --seconds {seconds}: give more --seconds, or --simulations"
            else:
                reason = (
                    f"no world could be solved within --max-nodes {nodes:,} positions after every move: too many "
                    "tiles are left to solve exactly (raise --max-nodes, or analyse without --exact)"
                )
            raise click.BadParameter(reason, param_hint="POSITION") from None
    else:
        budget = SIMULATIONS if simulations is None and seconds is None else simulations
        analysis = analyse(view, simulations=budget, seconds=seconds, seed=seed)
    if as_json:
        click.echo(_json(analysis))
        return
    _console().print(analysis_table(analysis))
