"""Game records (:class:`GameRecord`), and replaying one move by move.

The JSON documents (games, rounds, moves, rules, records and views) are written by
:mod:`chickenfoot._io._json_write` (:func:`~chickenfoot.to_json`) and read back by
:mod:`chickenfoot._io._json_read` (:func:`~chickenfoot.from_json`).

Every document is a JSON object with ``"type"`` (``"game"``, ``"round"``, ``"move"``,
``"rules"``, ``"record"``, ``"view"`` or ``"spectator"``) and ``"version"`` (:data:`FORMAT_VERSION`). Tiles are written
``"9-5"`` and moves in the move notation (``"9-5@3"``, ``"draw"``, ``"pass"``), so any language
can read them. A board is a list of ``{"tile": "9-5", "parent": 0}`` in placement order, and
the reader rebuilds it through :meth:`Board.start` and :meth:`Board.place`, so an illegal tree is
refused. The record's JSON Schema ships in the package (:func:`record_schema`).

Readers check what they read and raise :class:`InvalidRecordError` with the path of the
offending field (``$.round.hands[2][0]``); nothing else escapes. No pickle anywhere. Documents
that carry a seed (games and records) are replayed from it; a round is read as any well-formed
position, or, with ``strict=True``, only as one play can reach (see :func:`from_json`).

A ``"view"`` document is a :class:`PlayerView` for a client (a web page, a server's API): what
one seat may know, with its legal moves in the move notation; a ``"spectator"`` document is a
:class:`SpectatorView`, what anyone watching may know. They are written, never read back: the
client answers with a move, and the game itself stays on the side that holds it.

>>> import chickenfoot as cf
>>> game = cf.new_game(cf.Rules.trains(), players=3, seed=5)
>>> game = cf.apply(game, cf.legal_moves(game)[0])
>>> cf.from_json(cf.to_json(game)) == game
True
>>> record = cf.GameRecord.from_game(game)
>>> cf.replay(record)[-1] == game
True
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import Any, TypeVar

import attrs

from .._game import (
    Draw,
    GameState,
    IllegalMoveError,
    InvalidRecordError,
    Move,
    Pass,
    Play,
    Rules,
    RulesError,
    apply,
    check_seed,
    max_game_moves,
    new_game,
    replay_html,
)

__all__ = ["FORMAT_VERSION", "GameRecord", "MAX_COMMENT", "MAX_TAGS", "record_schema", "replay"]

FORMAT_VERSION = 3
"""The version of the JSON documents this library writes. It reads versions 1 to 3: version 2
added a record's headers (``names``, ``event``, ``date``, ``result``), version 3 its annotations
(``comments`` on moves, ``round_comments``, free ``tags``); nothing else changed."""

_READS = (1, 2, 3)  # the versions from_json reads and replay replays

MAX_COMMENT = 2000
"""The longest comment a record carries on a move or a round, in characters."""
MAX_TAGS = 64
"""The most free tags a record carries."""
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")  # as record.schema.json


def _check_text(what: str, value: object, most: int) -> None:
    if type(value) is not str:
        raise TypeError(f"{what} is text (a str), got {value!r:.40}")
    if not value.strip() or len(value) > most:
        raise InvalidRecordError(f"{what} must be text of 1 to {most:,} characters, got {value!r:.40}")


def _check_header(record: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None:
        _check_text(f"a record's {attribute.name}", value, 200)


def _check_date(record: object, attribute: attrs.Attribute[Any], value: object) -> None:
    _check_header(record, attribute, value)
    if value is not None:
        try:
            datetime.date.fromisoformat(str(value))
        except ValueError:
            raise InvalidRecordError(f"a record's date is written YYYY-MM-DD, got {value!r:.40}") from None


def _check_names(record: Any, attribute: attrs.Attribute[Any], value: object) -> None:
    if type(value) is not tuple:
        raise TypeError(f"a record's names must be a tuple of str, got {type(value).__name__}")
    for name in value:
        _check_header(record, attribute, name)
    if value and len(value) != record.players:
        raise InvalidRecordError(f"a record names every seat or none: {len(value)} names for {record.players} players")
    if value and record.version < 2:
        raise InvalidRecordError("version 1 records carry no headers: use version 2")


K = TypeVar("K")
V = TypeVar("V")


class _FrozenMap(Mapping[K, V]):
    """Holds a record's comments or tags: a mapping that cannot change, compares as a dict and hashes."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[K, V]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __repr__(self) -> str:
        return repr(self._items)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_FrozenMap, (self._items,))


