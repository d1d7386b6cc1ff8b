"""Perft: the golden counts in examples/perft/, made by the reference, checked with the engine and by brute force."""

from __future__ import annotations

from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot import reference
from chickenfoot._io._perft import PerftCase, read_perft_file
from chickenfoot.conformance import reference_round, round_differences

PERFT_DIR = Path(__file__).resolve().parent.parent / "examples" / "perft"
CASES = [case for path in sorted(PERFT_DIR.glob("*.perft")) for case in read_perft_file(path.read_text("utf-8"))]
BRUTE_DEPTH = 3


def brute_force(state: cf.RoundState, expected: reference.Round, depth: int) -> int:
    """Counts sequences with the plain rules of :mod:`chickenfoot.reference`, trying every conceivable move.

    Every tile held onto every node, draw and pass: each is offered to the engine's ``apply``,
    which must accept exactly the moves the reference lists and reach the reference's state. The
    count itself walks the reference's states, so it does not depend on the engine.
    """
    if depth == 0 or expected.is_over:
        return 1
    legal = set(reference.legal_moves(expected))
    hand = expected.hands[expected.current_player]
    candidates = ["draw", "pass", *(f"{high}-{low}@{i}" for high, low in hand for i in range(len(expected.nodes)))]
    total = 0
    for move in candidates:
        try:
            engine_after = cf.apply(state, cf.parse_move(move))
        except cf.IllegalMoveError:
            assert move not in legal, move
            continue
        assert move in legal, move
        after = reference.apply(expected, move)
        assert round_differences(engine_after, after) == [], move
        total += brute_force(engine_after, after, depth - 1)
    return total


def test_the_golden_files_cover_the_required_positions() -> None:
    names = {case.name for case in CASES}
    required = {"center-opening-trains", "center-opening-cross", "pending-foot", "drawn-must-play"}
    required |= {"drawn-may-play", "reserve", "blocked", "going-out"}
    assert required <= names


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_golden_counts(case: PerftCase) -> None:
    state = case.state
    for depth, expected in case.counts:
        assert cf.perft(state, depth) == expected, depth
        assert reference.perft(reference_round(state), depth) == expected, depth
        if depth <= BRUTE_DEPTH:
            assert brute_force(state, reference_round(state), depth) == expected, depth


def _case(name: str) -> cf.RoundState:
    return next(case.state for case in CASES if case.name == name)


@pytest.mark.rule("OPEN-2")
@pytest.mark.parametrize("name", ["center-opening-trains", "center-opening-cross"])
def test_opening_counts_are_the_tiles_carrying_the_center(name: str) -> None:
    state = _case(name)
    center = state.board.center.high
    assert cf.perft(state, 1) == sum(1 for tile in state.hands[state.current_player] if tile.carries(center))


@pytest.mark.rule("FOOT-2")
def test_a_pending_foot_takes_every_play() -> None:
    state = _case("pending-foot")
    foot = state.board.pending
    assert foot not in (None, 0)
    assert all(isinstance(move, cf.Play) and move.onto == foot for move in cf.legal_moves(state))


@pytest.mark.rule("END-1")
def test_going_out_ends_the_count() -> None:
    state = _case("going-out")
    assert len(state.hands[state.current_player]) == 1
    assert cf.perft(state, 1) == cf.perft(state, 3)  # every move goes out, so nothing follows


@pytest.mark.rule("END-2")
def test_the_blocked_position_can_block() -> None:
    state = _case("blocked")
    assert any(cf.apply(state, move).is_over for move in cf.legal_moves(state))


def test_perft_basics() -> None:
    state = _case("going-out")
    assert cf.perft(state, 0) == 1
    finished = cf.apply(state, cf.legal_moves(state)[0])
    assert finished.is_over
    assert cf.perft(finished, 5) == 1
    with pytest.raises(ValueError, match="depth"):
        cf.perft(state, -1)


def test_perft_files_refuse_broken_blocks() -> None:
    with pytest.raises(cf.InvalidRecordError, match="perft DEPTH COUNT"):
        read_perft_file("id x\nepd y\nperft one 2\n")
    with pytest.raises(cf.InvalidRecordError, match="needs an id"):
        read_perft_file("perft 1 2\n")


@pytest.mark.rule("FOOT-3")
def test_the_last_toe_opens_the_board() -> None:
    state = _case("last-toe")
    assert state.board.missing == 1
    for move in cf.legal_moves(state):
        after = cf.apply(state, move)
        assert after.board.pending is None
        assert len(after.board.open_ends) > 1
