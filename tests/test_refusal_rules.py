"""Every refused move names the rule that refuses it (``IllegalMoveError.rule``).

A UI links a refusal to its rule (the browser playground does), so the ID must be the right one.
The expected IDs are worked out here from the rules' text, not from the engine's checks.
"""

from __future__ import annotations

import pickle
import random

import pytest

import chickenfoot as cf
from _games import random_walk
from chickenfoot import IllegalMoveError, Rules, reference
from chickenfoot.conformance import reference_round


def _expected_play_rule(state: cf.RoundState, move: cf.Play) -> str:
    """Names the rule a play of a tile in hand breaks, read from the SPEC's wording."""
    board = state.board
    if state.drawn is not None and move.tile != state.drawn:
        return "DRAW-2" if state.rules.drawn_tile == "must_play" else "DRAW-3"
    if not 0 <= move.onto < len(board.nodes):  # no such node, so no open end
        return "PLAY-1"
    if board.pending is not None and move.onto != board.pending:
        return "OPEN-2" if board.pending == 0 else "FOOT-2"
    node = board.nodes[move.onto]
    if board.node(move.onto).exposed not in (move.tile.high, move.tile.low):
        return "PLAY-1"
    # The tile fits the value: only a full node is left to refuse it.
    if node.parent is None:
        return "OPEN-3"
    return "FOOT-3" if node.tile.is_double else "PLAY-2"


def _refusal(state: cf.RoundState, move: cf.Move) -> IllegalMoveError | None:
    try:
        cf.apply(state, move)
    except IllegalMoveError as error:
        return error
    return None


@pytest.mark.slow
@pytest.mark.rule("PLAY-1", "PLAY-2", "OPEN-2", "OPEN-3", "FOOT-2", "FOOT-3", "DRAW-2", "DRAW-3", "DRAW-4")
@pytest.mark.parametrize("rules", [Rules.trains(), Rules.cross()], ids=["trains", "cross"])
def test_every_refused_play_draw_and_pass_names_its_rule(rules: Rules) -> None:
    seen: set[str] = set()
    for seed in range(10):
        for state, _, _ in random_walk(cf.new_game(rules, players=3, seed=seed).round, random.Random(seed)):
            hand = state.hands[state.current_player]
            for tile in hand[:4]:
                for onto in (*range(len(state.board.nodes)), 999):
                    move = cf.Play(tile, onto=onto)
                    error = _refusal(state, move)
                    if error is not None:
                        assert error.rule == _expected_play_rule(state, move), (str(error), cf.position(state))
                        seen.add(error.rule)
            for move in (cf.Draw(), cf.Pass()):
                error = _refusal(state, move)
                if error is not None:
                    assert error.rule in {"DRAW-1", "DRAW-2", "DRAW-4", "YARD-2"}, str(error)
                    seen.add(error.rule)
    drawn_rule = "DRAW-2" if rules.drawn_tile == "must_play" else "DRAW-3"
    assert {"PLAY-1", "PLAY-2", "OPEN-2", "FOOT-2", "FOOT-3", "DRAW-4", drawn_rule} <= seen


@pytest.mark.slow
@pytest.mark.rule("PLAY-1", "PLAY-2", "OPEN-2", "OPEN-3", "FOOT-2", "FOOT-3")
def test_a_board_refuses_what_the_rules_refuse_with_the_same_reason() -> None:
    # Board.place on its own (no hand, no turn) refuses a tile that does not fit, as apply would;
    # a board is never built wrong.
    seen: set[str] = set()
    for seed in range(6):
        for state, _, _ in random_walk(cf.new_game(Rules.trains(), players=4, seed=seed).round, random.Random(seed)):
            board = state.board
            for tile in state.hands[state.current_player]:
                for onto in range(len(board)):
                    move = cf.Play(tile, onto=onto)
                    if move in cf.legal_moves(state) or state.drawn is not None:
                        continue
                    with pytest.raises(IllegalMoveError) as refused:
                        board.place(tile, onto)
                    error = _refusal(state, move)
                    assert error is not None
                    assert (str(refused.value), refused.value.rule) == (str(error), error.rule)
                    assert refused.value.rule == _expected_play_rule(state, move)
                    seen.add(error.rule)
    assert {"PLAY-1", "PLAY-2", "OPEN-2", "FOOT-2", "FOOT-3"} <= seen
    with pytest.raises(IllegalMoveError, match=r"^there is no node 2: the board has nodes 0 to 1$") as refused:
        cf.Board.start(cf.Tile(9, 9), arms=4).place(cf.Tile(9, 5), 0).place(cf.Tile(5, 1), 2)
    assert refused.value.rule == "PLAY-1"  # as apply() refuses a play onto a node the board does not have


@pytest.mark.rule("PLAY-1")
def test_a_tile_not_in_hand_is_refused_under_play_1() -> None:
    game = cf.new_game(Rules.trains(), players=4, seed=7)
    error = _refusal(game.round, cf.Play(cf.Tile(9, 5), onto=0))
    assert error is not None
    assert (str(error), error.rule) == ("player 3 does not hold 9-5", "PLAY-1")


