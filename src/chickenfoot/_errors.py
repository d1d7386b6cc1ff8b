"""The library's errors: few, all under :class:`ValueError`, each with a reason a person can act on."""

from __future__ import annotations

__all__ = ["IllegalMoveError", "InvalidMoveError", "InvalidRecordError", "RulesError"]


class RulesError(ValueError):
    """Raised for a rules configuration that cannot be played, saying what to change."""


class InvalidMoveError(ValueError):
    """Raised when move text cannot be parsed, e.g. ``parse_move("9-5@")``."""


class IllegalMoveError(ValueError):
    """Raised when a well-formed move is not allowed in the position.

    The message says why, e.g. ``"9-5 does not match node 3, which offers a 4"``.
    The state the move was applied to is never changed.
    """


class InvalidRecordError(ValueError):
    """Raised when saved data cannot be read: position text, JSON, a game record, or a view.

    The message names what is wrong (a missing field, a tile held twice, a tile that does not
    fit the node it is placed on, an unsupported version) and where. Nothing else escapes the
    readers: no ``KeyError``, ``TypeError`` or ``IndexError``.
    """
