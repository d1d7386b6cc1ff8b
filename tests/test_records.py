"""JSON documents, game records, replay and the published schema."""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import jsonschema
import pytest
from hypothesis import given, strategies as st

import chickenfoot as cf
from _games import RULES, games, play_randomly, random_walk


@given(games())
def test_json_round_trips_games_rounds_records_and_moves(game: cf.GameState) -> None:
    assert cf.from_json(cf.to_json(game)) == game
    assert cf.from_json(cf.to_json(game.round)) == game.round
    assert cf.from_json(cf.to_json(game.round), cf.RoundState).history == game.round.history
    record = cf.GameRecord.from_game(game)
    assert cf.from_json(cf.to_json(record)) == record
    assert cf.from_json(cf.to_json(game.rules)) == game.rules
    for move in cf.legal_moves(game):
        assert cf.from_json(cf.to_json(move)) == move


@given(st.sampled_from(RULES), st.integers(2, 4), st.integers(0, 2**40), st.integers(0, 300))
def test_replay_reproduces_every_state(rules: cf.Rules, players: int, seed: int, steps: int) -> None:
    start = cf.new_game(rules, players, seed)
    states = [start, *(after for _, _, after in random_walk(start, random.Random(seed), steps))]
    record = cf.from_json(cf.to_json(cf.GameRecord.from_game(states[-1])), cf.GameRecord)
    assert list(cf.replay(record)) == states


def test_whole_games_replay_to_the_same_winners() -> None:
    game = play_randomly(cf.new_game(cf.Rules.cross(), 3, seed=8), random.Random(8))
    assert game.is_over
    final = cf.replay(cf.GameRecord.from_game(game))[-1]
    assert final == game
    assert final.winners == game.winners


def test_an_illegal_record_names_the_move_and_the_reason() -> None:
    game = play_randomly(cf.new_game(cf.Rules.trains(), 4, seed=3), random.Random(3), 20)
    moves = [move for _, move in game.history]
    moves[9] = cf.Play(cf.Tile(0, 0), onto=40)
    record = cf.GameRecord(game.rules, 4, 3, tuple(moves))
    with pytest.raises(cf.InvalidRecordError, match=r"^move 10 \(0-0@40\) is illegal: "):
        cf.replay(record)


def test_a_record_of_another_version_is_refused() -> None:
    record = cf.GameRecord(cf.Rules.trains(), 2, 0, (), version=4)
    with pytest.raises(cf.InvalidRecordError, match="versions 1 to 3 of records, got 4"):
        cf.replay(record)
    with pytest.raises(cf.InvalidRecordError, match=r"\$\.version: .*versions 1 to 3, got 4"):
        cf.from_json(cf.to_json(record))


def test_a_version_1_record_still_reads_and_replays() -> None:
    game = cf.new_game(cf.Rules.trains(), 2, seed=4)
    for _ in range(3):
        game = cf.apply(game, cf.legal_moves(game)[0])
    moves = [str(move) for _, move in game.history]
    text = json.dumps(
        {"type": "record", "version": 1, "rules": attrs.asdict(game.rules), "players": 2, "seed": 4, "moves": moves}
    )
    record = cf.from_json(text, cf.GameRecord)
    assert (record.version, record.names, record.result) == (1, (), None)
    assert cf.replay(record)[-1] == game
    headed = json.loads(text) | {"names": ["a", "b"]}
    with pytest.raises(cf.InvalidRecordError, match=r"unknown field\(s\) names"):
        cf.from_json(json.dumps(headed))  # headers came with version 2
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(headed, cf.record_schema())


