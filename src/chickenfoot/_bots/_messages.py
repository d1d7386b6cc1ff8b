"""The bot protocol's messages: the handshake a program writes, the view it is sent, the answers and info it writes.

:mod:`chickenfoot._bots._process` runs the program and holds the conversation; this module reads
and writes each message, checking what a program wrote against the protocol (docs: "Bots in
any language").
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypeAlias

import attrs

from .._game import Move, PlayerView, parse_move

__all__ = ["PROTOCOL_VERSION", "Info", "MoveInfo", "handshake_problem", "view_message"]

_SHOWN = 80  # characters of a program's line quoted in a fault

PROTOCOL_VERSION = 2
"""The newest version of the bot protocol; a program names the version it speaks in its handshake (1 or 2)."""

ProtocolVersion: TypeAlias = Literal[1, 2]

NAME_LENGTH = 64
"""The longest bot name a handshake may give, in characters."""

_NAME_BLANK = re.compile(r"\S")  # the handshake schema's patterns, searched as JSON Schema does
_NAME_CONTROL = re.compile(r"[\u0000-\u001f\u007f-\u009f]")


def _quote(text: object) -> str:
    text = text.strip() if isinstance(text, str) else json.dumps(text)
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def _is_number(value: object) -> bool:
    return type(value) in (int, float)


def _is_count(value: object) -> bool:
    """Tells whether JSON Schema reads ``value`` as an integer of 0 or more (2.0 is one; True is not)."""
    return _is_number(value) and float(value).is_integer() and value >= 0  # type: ignore[arg-type,operator]


def handshake_problem(hello: object) -> str | None:
    """Says what is wrong with a decoded handshake, or ``None`` if the protocol's JSON Schema accepts it.

    The check is the schema's, to the letter: ``protocol`` is 1 or 2 (``true`` is not 1), and
    ``bot`` is a name of 1 to 64 characters, not blank, without control characters.

    >>> handshake_problem({"bot": "heaviest", "protocol": 2}) is None
    True
    >>> handshake_problem({"bot": "t", "protocol": True})
    '"protocol" must be 1 or 2, got true'
    """
    if not isinstance(hello, dict):
        return f'the handshake must be a JSON object like {{"bot": NAME, "protocol": 2}}, got {json.dumps(hello)}'
    protocol = hello.get("protocol")
    if "protocol" not in hello or not _is_number(protocol) or protocol not in (1, 2):
        shown = "nothing" if "protocol" not in hello else json.dumps(protocol)
        return f'"protocol" must be 1 or 2, got {shown}'
    name = hello.get("bot")
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= NAME_LENGTH
        or not _NAME_BLANK.search(name)
        or _NAME_CONTROL.search(name)
    ):
        shown = "nothing" if "bot" not in hello else json.dumps(name)[:_SHOWN]
        return (
            f'"bot" must be a name of 1 to {NAME_LENGTH} characters, not blank and without control characters, '
            f"got {shown}"
        )
    return None


@attrs.frozen
class MoveInfo:
    """Holds what a program said about one of its candidate moves (an entry of an info line's ``moves``)."""

    move: Move
    """The move."""
    score: float | None = None
    """Its evaluation, in the program's units (by convention the expected score of the round: lower is better)."""
    low: float | None = None
    """The low end of an interval around ``score``."""
    high: float | None = None
    """The high end of an interval around ``score``."""
    visits: int | None = None
    """How often a search tried it."""


@attrs.frozen
class Info:
    """Holds one ``info`` line of a version 2 program: what it thought before an answer. Every field is optional.

    >>> from chickenfoot import Draw, Play, Tile
    >>> info = Info(score=-3.5, line=(Play(Tile(9, 5), onto=3), Draw()), moves=(MoveInfo(Draw(), visits=12),))
    >>> info.moves[0].visits, info.nodes
    (12, None)
    """

    score: float | None = None
    """Its evaluation of the position, in its own units (by convention the expected score of the round)."""
    nodes: int | None = None
    """How many positions it searched."""
    line: tuple[Move, ...] = ()
    """The principal line: the moves it expects, its own first."""
    text: str | None = None
    """Free text."""
    moves: tuple[MoveInfo, ...] = ()
    """What it thought of each candidate move."""


def _number(message: dict[str, Any], key: str) -> float | None:
    if key not in message:
        return None
    value = message[key]
    if not _is_number(value):
        raise ValueError(f'"{key}" must be a number')
    return float(value)


def _count(message: dict[str, Any], key: str) -> int | None:
    if key not in message:
        return None
    value = message[key]
    if not _is_count(value):
        raise ValueError(f'"{key}" must be a whole number of 0 or more')
    return int(value)


def _move(text: object) -> Move:
    if not isinstance(text, str):
        raise ValueError(f"a move is text in move notation, got {json.dumps(text)[:_SHOWN]}")
    return parse_move(text)  # an InvalidMoveError is a ValueError


def _info(message: dict[str, Any]) -> Info:
    """Reads an info message, raising :class:`ValueError` on a field that breaks the schema."""
    line = message.get("line", [])
    moves = message.get("moves", [])
    text = message.get("text")
    if not isinstance(line, list) or not isinstance(moves, list):
        raise ValueError('"line" and "moves" must be lists')
    if "text" in message and not isinstance(text, str):
        raise ValueError('"text" must be text')
    entries = []
    for entry in moves:
        if not isinstance(entry, dict) or "move" not in entry:
            raise ValueError('each of "moves" must be an object with a "move"')
        entries.append(
            MoveInfo(
                _move(entry["move"]),
                score=_number(entry, "score"),
                low=_number(entry, "low"),
                high=_number(entry, "high"),
                visits=_count(entry, "visits"),
            )
        )
    return Info(
        score=_number(message, "score"),
        nodes=_count(message, "nodes"),
        line=tuple(_move(move) for move in line),
        text=text,
        moves=tuple(entries),
    )


def view_message(view: PlayerView, *, request: int | None = None) -> dict[str, Any]:
    """Writes a player's view as the protocol's JSON object: tiles and moves in notation, the legal moves included.

    With ``request`` (the request id, from 1) it is the version 2 message, else version 1's.

    >>> import chickenfoot as cf
    >>> message = view_message(cf.observe(cf.new_game(cf.Rules.trains(), players=2, seed=1), 0))
    >>> message["type"], message["protocol"], message["player"], message["legal_moves"][:1]
    ('view', 1, 0, ['9-8@0'])
    >>> message = view_message(cf.observe(cf.new_game(cf.Rules.trains(), players=2, seed=1), 0), request=7)
    >>> message["protocol"], message["id"]
    (2, 7)
    """
    head: dict[str, Any] = {"type": "view", "protocol": 1}
    if request is not None:
        head = {"type": "view", "protocol": 2, "id": request}
    return {
        **head,
        "rules": attrs.asdict(view.rules),
        "players": view.players,
        "player": view.player,
        "round_index": view.round_index,
        "hand": [str(tile) for tile in view.hand],
        "board": [{"tile": str(node.tile), "parent": node.parent} for node in view.board.nodes],
        "hand_sizes": list(view.hand_sizes),
        "yard_size": view.yard_size,
        "reserve": view.reserve,
        "drawn": None if view.drawn is None else str(view.drawn),
        "current_player": view.current_player,
        "totals": list(view.totals),
        "round_doubles": list(view.round_doubles),
        "round_scores": [list(scores) for scores in view.round_scores],
        "round_went_out": list(view.round_went_out),
        "history": [[player, str(move)] for player, move in view.history],
        "legal_moves": [str(move) for move in view.legal_moves],
    }
