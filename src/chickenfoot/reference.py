"""The whole rules of Chicken Foot in one plain file: a teaching copy, and an oracle for the engine.

Each rule of the specification is a commented block below, named by its ID, in the order the
specification states them. Nothing here is fast, and nothing is shared with the engine: a tile is
a pair ``(high, low)``, a move is its notation (``"9-5@3"``, ``"draw"``, ``"pass"``), a state is
one of the frozen classes below, a node's room is counted from its children, and the legal plays
are every tile in hand tried against every open node. It imports nothing of the package and reads
the rules through the documented options of :class:`chickenfoot.Rules`.

>>> import chickenfoot as cf
>>> from chickenfoot import reference
>>> game = reference.new_game(cf.Rules.trains(), players=4, seed=7)
>>> game.round.nodes, reference.legal_moves(game)
((Node(tile=(9, 9), parent=None, exposed=9),), ('9-3@0',))
>>> reference.apply(game, "9-3@0").round.history
((3, '9-3@0'),)
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, replace
from typing import Protocol, TypeAlias, overload

__all__ = [
    "Game",
    "Move",
    "Node",
    "Options",
    "Result",
    "Round",
    "Tile",
    "apply",
    "deal",
    "deal_tiles",
    "legal_moves",
    "new_game",
    "open_nodes",
    "perft",
    "score_round",
    "tile_value",
    "tiles",
    "decide_winners",
]

Tile: TypeAlias = tuple[int, int]
"""A tile as its two values, the higher first: ``(9, 5)`` is 9-5."""
Move: TypeAlias = str
"""A move in the engine's notation: ``"9-5@3"`` (play 9-5 onto node 3), ``"draw"`` or ``"pass"``."""


class Options(Protocol):
    """The rules options this file reads, as :class:`chickenfoot.Rules` documents them."""

    @property
    def max_pip(self) -> int: ...
    @property
    def deal(self) -> str: ...  # "trains" or "cross"
    @property
    def hand_size(self) -> int | None: ...
    @property
    def center_arms(self) -> int | None: ...
    @property
    def drawn_tile(self) -> str: ...  # "must_play" or "may_play"
    @property
    def draw_until_playable(self) -> bool: ...
    @property
    def reserve(self) -> int | None: ...
    @property
    def double_blank_value(self) -> int | None: ...
    @property
    def blank_value(self) -> int | None: ...
    @property
    def center_fallback(self) -> str: ...  # "draw" or "highest_double"
    @property
    def unfillable_foot_ends_round(self) -> bool: ...
    @property
    def double_out_penalty(self) -> int: ...
    @property
    def tie_break(self) -> str: ...  # "share" or "zero_rounds"


@dataclass(frozen=True)
class Node:
    """A placed tile: the tile, the node it hangs from (``None`` for the center), the value it offers."""

    tile: Tile
    parent: int | None
    exposed: int


@dataclass(frozen=True)
class Round:
    """A round: the hands, the yard (``yard[0]`` is drawn next), the board's nodes and whose turn it is."""

    rules: Options
    hands: tuple[tuple[Tile, ...], ...]
    yard: tuple[Tile, ...]
    nodes: tuple[Node, ...]
    current_player: int
    reserve: int
    drawn: Tile | None = None
    is_over: bool = False
    went_out: int | None = None
    history: tuple[tuple[int, Move], ...] = ()


@dataclass(frozen=True)
class Result:
    """A finished round: its double, each player's score, who went out (``None``: blocked), its last state."""

    double: int
    scores: tuple[int, ...]
    went_out: int | None
    final: Round


@dataclass(frozen=True)
class Game:
    """A game: the round in play and what the finished rounds left (``winners`` is empty until the end)."""

    rules: Options
    players: int
    seed: int
    round: Round
    round_index: int
    totals: tuple[int, ...]
    results: tuple[Result, ...] = ()
    winners: tuple[int, ...] = ()

    @property
    def is_over(self) -> bool:
        """Tells whether every round has been played (ROUND-1)."""
        return len(self.results) == self.rules.max_pip + 1


# -- Sets and scoring values ----------------------------------------------------------------