def test_a_record_names_its_players_like_pgn_headers() -> None:
    game = cf.new_game(cf.Rules.cross(), 3, seed=2)
    while not game.is_over:
        game = cf.apply(game, cf.legal_moves(game)[0])
    record = cf.GameRecord.from_game(game, names=("Ada", "greedy", "search:100"), event="club night", date="2026-12-01")
    data = json.loads(cf.to_json(record))
    assert data["version"] == cf.FORMAT_VERSION == 3
    assert data["names"] == ["Ada", "greedy", "search:100"]
    assert (data["event"], data["date"]) == ("club night", "2026-12-01")
    winners = " ".join(f"P{seat}" for seat in game.winners)
    assert data["result"] == f"{winners} won; totals {' '.join(str(total) for total in game.totals)}"
    jsonschema.validate(data, cf.record_schema())
    again = cf.from_json(json.dumps(data), cf.GameRecord)
    assert again == record
    assert cf.replay(again)[-1] == game
    unfinished = cf.GameRecord.from_game(cf.new_game(cf.Rules.cross(), 3, seed=2))
    assert unfinished.result == "*"
    assert "names" not in json.loads(cf.to_json(unfinished))


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"names": ("a",)}, "names every seat or none: 1 names for 2 players"),
        ({"names": ("a", "")}, "names must be text"),
        ({"date": "1 Dec 2026"}, "date is written YYYY-MM-DD"),
        ({"names": ("a", "b"), "version": 1}, "version 1 records carry no headers"),
    ],
)
def test_bad_headers_are_refused(headers: dict[str, object], message: str) -> None:
    with pytest.raises(cf.InvalidRecordError, match=message):
        cf.GameRecord(cf.Rules.trains(), 2, 0, (), **headers)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"names": ["a", "b"]}, "names must be a tuple of str"),
        ({"event": 7}, "event is text"),
        ({"names": ("a", 2)}, "names is text"),
        ({"rules": "trains"}, "rules must be a chickenfoot.Rules"),
        ({"players": 2.0}, "players must be an int"),
        ({"seed": "0"}, "a seed is a whole number"),
        ({"moves": [cf.Draw()]}, "moves must be a tuple of Play, Draw and Pass"),
        ({"version": "2"}, "version must be a whole number"),
    ],
)
def test_record_fields_of_the_wrong_type_are_type_errors(fields: dict[str, object], message: str) -> None:
    parts: dict[str, object] = {"rules": cf.Rules.trains(), "players": 2, "seed": 0, "moves": (), **fields}
    with pytest.raises(TypeError, match=message):
        cf.GameRecord(**parts)  # type: ignore[arg-type]


def test_a_result_that_is_not_how_the_moves_end_is_refused() -> None:
    record = cf.GameRecord(cf.Rules.trains(), 2, 0, (), result="P0 won; totals 0 9")
    with pytest.raises(cf.InvalidRecordError, match="is not how its moves end: \\*"):
        cf.replay(record)


def test_documents_look_as_documented() -> None:
    game = cf.new_game(cf.Rules.trains(), 2, seed=0)
    game = cf.apply(game, cf.legal_moves(game)[0])
    data = json.loads(cf.to_json(game))
    assert (data["type"], data["version"], data["players"], data["seed"]) == ("game", cf.FORMAT_VERSION, 2, 0)
    move = game.round.history[0][1]
    assert isinstance(move, cf.Play)
    assert data["round"]["board"] == [{"tile": "9-9", "parent": None}, {"tile": str(move.tile), "parent": 0}]
    assert data["round"]["history"] == [[game.round.history[0][0], str(move)]]
    record = json.loads(cf.to_json(cf.GameRecord.from_game(game)))
    assert record["moves"] == [str(move)]
    assert record["type"] == "record"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.pop("seed"), r"\$: missing field\(s\) seed"),
        (lambda d: d.update(colour=1), r"unknown field\(s\) colour"),
        (lambda d: d.update(players="2"), r"\$\.players: expected a whole number"),
        (lambda d: d["round"]["hands"][0].append(d["round"]["hands"][1][0]), "is in player 0's hand and in player 1"),
        (lambda d: d["round"]["yard"].pop(), "tiles missing"),
        (lambda d: d["round"]["board"].append({"tile": "0-0", "parent": 0}), r"\$\.round\.board: .*does not match"),
        (lambda d: d["round"]["board"][0].update(parent=0), "center, which has no parent"),
        (lambda d: d["round"]["hands"][0].__setitem__(0, "10-1"), r"\$\.round\.hands\[0\]\[0\]: .*not in the double-9"),
        (lambda d: d["rules"].update(max_pip=10), r"\$\.rules: max_pip must be one of"),
        (lambda d: d.update(type="chess"), r"\$\.type: expected one of"),
        (lambda d: d.update(version=True), r"\$\.version: expected a whole number"),
        (lambda d: d["results"].append({}), r"\$\.results\[0\]: missing field\(s\) double"),
    ],
)
def test_broken_documents_say_where_and_what(edit: Any, message: str) -> None:
    data = json.loads(cf.to_json(cf.new_game(cf.Rules.trains(), 2, seed=0)))
    edit(data)
    with pytest.raises(cf.InvalidRecordError, match=message):
        cf.from_json(json.dumps(data))


def test_from_json_can_insist_on_a_type() -> None:
    text = cf.to_json(cf.Draw())
    with pytest.raises(cf.InvalidRecordError, match="expected a GameState document, got a move"):
        cf.from_json(text, cf.GameState)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*path, index))
    return found


@given(games(max_steps=120), st.data())
def test_corrupted_documents_are_refused_cleanly_or_read_whole(game: cf.GameState, data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["game", "round", "record"]))
    source = {"game": game, "round": game.round, "record": cf.GameRecord.from_game(game)}[kind]
    document = json.loads(cf.to_json(source))  # type: ignore[arg-type]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)))
        if not path:
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        action = data.draw(st.sampled_from(["delete", "replace", "duplicate"]))
        if action == "delete":
            del parent[path[-1]]
        elif action == "replace":
            parent[path[-1]] = data.draw(_JSON)
        elif isinstance(parent, list):
            parent.append(parent[path[-1]])
    back, message = _outcome(cf.from_json, json.dumps(document))
    if back is None:
        assert message
        return
    assert cf.from_json(cf.to_json(back)) == back
    if isinstance(back, cf.GameRecord):
        states, message = _outcome(cf.replay, back)
        assert states is not None or message.startswith(("move ", "the record's setup"))


