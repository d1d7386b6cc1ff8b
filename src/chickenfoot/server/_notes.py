"""The notes nodes send each other through the store (PostgreSQL's ``NOTIFY``): short JSON, one kind each.

* :class:`Moved`: a move was stored (sent in the transaction that stores it), so every node
  following the game applies it and tells its connections; ``request`` names a forwarded move,
  whose node acknowledges it to its mover.
* :class:`Seated`: a seat was claimed (its token's hash, for the nodes checking hellos).
* :class:`Forward`: a move made on a node that does not hold the game's lease, for the node that does.
* :class:`Answer`: that node's answer to a forwarded move it did not play: a refusal, a stale
  move, or ``retry`` (it does not hold the game: take the lease).

Every node hears every note and keeps those about games it has in memory. A note that is not
one of these (another version's, say) is ignored.
"""

from __future__ import annotations

import json
from typing import Any, Literal

import attrs

__all__ = ["Answer", "Forward", "Moved", "Note", "Seated", "read_note"]


@attrs.frozen
class Moved:
    """A move stored at ``seq`` of ``game`` by ``node``."""

    game: str
    seq: int
    move: str
    node: str
    request: str | None = None

    def text(self) -> str:
        """Writes the note."""
        return json.dumps(["moved", self.game, self.seq, self.move, self.node, self.request])


@attrs.frozen
class Seated:
    """A seat of ``game`` claimed on ``node``, with its token's hash."""

    game: str
    seat: int
    token: str
    node: str

    def text(self) -> str:
        """Writes the note."""
        return json.dumps(["seated", self.game, self.seat, self.token, self.node])


@attrs.frozen
class Forward:
    """A move for ``seat`` at ``seq`` of ``game``, made on ``node`` (which checked the seat's token), for ``to``."""

    to: str
    game: str
    seat: int
    seq: int
    move: str
    node: str
    request: str

    def text(self) -> str:
        """Writes the note."""
        return json.dumps(["forward", self.to, self.game, self.seat, self.seq, self.move, self.node, self.request])


@attrs.frozen
class Answer:
    """The owner's answer to ``node``'s forwarded move ``request``: refused, stale, or retry (not held here)."""

    node: str
    request: str
    kind: Literal["refused", "stale", "retry"]
    seq: int = 0
    reason: str = ""
    rule: str | None = None
    status: int = 409

    def text(self) -> str:
        """Writes the note."""
        return json.dumps(["answer", self.node, self.request, self.kind, self.seq, self.reason, self.rule, self.status])


Note = Moved | Seated | Forward | Answer
_KINDS: dict[str, Any] = {"moved": Moved, "seated": Seated, "forward": Forward, "answer": Answer}


def read_note(text: str) -> Note | None:
    """Reads a note another node sent, or ``None`` if it is not one this version knows.

    >>> read_note(Moved("g1", 4, "draw", "node-a").text())
    Moved(game='g1', seq=4, move='draw', node='node-a', request=None)
    >>> read_note('["shout", 1]') is None
    True
    >>> read_note('["moved", "g1", "4", "draw", "node-a", null]') is None  # a field of the wrong type
    True
    """
    try:
        kind, *fields = json.loads(text)
        types = _FIELDS[kind]
        if not len(types) - _OPTIONAL.get(kind, 0) <= len(fields) <= len(types):
            return None
        if not all(_is(value, expected) for value, expected in zip(fields, types, strict=False)):
            return None
        note: Note = _KINDS[kind](*fields)
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    if isinstance(note, Answer) and note.kind not in ("refused", "stale", "retry"):
        return None
    return note


_STR, _INT, _OR_NONE = "str", "int", "str or None"
_FIELDS: dict[str, tuple[str, ...]] = {
    "moved": (_STR, _INT, _STR, _STR, _OR_NONE),
    "seated": (_STR, _INT, _STR, _STR),
    "forward": (_STR, _STR, _INT, _INT, _STR, _STR, _STR),
    "answer": (_STR, _STR, _STR, _INT, _STR, _OR_NONE, _INT),
}
_OPTIONAL = {"moved": 1, "answer": 4}  # the fields with defaults, at the end


def _is(value: object, expected: str) -> bool:
    if expected == _INT:
        return type(value) is int
    return type(value) is str or (expected == _OR_NONE and value is None)
