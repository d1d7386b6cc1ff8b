"""Position notation: one line of text for a whole round, in the spirit of chess FEN.

A position has eight fields separated by single spaces::

    position := rules " " turn " " drawn " " reserve " " hands " " yard " " board " " status
    rules    := preset | preset "[" option ("," option)* "]"
    preset   := "trains" | "cross"                      (Rules.trains() / Rules.cross())
    option   := name "=" value                          (only options that differ from the preset)
    value    := integer | "true" | "false" | "none" | word
    turn     := integer                                 (the player to move: RoundState.current_player)
    drawn    := "-" | tile                              (the tile drawn this turn, in that player's hand)
    reserve  := integer                                 (yard tiles that may not be drawn, YARD-1)
    hands    := hand ("/" hand)+                        (one per seat, seat 0 first; their count is the players)
    hand     := "-" | tile ("," tile)*                  (in the hand's own order)
    yard     := "-" | tile ("," tile)*                  (yard[0], drawn next, first)
    board    := center ("," tile "<" integer)*          (the center, then each node as tile<parent, in placement order)
    center   := tile | tile ":" integer                 (its arms, written when not the rules' for the players)
    status   := "play" | "blocked" | "unfillable" | "out" integer
                                                        (in play, blocked (END-2), a foot that can no longer
                                                        be filled (END-2's variant), or that player went out (END-1))
    tile     := integer "-" integer                     (written high first, "9-5"; either order is read)

The board is written as the order tiles were placed, so a reader rebuilds it with
:meth:`Board.start` and :meth:`Board.place` and every exposed value, open end and pending node
follows; a tile that does not fit its parent, or a full parent, is rejected. Every tile of the
set must appear exactly once among the hands, the yard and the board. The status says what the
position decides, and a reader checks that it does. The round's history is not part of a
position (two states that differ only in history are equal).

:func:`parse_position` reads any well-formed position, as :class:`RoundState` takes one: a
puzzle, a test of a bot. ``strict=True`` also refuses a position that no deal and legal play
could reach (:meth:`RoundState.status`), for text from outside.

Two players on double-6: player 0 to move, nothing drawn, a reserve of 2, then the hands,
the yard, a center 6-6 with one arm 6-5, and the round in play:

>>> import chickenfoot as cf
>>> text = ("trains[max_pip=6] 0 - 2 2-2,4-2,5-3,5-0,3-2,4-1,3-3,4-4,4-3,6-4/5-2,3-0,2-0,0-0,5-5,5-1,5-4,1-0,6-2 "
...         "3-1,1-1,2-1,6-0,6-3,4-0,6-1 6-6,6-5<0 play")
>>> state = cf.parse_position(text)
>>> state.board.pending, cf.legal_moves(state)   # the center still needs its second arm (OPEN-2)
(0, (Play(Tile(6, 4), onto=0),))
>>> cf.position(state) == text
True
"""

from __future__ import annotations

import re
import string

import attrs

from .._game import (
    PRESETS,
    TILE_PATTERN,
    Board,
    GameState,
    InvalidPositionError,
    InvalidRecordError,
    Outcome,
    RoundState,
    Rules,
    RulesError,
    Termination,
    Tile,
    Turn,
    full_set,
    placed,
    problems,
)

__all__ = ["build_board", "parse_position", "parse_rules_text", "position", "read_round", "rules_text"]

_TILE = re.compile(TILE_PATTERN)
_NODE = re.compile(TILE_PATTERN + "<([0-9]{1,4})")
_NAME = re.compile(r"[a-z_]+")  # an option name, or a word value
_INT = re.compile(r"[0-9]{1,9}")
_MAX_TEXT = 20_000  # a double-18 position is about 1,500 characters


def rules_text(rules: Rules) -> str:
    """Writes rules as a preset name and the options that differ from it.

    >>> rules_text(Rules.cross(max_pip=12, center_arms=6))
    'cross[max_pip=12,center_arms=6]'
    >>> rules_text(Rules.trains())
    'trains'
    """
    preset = Rules.preset(rules.deal)
    options = []
    for field in attrs.fields(Rules):
        value = getattr(rules, field.name)
        if value != getattr(preset, field.name) or type(value) is not type(getattr(preset, field.name)):
            options.append(f"{field.name}={_value_text(value)}")
    return rules.deal + (f"[{','.join(options)}]" if options else "")


def _value_text(value: object) -> str:
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _parse_value(text: str) -> object:
    if text in ("none", "true", "false"):
        return {"none": None, "true": True, "false": False}[text]
    if _INT.fullmatch(text):
        return int(text)
    if _NAME.fullmatch(text):
        return text
    raise InvalidRecordError(f"rules option value {text!r} is not a whole number, true, false, none or a word")


