"""``chickenfoot play``: a person against bots in the terminal, from a new deal or a saved game.

The loop never trusts its input: an empty line, nonsense, a move that is not allowed or the end
of input each get a message and leave the game as it was. A line is a command when its first
word is one of :data:`COMMANDS` (each a method of the session, so a new one is one entry), else
a move: its number in the menu, or the move in the notation.

Moves are numbered as everywhere else, from 1 (``move 6`` is the sixth move of the game, as
``replay`` and a record's comments number it); the menu's numbers are only the choices of this
turn.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

import click
from rich.console import Console

from .._bots import analyse, choose, make_bot
from .._game import (
    BotSpecError,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Play,
    apply,
    legal_moves,
    observe,
    parse_move,
)
from .._io import MAX_COMMENT, GameRecord
from .._tournament import check_starts, derive_seed
from ..render import describe_move
from ._records import save_record
from ._show import SIMULATIONS, analysis_table, ending, fit, layout_panel, plural, refusal, round_title, score_table

__all__ = ["COMMANDS", "Command", "move_menu", "play_session"]

Outcome = Literal["again", "moved", "leave"]
"""What a command did to the turn: nothing (ask again), played a move, or left the game."""


def move_menu(moves: Sequence[Move]) -> tuple[tuple[Move, ...], ...]:
    """Sorts and groups moves for the menu: a group per tile, highest tile first and its nodes in
    order, then drawing and passing; the menu numbers them in this order.

    >>> from chickenfoot import Draw, Play, Tile
    >>> menu = move_menu([Play(Tile(8, 3), 2), Play(Tile(8, 8), 2), Play(Tile(8, 3), 1), Draw()])
    >>> [[str(move) for move in group] for group in menu]
    [['8-8@2'], ['8-3@1', '8-3@2'], ['draw']]
    """
    plays = sorted((move for move in moves if type(move) is Play), key=lambda m: (-m.tile.high, -m.tile.low, m.onto))
    groups = [tuple(group) for _, group in itertools.groupby(plays, key=lambda move: move.tile)]
    return (*groups, *((move,) for move in moves if type(move) is not Play))


class Command(NamedTuple):
    """Describes a command the person may type at the prompt."""

    usage: str
    """How it is typed, like ``save [FILE]``."""
    summary: str
    """What it does, in a few words."""
    run: Callable[[_Session, str], Outcome]
    """The session's method that runs it, given the rest of the line."""