@pytest.mark.rule("ROUND-1", "END-1", "END-2")
def test_moves_after_the_end_name_the_end() -> None:
    game = cf.new_game(Rules.cross(), players=2, seed=3)
    while not game.is_over:
        game = cf.apply(game, cf.legal_moves(game)[0])
    over = _refusal(game, cf.Draw())  # type: ignore[arg-type]
    assert over is not None
    assert over.rule == "ROUND-1"
    assert str(over) == "the game is over: no more moves"
    ends = set()
    for result in game.results:
        error = _refusal(result.final, cf.Pass())
        assert error is not None
        assert error.rule == ("END-2" if result.went_out is None else "END-1")
        assert str(error) == "the round is over: no more moves"
        ends.add(error.rule)
    assert "END-1" in ends


def test_the_rule_survives_pickling() -> None:
    error = IllegalMoveError("9-5 does not match node 3, which offers a 4", "PLAY-1")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.rule) == (IllegalMoveError, str(error), "PLAY-1")


def test_a_value_that_is_no_move_is_a_type_error_not_an_illegal_move() -> None:
    game = cf.new_game(Rules.trains(), players=2, seed=1)
    with pytest.raises(TypeError, match=r"^'draw' is not a move: use Play, Draw or Pass, or parse_move"):
        cf.apply(game, "draw")  # type: ignore[arg-type]
    over = cf.apply(game, cf.legal_moves(game)[0])
    while not over.is_over:
        over = cf.apply(over, cf.legal_moves(over)[0])
    with pytest.raises(TypeError, match="is not a move"):  # the type is checked first, even once over
        cf.apply(over, None)  # type: ignore[arg-type]


def _listed_plays(message: str) -> tuple[list[str], bool]:
    """Reads the plays a DRAW-4 refusal lists, and whether it says there are more."""
    listed = message[message.index("(") + 1 : message.index(")")].split(", ")
    more = listed[-1] == "..."
    return (listed[:-1] if more else listed), more


@pytest.mark.slow
@pytest.mark.rule("DRAW-4", "YARD-2", "OPEN-2", "FOOT-2")
def test_refusal_reasons_read_in_full() -> None:
    """The reasons' words, worked out from the position: plays listed, counts, plurals."""
    seen: set[object] = set()
    for seed in range(30):
        rules = Rules.trains(reserve=1) if seed % 2 else Rules.cross(reserve=2)
        for state, _, _ in random_walk(cf.new_game(rules, players=3, seed=seed).round, random.Random(seed)):
            player, board = state.current_player, state.board
            plays = [move for move in reference.legal_moves(reference_round(state)) if "@" in move]
            draw, passing = _refusal(state, cf.Draw()), _refusal(state, cf.Pass())
            if plays and state.drawn is None:
                assert draw is not None
                listed, more = _listed_plays(str(draw))
                assert str(draw).startswith(f"player {player} can play (")
                assert str(draw).endswith(") and so may not draw (DRAW-4)")
                assert set(listed) <= set(plays)
                assert (len(listed), more) == (min(3, len(plays)), len(plays) > 3)
                seen.add(min(len(plays), 5))
            elif not plays and state.drawn is None and len(state.yard) > state.reserve:
                assert (
                    str(passing) == f"player {player} cannot play but the yard has tiles to draw: draw first (DRAW-4)"
                )
                seen.add("draw first")
            elif not plays and state.drawn is None:
                tiles = "tile" if state.reserve == 1 else "tiles"
                expected = f"the yard is down to its reserve of {state.reserve} {tiles}: nothing may be drawn, so pass"
                assert str(draw) == expected + " (YARD-2)"
                seen.add(tiles)
            if board.pending is not None and state.drawn is None and len(board.nodes) > 1:
                node = board.nodes[board.pending]
                room = rules.arms_for(3) if board.pending == 0 else 3
                missing = room - len(board.children(board.pending))
                wrong = next(i for i in range(len(board.nodes)) if i != board.pending)
                tile = next((t for t in state.hands[player] if t.carries(node.exposed)), None)
                if tile is not None:
                    error = _refusal(state, cf.Play(tile, wrong))
                    assert error is not None
                    if board.pending == 0:
                        what = f"the center {node.tile} still needs {missing} arm{'s' * (missing > 1)}"
                    else:
                        what = f"a chicken foot on {node.tile} is pending ({missing} toe{'s' * (missing > 1)} to go)"
                    assert str(error) == f"{what}: play a tile carrying {node.exposed} onto node {board.pending}"
                    seen.add(("center" if board.pending == 0 else "foot", missing > 1))
            if board.pending is None and state.drawn is None:
                size = len(board.nodes)
                beyond = _refusal(state, cf.Play(state.hands[player][0], size))  # one past the last node
                assert str(beyond) == f"there is no node {size}: the board has nodes 0 to {size - 1}"
                seen.add("no node")
    assert {1, 3, 4, 5, "no node", "draw first", "tile", "tiles", ("center", True), ("center", False)} <= seen
    assert {("foot", True), ("foot", False)} <= seen