def _numbered(value: object) -> _FrozenMap[int, str]:
    """Freezes comments by number (a move's or a round's), in number order."""
    if not isinstance(value, Mapping):
        raise InvalidRecordError(f"a record's comments are a mapping of numbers to text, got {type(value).__name__}")
    for number in value:
        if type(number) is not int:
            raise InvalidRecordError(f"a comment is keyed by a move or round number (an int), got {number!r:.40}")
    return _FrozenMap(dict(sorted(value.items())))


def _tagged(value: object) -> _FrozenMap[str, str]:
    """Freezes a record's tags, in the order given."""
    if not isinstance(value, Mapping):
        raise InvalidRecordError(f"a record's tags are a mapping of names to text, got {type(value).__name__}")
    return _FrozenMap(value)


class _FieldError(InvalidRecordError):
    """Raised by a record's checks for one field (``comments["9"]``), so a reader can name its path."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@attrs.frozen
class GameRecord:
    """Holds a whole game as its setup and moves: enough to rebuild every state with :func:`replay`.

    >>> import chickenfoot as cf
    >>> record = cf.GameRecord(cf.Rules.cross(), players=2, seed=9, moves=())
    >>> cf.replay(record)[0] == cf.new_game(cf.Rules.cross(), 2, seed=9)
    True
    """

    rules: Rules
    """The rules in force."""
    players: int
    """The number of players."""
    seed: int
    """The seed the game's deals derive from (DEAL-2)."""
    moves: tuple[Move, ...]
    """Every move of the game, oldest first."""
    version: int = FORMAT_VERSION
    """The record format's version (1 records carry no headers)."""
    names: tuple[str, ...] = attrs.field(default=(), validator=_check_names)
    """Header: each seat's player, by seat: a person's name or a bot spec like ``"search:100"``;
    empty when not known."""
    event: str | None = attrs.field(default=None, validator=_check_header)
    """Header: where or why the game was played, e.g. ``"chickenfoot simulate"``."""
    date: str | None = attrs.field(default=None, validator=_check_date)
    """Header: the day the game was played, ``YYYY-MM-DD``."""
    result: str | None = attrs.field(default=None, validator=_check_header)
    """Header: how the game ended, like ``"P1 won; totals 87 54"`` (``"P0 P2 won; ..."`` for a shared
    win), or ``"*"`` while unfinished; :meth:`from_game` writes it and :func:`replay` checks it."""
    comments: Mapping[int, str] = attrs.field(default=_FrozenMap({}), converter=_numbered)
    """Annotation: a comment on a move, by the move's number counted from 1 (``{6: "no 9 left: a
    draw"}`` is on the sixth move, ``moves[5]``), as :func:`replay` and ``chickenfoot replay``
    number moves; each text of 1 to 2,000 characters."""
    round_comments: Mapping[int, str] = attrs.field(default=_FrozenMap({}), converter=_numbered)
    """Annotation: a comment on a round, by the round's number counted from 1 (round 1 is played
    from the highest double; ``round_index`` 0), for rounds the moves reach."""
    tags: Mapping[str, str] = attrs.field(default=_FrozenMap({}), converter=_tagged)
    """Header: free tags, as PGN has, like ``{"Site": "club night", "Annotator": "Ada"}``: at most
    64, each named by a letter then up to 39 letters, digits or ``_``, each value text of 1 to
    200 characters."""

    def __attrs_post_init__(self) -> None:
        # Check the fields here, so replay() and to_json() meet only documented errors: a field
        # of the wrong type is a TypeError, a setup that cannot be played an InvalidRecordError.
        if not isinstance(self.rules, Rules):
            raise TypeError(f"a record's rules must be a chickenfoot.Rules, got {type(self.rules).__name__}")
        try:
            self.rules.check_players(self.players)
            check_seed(self.seed)
        except RulesError as error:
            raise InvalidRecordError(f"the record's setup cannot be dealt: {error}") from None
        if type(self.moves) is not tuple or not all(type(move) in (Play, Draw, Pass) for move in self.moves):
            raise TypeError("a record's moves must be a tuple of Play, Draw and Pass")
        bound = max_game_moves(self.rules, self.players)
        if len(self.moves) > bound:
            raise InvalidRecordError(f"a game under these rules has at most {bound:,} moves, got {len(self.moves):,}")
        if type(self.version) is not int:
            raise TypeError(f"a record's version must be a whole number (an int), got {self.version!r:.40}")
        self._check_annotations()

    def _repr_html_(self) -> str:
        """Shows the game in Jupyter as a replay to step through (see :class:`chickenfoot.notebook.ReplayWidget`)."""
        return replay_html(self)

    def _check_annotations(self) -> None:
        if (self.comments or self.round_comments or self.tags) and self.version < 3:
            raise InvalidRecordError(f"version {self.version} records carry no comments or tags: use version 3")
        moves = len(self.moves)
        for number, text in self.comments.items():
            where = f'comments["{number}"]'
            if not 1 <= number <= moves:
                held = f"moves 1 to {moves}" if moves > 1 else "move 1" if moves else "no moves"
                raise _FieldError(where, f"a comment is on move {number}, but the record has {held}")
            _check_field(where, f"the comment on move {number}", text, MAX_COMMENT)
        rounds = self.rules.rounds
        for number, text in self.round_comments.items():
            where = f'round_comments["{number}"]'
            if not 1 <= number <= rounds:
                raise _FieldError(where, f"a comment is on round {number}, but a game has rounds 1 to {rounds}")
            _check_field(where, f"the comment on round {number}", text, MAX_COMMENT)
        if len(self.tags) > MAX_TAGS:
            raise _FieldError("tags", f"a record carries at most {MAX_TAGS} tags, got {len(self.tags)}")
        for name, value in self.tags.items():
            if type(name) is not str or not _TAG_NAME.fullmatch(name):
                raise _FieldError(
                    "tags", f"a tag is named by a letter, then up to 39 letters, digits or _, got {name!r:.40}"
                )
            _check_field(f'tags["{name}"]', f"the tag {name}", value, 200)

    @classmethod
    def from_game(
        cls,
        game: GameState,
        *,
        names: Sequence[str] = (),
        event: str | None = None,
        date: str | None = None,
        comments: Mapping[int, str] | None = None,
        round_comments: Mapping[int, str] | None = None,
        tags: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """Records ``game``'s setup and every move played so far, with the headers and comments given and its result.

        >>> import chickenfoot as cf
        >>> game = cf.new_game(cf.Rules.trains(), players=2, seed=1)
        >>> game = cf.apply(game, cf.legal_moves(game)[0])
        >>> record = cf.GameRecord.from_game(game, names=["Ada", "greedy"], comments={1: "the highest 9 first"})
        >>> record.names, record.result, record.comments[1]
        (('Ada', 'greedy'), '*', 'the highest 9 first')
        """
        return cls(
            rules=game.rules,
            players=game.players,
            seed=game.seed,
            moves=tuple([move for _, move in game.history]),
            names=tuple(names),
            event=event,
            date=date,
            result=_result_text(game),
            comments=comments or {},
            round_comments=round_comments or {},
            tags=tags or {},
        )


def _check_field(field: str, what: str, value: object, most: int) -> None:
    try:
        _check_text(what, value, most)
    except InvalidRecordError as error:
        raise _FieldError(field, str(error)) from None


def _result_text(game: GameState) -> str:
    """Writes how ``game`` ended, as a record's ``result`` header: ``P1 won; totals 87 54``, or ``*``."""
    outcome = game.outcome
    if outcome is None:
        return "*"
    return f"{outcome}; totals {' '.join(map(str, game.totals))}"


def replay(record: GameRecord) -> tuple[GameState, ...]:
    """Rebuilds every state of a recorded game: ``states[0]`` is the deal, ``states[i]`` follows move ``i``.

    Raises :class:`InvalidRecordError` naming the first illegal move (1-based) and why.

    >>> import chickenfoot as cf
    >>> bad = cf.GameRecord(cf.Rules.trains(), players=2, seed=1, moves=(cf.Pass(),))
    >>> cf.replay(bad)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidRecordError: move 1 (pass) is illegal: player 0 can play (9-8@0, ...) ... (DRAW-4)
    """
    if type(record) is not GameRecord:
        raise TypeError(f"replay takes a GameRecord, got {type(record).__name__}")
    if record.version not in _READS:
        raise InvalidRecordError(f"this library replays versions 1 to 3 of records, got {record.version}")
    game = new_game(record.rules, record.players, record.seed)  # GameRecord checked the setup
    states = [game]
    for number, move in enumerate(record.moves, start=1):
        try:
            game = apply(game, move)
        except IllegalMoveError as error:
            raise InvalidRecordError(f"move {number} ({move}) is illegal: {error}") from None
        states.append(game)
    if record.result is not None and record.result != _result_text(game):
        raise InvalidRecordError(
            f"the record's result {record.result!r:.60} is not how its moves end: {_result_text(game)}"
        )
    reached = len(game.results) if game.is_over else game.round_index + 1
    for number in record.round_comments:
        if number > reached:
            raise _FieldError(
                f'round_comments["{number}"]', f"a comment is on round {number}, but the moves reach round {reached}"
            )
    return tuple(states)


def record_schema() -> dict[str, Any]:
    """Loads the JSON Schema (draft 2020-12) of a game record document, shipped in the package.

    >>> record_schema()["properties"]["type"]["const"]
    'record'
    """
    text = resources.files("chickenfoot._io").joinpath("record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
