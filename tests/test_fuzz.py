"""Fuzzing the readers with mutated valid documents (issue 12).

Byte-level (flip, insert, delete, duplicate bytes) and structured (replace any field of the
parsed JSON with any JSON value) mutations of real documents. Every reader raises only its
documented error, never hangs, and what it accepts is a state the rules reach: a game or record
replays from its seed and moves to the same state; a round or position reads back, writes the
same, and offers moves unless it is over.

CI runs the quick profile; the long one is run by hand (figures in the issue 12 report)::

    HYPOTHESIS_PROFILE=heavy python -m pytest tests/test_fuzz.py
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import chickenfoot as cf
from _games import play_randomly

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
            cf.to_json(game.moves[-1]),
        ]
    return tuple(documents)


def _check_accepted(obj: object) -> None:
    """Asserts that what a reader accepted is a state the rules reach."""
    if type(obj) is cf.GameState:
        assert cf.replay(cf.GameRecord.from_game(obj))[-1] == obj
    elif type(obj) is cf.GameRecord:
        assert cf.replay(obj)[-1].moves == obj.moves
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
