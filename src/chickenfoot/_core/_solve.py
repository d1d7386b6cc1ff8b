"""The exact value of a round with every hand and the yard's order known: alpha-beta over the core's rounds.

The search reads the rules only through :class:`~chickenfoot._core._round.Round`'s own
transitions (``legal``, ``after``, ``scores``, ``open_ends``); what it adds is the search:

* the value is measured for one ``player``: its round score (:data:`SCORE`), or that score less
  the lowest of the others' (:data:`MARGIN`). The player minimises it and every other seat
  maximises it (a paranoid search: with two players, the zero-sum game);
* a min/max alpha-beta, fail-soft, over a transposition table (:class:`Table`) keyed by a
  Zobrist hash kept up to date move by move (:func:`key_after`). The key is the position's game
  value's whole input and nothing else: each hand's tiles, the yard left (its tiles in order),
  the open ends counted by the value they offer (``open_ends``: two ends offering one value take
  the same tiles, so which nodes they are does not matter), the pending node (the center or a foot, its
  value and the tiles it still needs), the seat to move, the tile drawn this turn, and whose
  value it is and of which objective;
* searches with a window of one value (MTD(f)), each moving a bound on the value, until the
  bounds meet; the table keeps both bounds of each position between them;
* moves ordered: the table's best move first (a hint, taken only if legal), then the moves that
  cut the search off most so far (the history heuristic), then the plays of the most valuable
  tiles, a pass last; a tile's plays onto two ends offering the same value reach the same key,
  so only the first is searched; a forced move is made without the table;
* a node budget: when it runs out, the bounds the finished searches left are what is known.

Written, like the rest of the core, so mypyc can compile it to C (see docs/performance.md): a bot
calls :func:`solve_round` on many worlds, with one :class:`Table` and a node budget.
"""

from __future__ import annotations

import random
from typing import Final

from ._codes import (
    ALL_TILES,
    DRAW,
    FOOT_TOES,
    HIGH,
    LOW,
    MAX_ARMS,
    MAX_PIP,
    MAX_PLAYERS,
    NONE,
    PASS,
    code_onto,
    code_tile,
)
from ._round import Round

__all__ = [
    "EXACT",
    "LOWER",
    "MARGIN",
    "NO_LIMIT",
    "SCORE",
    "UPPER",
    "Entry",
    "Solved",
    "Table",
    "key_after",
    "measure",
    "position_key",
    "solve_round",
    "yard_keys",
]

SCORE: Final = 0
"""The objective: ``player``'s round score."""

MARGIN: Final = 1
"""The objective: ``player``'s round score less the lowest of the others'."""

EXACT: Final = 0
"""A value that is the position's value."""

LOWER: Final = 1
"""A value that the position's value is at least."""

UPPER: Final = 2
"""A value that the position's value is at most."""

NO_LIMIT: Final = (1 << 62) - 1
"""A node budget never reached (the largest int mypyc keeps unboxed)."""

_NO_MOVE: Final = 0xFFFF
"""The best move of a table entry that has none; no move code is this large (nodes and tiles are below 255)."""

_SEATS: Final = MAX_PLAYERS
_COUNTS: Final = ALL_TILES + 1  # how many ends may offer one value: 0 to every tile
_MISSING: Final = max(MAX_ARMS, FOOT_TOES) + 1  # a pending node needs 1 to MAX_ARMS more tiles (arms or toes)
_VALUES: Final = MAX_PIP + 1


def _keys(count: int, rng: random.Random) -> list[int]:
    # 62 bits: the xor of any of them stays an int mypyc keeps unboxed.
    return [rng.getrandbits(62) for _ in range(count)]


