"""The playground's Python side: one game, the bots in the other seats, and the calls the page makes.

The page's JavaScript holds a :class:`Table` and calls its methods; every call takes and returns
text (JSON documents and moves in the move notation), and everything here uses the library's
public API only. The page never sees a bot's tiles: what it draws comes from :meth:`Table.state`,
which is the human seat's :func:`chickenfoot.observe` view, now or at any earlier step.
"""

from __future__ import annotations

import itertools
import json

import chickenfoot as cf
from chickenfoot.bots import make_bot
from chickenfoot.render import describe_move
from chickenfoot.svg import render_svg

PRESETS = {"trains": cf.Rules.trains, "cross": cf.Rules.cross}


class Table:
    """Seats a person at ``seat`` of ``game`` and the bot ``bot`` (``"greedy"``, ``"random"``, ...) elsewhere.

    ``states`` are the game's states from its deal on, oldest first, as :func:`chickenfoot.replay`
    gives them (``[game]`` for a new one), so the page can step back through the game;
    ``comments`` are a loaded record's, shown with their moves and saved again.
    """

    def __init__(
        self,
        game: cf.GameState,
        bot: str = "greedy",
        seat: int = 0,
        states: tuple[cf.GameState, ...] = (),
        comments: dict[int, str] | None = None,
    ) -> None:
        self.states = list(states) or [game]
        self.seat = seat
        self.bot = bot
        self.bots = {p: make_bot(bot, seed=game.seed + p) for p in range(game.players) if p != seat}
        self.comments = dict(comments or {})

    @property
    def game(self) -> cf.GameState:
        """Gets the game as it stands now."""
        return self.states[-1]

    def state(self, step: int | None = None) -> str:
        """Gets what the page shows at ``step`` (the state after that many moves; ``None``: now): the seat's
        view (JSON), its board drawn as SVG, the move that led there and its comment, and the move log."""
        last = len(self.states) - 1
        index = last if step is None else max(0, min(int(step), last))
        game = self.states[index]
        view = cf.observe(game, self.seat)
        rounds = game.rules.rounds
        move = ended = None
        svg = render_svg(view, hand=False)  # the hand is the page's own buttons
        if index:
            before = self.states[index - 1]
            who = "you" if before.current_player == self.seat else f"P{before.current_player}"
            move = f"move {index}: {who} {describe_move(game.history[-1][1], you=who == 'you')}"
            if len(game.results) > len(before.results) and index < last:  # looking back at a round's end
                result = game.results[-1]
                how = "blocked" if result.went_out is None else f"P{result.went_out} went out"
                ended = f"Round {len(game.results)} of {rounds} over: {how}"
                svg = render_svg(result.final, numbers=True)
        return json.dumps(
            {
                "view": json.loads(cf.to_json(view)),
                "svg": svg,
                "log": self.log(),
                "bot": self.bot,
                "rounds": rounds,
                "step": index,
                "steps": last,
                "live": index == last,
                "move": move,
                "ended": ended,
                "comment": self.comments.get(index),
            }
        )

    def log(self) -> list[list[object]]:
        """Gets ``[round, player, move]`` for every move of the game, oldest first."""
        return [
            [before.round_index, before.current_player, str(after.history[-1][1])]
            for before, after in itertools.pairwise(self.states)
        ]

    def _apply(self, move: cf.Move) -> None:
        self.states.append(cf.apply(self.game, move))

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
        """Gets the game so far as a JSON game record (setup, moves, and any comments loaded with it)."""
        comments = {number: text for number, text in self.comments.items() if number <= len(self.game.history)}
        return cf.to_json(cf.GameRecord.from_game(self.game, comments=comments), indent=2)

    def position(self) -> str:
        """Gets the round in play in the position notation."""
        return cf.position(self.game)


def new_table(preset: str, players: int, seed: int, bot: str = "greedy", seat: int = 0) -> Table:
    """Deals a new game of the preset ``"trains"`` or ``"cross"`` and seats the person and the bots."""
    return Table(cf.new_game(PRESETS[preset](), players=players, seed=seed), bot, seat)


def load(text: str, bot: str = "greedy", seat: int = 0) -> Table:
    """Rebuilds a table from a JSON game record, every state kept for stepping through; a bad record raises
    InvalidRecordError naming the fault."""
    record = cf.from_json(text, cf.GameRecord)
    states = cf.replay(record)
    return Table(states[-1], bot, seat, states, dict(record.comments))
