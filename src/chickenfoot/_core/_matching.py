"""The weighted placement's matching: unseen tiles matched to places with room, kept complete as tiles are fixed.

Plain typed Python over ints, compiled by mypyc with the core (``pip install .``); it runs
unchanged as ordinary Python. :mod:`chickenfoot._core._sampling` places the hidden tiles with it.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate
from typing import Final

from ._codes import Inconsistent, tile_text

__all__ = ["TileMatching", "choose"]

UNPLACED: Final = -1
"""The place a tile comes from in :class:`TileMatching` before it has one."""


def choose(choices: list[int], weights: list[int], rng: random.Random) -> int:
    """Picks one of ``choices`` with the given weights, drawing what ``rng.choices(choices, weights)[0]`` draws."""
    cumulative = list(accumulate(weights))
    return choices[bisect_right(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(cumulative) - 1)]


class TileMatching:
    """Matches the unseen tiles to places with fixed room, and keeps the matching complete as tiles are fixed.

    A bipartite b-matching (each tile to one place it is allowed, each place up to its room),
    made complete by augmenting paths (:meth:`_augment`: a breadth-first search that moves
    placed tiles along to free a place) and kept complete as tiles are fixed by rerouting
    (:meth:`_reroute`). The weighted placement fixes tiles one by one in places drawn by room.
    """

    def __init__(self, allowed: dict[int, list[int]], room: list[int]) -> None:
        self.allowed = allowed
        self.room = room
        self.members: list[set[int]] = [set() for _ in room]
        self.at: dict[int, int] = {}
        self.fixed: set[int] = set()
        self.fixed_count = [0] * len(room)
        for tile in sorted(allowed):
            if not self._augment(tile):
                raise Inconsistent(
                    f"no placement of the unseen tiles fits the view's history ({tile_text(tile)} fits nowhere)"
                )

    def _augment(self, tile: int) -> bool:
        """Places an unplaced tile, moving others along an alternating path if needed."""
        parent: dict[int, tuple[int, int]] = {}  # place -> (previous place, tile moved into it)
        frontier: list[tuple[int, int]] = [(UNPLACED, tile)]
        seen: set[int] = set()
        while frontier:
            next_frontier: list[tuple[int, int]] = []
            for origin, mover in frontier:
                for place in self.allowed[mover]:
                    if place in seen:
                        continue
                    seen.add(place)
                    parent[place] = (origin, mover)
                    if len(self.members[place]) < self.room[place]:
                        self._shift(parent, place, UNPLACED)
                        return True
                    next_frontier.extend((place, other) for other in self.members[place] if other not in self.fixed)
            frontier = next_frontier
        return False

    def _shift(self, parent: dict[int, tuple[int, int]], place: int, stop: int) -> None:
        """Moves each tile on the path ending at ``place`` one step along, back to ``stop``."""
        while place != stop:
            origin, mover = parent[place]
            if origin != UNPLACED:
                self.members[origin].discard(mover)
            self.members[place].add(mover)
            self.at[mover] = place
            place = origin

    def _reroute(self, tile: int, target: int) -> bool:
        """Moves ``tile`` to ``target``, pushing an unfixed tile out of it along a path to ``tile``'s place."""
        home = self.at[tile]
        parent: dict[int, tuple[int, int]] = {}
        frontier = [target]
        seen = {target}
        while frontier:
            next_frontier: list[int] = []
            for origin in frontier:
                for mover in self.members[origin]:
                    if mover in self.fixed or mover == tile:
                        continue
                    for place in self.allowed[mover]:
                        if place in seen:
                            continue
                        seen.add(place)
                        parent[place] = (origin, mover)
                        if place == home:
                            self.members[home].discard(tile)
                            self._shift(parent, place, target)
                            self.members[target].add(tile)
                            self.at[tile] = target
                            return True
                        next_frontier.append(place)
            frontier = next_frontier
        return False

    def fix(self, tile: int, rng: random.Random) -> None:
        """Fixes ``tile`` in a place drawn with weight "room not yet fixed", among those still completable."""
        choices = [place for place in self.allowed[tile] if self.room[place] > self.fixed_count[place]]
        while True:
            weights = [self.room[place] - self.fixed_count[place] for place in choices]
            place = choose(choices, weights, rng)
            if place == self.at[tile] or self._reroute(tile, place):
                break
            choices.remove(place)
        self.fixed.add(tile)
        self.fixed_count[place] += 1