_RNG: Final = random.Random("chickenfoot._solve")  # fixed: keys are the same in every process
_HAND: Final = _keys(_SEATS * ALL_TILES, _RNG)  # [seat * ALL_TILES + tile]: the tile is in the seat's hand
_ENDS: Final = _keys(_VALUES * _COUNTS, _RNG)  # [value * _COUNTS + count]: count open ends offer the value
_PENDING: Final = _keys(2 * _VALUES * _MISSING, _RNG)  # [(foot * _VALUES + value) * _MISSING + missing]
_CURRENT: Final = _keys(_SEATS, _RNG)  # [seat]: the seat to move
_DRAWN: Final = _keys(ALL_TILES, _RNG)  # [tile]: drawn this turn
_YARD: Final = _keys(ALL_TILES * ALL_TILES, _RNG)  # [at * ALL_TILES + tile]: yard[at] is the tile
_OBJECTIVE: Final = _keys(2 * _SEATS, _RNG)  # [objective * _SEATS + player]: whose value, of which objective


def measure(scores: tuple[int, ...], player: int, margin: bool) -> int:
    """Gets ``player``'s value of a round's ``scores``: its score, or with ``margin`` that score less the lowest
    of the others' (the one place the objectives are computed)."""
    mine = scores[player]
    if not margin:
        return mine
    lowest = NO_LIMIT
    for seat in range(len(scores)):
        if seat != player and scores[seat] < lowest:
            lowest = scores[seat]
    return mine - lowest


def _pending_key(state: Round) -> int:
    """Gets the key of the pending node (0 without one): whether it is a foot or the center, its value, its need."""
    if state.pending == NONE:
        return 0
    foot = 1 if state.pending else 0
    return _PENDING[(foot * _VALUES + state.pending_value) * _MISSING + state.missing]


def yard_keys(yard: tuple[int, ...]) -> list[int]:
    """Gets the key of every yard the game can leave from ``yard`` (draws take ``yard[0]``), by its length."""
    keys = [0] * (len(yard) + 1)
    for left in range(1, len(yard) + 1):
        first = len(yard) - left
        key = 0
        for at in range(left):
            key ^= _YARD[at * ALL_TILES + yard[first + at]]
        keys[left] = key
    return keys


def position_key(state: Round, player: int, objective: int, yard: list[int]) -> int:
    """Computes a position's key from scratch (the search's root; ``yard`` is :func:`yard_keys` of a yard it
    leaves)."""
    key = _OBJECTIVE[objective * _SEATS + player] ^ _CURRENT[state.current] ^ yard[len(state.yard)]
    for seat, hand in enumerate(state.hands):
        for tile in hand:
            key ^= _HAND[seat * ALL_TILES + tile]
    ends, _ = state.open_ends()
    for value in range(len(ends)):
        key ^= _ENDS[value * _COUNTS + len(ends[value])]
    if state.drawn != NONE:
        key ^= _DRAWN[state.drawn]
    return key ^ _pending_key(state)


def key_after(key: int, state: Round, move: int, after: Round, yard: list[int]) -> int:
    """Updates ``key``, the key of ``state``, to that of ``after``, the round after ``move``.

    Only what a move changes is read: the tile it moves from the yard or to the board, the ends
    of that tile's two values, the pending node, the drawn tile and the seat to move.
    """
    seat = state.current
    if state.drawn != NONE:
        key ^= _DRAWN[state.drawn]
    if after.drawn != NONE:
        key ^= _DRAWN[after.drawn]
    if seat != after.current:
        key ^= _CURRENT[seat] ^ _CURRENT[after.current]
    if move == DRAW:
        key ^= _HAND[seat * ALL_TILES + state.yard[0]] ^ yard[len(state.yard)] ^ yard[len(after.yard)]
    elif move != PASS:
        tile = code_tile(move)
        key ^= _HAND[seat * ALL_TILES + tile]
        ends_before, _ = state.open_ends()
        ends_after, _ = after.open_ends()
        high = HIGH[tile]
        before = len(ends_before[high])
        now = len(ends_after[high])
        if before != now:
            key ^= _ENDS[high * _COUNTS + before] ^ _ENDS[high * _COUNTS + now]
        low = LOW[tile]
        if low != high:
            before = len(ends_before[low])
            now = len(ends_after[low])
            if before != now:
                key ^= _ENDS[low * _COUNTS + before] ^ _ENDS[low * _COUNTS + now]
        if state.pending != after.pending or state.missing != after.missing:
            key ^= _pending_key(state) ^ _pending_key(after)
    return key


