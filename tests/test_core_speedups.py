"""The engine's fast core keeps the public objects exactly what their constructors make.

The public states are views over the core (built without their public constructors, with
their nodes and hands made on first use), the legal moves are cached, and the shuffle is
spelled out: these tests compare each against the plain way of getting the same thing.
"""

from __future__ import annotations

import ast
import pickle
import random
from pathlib import Path

import attrs
import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import play_randomly, random_walk
from chickenfoot._core._codes import CODES, DRAW, PASS, PublicMoves, play
from chickenfoot._core._round import shuffle
from chickenfoot._game._moves import MOVES, _play_of


def _slots_in_source(module: str, name: str) -> list[str]:
    # Read from the source, since a compiled class (mypyc) has no ``__slots__`` to ask.
    source = (Path(cf.__file__).parent / "_core" / f"{module}.py").read_text(encoding="utf-8")
    [node] = [node for node in ast.parse(source).body if isinstance(node, ast.ClassDef) and node.name == name]
    [slots] = [
        statement.value
        for statement in node.body
        if isinstance(statement, ast.Assign) and [ast.unparse(target) for target in statement.targets] == ["__slots__"]
    ]
    return list(ast.literal_eval(slots))


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
    rebuilt_board = cf.Board(board.nodes, board.arms)
    rebuilt_state = attrs.evolve(state, board=rebuilt_board)
    rebuilt_game = attrs.evolve(game, round=rebuilt_state)
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
    fresh = attrs.evolve(_played(5, 400, cf.Rules.trains(max_pip=18), players=8).round).board
    assert fresh.node(-1) == board.nodes[-1]  # read before the tuple is built
    assert fresh.node(0).parent is None  # the center hangs from nothing
    assert len(board) == len(board.nodes) > 16
    assert [board.node(i) for i in range(len(board))] == list(board.nodes)
    assert board.node(-1) == board.nodes[-1]
    assert board.node(-len(board)) == board.nodes[0]
    size = len(board)
    with pytest.raises(IndexError, match=f"^there is no node {size}: the board has nodes 0 to {size - 1}$"):
        board.node(size)
    with pytest.raises(cf.IllegalMoveError, match=f"^there is no node {size}: the board has nodes 0 to {size - 1}$"):
        board.place(cf.Tile(18, 18), size)  # as apply() refuses it
    with pytest.raises(cf.InvalidPositionError, match=r"^a board holds at least its center$"):
        cf.Board((), arms=4)


def test_legal_moves_are_the_same_with_and_without_the_cache() -> None:
    game = _played(9, 40)
    cached = cf.legal_moves(game)
    fresh = attrs.evolve(game.round)  # the public constructor starts without caches
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


@pytest.mark.parametrize("part", ["seed", "round_index", "totals", "round", "results"])
def test_games_differing_in_one_field_are_unequal(part: str) -> None:
    game = _played(13, 150)  # past the first round, so it has results
    assert game.results
    assert not game.is_over
    changed_part = {
        "seed": game.seed + 1,
        "round_index": game.round_index + 1,
        "totals": tuple(total + 1 for total in game.totals),
        "round": attrs.evolve(game.round, reserve=game.round.reserve + 1),
        "results": game.results[:-1],
    }[part]
    changed = attrs.evolve(game, **{part: changed_part})
    assert changed != game
    assert game != changed
    assert attrs.evolve(game) == game
    assert hash(attrs.evolve(game)) == hash(game)


def test_a_game_is_equal_to_the_one_its_fields_build() -> None:
    game = _played(13, 150)
    assert cf.GameState(**attrs.asdict(game, recurse=False)) == game
    assert attrs.astuple(game, recurse=False) == tuple(
        getattr(game, field.name) for field in attrs.fields(cf.GameState)
    )


@pytest.mark.parametrize("part", ["rules", "hands", "yard", "board", "current_player", "reserve", "drawn"])
def test_rounds_differing_in_one_field_are_unequal(part: str) -> None:
    state = _played(13, 1).round  # one arm on the center: it is pending, so its arm count can change
    assert state.yard
    assert state.drawn is None
    assert not state.is_over
    assert state.board.pending == 0
    first, *rest = state.hands
    changed_part = {
        "rules": attrs.evolve(state.rules, double_out_penalty=5),
        "hands": (first[::-1], *rest),  # the order inside a hand is part of the state
        "yard": state.yard[::-1],
        "board": attrs.evolve(state.board, arms=state.board.arms + 1),
        "current_player": (state.current_player + 1) % len(state.hands),
        "reserve": state.reserve + 1,
        "drawn": state.hands[state.current_player][0],
    }[part]
    changed = attrs.evolve(state, **{part: changed_part})
    assert changed != state
    assert state != changed
    assert attrs.evolve(state) == state
    assert hash(attrs.evolve(state)) == hash(state)


