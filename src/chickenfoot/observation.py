"""Observation tensors: one fixed-size ``float32`` vector per player, for learning (needs numpy).

Install the ``numpy`` extra (``python -m pip install ".[numpy]"`` from a checkout,
``"chickenfoot[numpy]"`` once it is on PyPI); the OpenSpiel and PettingZoo extras include it.
The vector is built from a :class:`~chickenfoot.PlayerView`, so it holds only what the
player may see. Seats are *relative*: entry 0 of every per-seat
block is ``player``, entry 1 the next player to move after them (TURN-1), and so on, so one
policy can play every seat. With ``S`` tiles in the set, ``V = max_pip + 1`` values, ``n``
players and ``R = max_pip + 1`` rounds, the blocks are, in order:

=====================  =====  ==================================================================
block                  size   meaning
=====================  =====  ==================================================================
``hand``               S      1 for each tile in the player's hand (by ``Tile.index``)
``drawn``              S      1 for the tile the player drew this turn and may or must play
``board``              S      1 for each tile on the board
``open_ends``          V      per value, how many non-pending open ends offer it
``pending_value``      V      one-hot value of the pending node (all 0 when none)
``pending_missing``    1      tiles the pending node still needs (0 when none)
``pending_center``     1      1 while the pending node is the center (OPEN-2)
``center``             V      one-hot value of the round's center double
``hand_sizes``         n      tiles in each hand, relative seats
``yard``               2      tiles in the yard; tiles that may still be drawn (DRAW-1, YARD-1)
``to_move``            n      one-hot relative seat of the player to move (all 0 once over)
``totals``             n      each player's score over the finished rounds, relative seats
``round``              R      one-hot round number (ROUND-1)
=====================  =====  ==================================================================

Counts and scores are raw numbers, not scaled.

The *public history* of the round in play, the main evidence about hidden hands, has its own
vector (:func:`history`, ``S * n + 2 * n`` entries): who played each board tile (``S`` rows of
``n`` relative seats, a 1 where that seat played that tile), then each seat's draws and each
seat's passes this round. It is what the OpenSpiel information-state tensor appends to the
observation; PettingZoo and Gymnasium environments add it on request. On double-9 with 4 players the vector has
3 * 55 + 10 + 10 + 1 + 1 + 10 + 4 + 2 + 4 + 4 + 10 = 221 entries.

>>> import chickenfoot as cf
>>> from chickenfoot.observation import observation, observation_size
>>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
>>> vector = observation(game, player=0)
>>> vector.shape, observation_size(game.rules, 4), int(vector[:55].sum())
((221,), 221, 11)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._io import needs

try:
    import numpy as np
except ModuleNotFoundError as error:  # an optional extra
    raise needs(__name__, error) from error

from ._game import Draw, GameState, Pass, Play, PlayerView, Rules, observe, worst_total

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "blocks",
    "history",
    "history_size",
    "observation",
    "observation_size",
    "upper_bounds",
    "write_history",
    "write_observation",
]


def blocks(rules: Rules, players: int) -> tuple[tuple[str, int, int], ...]:
    """Gets the blocks of the observation vector as ``(name, start, size)``, in order.

    >>> [name for name, _, _ in blocks(Rules.trains(), 4)][:4]
    ['hand', 'drawn', 'board', 'open_ends']
    """
    tiles, values = rules.set_size, rules.max_pip + 1
    sizes = (
        ("hand", tiles),
        ("drawn", tiles),
        ("board", tiles),
        ("open_ends", values),
        ("pending_value", values),
        ("pending_missing", 1),
        ("pending_center", 1),
        ("center", values),
        ("hand_sizes", players),
        ("yard", 2),
        ("to_move", players),
        ("totals", players),
        ("round", rules.rounds),
    )
    found = []
    start = 0
    for name, size in sizes:
        found.append((name, start, size))
        start += size
    return tuple(found)


def observation_size(rules: Rules, players: int) -> int:
    """Gets the length of the observation vector for ``players`` players under ``rules``.

    >>> observation_size(Rules.trains(), 2), observation_size(Rules.cross(max_pip=12), 4)
    (215, 341)
    """
    _, start, size = blocks(rules, players)[-1]
    return start + size


def _view(source: GameState | PlayerView, player: int | None) -> PlayerView:
    if type(source) is PlayerView:
        if player is not None and player != source.player:
            raise ValueError(f"this view belongs to player {source.player}, not player {player}: pass player=None")
        return source
    if type(source) is GameState:
        if player is None:
            raise ValueError("observing a GameState needs the seat: pass player=0 to players - 1")
        return observe(source, player)
    raise TypeError(f"observation takes a GameState and a player, or a PlayerView; got {type(source).__name__}")


def write_observation(source: GameState | PlayerView, player: int | None, out: NDArray[np.float32]) -> None:
    """Writes a player's observation into ``out`` (zeroed first), without allocating a new array.

    ``out`` must be a float32 vector of :func:`observation_size` entries.

    ``source`` is a ``GameState`` with the seat ``player``, or a ``PlayerView``
    (``player`` then ``None``): the vector is built from the view alone, so it cannot leak
    hidden tiles.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.trains(), players=4, seed=7)
    >>> out = np.ones(observation_size(game.rules, 4), np.float32)
    >>> write_observation(game, 1, out)
    >>> bool((out == observation(cf.observe(game, 1))).all())
    True
    """
    view = _view(source, player)
    seat, players = view.player, view.players
    size = observation_size(view.rules, players)
    if not isinstance(out, np.ndarray) or out.shape != (size,) or out.dtype != np.float32:
        got = f"shape {out.shape}, dtype {out.dtype}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"out must be a float32 vector of {size} entries (observation_size), got {got}")
    start = {name: at for name, at, _ in blocks(view.rules, players)}
    out.fill(0)
    board = view.board
    for tile in view.hand:
        out[start["hand"] + tile.index] = 1
    if view.drawn is not None:
        out[start["drawn"] + view.drawn.index] = 1
    for node in board.nodes:
        out[start["board"] + node.tile.index] = 1
    for value, ends in enumerate(board.ends_by_value[: view.rules.max_pip + 1]):
        out[start["open_ends"] + value] = len(ends)
    if board.pending is not None:
        out[start["pending_value"] + board.nodes[board.pending].exposed] = 1
        out[start["pending_missing"]] = board.missing
        out[start["pending_center"]] = board.pending == 0
    out[start["center"] + board.center.high] = 1
    out[start["yard"]] = view.yard_size
    out[start["yard"] + 1] = max(0, view.yard_size - view.reserve)
    for offset in range(players):
        other = (seat + offset) % players
        out[start["hand_sizes"] + offset] = view.hand_sizes[other]
        out[start["totals"] + offset] = view.totals[other]
    if view.current_player is not None:
        out[start["to_move"] + (view.current_player - seat) % players] = 1
    out[start["round"] + min(view.round_index, view.rules.rounds - 1)] = 1


def observation(source: GameState | PlayerView, player: int | None = None) -> NDArray[np.float32]:
    """Gets a player's observation as a new ``float32`` vector (blocks above).

    ``source`` is a ``GameState`` with the seat ``player``, or a ``PlayerView``.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=1)
    >>> observation(game, 2).dtype, bool((observation(game, 2) == observation(cf.observe(game, 2))).all())
    (dtype('float32'), True)
    """
    view = _view(source, player)
    out = np.zeros(observation_size(view.rules, view.players), np.float32)
    write_observation(view, None, out)
    return out


def history_size(rules: Rules, players: int) -> int:
    """Gets the length of the public history vector: ``S * n`` for who played what, ``n`` draws, ``n`` passes.

    >>> history_size(Rules.trains(), 2)
    114
    """
    return rules.set_size * players + 2 * players


def write_history(source: GameState | PlayerView, player: int | None, out: NDArray[np.float32]) -> None:
    """Writes the public history of the round in play, seen from a player, into ``out`` (zeroed first).

    ``out`` must be a float32 vector of :func:`history_size` entries (see the module doc).

    >>> import chickenfoot as cf
    >>> game = cf.apply(cf.new_game(cf.Rules.trains(), players=2, seed=1), cf.Play(cf.Tile(9, 8), 0))
    >>> out = np.ones(history_size(game.rules, 2), np.float32)
    >>> write_history(game, 1, out)
    >>> int(out[cf.Tile(9, 8).index * 2 + 1]), int(out.sum())  # played by the seat after player 1
    (1, 1)
    """
    view = _view(source, player)
    seat, players, tiles = view.player, view.players, view.rules.set_size
    size = history_size(view.rules, players)
    if not isinstance(out, np.ndarray) or out.shape != (size,) or out.dtype != np.float32:
        got = f"shape {out.shape}, dtype {out.dtype}" if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"out must be a float32 vector of {size} entries (history_size), got {got}")
    out.fill(0)
    draws, passes = tiles * players, tiles * players + players
    for mover, move in view.history:
        relative = (mover - seat) % players
        if type(move) is Play:
            out[move.tile.index * players + relative] = 1
        elif type(move) is Draw:
            out[draws + relative] += 1
        elif type(move) is Pass:
            out[passes + relative] += 1


def history(source: GameState | PlayerView, player: int | None = None) -> NDArray[np.float32]:
    """Gets the public history of the round in play, seen from a player, as a new ``float32`` vector.

    >>> import chickenfoot as cf
    >>> game = cf.new_game(cf.Rules.cross(), players=3, seed=1)
    >>> history(game, 0).shape == (history_size(game.rules, 3),)
    True
    """
    view = _view(source, player)
    out = np.zeros(history_size(view.rules, view.players), np.float32)
    write_history(view, None, out)
    return out


def upper_bounds(rules: Rules, players: int, rounds: int, *, with_history: bool = False) -> NDArray[np.float32]:
    """Gets the largest value each entry can take in a game of ``rounds`` rounds (every entry is 0 or more).

    With ``with_history`` the bounds of :func:`history` follow: a seat draws at most every
    tile and passes at most once a turn. Learning environments declare these as their spaces.

    >>> bounds = upper_bounds(Rules.trains(), 2, rounds=1, with_history=True)
    >>> bounds.shape == (observation_size(Rules.trains(), 2) + history_size(Rules.trains(), 2),), float(bounds.max())
    (True, 495.0)
    """
    tiles = rules.set_size
    largest = {
        "open_ends": rules.max_pip,
        "pending_missing": 8,
        "hand_sizes": tiles,
        "yard": tiles,
        "totals": worst_total(rules, rounds),
    }
    high = np.ones(observation_size(rules, players), np.float32)
    for name, start, size in blocks(rules, players):
        high[start : start + size] = largest.get(name, 1)
    if not with_history:
        return high
    played = np.ones(tiles * players, np.float32)
    draws = np.full(players, tiles, np.float32)
    passes = np.full(players, (players + 2) * tiles, np.float32)
    return np.concatenate([high, played, draws, passes])