class Entry:
    """What the table knows of one position: bounds on its value, and the move that made the last one."""

    __slots__ = ("lower", "move", "upper")

    def __init__(self, lower: int, upper: int, move: int) -> None:
        self.lower = lower
        self.upper = upper
        self.move = move


class Table:
    """A transposition table: bounds on each position's value and its best move, by key; reusable between solves.

    The key holds whose value and which objective, so one table serves every player and both
    objectives; it holds no rules, so a table serves rounds of one set of rules, reserve and
    player count (:meth:`serve` forgets the entries when they change). Once it holds
    ``capacity`` entries it forgets them all and starts again (a search never needs one back:
    it only runs faster with it).
    """

    __slots__ = ("capacity", "entries", "players", "reserve", "rules")

    def __init__(self, capacity: int = 1 << 21) -> None:
        self.capacity = capacity
        self.entries: dict[int, Entry] = {}
        self.rules: object = None  # the chickenfoot.Rules of the rounds the entries are from
        self.reserve = NONE
        self.players = 0

    def serve(self, state: Round) -> None:
        """Makes the table ready for a round of ``state``'s rules, reserve and player count."""
        rules = state.setup.settings.public
        if self.reserve != state.setup.reserve or self.players != len(state.hands) or self.rules != rules:
            self.entries.clear()
            self.rules = rules
            self.reserve = state.setup.reserve
            self.players = len(state.hands)


class Solved:
    """What a solve found: the value, whether it is exact or which bound, a line of move codes, the nodes."""

    __slots__ = ("kind", "line", "nodes", "value")

    def __init__(self, value: int, kind: int, line: list[int], nodes: int) -> None:
        self.value = value
        self.kind = kind  # EXACT, or UPPER / LOWER when the budget ran out
        self.line = line
        self.nodes = nodes  # the positions the search for the value visited, at most the budget