def _outcome(read: Any, argument: Any) -> tuple[Any, str]:
    """Calls ``read``, turning only the documented error into its message."""
    try:
        return read(argument), ""
    except cf.InvalidRecordError as error:
        return None, str(error)


@given(st.text(max_size=60) | st.binary(max_size=30))
def test_random_text_is_not_a_document(text: str | bytes) -> None:
    document, message = _outcome(cf.from_json, text)
    assert document is not None or message


def test_deeply_nested_json_is_refused_cleanly() -> None:
    with pytest.raises(cf.InvalidRecordError):
        cf.from_json("[" * 100_000 + "]" * 100_000)


def test_the_schema_ships_in_the_package_and_matches_records() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = cf.record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["$defs"]["rules"]["required"]) == set(json.loads(cf.to_json(cf.Rules.trains()))["rules"])
    for rules in RULES:
        game = play_randomly(cf.new_game(rules, 3, seed=1), random.Random(1), 200)
        jsonschema.validate(json.loads(cf.to_json(cf.GameRecord.from_game(game))), schema)
    broken = json.loads(cf.to_json(cf.GameRecord(cf.Rules.trains(), 2, 0, (cf.Draw(),))))
    broken["moves"] = ["9-5 at 3"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def test_records_and_views_are_frozen_values() -> None:
    assert issubclass(cf.InvalidRecordError, ValueError)
    record = cf.GameRecord(cf.Rules.trains(), 2, 0, ())
    view = cf.observe(cf.new_game(cf.Rules.trains(), 2, seed=0), 0)
    for value in (record, view):
        assert "__slots__" in vars(type(value))
        with pytest.raises(AttributeError):
            value.players = 3  # type: ignore[misc]


# -- annotations (version 3) ------------------------------------------------------------------


def _annotated(moves: int = 30) -> tuple[cf.GameState, cf.GameRecord]:
    game = play_randomly(cf.new_game(cf.Rules.trains(max_pip=6), 3, seed=5), random.Random(5), moves)
    record = cf.GameRecord.from_game(
        game,
        names=["Ada", "greedy", "random"],
        comments={6: "no 6 left in hand:\na draw", 1: "the highest arm first", len(game.history): "é ✓ ₉ <&>"},
        round_comments={1: "a slow start"},
        tags={"Site": "club night", "Annotator": "Ada", "Round_Of_Club": "3"},
    )
    return game, record


@given(games(), st.data())
def test_comments_and_tags_survive_a_json_round_trip(game: cf.GameState, data: st.DataObject) -> None:
    moves = len(game.history)
    text = st.text(min_size=1, max_size=80).filter(str.strip)
    comments = data.draw(st.dictionaries(st.integers(1, moves), text, max_size=5)) if moves else {}
    rounds = data.draw(st.dictionaries(st.integers(1, game.round_index + 1), text, max_size=2))
    tags = data.draw(st.dictionaries(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,39}", fullmatch=True), text, max_size=3))
    record = cf.GameRecord.from_game(game, comments=comments, round_comments=rounds, tags=tags)
    written = json.loads(cf.to_json(record))
    again = cf.from_json(cf.to_json(record), cf.GameRecord)
    assert again == record
    assert (dict(again.comments), dict(again.round_comments), dict(again.tags)) == (comments, rounds, tags)
    assert written.get("comments", {}) == {str(number): words for number, words in comments.items()}
    jsonschema.validate(written, cf.record_schema())
    assert cf.replay(again)[-1] == game


def test_a_comment_is_on_the_move_numbered_as_replay_numbers_them() -> None:
    _, record = _annotated()
    states = cf.replay(record)
    assert record.comments[6] == "no 6 left in hand:\na draw"
    assert states[6].history[-1][1] == record.moves[5]  # move 6: the sixth move, moves[5], leads to states[6]
    assert list(record.comments) == sorted(record.comments)  # kept in move order, however given
    data = json.loads(cf.to_json(record))
    assert list(data["comments"]) == [str(number) for number in sorted(record.comments)]
    assert data["tags"] == {"Site": "club night", "Annotator": "Ada", "Round_Of_Club": "3"}  # as given
    assert data["version"] == 3


def test_annotated_records_are_frozen_hashable_values() -> None:
    import pickle

    _, record = _annotated()
    with pytest.raises(TypeError):
        record.comments[2] = "sneaked in"  # type: ignore[index]
    assert hash(record) == hash(cf.from_json(cf.to_json(record)))
    assert pickle.loads(pickle.dumps(record)) == record
    assert record.comments == dict(record.comments)
    assert eval(repr(record.comments)) == record.comments  # it reads back as a dict
    assert attrs.evolve(record, comments={}).comments == {}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"comments": {0: "x"}}, r"a comment is on move 0, but the record has moves 1 to 30"),
        ({"comments": {31: "x"}}, r"a comment is on move 31"),
        ({"comments": {"6": "x"}}, r"keyed by a move or round number \(an int\), got '6'"),
        ({"comments": {6: "  "}}, r"the comment on move 6 must be text of 1 to 2,000 characters"),
        ({"comments": {6: "x" * 2001}}, r"the comment on move 6 must be text"),
        ({"comments": [(6, "x")]}, r"comments are a mapping"),
        ({"round_comments": {11: "x"}}, r"a comment is on round 11, but a game has rounds 1 to 7"),
        ({"tags": {"1st": "x"}}, r"a tag is named by a letter"),
        ({"tags": {"Site": ""}}, r"the tag Site must be text of 1 to 200"),
        ({"tags": {f"T{n}": "x" for n in range(65)}}, r"at most 64 tags, got 65"),
        ({"version": 2}, r"version 2 records carry no comments or tags: use version 3"),
    ],
)
def test_bad_annotations_are_refused(change: dict[str, Any], message: str) -> None:
    _, record = _annotated()
    with pytest.raises(cf.InvalidRecordError, match=message):
        attrs.evolve(record, **change)


