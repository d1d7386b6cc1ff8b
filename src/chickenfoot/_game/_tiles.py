"""Tiles and domino sets (SET-1, SET-2)."""

from __future__ import annotations

import re
from typing import ClassVar, TypeAlias

import attrs
from typing_extensions import Self

from ._errors import InvalidMoveError, RulesError

__all__ = ["MAX_SUPPORTED_PIP", "TILE_PATTERN", "Pip", "Tile", "full_set"]

Pip: TypeAlias = int
"""A pip value, 0 (blank) up to the set's highest value."""

MAX_SUPPORTED_PIP = 18
TILE_PATTERN = "([0-9]{1,2})-([0-9]{1,2})"
"""A tile in notation, ``HIGH-LOW`` in ASCII digits: the one pattern every text reader builds on."""
# Tile.parse is lenient about spaces (" 9 - 5 "); the notations (moves, positions) are exact.
_TILE_TEXT = re.compile(r"\s*([0-9]{1,2})\s*-\s*([0-9]{1,2})\s*", re.ASCII)


@attrs.frozen(init=False, eq=False, repr=False)
class Tile:
    """Represents a domino: an unordered pair of pip values, written high first.

    Tiles are interned, so ``Tile(9, 5) is Tile(5, 9)`` and equality and hashing
    are as fast as for small ints (the engine compares tiles on every move). They are totally
    ordered as :func:`full_set` lists them, by :attr:`index`.

    >>> Tile(5, 9)
    Tile(9, 5)
    >>> str(Tile(9, 5)), Tile(9, 5).pips, Tile(4, 4).is_double
    ('9-5', 14, True)
    >>> Tile(1, 1) <= Tile(2, 0), sorted([Tile(9, 5), Tile(0, 0), Tile(3, 3)])
    (True, [Tile(0, 0), Tile(3, 3), Tile(9, 5)])
    """

    high: Pip
    """The larger pip value."""
    low: Pip
    """The smaller pip value."""
    index: int
    """The tile's position in every double-N set, ``high * (high + 1) // 2 + low``."""
    mask: int
    """A bit per pip value the tile carries, for fast matching against open ends."""

    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    def __new__(cls, a: Pip, b: Pip) -> Self:
        if not (type(a) is int and type(b) is int and 0 <= a <= MAX_SUPPORTED_PIP and 0 <= b <= MAX_SUPPORTED_PIP):
            if type(a) is not int or type(b) is not int:
                raise TypeError(f"a tile's pips are ints, like Tile(9, 5); got {a!r:.40} and {b!r:.40}")
            raise InvalidMoveError(f"a tile's pips run from 0 to {MAX_SUPPORTED_PIP}, got {a} and {b}")
        key = (a, b) if a >= b else (b, a)
        tile = cls._interned.get(key)
        if tile is None:
            high, low = key
            tile = object.__new__(cls)
            object.__setattr__(tile, "high", high)
            object.__setattr__(tile, "low", low)
            object.__setattr__(tile, "index", high * (high + 1) // 2 + low)
            object.__setattr__(tile, "mask", (1 << high) | (1 << low))
            cls._interned[key] = tile
        return tile  # type: ignore[return-value]

    def __init__(self, a: Pip, b: Pip) -> None:
        """Gets the interned tile carrying ``a`` and ``b``, in either order."""

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parses ``"9-5"`` (either order; ASCII digits, spaces allowed around them) into a tile.

        Raises :class:`InvalidMoveError`, the error of a tile that names nothing, for any other text,
        as ``Tile(9, 19)`` does for pips past 18, and :class:`TypeError` for anything but text.

        >>> Tile.parse("5-9")
        Tile(9, 5)
        >>> Tile.parse("9-19")
        Traceback (most recent call last):
        ...
        chickenfoot.InvalidMoveError: '9-19' is not a tile: pip values run from 0 to 18
        """
        if not isinstance(text, str):
            raise TypeError(f"Tile.parse reads text like '9-5', got {type(text).__name__}")
        match = _TILE_TEXT.fullmatch(text)
        if match is None:
            raise InvalidMoveError(f"{text!r:.40} is not a tile: write two pip values joined by '-', like '9-5'")
        high, low = int(match[1]), int(match[2])
        if max(high, low) > MAX_SUPPORTED_PIP:
            raise InvalidMoveError(f"{text!r} is not a tile: pip values run from 0 to {MAX_SUPPORTED_PIP}")
        return cls(high, low)

    @property
    def pips(self) -> int:
        """Gets the pip sum, the tile's score value unless the rules say otherwise (SET-2)."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """Tells whether both halves carry the same value."""
        return self.high == self.low

    def carries(self, value: Pip) -> bool:
        """Tells whether either half of the tile carries ``value``."""
        return self.high == value or self.low == value

    def other(self, value: Pip) -> Pip:
        """Gets the value on the half not matched against ``value``."""
        return self.low if self.high == value else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    # Totally ordered by index (the set's order, full_set's): low tiles first, then by the low half.
    def __lt__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if type(other) is not Tile:
            return NotImplemented
        return self.index >= other.index

    # Interned, so equality stays identity; the hash is the tile's index rather than its address,
    # so sets and dicts of tiles iterate in the same order in every process (DEAL-2's promise
    # extends to search over determinized states, which runs in worker processes).
    def __hash__(self) -> int:
        return self.index


_SETS: dict[int, tuple[Tile, ...]] = {}


def full_set(max_pip: Pip = 9) -> tuple[Tile, ...]:
    """Gets every tile of a double-``max_pip`` set once, in a fixed order (SET-1).

    >>> len(full_set(9)), full_set(9)[:3]
    (55, (Tile(0, 0), Tile(1, 0), Tile(1, 1)))
    """
    tiles = _SETS.get(max_pip)
    if tiles is None:
        if type(max_pip) is not int:
            raise TypeError(f"max_pip is an int, like 9 for double-9; got {max_pip!r:.40}")
        if not 0 <= max_pip <= MAX_SUPPORTED_PIP:
            raise RulesError(f"a domino set runs from double-0 to double-{MAX_SUPPORTED_PIP}, got double-{max_pip}")
        tiles = tuple(Tile(high, low) for high in range(max_pip + 1) for low in range(high + 1))
        _SETS[max_pip] = tiles
    return tiles


TILES = full_set(MAX_SUPPORTED_PIP)
"""Every tile of the largest set, by its index (the core's tile number)."""
