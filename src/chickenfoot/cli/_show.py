"""Rich pictures shared by the commands: layouts, hands, round and score tables."""

from __future__ import annotations

from collections.abc import Sequence

from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .._state import GameState, RoundResult, RoundState
from .._tiles import Tile
from ..render import render_text

__all__ = ["ending", "layout_panel", "score_table", "tiles_text"]


def tiles_text(tiles: Sequence[Tile]) -> str:
    """Writes tiles as ``[9-5] [4-4]``, highest first."""
    return " ".join(f"[{tile}]" for tile in sorted(tiles, reverse=True)) or "(none)"


def ending(result: RoundResult, names: Sequence[str]) -> str:
    """Says how a round ended."""
    if result.went_out is not None:
        return f"{names[result.went_out]} went out"
    return "blocked: nobody could play or draw"


def layout_panel(state: RoundState, title: str) -> Panel:
    """Frames the layout tree of ``state``."""
    return Panel(Text(render_text(state)), title=title, title_align="left", expand=False)


def score_table(game: GameState, names: Sequence[str]) -> Table:
    """Tabulates each finished round's scores and the totals, the winners starred."""
    table = Table(title="Scores (lowest total wins)", title_justify="left")
    table.add_column("round", justify="right")
    table.add_column("double", justify="center")
    for seat, name in enumerate(names):
        table.add_column(f"P{seat} {name}", justify="right")
    for number, result in enumerate(game.results, start=1):
        cells = [
            Text(str(score), style="bold green" if seat == result.went_out else "")
            for seat, score in enumerate(result.scores)
        ]
        table.add_row(str(number), f"{result.double}-{result.double}", *cells)
    winners = set(game.winners)
    table.add_section()
    table.add_row(
        "total",
        "",
        *(Text(f"{total}{' *' if seat in winners else ''}", style="bold") for seat, total in enumerate(game.totals)),
    )
    return table