def tiles(max_pip: int) -> list[Tile]:
    """Lists a double-``max_pip`` set in its order: 0-0, 1-0, 1-1, 2-0, 2-1, 2-2, 3-0, ... (SET-1).

    >>> len(tiles(9)), tiles(9)[:4]
    (55, [(0, 0), (1, 0), (1, 1), (2, 0)])
    """
    # SET-1: a double-N set has each pair once.
    return [(high, low) for high in range(max_pip + 1) for low in range(high + 1)]


def tile_value(rules: Options, tile: Tile) -> int:
    """Gets what ``tile`` scores when it is left in a hand (SET-2, SCORE-2).

    >>> import chickenfoot as cf
    >>> tile_value(cf.Rules.cross(), (0, 0)), tile_value(cf.Rules.trains(blank_value=25), (5, 0))
    (50, 30)
    """
    # SCORE-2: 0-0 is worth 50 in cross; in trains its pips, unless the 0-0 option is set.
    if tile == (0, 0) and rules.double_blank_value is not None:
        return rules.double_blank_value
    # SET-2: a tile's score value is its pip sum; the blank option adds a fixed value per blank half.
    return sum(tile) + (rules.blank_value or 0) * tile.count(0)


# -- Dealing ----------------------------------------------------------------------------------


def _hand_size(rules: Options, players: int) -> int:
    if rules.hand_size is not None:
        return rules.hand_size
    if rules.deal == "cross":
        return 7  # DEAL-B1: each player is dealt 7.
    # DEAL-A3: hand sizes on double-9; other sets scale the table by their size, rounded down.
    double_nine = {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5}[players]
    return max(1, double_nine * len(tiles(rules.max_pip)) // 55)


def _reserve(rules: Options, players: int) -> int:
    # YARD-1: trains: the last 2 tiles stay in the yard with two players, the last 1 with three
    # or more; cross: none. The reserve option overrides both.
    if rules.reserve is not None:
        return rules.reserve
    return 0 if rules.deal == "cross" else 2 if players == 2 else 1


def _arms(rules: Options, players: int) -> int:
    # OPEN-1: the center takes a fixed number of arms: trains one per player, cross 4 (or the option).
    if rules.center_arms is not None:
        return rules.center_arms
    return players if rules.deal == "trains" else 4


def _shuffle(rng: random.Random, items: list[Tile]) -> list[Tile]:
    # DEAL-2: Fisher-Yates from the last item down: item i swaps with item j, where j is
    # getrandbits(k) for k the bit length of i + 1, drawn again until it is at most i.
    for i in range(len(items) - 1, 0, -1):
        j = rng.getrandbits((i + 1).bit_length())
        while j > i:
            j = rng.getrandbits((i + 1).bit_length())
        items[i], items[j] = items[j], items[i]
    return items


def deal(rules: Options, players: int, seed: int, round_index: int) -> Round:
    """Deals round ``round_index`` (0-based) of a game from its seed: hands, yard, center and first player.

    >>> import chickenfoot as cf
    >>> state = deal(cf.Rules.trains(), players=4, seed=1, round_index=2)
    >>> [len(hand) for hand in state.hands], len(state.yard), state.nodes[0].tile
    ([11, 11, 11, 11], 10, (7, 7))
    """
    # DEAL-1: a configuration that cannot be dealt is refused, saying what to change: fewer than 2 players,
    # or (OPEN-1) a center with more arms than tiles carry its value, or in trains fewer arms than players or over 8.
    arms = _arms(rules, players)
    if players < 2 or arms > rules.max_pip or (rules.deal == "trains" and not players <= arms <= 8):
        raise ValueError(f"{players} players cannot play a center of {arms} arms on double-{rules.max_pip}")
    need = players * _hand_size(rules, players) + _reserve(rules, players) + 1
    if need > len(tiles(rules.max_pip)):
        raise ValueError(f"the deal needs {need} tiles; double-{rules.max_pip} has {len(tiles(rules.max_pip))}")
    # ROUND-1: one round per double, from N-N down to 0-0; round r starts with double N-r.
    if not 0 <= round_index <= rules.max_pip:
        raise ValueError(f"round_index must be from 0 to {rules.max_pip} (ROUND-1), got {round_index!r}")
    double = (rules.max_pip - round_index,) * 2
    # DEAL-2: the deal is a pure function of (rules, players, seed, round): Python's random.Random seeded with the
    # first 16 bytes (big-endian) of the SHA-256 of "chickenfoot/{seed}/{round}"; each shuffle takes the next numbers.
    digest = hashlib.sha256(f"chickenfoot/{seed}/{round_index}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:16], "big"))
    shuffled = _shuffle(rng, tiles(rules.max_pip))
    if rules.deal == "cross":
        return deal_tiles(rules, players, round_index, shuffled)
    # DEAL-A1: all tiles are shuffled; players take one tile each in turn, starting with player
    # r mod n; the first to take the round's double is the starter. All tiles go back.
    starter = (round_index + shuffled.index(double)) % players
    # DEAL-A2: the round's double is set aside as the center; the rest are shuffled.
    rest = _shuffle(rng, [tile for tile in tiles(rules.max_pip) if tile != double])
    return deal_tiles(rules, players, round_index, rest, starter=starter)


def deal_tiles(rules: Options, players: int, round_index: int, order: list[Tile], starter: int = 0) -> Round:
    """Deals round ``round_index`` from the tiles in ``order``, as a shuffle left them (*trains*: all but the double).

    Hands are dealt in blocks, player 0 first; the rest is the yard, in order. The *trains* deal
    takes its ``starter`` as found by DEAL-A1.
    """
    double = (rules.max_pip - round_index,) * 2
    size = _hand_size(rules, players)
    hands = [list(order[seat * size : (seat + 1) * size]) for seat in range(players)]
    yard = list(order[players * size :])
    # DEAL-A2: each player is dealt the hand size for the player count; what is left is the yard.
    # DEAL-A4: the starter moves first.
    center, first = double, starter
    if rules.deal == "cross":
        # DEAL-B1: all tiles are shuffled; each player is dealt 7; the rest is the yard.
        # DEAL-B2: the player holding the round's double places it as the center.
        holder = next((seat for seat in range(players) if double in hands[seat]), None)
        # Variant: when nobody holds the round's double, the next-highest double held starts
        # instead (the highest double anyone holds that is lower than the round's double).
        lower = [tile for hand in hands for tile in hand if tile[0] == tile[1] and tile[0] < double[0]]
        if holder is None and rules.center_fallback == "highest_double" and lower:
            center = max(lower)
            holder = next(seat for seat in range(players) if center in hands[seat])
        if holder is None:
            # DEAL-B2: if nobody holds it, players in turn, starting with player r mod n, draw one
            # tile each from the yard into their hand until one draws it; that player places it.
            holder = round_index % players
            while yard[0] != center:
                hands[holder].append(yard.pop(0))
                holder = (holder + 1) % players
            yard.remove(center)
        else:
            hands[holder].remove(center)
        # DEAL-B3: the player after the one who placed the center moves first.
        first = (holder + 1) % players
    nodes = (Node(center, None, center[0]),)
    dealt = Round(rules, tuple(map(tuple, hands)), tuple(yard), nodes, first, _reserve(rules, players))
    # END-2: a round can be blocked as dealt (contrived options only); it is over at once.
    return replace(dealt, is_over=_blocked(dealt))


def new_game(rules: Options, players: int, seed: int = 0) -> Game:
    """Starts a game and deals its first round (ROUND-1)."""
    return _closed(Game(rules, players, seed, deal(rules, players, seed, 0), 0, (0,) * players))


# -- The board --------------------------------------------------------------------------------


def _rooms(state: Round) -> list[int]:
    """Counts, for every node, how many more tiles it takes: its capacity less its children."""
    nodes = state.nodes
    children = [0] * len(nodes)
    for node in nodes:
        if node.parent is not None:
            children[node.parent] += 1
    # OPEN-1: the center takes its arms. FOOT-1: any other double takes exactly three toes.
    # PLAY-2: a non-double node takes one tile.
    capacity = [_arms(state.rules, len(state.hands))] + [3 if n.tile[0] == n.tile[1] else 1 for n in nodes[1:]]
    return [capacity[index] - children[index] for index in range(len(nodes))]


def _pending(state: Round) -> int | None:
    # OPEN-2: until the center has all its arms it is the pending node.
    # FOOT-2: while a foot has fewer than three toes it is the pending node.
    # At most one node is pending at a time, so the first found is the one.
    rooms = _rooms(state)
    for index, node in enumerate(state.nodes):
        if node.tile[0] == node.tile[1] and rooms[index] > 0:
            return index
    return None


def open_nodes(state: Round) -> list[int]:
    """Lists the nodes a tile may go onto now: the pending node alone, else every node with room."""
    pending = _pending(state)
    if pending is not None:  # OPEN-2, FOOT-2: every play goes onto the pending node.
        return [pending]
    # OPEN-3, FOOT-3: a full center or foot takes no more tiles; play is open on every open end.
    rooms = _rooms(state)
    return [index for index in range(len(state.nodes)) if rooms[index] > 0]


# -- Playing ----------------------------------------------------------------------------------


def _plays(state: Round, hand: tuple[Tile, ...]) -> list[Move]:
    # PLAY-1: a play puts one tile from the mover's hand onto an open end whose exposed value the
    # tile carries. So: every tile against every open node.
    nodes, targets = state.nodes, open_nodes(state)
    return [f"{high}-{low}@{onto}" for high, low in hand for onto in targets if nodes[onto].exposed in (high, low)]


def _can_draw(state: Round) -> bool:
    # DRAW-1, YARD-1: a player may draw if the yard holds more tiles than the reserve.
    return len(state.yard) > state.reserve


def legal_moves(state: Game | Round) -> tuple[Move, ...]:
    """Lists the moves the player to move may make; empty once the round or game is over."""
    if isinstance(state, Game):
        # ROUND-1: after the last round there are no more moves.
        return () if state.is_over else legal_moves(state.round)
    if state.is_over:
        return ()
    rules = state.rules
    if state.drawn is not None:
        plays = _plays(state, (state.drawn,))
        if plays and rules.drawn_tile == "must_play":
            # DRAW-2: trains: if the drawn tile can be played it must be played, this turn.
            return tuple(plays)
        if plays:
            # DRAW-3: cross: if the drawn tile can be played the player may play it or pass.
            return (*plays, "pass")
        if rules.draw_until_playable and _can_draw(state):
            # Variant of DRAW-1: draw until a playable tile turns up.
            return ("draw",)
        # DRAW-2: if not, the player passes.
        return ("pass",)
    plays = _plays(state, state.hands[state.current_player])
    if plays:
        # DRAW-4: a player may not draw while holding a legal play.
        return tuple(plays)
    if _can_draw(state):
        # DRAW-1: a player with no legal play must draw one tile (DRAW-4: and may not pass).
        return ("draw",)
    # YARD-2: a player who can neither play nor draw passes.
    return ("pass",)


def _after(state: Round, move: Move) -> Round:
    player = state.current_player
    turn = (player + 1) % len(state.hands)
    hands = list(state.hands)
    history = (*state.history, (player, move))
    if move == "draw":
        # DRAW-1: draw yard[0]. Drawing does not end the turn: the drawn tile goes into the hand
        # and is remembered as drawn until the turn ends.
        hands[player] = (*hands[player], state.yard[0])
        after = replace(state, hands=tuple(hands), yard=state.yard[1:], drawn=state.yard[0], history=history)
    elif move == "pass":
        # TURN-1: a pass ends the turn.
        after = replace(state, current_player=turn, drawn=None, history=history)
    else:
        text, onto = move.split("@")
        high, low = map(int, text.split("-"))
        parent = state.nodes[int(onto)]
        hands[player] = tuple(tile for tile in hands[player] if tile != (high, low))
        # PLAY-1: the tile's other value becomes exposed; a double exposes its own value.
        node = Node((high, low), int(onto), parent.exposed if high == low else high + low - parent.exposed)
        after = replace(state, hands=tuple(hands), nodes=(*state.nodes, node), drawn=None, history=history)
        if not hands[player]:
            # END-1: a round ends at once when a player plays the last tile of their hand, even
            # with a foot pending.
            return replace(after, is_over=True, went_out=player)
        # TURN-1: turns go 0, 1, ..., n-1, 0, ...; one play per turn; a double earns no extra turn.
        after = replace(after, current_player=turn)
    # END-2: checked after every move, a draw included.
    return replace(after, is_over=_blocked(after) or _foot_unfillable(after))


# -- Ending a round and scoring ---------------------------------------------------------------


def _blocked(state: Round) -> bool:
    # END-2: a round ends at once when nobody can play and nobody can draw, including when a
    # pending foot can no longer be filled.
    if _can_draw(state):
        return False
    offered = [state.nodes[index].exposed for index in open_nodes(state)]
    return not any(value in tile for hand in state.hands for tile in hand for value in offered)


def _foot_unfillable(state: Round) -> bool:
    # Variant of END-2: a foot that can no longer be filled ends the round at once: it lacks more
    # toes than there are tiles carrying its value in the hands and in the drawable yard.
    foot = _pending(state)
    if not state.rules.unfillable_foot_ends_round or not foot:  # no foot: nothing, or the center
        return False
    value = state.nodes[foot].exposed
    drawable = state.yard[: len(state.yard) - state.reserve]
    left = [tile for tiles in (*state.hands, drawable) for tile in tiles if value in tile]
    return len(left) < _rooms(state)[foot]


def score_round(state: Round) -> tuple[int, ...]:
    """Scores a finished round: each player the value of the tiles left in hand (SCORE-1)."""
    # SCORE-1: each player scores the value of the tiles left in hand; who went out scores 0.
    scores = [sum(tile_value(state.rules, tile) for tile in hand) for hand in state.hands]
    # Variant: going out on a double scores a penalty.
    last = state.nodes[-1].tile
    if state.went_out is not None and last[0] == last[1]:
        scores[state.went_out] += state.rules.double_out_penalty
    return tuple(scores)


def decide_winners(rules: Options, totals: tuple[int, ...], results: tuple[Result, ...]) -> tuple[int, ...]:
    """Gets the winners of a finished game (GAME-1, TIE-1, TIE-2)."""
    # GAME-1: after the last round the lowest total wins.
    tied = [player for player in range(len(totals)) if totals[player] == min(totals)]
    if rules.tie_break == "share":
        # TIE-1: trains: players tied on the lowest total share the win.
        return tuple(tied)

    # TIE-2: cross: among the tied, the one with the most zero-score rounds wins; if still tied,
    # the one whose lowest non-zero round score is lower wins, then the next lowest, and so on;
    # if still tied they share the win.
    def rounds(player: int) -> list[int]:
        return [result.scores[player] for result in results]

    most_zeros = max(rounds(player).count(0) for player in tied)
    tied = [player for player in tied if rounds(player).count(0) == most_zeros]
    best = min(sorted(score for score in rounds(player) if score != 0) for player in tied)
    return tuple(player for player in tied if sorted(score for score in rounds(player) if score != 0) == best)


# -- Applying a move to a game ----------------------------------------------------------------


@overload
def apply(state: Game, move: Move) -> Game: ...
@overload
def apply(state: Round, move: Move) -> Round: ...
def apply(state: Game | Round, move: Move) -> Game | Round:
    """Returns the state after ``move``; ``state`` itself is never changed.

    When a round ends, the game records its :class:`Result`, adds the scores to the totals and
    deals the next round; after the last round it names the winners. An illegal move raises
    :class:`ValueError` naming the legal ones.
    """
    if isinstance(state, Round):
        if move not in legal_moves(state):
            raise ValueError(f"{move} is not legal now; the legal moves are {list(legal_moves(state))}")
        return _after(state, move)
    if state.is_over:
        raise ValueError("the game is over: no more moves")
    return _closed(replace(state, round=apply(state.round, move)))


def _closed(game: Game) -> Game:
    # END-2: a round ends when play does, or as dealt; the rounds are closed until one is in play.
    while game.round.is_over and not game.is_over:
        # SCORE-1 and GAME-1: the round is scored and the scores add up.
        after, scores = game.round, score_round(game.round)
        results = (*game.results, Result(after.nodes[0].tile[0], scores, after.went_out, after))
        totals = tuple(total + score for total, score in zip(game.totals, scores, strict=True))
        game = replace(game, totals=totals, results=results)
        # ROUND-1: one round per double, from N-N down to 0-0; after the last, the winners are named.
        if game.is_over:
            return replace(game, winners=decide_winners(game.rules, totals, results))
        index = game.round_index + 1
        game = replace(game, round=deal(game.rules, game.players, game.seed, index), round_index=index)
    return game


def perft(state: Game | Round, depth: int) -> int:
    """Counts the move sequences of ``depth`` moves from ``state``'s round; a round's end counts once."""
    state = state.round if isinstance(state, Game) else state
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(apply(state, move), depth - 1) for move in legal_moves(state))
