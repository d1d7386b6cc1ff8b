"""Dealing a round, as a pure function of (rules, players, seed, round) (DEAL-2)."""

from __future__ import annotations

import hashlib
import random

from ._board import Board
from ._rules import Rules, check_seed
from ._state import PlayerIndex, RoundState
from ._tiles import Tile, full_set

__all__ = ["deal_round", "find_center", "open_round", "round_rng", "setup_seat", "starter_seat"]


def round_rng(seed: int, round_index: int) -> random.Random:
    """Gets the random generator for one round's deal (DEAL-2).

    The generator is seeded with an int derived by SHA-256, never ``hash()`` or the global
    generator, so a deal is the same on every machine and Python version.
    """
    digest = hashlib.sha256(f"chickenfoot/{seed}/{round_index}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def _shuffle(rng: random.Random, tiles: list[Tile]) -> None:
    """Shuffles ``tiles`` in place exactly as CPython 3.11's ``random.Random.shuffle`` does.

    Spelled out (Fisher-Yates over ``getrandbits`` with rejection) so a deal depends only on the
    Mersenne Twister stream, never on a library's shuffle (DEAL-2), and runs twice as fast.
    """
    getrandbits = rng.getrandbits
    for i in range(len(tiles) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]


def deal_round(rules: Rules, players: int, seed: int, round_index: int) -> RoundState:
    """Deals round ``round_index`` (0-based): hands, yard, center and first player.

    >>> from chickenfoot import Rules
    >>> state = deal_round(Rules.trains(), players=4, seed=1, round_index=0)
    >>> [len(hand) for hand in state.hands], len(state.yard), str(state.board.center)
    ([11, 11, 11, 11], 10, '9-9')
    """
    rules.check_players(players)  # DEAL-1
    check_seed(seed)
    if type(round_index) is not int or not 0 <= round_index < rules.rounds:
        raise ValueError(
            f"round_index must be a whole number from 0 to {rules.rounds - 1} "
            f"(one round per double, ROUND-1), got {round_index!r}"
        )
    rng = round_rng(seed, round_index)
    double = Tile(*(rules.round_double(round_index),) * 2)
    if rules.deal == "trains":
        return _deal_trains(rules, players, round_index, double, rng)
    return _deal_cross(rules, players, round_index, double, rng)


def _split(tiles: list[Tile], players: int, size: int) -> tuple[list[list[Tile]], list[Tile]]:
    hands = [tiles[i * size : (i + 1) * size] for i in range(players)]
    return hands, tiles[players * size :]


def open_round(
    rules: Rules,
    hands: list[list[Tile]],
    yard: list[Tile],
    center: Tile,
    first: PlayerIndex,
) -> RoundState:
    """Lays ``center`` as node 0 and hands the first turn to ``first``: the round is ready to play (OPEN-1)."""
    players = len(hands)
    return RoundState(
        rules=rules,
        hands=tuple(map(tuple, hands)),
        yard=tuple(yard),
        board=Board.start(center, rules.arms_for(players)),
        current_player=first,
        reserve=rules.reserve_for(players),
    )


def starter_seat(round_index: int, position: int, players: int) -> PlayerIndex:
    """Gets the *trains* starter: players take shuffled tiles in turn from seat ``round_index mod players``,
    so the one who takes the double at ``position`` starts (DEAL-A1)."""
    return (round_index + position) % players


def find_center(rules: Rules, hands: list[list[Tile]], double: Tile) -> tuple[Tile, PlayerIndex | None]:
    """Finds the *cross* center and who places it; ``None`` for the placer when players must draw for it.

    DEAL-B2: whoever holds the round's double. With ``center_fallback="highest_double"`` and nobody
    holding it, the next-highest double held: the highest double anyone holds that is *lower* than
    the round's double (a round never starts above its scheduled double). Nobody holding one
    either means drawing for the round's double, as in DEAL-B2.
    """
    holder = next((seat for seat, hand in enumerate(hands) if any(tile is double for tile in hand)), None)
    if holder is None and rules.center_fallback == "highest_double":
        lower = [(tile.high, seat) for seat, hand in enumerate(hands) for tile in hand if tile.is_double]
        lower = [(value, seat) for value, seat in lower if value < double.high]
        if lower:
            value, holder = max(lower)
            return Tile(value, value), holder
    return double, holder


def setup_seat(round_index: int, players: int) -> PlayerIndex:
    """Gets the seat that draws first when nobody holds the center: ``round_index mod players`` (DEAL-B2)."""
    return round_index % players


def _deal_trains(rules: Rules, players: int, round_index: int, double: Tile, rng: random.Random) -> RoundState:
    # DEAL-A1: players take one shuffled tile each in turn from seat r mod n; whoever takes
    # the round's double is the starter. Only the double's position matters.
    tiles = list(full_set(rules.max_pip))
    _shuffle(rng, tiles)
    # Tiles are interned; comparing their indexes skips Tile's slow Python-level == (it defines __lt__).
    starter = starter_seat(round_index, [tile.index for tile in tiles].index(double.index), players)
    # DEAL-A2: the double is the center; the rest are shuffled again and dealt (DEAL-A3).
    rest = [tile for tile in full_set(rules.max_pip) if tile is not double]
    _shuffle(rng, rest)
    hands, yard = _split(rest, players, rules.hand_size_for(players))
    return open_round(rules, hands, yard, double, first=starter)  # DEAL-A4


def _deal_cross(rules: Rules, players: int, round_index: int, double: Tile, rng: random.Random) -> RoundState:
    tiles = list(full_set(rules.max_pip))
    _shuffle(rng, tiles)
    hands, yard = _split(tiles, players, rules.hand_size_for(players))  # DEAL-B1
    center, holder = find_center(rules, hands, double)
    if holder is None:
        # DEAL-B2: players draw in turn from seat r mod n until one draws the double. This is
        # setup, not play, so the reserve does not stop it (the double may lie anywhere).
        seat = setup_seat(round_index, players)
        while yard[0] is not double:
            hands[seat].append(yard.pop(0))
            seat = (seat + 1) % players
        yard.pop(0)
        holder = seat
    else:
        hands[holder].remove(center)
    return open_round(rules, hands, yard, center, first=(holder + 1) % players)  # DEAL-B3
