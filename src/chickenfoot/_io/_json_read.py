"""Reading the JSON documents :func:`~chickenfoot.to_json` writes back, checked (:func:`from_json`).

See :mod:`chickenfoot._io._records` for the documents; every reader raises
:class:`~chickenfoot.InvalidRecordError` with the path of the offending field.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, TypeVar, overload

import attrs

from .._game import (
    MAX_PLAYERS,
    MAX_SEED,
    GameState,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRecordError,
    Move,
    Outcome,
    RoundResult,
    RoundState,
    Rules,
    RulesError,
    Termination,
    Tile,
    Turn,
    decide_winners,
    max_game_moves,
    max_round_moves,
    parse_move,
    score_round,
)
from ._notation import build_board, read_round
from ._records import _READS, MAX_TAGS, GameRecord, _FieldError, replay

__all__ = ["from_json"]

_NUMBER = re.compile(r"[1-9][0-9]{0,5}")  # a move or round number as a JSON object key, as record.schema.json

MAX_DOCUMENT = 16 * 2**20
"""The longest JSON text :func:`from_json` reads; the longest game any rules allow is well under it."""

T = TypeVar("T")

_MOVE_TEXT = re.compile(r"((1[0-8]|0?[0-9])-(1[0-8]|0?[0-9])@[0-9]{1,6}|draw|pass)")  # as record.schema.json


def _integral_float(text: str) -> float | int:
    # JSON has one number type: 2.0 is the number 2, as JSON Schema's "integer" reads it too. A whole
    # number is held to the digits limit however it is written (1e300 has 301), and infinity is no number.
    value = float(text)
    shown = text if len(text) <= 24 else f"{text[:12]}...{text[-8:]}"
    if not math.isfinite(value):
        raise InvalidRecordError(
            f"the number {shown} is past the readers' limit: they take whole numbers of at most {MAX_DIGITS} digits"
        )
    if not value.is_integer():
        return value
    whole = int(value)
    digits = len(str(abs(whole)))
    if digits > MAX_DIGITS:
        raise InvalidRecordError(
            f"the number {shown} has {digits:,} digits: the readers take whole numbers of at most {MAX_DIGITS}"
        )
    return whole


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


MAX_DIGITS = 100
"""The most digits of a whole number the readers take (a seed has at most 78)."""


def _bounded_int(text: str) -> int:
    # Python refuses to convert more than 4,300 digits; the readers refuse far fewer, and say so.
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise InvalidRecordError(
            f"a number of {digits:,} digits: the readers take whole numbers of at most {MAX_DIGITS}"
        )
    return int(text)


class _Reader:
    """Typed access to a parsed JSON document that names the path of whatever is wrong."""

    def __init__(self, data: object, path: str = "$") -> None:
        self.data = data
        self.path = path

    def fail(self, message: str) -> InvalidRecordError:
        return InvalidRecordError(f"{self.path}: {message}")

    def obj(self, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, _Reader]:
        if type(self.data) is not dict:
            raise self.fail(f"expected an object with {', '.join(keys)}, got {_kind(self.data)}")
        missing = [key for key in keys if key not in self.data]
        if missing:
            raise self.fail(f"missing field(s) {', '.join(missing)}")
        unknown = sorted(set(self.data) - set(keys) - set(optional))
        if unknown:
            raise self.fail(f"unknown field(s) {', '.join(map(str, unknown))}")
        return {key: _Reader(value, f"{self.path}.{key}") for key, value in self.data.items()}

    def items(self, most: int | None = None) -> list[_Reader]:
        if type(self.data) is not list:
            raise self.fail(f"expected a list, got {_kind(self.data)}")
        if most is not None and len(self.data) > most:
            raise self.fail(f"expected at most {most:,} items, got {len(self.data):,}")
        return [_Reader(item, f"{self.path}[{index}]") for index, item in enumerate(self.data)]

    def entries(self, most: int) -> list[tuple[str, _Reader]]:
        if type(self.data) is not dict:
            raise self.fail(f"expected an object, got {_kind(self.data)}")
        if len(self.data) > most:
            raise self.fail(f"expected at most {most:,} entries, got {len(self.data):,}")
        return [(key, _Reader(value, f'{self.path}["{key}"]')) for key, value in self.data.items()]

    def integer(self, low: int = 0, high: int | None = None) -> int:
        value = self.data
        if type(value) is not int or value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise self.fail(f"expected a whole number {bound}, got {value!r:.40}")
        return value

    def any_integer(self) -> int:
        if type(self.data) is not int:
            raise self.fail(f"expected a whole number, got {self.data!r:.40}")
        return self.data

    def boolean(self) -> bool:
        if type(self.data) is not bool:
            raise self.fail(f"expected true or false, got {self.data!r:.40}")
        return self.data

    def optional(self, read: Callable[[_Reader], T]) -> T | None:
        return None if self.data is None else read(self)

    def string(self) -> str:
        if type(self.data) is not str:
            raise self.fail(f"expected a string, got {_kind(self.data)}")
        return self.data

    def tile(self, max_pip: int) -> Tile:
        text = self.string()
        try:
            tile = Tile.parse(text)
        except ValueError:
            raise self.fail(f"{text!r:.40} is not a tile; write it like '9-5'") from None
        if tile.high > max_pip:
            raise self.fail(f"{tile} is not in the double-{max_pip} set")
        return tile

    def move(self) -> Move:
        text = self.string()
        if not _MOVE_TEXT.fullmatch(text):  # the schema's pattern: exact notation, no spaces or capitals
            raise self.fail(f"{text!r:.40} is not a move: write 'HIGH-LOW@NODE' (like '9-5@3'), 'draw' or 'pass'")
        try:
            return parse_move(text)
        except InvalidMoveError as error:
            raise self.fail(str(error)) from None


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _read_rules(reader: _Reader) -> Rules:
    fields = reader.obj(tuple(attrs.fields_dict(Rules)))
    try:
        options: dict[str, Any] = {name: field.data for name, field in fields.items()}
        return Rules(**options)
    except (RulesError, TypeError) as error:
        raise reader.fail(str(error)) from None


def _read_outcome(reader: _Reader, players: int) -> Outcome | None:
    if reader.data is None:
        return None
    parts = reader.obj(("termination", "winners"))
    name = parts["termination"].string()
    if name not in {termination.value for termination in Termination}:
        raise parts["termination"].fail(f"expected one of {', '.join(t.value for t in Termination)}, got {name!r:.40}")
    winners = tuple(winner.integer(0, players - 1) for winner in parts["winners"].items(players))
    try:
        return Outcome(Termination(name), winners)
    except InvalidPositionError as error:
        raise reader.fail(str(error)) from None


def _read_round(reader: _Reader, rules: Rules, strict: bool) -> RoundState:
    keys = ("hands", "yard", "board", "current_player", "reserve", "drawn", "is_over", "went_out", "history")
    fields = reader.obj(keys, optional=("rules", "arms", "outcome"))
    max_pip, size = rules.max_pip, rules.set_size
    # Lists are bounded before they are read: no list can hold more tiles than the set (SET-1).
    hands = tuple(tuple(tile.tile(max_pip) for tile in hand.items(size)) for hand in fields["hands"].items(MAX_PLAYERS))
    if len(hands) < 2:
        raise fields["hands"].fail("a round needs a hand per player, at least 2")
    players = len(hands)
    yard = tuple(tile.tile(max_pip) for tile in fields["yard"].items(size))
    nodes: list[tuple[Tile, int | None]] = []
    for node in fields["board"].items(size):
        parts = node.obj(("tile", "parent"))
        nodes.append((parts["tile"].tile(max_pip), parts["parent"].optional(lambda r: r.integer())))
    arms = fields["arms"].integer(1) if "arms" in fields else rules.arms_for(players)
    try:
        board = build_board(nodes, arms, max_pip)
    except InvalidRecordError as error:
        raise fields["board"].fail(str(error)) from None
    current = fields["current_player"].integer(0, players - 1)
    drawn = fields["drawn"].optional(lambda r: r.tile(max_pip))
    went_out = fields["went_out"].optional(lambda r: r.integer(0, players - 1))
    is_over = fields["is_over"].boolean()
    reserve = fields["reserve"].integer()
    if went_out is not None and not is_over:
        raise fields["went_out"].fail("a player went out but the round is not over")
    history: list[Turn] = []
    entries = fields["history"]
    for number, turn in enumerate(entries.items(max_round_moves(rules, players)), start=1):
        entry = _Reader(turn.data, f"{entries.path}: entry {number}")  # counted from 1, as people count
        pair = entry.items()
        if len(pair) != 2:
            raise entry.fail("a history entry is [player, move]")
        player = _Reader(pair[0].data, f"{entry.path}, player").integer(0, players - 1)
        history.append((player, _Reader(pair[1].data, f"{entry.path}, move").move()))
    outcome = _read_outcome(fields["outcome"], players) if "outcome" in fields else None
    # is_over and went_out say whether the round ended and who went out; the outcome, in newer
    # documents, tells a blocked round from an unfillable foot. Each is checked against the position.
    if went_out is not None:
        marked: Termination | None = Termination.WENT_OUT
    elif is_over and outcome is not None and outcome.termination is Termination.UNFILLABLE_FOOT:
        marked = Termination.UNFILLABLE_FOOT
    elif is_over:
        marked = Termination.BLOCKED
    else:
        marked = None
    try:
        state = read_round(
            rules, hands, yard, board, current, drawn, reserve, tuple(history), marked, went_out, strict=strict
        )
    except InvalidRecordError as error:
        raise reader.fail(str(error)) from None
    if "outcome" in fields and outcome != state.outcome:
        said, real = (str(value) if value is not None else "in play" for value in (outcome, state.outcome))
        raise fields["outcome"].fail(f"the outcome {said} is not the round's, {real}")
    return state


def _read_table(fields: dict[str, _Reader]) -> tuple[Rules, int]:
    """Reads the rules and the player count of a game or record, checking they can be dealt (DEAL-1)."""
    rules = _read_rules(fields["rules"])
    players = fields["players"].integer(2, MAX_PLAYERS)
    try:
        rules.check_players(players)
    except RulesError as error:
        raise fields["players"].fail(str(error)) from None
    return rules, players


def _read_game(fields: dict[str, _Reader], strict: bool) -> GameState:
    rules, players = _read_table(fields)
    round_index = fields["round_index"].integer(0, rules.rounds - 1)
    round_ = _read_round(fields["round"], rules, strict=False)  # the replay below proves it, when strict
    if round_.players != players:
        raise fields["round"].fail(f"the round has {round_.players} hands for {players} players")
    totals = tuple(total.any_integer() for total in fields["totals"].items(players))
    results = []
    for result in fields["results"].items(rules.rounds):
        parts = result.obj(("double", "scores", "went_out", "final"), optional=("outcome",))
        final = _read_round(parts["final"], rules, strict=False)
        if final.players != players:
            raise parts["final"].fail(f"the round has {final.players} hands for {players} players")
        outcome = _read_outcome(parts["outcome"], players) if "outcome" in parts else final.outcome
        if outcome is None:
            raise parts["final"].fail("a finished round's final state is a round that is over")
        try:
            results.append(
                RoundResult(
                    double=parts["double"].integer(0, rules.max_pip),
                    scores=tuple(score.any_integer() for score in parts["scores"].items(players)),
                    went_out=parts["went_out"].optional(lambda r: r.integer(0, players - 1)),
                    final=final,
                    outcome=outcome,
                )
            )
        except InvalidPositionError as error:
            raise result.fail(str(error)) from None
    winners = tuple(winner.integer(0, players - 1) for winner in fields["winners"].items(players))
    if len(totals) != players or any(len(result.scores) != players for result in results):
        raise fields["totals"].fail(f"totals and every round's scores need one number per player ({players})")
    if len(results) > rules.rounds or (len(results) == rules.rounds) != bool(winners):
        raise fields["results"].fail("a game has winners exactly when every round has a result")
    if strict:
        _check_game(rules, fields, round_index, round_, totals, results, winners)
    try:
        game = GameState(
            rules=rules,
            players=players,
            seed=fields["seed"].integer(-MAX_SEED, MAX_SEED),
            round=round_,
            round_index=round_index,
            totals=totals,
            results=tuple(results),
        )
    except InvalidPositionError as error:
        raise InvalidRecordError(f"$: {error}") from None
    if winners != game.winners:
        raise fields["winners"].fail(f"the winners must be {list(game.winners)} (GAME-1, TIE-*)")
    if "outcome" in fields and _read_outcome(fields["outcome"], players) != game.outcome:
        raise fields["outcome"].fail(f"the outcome is not the game's: {game.outcome}")
    if strict:
        _check_replays(game, fields)
    return game


def _check_game(
    rules: Rules,
    fields: dict[str, _Reader],
    round_index: int,
    round_: RoundState,
    totals: tuple[int, ...],
    results: list[RoundResult],
    winners: tuple[int, ...],
) -> None:
    """Checks what a game play reached shows, before replaying it: each finished round and the round in play fit."""
    players = len(totals)
    if round_index != min(len(results), rules.rounds - 1):
        raise fields["round_index"].fail(
            f"round_index {round_index} (round {round_index + 1}) cannot be in play after "
            f"{len(results)} finished rounds"
        )
    for number, finished in enumerate(results, start=1):
        final = finished.final
        if finished.double != final.double or finished.outcome != final.outcome:
            raise fields["results"].fail(f"round {number}'s result disagrees with its final state (double, outcome)")
        if finished.scores != score_round(final):
            raise fields["results"].fail(f"round {number}'s scores are not what its final hands score (SCORE-1)")
    for index, state in [*enumerate(result.final for result in results), (round_index, round_)]:
        double = rules.round_double(index)
        if state.double != double and not (rules.center_fallback == "highest_double" and state.double < double):
            raise fields["results"].fail(f"round {index + 1} must start from {double}-{double} (ROUND-1)")
    if totals != tuple(sum(result.scores[seat] for result in results) for seat in range(players)):
        raise fields["totals"].fail("each total must be the sum of that player's round scores (GAME-1)")
    if len(results) < rules.rounds and round_.is_over:
        raise fields["round"].fail("the round in play is over: its result belongs in results, the next round in play")
    if results and len(results) == rules.rounds and round_ != results[-1].final:
        raise fields["round"].fail("once the game is over, the round is the last round's final state")
    if winners and winners != decide_winners(rules, totals, results):
        raise fields["winners"].fail(
            f"the winners must be {list(decide_winners(rules, totals, results))} (GAME-1, TIE-*)"
        )


HAND_SET = (
    "; a game set up by hand rather than dealt from its seed reads with from_json(text, strict=False), "
    "which checks that it is well-formed but does not replay it"
)
"""Ends a strict reader's refusal of a game that does not replay: the way to read a hand-set one."""