def test_a_reader_names_the_annotation_at_fault() -> None:
    _, record = _annotated()
    good = json.loads(cf.to_json(record))
    validator = jsonschema.Draft202012Validator(cf.record_schema())
    for change, message, form in [
        (
            {"comments": {"31": "x"}},
            r'^\$\.comments\["31"\]: a comment is on move 31, but the record has moves 1 to 30$',
            0,
        ),
        ({"comments": {"06": "x"}}, r'^\$\.comments\["06"\]: a comment is keyed by a move or round number counted', 1),
        ({"comments": {"6": 6}}, r'^\$\.comments\["6"\]: expected a string, got a number', 1),
        ({"comments": ["x"]}, r"^\$\.comments: expected an object, got a list", 1),
        (
            {"round_comments": {"3": "later"}},
            r'^\$\.round_comments\["3"\]: a comment is on round 3, but the moves reach',
            0,
        ),
        ({"tags": {"Site": "x" * 201}}, r'^\$\.tags\["Site"\]: the tag Site must be text', 1),
        ({"tags": {"Site\n": "x"}}, r"^\$\.tags: a tag is named by a letter", 1),
        ({"version": 2}, r"^\$: unknown field\(s\) comments, round_comments, tags", 1),
    ]:
        with pytest.raises(cf.InvalidRecordError, match=message):
            cf.from_json(json.dumps(good | change))
        # The schema refuses the faults of form; a move or round the game lacks only replaying can tell.
        assert validator.is_valid(good | change) != form, change


def test_a_version_2_record_still_reads_and_replays() -> None:
    game, record = _annotated()
    plain = attrs.evolve(record, comments={}, round_comments={}, tags={}, version=2)
    data = json.loads(cf.to_json(plain))
    assert data["version"] == 2
    assert "comments" not in data
    again = cf.from_json(json.dumps(data), cf.GameRecord)
    assert (again.version, again.names, again.comments) == (2, ("Ada", "greedy", "random"), {})
    assert cf.replay(again)[-1] == game
    with pytest.raises(cf.InvalidRecordError, match=r"unknown field\(s\) comments"):
        cf.from_json(json.dumps(data | {"comments": {"1": "x"}}))  # comments came with version 3


def test_moves_are_numbered_from_1_in_every_reader_message() -> None:
    _, record = _annotated()
    data = json.loads(cf.to_json(attrs.evolve(record, comments={}, result=None)))
    for bad, message in [
        ("9-5 @3", r"^\$\.moves: move 6: '9-5 @3' is not a move"),
        (7, r"^\$\.moves: move 6: expected a string, got a number"),
        ("6-6@40", r"^\$\.moves: move 6 \(6-6@40\) is illegal: "),
    ]:
        moves = list(data["moves"])
        moves[5] = bad
        with pytest.raises(cf.InvalidRecordError, match=message):
            cf.from_json(json.dumps(data | {"moves": moves}))
    game = json.loads(cf.to_json(cf.replay(record)[-1]))
    game["round"]["history"][3] = [0, "dance"]
    with pytest.raises(cf.InvalidRecordError, match=r"^\$\.round\.history: entry 4, move: 'dance' is not a move"):
        cf.from_json(json.dumps(game))
