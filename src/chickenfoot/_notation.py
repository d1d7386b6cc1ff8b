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
    board    := tile ("," tile "<" integer)*            (the center, then each node as tile<parent, in placement order)
    status   := "play" | "blocked" | "out" integer      (in play, blocked (END-2), or that player went out (END-1))
    tile     := integer "-" integer                     (written high first, "9-5"; either order is read)

The board is written as the order tiles were placed, so a reader rebuilds it with
:meth:`Board.start` and :meth:`Board.place` and every exposed value, open end and pending node
follows; a tile that does not fit its parent, or a full parent, is rejected. Every tile of the
set must appear exactly once among the hands, the yard and the board. The round's history is
not part of a position (two states that differ only in history are equal).

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

from ._board import Board
from ._engine import ends_blocked
from ._errors import InvalidRecordError, RulesError
from ._moves import DRAW, Draw, Pass, Play
from ._rules import PRESETS, Rules
from ._state import GameState, History, RoundState, Turn
from ._tiles import TILE_PATTERN, Tile, full_set

__all__ = ["parse_position", "position", "rules_text", "parse_rules_text"]

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
    board = ",".join([str(nodes[0].tile), *(f"{node.tile}<{node.parent}" for node in nodes[1:])])
    if not state.is_over:
        status = "play"
    elif state.went_out is None:
        status = "blocked"
    else:
        status = f"out{state.went_out}"
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


def build_board(rules: Rules, players: int, nodes: list[tuple[Tile, int | None]]) -> Board:
    """Rebuilds a board by placing ``nodes`` in order, rejecting any that does not fit (PLAY-1, FOOT-2)."""
    if not nodes or nodes[0][1] is not None:
        raise InvalidRecordError("the board must start with its center, which has no parent")
    # Refuse impossible boards before building anything: every tile at most once (SET-1).
    if len(nodes) > rules.set_size:
        raise InvalidRecordError(f"the board has {len(nodes)} tiles; double-{rules.max_pip} has {rules.set_size}")
    seen: set[Tile] = set()
    for number, (tile, _) in enumerate(nodes):
        if tile in seen:
            raise InvalidRecordError(f"board node {number}: {tile} is already on the board; each tile is in one place")
        seen.add(tile)
    center = nodes[0][0]
    if not center.is_double:
        raise InvalidRecordError(f"the center {center} is not a double")
    board = Board.start(center, rules.arms_for(players))
    for number, (tile, parent) in enumerate(nodes[1:], start=1):
        if parent is None or not 0 <= parent < number:
            raise InvalidRecordError(f"board node {number} ({tile}) must name an earlier node as its parent")
        offered = board.node(parent).exposed
        if not tile.carries(offered):
            raise InvalidRecordError(
                f"board node {number}: {tile} does not match node {parent}, which offers {offered}"
            )
        if not board.accepts(offered, parent):
            reason = f"node {board.pending} is pending" if board.pending not in (None, parent) else "it is full"
            raise InvalidRecordError(f"board node {number}: {tile} cannot go onto node {parent}: {reason}")
        board = board.place(tile, parent)
    return board


