"""Plays random games across presets, sets, player counts and variants, checking invariants every move.

    python benchmarks/soak.py --moves 1000000      # the full soak (about an hour of CPU on one core)
    python benchmarks/soak.py --moves 20000        # a quick look

Checked after every move (each one names the rule or contract it guards):

* every tile of the set is in exactly one place: a hand, the yard or the board (SET-1);
* ``apply`` never changes its input (the state's values before and after are equal);
* every legal move applies, and the legal moves are distinct; an illegal move raises
  ``IllegalMoveError`` and changes nothing;
* the engine's caches agree with a fresh computation: a copy of the state without them has the
  same legal moves, and applying the chosen move to it gives an equal state;
* a draw never takes the yard below the reserve (YARD-1), and only a draw shrinks the yard;
* ``legal_moves`` is empty exactly when the game is over; the totals are the sums of the round
  scores (GAME-1);
* at each round's end, each score is the value of the tiles left in that hand (SCORE-1, SCORE-2),
  plus the double-out penalty for a player who went out on a double.

Exits with status 1 and prints the first violations if any invariant fails.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))  # run from a checkout without installing

import chickenfoot as cf

# (label, rules, player counts): both presets on every set, and the variants of SPEC.md.
CONFIGS: tuple[tuple[str, cf.Rules, tuple[int, ...]], ...] = (
    *((f"trains d{n}", cf.Rules.trains(max_pip=n), (2, 3, 4, 6, 8)) for n in (6, 9, 12, 18)),
    *((f"cross d{n}", cf.Rules.cross(max_pip=n), (2, 3, 4, 6, 8)) for n in (9, 12, 18)),
    ("trains may_play", cf.Rules.trains(drawn_tile="may_play"), (2, 4)),
    ("trains draw_until_playable", cf.Rules.trains(draw_until_playable=True), (2, 4, 6)),
    ("cross draw_until_playable", cf.Rules.cross(draw_until_playable=True, max_pip=12), (3, 8)),
    ("trains unfillable foot", cf.Rules.trains(unfillable_foot_ends_round=True), (2, 4, 8)),
    ("trains reserve 0", cf.Rules.trains(reserve=0), (3, 4)),
    ("trains reserve 2", cf.Rules.trains(reserve=2), (4, 5)),
    ("cross highest_double", cf.Rules.cross(center_fallback="highest_double"), (2, 4)),
    ("cross double chicken foot", cf.Rules.cross(max_pip=12, center_arms=6), (4, 6)),
    ("trains penalties", cf.Rules.trains(double_out_penalty=50, blank_value=25, double_blank_value=50), (3, 4)),
    ("cross zero_rounds d6", cf.Rules.cross(max_pip=6), (2, 3)),
)


@attrs.define
class Soak:
    """Counts what was played and keeps the first violations."""

    moves: int = 0
    games: int = 0
    rounds: int = 0
    checks: int = 0
    violations: list[str] = attrs.field(factory=list)

    def check(self, ok: bool, what: str, where: str) -> None:
        """Records a violation of ``what`` unless ``ok``."""
        self.checks += 1
        if not ok and len(self.violations) < 50:
            self.violations.append(f"{where}: {what}")


def values(game: cf.GameState) -> tuple[object, ...]:
    """Gets a game's values (not its identity) for the no-mutation check."""
    r = game.round
    board = r.board
    return (
        game.totals,
        len(game.results),
        game.round_index,
        r.hands,
        r.yard,
        board.nodes,
        board.ends_by_value,
        board.pending,
        board.missing,
        r.current_player,
        r.drawn,
        r.is_over,
        r.went_out,
        r.history,
    )


def tiles_in_one_place(state: cf.RoundState, rules: cf.Rules) -> bool:
    """Tells whether hands, yard and board hold every tile of the set exactly once (SET-1)."""
    placed = [tile for hand in state.hands for tile in hand]
    placed += state.yard
    placed += [node.tile for node in state.board.nodes]
    return len(placed) == rules.set_size and set(placed) == set(cf.full_set(rules.max_pip))


def expected_scores(state: cf.RoundState, rules: cf.Rules) -> tuple[int, ...]:
    """Scores a finished round from the definitions (SCORE-1, SCORE-2), independently of the engine."""
    scores = []
    for seat, hand in enumerate(state.hands):
        score = 0
        for tile in hand:
            if tile.high == tile.low == 0 and rules.double_blank_value is not None:
                score += rules.double_blank_value
            else:
                score += tile.high + tile.low
                if rules.blank_value is not None:
                    score += rules.blank_value * ((tile.high == 0) + (tile.low == 0))
        if seat == state.went_out and state.board.node(len(state.board) - 1).tile.is_double:
            score += rules.double_out_penalty
        scores.append(score)
    return tuple(scores)


def an_illegal_move(state: cf.RoundState, legal: Sequence[cf.Move], rng: random.Random) -> cf.Move | None:
    """Picks a move that is not legal now: a tile the mover lacks, or a draw or pass that is not allowed."""
    candidates: list[cf.Move] = [cf.Draw(), cf.Pass()]
    held = set(state.hands[state.current_player])
    others = [tile for tile in cf.full_set(state.rules.max_pip) if tile not in held]
    if others:
        candidates.append(cf.Play(rng.choice(others), 0))
    illegal = [move for move in candidates if move not in legal]
    return rng.choice(illegal) if illegal else None


