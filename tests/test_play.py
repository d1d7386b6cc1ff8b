"""Opening the center, playing, chicken feet, drawing, passing and the end of a round.

Each test builds the position it needs (see ``helpers.position``) and names the rule it proves.
"""

from __future__ import annotations

import copy

import pytest

import chickenfoot as cf
from chickenfoot import IllegalMoveError, Rules, Tile
from helpers import moves, position

TRAINS = Rules.trains()
CROSS = Rules.cross()


def _refused(state: cf.RoundState, text: str, reason: str) -> None:
    """Checks that the move is refused with ``reason`` and the state is unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError, match=reason):
        cf.apply(state, cf.parse_move(text))
    assert state == before


# -- opening the center -----------------------------------------------------------------------


@pytest.mark.rule("OPEN-1")
def test_open_1_trains_center_takes_one_arm_per_player() -> None:
    for players in range(2, 9):
        game = cf.new_game(TRAINS, players=players, seed=1)
        assert (game.round.board.pending, game.round.board.missing) == (0, players)
    assert cf.new_game(Rules.trains(center_arms=8), players=4, seed=1).round.board.missing == 8


@pytest.mark.rule("OPEN-1")
def test_open_1_cross_center_takes_four_arms_or_six() -> None:
    assert cf.new_game(CROSS, players=5, seed=1).round.board.missing == 4
    assert cf.new_game(Rules.cross(center_arms=6), players=5, seed=1).round.board.missing == 6


@pytest.mark.rule("OPEN-2")
def test_open_2_every_play_goes_onto_the_center_until_it_has_its_arms() -> None:
    state = position(TRAINS, ["9-3 3-1 1-1", "2-2", "4-4"], plays="9-1@0", current=0)
    assert moves(state) == {"9-3@0"}
    _refused(state, "3-1@1", "the center 9-9 still needs 2 arms: play a tile carrying 9 onto node 0")


@pytest.mark.rule("OPEN-2")
def test_open_2_an_arm_must_carry_the_centers_value() -> None:
    state = position(TRAINS, ["8-3 9-5", "2-2"], current=0)
    _refused(state, "8-3@0", "8-3 does not match node 0, which offers a 9")
    after = cf.apply(state, cf.parse_move("9-5@0"))
    assert after.board.nodes[1] == cf.Node(Tile(9, 5), 0, 5)


@pytest.mark.rule("OPEN-3")
def test_open_3_a_full_center_takes_no_more_tiles() -> None:
    state = position(TRAINS, ["9-4 1-0", "2-2"], plays="9-1@0 9-2@0", current=0)
    assert state.board.pending is None
    assert moves(state) == {"1-0@1"}
    _refused(state, "9-4@0", r"node 0 \(9-9\) takes no more tiles")


# -- playing ------------------------------------------------------------------------------------


@pytest.mark.rule("PLAY-1")
def test_play_1_a_tile_matches_an_open_end_and_exposes_its_other_half() -> None:
    state = position(TRAINS, ["5-3 4-2 6-6", "2-2"], plays="9-5@0 9-4@0", current=0)
    assert moves(state) == {"5-3@1", "4-2@2"}
    after = cf.apply(state, cf.parse_move("5-3@1"))
    assert after.board.nodes[-1] == cf.Node(Tile(5, 3), parent=1, exposed=3)
    assert 3 in {after.board.nodes[i].exposed for i in after.board.open_ends}
    _refused(state, "5-3@2", "5-3 does not match node 2, which offers a 4")
    _refused(state, "8-1@1", "player 0 does not hold 8-1")
    _refused(state, "5-3@7", "there is no node 7: the board has nodes 0 to 2")


@pytest.mark.rule("PLAY-1", "FOOT-1")
def test_play_1_a_double_exposes_its_own_value() -> None:
    state = position(TRAINS, ["5-5 1-0", "2-2"], plays="9-5@0 9-4@0", current=0)
    after = cf.apply(state, cf.parse_move("5-5@1"))
    assert after.board.nodes[-1].exposed == 5
    assert after.board.pending_value == 5


@pytest.mark.rule("PLAY-2")
def test_play_2_a_non_double_node_takes_one_tile() -> None:
    state = position(TRAINS, ["5-3 5-1", "2-2 8-0"], plays="9-5@0 9-8@0", yard="6-6", current=0, reserve=0)
    after = cf.apply(state, cf.parse_move("5-3@1"))
    after = cf.apply(after, cf.parse_move("8-0@2"))
    assert after.current_player == 0
    assert moves(after) == {"draw"}
    _refused(after, "5-1@1", r"node 1 \(9-5\) takes no more tiles")


@pytest.mark.rule("TURN-1")
def test_turn_1_turns_go_round_and_a_double_earns_no_extra_turn() -> None:
    state = position(TRAINS, ["9-1 1-1 0-0", "9-2 5-0", "9-3 6-0"], current=1)
    order = []
    for text in ["9-2@0", "9-3@0", "9-1@0"]:
        order.append(state.current_player)
        state = cf.apply(state, cf.parse_move(text))
    assert order == [1, 2, 0]
    assert state.current_player == 1
    state = position(TRAINS, ["1-1 0-0", "5-0", "6-0"], plays="9-1@0 9-2@0 9-3@0", current=0)
    state = cf.apply(state, cf.parse_move("1-1@1"))
    assert state.current_player == 1  # the double did not earn player 0 another turn


# -- chicken feet -------------------------------------------------------------------------------


@pytest.mark.rule("FOOT-1")
def test_foot_1_a_double_off_the_center_takes_exactly_three_toes() -> None:
    state = position(TRAINS, ["5-5 5-2 0-0", "5-1 1-1", "5-3 4-4"], plays="9-5@0 9-8@0 9-7@0", current=0)
    state = cf.apply(state, cf.parse_move("5-5@1"))
    foot = len(state.board.nodes) - 1
    assert (state.board.pending, state.board.missing) == (foot, 3)
    for text in ("5-1", "5-3", "5-2"):
        state = cf.apply(state, cf.parse_move(f"{text}@{foot}"))
    assert state.board.children(foot) == (foot + 1, foot + 2, foot + 3)
    assert state.board.pending is None
    assert all(state.board.nodes[i].tile.carries(5) for i in state.board.children(foot))


@pytest.mark.rule("FOOT-2")
def test_foot_2_while_a_foot_lacks_toes_every_play_goes_onto_it() -> None:
    state = position(TRAINS, ["5-5 0-0", "5-1 8-2", "5-3 7-4"], plays="9-5@0 9-8@0 9-7@0", current=0)
    state = cf.apply(state, cf.parse_move("5-5@1"))
    assert moves(state) == {"5-1@4"}  # 8-2 fits node 2, but the foot is pending
    _refused(state, "8-2@2", r"a chicken foot on 5-5 is pending \(3 toes to go\): play a tile carrying 5 onto node 4")
    state = cf.apply(state, cf.parse_move("5-1@4"))
    _refused(state, "7-4@3", r"a chicken foot on 5-5 is pending \(2 toes to go\)")


@pytest.mark.rule("FOOT-2")
def test_foot_2_at_most_one_node_is_pending() -> None:
    # A toe carries the foot's value, so it can never be a double itself: one set, one pending node.
    state = position(TRAINS, ["5-5 0-0", "5-1", "5-3"], plays="9-5@0 9-8@0 9-7@0", current=0)
    state = cf.apply(state, cf.parse_move("5-5@1"))
    assert all(not move.tile.is_double for move in cf.legal_moves(state) if isinstance(move, cf.Play))


@pytest.mark.rule("FOOT-3")
def test_foot_3_a_full_foot_takes_no_more_and_play_opens_everywhere() -> None:
    state = position(
        TRAINS, ["5-4 1-0 8-6", "2-2"], arms=3, plays="9-5@0 9-8@0 9-7@0 5-5@1 5-1@4 5-2@4 5-3@4", current=0
    )
    assert state.board.pending is None
    assert moves(state) == {"1-0@5", "8-6@2"}  # a toe and an old arm; not the foot's double
    _refused(state, "5-4@4", r"node 4 \(5-5\) takes no more tiles")


# -- drawing and passing ------------------------------------------------------------------------


@pytest.mark.rule("DRAW-1")
def test_draw_1_with_no_play_the_player_draws_the_first_yard_tile_and_keeps_the_turn() -> None:
    state = position(TRAINS, ["3-2", "8-8"], plays="9-5@0 9-4@0", yard="6-1 5-0 4-4", current=0)
    assert moves(state) == {"draw"}
    after = cf.apply(state, cf.Draw())
    assert after.hands[0] == (Tile(3, 2), Tile(6, 1))
    assert after.yard == state.yard[1:]
    assert after.yard[:2] == (Tile(5, 0), Tile(4, 4))
    assert (after.drawn, after.current_player) == (Tile(6, 1), 0)


@pytest.mark.rule("DRAW-2")
def test_draw_2_trains_a_playable_drawn_tile_must_be_played() -> None:
    state = position(TRAINS, ["3-2", "8-8"], plays="9-5@0 9-4@0", yard="5-1 0-0 1-1", current=0)
    state = cf.apply(state, cf.Draw())
    assert moves(state) == {"5-1@1"}
    _refused(state, "pass", "drew 5-1, which must be played")
    _refused(state, "draw", "already drew 5-1 this turn")
    after = cf.apply(state, cf.parse_move("5-1@1"))
    assert (after.current_player, after.drawn) == (1, None)


@pytest.mark.rule("DRAW-2")
def test_draw_2_trains_an_unplayable_drawn_tile_means_pass() -> None:
    state = position(TRAINS, ["3-2 6-0", "8-8"], plays="9-5@0 9-4@0", yard="2-1 0-0 1-1", current=0, reserve=0)
    state = cf.apply(state, cf.Draw())
    assert moves(state) == {"pass"}
    _refused(state, "6-0@1", "drew 2-1 this turn: only that tile may be played")
    after = cf.apply(state, cf.Pass())
    assert (after.current_player, after.drawn, after.hands[0]) == (1, None, (Tile(3, 2), Tile(6, 0), Tile(2, 1)))


@pytest.mark.rule("DRAW-3")
def test_draw_3_cross_a_playable_drawn_tile_may_be_played_or_kept() -> None:
    state = position(CROSS, ["6-6", "8-8"], plays="9-5@0 9-4@0 9-3@0 9-2@0", yard="5-1 0-0", current=0)
    state = cf.apply(state, cf.Draw())
    assert moves(state) == {"5-1@1", "pass"}
    kept = cf.apply(state, cf.Pass())
    assert kept.hands[0] == (Tile(6, 6), Tile(5, 1))
    assert kept.current_player == 1
    played = cf.apply(state, cf.parse_move("5-1@1"))
    assert played.hands[0] == (Tile(6, 6),)


@pytest.mark.rule("DRAW-4")
def test_draw_4_no_draw_while_holding_a_play_and_no_pass_while_a_draw_is_owed() -> None:
    can_play = position(TRAINS, ["5-3 1-1", "8-8"], plays="9-5@0 9-4@0", yard="2-1 0-0", current=0)
    _refused(can_play, "draw", r"player 0 can play \(5-3@1\) and so may not draw")
    _refused(can_play, "pass", r"player 0 can play \(5-3@1\) and so may not pass")
    owes_draw = position(TRAINS, ["3-2", "8-8"], plays="9-5@0 9-4@0", yard="2-1 0-0", current=0, reserve=0)
    _refused(owes_draw, "pass", "cannot play but the yard has tiles to draw: draw first")


@pytest.mark.rule("DRAW-1", "YARD-1")
def test_draw_1_the_reserve_is_never_drawn() -> None:
    state = position(TRAINS, ["3-2", "8-8 4-1"], plays="9-5@0 9-4@0", yard="6-6", current=0, reserve=1)
    assert moves(state) == {"pass"}
    # The position holds the unnamed tiles of the set back too: the reserve is more than the 1 named.
    _refused(state, "draw", f"the yard is down to its reserve of {state.reserve} tiles: nothing may be drawn, so pass")


@pytest.mark.rule("YARD-2")
def test_yard_2_a_player_who_can_neither_play_nor_draw_passes() -> None:
    state = position(TRAINS, ["3-2", "4-1 8-8"], plays="9-5@0 9-4@0", yard="6-6 0-0", current=0, reserve=2)
    assert cf.legal_moves(state) == (cf.Pass(),)
    after = cf.apply(state, cf.Pass())
    assert (after.current_player, after.is_over) == (1, False)


@pytest.mark.rule("DRAW-1")
def test_draw_until_playable_variant_keeps_drawing_within_the_turn() -> None:
    rules = Rules.trains(draw_until_playable=True)
    state = position(rules, ["3-2", "8-8"], plays="9-5@0 9-4@0", yard="6-6 2-0 4-1 0-0", current=0, reserve=0)
    state = cf.apply(state, cf.Draw())
    assert moves(state) == {"draw"}
    state = cf.apply(cf.apply(state, cf.Draw()), cf.Draw())
    assert (state.drawn, state.current_player) == (Tile(4, 1), 0)
    assert moves(state) == {"4-1@2"}


# -- ending a round -----------------------------------------------------------------------------


@pytest.mark.rule("END-1")
def test_end_1_the_round_ends_when_a_player_plays_their_last_tile() -> None:
    state = position(TRAINS, ["5-3", "8-8 4-1"], plays="9-5@0 9-4@0", yard="6-6 0-0", current=0)
    after = cf.apply(state, cf.parse_move("5-3@1"))
    assert (after.is_over, after.went_out, after.hands[0]) == (True, 0, ())
    assert cf.legal_moves(after) == ()
    _refused(after, "4-1@2", "the round is over")


@pytest.mark.rule("END-1")
def test_end_1_going_out_on_a_double_ends_the_round_with_the_foot_pending() -> None:
    state = position(TRAINS, ["5-5", "5-1 4-1"], plays="9-5@0 9-4@0", yard="6-6 0-0", current=0)
    after = cf.apply(state, cf.parse_move("5-5@1"))
    assert after.board.pending == 3
    assert (after.is_over, after.went_out) == (True, 0)


@pytest.mark.rule("END-2")
def test_end_2_blocked_when_nobody_can_play_or_draw() -> None:
    state = position(TRAINS, ["5-3 7-7", "8-8 6-6"], plays="9-5@0 9-4@0", yard="0-0", current=0, reserve=1)
    after = cf.apply(state, cf.parse_move("5-3@1"))  # leaves ends 3 and 4; nobody holds either
    assert (after.is_over, after.went_out) == (True, None)


@pytest.mark.rule("END-2")
def test_end_2_a_draw_down_to_the_reserve_can_block_the_round_at_once() -> None:
    state = position(TRAINS, ["3-2", "8-8"], plays="9-5@0 9-4@0", yard="6-6 0-0", current=0, reserve=1)
    after = cf.apply(state, cf.Draw())  # 6-6 fits nowhere; the yard is now only the reserve
    assert after.is_over
    assert after.went_out is None
    assert after.hands[0] == (Tile(3, 2), Tile(6, 6))


@pytest.mark.rule("END-2")
def test_end_2_not_blocked_while_someone_else_can_still_play() -> None:
    state = position(TRAINS, ["3-2", "5-1"], plays="9-5@0 9-4@0", yard="6-6 0-0", current=0, reserve=1)
    after = cf.apply(state, cf.Draw())
    assert not after.is_over
    assert moves(after) == {"pass"}


@pytest.mark.rule("END-2", "FOOT-2")
def test_end_2_a_pending_foot_nobody_can_fill_blocks_the_round() -> None:
    state = position(TRAINS, ["5-5 3-1", "5-1 8-2"], plays="9-5@0 9-8@0", yard="0-0", current=0, reserve=1)
    after = cf.apply(state, cf.parse_move("5-5@1"))
    assert not after.is_over  # player 1 holds 5-1
    after = cf.apply(after, cf.parse_move("5-1@3"))
    assert (after.is_over, after.went_out) == (True, None)  # two toes to go, no 5s left to play


@pytest.mark.rule("END-2")
def test_unfillable_foot_variant_ends_the_round_while_the_yard_still_has_tiles() -> None:
    plays = "9-5@0 9-8@0"
    hands = ["5-5 3-1", "5-1 8-2"]
    yard = "6-6 0-0 4-4 2-2"
    plain = position(TRAINS, hands, plays=plays, yard=yard, current=0)
    assert not cf.apply(plain, cf.parse_move("5-5@1")).is_over
    variant = position(Rules.trains(unfillable_foot_ends_round=True), hands, plays=plays, yard=yard, current=0)
    after = cf.apply(variant, cf.parse_move("5-5@1"))  # one 5 left anywhere, three toes needed
    assert (after.is_over, after.went_out) == (True, None)


# -- malformed moves ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "9-5", "9-5@", "@3", "draw!", "9-5@-1", "19-5@1", "9-5@x"])
def test_parse_move_refuses_malformed_text(text: str) -> None:
    with pytest.raises(cf.InvalidMoveError, match="is not a move"):
        cf.parse_move(text)


def test_move_text_round_trips() -> None:
    for move in (cf.Play(Tile(9, 5), onto=3), cf.Draw(), cf.Pass()):
        assert cf.parse_move(str(move)) == move
        assert eval(repr(move), vars(cf)) == move


def test_apply_refuses_non_moves_and_malformed_plays_without_a_traceback_from_inside() -> None:
    state = position(TRAINS, ["9-5", "8-8"], current=0)
    with pytest.raises(TypeError, match="is not a move"):
        cf.apply(state, "9-5@0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"a Play's tile is a chickenfoot\.Tile"):
        cf.Play("9-5", onto=0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState or RoundState"):
        cf.apply(object(), cf.Draw())  # type: ignore[call-overload]


@pytest.mark.parametrize("onto", [False, 0.0, "0", None])
def test_a_play_node_index_must_be_a_whole_number(onto: object) -> None:
    with pytest.raises(TypeError, match="a Play's onto is a node index"):
        cf.Play(Tile(9, 5), onto=onto)  # type: ignore[arg-type]


def test_a_play_takes_any_integer_type_as_its_node() -> None:
    class Index:  # what numpy's integers look like to Python
        def __index__(self) -> int:
            return 3

    move = cf.Play(Tile(9, 5), onto=Index())  # type: ignore[arg-type]
    assert type(move.onto) is int
    assert move == cf.Play(Tile(9, 5), onto=3)


def test_parse_move_refuses_a_huge_node_number_as_invalid() -> None:
    with pytest.raises(cf.InvalidMoveError, match="is not a move"):
        cf.parse_move("9-5@" + "1" * 5000)


def test_legal_moves_and_apply_name_what_they_take() -> None:
    with pytest.raises(TypeError, match=r"^legal_moves takes a GameState or RoundState, got str$"):
        cf.legal_moves("9-9")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^apply takes a GameState or RoundState, got str$"):
        cf.apply("9-9", cf.Draw())  # type: ignore[call-overload]