def checked_round(
    rules: Rules,
    hands: tuple[tuple[Tile, ...], ...],
    yard: tuple[Tile, ...],
    board: Board,
    current: int,
    drawn: Tile | None,
    went_out: int | None,
    is_over: bool,
    reserve: int,
    log: History = None,
) -> RoundState:
    """Builds a round read from text or JSON, checking its parts fit together first: every tile
    once, a seat to move, the drawn tile held, and a status the position can have."""
    players = len(hands)
    try:
        rules.check_players(players)
    except RulesError as error:
        raise InvalidRecordError(f"{players} hands: {error}") from None
    seen: dict[Tile, str] = {}
    places = [(f"player {seat}'s hand", hand) for seat, hand in enumerate(hands)]
    places += [("the yard", yard), ("the board", tuple(node.tile for node in board.nodes))]
    for where, tiles in places:
        for tile in tiles:
            if tile.high > rules.max_pip:
                raise InvalidRecordError(f"{tile} in {where} is not in the double-{rules.max_pip} set")
            if tile in seen:
                raise InvalidRecordError(f"{tile} is in {seen[tile]} and in {where}: each tile is in one place")
            seen[tile] = where
    missing = [str(tile) for tile in full_set(rules.max_pip) if tile not in seen]
    if missing:
        raise InvalidRecordError(f"tiles missing from the hands, yard and board: {', '.join(missing)}")
    if not 0 <= current < players:
        raise InvalidRecordError(f"the player to move must be a seat from 0 to {players - 1}, got {current}")
    if drawn is not None and drawn not in hands[current]:
        raise InvalidRecordError(f"the drawn tile {drawn} is not in the hand of player {current}, who is to move")
    if went_out is not None and (not 0 <= went_out < players or hands[went_out]):
        raise InvalidRecordError(f"player {went_out} cannot have gone out: they are not a seat or still hold tiles")
    mask = board.playable_mask
    if drawn is not None and not is_over:
        # DRAW-4: a player draws only when nothing in hand plays, so only the drawn tile may fit.
        fits = [str(tile) for tile in hands[current] if tile is not drawn and tile.mask & mask]
        if fits:
            raise InvalidRecordError(
                f"player {current} drew {drawn} while holding {fits[0]}, which plays: a draw is only for want of a play"
            )
    if not is_over:
        empty = next((seat for seat, hand in enumerate(hands) if not hand), None)
        if empty is not None:
            raise InvalidRecordError(f"player {empty} holds no tiles, so the round is over (END-1): mark it out{empty}")
    _check_counts(rules, hands, yard, board, reserve, went_out, log)
    if log is not None and not is_over:
        (player, move), _ = log
        expected = player if type(move) is Draw else (player + 1) % players  # TURN-1
        if current != expected:
            raise InvalidRecordError(f"the history's last move hands the turn to player {expected}, not {current}")
    state = RoundState(
        rules=rules,
        hands=hands,
        yard=yard,
        board=board,
        current_player=current,
        reserve=reserve,
        drawn=drawn,
        is_over=is_over,
        went_out=went_out,
        log=log,
    )
    if is_over and went_out is None and not ends_blocked(state):
        raise InvalidRecordError("the round is marked blocked, but a tile can still be played or drawn (END-2)")
    if not is_over and ends_blocked(state):
        raise InvalidRecordError("the round is marked in play, but nobody can play or draw: mark it blocked (END-2)")
    if went_out is not None and current != went_out:
        raise InvalidRecordError(f"player {went_out} went out, so the player to move must be {went_out}, got {current}")
    return state


def _check_counts(
    rules: Rules,
    hands: tuple[tuple[Tile, ...], ...],
    yard: tuple[Tile, ...],
    board: Board,
    reserve: int,
    went_out: int | None,
    log: History,
) -> None:
    """Checks the sizes a deal and some history can produce (DEAL-*, YARD-1), and a history against the board."""
    players = len(hands)
    if reserve != rules.reserve_for(players):
        raise InvalidRecordError(
            f"the reserve is {reserve}, but these rules keep {rules.reserve_for(players)} (YARD-1)"
        )
    dealt = rules.hand_size_for(players)
    # The yard as dealt; a cross deal may then lose tiles to setup draws (DEAL-B2), a trains deal
    # sets the center aside first (DEAL-A2), and play only ever draws the yard down.
    dealt_yard = rules.set_size - players * dealt - (1 if rules.deal == "trains" else 0)
    drawn = dealt_yard - len(yard)
    if drawn < 0:
        raise InvalidRecordError(f"the yard has {len(yard)} tiles, more than the {dealt_yard} these rules deal")
    if rules.deal == "trains" and len(yard) < reserve:
        raise InvalidRecordError(f"the yard has {len(yard)} tiles, fewer than the reserve of {reserve} (YARD-1)")
    gained = sum(max(0, len(hand) - dealt) for hand in hands)
    if gained > drawn:
        raise InvalidRecordError(
            f"hands of {[len(hand) for hand in hands]} tiles need {gained} or more draws beyond a deal of {dealt} "
            f"each, but only {drawn} tiles have left the yard"
        )
    empty = [seat for seat, hand in enumerate(hands) if not hand]
    if empty and empty != [went_out]:
        raise InvalidRecordError(f"player {empty[-1]} holds no tiles: only the player who went out can (END-1)")
    if log is not None:
        _check_history(rules, hands, yard, board, reserve, log)


