"""The ``solve`` command: the exact value of a position with every tile known, its line, nodes and time."""

from __future__ import annotations

import json
import textwrap
import time

import click

from .._game import InvalidRecordError
from .._io import parse_position
from ..solver import Solution, solve

__all__ = ["describe_solution", "solve_command"]

_MEANING = {
    "score": "P{player}'s round score",
    "margin": "P{player}'s round score less the lowest of the others'",
}
_WIDTH = 80
"""The columns the text fits: the line of moves is wrapped to them, its later lines indented."""


def describe_solution(solution: Solution, seconds: float) -> str:
    """Writes a solution in words, in lines of at most 80 columns: the value and whether it is proven, what it
    measures, the line (wrapped), the nodes and the time."""
    meaning = _MEANING[solution.objective].format(player=solution.player)
    if solution.proven:
        value = f"value {solution.value} (proven), the lowest P{solution.player} can guarantee:"
    else:
        side = "at most" if solution.bound == "upper" else "at least"
        value = f"value {side} {solution.value} (a bound: --max-nodes ran out before the proof):"
    moves = " ".join(map(str, solution.line)) if solution.line else "(none)"
    line = textwrap.fill(
        moves, _WIDTH, initial_indent="line: ", subsequent_indent="  ", break_on_hyphens=False, break_long_words=False
    )
    rate = solution.nodes / seconds if seconds > 0 else 0.0
    return f"{value}\n  {meaning}\n{line}\nnodes: {solution.nodes:,} in {seconds:.3f} s ({rate:,.0f} a second)"


@click.command("solve", context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("position")
@click.option(
    "--player", type=click.IntRange(0, None), default=None, help="The seat whose value it is [default: the mover]."
)
@click.option(
    "--objective",
    type=click.Choice(["margin", "score"]),
    default="margin",
    show_default=True,
    help="margin: the player's round score less the lowest of the others'; score: its round score.",
)
@click.option(
    "--max-nodes",
    type=click.IntRange(0, None),
    default=None,
    help="Stop after this many positions and report a bound [default: no limit].",
)
@click.option("--json", "as_json", is_flag=True, help="Print the solution as JSON instead of words.")
def solve_command(position: str, player: int | None, objective: str, max_nodes: int | None, as_json: bool) -> None:
    """Solve POSITION (the position notation, quoted) exactly, every hand and the yard's order known.

    Prints the lowest value the player can guarantee to the round's end whatever the others do,
    a line of play that keeps to it (each seat's best answer), the positions searched and the time.
    """
    try:
        state = parse_position(position)
    except InvalidRecordError as error:
        raise click.BadParameter(str(error), param_hint="POSITION") from None
    if player is not None and player >= state.players:
        raise click.BadParameter(
            f"seat {player} does not exist with {state.players} players (seats 0 to {state.players - 1})",
            param_hint="'--player'",
        )
    start = time.perf_counter()
    solution = solve(state, player=player, objective="score" if objective == "score" else "margin", max_nodes=max_nodes)
    seconds = time.perf_counter() - start
    if as_json:
        data = {
            "player": solution.player,
            "objective": solution.objective,
            "value": solution.value,
            "bound": solution.bound,
            "line": [str(move) for move in solution.line],
            "nodes": solution.nodes,
            "seconds": round(seconds, 6),
        }
        click.echo(json.dumps(data, indent=1))
        return
    click.echo(describe_solution(solution, seconds))