class _Search:
    """One solve's alpha-beta: the player, the objective, the table, the budget and the counts."""

    __slots__ = (
        "aborted",
        "best",
        "budget",
        "capacity",
        "entries",
        "history",
        "margin",
        "nodes",
        "player",
        "values",
        "yard",
    )

    def __init__(self, root: Round, player: int, objective: int, table: Table, budget: int) -> None:
        self.player = player
        self.margin = objective == MARGIN
        self.values = root.setup.settings.tile_values
        self.entries = table.entries
        self.capacity = table.capacity
        self.yard = yard_keys(root.yard)
        self.budget = budget
        self.nodes = 0
        self.aborted = False
        self.best = _NO_MOVE  # the best move of the node searched last
        self.history = [0] * (_SEATS << 8)  # [seat << 8 | tile, DRAW or PASS]: the cutoffs the move made

    def evaluate(self, state: Round) -> int:
        """Gets the value of a finished round for the player."""
        return measure(state.scores(), self.player, self.margin)

    def ordered(self, state: Round, moves: list[int], hint: int) -> list[int]:
        """Lists the moves worth searching, best first: ``hint`` if legal, then by the cutoffs each made so far, then
        the most valuable tiles first, a pass last.

        Of a tile's plays onto ends offering one value only the first is kept: the rounds they
        lead to differ only in which node the tile hangs from, so they have one key and one value.
        """
        if len(moves) == 1:
            return moves
        values = self.values
        history = self.history
        seat = state.current << 8
        ranked: list[int] = []
        ranks: list[int] = []
        last_tile = NONE
        last_high = False
        free = state.pending == NONE
        for move in moves:
            tile = code_tile(move)
            cutoffs = history[seat | tile] << 32
            if move == hint:
                rank = 1 << 61
            elif move == PASS:
                rank = cutoffs - 1
            else:
                if free:  # equal plays are side by side: legal lists a tile's plays together, onto high then low
                    high = code_onto(move) in state.ends[HIGH[tile]]
                    if tile == last_tile and high == last_high:
                        continue
                    last_tile = tile
                    last_high = high
                rank = cutoffs + values[tile]
            at = len(ranked)
            ranked.append(move)
            ranks.append(rank)
            while at and ranks[at - 1] < rank:  # insertion sort, stable: a handful of moves
                ranked[at] = ranked[at - 1]
                ranks[at] = ranks[at - 1]
                at -= 1
            ranked[at] = move
            ranks[at] = rank
        return ranked

    # Kept whole: the alpha-beta's inner loop, run at every node; a call more per node is a cost mypyc cannot remove.
    def search(self, state: Round, key: int, alpha: int, beta: int) -> int:
        """Gets the value of ``state`` (not over) if strictly between ``alpha`` and ``beta``, else a bound past the
        one it falls beyond (fail-soft); sets :attr:`best` to the best move.

        Once the budget is spent it sets :attr:`aborted` and returns at once (any value). A forced
        move (the only legal one) is made without the table: its round's value is this one's.
        """
        first = _NO_MOVE  # the forced move made from ``state``, if any
        moves = state.legal()
        while len(moves) == 1:
            if self.nodes >= self.budget:
                self.aborted = True
                return 0
            self.nodes += 1
            move = moves[0]
            if first == _NO_MOVE:
                first = move
            after = state.after(move)
            if after.over:
                self.best = first
                return self.evaluate(after)
            key = key_after(key, state, move, after, self.yard)
            state = after
            moves = state.legal()
        if self.nodes >= self.budget:
            self.aborted = True
            return 0
        self.nodes += 1
        entry = self.entries.get(key)
        hint = _NO_MOVE
        if entry is not None:
            hint = entry.move
            if entry.lower >= beta or entry.lower == entry.upper:
                self.best = hint if first == _NO_MOVE else first
                return entry.lower
            if entry.upper <= alpha:
                self.best = hint if first == _NO_MOVE else first
                return entry.upper
            if entry.lower > alpha:
                alpha = entry.lower
            if entry.upper < beta:
                beta = entry.upper
        minimising = state.current == self.player
        best = 0
        best_move = _NO_MOVE
        low = alpha  # the window of the next move: the player's moves lower high, the others' raise low
        high = beta
        for move in self.ordered(state, moves, hint):
            after = state.after(move)
            if after.over:
                if self.nodes >= self.budget:
                    self.aborted = True
                    return 0
                self.nodes += 1
                value = self.evaluate(after)
            else:
                value = self.search(after, key_after(key, state, move, after, self.yard), low, high)
                if self.aborted:
                    return 0
            if minimising:
                if value < best or best_move == _NO_MOVE:
                    best = value
                    best_move = move
                    if value <= low:
                        self.history[state.current << 8 | (move & 255)] += len(state.yard) * len(state.yard) + 1
                        break
                    if value < high:
                        high = value
            elif value > best or best_move == _NO_MOVE:
                best = value
                best_move = move
                if value >= high:
                    self.history[state.current << 8 | (move & 255)] += len(state.yard) * len(state.yard) + 1
                    break
                if value > low:
                    low = value
        self.best = best_move if first == _NO_MOVE else first
        if entry is None:
            if len(self.entries) >= self.capacity:
                self.entries.clear()
            entry = self.entries[key] = Entry(-NO_LIMIT, NO_LIMIT, best_move)
        entry.move = best_move
        if best > alpha:
            entry.lower = best
        if best < beta:
            entry.upper = best
        return best

    def value_of(self, state: Round, key: int, value: int) -> int:
        """Gets the value of ``state`` (over or not) if it is ``value``, else a value past it; wrong once aborted."""
        if state.over:
            self.nodes += 1
            return self.evaluate(state)
        return self.search(state, key, value - 1, value + 1)

    def line(self, state: Round, key: int, value: int) -> list[int]:
        """Lists a line of play from ``state`` that keeps to ``value``, its value, to the round's end.

        At each step it takes the first move (the table's best first) whose round has the value:
        a search with the window around it proves it, from the table alone if it holds the
        value. It stops short once the budget is spent.
        """
        codes: list[int] = []
        while not state.over:
            entry = self.entries.get(key)
            move = _NO_MOVE
            for candidate in self.ordered(state, state.legal(), _NO_MOVE if entry is None else entry.move):
                after = state.after(candidate)
                after_key = key_after(key, state, candidate, after, self.yard)
                got = self.value_of(after, after_key, value)
                if self.aborted:
                    return codes
                if got == value:
                    move = candidate
                    break
            assert move != _NO_MOVE, "a position's value is one of its moves'"
            codes.append(move)
            state = after
            key = after_key
        return codes


