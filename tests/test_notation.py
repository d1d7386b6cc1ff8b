"""Position notation: exact round trips from random games, and clean refusal of broken text."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import games


def _rounds(game: cf.GameState) -> list[cf.RoundState]:
    """The round in play and every finished round's final state (blocked or gone out)."""
    return [game.round, *(result.final for result in game.results)]


@given(games())
def test_positions_round_trip_exactly(game: cf.GameState) -> None:
    for state in _rounds(game):
        text = cf.position(state)
        back = cf.parse_position(text)
        assert back == state
        assert cf.position(back) == text
        assert cf.legal_moves(back) == cf.legal_moves(state)
        assert "\n" not in text


def test_position_fields_read_as_documented() -> None:
    game = cf.new_game(cf.Rules.trains(), players=3, seed=4)
    game = cf.apply(game, cf.legal_moves(game)[0])
    rules, turn, drawn, reserve, hands, yard, board, status = cf.position(game).split(" ")
    state = game.round
    assert (rules, int(turn), drawn, int(reserve), status) == ("trains", state.current_player, "-", 1, "play")
    assert [hand.split(",") for hand in hands.split("/")] == [[str(t) for t in hand] for hand in state.hands]
    assert yard.split(",") == [str(tile) for tile in state.yard]
    move = state.history[0][1]
    assert isinstance(move, cf.Play)
    assert board == f"9-9,{move.tile}<0"


def test_rules_options_are_written_against_their_preset() -> None:
    rules = cf.Rules.cross(max_pip=12, center_arms=6, drawn_tile="must_play")
    game = cf.new_game(rules, players=4, seed=0)
    text = cf.position(game)
    assert text.startswith("cross[max_pip=12,center_arms=6,drawn_tile=must_play] ")
    assert cf.parse_position(text).rules == rules


def _valid() -> str:
    return cf.position(cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1))


def _replace_field(text: str, index: int, value: str) -> str:
    fields = text.split(" ")
    fields[index] = value
    return " ".join(fields)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace(" play", " won"), "status must be"),
        (lambda t: _replace_field(t, 0, "dominoes"), "must start with a preset"),
        (lambda t: _replace_field(t, 0, "trains[max_pip=10]"), "max_pip must be one of"),
        (lambda t: _replace_field(t, 0, "trains[colour=red]"), "unknown rules option"),
        (lambda t: _replace_field(t, 1, "7"), "player to move must be a seat"),
        (lambda t: _replace_field(t, 2, "6-6"), "drawn tile 6-6 is not in the hand"),
        (lambda t: _replace_field(t, 3, "x"), "reserve must be a whole number"),
        (lambda t: _replace_field(t, 6, "6-6,5-1<0"), "does not match node 0"),
        (lambda t: _replace_field(t, 6, "6-5"), "is not a double"),
        (lambda t: _replace_field(t, 6, "6-6,6-1<3"), "must name an earlier node"),
        (lambda t: t.replace("/", ",", 1), "hands field needs one hand per player"),
        (lambda t: t + " extra", "8 fields"),
        (lambda t: t.replace("6-6", "9-9"), "not in the double-6 set"),
    ],
)
def test_broken_positions_say_what_is_wrong(edit: object, message: str) -> None:
    text = edit(_valid())  # type: ignore[operator]
    with pytest.raises(cf.InvalidRecordError, match=message):
        cf.parse_position(text)


def test_tiles_must_each_be_in_one_place() -> None:
    text = _valid()
    hands = text.split(" ")[4]
    first = hands.split(",")[0]
    second_hand = hands.split("/")[1]
    with pytest.raises(cf.InvalidRecordError, match=f"{first} is in player 0's hand and in player 1's hand"):
        cf.parse_position(_replace_field(text, 4, hands.replace(second_hand, f"{first},{second_hand}")))
    with pytest.raises(cf.InvalidRecordError, match=f"missing .*{first}"):
        cf.parse_position(_replace_field(text, 4, hands.replace(f"{first},", "", 1)))


def test_boards_that_break_the_rules_are_refused() -> None:
    # The center 6-6 with two arms is pending: a tile may not go on an arm before both arms are down.
    state = cf.new_game(cf.Rules.trains(max_pip=6), players=2, seed=1).round
    free = [tile for tile in cf.full_set(6) if tile.carries(6) and not tile.is_double][:3]
    arm = free[0]
    onto_arm = next(t for t in cf.full_set(6) if t.carries(arm.other(6)) and t not in free and not t.is_double)
    board = f"6-6,{arm}<0,{onto_arm}<1"
    with pytest.raises(cf.InvalidRecordError, match=r"board node 2: the center 6-6 still needs 1 arm.*\(OPEN-2\)"):
        cf.parse_position(_replace_field(cf.position(state), 6, board))
    # A third arm on a two-arm center: full.
    board = f"6-6,{free[0]}<0,{free[1]}<0,{free[2]}<0"
    with pytest.raises(cf.InvalidRecordError, match=r"board node 3: node 0 \(6-6\) takes no more tiles.*\(OPEN-3\)"):
        cf.parse_position(_replace_field(cf.position(state), 6, board))


_ALPHABET = "0123456789-,/<[]=_ abdeilnoprstuwxy"


def _read(text: str) -> tuple[cf.RoundState | None, str]:
    """Reads a position, turning only the documented error into its message."""
    try:
        return cf.parse_position(text), ""
    except cf.InvalidRecordError as error:
        return None, str(error)


@given(st.text(alphabet=_ALPHABET, max_size=80) | st.text(max_size=40))
def test_random_text_is_refused_cleanly(text: str) -> None:
    state, message = _read(text)
    assert state is not None or message


@given(games(max_steps=80), st.data())
def test_corrupted_positions_are_refused_cleanly_or_read_whole(game: cf.GameState, data: st.DataObject) -> None:
    text = cf.position(game)
    for _ in range(data.draw(st.integers(1, 3))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 6)))
        text = text[:start] + data.draw(st.text(alphabet=_ALPHABET, max_size=5)) + text[end:]
    state, message = _read(text)
    if state is None:
        assert message
    else:
        assert cf.parse_position(cf.position(state)) == state