def play_game(soak: Soak, label: str, rules: cf.Rules, players: int, seed: int, budget: int) -> None:
    """Plays one game at random until it ends or ``soak.moves`` reaches ``budget``, checking every move."""
    rng = random.Random(seed)
    game = cf.new_game(rules, players, seed)
    where = f"{label} {players}p seed {seed}"
    soak.games += 1
    while soak.moves < budget:
        state = game.round
        at = f"{where} round {game.round_index} move {len(state.history)}"
        legal = cf.legal_moves(game)
        soak.check(bool(legal) != game.is_over, "legal_moves is empty exactly when the game is over", at)
        soak.check(tiles_in_one_place(state, rules), "every tile is in exactly one place (SET-1)", at)
        soak.check(
            game.totals == tuple(sum(column) for column in zip(*(r.scores for r in game.results), strict=True))
            or not game.results,
            "totals are the sums of the round scores (GAME-1)",
            at,
        )
        if not legal:
            return
        soak.check(len(set(legal)) == len(legal), "legal moves are distinct", at)
        before = values(game)

        # The engine caches legal moves on a state; a copy made through the public constructor
        # has none, so it recomputes them from scratch.
        fresh = cf.RoundState(
            state.rules,
            state.hands,
            state.yard,
            state.board,
            state.current_player,
            drawn=state.drawn,
            reserve=state.reserve,
        )
        soak.check(cf.legal_moves(fresh) == legal, "cached legal moves equal freshly generated ones", at)

        results = []
        for move in legal:
            try:
                results.append(cf.apply(game, move))
            except Exception as error:  # any exception here is a violation
                soak.check(False, f"legal move {move} applies, but raised {error!r}", at)
        illegal = an_illegal_move(state, legal, rng)
        if illegal is not None:
            try:
                cf.apply(game, illegal)
                soak.check(False, f"illegal move {illegal} is refused", at)
            except cf.IllegalMoveError:
                soak.check(True, "", at)
        soak.check(values(game) == before, "apply never changes its input", at)
        if len(results) != len(legal):
            return

        choice = int(rng.random() * len(legal))
        move, after = legal[choice], results[choice]
        if not after.results or len(after.results) == len(game.results):
            soak.check(cf.apply(fresh, move) == after.round, "a state without caches moves to an equal state", at)
        if type(move) is cf.Draw:
            soak.check(len(after.round.yard) >= state.reserve, "a draw leaves the reserve in the yard (YARD-1)", at)
        elif len(after.results) == len(game.results):
            soak.check(after.round.yard == state.yard, "only a draw changes the yard", at)
        if len(after.results) > len(game.results):
            soak.rounds += 1
            result = after.results[-1]
            soak.check(result.final.is_over, "a finished round's final state is over", at)
            soak.check(
                result.scores == expected_scores(result.final, rules),
                "round scores are the values of the tiles left in hand (SCORE-1, SCORE-2)",
                at,
            )
        soak.moves += 1
        game = after


def schedule(seed: int) -> Iterator[tuple[str, cf.Rules, int, int]]:
    """Cycles through every configuration and player count the rules accept, with fresh seeds."""
    runs = []
    for label, rules, counts in CONFIGS:
        for players in counts:
            try:
                rules.check_players(players)
            except cf.RulesError:
                continue
            runs.append((label, rules, players))
    game_seed = seed * 1_000_003
    while True:
        for label, rules, players in runs:
            game_seed += 1
            yield label, rules, players, game_seed


def soak(moves: int, seed: int = 0, per_game: int | None = None, progress: bool = False) -> Soak:
    """Plays random games until ``moves`` moves were made; gets the counts and violations.

    ``per_game`` cuts each game short after that many moves, to visit every configuration sooner.
    """
    result = Soak()
    started = last = time.monotonic()
    for label, rules, players, game_seed in schedule(seed):
        if result.moves >= moves:
            break
        cap = moves if per_game is None else min(moves, result.moves + per_game)
        play_game(result, label, rules, players, game_seed, cap)
        if progress and time.monotonic() - last > 10:
            last = time.monotonic()
            rate = result.moves / (last - started)
            print(f"  {result.moves:,} moves, {result.games:,} games, {rate:,.0f} moves/s", file=sys.stderr)
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the soak and reports; exits 1 on any violation."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=1_000_000, help="moves to play in all (default 1,000,000)")
    parser.add_argument("--seed", type=int, default=0, help="where the game seeds start")
    parser.add_argument("--per-game", type=int, help="stop each game after this many moves (default: play it out)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    result = soak(args.moves, args.seed, args.per_game, progress=True)
    elapsed = time.monotonic() - started
    print(
        f"soak: {result.moves:,} moves, {result.rounds:,} rounds, {result.games:,} games, "
        f"{result.checks:,} checks in {elapsed:,.0f} s: {len(result.violations)} violations"
    )
    for violation in result.violations:
        print(f"  VIOLATION {violation}")
    return 1 if result.violations else 0


if __name__ == "__main__":
    raise SystemExit(main())