def _check_replays(game: GameState, fields: dict[str, _Reader]) -> None:
    """Proves a game read from JSON is the one its seed and moves produce (DEAL-2), else names where it is not."""
    try:
        states = replay(GameRecord.from_game(game))
    except InvalidRecordError as error:
        raise fields["round"].fail(f"the game's seed and moves do not replay: {error}{HAND_SET}") from None
    played = states[-1]
    for number, (read, real) in enumerate(zip(game.results, played.results, strict=False), start=1):
        if read != real or read.final.history != real.final.history:
            raise fields["results"].fail(
                f"round {number}'s result is not what the seed and its moves produce (DEAL-2){HAND_SET}"
            )
    if game != played or game.round.history != played.round.history:
        raise fields["round"].fail(
            f"the round in play is not what the game's seed and moves produce (DEAL-2){HAND_SET}"
        )


def _read_record(fields: dict[str, _Reader], version: int, strict: bool) -> GameRecord:
    rules, players = _read_table(fields)
    seed = fields["seed"].integer(-MAX_SEED, MAX_SEED)
    listed = fields["moves"].items()
    bound = max_game_moves(rules, players)
    if len(listed) > bound:
        raise fields["moves"].fail(f"a game under these rules has at most {bound:,} moves, got {len(listed):,}")
    # Named as people count them, as replay() and the comments do: $.moves[5] is "move 6".
    moves = tuple(
        _Reader(move.data, f"{fields['moves'].path}: move {number}").move() for number, move in enumerate(listed, 1)
    )
    headers: dict[str, Any] = {}
    if "names" in fields:
        headers["names"] = tuple(name.string() for name in fields["names"].items(MAX_PLAYERS))
    for key in ("event", "date", "result"):
        if key in fields:
            headers[key] = fields[key].string()
    for key in ("comments", "round_comments"):
        if key in fields:
            numbered = {}
            for number, text in fields[key].entries(bound):
                if not _NUMBER.fullmatch(number):
                    raise text.fail(f"a comment is keyed by a move or round number counted from 1, got {number!r:.40}")
                numbered[int(number)] = text.string()
            headers[key] = numbered
    if "tags" in fields:
        headers["tags"] = {name: value.string() for name, value in fields["tags"].entries(MAX_TAGS)}
    try:
        record = GameRecord(rules, players, seed, moves, version, **headers)
    except _FieldError as error:
        raise InvalidRecordError(f"$.{error.field}: {error}") from None
    except InvalidRecordError as error:
        raise InvalidRecordError(f"$: {error}") from None
    try:
        if strict:
            replay(record)  # a record is read only if its moves are legal in turn (and its result is theirs)
    except _FieldError as error:
        raise InvalidRecordError(f"$.{error.field}: {error}") from None
    except InvalidRecordError as error:
        where = fields["moves"] if str(error).startswith("move ") else fields.get("result")
        raise (where.fail(str(error)) if where else InvalidRecordError(f"$: {error}")) from None
    return record


