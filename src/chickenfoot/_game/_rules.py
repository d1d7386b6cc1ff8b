"""The rules object: two presets and every published variant as an option.

Options left as ``None`` mean "as the preset's rule text says" and are resolved per player
count when a round is dealt (see :meth:`Rules.hand_size_for`, :meth:`Rules.arms_for`,
:meth:`Rules.reserve_for`).
"""

from __future__ import annotations

from typing import Any, Final, Literal, TypeAlias

import attrs
from typing_extensions import Self

from .._core import MAX_ARMS as _MAX_ARMS, MAX_PLAYERS as _MAX_PLAYERS
from ._errors import RulesError
from ._tiles import Pip, Tile

__all__ = [
    "PRESETS",
    "DealStyle",
    "DrawnTilePolicy",
    "Rules",
    "TieBreak",
    "CenterFallback",
    "SUPPORTED_SETS",
    "MAX_ARMS",
    "MAX_OPTION",
    "MAX_PLAYERS",
    "MAX_SEED",
    "check_seed",
    "max_game_moves",
    "max_round_moves",
]

DealStyle: TypeAlias = Literal["trains", "cross"]
PRESETS: tuple[DealStyle, ...] = ("trains", "cross")  # the names Rules.preset takes
"""How a round is dealt: ``"trains"`` (DEAL-A*) or ``"cross"`` (DEAL-B*)."""
DrawnTilePolicy: TypeAlias = Literal["must_play", "may_play"]
"""Whether a playable drawn tile must be played (DRAW-2) or may be (DRAW-3)."""
TieBreak: TypeAlias = Literal["share", "zero_rounds"]
"""How a tie on the lowest total is broken: shared (TIE-1) or by zero-score rounds (TIE-2)."""
CenterFallback: TypeAlias = Literal["draw", "highest_double"]
"""*cross* deal, nobody holds the round's double: draw for it (DEAL-B2) or start with the next-highest double held."""

SUPPORTED_SETS = (6, 9, 12, 15, 18)  # SET-1

# The library's limits, one set of numbers enforced where a game is set up (Rules, new_game)
# and by every reader, so whatever the engine can play can also be written and read back.
MAX_PLAYERS: Final = _MAX_PLAYERS
"""The most players a game may have (DEAL-1 allows fewer on small sets); the core's, which sizes its tables by it."""
MAX_OPTION = 999_999_999
"""The largest value of an integer option of :class:`Rules` (nine digits, as the position notation reads)."""
MAX_SEED = 2**256 - 1
"""The largest seed, in magnitude: seeds run from ``-MAX_SEED`` to ``MAX_SEED`` (a SHA-256 digest fits)."""

# DEAL-A3: hand sizes on double-9 by player count.
_TRAINS_HAND_SIZES = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}
_CROSS_HAND_SIZE = 7  # DEAL-B1
MAX_ARMS: Final = _MAX_ARMS
"""The most arms a center takes (OPEN-1: "up to 8", *trains*); the core's, which sizes its tables by it."""


