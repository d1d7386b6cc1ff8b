"""Text pictures of a layout: the center, its arms, feet and toes as an indented tree."""

from __future__ import annotations

from ._board import Board
from ._state import GameState, RoundState

__all__ = ["render_text"]


def render_text(state: GameState | RoundState | Board) -> str:
    """Draws the layout as a tree, one node a line: index, tile, and the value it offers.

    Doubles are marked as feet with their toe count; the pending node is marked ``<- pending``.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=2).place(cf.Tile(9, 4), onto=0)
    >>> print(render_text(board))
    #0 9-9 center, 1/2 arms  <- pending
    └── #1 9-4 offers 4
    """
    board = state if isinstance(state, Board) else (state.round if isinstance(state, GameState) else state).board
    children: dict[int | None, list[int]] = {}
    for index, node in enumerate(board.nodes):
        children.setdefault(node.parent, []).append(index)

    def label(index: int) -> str:
        node = board.nodes[index]
        count = len(children.get(index, ()))
        if index == 0:
            arms = count + (board.missing if board.pending == 0 else 0)
            text = f"#0 {node.tile} center, {count}/{arms} arms"
        elif node.tile.is_double:
            text = f"#{index} {node.tile} chicken foot, {count}/3 toes"
        else:
            text = f"#{index} {node.tile} offers {node.exposed}"
        return text + ("  <- pending" if board.pending == index else "")

    lines = [label(0)]

    def walk(index: int, prefix: str) -> None:
        kids = children.get(index, [])
        for position, child in enumerate(kids):
            last = position == len(kids) - 1
            lines.append(f"{prefix}{'└── ' if last else '├── '}{label(child)}")
            walk(child, prefix + ("    " if last else "│   "))

    walk(0, "")
    return "\n".join(lines)