_BODIES: dict[str, tuple[str, ...]] = {
    "game": ("rules", "players", "seed", "round_index", "round", "totals", "results", "winners"),
    "round": (
        "rules",
        "hands",
        "yard",
        "board",
        "current_player",
        "reserve",
        "drawn",
        "is_over",
        "went_out",
        "history",
    ),
    "record": ("rules", "players", "seed", "moves"),
    "rules": ("rules",),
    "move": ("move",),
}
_HEADERS = ("names", "event", "date", "result")  # a version 2 record's optional fields
_ANNOTATIONS = ("comments", "round_comments", "tags")  # and a version 3 record's
_OPTIONAL: dict[str, tuple[str, ...]] = {"game": ("outcome",), "round": ("arms", "outcome")}
"""The optional fields of a game or round document: written, but not needed to read it (older ones lack them)."""


@overload
def from_json(
    text: str | bytes, *, strict: bool | None = None
) -> GameState | RoundState | GameRecord | Rules | Move: ...
@overload
def from_json(text: str | bytes, kind: type[T], *, strict: bool | None = None) -> T: ...
def from_json(text: str | bytes, kind: type[Any] | None = None, *, strict: bool | None = None) -> Any:
    """Reads a document written by :func:`to_json`; with ``kind``, insists on that type.

    ``strict`` says how far to trust it. By default a document that carries a seed (a game, a
    record) is replayed from it, and read only if it is what the seed and the moves produce; a
    round is read as any well-formed position, as :class:`RoundState` takes one. ``strict=True``
    also refuses a round no deal and legal play could reach (:meth:`RoundState.status`), the
    setting for a round from outside; ``strict=False`` reads a game or record without replaying
    it, for documents you wrote yourself (a hand-set game, a record of moves yet to check).

    Raises :class:`InvalidRecordError` naming the field at fault and what to do.

    >>> import chickenfoot as cf
    >>> cf.from_json('{"type": "move", "version": 1, "move": "draw"}')
    Draw()
    >>> cf.from_json('{"type": "move", "version": 7, "move": "draw"}')
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidRecordError: $.version: this library reads versions 1 to 3, got 7
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"from_json reads JSON text (str or bytes), got {type(text).__name__}")
    if strict is not None and type(strict) is not bool:
        raise TypeError(f"strict is True, False or None (the document's default), got {strict!r:.40}")
    if len(text) > MAX_DOCUMENT:
        raise InvalidRecordError(f"a document is at most {MAX_DOCUMENT:,} characters, got {len(text):,}")
    try:
        data = json.loads(text, parse_float=_integral_float, parse_int=_bounded_int, parse_constant=_no_constant)
    except InvalidRecordError:
        raise
    except (ValueError, RecursionError) as error:
        raise InvalidRecordError(f"not JSON: {error}") from None
    if type(data) is not dict:
        raise InvalidRecordError(f"$: a document is a JSON object with type and version, got {_kind(data)}")
    kind_name = data.get("type")
    if type(kind_name) is not str or kind_name not in _BODIES:
        raise InvalidRecordError(f"$.type: expected one of {', '.join(_BODIES)}, got {kind_name!r:.40}")
    top = _Reader(data)
    version = _Reader(data.get("version"), "$.version").any_integer()
    if version not in _READS:
        raise InvalidRecordError(f"$.version: this library reads versions 1 to 3, got {version}")
    optional = _OPTIONAL.get(kind_name, ())
    if kind_name == "record":
        optional = _HEADERS * (version >= 2) + _ANNOTATIONS * (version >= 3)
    fields = top.obj(("type", "version", *_BODIES[kind_name]), optional=optional)
    result: Any
    if kind_name == "game":
        result = _read_game(fields, strict is not False)
    elif kind_name == "round":
        body = {key: value for key, value in data.items() if key not in ("type", "version")}
        result = _read_round(_Reader(body), _read_rules(fields["rules"]), strict is True)
    elif kind_name == "record":
        result = _read_record(fields, version, strict is not False)
    elif kind_name == "rules":
        result = _read_rules(fields["rules"])
    else:
        result = fields["move"].move()
    if kind is not None and not isinstance(result, kind):
        raise InvalidRecordError(f"$.type: expected a {kind.__name__} document, got a {kind_name}")
    return result


# -- replaying ------------------------------------------------------------------------------
