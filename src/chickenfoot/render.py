"""Text pictures of a layout: the center, its arms, feet and toes as a tree.

A line of play can only branch at a double (PLAY-2, FOOT-1), so the picture writes each arm or
toe as one line of tiles, and opens a branch per toe under each chicken foot.
"""

from __future__ import annotations

from ._board import Board
from ._state import GameState, RoundState

__all__ = ["render_text"]


def render_text(state: GameState | RoundState | Board) -> str:
    """Draws the layout as a tree: one line per arm or toe, branching at each chicken foot.

    Each tile is written ``#NODE matched|offered`` (the half against its parent first), a line
    that can still be played on ends with ``open N``, and the pending node is marked
    ``<- pending``.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=3)
    >>> for tile, onto in [((9, 4), 0), ((9, 2), 0), ((4, 4), 1), ((4, 1), 3), ((9, 6), 0)]:
    ...     board = board.place(cf.Tile(*tile), onto)
    >>> print(render_text(board))
    #0 9-9 center, 3/3 arms
    ├── arm 1: #1 9|4 · #3 4|4 foot, 1/3 toes  <- pending
    │   └── toe 1: #4 4|1 open 1
    ├── arm 2: #2 9|2 open 2
    └── arm 3: #5 9|6 open 6
    """
    board = state if isinstance(state, Board) else (state.round if isinstance(state, GameState) else state).board
    nodes = board.nodes
    children: dict[int, list[int]] = {}
    for index, node in enumerate(nodes[1:], start=1):
        children.setdefault(node.parent if node.parent is not None else 0, []).append(index)

    def mark(index: int) -> str:
        return "  <- pending" if board.pending == index else ""

    def line(start: int) -> tuple[str, int | None]:
        """Writes the line of play from ``start`` up to its end or its foot; returns the foot, if any."""
        words: list[str] = []
        index = start
        while True:
            node = nodes[index]
            if node.tile.is_double:
                toes = len(children.get(index, ()))
                words.append(f"#{index} {node.exposed}|{node.exposed} foot, {toes}/3 toes{mark(index)}")
                return " · ".join(words), index
            words.append(f"#{index} {node.tile.other(node.exposed)}|{node.exposed}")
            following = children.get(index)
            if not following:
                return " · ".join(words) + f" open {node.exposed}", None
            index = following[0]  # PLAY-2: a non-double takes one tile

    lines: list[str] = []

    def branches(parent: int, kind: str, prefix: str) -> None:
        kids = children.get(parent, [])
        for number, child in enumerate(kids, start=1):
            last = number == len(kids)
            text, foot = line(child)
            lines.append(f"{prefix}{'└── ' if last else '├── '}{kind} {number}: {text}")
            if foot is not None:
                branches(foot, "toe", prefix + ("    " if last else "│   "))

    arms = len(children.get(0, ()))
    total = arms + (board.missing if board.pending == 0 else 0)
    lines.append(f"#0 {nodes[0].tile} center, {arms}/{total} arms{mark(0)}")
    branches(0, "arm", "")
    return "\n".join(lines)