def test_rounds_differing_only_in_history_are_equal() -> None:
    state = _played(13, 30).round
    assert state.history
    assert attrs.evolve(state, history=()) == state
    assert hash(attrs.evolve(state, history=())) == hash(state)
    assert attrs.evolve(state, history=()).history == ()


@pytest.mark.parametrize("part", ["nodes", "arms"])
def test_boards_differing_in_one_field_are_unequal(part: str) -> None:
    board = _played(13, 1).round.board
    assert board.pending == 0  # the center waits for arms here
    changed = {"nodes": board.nodes[:-1], "arms": board.arms + 1}[part]
    changed_board = attrs.evolve(board, **{part: changed})
    assert changed_board != board
    assert board != changed_board
    assert cf.Board(board.nodes, board.arms) == board
    assert hash(cf.Board(board.nodes, board.arms)) == hash(board)


def test_a_board_refuses_nodes_the_placement_rules_do_not_place() -> None:
    board = _played(13, 30).round.board
    early = board.nodes[1]
    unplaced = next(tile for tile in cf.full_set(9) if tile not in {node.tile for node in board.nodes})
    for part, changed in [("tile", unplaced), ("parent", 1), ("exposed", early.exposed + 1)]:
        nodes = (board.nodes[0], attrs.evolve(early, **{part: changed}), *board.nodes[2:])
        with pytest.raises(cf.InvalidPositionError, match=r"^board node 1"):
            cf.Board(nodes, board.arms)


def test_the_public_move_table_holds_each_play_at_its_code() -> None:
    # Rows are made a node at a time, each with the plays of every tile of the largest set asked
    # for so far, and take a larger set's tiles when one is asked for; every entry must be the
    # move of its code, each made once, and draw and pass sit at their codes.
    made: list[int] = []

    def make(code: int) -> tuple[str, int, int]:
        made.append(code)
        return ("play", code & 255, code >> 8)

    def assert_rows(table: list[object], nodes: int, tiles: int) -> None:
        for onto in range(nodes):
            for tile in range(tiles):
                assert table[play(tile, onto)] == ("play", tile, onto)
            assert table[play(tiles, onto)] is None  # no tile of the sets asked for has that number
        assert (table[DRAW], table[PASS]) == ("draw", "pass")

    double_6, double_18 = len(cf.full_set(6)), len(cf.full_set(18))
    moves = PublicMoves("draw", "pass", make)
    moves.onto_nodes(2, double_6)
    table = moves.onto_nodes(3, double_6)
    assert len(made) == len(set(made)) == 3 * double_6  # each play made once, of the set's tiles only
    assert_rows(table, 3, double_6)
    assert moves.onto_nodes(1, double_6) is table
    assert len(made) == 3 * double_6  # nothing more to make
    assert moves.onto_nodes(4, double_18) is table  # a larger set: the rows made take its tiles, and a row more
    assert len(made) == len(set(made)) == 4 * double_18
    assert_rows(table, 4, double_18)
    assert moves.onto_nodes(4, double_6) is table
    assert (moves.nodes, moves.tiles, len(made)) == (4, double_18, 4 * double_18)


def test_the_codes_table_lists_the_codes_themselves() -> None:
    game = _played(5, 25)
    codes = game._round.legal()
    assert [MOVES.table[code] for code in codes] == list(cf.legal_moves(game))
    assert [CODES.table[code] for code in codes] == codes


@pytest.mark.parametrize("rules", [cf.Rules.trains(), cf.Rules.cross(center_fallback="highest_double")])
def test_every_round_is_built_whole(rules: cf.Rules) -> None:
    # A round's builders (round_on, a play, a draw or a pass, moved) store its fields one by one:
    # a field forgotten would be unset, which reading it raises (pure or compiled).
    fields = [*_slots_in_source("_round", "Openings"), *_slots_in_source("_round", "Round")]
    assert {"pending", "yard"} <= set(fields)
    kinds = set()
    for seed in range(3):
        for _, move, after in random_walk(cf.new_game(rules, 3, seed), random.Random(seed)):
            core = after._round
            assert [field for field in fields if not hasattr(core, field)] == []
            assert core.legal_cache is None or core.legal_cache == core.legal()
            kinds.add(type(move).__name__)
    assert kinds == {"Play", "Draw", "Pass"}
