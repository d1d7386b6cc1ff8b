"""A replay you can scrub, for Jupyter: a recorded game as one self-contained HTML widget.

:class:`ReplayWidget` turns a :class:`~chickenfoot.GameRecord` (or the states of a game, as
:func:`~chickenfoot.replay` returns them) into HTML with a slider and buttons that step through
the game move by move: the board, the hands of every seat or of the one chosen, the move played
and its comment, the totals. Nothing runs on a server and nothing is loaded: each round's board
is drawn once, in advance, by :func:`chickenfoot.svg.render_svg`, with every tile the round
will hold; a few lines of JavaScript show the tiles placed so far and move the marks (the
pending node, the last play, where the player to move can play). A record displays this way by
itself in a notebook (``_repr_html_``).

The page holds the whole record: choosing a seat chooses what is shown, not what a reader of
the HTML could find.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from ._game import GameState, Play, RoundState, apply, legal_moves
from ._io import GameRecord, replay
from .render import describe_move
from .svg import render_svg

__all__ = ["ReplayWidget"]

_COUNTER = itertools.count(1)  # two widgets of one game on one page still get their own ids


class ReplayWidget:
    """Shows a recorded game as a steppable HTML widget (``_repr_html_``), with no server.

    ``game`` is a record, or a game's states oldest first, each following the one before by one
    move. ``seat`` chooses whose hand shows at first (``None``: every hand; the widget can
    switch); ``numbers`` draws node numbers on the boards; ``start`` is the step shown first
    (0 is the deal; the default is the last, the game as it ended).

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1)
    >>> for _ in range(3):
    ...     game = cf.apply(game, cf.legal_moves(game)[0])
    >>> widget = ReplayWidget(cf.GameRecord.from_game(game, comments={2: "why not"}))
    >>> len(widget.frames), widget.frames[2]["text"], widget.frames[2]["comment"]
    (4, 'move 2 of 3, round 1 of 7: P0 plays 6-4 onto #0', 'why not')
    >>> widget._repr_html_().startswith('<div class="cf-replay"')
    True
    """

    def __init__(
        self,
        game: GameRecord | Sequence[GameState],
        *,
        seat: int | None = None,
        numbers: bool = True,
        start: int | None = None,
    ) -> None:
        if isinstance(game, GameRecord):
            record: GameRecord | None = game
            states = replay(game)
        else:
            record, states = None, _checked(game)
        players = states[0].players
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat must be None (every hand) or a seat from 0 to {players - 1}, got {seat!r}")
        self.seat = seat
        self.names = list(record.names) if record is not None and record.names else [""] * players
        self.boards: list[str] = []  # each round's board, drawn once with every tile it will hold
        self.frames: list[dict[str, Any]] = []
        comments = record.comments if record is not None else {}
        round_comments = record.round_comments if record is not None else {}
        self._frames(states, numbers, comments, round_comments)
        last = len(self.frames) - 1
        if start is not None and (type(start) is not int or not 0 <= start <= last):
            raise ValueError(f"start must be a step from 0 to {last}, got {start!r}")
        self.start = last if start is None else start

    def _frames(
        self,
        states: Sequence[GameState],
        numbers: bool,
        comments: Mapping[int, str],
        round_comments: Mapping[int, str],
    ) -> None:
        """Builds one frame per step: each round's deal, then each move (a round's last on its final board)."""
        rules = states[0].rules
        total = len(states[-1].history)
        # Each round's board holds every tile the round will: its final state, or the last one given.
        end = states[-1]
        finals = {index: result.final for index, result in enumerate(end.results)}
        if not end.is_over:
            finals[end.round_index] = end.round
        drawn: dict[int, int] = {}  # the index in self.boards of each round's board, by round index

        def board_of(index: int) -> int:
            if index not in drawn:
                drawn[index] = len(self.boards)
                self.boards.append(render_svg(finals[index].board, numbers=numbers))
            return drawn[index]

        def frame(state: GameState, round_: RoundState, index: int, text: str, comment: str | None) -> None:
            self.frames.append({"board": board_of(index), **_frame(state, round_, text, comment)})

        def deal(state: GameState) -> None:
            index = state.round_index
            text = f"{_round(index, rules.rounds)}: dealt, {self._who(state.round.current_player)} to move"
            frame(state, state.round, index, text, round_comments.get(index + 1))

        first = states[0]
        if first.round.history:  # states that start mid-round start at a move
            number = len(first.history)
            frame(first, first.round, first.round_index, f"move {number} of {total}", comments.get(number))
        else:
            deal(first)
        for before, after in itertools.pairwise(states):
            number = len(after.history)
            index = before.round_index
            move = after.history[-1][1]
            said = f"{self._who(before.round.current_player)} {describe_move(move)}"
            text = f"move {number} of {total}, {_round(index, rules.rounds)}: {said}"
            if len(after.results) > len(before.results):  # the move ended the round: show how
                result = after.results[-1]
                ended = "blocked" if result.went_out is None else f"{self._who(result.went_out)} went out"
                scores = ", ".join(f"P{seat} {score}" for seat, score in enumerate(result.scores))
                text = f"{text}; round over: {ended} (scores {scores})"
                frame(after, result.final, index, text, comments.get(number))
                if not after.is_over:
                    deal(after)
            else:
                frame(after, after.round, index, text, comments.get(number))

    def _who(self, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        name = self.names[seat]
        return f"P{seat} {name}" if name else f"P{seat}"

    def _repr_html_(self) -> str:
        """Writes the widget as HTML for Jupyter: the boards, the controls, the frames and the script."""
        names = [self._who(seat) for seat in range(len(self.names))]
        data = {"frames": self.frames, "names": names, "seat": self.seat, "start": self.start}
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=True)
        # Safe inside <script>: no "<", ">" or "&" can end the element or start markup.
        payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        digest = hashlib.sha1(payload.encode(), usedforsecurity=False).hexdigest()[:8]
        ident = f"cf-replay-{digest}-{next(_COUNTER)}"
        options = [f'<option value="all"{"" if self.seat is not None else " selected"}>every seat</option>']
        options += [
            f'<option value="{seat}"{" selected" if seat == self.seat else ""}>{escape(name)}</option>'
            for seat, name in enumerate(names)
        ]
        shown = self.frames[self.start]["board"]  # without a script, the step it starts at (its whole round)
        boards = "".join(
            f'<div class="cf-replay-round" data-board="{index}"{"" if index == shown else " hidden"}>{svg}</div>'
            for index, svg in enumerate(self.boards)
        )
        last = len(self.frames) - 1
        return (
            f'<div class="cf-replay" id="{ident}" tabindex="0">'
            f"<style>{_asset('_replay.css')}</style>"
            '<div class="cf-replay-bar">'
            '<button type="button" data-go="first" title="the start (Home)">|&#x25C0;</button>'
            '<button type="button" data-go="back" title="one move back (left arrow)">&#x25C0;</button>'
            f'<input type="range" min="0" max="{last}" value="{self.start}" aria-label="step">'
            '<button type="button" data-go="next" title="one move on (right arrow)">&#x25B6;</button>'
            '<button type="button" data-go="last" title="the end (End)">&#x25B6;|</button>'
            f"<label>hands: <select>{''.join(options)}</select></label>"
            "</div>"
            f'<p class="cf-replay-move">{escape(self.frames[self.start]["text"])}</p>'
            '<p class="cf-replay-comment" hidden></p>'
            f'<div class="cf-replay-board">{boards}</div>'
            '<div class="cf-replay-hands"></div>'
            '<p class="cf-replay-totals"></p>'
            '<noscript class="cf-replay-static">The replay steps with JavaScript; without it, this is how the game '
            "stands at its end.</noscript>"
            f'<script type="application/json" class="cf-replay-data">{payload}</script>'
            f'<script>{_asset("_replay.js")}\nchickenfootReplay(document.getElementById("{ident}"));</script>'
            "</div>"
        )

    def save(self, path: str | Path, *, title: str = "chickenfoot replay") -> Path:
        """Writes the widget as a standalone HTML page to ``path`` (to open in a browser); returns the path."""
        target = Path(path)
        page = (
            f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title></head>'
            f"<body>\n{self._repr_html_()}\n</body></html>\n"
        )
        target.write_text(page, encoding="utf-8")
        return target


def _round(index: int, rounds: int) -> str:
    return f"round {index + 1} of {rounds}"


def _asset(name: str) -> str:
    return resources.files("chickenfoot._pictures").joinpath(name).read_text(encoding="utf-8")


def _checked(states: Sequence[GameState]) -> tuple[GameState, ...]:
    """Checks that ``states`` are one game's, oldest first, each one move after the one before."""
    states = tuple(states)
    if not states or not all(type(state) is GameState for state in states):
        raise TypeError("ReplayWidget takes a GameRecord or a sequence of GameState (as chickenfoot.replay returns)")
    for number, (before, after) in enumerate(itertools.pairwise(states), start=1):
        history = after.history
        if len(history) != len(before.history) + 1 or apply(before, history[-1][1]) != after:
            raise ValueError(
                f"states[{number}] does not follow states[{number - 1}] by one move: pass a game's states "
                "oldest first, as chickenfoot.replay returns them"
            )
    return states


def _frame(state: GameState, round_: RoundState, text: str, comment: str | None) -> dict[str, Any]:
    """Gets what one step of the replay shows beside its board: the nodes, the marks, the hands, the text."""
    mover = None if round_.is_over else round_.current_player
    plays = [move for move in legal_moves(state) if type(move) is Play] if mover is not None else []
    history = round_.history
    return {
        "nodes": len(round_.board),
        "pending": round_.board.pending,
        "last": len(round_.board) - 1 if history and type(history[-1][1]) is Play else None,
        "mover": mover,
        "playable": sorted({move.onto for move in plays}),
        "playable_tiles": sorted({str(move.tile) for move in plays}),
        "hands": [" ".join(map(str, sorted(hand, reverse=True))) for hand in round_.hands],
        "drawn": None if round_.drawn is None or mover is None else str(round_.drawn),
        "yard": len(round_.yard),
        "totals": list(state.totals),
        "text": text,
        "comment": comment,
    }
