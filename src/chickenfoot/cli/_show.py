"""Rich pictures shared by the commands: layouts, hands, score and analysis tables, lines that wrap whole."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .._game import GameState, IllegalMoveError, RoundResult, RoundState, Termination, Tile
from ..bots import Analysis
from ..render import render_text

__all__ = [
    "SIMULATIONS",
    "analysis_table",
    "ending",
    "fit",
    "layout_panel",
    "plural",
    "refusal",
    "round_title",
    "score_table",
    "tiles_text",
]


SIMULATIONS = 2000
"""The simulations ``chickenfoot analyse`` and the ``hint`` of ``chickenfoot play`` run unless told otherwise."""


def plural(count: int, word: str, words: str | None = None) -> str:
    """Counts ``word``: ``1 tile``, ``2 tiles``, ``no tile`` (``words`` for an irregular plural)."""
    if count == 0:
        return f"no {word}"
    return f"{count} {word if count == 1 else words or word + 's'}"


def fit(head: str, entries: Sequence[str], width: int, *, separator: str = "  ") -> list[str]:
    """Writes ``head`` then the entries on as few lines as fit ``width`` columns, never splitting an entry.

    Lines after the first start under the first entry; an entry wider than a line has it to itself.

    >>> fit("totals: ", ["P0 12", "P1 7", "P2 30"], 20)
    ['totals: P0 12  P1 7', '        P2 30']
    """
    if not entries:
        return [head.rstrip()]
    pad = " " * len(head)
    lines, line = [], head + entries[0]
    for entry in entries[1:]:
        if len(line) + len(separator) + len(entry) <= width:
            line += separator + entry
        else:
            lines.append(line)
            line = pad + entry
    lines.append(line)
    return lines


def refusal(error: IllegalMoveError) -> str:
    """Writes why a move is refused with the ID of the rule that refuses it, as ``(PLAY-1)``, once.

    >>> refusal(IllegalMoveError("5-5 does not match node 0, which offers a 9", "PLAY-1"))
    '5-5 does not match node 0, which offers a 9 (PLAY-1)'
    >>> refusal(IllegalMoveError("player 2 can play 9-3@0 and so may not draw (DRAW-4)", "DRAW-4"))
    'player 2 can play 9-3@0 and so may not draw (DRAW-4)'
    """
    reason = str(error)
    if error.rule is None or error.rule in reason:
        return reason
    return f"{reason} ({error.rule})"


def tiles_text(tiles: Sequence[Tile]) -> str:
    """Writes tiles as ``[9-5] [4-4]``, highest first."""
    return " ".join(f"[{tile}]" for tile in sorted(tiles, reverse=True)) or "(none)"


def round_title(index: int, rounds: int) -> str:
    """Names a round as people count: ``Round 1 of 10`` for ``round_index`` 0."""
    return f"Round {index + 1} of {rounds}"


def ending(result: RoundResult, names: Sequence[str]) -> str:
    """Says how a round ended (its :class:`~chickenfoot.Outcome`): ``P2 greedy went out``."""
    outcome = result.outcome
    if outcome.termination is Termination.WENT_OUT:
        return f"P{outcome.winners[0]} {names[outcome.winners[0]]} went out"
    if outcome.termination is Termination.UNFILLABLE_FOOT:
        foot = result.final.board.pending
        where = "" if foot is None else f" on {result.final.board.node(foot).tile}"
        return f"the chicken foot{where} could no longer be filled"
    return "blocked: nobody could play or draw"


def layout_panel(state: RoundState, title: str, width: int = 80) -> Panel:
    """Frames the layout tree of ``state``, its lines wrapped to fit ``width`` columns with the frame.

    The title is plain text (names in it are never read as markup).
    """
    tree = render_text(state, width=max(20, width - 4))  # the frame and its padding take 4 columns
    return Panel(Text(tree), title=Text(title), title_align="left", expand=False)


_ENDED = {
    Termination.WENT_OUT: "P{} out",
    Termination.BLOCKED: "blocked",
    Termination.UNFILLABLE_FOOT: "unfillable",  # as the position notation writes it
}
"""How the score table's last column says a round ended (a round's outcome is never a game's LAST_ROUND)."""