def _check_int(name: str, value: object, low: int, high: int = MAX_OPTION, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    what = "None (the preset's rule) or a whole number" if optional else "a whole number"
    if type(value) is not int:
        raise TypeError(f"{name} must be {what} (an int), got {value!r:.40}")
    if not low <= value <= high:
        raise RulesError(f"{name} must be {what} from {low} to {high:,}, got {value!r:.40}")


def check_seed(seed: object) -> None:
    """Raises :class:`RulesError` unless ``seed`` is a whole number from ``-MAX_SEED`` to ``MAX_SEED`` (DEAL-2).

    A seed of another type than int raises :class:`TypeError`.

    >>> check_seed(2**300)
    Traceback (most recent call last):
    ...
    chickenfoot.RulesError: a seed is a whole number of at most 256 bits (-MAX_SEED to MAX_SEED), got one of 301 bits
    """
    if type(seed) is not int:
        raise TypeError(f"a seed is a whole number (an int), got {seed!r:.40}")
    if abs(seed) > MAX_SEED:
        raise RulesError(
            f"a seed is a whole number of at most 256 bits (-MAX_SEED to MAX_SEED), got one of {seed.bit_length()} bits"
        )


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if type(value) is not str:
        raise TypeError(f"{name} must be one of {', '.join(map(repr, choices))} (a str), got {value!r:.40}")
    if value not in choices:
        raise RulesError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")


@attrs.frozen
class Rules:
    """Describes a complete rules configuration. Build one from a preset and override options by keyword.

    >>> Rules.trains().deal, Rules.cross().double_blank_value
    ('trains', 50)
    >>> Rules.cross(max_pip=12, center_arms=6).center_arms   # the "double chicken foot" center
    6
    >>> Rules.trains(max_pip=10)
    Traceback (most recent call last):
    ...
    chickenfoot.RulesError: max_pip must be one of 6, 9, 12, 15, 18 (a double-N set), got 10

    Every option, with the rule it changes:
    """

    max_pip: Pip = 9
    """SET-1: the set's highest pip; also the first round's double (ROUND-1)."""
    deal: DealStyle = "trains"
    """DEAL-A*/DEAL-B*: how starters, hands and the center are found: ``"trains"`` or ``"cross"``."""
    hand_size: int | None = None
    """DEAL-A3/DEAL-B1: tiles per hand; ``None`` uses the preset's table (scaled for other sets)."""
    center_arms: int | None = None
    """OPEN-1: arms the center takes; ``None``: one per player (*trains*) or 4 (*cross*)."""
    drawn_tile: DrawnTilePolicy = "must_play"
    """DRAW-2/DRAW-3: whether a playable drawn tile must be played (``"must_play"``) or may be (``"may_play"``)."""
    draw_until_playable: bool = False
    """Variant of DRAW-1: keep drawing (within one turn) until a playable tile turns up."""
    reserve: int | None = None
    """YARD-1: tiles that stay in the yard; ``None``: 2 with two players else 1 (*trains*), 0 (*cross*)."""
    double_blank_value: int | None = None
    """SET-2/SCORE-2: what 0-0 scores in hand; ``None`` counts its pips (0)."""
    blank_value: int | None = None
    """SET-2 variant: what each blank half scores (25 in some tables); ``None`` counts 0."""
    center_fallback: CenterFallback = "draw"
    """DEAL-B2 variant: when nobody holds the round's double in a *cross* deal, ``"draw"`` for it or let the
    ``"highest_double"`` held below it start (the next-highest; drawing if nobody holds a lower one)."""
    unfillable_foot_ends_round: bool = False
    """END-2 variant: a chicken foot that can never get its three toes ends the round at once."""
    double_out_penalty: int = 0
    """Variant of SCORE-1: what a player scores for going out with a double as their last tile."""
    tie_break: TieBreak = "share"
    """TIE-1/TIE-2: how a tie on the lowest total is settled: ``"share"`` the win or count ``"zero_rounds"``."""

    def __attrs_post_init__(self) -> None:
        if type(self.max_pip) is not int:
            raise TypeError(
                f"max_pip must be one of {', '.join(map(str, SUPPORTED_SETS))} (an int), got {self.max_pip!r:.40}"
            )
        if self.max_pip not in SUPPORTED_SETS:
            raise RulesError(
                f"max_pip must be one of {', '.join(map(str, SUPPORTED_SETS))} (a double-N set), got {self.max_pip!r}"
            )
        _check_choice("deal", self.deal, ("trains", "cross"))
        _check_choice("drawn_tile", self.drawn_tile, ("must_play", "may_play"))
        _check_choice("center_fallback", self.center_fallback, ("draw", "highest_double"))
        _check_choice("tie_break", self.tie_break, ("share", "zero_rounds"))
        for flag in ("draw_until_playable", "unfillable_foot_ends_round"):
            if type(getattr(self, flag)) is not bool:
                raise TypeError(f"{flag} must be True or False, got {getattr(self, flag)!r:.40}")
        _check_int("hand_size", self.hand_size, 1)
        if self.deal == "cross" and self.hand_size == 1:
            # DEAL-B2: the starter places the center from their hand, which must not leave it empty.
            raise RulesError("the cross deal needs hand_size 2 or more: the starter places the center from their hand")
        # OPEN-1: the center's value is carried by max_pip other tiles, so no more arms than that.
        _check_int("center_arms", self.center_arms, 1, min(MAX_ARMS, self.max_pip))
        _check_int("reserve", self.reserve, 0)
        _check_int("double_blank_value", self.double_blank_value, 0)
        _check_int("blank_value", self.blank_value, 0)
        _check_int("double_out_penalty", self.double_out_penalty, 0, optional=False)
        if self.center_fallback == "highest_double" and self.deal != "cross":
            raise RulesError(
                "center_fallback='highest_double' applies to the cross deal only "
                "(the trains deal sets the round's double aside before dealing): use deal='cross'"
            )

    @classmethod
    def trains(cls, **options: Any) -> Self:
        """Builds the *trains* preset (the *trains* rules), with any option overridden by keyword.

        >>> Rules.trains(double_blank_value=50).double_blank_value
        50
        """
        return cls._preset({"deal": "trains", "drawn_tile": "must_play", "tie_break": "share"}, options)

    @classmethod
    def cross(cls, **options: Any) -> Self:
        """Builds the *cross* preset (the *cross* rules), with any option overridden by keyword.

        >>> Rules.cross().center_arms, Rules.cross().drawn_tile
        (4, 'may_play')
        """
        preset = {
            "deal": "cross",
            "center_arms": 4,
            "drawn_tile": "may_play",
            "reserve": 0,
            "double_blank_value": 50,  # SCORE-2
            "tie_break": "zero_rounds",
        }
        return cls._preset(preset, options)

    @classmethod
    def preset(cls, name: str, **options: Any) -> Self:
        """Builds a preset by name, ``"trains"`` or ``"cross"``, with any option overridden by keyword.

        The command line, the position notation and the adapters read presets through this one door.

        >>> Rules.preset("cross", max_pip=12) == Rules.cross(max_pip=12)
        True
        >>> Rules.preset("mexican")
        Traceback (most recent call last):
        ...
        chickenfoot.RulesError: unknown preset 'mexican': use 'trains' or 'cross'
        """
        if name == "trains":
            return cls.trains(**options)
        if name == "cross":
            return cls.cross(**options)
        raise RulesError(f"unknown preset {name!r}: use 'trains' or 'cross'")

    @classmethod
    def _preset(cls, preset: dict[str, Any], options: dict[str, Any]) -> Self:
        unknown = sorted(set(options) - set(attrs.fields_dict(cls)))
        if unknown:
            known = ", ".join(attrs.fields_dict(cls))
            raise RulesError(f"unknown rules option(s) {', '.join(unknown)}; the options are: {known}")
        return cls(**{**preset, **options})

    # -- derived settings ------------------------------------------------------------------

    @property
    def rounds(self) -> int:
        """Gets the number of rounds: one per double from N-N down to 0-0 (ROUND-1)."""
        return self.max_pip + 1

    @property
    def set_size(self) -> int:
        """Gets the number of tiles in the set, (N+1)(N+2)/2 (SET-1)."""
        return (self.max_pip + 1) * (self.max_pip + 2) // 2

    def round_double(self, round_index: int) -> Pip:
        """Gets the double that round ``round_index`` (0-based) starts with: N-r (ROUND-1)."""
        return self.max_pip - round_index

    def hand_size_for(self, players: int) -> int:
        """Gets the tiles dealt to each of ``players`` (DEAL-A3, DEAL-B1).

        *trains* uses the double-9 table, scaled by set size for other sets (rounded down).
        """
        if self.hand_size is not None:
            return self.hand_size
        if self.deal == "cross":
            return _CROSS_HAND_SIZE
        base = _TRAINS_HAND_SIZES.get(players, 5)
        return max(1, base * self.set_size // 55)

    def arms_for(self, players: int) -> int:
        """Gets the arms the center takes (OPEN-1): one per player in *trains*, 4 in *cross*."""
        if self.center_arms is not None:
            return self.center_arms
        return players if self.deal == "trains" else 4

    def reserve_for(self, players: int) -> int:
        """Gets the tiles that must stay in the yard (YARD-1)."""
        if self.reserve is not None:
            return self.reserve
        if self.deal == "cross":
            return 0
        return 2 if players == 2 else 1

    def tile_value(self, tile: Tile) -> int:
        """Gets what ``tile`` scores left in a hand (SET-2, SCORE-2).

        >>> Rules.cross().tile_value(Tile(0, 0)), Rules.trains(blank_value=25).tile_value(Tile(5, 0))
        (50, 30)
        """
        if tile.high == 0 and self.double_blank_value is not None:
            return self.double_blank_value
        if self.blank_value is not None and tile.low == 0:
            return tile.high + self.blank_value * (2 if tile.high == 0 else 1)
        return tile.high + tile.low

    def check_players(self, players: int) -> None:
        """Raises :class:`RulesError` unless ``players`` can be dealt under these rules (DEAL-1).

        A count that is not an int raises :class:`TypeError`.
        """
        if type(players) is not int:
            raise TypeError(f"players must be an int, 2 or more; got {players!r:.40} ({type(players).__name__})")
        if not 2 <= players <= MAX_PLAYERS:
            raise RulesError(f"a game needs 2 or more players, at most {MAX_PLAYERS}; got {players!r:.40}")
        hand = self.hand_size_for(players)
        reserve = self.reserve_for(players)
        arms = self.arms_for(players)
        need = players * hand + reserve + 1
        if need > self.set_size:
            bigger = next((n for n in SUPPORTED_SETS if (n + 1) * (n + 2) // 2 >= need), None)
            fix = (
                f"use a double-{bigger} set or fewer tiles each" if bigger else "use fewer players or fewer tiles each"
            )
            extra = f" and {reserve} in reserve" if reserve else ""
            kept = f", {reserve} in reserve" if reserve else ""
            raise RulesError(
                f"{players} players with {hand} tiles each{extra} need {need} tiles "
                f"({players * hand} in hands{kept}, 1 for the center double); "
                f"double-{self.max_pip} has {self.set_size}: {fix}"
            )
        if self.deal == "trains" and arms < players and self.center_arms is not None:
            raise RulesError(
                f"the trains center takes at least one arm per player: {arms} arms for {players} players; "
                f"set center_arms to {players} or more (up to {min(MAX_ARMS, self.max_pip)})"
            )
        if arms > MAX_ARMS:
            raise RulesError(
                f"the trains center takes one arm per player and at most {MAX_ARMS}: "
                f"{players} players is too many; play with {MAX_ARMS} or fewer"
            )
        if arms > self.max_pip:
            if self.deal == "trains" and self.center_arms is None:  # one arm per player
                fix = f"play with {self.max_pip} or fewer players"
            else:
                fix = f"set center_arms to {self.max_pip} or fewer"
            raise RulesError(
                f"the center takes {arms} arms but only {self.max_pip} other tiles carry its value on "
                f"double-{self.max_pip}: use a larger set or {fix}"
            )


def max_round_moves(rules: Rules, players: int) -> int:
    """Bounds the moves in one round: no round under ``rules`` with ``players`` has more.

    At most ``S - 1`` plays and ``S`` draws from a set of ``S`` tiles, a pass after each draw, and
    at most ``players - 1`` passes in a row without a draw between plays (END-2 ends the round
    before a full circle of passes).
    """
    return (players + 2) * rules.set_size


def max_game_moves(rules: Rules, players: int) -> int:
    """Bounds the moves in one game: every round at :func:`max_round_moves` (ROUND-1)."""
    return rules.rounds * max_round_moves(rules, players)
