"""The messages between a client and the server: what a client may send, and the frames it is sent.

A client sends JSON text: ``hello`` once (which seat, with its token; or none, to watch), then
``move`` messages. The server sends ``sync`` (everything the connection may know: the table,
the log of moves, its view), ``state`` after each stored move (the move and the new view),
``ack`` to the mover once the move is stored, ``refused`` with a reason and a rule ID,
``stale`` for a move made at a state that is gone, and ``seats`` when a seat is claimed. A
message that breaks the protocol closes the connection with a code and a reason. The JSON
Schema of every message is :func:`protocol_schema`; the docs page "Serving games" describes
them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import attrs

import chickenfoot as cf

__all__ = [
    "CLOSE_BINARY",
    "CLOSE_GOING_AWAY",
    "CLOSE_MALFORMED",
    "CLOSE_NO_GAME",
    "CLOSE_POLICY",
    "CLOSE_REPLACED",
    "CLOSE_TOKEN",
    "CLOSE_TOO_BIG",
    "CLOSE_FULL",
    "Hello",
    "MoveMessage",
    "ProtocolError",
    "parse_message",
    "protocol_schema",
]

CLOSE_GOING_AWAY = 1001
"""The server is stopping: reconnect later."""
CLOSE_BINARY = 1003
"""A binary frame: the protocol is JSON text."""
CLOSE_POLICY = 1008
"""Too many messages, or too slow to take the frames sent."""
CLOSE_TOO_BIG = 1009
"""A message over the size cap."""
CLOSE_FULL = 1013
"""The game has as many spectators as it takes, or too many are joining: try again later."""
CLOSE_MALFORMED = 4400
"""A message that is not one of the protocol's (not JSON, not an object, an unknown type, a bad field)."""
CLOSE_TOKEN = 4401
"""A seat asked for without its token, or with another's."""
CLOSE_NO_GAME = 4404
"""No such game on this server."""
CLOSE_REPLACED = 4410
"""The seat was opened on a newer connection, past the connections a seat may have."""

MOVE_TEXT = 40  # the longest move a client may write ("18-17@1234567" is 13)


class ProtocolError(Exception):
    """Raised for a message that breaks the protocol; the connection is closed with ``code`` and ``reason``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@attrs.frozen
class Hello:
    """A client's first message: the seat it takes (with the seat's token), or ``None`` to watch."""

    seat: int | None
    token: str | None
    svg: bool


@attrs.frozen
class MoveMessage:
    """A move, written in the move notation, made at ``seq`` (the number of moves the client has seen)."""

    seq: int
    move: str


def _malformed(reason: str) -> ProtocolError:
    return ProtocolError(CLOSE_MALFORMED, reason)


def _shown(value: object) -> str:
    return json.dumps(value)[:40]


def parse_message(text: str) -> Hello | MoveMessage:
    """Reads a client's message, or raises :class:`ProtocolError` saying what is wrong with it.

    Members the protocol does not name are ignored, so that later clients may send more.

    >>> parse_message('{"type": "move", "seq": 4, "move": "9-5@3"}')
    MoveMessage(seq=4, move='9-5@3')
    >>> try:
    ...     parse_message('[1, 2]')
    ... except ProtocolError as error:
    ...     print(error.code, error.reason)
    4400 a message is a JSON object with a "type", got [1, 2]
    """
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _malformed(f"not JSON: {error}") from None
    if type(message) is not dict:
        raise _malformed(f'a message is a JSON object with a "type", got {_shown(message)}')
    kind = message.get("type")
    if kind == "hello":
        seat = message.get("seat")
        if seat is not None and (type(seat) is not int or seat < 0):
            raise _malformed(f'"seat" is a seat number (0 or more), or null to watch; got {_shown(seat)}')
        token = message.get("token")
        if token is not None and type(token) is not str:
            raise _malformed(f'"token" is the seat\'s token, as text; got {_shown(token)}')
        svg = message.get("svg", False)
        if type(svg) is not bool:
            raise _malformed(f'"svg" is true or false; got {_shown(svg)}')
        return Hello(seat, token, svg)
    if kind == "move":
        seq = message.get("seq")
        if type(seq) is not int or seq < 0:
            raise _malformed(f'a move\'s "seq" is the number of moves seen, an integer of 0 or more; got {_shown(seq)}')
        move = message.get("move")
        if type(move) is not str or not 0 < len(move) <= MOVE_TEXT:
            raise _malformed(f'a move\'s "move" is a move in the notation, like "9-5@3"; got {_shown(move)}')
        return MoveMessage(seq, move)
    raise _malformed(f'"type" is "hello" or "move"; got {_shown(kind)}')


_SPECTATOR = '{"type": "spectator", '


def seat_view(public: str, view: cf.PlayerView) -> str:
    """Writes a seat's view document from the spectator document of the same state and the seat's own four fields.

    The public part of a state is written once for every connection to it; the result holds what
    ``cf.to_json(view)`` holds (a test checks it, field by field, at every state it plays).
    """
    if not public.startswith(_SPECTATOR):
        raise ValueError("public is chickenfoot.to_json of a SpectatorView")
    own = json.dumps(
        {
            "player": view.player,
            "hand": [str(tile) for tile in view.hand],
            "drawn": None if view.drawn is None else str(view.drawn),
            "legal_moves": [str(move) for move in view.legal_moves],
        }
    )
    return '{"type": "view", ' + own[1:-1] + ", " + public[len(_SPECTATOR) :]


def protocol_schema() -> dict[str, Any]:
    """Loads the JSON Schema (draft 2020-12) of the protocol's messages, shipped in the package.

    >>> protocol_schema()["$defs"]["move"]["required"]
    ['type', 'seq', 'move']
    """
    text = resources.files("chickenfoot.server").joinpath("protocol.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