def score_table(game: GameState, names: Sequence[str], width: int = 80) -> Table:
    """Tabulates each finished round's scores, how it ended and the totals, the winners starred.

    One row a round: a game reads in one screen. Each seat's column is headed ``P2 greedy``;
    when that would not fit in ``width`` columns, it is headed ``P2`` and the caption under the
    table names the seats.
    """
    room = 8 + 9 + 11 + sum(max(len(f"P{seat} {name}"), 5) + 3 for seat, name in enumerate(names)) + 1
    legend = room > width
    table = Table(
        title="Scores (lowest total wins)",
        title_justify="left",
        caption=Text(", ".join(f"P{seat} {name}" for seat, name in enumerate(names))) if legend else None,
        caption_justify="left",
    )
    table.add_column("round", justify="right")
    table.add_column("double", justify="center")
    for seat, name in enumerate(names):
        table.add_column(Text(f"P{seat}" if legend else f"P{seat} {name}"), justify="right")
    table.add_column("ended")
    for number, result in enumerate(game.results, start=1):
        cells = [
            Text(str(score), style="bold green" if seat == result.went_out else "")
            for seat, score in enumerate(result.scores)
        ]
        ended = _ENDED[result.outcome.termination].format(*result.outcome.winners)
        table.add_row(str(number), f"{result.double}-{result.double}", *cells, ended)
    winners = set(game.winners)
    table.add_section()
    table.add_row(
        "total",
        "",
        *(Text(f"{total}{' *' if seat in winners else ''}", style="bold") for seat, total in enumerate(game.totals)),
        "",
    )
    return table


def _number(value: float, digits: int = 1) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def analysis_table(analysis: Analysis, *, limit: int | None = None) -> Table:
    """Tabulates an analysis by the estimate its title describes, the lowest expected score first, the move
    the search bot would play (the most visited) marked ``*``; a caption says what each column means.

    An exact analysis (:attr:`Analysis.exact`) is told in its own words: worlds solved, each move's
    mean exact score, the lowest (the move marked) first, and the line of the first world solved.
    With ``limit``, the best ``limit`` rows by score, and the marked move's row if it is not among them.
    """
    player = f"P{analysis.player}"
    if analysis.exact:
        title = (
            f"{player} to move, {analysis.simulations:,} worlds solved exactly; sorted by score, "
            "lower is better; * the lowest mean"
        )
        caption = (
            f"score: the mean over the worlds solved of the lowest round score {player} can guarantee after the "
            "move against the others' best play (95% CI); worlds: the worlds solved; line: the best play in "
            "the first world solved"
        )
    else:
        title = (
            f"{player} to move, {analysis.simulations:,} simulations; sorted by score, "
            "lower is better; * the move the search bot would play"
        )
        caption = (
            f"score: {player}'s expected score for this round after the move (95% CI); "
            + ("win: the chance of winning the game; " if any(row.win is not None for row in analysis.moves) else "")
            + "visits: simulations that began with the move (the bot plays the most visited); "
            "expected line: the play the search expects next"
        )
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    in_game = any(row.win is not None for row in analysis.moves)  # a position without its game has no win chance
    counts, line_column = ("worlds", "line") if analysis.exact else ("visits", "expected line")
    columns = ("#", "move", "score (95% CI)", *(("win",) if in_game else ()), counts, line_column)
    for column in columns:
        table.add_column(column, justify="left" if column in ("move", line_column) else "right")
    chosen = analysis.moves[0] if analysis.moves else None  # Analysis.moves: the most visited (or lowest mean) first
    ranked = sorted(analysis.moves, key=lambda row: (math.isnan(row.score), row.score, -row.visits))
    shown = ranked[:limit]
    if chosen is not None and chosen not in shown:
        shown.append(chosen)
    for row in shown:
        rank = ranked.index(row) + 1
        interval = "" if math.isnan(row.low) else f" ({row.low:.1f} to {row.high:.1f})"
        win = () if row.win is None else ("-" if math.isnan(row.win) else f"{row.win:.0%}",)
        line = " ".join(str(move) for move in row.line[1:6]) + (" ..." if len(row.line) > 6 else "")
        mark = "*" if row is chosen else " "
        table.add_row(f"{rank}{mark}", str(row.move), _number(row.score) + interval, *win, str(row.visits), Text(line))
    return table
