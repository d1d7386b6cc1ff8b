"""Finished rounds for the layout's overlap property, and the separating-axis overlap test it uses."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator

import chickenfoot as cf
import chickenfoot.svg

# Both presets, every set size and the 6-arm center; each with the player counts it can deal.
CONFIGURATIONS: tuple[cf.Rules, ...] = (
    cf.Rules.trains(),
    cf.Rules.cross(),
    cf.Rules.trains(max_pip=6),
    cf.Rules.cross(max_pip=12, center_arms=6),
    cf.Rules.trains(max_pip=12, center_arms=6),
    cf.Rules.trains(max_pip=15),
    cf.Rules.cross(max_pip=18),
    cf.Rules.trains(max_pip=18, center_arms=6),
)


def _dealable(rules: cf.Rules, players: int) -> bool:
    try:
        rules.check_players(players)
    except cf.RulesError:
        return False
    return True


def finished_rounds(seed: int, count: int, per_game: int = 3) -> Iterator[tuple[cf.Rules, int, cf.RoundState]]:
    """Yields ``count`` finished rounds of random games, ``per_game`` from each, cycling through the
    configurations and, for each, through the player counts it can deal.

    Moves are random, but half the time a double is played whenever one fits, so feet (and feet
    on toes of feet) are common: crowded boards are the ones that test a layout.
    """
    rng = random.Random(seed)
    made = 0
    for game_number in itertools.count():
        rules = CONFIGURATIONS[game_number % len(CONFIGURATIONS)]
        counts = [n for n in range(2, 9) if _dealable(rules, n)]
        players = counts[(game_number // len(CONFIGURATIONS)) % len(counts)]
        game = cf.new_game(rules, players, rng.randrange(2**32))
        while not game.is_over and len(game.results) < per_game:
            moves = cf.legal_moves(game)
            doubles = [m for m in moves if isinstance(m, cf.Play) and m.tile.is_double]
            before = len(game.results)
            game = cf.apply(game, rng.choice(doubles if doubles and rng.random() < 0.5 else moves))
            if len(game.results) > before:
                yield rules, players, game.results[-1].final
                made += 1
                if made == count:
                    return


def overlapping(placements: tuple[chickenfoot.svg.Placement, ...]) -> list[tuple[int, int]]:
    """Finds the pairs of tiles that overlap by more than a hair (separating axes; touching is fine)."""
    found = []
    for i, a in enumerate(placements):
        for b in placements[i + 1 :]:
            reach = (a.length + b.length) / 2 * math.sqrt(1.25)
            if abs(a.x - b.x) < reach and abs(a.y - b.y) < reach and _overlap(a, b):
                found.append((a.node, b.node))
    return found


def _corners(p: chickenfoot.svg.Placement) -> list[tuple[float, float]]:
    ux, uy = math.cos(math.radians(p.angle)), math.sin(math.radians(p.angle))
    half_l, half_w = p.length / 2, p.width / 2
    return [
        (p.x + sx * half_l * ux - sy * half_w * uy, p.y + sx * half_l * uy + sy * half_w * ux)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def _overlap(a: chickenfoot.svg.Placement, b: chickenfoot.svg.Placement, tolerance: float = 1e-6) -> bool:
    first, second = _corners(a), _corners(b)
    for angle in (a.angle, a.angle + 90, b.angle, b.angle + 90):
        nx, ny = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        one = [x * nx + y * ny for x, y in first]
        two = [x * nx + y * ny for x, y in second]
        if max(one) <= min(two) + tolerance or max(two) <= min(one) + tolerance:
            return False  # a separating axis
    return True
