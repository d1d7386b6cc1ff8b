"""Tree search over the core's rounds, for the search bots and the analysis (compiled with the core).

A simulation walks one tree shared by every sampled world (SO-ISMCTS), expands one move, plays
the round out with a cheap policy and backs the round's scores up the path. Everything is the
core's ints: a move is its code, a position a :class:`~chickenfoot._core._round.Round`.
"""

from __future__ import annotations

import math
from typing import Final

from ._codes import HIGH, LOW, NONE, PASS
from ._round import Round

_MULTIPLIER: Final = 6364136223846793005
_INCREMENT: Final = 1442695040888963407
_MASK: Final = (1 << 64) - 1


class Node:
    """A node of the tree: who made the move leading here, and what followed it."""

    __slots__ = ("available", "children", "mover", "reward", "score", "square", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 1  # simulations in which the move leading here was legal
        self.reward = 0.0  # the mover's rewards, summed
        self.score = 0.0  # the mover's round scores, summed
        self.square = 0.0  # and their squares


class Searcher:
    """Runs simulations into one tree: UCB1 with constant ``exploration``; playouts that make the most valuable play
    (a double counted ``double_bonus`` more), or any move with chance ``randomness``."""

    __slots__ = ("double_bonus", "exploration", "first", "randomness", "root", "state")

    def __init__(self, exploration: float, randomness: float, double_bonus: int, seed: int) -> None:
        self.root = Node(NONE)
        self.exploration = exploration
        self.randomness = randomness
        self.double_bonus = double_bonus
        self.state = seed & _MASK  # the playouts' random generator
        self.first = NONE  # the move the last simulation began with

    def _next(self) -> int:
        """Gets 31 random bits from a 64-bit linear congruential generator (cheap, and enough for playouts)."""
        self.state = (self.state * _MULTIPLIER + _INCREMENT) & _MASK
        return self.state >> 33

    def _below(self, count: int) -> int:
        return self._next() % count

    def simulate(self, world: Round) -> tuple[int, ...]:
        """Runs one simulation from ``world`` (a round consistent with the root); returns the round's scores."""
        path = [self.root]
        node = self.root
        state = world
        c = self.exploration
        first = True
        while not state.over:
            moves = state.legal()
            children = node.children
            untried = [move for move in moves if move not in children]
            if untried:
                move = untried[self._below(len(untried))]
                child = Node(state.current)
                children[move] = child
                for other in moves:
                    if other != move and other in children:
                        children[other].available += 1
                state = state.after(move)
                path.append(child)
                if first:
                    self.first = move
                break
            best = -math.inf
            chosen = moves[0]
            for move in moves:
                child = children[move]
                child.available += 1
                value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if value > best:
                    best = value
                    chosen = move
            node = children[chosen]
            state = state.after(chosen)
            path.append(node)
            if first:
                self.first = chosen
                first = False
        state = self.play_out(state)
        scores = state.scores()
        rewards = self._rewards(scores)
        for visited in path:
            visited.visits += 1
            mover = visited.mover
            if mover != NONE:
                visited.reward += rewards[mover]
                score = float(scores[mover])
                visited.score += score
                visited.square += score * score
        return scores

    def _rewards(self, scores: tuple[int, ...]) -> list[float]:
        """Credits every player with ``1 - score / worst score`` of the round."""
        worst = max(max(scores), 1)
        return [1.0 - score / worst for score in scores]

    def play_out(self, state: Round) -> Round:
        """Plays the round to its end: mostly the most valuable play, a double first, sometimes any move."""
        values = state.setup.settings.tile_values
        bonus = self.double_bonus
        threshold = int(self.randomness * (1 << 31))
        while not state.over:
            moves = state.legal()
            if len(moves) == 1:
                state = state.after(moves[0])
                continue
            if threshold and self._next() < threshold:
                state = state.after(moves[self._below(len(moves))])
                continue
            best = moves[0]
            key = -1
            for move in moves:
                tile = move & 255
                if tile < PASS:
                    rating = values[tile] + (bonus if HIGH[tile] == LOW[tile] else 0)
                    if rating > key:
                        key = rating
                        best = move
            state = state.after(best)
        return state
