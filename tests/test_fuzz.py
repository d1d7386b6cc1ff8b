"""Fuzzing the readers with mutated valid documents (issue 12), and every entry point with values
of any type (issue 26).

Byte-level (flip, insert, delete, duplicate bytes) and structured (replace any field of the
parsed JSON with any JSON value) mutations of real documents. Every reader raises only its
documented error, never hangs, and what it accepts is what it claims: a game or record replays
from its seed and moves to the same state; a round or position (any well-formed position) reads
back, writes the same, and offers moves unless it is over.

Every public entry point, given values of any type, raises a :class:`TypeError` for the wrong
type or the one documented error of its kind (docs/api.md, "Errors"), never another.

CI runs the quick profile; the long one is run by hand (figures in the issue 12 report)::

    HYPOTHESIS_PROFILE=heavy python -m pytest tests/test_fuzz.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import chickenfoot as cf
from _games import play_randomly
from chickenfoot import actions

# Ten times the profile's examples: a reader call is cheap (CI's 40 -> 400 per test, heavy's 2,000 -> 20,000).
SETTINGS = settings(
    max_examples=10 * settings().max_examples, suppress_health_check=[HealthCheck.too_slow], deadline=None
)


@cache
def _documents() -> tuple[str, ...]:
    """Real documents of every kind, from games of both presets and one variant."""
    documents = []
    for rules, players, seed, moves in [
        (cf.Rules.trains(max_pip=6), 2, 1, 25),
        (cf.Rules.cross(max_pip=6, hand_size=5), 3, 2, 40),
        (cf.Rules.cross(center_fallback="highest_double", max_pip=6, hand_size=5), 2, 3, 60),
    ]:
        game = play_randomly(cf.new_game(rules, players, seed), random.Random(seed), moves)
        documents += [
            cf.to_json(game),
            cf.to_json(game.round),
            cf.to_json(cf.GameRecord.from_game(game)),
            cf.to_json(game.rules),
            cf.to_json(game.history[-1][1]),
        ]
    return tuple(documents)


def _check_accepted(obj: object) -> None:
    """Asserts that what a reader accepted is a state the rules reach."""
    if type(obj) is cf.GameState:
        assert cf.replay(cf.GameRecord.from_game(obj))[-1] == obj
    elif type(obj) is cf.GameRecord:
        assert tuple(move for _, move in cf.replay(obj)[-1].history) == obj.moves
    elif type(obj) is cf.RoundState:
        assert cf.from_json(cf.to_json(obj)) == obj
        assert cf.parse_position(cf.position(obj)) == obj
        assert obj.is_over or cf.legal_moves(obj)
        assert sum(map(len, obj.hands)) + len(obj.yard) + len(obj.board.nodes) == obj.rules.set_size


def _read(text: str | bytes) -> None:
    try:
        obj = cf.from_json(text)
    except cf.InvalidRecordError:
        return
    _check_accepted(obj)


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_byte_level_mutations_meet_only_the_documented_error(data: st.DataObject) -> None:
    text = bytearray(data.draw(st.sampled_from(_documents())).encode())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text) - 1))
        kind = data.draw(st.sampled_from(["flip", "insert", "delete", "duplicate"]))
        byte = data.draw(st.integers(0, 255))
        if kind == "flip":
            text[at] = byte
        elif kind == "insert":
            text.insert(at, byte)
        elif kind == "delete":
            del text[at]
        else:
            end = data.draw(st.integers(at, min(len(text), at + 40)))
            text[at:at] = text[at:end]
    _read(bytes(text))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.integers(-3, 70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["9-5", "6-6", "draw", "pass", "6-5@0", "", "trains", "cross", "0-0"])
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if type(value) is dict:
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif type(value) is list:
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@pytest.mark.slow
@SETTINGS
@given(st.data())
def test_structured_mutations_meet_only_the_documented_error(data: st.DataObject) -> None:
    document = json.loads(data.draw(st.sampled_from(_documents())))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)))
        if not path:
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        action = data.draw(st.sampled_from(["replace", "delete", "swap"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "swap" and type(parent) is list and len(parent) > 1:
            other = data.draw(st.integers(0, len(parent) - 1))
            parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(JSON_VALUES)
    _read(json.dumps(document))


POSITIONS = [
    cf.position(cf.new_game(cf.Rules.trains(max_pip=6), 2, 1)),
    cf.position(cf.new_game(cf.Rules.cross(max_pip=9), 4, 2)),
]
ALPHABET = "0123456789-,/<[]= abcdefghijklmnoprstuvwxyz_\t\n\u0669\uff19\u2003"


@pytest.mark.slow
@SETTINGS
@given(st.sampled_from(POSITIONS), st.lists(st.tuples(st.integers(0, 400), st.sampled_from(ALPHABET)), max_size=4))
def test_position_mutations_meet_only_the_documented_error(text: str, edits: list[tuple[int, str]]) -> None:
    chars = list(text)
    for at, char in edits:
        chars[at % len(chars)] = char
    try:
        state = cf.parse_position("".join(chars))
    except cf.InvalidRecordError:
        return
    _check_accepted(state)


@SETTINGS
@given(st.text(max_size=12) | st.sampled_from(["9-5", " 5-9@3 ", "DRAW", "pass", "18-18@999999"]))
def test_move_and_tile_text_meet_only_the_notation_error(text: str) -> None:
    for parse in (cf.parse_move, cf.Tile.parse):
        try:
            parsed = parse(text)
        except cf.InvalidMoveError:
            continue
        assert text.isascii()
        assert parse(str(parsed)) == parsed


# -- every entry point, one error policy -----------------------------------------------------------

ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 30),
    st.integers(-(2**300), 2**300),
    st.floats(),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.lists(st.integers(-2, 20), max_size=3).map(tuple),
    st.sampled_from(
        [
            cf.Tile(9, 5),
            cf.Tile(6, 6),
            cf.Tile(18, 0),
            cf.Draw(),
            cf.Pass(),
            cf.Play(cf.Tile(9, 5), 0),
            cf.Rules.trains(),
            (),
            ((), ()),
            (cf.Node(cf.Tile(9, 9), None, 9),),
            [(0, cf.Draw())],
        ]
    ),
)


@cache
def _game() -> cf.GameState:
    return play_randomly(cf.new_game(cf.Rules.trains(), 2, seed=3), random.Random(3), 30)


def _evolve(state: Any, field: str, value: object) -> object:
    return attrs.evolve(state, **{field: value})


# Each entry point, called with drawn values, and the errors its documentation names (with TypeError).
ENTRY_POINTS: dict[str, tuple[Callable[..., object], int, tuple[type[Exception], ...]]] = {
    "Tile": (cf.Tile, 2, (cf.InvalidMoveError,)),
    "Tile.parse": (cf.Tile.parse, 1, (cf.InvalidMoveError,)),
    "parse_move": (cf.parse_move, 1, (cf.InvalidMoveError,)),
    "Play": (cf.Play, 2, ()),
    "Node": (cf.Node, 3, ()),
    "Board": (cf.Board, 2, (cf.InvalidPositionError,)),
    "Board.start": (cf.Board.start, 2, (cf.InvalidPositionError,)),
    "Board.place": (lambda tile, onto: _game().round.board.place(tile, onto), 2, (cf.IllegalMoveError,)),
    "Board.node": (lambda index: _game().round.board.node(index), 1, (IndexError,)),
    "RoundState": (lambda *parts: cf.RoundState(*parts), 5, (cf.InvalidPositionError,)),
    "evolve(RoundState)": (
        lambda field, value: _evolve(_game().round, str(field), value),
        2,
        (cf.InvalidPositionError,),
    ),
    "evolve(GameState)": (
        lambda field, value: _evolve(_game(), str(field), value),
        2,
        (cf.InvalidPositionError, cf.RulesError),
    ),
    "Rules": (lambda option, value: cf.Rules.trains(**{str(option): value}), 2, (cf.RulesError,)),
    "new_game": (lambda players, seed: cf.new_game(cf.Rules.trains(), players, seed), 2, (cf.RulesError,)),
    "deal_round": (lambda *args: cf.deal_round(cf.Rules.trains(), *args), 3, (cf.RulesError,)),
    "apply": (lambda move: cf.apply(_game(), move), 1, (cf.IllegalMoveError,)),
    "legal_moves": (cf.legal_moves, 1, ()),
    "observe": (lambda seat: cf.observe(_game(), seat), 1, (cf.InvalidPositionError,)),
    "spectate": (cf.spectate, 1, ()),
    "position": (cf.position, 1, ()),
    "parse_position": (cf.parse_position, 1, (cf.InvalidRecordError,)),
    "from_json": (cf.from_json, 1, (cf.InvalidRecordError,)),
    "to_json": (cf.to_json, 1, ()),
    "score_round": (cf.score_round, 1, ()),
    "perft": (lambda depth: cf.perft(_game(), depth) if type(depth) is not int or depth < 3 else 0, 1, (ValueError,)),
    "replay": (cf.replay, 1, ()),
    "GameRecord": (lambda *parts: cf.GameRecord(*parts), 4, (cf.InvalidRecordError,)),
    "actions.decode": (lambda action: actions.decode(action, _game()), 1, (cf.InvalidMoveError,)),
    "actions.encode": (lambda move: actions.encode(move, _game()), 1, (cf.InvalidMoveError,)),
    "determinize": (lambda view: cf.determinize(view, random.Random(1)), 1, ()),
    "Outcome": (cf.Outcome, 2, (cf.InvalidPositionError,)),
}
STATE_FIELDS = ["rules", "hands", "yard", "board", "current_player", "drawn", "reserve", "history", "players", "seed"]
FIELD_NAMES = st.sampled_from(
    [*STATE_FIELDS, "round", "round_index", "totals", "results", "max_pip", "deal", "hand_size", "tie_break"]
)


@SETTINGS
@given(st.sampled_from(sorted(ENTRY_POINTS)), st.data())
def test_every_entry_point_raises_a_type_error_or_its_documented_error(name: str, data: st.DataObject) -> None:
    call, arity, documented = ENTRY_POINTS[name]
    first = FIELD_NAMES if name.startswith(("evolve", "Rules")) else ANY
    args = [data.draw(first), *(data.draw(ANY) for _ in range(arity - 1))]
    try:
        call(*args)
    except (TypeError, *documented):
        pass
    except attrs.exceptions.NotAnAttrsClassError:  # pragma: no cover - attrs' own error would be a bug here
        raise
    # Anything else (a KeyError, an AttributeError, a bare ValueError from deep inside) fails the test.


@pytest.mark.parametrize("digits", [101, 5_000, 100_000])
def test_a_number_of_too_many_digits_is_a_reader_limit(digits: int) -> None:
    record = json.loads(cf.to_json(cf.GameRecord(cf.Rules.trains(), 2, 1, ())))
    for field in ("seed", "players"):
        text = json.dumps(record).replace(f'"{field}": {record[field]}', f'"{field}": {"9" * digits}')
        with pytest.raises(cf.InvalidRecordError, match=f"a number of {digits:,} digits: the readers take"):
            cf.from_json(text)
    game = json.loads(cf.to_json(_game()))
    game["round"]["board"][1]["parent"] = 424242  # a marker, written out as the digits
    with pytest.raises(cf.InvalidRecordError, match=f"a number of {digits:,} digits"):
        cf.from_json(json.dumps(game).replace("424242", "7" * digits))