def _span(state: Round) -> int:
    """Gets a bound on any score of the round: every tile left in hand or yard, and the penalty for going out."""
    values = state.setup.settings.tile_values
    total = state.setup.settings.double_out_penalty
    for hand in state.hands:
        for tile in hand:
            total += values[tile]
    for tile in state.yard:
        total += values[tile]
    return total


def _guess(state: Round, search: _Search) -> int:
    """Guesses the value: the round's, were it scored as it stands."""
    values = search.values
    scores = [0] * len(state.hands)
    for seat, hand in enumerate(state.hands):
        for tile in hand:
            scores[seat] += values[tile]
    return measure(tuple(scores), search.player, search.margin)


def solve_round(root: Round, player: int, objective: int, table: Table | None, budget: int) -> Solved:
    """Solves ``root`` for ``player`` (a seat) and ``objective`` (:data:`SCORE` or :data:`MARGIN`).

    ``table`` is kept between calls by a caller that solves many rounds (``None``: a new one).
    ``budget`` caps the positions the search for the value visits (:data:`NO_LIMIT`: none): each
    round it reaches counts, a finished one included, and :attr:`Solved.nodes` is that count, never
    above ``budget``. A finished ``root`` is worth its score, with no position searched (0 nodes).
    The search is MTD(f): alpha-beta searches with windows of one value, each moving the lower
    or the upper bound the last left, until they meet. If the budget runs out first, the value
    is the bound on the side of the seat to move as the finished searches left it: an
    :data:`UPPER` bound if it is ``player`` (who minimises), with the move that keeps to it as
    the line; else a :data:`LOWER` bound, with the move that forces it. The bound on the other
    side is dropped, so if no finished search moved the mover's side (none finished, or those
    that did moved only the other bound), it is the widest: ``player``'s score is at most every
    tile left plus the penalty for going out, at least 0, the margin within that or its
    opposite, and the line is empty. Once the value is proven, the line that keeps to it is
    searched for with no budget (mostly read from the table); those positions are not counted.
    """
    if table is None:
        table = Table()
    table.serve(root)
    search = _Search(root, player, objective, table, budget)
    if root.over:
        return Solved(search.evaluate(root), EXACT, [], 0)
    key = position_key(root, player, objective, search.yard)
    upper = _span(root)
    lower = -upper if objective == MARGIN else 0
    minimising = root.current == player
    first = _NO_MOVE  # the move that makes the bound on the mover's side
    window = min(max(_guess(root, search), lower + 1), upper)  # each search's window is (window - 1, window)
    step = 1  # how far past the bound just moved the next window goes: doubled while the bounds move one way
    going = 0  # which way the last search moved the bounds: 1 up (a lower bound), -1 down, 0 before the first
    bracketed = False  # the searches have moved both bounds: the next windows halve the gap
    while lower < upper:
        value = search.search(root, key, window - 1, window)
        if search.aborted:
            line = [] if first == _NO_MOVE else [first]
            return Solved(upper, UPPER, line, search.nodes) if minimising else Solved(lower, LOWER, line, search.nodes)
        moved = -1 if value < window else 1
        if moved < 0:
            upper = value
        else:
            lower = value
        if (moved < 0) == minimising:  # the bound on the mover's side, and the move that makes it
            first = search.best
        bracketed = bracketed or going == -moved
        step = step * 2 if going == moved else 1
        going = moved
        if bracketed:
            window = (lower + upper + 1) // 2
        elif moved > 0:
            window = min(lower + step, upper)
        else:
            window = max(upper - step + 1, lower + 1)
    nodes = search.nodes
    search.budget = NO_LIMIT
    return Solved(lower, EXACT, search.line(root, key, lower), nodes)
