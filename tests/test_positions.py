"""Positions set up by hand: any well-formed position is a RoundState, plays, reads back from its
notation and JSON, and says through ``status()`` what makes it unreachable from a deal."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import attrs
import pytest
from hypothesis import assume, given, strategies as st

import chickenfoot as cf
from _games import games
from strategies import playable, set_up_positions

T = cf.Tile


def _puzzle() -> cf.RoundState:
    """Two tiles in each hand and a full yard: no deal leaves that, but it is a position."""
    rules = cf.Rules.trains(max_pip=6)
    board = cf.Board.start(T(6, 6), arms=2).place(T(6, 5), 0).place(T(6, 2), 0)
    hands = ((T(5, 5), T(2, 1)), (T(4, 4), T(3, 0)))
    placed = {tile for hand in hands for tile in hand} | {node.tile for node in board.nodes}
    yard = tuple(tile for tile in cf.full_set(6) if tile not in placed)
    return cf.RoundState(rules, hands, yard, board, 0)


def test_a_hand_set_position_parses_reports_its_problems_plays_and_reads_back() -> None:
    puzzle = _puzzle()
    text = cf.position(puzzle)
    assert cf.parse_position(text) == puzzle
    assert cf.from_json(cf.to_json(puzzle)) == puzzle
    assert puzzle.status() == (cf.Problem.YARD_SIZE,)
    assert not puzzle.is_valid()
    for strict in (lambda: cf.parse_position(text, strict=True), lambda: cf.from_json(cf.to_json(puzzle), strict=True)):
        with pytest.raises(cf.InvalidRecordError, match="the yard has 21 tiles, more than the 7 these rules deal"):
            strict()
    state = puzzle
    for move in ["2-1@2", "draw", "pass", "5-5@1"]:
        state = cf.apply(state, cf.parse_move(move))
        assert cf.parse_position(cf.position(state)) == state
        assert cf.from_json(cf.to_json(state)).history == state.history
    assert state.outcome == cf.Outcome(cf.Termination.WENT_OUT, (0,))
    assert cf.position(state).endswith(" out0")


@given(set_up_positions())
def test_every_set_up_position_reads_back_from_its_notation_and_json(state: cf.RoundState) -> None:
    assert cf.parse_position(cf.position(state)) == state
    back = cf.from_json(cf.to_json(state))
    assert back == state
    assert back.history == state.history
    assert cf.position(back) == cf.position(state)
    assert attrs.evolve(state) == state
    copy = pickle.loads(pickle.dumps(state))
    assert (copy, copy.history) == (state, state.history)
    assert bool(cf.legal_moves(state)) == (not state.is_over)
    assert (state.outcome is None) == (not state.is_over)
    # Strict reading refuses exactly what status() finds (a position leaves the history out).
    if attrs.evolve(state, history=()).status():
        with pytest.raises(cf.InvalidRecordError, match="not a position play can reach"):
            cf.parse_position(cf.position(state), strict=True)
    else:
        assert cf.parse_position(cf.position(state), strict=True) == state
    if state.status():
        with pytest.raises(cf.InvalidRecordError, match="not a position play can reach"):
            cf.from_json(cf.to_json(state), strict=True)
    else:
        assert cf.from_json(cf.to_json(state), strict=True) == state


@given(games())
def test_every_state_play_reaches_has_no_problems_and_reads_back_strictly(game: cf.GameState) -> None:
    for state in (game.round, *(result.final for result in game.results)):
        assert state.status() == ()
        assert state.is_valid()
        assert cf.parse_position(cf.position(state), strict=True) == state
        assert cf.from_json(cf.to_json(state), strict=True) == state
    assert cf.from_json(cf.to_json(game)) == game
    assert cf.from_json(cf.to_json(game), strict=False) == game


@given(set_up_positions(), st.integers(0, 2**64), st.data())
def test_a_game_built_from_its_parts_reads_back_without_being_replayed(
    state: cf.RoundState, seed: int, data: st.DataObject
) -> None:
    assume(playable(state.rules, state.players))
    round_index = data.draw(st.integers(0, state.rules.rounds - 1))
    totals = tuple(data.draw(st.lists(st.integers(0, 500), min_size=state.players, max_size=state.players)))
    game = cf.GameState(state.rules, state.players, seed, state, round_index, totals)
    assert cf.from_json(cf.to_json(game), strict=False) == game
    assert attrs.evolve(game) == game
    with pytest.raises(cf.InvalidRecordError):  # by default a game is checked and replayed from its seed
        cf.from_json(cf.to_json(game))


# -- status(): one problem at a time ----------------------------------------------------------

DEALT = cf.deal_round(cf.Rules.trains(), players=2, seed=1, round_index=0)  # 21 tiles each, 12 in the yard


def _moved(state: cf.RoundState, hands: tuple[tuple[cf.Tile, ...], ...], yard: tuple[cf.Tile, ...]) -> cf.RoundState:
    return attrs.evolve(state, hands=hands, yard=yard)


def _two_empty_hands() -> cf.RoundState:
    three = cf.deal_round(cf.Rules.trains(), players=3, seed=1, round_index=0)
    first, second, third = three.hands
    return _moved(three, (first, (), ()), three.yard + second + third)


def _drawn_beside_a_play() -> cf.RoundState:
    hand = DEALT.hands[DEALT.current_player]
    assert any(tile.carries(9) for tile in hand)
    return attrs.evolve(DEALT, drawn=next(tile for tile in hand if not tile.carries(9)))


def _out_but_not_to_move() -> cf.RoundState:
    first, second = DEALT.hands
    out = 1 - DEALT.current_player
    hands = (first, ()) if out == 1 else ((), second)
    return _moved(DEALT, hands, DEALT.yard + (second if out == 1 else first))


def _eight_players_under_cross() -> cf.RoundState:
    rest = [tile for tile in cf.full_set(9) if tile is not T(9, 9)]
    hands = tuple(tuple(rest[seat::8]) for seat in range(8))
    return cf.RoundState(cf.Rules.cross(), hands, (), cf.Board.start(T(9, 9), 4), 0)


PROBLEMS: dict[cf.Problem, Callable[[], cf.RoundState]] = {
    cf.Problem.PLAYERS: _eight_players_under_cross,
    cf.Problem.ARMS: lambda: attrs.evolve(DEALT, board=cf.Board.start(T(9, 9), arms=3)),
    cf.Problem.RESERVE: lambda: attrs.evolve(DEALT, reserve=1),
    cf.Problem.YARD_SIZE: lambda: _moved(DEALT, (DEALT.hands[0][1:], DEALT.hands[1]), DEALT.yard + DEALT.hands[0][:1]),
    cf.Problem.HAND_SIZES: lambda: _moved(DEALT, (DEALT.hands[0] + DEALT.hands[1][:1], DEALT.hands[1][1:]), DEALT.yard),
    cf.Problem.EMPTY_HANDS: _two_empty_hands,
    cf.Problem.DRAWN: _drawn_beside_a_play,
    cf.Problem.TURN: _out_but_not_to_move,
    cf.Problem.HISTORY: lambda: attrs.evolve(DEALT, history=[(DEALT.current_player, cf.Pass())]),
}


@pytest.mark.rule("DEAL-1", "OPEN-1", "YARD-1", "DEAL-A3", "END-1", "DRAW-4", "TURN-1")
@pytest.mark.parametrize("problem", list(cf.Problem), ids=lambda problem: problem.name)
def test_status_names_each_problem_of_a_position_no_deal_reaches(problem: cf.Problem) -> None:
    assert DEALT.status() == ()
    state = PROBLEMS[problem]()
    assert problem in state.status()
    assert not state.is_valid()
    with pytest.raises(cf.InvalidRecordError, match="not a position play can reach"):
        cf.from_json(cf.to_json(state), strict=True)  # JSON keeps the history a position leaves out
    assert cf.from_json(cf.to_json(state)) == state  # read as set up, it is a position
    assert cf.parse_position(cf.position(state)) == state


@pytest.mark.parametrize(
    "problem", [cf.Problem.ARMS, cf.Problem.RESERVE, cf.Problem.YARD_SIZE, cf.Problem.HAND_SIZES, cf.Problem.DRAWN]
)
def test_a_single_change_to_a_dealt_round_makes_a_single_problem(problem: cf.Problem) -> None:
    assert PROBLEMS[problem]().status() == (problem,)


# -- what is not a position at all --------------------------------------------------------------


def _parts(**changes: object) -> dict[str, object]:
    parts: dict[str, object] = {
        "rules": DEALT.rules,
        "hands": DEALT.hands,
        "yard": DEALT.yard,
        "board": DEALT.board,
        "current_player": DEALT.current_player,
    }
    parts.update(changes)
    return parts


first, second = DEALT.hands
MALFORMED: dict[str, tuple[dict[str, object], str]] = {
    "a tile twice": (_parts(hands=(first, second + first[:1])), r"is in player 0's hand and in player 1's hand"),
    "a tile missing": (_parts(hands=(first[1:], second)), r"tiles missing from the hands, yard and board: "),
    "a tile of a bigger set": (_parts(yard=(*DEALT.yard, T(12, 0))), r"12-0 in the yard is not in the double-9 set"),
    "one hand": (_parts(hands=(first + second,)), r"a round has a hand per player, 2 to 64; got 1"),
    "no such seat": (_parts(current_player=2), r"the player to move must be a seat from 0 to 1, got 2"),
    "a drawn tile not held": (_parts(drawn=DEALT.yard[0]), r"the drawn tile .* is not in the hand of player"),
    "a negative reserve": (_parts(reserve=-1), r"the reserve is a whole number from 0"),
    "a history by no seat": (_parts(history=[(5, cf.Draw())]), r"the player of history entry 1 must be a seat"),
    "a history play off the board": (
        _parts(history=[(0, cf.Play(T(9, 5), 3))]),
        r"names a node the board does not have",
    ),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_parts_that_make_no_position_are_refused_naming_what_does_not_fit(name: str) -> None:
    parts, message = MALFORMED[name]
    with pytest.raises(cf.InvalidPositionError, match=message):
        cf.RoundState(**parts)  # type: ignore[arg-type]
    field = next(key for key in parts if parts[key] is not getattr(DEALT, key, None))
    with pytest.raises(cf.InvalidPositionError, match=message):
        attrs.evolve(DEALT, **{field: parts[field]})  # evolve checks as the constructor does


WRONG_TYPES: dict[str, dict[str, object]] = {
    "rules as text": _parts(rules="trains"),
    "hands as text": _parts(hands="9-5,4-4/3-3"),
    "a hand of text": _parts(hands=(first, ("9-5",))),
    "a board as nodes": _parts(board=DEALT.board.nodes),
    "a seat as text": _parts(current_player="0"),
    "a seat as a bool": _parts(current_player=True),
    "a drawn tile as text": _parts(drawn="9-5"),
    "a reserve as a float": _parts(reserve=1.0),
    "a history entry of three": _parts(history=[(0, cf.Draw(), 1)]),
    "a history move as text": _parts(history=[(0, "draw")]),
}


@pytest.mark.parametrize("name", sorted(WRONG_TYPES))
def test_parts_of_the_wrong_type_are_type_errors(name: str) -> None:
    with pytest.raises(TypeError):
        cf.RoundState(**WRONG_TYPES[name])  # type: ignore[arg-type]


def test_a_game_from_parts_checks_they_belong_together() -> None:
    game = cf.new_game(cf.Rules.trains(), players=2, seed=1)
    other_rules = cf.deal_round(cf.Rules.cross(), 2, 1, 0)
    with pytest.raises(cf.InvalidPositionError, match="the round is one of 2 players under"):
        attrs.evolve(game, round=other_rules)
    with pytest.raises(cf.InvalidPositionError, match="3 totals for 2 players"):
        attrs.evolve(game, totals=(0, 0, 0))
    with pytest.raises(cf.InvalidPositionError, match=r"round_index must be a round of the game, 0 to 9 \(ROUND-1\)"):
        attrs.evolve(game, round_index=10)
    with pytest.raises(cf.RulesError, match="a seed is a whole number of at most 256 bits"):
        attrs.evolve(game, seed=2**300)
    with pytest.raises(TypeError, match="seed must be an int"):
        attrs.evolve(game, seed=1.5)
    with pytest.raises(TypeError, match="results are RoundResult objects"):
        attrs.evolve(game, results=(None,))
    with pytest.raises(cf.RulesError, match="need 57 tiles"):  # rules that cannot deal the players (DEAL-1)
        cf.GameState(cf.Rules.cross(), 8, 0, _eight_players_under_cross(), 0, (0,) * 8)


# -- bots and search on a set-up position --------------------------------------------------------


def test_determinize_samples_the_hidden_tiles_of_a_set_up_position() -> None:
    puzzle = attrs.evolve(_puzzle(), history=[(1, cf.Play(T(6, 2), 0))])  # the last turn, the rest set up
    game = cf.GameState(puzzle.rules, 2, 0, puzzle, 0, (0, 0))
    view = cf.observe(game, 0)
    rng = random.Random(3)
    for _ in range(5):
        sample = cf.determinize(view, rng)
        assert cf.observe(sample, 0) == view
        assert sample.round.board == puzzle.board
        assert sample.round.hands[0] == puzzle.hands[0]
    with pytest.raises(cf.InvalidRecordError, match="more plays than its board has nodes"):
        cf.determinize(attrs.evolve(view, history=((0, cf.Play(T(6, 5), 0)),) * 3), rng)


def test_a_search_bot_plays_a_set_up_position_as_a_dealt_one() -> None:
    from chickenfoot.bots import SearchBot

    view = cf.observe(cf.GameState(_puzzle().rules, 2, 0, _puzzle(), 0, (0, 0)), 0)
    assert SearchBot(simulations=200, seed=1)(view) == cf.parse_move("2-1@2")  # 5-5 first lays a foot it cannot fill