def parse_rules_text(text: str) -> Rules:
    """Reads the rules field of a position: ``"trains"``, ``"cross[max_pip=12,center_arms=6]"``.

    >>> parse_rules_text("trains[drawn_tile=may_play]") == Rules.trains(drawn_tile="may_play")
    True
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"rules text must be a string, got {type(text).__name__}")
    preset, bracket, rest = text.partition("[")
    if preset not in PRESETS:
        raise InvalidRecordError(f"rules {text!r} must start with a preset: 'trains' or 'cross'")
    options: dict[str, object] = {}
    if bracket:
        if not rest.endswith("]") or rest == "]":
            raise InvalidRecordError(f"rules {text!r}: write options as preset[name=value,name=value]")
        for item in rest[:-1].split(","):
            name, equals, value = item.partition("=")
            if not equals or not _NAME.fullmatch(name):
                raise InvalidRecordError(f"rules option {item!r} must be written name=value")
            if name in options:
                raise InvalidRecordError(f"rules option {name} is given twice")
            options[name] = _parse_value(value)
    try:
        return Rules.preset(preset, **options)
    except (RulesError, TypeError) as error:
        raise InvalidRecordError(f"rules {text!r}: {error}") from None


def _tiles_text(tiles: tuple[Tile, ...]) -> str:
    return ",".join(map(str, tiles)) if tiles else "-"


def position(state: RoundState | GameState) -> str:
    """Writes a round (or a game's round in play) in the position notation (see the module docs).

    >>> import chickenfoot as cf
    >>> text = cf.position(cf.new_game(cf.Rules.cross(), players=2, seed=3))
    >>> text.split()[0], text.split()[-1], cf.parse_position(text) == cf.new_game(cf.Rules.cross(), 2, 3).round
    ('cross', 'play', True)
    """
    if type(state) is GameState:
        state = state.round
    if type(state) is not RoundState:
        raise TypeError(f"position takes a RoundState or GameState, got {type(state).__name__}")
    nodes = state.board.nodes
    arms = state.board.arms
    center = f"{nodes[0].tile}" + ("" if arms == state.rules.arms_for(state.players) else f":{arms}")
    board = ",".join([center, *(f"{node.tile}<{node.parent}" for node in nodes[1:])])
    status = _STATUS[None if state.outcome is None else state.outcome.termination]
    if status == "out":
        status += str(state.went_out)
    return " ".join(
        (
            rules_text(state.rules),
            str(state.current_player),
            "-" if state.drawn is None else str(state.drawn),
            str(state.reserve),
            "/".join(_tiles_text(hand) for hand in state.hands),
            _tiles_text(state.yard),
            board,
            status,
        )
    )


_STATUS = {
    None: "play",
    Termination.BLOCKED: "blocked",
    Termination.UNFILLABLE_FOOT: "unfillable",
    Termination.WENT_OUT: "out",
}
"""The status field of a position by how the round ended (the seat who went out follows "out")."""


def _tile(text: str, what: str, max_pip: int) -> Tile:
    match = _TILE.fullmatch(text)
    if match is None:
        raise InvalidRecordError(f"{what}: {text!r} is not a tile; write it like '9-5'")
    high, low = int(match[1]), int(match[2])
    if max(high, low) > max_pip:
        raise InvalidRecordError(f"{what}: {text} is not in the double-{max_pip} set")
    return Tile(high, low)


def _tiles(text: str, what: str, max_pip: int) -> tuple[Tile, ...]:
    if text == "-":
        return ()
    return tuple(_tile(item, what, max_pip) for item in text.split(","))


def _int(text: str, what: str) -> int:
    if not _INT.fullmatch(text):
        raise InvalidRecordError(f"{what} must be a whole number, got {text!r}")
    return int(text)


def build_board(nodes: list[tuple[Tile, int | None]], arms: int, max_pip: int) -> Board:
    """Rebuilds a board by placing ``nodes`` in order on a center of ``arms`` arms, refusing any that does not fit."""
    if not nodes or nodes[0][1] is not None:
        raise InvalidRecordError("the board must start with its center, which has no parent")
    # Refuse impossible boards before building anything: every tile at most once (SET-1).
    size = len(full_set(max_pip))
    if len(nodes) > size:
        raise InvalidRecordError(f"the board has {len(nodes)} tiles; double-{max_pip} has {size}")
    try:
        return placed(nodes[0][0], nodes[1:], arms)
    except InvalidPositionError as error:
        raise InvalidRecordError(str(error)) from None


def _marked(termination: Termination, went_out: int | None) -> str:
    """Says how a document marks a round's end, as its outcome would (which it may not be)."""
    if termination is Termination.WENT_OUT and went_out is not None:
        return str(Outcome(termination, (went_out,)))
    return str(Outcome(termination, ())) if termination is not Termination.WENT_OUT else "someone went out"


def read_round(
    rules: Rules,
    hands: tuple[tuple[Tile, ...], ...],
    yard: tuple[Tile, ...],
    board: Board,
    current: int,
    drawn: Tile | None,
    reserve: int,
    history: tuple[Turn, ...],
    marked: Termination | None,
    went_out: int | None,
    *,
    strict: bool,
) -> RoundState:
    """Builds a round read from text or JSON: well-formed, ended as it is marked, and (``strict``) one play can reach.

    ``marked`` and ``went_out`` are how the document says the round stands (``None``: in play);
    the position decides (END-1, END-2), so a document that says otherwise is refused.
    """
    try:
        state = RoundState(rules, hands, yard, board, current, drawn=drawn, reserve=reserve, history=history)
    except InvalidPositionError as error:
        raise InvalidRecordError(str(error)) from None
    outcome = state.outcome
    actual = None if outcome is None else outcome.termination
    if marked is Termination.BLOCKED and actual is Termination.UNFILLABLE_FOOT:
        marked = actual  # as written before the two were told apart
    if marked is not actual or state.went_out != went_out:
        said = "in play" if marked is None else f"over: {_marked(marked, went_out)}"
        real = "in play" if outcome is None else f"over: {outcome}"
        rule = "END-1" if Termination.WENT_OUT in (marked, actual) else "END-2"
        raise InvalidRecordError(f"the round is marked {said}, but the position is {real} ({rule})")
    if strict:
        found = problems(state)
        if found:
            raise InvalidRecordError(f"not a position play can reach: {found[0][1]}")
    return state


def _status(status: str) -> tuple[Termination | None, int | None]:
    """Reads a position's status field: how the round ended (``None`` in play), and who went out."""
    if status == "play":
        return None, None
    if status == "blocked":
        return Termination.BLOCKED, None
    if status == "unfillable":
        return Termination.UNFILLABLE_FOOT, None
    if status.startswith("out"):
        return Termination.WENT_OUT, _int(status[3:], "the player who went out")
    raise InvalidRecordError(
        f"status must be 'play', 'blocked', 'unfillable' or 'out' and a seat, like 'out2'; got {status!r}"
    )


def parse_position(text: str, *, strict: bool = False) -> RoundState:
    """Reads a round from the position notation (see the module docs): any well-formed position.

    With ``strict``, also refuses a position no deal and legal play could reach (one whose
    :meth:`~chickenfoot.RoundState.status` is not empty): the setting for text from outside.
    Raises :class:`InvalidRecordError` naming the field at fault.

    >>> parse_position("trains 0 - 1 9-5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidRecordError: a position has 8 fields (rules turn drawn ... status), got 5
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_position reads text, got {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidRecordError(f"a position is at most {_MAX_TEXT} characters, got {len(text)}")
    if not text.isascii():
        raise InvalidRecordError("a position is ASCII text: digits 0-9, letters, spaces and - , / < [ ] = :")
    fields = text.strip(string.whitespace).split(" ")
    if len(fields) != 8:
        raise InvalidRecordError(
            f"a position has 8 fields (rules turn drawn reserve hands yard board status), got {len(fields)}"
        )
    rules_field, turn, drawn_field, reserve_field, hands_field, yard_field, board_field, status = fields
    rules = parse_rules_text(rules_field)
    max_pip = rules.max_pip
    current = _int(turn, "the player to move")
    drawn = None if drawn_field == "-" else _tile(drawn_field, "the drawn tile", max_pip)
    reserve = _int(reserve_field, "the reserve")
    hands = tuple(_tiles(hand, f"hand {seat}", max_pip) for seat, hand in enumerate(hands_field.split("/")))
    yard = _tiles(yard_field, "the yard", max_pip)
    if len(hands) < 2:
        raise InvalidRecordError("the hands field needs one hand per player, separated by '/': at least 2")
    nodes: list[tuple[Tile, int | None]] = []
    arms = rules.arms_for(len(hands))
    for number, item in enumerate(board_field.split(",")):
        if number == 0:
            center, colon, arms_text = item.partition(":")
            if colon:
                arms = _int(arms_text, "the center's arms")
            nodes.append((_tile(center, "the board's center", max_pip), None))
            continue
        match = _NODE.fullmatch(item)
        if match is None:
            raise InvalidRecordError(f"board node {number}: {item!r} is not written tile<parent, like '9-5<0'")
        tile = _tile(f"{match[1]}-{match[2]}", f"board node {number}", max_pip)
        nodes.append((tile, int(match[3])))
    board = build_board(nodes, arms, max_pip)
    marked, went_out = _status(status)
    return read_round(rules, hands, yard, board, current, drawn, reserve, (), marked, went_out, strict=strict)
