"""The engine's fast core keeps the public objects exactly what their constructors make.

The public states are views over the core (built without their public constructors, with
their nodes and hands made on first use), the legal moves are cached, and the shuffle is
spelled out: these tests compare each against the plain way of getting the same thing.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import play_randomly, random_walk
from chickenfoot._core import CODES, DRAW, PASS, PublicMoves, play, shuffle
from chickenfoot._state import MOVES, _play_of, replace_game, replace_round


def _played(seed: int, moves: int, rules: cf.Rules | None = None, players: int = 4) -> cf.GameState:
    return play_randomly(cf.new_game(rules or cf.Rules.trains(), players, seed), random.Random(seed), moves)


@given(seed=st.integers(0, 2**32), size=st.integers(0, 200))
def test_the_deal_shuffle_is_random_shuffle(seed: int, size: int) -> None:
    expected, ours = list(range(size)), list(range(size))
    random.Random(seed).shuffle(expected)
    shuffle(random.Random(seed), ours)
    assert ours == expected


@pytest.mark.parametrize("moves", [0, 1, 17, 60])
def test_fast_built_states_equal_constructor_built_ones(moves: int) -> None:
    game = _played(3, moves, cf.Rules.trains(max_pip=12), players=3)
    state, board = game.round, game.round.board
    rebuilt_board = cf.Board(board.nodes, board.ends_by_value, board.ends_mask, board.pending, board.missing)
    rebuilt_state = replace_round(state, board=rebuilt_board)
    rebuilt_game = replace_game(game, round=rebuilt_state)
    assert type(game) is cf.GameState
    assert type(state) is cf.RoundState
    assert type(board) is cf.Board
    assert (rebuilt_game, rebuilt_state, rebuilt_board) == (game, state, board)
    assert hash(rebuilt_game) == hash(game)
    assert repr(rebuilt_board) == repr(board)
    assert pickle.loads(pickle.dumps(game)) == game
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.current_player = 0  # type: ignore[misc]


def test_board_nodes_read_one_by_one_match_the_tuple() -> None:
    board = _played(5, 400, cf.Rules.trains(max_pip=18), players=8).round.board
    fresh = replace_round(_played(5, 400, cf.Rules.trains(max_pip=18), players=8).round).board
    assert fresh.node(-1) == board.nodes[-1]  # read before the tuple is built
    assert fresh.node(0).parent is None  # the center hangs from nothing
    assert len(board) == len(board.nodes) > 16
    assert [board.node(i) for i in range(len(board))] == list(board.nodes)
    assert board.node(-1) == board.nodes[-1]
    assert board.node(-len(board)) == board.nodes[0]
    size = len(board)
    with pytest.raises(IndexError, match=f"^there is no node {size}: the board has nodes 0 to {size - 1}$"):
        board.node(size)
    with pytest.raises(IndexError, match=f"^there is no node {size}: the board has nodes 0 to {size - 1}$"):
        board.place(cf.Tile(18, 18), size)
    with pytest.raises(ValueError, match=r"^a board holds at least its center$"):
        cf.Board((), (), 0, None, 0)


def test_legal_moves_are_the_same_with_and_without_the_cache() -> None:
    game = _played(9, 40)
    cached = cf.legal_moves(game)
    fresh = replace_round(game.round)  # the public constructor starts without caches
    assert cf.legal_moves(fresh) == cached
    assert cf.legal_moves(game) is cached


def test_legal_moves_read_from_a_fresh_public_move_table_are_the_same() -> None:
    # The shared table of public moves grows a row per node as boards grow; a round must make
    # the rows it needs in any table, even one that has none yet.
    for seed in range(4):
        game = _played(seed, 45 * (seed + 1), cf.Rules.trains(max_pip=12), players=3)
        fresh = PublicMoves(cf.Draw(), cf.Pass(), _play_of)
        moves = game.round._round.public_legal(fresh)
        assert len(game.round.board) > 1
        assert moves == cf.legal_moves(game)
        assert len(fresh.table) >> 8 == len(game.round.board)  # a row per node, no more


@pytest.mark.rule("PLAY-1", "PLAY-2", "OPEN-2", "FOOT-2")
@pytest.mark.parametrize("rules", [cf.Rules.trains(), cf.Rules.cross()], ids=["trains", "cross"])
def test_a_board_accepts_a_value_only_where_an_open_end_offers_it(rules: cf.Rules) -> None:
    # Board.accepts against the SPEC's wording: while a node is pending, only it takes tiles
    # (OPEN-2, FOOT-2); otherwise a node takes a tile carrying the value it offers if it has room
    # (the center its arms, a double three toes, any other tile one, PLAY-2).
    arms = rules.arms_for(4)
    for seed in range(6):
        for game, _, _ in random_walk(cf.new_game(rules, 4, seed), random.Random(seed)):
            if game.round_index > 0:
                break
            board = game.round.board
            for onto, node in enumerate(board.nodes):
                room = arms if onto == 0 else 3 if node.tile.is_double else 1
                has_room = len(board.children(onto)) < room
                for value in range(rules.max_pip + 1):
                    takes = has_room if board.pending is None else onto == board.pending
                    expected = takes and node.exposed == value
                    assert board.accepts(value, onto) is expected, (cf.position(game.round), onto, value)


def test_an_equal_but_not_identical_move_applies_like_the_generated_one() -> None:
    game = _played(11, 10)
    move = next(m for m in cf.legal_moves(game) if type(m) is cf.Play)
    copy = cf.Play(cf.Tile(move.tile.low, move.tile.high), move.onto)
    assert copy is not move
    assert cf.apply(game, copy) == cf.apply(game, move)


@pytest.mark.parametrize("part", ["seed", "round_index", "players", "totals", "winners", "round", "results"])
def test_games_differing_in_one_part_are_unequal(part: str) -> None:
    game = _played(13, 150)  # past the first round, so it has results
    assert game.results
    assert not game.is_over
    changed_part = {
        "seed": game.seed + 1,
        "round_index": game.round_index + 1,
        "players": game.players + 1,
        "totals": tuple(total + 1 for total in game.totals),
        "winners": (0,),
        "round": replace_round(game.round, current_player=(game.round.current_player + 1) % game.players),
        "results": game.results[:-1],
    }[part]
    changed = replace_game(game, **{part: changed_part})
    assert changed != game
    assert game != changed
    assert replace_game(game) == game
    assert hash(replace_game(game)) == hash(game)


@pytest.mark.parametrize(
    "part", ["rules", "hands", "yard", "board", "current_player", "reserve", "drawn", "is_over", "went_out"]
)
def test_rounds_differing_in_one_part_are_unequal(part: str) -> None:
    state = _played(13, 30).round
    assert state.yard
    assert state.drawn is None
    assert not state.is_over
    first, *rest = state.hands
    board = state.board
    changed_part = {
        "rules": attrs.evolve(state.rules, double_out_penalty=5),
        "hands": (first[1:], *rest),
        "yard": state.yard[1:],
        "board": cf.Board(board.nodes[:-1], (), 0, None, 0) if len(board) > 1 else None,
        "current_player": (state.current_player + 1) % len(state.hands),
        "reserve": state.reserve + 1,
        "drawn": state.yard[0],
        "is_over": True,
        "went_out": 0,
    }[part]
    changed = replace_round(state, **{part: changed_part})
    assert changed != state
    assert state != changed
    assert replace_round(state) == state
    assert hash(replace_round(state)) == hash(state)


@pytest.mark.parametrize(
    "part", ["nodes", "tile", "parent", "exposed", "ends_by_value", "ends_mask", "pending", "missing"]
)
def test_boards_differing_in_one_part_are_unequal(part: str) -> None:
    board = _played(13, 30).round.board
    assert board.pending is not None  # a foot waits for toes here
    parts: dict[str, Any] = {
        "nodes": board.nodes,
        "ends_by_value": board.ends_by_value,
        "ends_mask": board.ends_mask,
        "pending": board.pending,
        "missing": board.missing,
    }
    early = board.nodes[1]  # far from the newest node: the comparison has to walk back to it
    unplaced = next(tile for tile in cf.full_set(9) if tile not in {node.tile for node in board.nodes})
    shared = next(value for value, ends in enumerate(board.ends_by_value) if len(ends) > 1)
    if part == "nodes":
        parts["nodes"] = board.nodes[:-1]
    elif part in ("tile", "parent", "exposed"):
        changed: Any = {"tile": unplaced, "parent": 1, "exposed": early.exposed + 1}[part]
        parts["nodes"] = (board.nodes[0], attrs.evolve(early, **{part: changed}), *board.nodes[2:])
    elif part == "ends_by_value":  # the same values open, in another order
        ends = list(board.ends_by_value)
        ends[shared] = ends[shared][::-1]
        parts["ends_by_value"] = tuple(ends)
    elif part == "ends_mask":
        parts["ends_mask"] = board.ends_mask ^ 1 << 18
    elif part == "pending":
        parts["pending"] = board.pending - 1
    else:
        parts["missing"] = board.missing + 1
    changed_board = cf.Board(**parts)
    assert changed_board != board
    assert board != changed_board
    assert cf.Board(board.nodes, board.ends_by_value, board.ends_mask, board.pending, board.missing) == board


def test_the_public_move_table_holds_each_play_at_its_code() -> None:
    # Rows are made a node at a time, each with the plays of every tile of the largest set; every
    # entry must be the move of its code, and draw and pass sit at their codes.
    made: list[int] = []

    def make(code: int) -> tuple[str, int, int]:
        made.append(code)
        return ("play", code & 255, code >> 8)

    tiles = len(cf.full_set(18))
    moves = PublicMoves("draw", "pass", make)
    moves.onto_nodes(2)
    table = moves.onto_nodes(3)
    assert len(made) == len(set(made)) == 3 * tiles  # each play made once
    for onto in range(3):
        for tile in range(tiles):
            assert table[play(tile, onto)] == ("play", tile, onto)
        assert table[play(tiles, onto)] is None  # no tile has that number
    assert (table[DRAW], table[PASS]) == ("draw", "pass")
    assert moves.onto_nodes(1) is table
    assert len(made) == 3 * tiles  # nothing more to make
    assert moves.nodes == 3


def test_the_codes_table_lists_the_codes_themselves() -> None:
    game = _played(5, 25)
    codes = game._round.legal()
    assert [MOVES.table[code] for code in codes] == list(cf.legal_moves(game))
    assert [CODES.table[code] for code in codes] == codes
