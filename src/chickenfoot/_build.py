"""A fast private way to build frozen attrs instances on the engine's hot path.

attrs' frozen ``__init__`` stores each field through ``object.__setattr__``, which costs about
100 ns a field on CPython; the engine builds three or four such objects per move. A *builder*
is a plain class with exactly the same slots: the engine fills one with ordinary (fast, slot
specialized) attribute stores, then re-labels it as the frozen class with ``__class__``
assignment. The result is a normal instance of the frozen class, indistinguishable from one its
``__init__`` made (same type, slots, equality, hash, repr, pickling), built in a third of the time.

CPython allows the re-labelling only between classes whose slot layouts match and that add no
``__weakref__`` slot, hence ``weakref_slot=False`` on the classes built this way. Where the
interpreter refuses (another implementation), :func:`builder` returns ``None`` and callers fall
back to the regular constructor.
"""

from __future__ import annotations

from typing import Any

__all__ = ["builder", "new"]

new = object.__new__


def builder(cls: type) -> Any:
    """Gets a mutable class whose instances can be re-labelled as ``cls``, or ``None`` if unsupported."""
    slots = tuple(cls.__dict__.get("__slots__", ()))
    if not slots or "__weakref__" in slots or "__dict__" in slots or cls.__bases__ != (object,):
        return None
    twin: Any = type(f"_{cls.__name__}Builder", (), {"__slots__": slots})
    try:
        probe = new(twin)
        probe.__class__ = cls
    except TypeError:  # pragma: no cover - an interpreter without compatible-layout class assignment
        return None
    return twin
