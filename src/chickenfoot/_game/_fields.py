"""Public values that show a core object: each field declared once, read from the core when asked for.

A :class:`~chickenfoot.Board`, :class:`~chickenfoot.RoundState` or :class:`~chickenfoot.GameState`
holds one object of the compiled core (:mod:`chickenfoot._core`) and no copy of what it shows,
so the engine builds one small object per move, and the tuples of tiles only when someone asks.
Each is an attrs class whose fields are declared once, as annotations with their docstrings in
the class body (what ``attrs.fields``, ``attrs.evolve``, type checkers and the docs read);
:func:`read_from_core` then makes each field a property that reads it from the core.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

__all__ = ["read_from_core"]


def read_from_core(cls: type[Any], **readers: Callable[[Any], Any]) -> None:
    """Makes each field of the attrs class ``cls`` a property computed by ``readers[name](value)``.

    Every field needs its reader, and every reader its field, so a field added to the class
    cannot be left unread. A value pickles as its class called with its fields by name, so it is
    checked again when it is read back.
    """
    names = [field.name for field in attrs.fields(cls)]
    if sorted(names) != sorted(readers):
        raise TypeError(f"{cls.__name__}'s fields {names} and readers {sorted(readers)} differ")
    for name in names:
        setattr(cls, name, property(readers[name]))
    setattr(cls, "__reduce__", _reduce)  # noqa: B010 - a method installed on a class mypy already knows


def _reduce(value: Any) -> tuple[Any, ...]:
    return (_rebuilt, (type(value), {field.name: getattr(value, field.name) for field in attrs.fields(type(value))}))


def _rebuilt(cls: type[Any], fields: dict[str, Any]) -> Any:
    """Rebuilds a pickled value with its constructor, which checks it."""
    return cls(**fields)
