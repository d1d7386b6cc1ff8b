"""The playground's Python side: one game, the bots in the other seats, and the calls the page makes.

The page's JavaScript holds a :class:`Table` and calls its methods; every call takes and returns
text (JSON documents and moves in the move notation), and everything here uses the library's
public API only. The page never sees a bot's tiles: what it draws comes from :meth:`Table.state`,
which is the human seat's :func:`chickenfoot.observe` view.
"""

from __future__ import annotations

import json

import chickenfoot as cf
from chickenfoot.bots import make_bot
from chickenfoot.svg import render_svg

PRESETS = {"trains": cf.Rules.trains, "cross": cf.Rules.cross}


class Table:
    """Seats a person at ``seat`` of ``game`` and the bot ``bot`` (``"greedy"``, ``"random"``, ...) elsewhere."""

    def __init__(self, game: cf.GameState, bot: str = "greedy", seat: int = 0) -> None:
        self.game = game
        self.seat = seat
        self.bot = bot
        self.bots = {p: make_bot(bot, seed=game.seed + p) for p in range(game.players) if p != seat}
        self.log: list[list[object]] = []  # [round, player, move] for every move of the game

    def state(self) -> str:
        """Gets what the page shows: the seat's view (JSON), its board drawn as SVG, and the move log."""
        view = cf.observe(self.game, self.seat)
        return json.dumps(
            {
                "view": json.loads(cf.to_json(view)),
                "svg": render_svg(view.board),
                "log": self.log,
                "bot": self.bot,
            }
        )

    def _apply(self, move: cf.Move) -> None:
        round_index, player = self.game.round_index, self.game.current_player
        self.game = cf.apply(self.game, move)
        self.log.append([round_index, player, str(move)])

    def play(self, text: str) -> str:
        """Plays the person's move, written in the move notation; a refusal comes back as its reason and rule."""
        if self.game.current_player != self.seat:
            return json.dumps({"refused": "it is not your turn", "rule": "TURN-1"})
        try:
            self._apply(cf.parse_move(text))
        except cf.IllegalMoveError as error:
            return json.dumps({"refused": str(error), "rule": error.rule})
        except cf.InvalidMoveError as error:
            return json.dumps({"refused": str(error), "rule": None})
        return json.dumps({"played": text})

    def bot_move(self) -> str:
        """Lets the bot to move play once, from its own view, and returns its move in the notation."""
        player = self.game.current_player
        if player is None or player == self.seat:
            return ""
        move = self.bots[player](cf.observe(self.game, player))
        self._apply(move)
        return str(move)

    def record(self) -> str:
        """Gets the game so far as a JSON game record (setup and moves)."""
        return cf.to_json(cf.GameRecord.from_game(self.game), indent=2)

    def position(self) -> str:
        """Gets the round in play in the position notation."""
        return cf.position(self.game)


def new_table(preset: str, players: int, seed: int, bot: str = "greedy", seat: int = 0) -> Table:
    """Deals a new game of the preset ``"trains"`` or ``"cross"`` and seats the person and the bots."""
    return Table(cf.new_game(PRESETS[preset](), players=players, seed=seed), bot, seat)


def load(text: str, bot: str = "greedy", seat: int = 0) -> Table:
    """Rebuilds a table from a JSON game record; a bad record raises InvalidRecordError naming the fault."""
    states = cf.replay(cf.from_json(text, cf.GameRecord))
    table = Table(states[-1], bot, seat)
    # states[i] is the position move i + 1 was played in.
    moves = states[-1].moves
    table.log = [[s.round_index, s.current_player, str(move)] for s, move in zip(states[:-1], moves, strict=True)]
    return table