class _Session:
    def __init__(
        self,
        console: Console,
        game: GameState,
        seat: int,
        names: Sequence[str],
        save_path: Path | None,
        read_line: Callable[[str], str],
        loaded: tuple[Path, GameRecord] | None = None,
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.names = list(names)  # by seat, the person's name at ``seat``
        self.bots = {
            player: make_bot(names[player], seed=derive_seed(game.seed, "play", player))
            for player in range(game.players)
            if player != seat
        }
        self.save_path = save_path
        self.read_line = read_line
        # A loaded game keeps its record's event, date, comments and tags, and saves back to its file.
        self.target = save_path or (loaded[0] if loaded is not None else None)
        record = loaded[1] if loaded is not None else None
        self.event = record.event if record is not None and record.event else "chickenfoot play"
        self.date = record.date if record is not None else None
        self.comments = dict(record.comments) if record is not None else {}
        self.round_comments = dict(record.round_comments) if record is not None else {}
        self.tags = dict(record.tags) if record is not None else {}
        self.saved = self.snapshot() if loaded is not None else None  # what the file last written holds
        self.warned = False  # whether quitting unsaved was warned about since the last move
        self.menu: tuple[Move, ...] = ()  # this turn's moves, in the menu's order

    def snapshot(self) -> tuple[int, tuple[tuple[int, str], ...]]:
        """Gets what a save would write that can change: the moves made and the comments."""
        return len(self.game.history), tuple(self.comments.items())

    @property
    def width(self) -> int:
        return self.console.width

    @property
    def unsaved(self) -> bool:
        """Tells whether leaving now would lose something: no --save, and moves or comments since any save."""
        return self.save_path is None and self.saved != self.snapshot()

    def say(self, text: str, style: str = "") -> None:
        self.console.print(text, style=style, highlight=False, markup=False, soft_wrap=False)

    def say_lines(self, lines: Sequence[str], style: str = "") -> None:
        for line in lines:
            self.say(line, style)

    # -- showing ---------------------------------------------------------------------------

    def show_turn(self) -> None:
        game = self.game
        round_ = game.round
        title = f"{round_title(game.round_index, game.rules.rounds)}: {round_.double}-{round_.double}"
        self.console.print(layout_panel(round_, title, self.width))
        others = [
            f"P{player} {self.names[player]} ({len(hand)})"
            for player, hand in enumerate(round_.hands)
            if player != self.seat
        ]
        self.say_lines(fit("tiles in hand: ", others, self.width))
        drawable = max(0, len(round_.yard) - round_.reserve)
        may = "none" if not drawable else "all" if drawable == len(round_.yard) else str(drawable)
        yard = f"yard: {plural(len(round_.yard), 'tile')}" + (f", {may} may be drawn" if round_.yard else "")
        self.say(yard)
        self.say_lines(fit("totals: ", [f"P{p} {t}" for p, t in enumerate(game.totals)], self.width))
        hand = sorted(round_.hands[self.seat], reverse=True)
        drawn = f", just drew {round_.drawn}" if round_.drawn is not None else ""
        head = f"your hand ({plural(len(hand), 'tile')}{drawn}): "
        self.say_lines(fit(head, [f"[{tile}]" for tile in hand], self.width, separator=" "), style="bold")
        self.show_menu()

    def show_menu(self) -> None:
        groups = move_menu(legal_moves(self.game))
        self.menu = tuple(move for group in groups for move in group)
        self.say("your only move:" if len(self.menu) == 1 else f"your {len(self.menu)} moves:")
        digits = len(str(len(self.menu)))
        numbers = itertools.count(1)
        for group in groups:
            entries = [f"{next(numbers):>{digits}}. {move}" for move in group]
            self.say_lines(fit("  ", entries, self.width, separator="   "))

    def announce(self, player: int, move: Move) -> None:
        """Says the move just played, numbered as in the game record."""
        who = "you" if player == self.seat else f"P{player} {self.names[player]}"
        self.say(f"move {len(self.game.history) + 1}: {who} {describe_move(move, you=player == self.seat)}")

    def apply(self, move: Move) -> None:
        before = len(self.game.results)
        self.announce(self.game.round.current_player, move)
        self.game = apply(self.game, move)
        if len(self.game.results) > before:
            result = self.game.results[-1]
            title = f"{round_title(before, self.game.rules.rounds)} over: {ending(result, self.names)}"
            self.console.print(layout_panel(result.final, title, self.width))
            scores = [f"P{p} {s}" for p, s in enumerate(result.scores)]
            self.say_lines(fit("round scores: ", scores, self.width))

    # -- commands --------------------------------------------------------------------------

    def command_help(self, argument: str) -> Outcome:
        intro = "Type a move's number, or the move: 9-5@3 puts 9-5 onto node 3; draw; pass."
        self.say_lines(fit("", intro.split(" "), self.width, separator=" "))
        column = max(len(command.usage) for command in COMMANDS.values()) + 4
        for command in COMMANDS.values():
            # Wrapped by words under the summary's first word, so no phrase is cut at the edge.
            head = f"  {command.usage:<{column - 2}}"
            self.say_lines(fit(head, _phrases(command.summary), self.width, separator=" "))
        return "again"

    def command_board(self, argument: str) -> Outcome:
        self.show_turn()
        return "again"

    def command_hint(self, argument: str) -> Outcome:

        analysis = analyse(observe(self.game, self.seat), simulations=SIMULATIONS)
        self.console.print(analysis_table(analysis, limit=5))
        return "again"

    def command_save(self, argument: str) -> Outcome:
        target = argument or (str(self.target) if self.target is not None else "")
        if not target:
            self.say("save needs a file name: save FILE", style="yellow")
            return "again"
        self.save(target)
        return "again"

    def command_comment(self, argument: str) -> Outcome:
        number = len(self.game.history)
        if not number:
            self.say("there is no move to comment on yet: comment after the first move", style="yellow")
        elif not argument:
            self.say("comment needs its text: comment TEXT (a note on the last move)", style="yellow")
        elif len(argument) > MAX_COMMENT:
            self.say(f"a comment holds at most {MAX_COMMENT:,} characters, this one {len(argument):,}", style="yellow")
        else:
            replaced = number in self.comments
            self.comments[number] = argument
            self.say(f"{'replaced the' if replaced else 'noted a'} comment on move {number}", style="green")
        return "again"

    def command_quit(self, argument: str) -> Outcome:
        if self.unsaved and not self.warned:
            self.warned = True
            self.say("this game is not saved: type 'save FILE' to keep it, or quit again to leave", style="yellow")
            return "again"
        return "leave"

    # -- playing ---------------------------------------------------------------------------

    def save(self, target: str) -> None:
        try:
            path = save_record(
                self.game,
                target,
                names=self.names,
                event=self.event,
                date=self.date,
                comments=self.comments,
                round_comments=self.round_comments,
                tags=self.tags,
            )
        except OSError as error:
            self.say(f"could not save to {target}: {error.strerror or error}", style="red")
            return
        self.saved = self.snapshot()
        self.say(f"saved the game record to {path} ({plural(len(self.game.history), 'move')})", style="green")

    def choose(self, line: str) -> Move | None:
        """Reads a move from ``line``, or explains why it is not one and returns ``None``."""
        if line.isdigit():
            number, count = int(line), len(self.menu)
            if 1 <= number <= count:
                return self.menu[number - 1]
            choices = "the only move is 1" if count == 1 else f"choose 1 to {count}"
            self.say(f"there is no move {number} in the list: {choices}", style="yellow")
            return None
        try:
            move = parse_move(line)
        except InvalidMoveError as error:
            self.say(f"{error}. Type 'help' for what you can type.", style="yellow")
            return None
        try:
            apply(self.game, move)  # validates only: the game changes in self.apply
        except IllegalMoveError as error:
            self.say(f"not allowed: {refusal(error)}", style="yellow")
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
            word, _, argument = line.partition(" ")
            command = COMMANDS.get(ALIASES.get(word.lower(), word.lower()))
            if not line:
                self.say("type a move number, a move like 9-5@3, or 'help'", style="yellow")
            elif command is not None:
                outcome = command.run(self, argument.strip())
                if outcome != "again":
                    return outcome == "moved"
            else:
                move = self.choose(line)
                if move is not None:
                    self.warned = False
                    self.apply(move)
                    return True

    def run(self) -> int:
        """Plays the game to its end or until the person leaves; Ctrl-C leaves as ``quit`` does, exit status 130."""
        self.say("Type a move's number or the move (9-5@3 puts 9-5 onto node 3); 'help' for more.")
        try:
            return self.play()
        except KeyboardInterrupt:
            unsaved = " It was not saved (--save FILE keeps a game)." if self.unsaved else ""
            self.say(f"\ninterrupted (Ctrl-C): leaving the game.{unsaved}", style="yellow")
            self.finish(complete=False)
            return 130

    def play(self) -> int:
        """Plays on: the bots' moves, and the person's turns at the prompt."""
        while not self.game.is_over:
            player = self.game.round.current_player
            if player == self.seat:
                if not self.human_turn():
                    self.finish(complete=False)
                    return 0
                continue
            self.apply(choose(self.bots[player], self.game, player))
        self.finish(complete=True)
        return 0

    def finish(self, complete: bool) -> None:
        if self.game.results:
            self.console.print(score_table(self.game, self.names, self.width))
        if complete:
            names = ", ".join(f"P{seat} {self.names[seat]}" for seat in self.game.winners)
            self.say(f"game over; won by {names}", style="bold")
        if self.save_path is not None:
            self.save(str(self.save_path))


def _phrases(text: str) -> list[str]:
    """Splits help text into what a line may not break: words, and whole brackets.

    >>> _phrases("the search's estimate (as chickenfoot analyse)")
    ['the', "search's", 'estimate', '(as chickenfoot analyse)']
    """
    return re.findall(r"\([^)]*\)[^\s]*|\S+", text)


COMMANDS: dict[str, Command] = {
    "board": Command("board", "show the layout and your moves again", _Session.command_board),
    "hint": Command("hint", "the search's estimate of your best moves (as chickenfoot analyse)", _Session.command_hint),
    "comment": Command("comment TEXT", "note something on the last move, for the record", _Session.command_comment),
    "save": Command("save [FILE]", "save the game record (no FILE: to --save's or --load's)", _Session.command_save),
    "help": Command("help", "list what you can type", _Session.command_help),
    "quit": Command("quit", "leave the game (it warns once if the game is not saved)", _Session.command_quit),
}
"""The commands the prompt takes, by name, in the order ``help`` lists them."""
ALIASES = {"?": "help", "show": "board", "exit": "quit", "note": "comment"}


def play_session(
    console: Console,
    game: GameState,
    seat: int,
    names: Sequence[str],
    save_path: Path | None,
    read_line: Callable[[str], str],
    loaded: tuple[Path, GameRecord] | None = None,
) -> int:
    """Plays ``game`` on from where it stands, the person at ``seat`` and the bots named in ``names``
    (one name per seat) elsewhere; returns the exit code.

    ``loaded`` is the file and record the game was resumed from: the record's event, date,
    comments and tags are kept, and ``save`` with no file name saves back to that file.
    """
    try:
        session = _Session(console, game, seat, names, save_path, read_line, loaded)
        check_starts(list(session.bots.values()))  # a program that cannot start stops here, before the game
    except BotSpecError as error:
        raise click.ClickException(str(error)) from None
    return session.run()