def _check_history(
    rules: Rules, hands: tuple[tuple[Tile, ...], ...], yard: tuple[Tile, ...], board: Board, reserve: int, log: History
) -> None:
    """Checks a round's whole history: its plays built the board; each draw and pass was allowed (DRAW-*)."""
    turns: list[Turn] = []
    while log is not None:  # the persistent list runs newest first
        turn, log = log
        turns.append(turn)
    turns.reverse()
    players = len(hands)
    plays = [(move.tile, move.onto) for _, move in turns if type(move) is Play]
    if plays != [(node.tile, node.parent) for node in board.nodes[1:]]:
        raise InvalidRecordError("the history's plays are not the board's tiles in placement order")
    left = len(yard) + sum(type(move) is Draw for _, move in turns)  # the yard when play began
    previous: tuple[int, object] | None = None
    for number, (player, move) in enumerate(turns, start=1):
        if previous is not None:
            last_player, last_move = previous
            expected = last_player if type(last_move) is Draw else (last_player + 1) % players  # TURN-1
            if player != expected:
                raise InvalidRecordError(
                    f"history entry {number}: player {player} moved, but it was player {expected}'s turn"
                )
        if type(move) is Draw:
            if left <= reserve:
                raise InvalidRecordError(
                    f"history entry {number}: player {player} drew from a yard at its reserve (DRAW-1)"
                )
            left -= 1
        elif type(move) is Pass and left > reserve and not (previous and previous == (player, DRAW)):
            raise InvalidRecordError(f"history entry {number}: player {player} passed while a draw was owed (DRAW-4)")
        previous = (player, move)


def parse_position(text: str) -> RoundState:
    """Reads a round from the position notation (see the module docs), checking that it is whole.

    Raises :class:`InvalidRecordError` naming the field at fault.

    >>> parse_position("trains 0 - 1 9-5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    chickenfoot.InvalidRecordError: a position has 8 fields (rules turn drawn ... status), got 5
    """
    if not isinstance(text, str):
        raise InvalidRecordError(f"a position is text, got {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise InvalidRecordError(f"a position is at most {_MAX_TEXT} characters, got {len(text)}")
    if not text.isascii():
        raise InvalidRecordError("a position is ASCII text: digits 0-9, letters, spaces and - , / < [ ] =")
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
    nodes: list[tuple[Tile, int | None]] = []
    for number, item in enumerate(board_field.split(",")):
        if number == 0:
            nodes.append((_tile(item, "the board's center", max_pip), None))
            continue
        match = _NODE.fullmatch(item)
        if match is None:
            raise InvalidRecordError(f"board node {number}: {item!r} is not written tile<parent, like '9-5<0'")
        tile = _tile(f"{match[1]}-{match[2]}", f"board node {number}", max_pip)
        nodes.append((tile, int(match[3])))
    if len(hands) < 2:
        raise InvalidRecordError("the hands field needs one hand per player, separated by '/': at least 2")
    board = build_board(rules, len(hands), nodes)
    if status == "play":
        is_over, went_out = False, None
    elif status == "blocked":
        is_over, went_out = True, None
    elif status.startswith("out"):
        is_over, went_out = True, _int(status[3:], "the player who went out")
    else:
        raise InvalidRecordError(f"status must be 'play', 'blocked' or 'out' and a seat, like 'out2'; got {status!r}")
    return checked_round(rules, hands, yard, board, current, drawn, went_out, is_over, reserve)
