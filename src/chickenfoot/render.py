"""Text pictures of a layout: the center, its arms, feet and toes as a tree.

A line of play can only branch at a double (PLAY-2, FOOT-1), so the picture writes each arm or
toe as one line of tiles, and opens a branch per toe under each chicken foot.
"""

from __future__ import annotations

from ._game import Board, Draw, GameState, Move, Play, PlayerView, RoundState, SpectatorView

__all__ = ["describe_move", "describe_state", "render_text"]


def render_text(state: GameState | RoundState | Board, *, width: int | None = None) -> str:
    """Draws the layout as a tree: one line per arm or toe, branching at each chicken foot.

    Each tile is written ``#NODE matched|offered`` (the half against its parent first), a line
    that can still be played on ends with ``open N``, and the pending node is marked
    ``<- pending``. With ``width``, a long line of play is wrapped between tiles to fit that
    many columns, its continuation indented under the tree.

    >>> import chickenfoot as cf
    >>> board = cf.Board.start(cf.Tile(9, 9), arms=3)
    >>> for tile, onto in [((9, 4), 0), ((9, 2), 0), ((9, 6), 0), ((4, 4), 1), ((4, 1), 4)]:
    ...     board = board.place(cf.Tile(*tile), onto)
    >>> print(render_text(board))
    #0 9-9 center, 3/3 arms
    ├── arm 1: #1 9|4 · #4 4|4 foot, 1/3 toes  <- pending
    │   └── toe 1: #5 4|1 open 1
    ├── arm 2: #2 9|2 open 2
    └── arm 3: #3 9|6 open 6
    >>> print(render_text(board, width=30))
    #0 9-9 center, 3/3 arms
    ├── arm 1: #1 9|4
    │          · #4 4|4 foot, 1/3
    │          toes  <- pending
    │   └── toe 1: #5 4|1 open 1
    ├── arm 2: #2 9|2 open 2
    └── arm 3: #3 9|6 open 6
    """
    if isinstance(state, Board):
        board = state
    elif isinstance(state, GameState):
        board = state.round.board
    elif isinstance(state, RoundState):
        board = state.board
    else:
        raise TypeError(f"render_text() draws a Board, RoundState or GameState, got {type(state).__name__}")
    tree = _Tree(board, width)
    arms = len(tree.children.get(0, ()))
    total = arms + (board.missing if board.pending == 0 else 0)
    tree.lines.append(f"#0 {board.nodes[0].tile} center, {arms}/{total} arms{tree.mark(0)}")
    tree.branches(0, "arm", "")
    return "\n".join(tree.lines)


class _Tree:
    """The text tree of one board as it is written: a line per arm or toe, wrapped at ``width``."""

    def __init__(self, board: Board, width: int | None) -> None:
        self.board = board
        self.width = width
        self.lines: list[str] = []
        self.children: dict[int, list[int]] = {}
        for index, node in enumerate(board.nodes[1:], start=1):
            self.children.setdefault(node.parent if node.parent is not None else 0, []).append(index)

    def mark(self, index: int) -> str:
        """Marks the pending node."""
        return "  <- pending" if self.board.pending == index else ""

    def line(self, start: int) -> tuple[list[str], int | None]:
        """Writes the line of play from ``start`` up to its end or its foot, a word per tile; returns its foot."""
        nodes = self.board.nodes
        words: list[str] = []
        index = start
        while True:
            node = nodes[index]
            if node.tile.is_double:
                toes = len(self.children.get(index, ()))
                words.append(f"#{index} {node.exposed}|{node.exposed} foot, {toes}/3 toes{self.mark(index)}")
                return words, index
            words.append(f"#{index} {node.tile.other(node.exposed)}|{node.exposed}")
            following = self.children.get(index)
            if not following:
                words[-1] += f" open {node.exposed}"
                return words, None
            index = following[0]  # PLAY-2: a non-double takes one tile

    def write(self, head: str, indent: str, words: list[str]) -> None:
        """Writes ``head`` then the words joined by `` · ``, wrapped at the width with ``indent``."""
        width, lines = self.width, self.lines
        text = head + " · ".join(words)
        if width is None or len(text) <= width:
            lines.append(text)
            return
        current = head + words[0]
        for word in words[1:]:
            if len(current) + 3 + len(word) <= width:
                current += " · " + word
            else:
                lines.append(current)
                current = indent + "· " + word
        # A word longer than the room left is split at spaces.
        while len(current) > width and " " in current[len(indent) :]:
            cut = current.rfind(" ", len(indent) + 1, width + 1)
            if cut <= len(indent):
                break
            lines.append(current[:cut])
            current = indent + current[cut + 1 :]
        lines.append(current)

    def branches(self, parent: int, kind: str, prefix: str) -> None:
        """Writes the arms (or toes) hanging from ``parent``, each with the toes of its foot below it."""
        kids = self.children.get(parent, [])
        for number, child in enumerate(kids, start=1):
            last = number == len(kids)
            words, foot = self.line(child)
            below = prefix + ("    " if last else "│   ")
            head = f"{prefix}{'└── ' if last else '├── '}{kind} {number}: "
            self.write(head, below + " " * (len(head) - len(below)), words)
            if foot is not None:
                self.branches(foot, "toe", below)


