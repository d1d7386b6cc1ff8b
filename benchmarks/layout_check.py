"""Checks that no two tiles of svg.placements overlap, nor any node number a tile, over many random finished rounds.

    python benchmarks/layout_check.py --rounds 5000     # by hand: about a minute of CPU
    python benchmarks/layout_check.py --rounds 500      # what tests/test_layout.py runs

The rounds cycle through both presets, double-6 to double-18, 6-arm centers and every player
count each configuration can deal (2 to 8), and are played out by random moves that play a
double half the time one fits, so chicken feet, and feet on the toes of feet, are common. Each
layout is checked pair by pair with a separating-axis test on the tiles' rectangles, and so are
the node numbers svg.labels places: no badge may touch a tile but its own, nor another badge.
Also reported: how many lines the layout had to move out, leaving a gap (drawn as a dashed
line), and how many numbers found no room beside their tile and sit on it. Exits with status 1
if anything overlaps.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import math
import random
import sys
import time
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


def overlapping_labels(
    placements: tuple[chickenfoot.svg.Placement, ...], labels: tuple[chickenfoot.svg.Label, ...]
) -> list[tuple[str, int, int]]:
    """Finds the node numbers that overlap a tile other than their own, ``("tile", label, node)``, or
    another number, ``("label", label, label)``."""
    found = []
    boxes = [
        chickenfoot.svg.Placement(label.node, label.x, label.y, 0.0, label.width, label.height) for label in labels
    ]
    for box in boxes:
        for p in placements:
            if p.node != box.node and _near(box, p) and _overlap(box, p):
                found.append(("tile", box.node, p.node))
    for i, a in enumerate(boxes):
        found += [("label", a.node, b.node) for b in boxes[i + 1 :] if _near(a, b) and _overlap(a, b)]
    return found


def _near(a: chickenfoot.svg.Placement, b: chickenfoot.svg.Placement) -> bool:
    """Tells whether two rectangles' centres are close enough for them to touch (their half-diagonals meet)."""
    reach = (a.length + a.width + b.length + b.width) / 2  # at least the two half-diagonals
    return abs(a.x - b.x) < reach and abs(a.y - b.y) < reach


def _corners(p: chickenfoot.svg.Placement) -> list[tuple[float, float]]:
    ux, uy = math.cos(math.radians(p.angle)), math.sin(math.radians(p.angle))
    half_l, half_w = p.length / 2, p.width / 2
    return [
        (p.x + sx * half_l * ux - sy * half_w * uy, p.y + sx * half_l * uy + sy * half_w * ux)
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]


def _overlap(a: chickenfoot.svg.Placement, b: chickenfoot.svg.Placement, tolerance: float = 1e-6) -> bool:
    """Tells whether two rectangles overlap (separating axes, computed from the corners; touching is fine)."""
    first, second = _corners(a), _corners(b)
    for angle in (a.angle, a.angle + 90, b.angle, b.angle + 90):
        nx, ny = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        one = [x * nx + y * ny for x, y in first]
        two = [x * nx + y * ny for x, y in second]
        if max(one) <= min(two) + tolerance or max(two) <= min(one) + tolerance:
            return False  # a separating axis
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5000, help="finished rounds to lay out")
    parser.add_argument("--seed", type=int, default=14, help="seed of the random games")
    args = parser.parse_args()
    start = time.process_time()
    bad = 0
    gaps = 0
    tiles = 0
    on_tiles = 0
    widest = 0.0
    by_config: collections.Counter[tuple[str, int, int]] = collections.Counter()
    for rules, players, final in finished_rounds(args.seed, args.rounds):
        placements = chickenfoot.svg.placements(final)
        tiles += len(placements)
        by_config[(rules.deal, rules.max_pip, players)] += 1
        labels = chickenfoot.svg.labels(placements)
        on_tiles += sum(not label.beside for label in labels)
        found = overlapping(placements) + overlapping_labels(placements, labels)
        if found:
            bad += 1
            print(f"OVERLAP {found[:3]} in {cf.position(final)}")
        moved = [p.gap for p in placements if p.gap]
        gaps += len(moved)
        widest = max([widest, *moved])
    seconds = time.process_time() - start
    print(f"{args.rounds} rounds, {tiles} tiles, {len(by_config)} (preset, set, players) configurations")
    print(f"rounds with overlapping tiles or numbers: {bad}")
    print(f"numbers on their own tile, no room beside it: {on_tiles} of {tiles} ({on_tiles / tiles:.1%})")
    print(
        f"lines moved out (a gap): {gaps}, {gaps / args.rounds:.2f} a round, the widest {widest / 48:.1f} tile lengths"
    )
    print(f"CPU: {seconds:.1f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
