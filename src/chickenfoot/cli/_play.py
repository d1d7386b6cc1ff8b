"""``chickenfoot play``: a person against bots in the terminal.

The loop never trusts its input: an empty line, nonsense, a move that is not allowed or the end
of input each get a message and leave the game as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from .._engine import apply, legal_moves, new_game
from .._errors import IllegalMoveError, InvalidMoveError
from .._moves import Draw, Move, Play, parse_move
from .._rules import Rules
from .._state import GameState
from .._views import observe
from ..bots import make_bot
from ..tournament import _derive
from ._records import save_record
from ._show import ending, layout_panel, score_table, tiles_text

__all__ = ["describe", "play_session"]

HELP = (
    "Type the number of a move, or a move in notation (9-5@3 puts 9-5 onto node 3; draw; pass).\n"
    "Also: board (show the layout again), save FILE (save the game record), help, quit."
)


def describe(move: Move, *, you: bool = False) -> str:
    """Says a move in words, as a bot's (``plays``) or as the person's (``play``)."""
    ending = "" if you else "s"
    if type(move) is Play:
        return f"play{ending} {move.tile} onto #{move.onto}"
    return f"draw{ending}" if type(move) is Draw else ("pass" if you else "passes")


class _Session:
    def __init__(
        self,
        console: Console,
        game: GameState,
        seat: int,
        bots: Sequence[str],
        seed: int,
        save_path: Path | None,
        read_line: Callable[[str], str],
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.names = list(bots)  # by seat, the person's name at ``seat``
        self.bots = {
            player: make_bot(bots[player], seed=_derive(seed, "play", player))
            for player in range(game.players)
            if player != seat
        }
        self.save_path = save_path
        self.read_line = read_line
        self.saved_at: int | None = None  # how many moves the game had when last saved
        self.warned = False  # whether quitting unsaved was warned about since the last move

    @property
    def unsaved(self) -> bool:
        """Tells whether leaving now would lose moves: no --save, and moves made since any save."""
        return self.save_path is None and self.saved_at != len(self.game.moves)

    def say(self, text: str, style: str = "") -> None:
        self.console.print(text, style=style, highlight=False, markup=False)

    def show_turn(self) -> None:
        game = self.game
        round_ = game.round
        title = f"Round {game.round_index + 1}: {round_.double}-{round_.double}"
        self.console.print(layout_panel(round_, title, self.console.width))
        others = ", ".join(
            f"P{player} {self.names[player]}: {len(hand)}"
            for player, hand in enumerate(round_.hands)
            if player != self.seat
        )
        drawable = max(0, len(round_.yard) - round_.reserve)
        self.say(f"tiles in hand: {others} | yard: {len(round_.yard)} ({drawable} may be drawn)")
        self.say(f"totals: {'  '.join(f'P{p}={t}' for p, t in enumerate(game.totals))}")
        drawn = f" (just drew {round_.drawn})" if round_.drawn is not None else ""
        self.say(f"your hand{drawn}: {tiles_text(round_.hands[self.seat])}", style="bold")
        for number, move in enumerate(legal_moves(game), start=1):
            self.say(f"  {number:>2}. {move}  ({describe(move)})")

    def apply(self, move: Move) -> None:
        before = len(self.game.results)
        self.game = apply(self.game, move)
        if len(self.game.results) > before:
            result = self.game.results[-1]
            title = f"Round {before + 1} over: {ending(result, self.names)}"
            self.console.print(layout_panel(result.final, title, self.console.width))
            self.say("round scores: " + "  ".join(f"P{p}={s}" for p, s in enumerate(result.scores)))

    def save(self, target: str) -> None:
        if not target:
            self.say("save needs a file name: save FILE", style="yellow")
            return
        try:
            path = save_record(self.game, target, names=self.names, event="chickenfoot play")
        except OSError as error:
            self.say(f"could not save to {target}: {error.strerror or error}", style="red")
            return
        self.saved_at = len(self.game.moves)
        self.say(f"saved the game record to {path} ({len(self.game.moves)} moves)", style="green")

    def choose(self, line: str) -> Move | None:
        """Reads a move from ``line``, or explains why it is not one and returns ``None``."""
        moves = legal_moves(self.game)
        if line.isdigit():
            number = int(line)
            if 1 <= number <= len(moves):
                return moves[number - 1]
            self.say(f"there is no move {number}: choose 1 to {len(moves)}", style="yellow")
            return None
        try:
            move = parse_move(line)
        except InvalidMoveError as error:
            self.say(f"{error}. Type 'help' for what you can type.", style="yellow")
            return None
        try:
            apply(self.game, move)  # validates only: the game changes in self.apply
        except IllegalMoveError as error:
            self.say(f"not allowed: {error}", style="yellow")
            return None
        return move

    def human_turn(self) -> bool:
        """Plays the person's turn; returns False when they leave."""
        self.show_turn()
        while True:
            try:
                line = self.read_line("your move> ").strip()
            except EOFError:
                unsaved = " (not saved: use --save FILE to keep games)" if self.unsaved else ""
                self.say(f"\nend of input: leaving the game{unsaved}.")
                return False
            command, _, argument = line.partition(" ")
            command = command.lower()
            if not line:
                self.say("type a move number, a move like 9-5@3, or 'help'", style="yellow")
            elif command in ("help", "?"):
                self.say(HELP)
            elif command in ("quit", "exit"):
                if self.unsaved and not self.warned:
                    self.warned = True
                    self.say(
                        "this game is not saved: type 'save FILE' to keep it, or quit again to leave", style="yellow"
                    )
                    continue
                return False
            elif command in ("board", "show"):
                self.show_turn()
            elif command == "save":
                self.save(argument.strip())
            else:
                move = self.choose(line)
                if move is not None:
                    self.warned = False
                    self.say(f"you {describe(move, you=True)}")
                    self.apply(move)
                    return True

    def run(self) -> int:
        self.say(HELP)
        while not self.game.is_over:
            player = self.game.round.current_player
            if player == self.seat:
                if not self.human_turn():
                    self.finish(complete=False)
                    return 0
                continue
            move = self.bots[player](observe(self.game, player))
            self.say(f"P{player} {self.names[player]} {describe(move)}")
            self.apply(move)
        self.finish(complete=True)
        return 0

    def finish(self, complete: bool) -> None:
        if self.game.results:
            self.console.print(score_table(self.game, self.names, self.console.width))
        if complete:
            names = ", ".join(f"P{seat} {self.names[seat]}" for seat in self.game.winners)
            self.say(f"game over; won by {names}", style="bold")
        if self.save_path is not None:
            self.save(str(self.save_path))


def play_session(
    console: Console,
    rules: Rules,
    players: int,
    seat: int,
    seed: int,
    bots: Sequence[str],
    save_path: Path | None,
    read_line: Callable[[str], str],
) -> int:
    """Runs a game of a person (at ``seat``) against ``bots`` (one name per seat); returns the exit code."""
    game = new_game(rules, players=players, seed=seed)
    return _Session(console, game, seat, bots, seed, save_path, read_line).run()