def describe_move(move: Move, *, you: bool = False) -> str:
    """Says a move in words, as someone's (``plays``), or with ``you`` as the reader's own (``play``).

    >>> import chickenfoot as cf
    >>> describe_move(cf.Play(cf.Tile(9, 5), onto=3)), describe_move(cf.Draw(), you=True)
    ('plays 9-5 onto #3', 'draw')
    """
    ending = "" if you else "s"
    if type(move) is Play:
        return f"play{ending} {move.tile} onto #{move.onto}"
    return f"draw{ending}" if type(move) is Draw else ("pass" if you else "passes")


def describe_state(state: GameState | RoundState | PlayerView | SpectatorView | Board) -> str:
    """Writes a state as text: whose turn, the layout's tree, then the hands (a view: its own) and the yard.

    This is ``str()`` of a :class:`~chickenfoot.GameState`, :class:`~chickenfoot.RoundState`,
    :class:`~chickenfoot.PlayerView` or :class:`~chickenfoot.SpectatorView` (which shows no hand);
    of a :class:`~chickenfoot.Board`, its tree alone (:func:`render_text`).

    >>> import chickenfoot as cf
    >>> print(describe_state(cf.Board.start(cf.Tile(9, 9), arms=3)))
    #0 9-9 center, 0/3 arms  <- pending
    """
    if isinstance(state, Board):
        return render_text(state)
    if isinstance(state, (PlayerView, SpectatorView)):
        rounds = state.rules.rounds
        whose = f"P{state.player}'s view" if isinstance(state, PlayerView) else "A spectator's view"
        head = f"{whose}, round {state.round_index + 1} of {rounds}"
        mover = state.current_player
        lines = [f"{head}, center {state.board.center}; {_mover(mover, state.is_over)}"]
        lines.append(render_text(state.board))
        if isinstance(state, PlayerView):
            lines.append(f"hand: {' '.join(map(str, state.hand)) or '(empty)'}")
        held = " ".join(f"P{seat}={size}" for seat, size in enumerate(state.hand_sizes))
        lines.append(f"tiles held: {held}; yard {state.yard_size}")
        return "\n".join(lines)
    if isinstance(state, GameState):
        game, round_ = state, state.round
        totals = " ".join(f"P{seat}={total}" for seat, total in enumerate(game.totals))
        if game.is_over:
            winners = " and ".join(f"P{seat}" for seat in game.winners)
            head = f"Game over after {len(game.results)} rounds; totals {totals}; won by {winners}"
        else:
            head = f"Round {game.round_index + 1} of {game.rules.rounds}, center {round_.board.center}; "
            head += f"{_mover(round_.current_player, False)}; totals {totals}"
    else:
        round_ = state
        head = f"Round with center {round_.board.center}; {_mover(round_.current_player, round_.is_over)}"
    lines = [head, render_text(round_.board)]
    lines += [f"P{seat}: {' '.join(map(str, hand)) or '(empty)'}" for seat, hand in enumerate(round_.hands)]
    lines.append(f"yard: {len(round_.yard)} tiles, {round_.reserve} kept back")
    return "\n".join(lines)


def _mover(player: int | None, over: bool) -> str:
    return "over" if over or player is None else f"P{player} to move"
