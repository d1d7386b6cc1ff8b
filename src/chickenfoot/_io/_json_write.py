"""Writing games, rounds, moves, rules, records and views as JSON (:func:`to_json`); see :mod:`._records`."""

from __future__ import annotations

import json
from typing import Any

import attrs

from .._game import Draw, GameState, Move, Outcome, Pass, Play, PlayerView, RoundState, Rules, SpectatorView, Tile
from ._records import FORMAT_VERSION, GameRecord

__all__ = ["to_json"]


def _rules_dict(rules: Rules) -> dict[str, Any]:
    return attrs.asdict(rules)


def _tiles(tiles: tuple[Tile, ...]) -> list[str]:
    return [str(tile) for tile in tiles]


def _outcome_dict(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"termination": outcome.termination.value, "winners": list(outcome.winners)}


def _round_dict(state: RoundState, with_rules: bool) -> dict[str, Any]:
    data: dict[str, Any] = {"rules": _rules_dict(state.rules)} if with_rules else {}
    data.update(
        hands=[_tiles(hand) for hand in state.hands],
        yard=_tiles(state.yard),
        board=[{"tile": str(node.tile), "parent": node.parent} for node in state.board.nodes],
        arms=state.board.arms,
        current_player=state.current_player,
        reserve=state.reserve,
        drawn=None if state.drawn is None else str(state.drawn),
        is_over=state.is_over,
        went_out=state.went_out,
        outcome=_outcome_dict(state.outcome),
        history=[[player, str(move)] for player, move in state.history],
    )
    return data


def _game_dict(game: GameState) -> dict[str, Any]:
    return {
        "rules": _rules_dict(game.rules),
        "players": game.players,
        "seed": game.seed,
        "round_index": game.round_index,
        "round": _round_dict(game.round, with_rules=False),
        "totals": list(game.totals),
        "results": [
            {
                "double": result.double,
                "scores": list(result.scores),
                "went_out": result.went_out,
                "outcome": _outcome_dict(result.outcome),
                "final": _round_dict(result.final, with_rules=False),
            }
            for result in game.results
        ],
        "winners": list(game.winners),
        "outcome": _outcome_dict(game.outcome),
    }


def _spectator_dict(view: PlayerView | SpectatorView) -> dict[str, Any]:
    board = view.board
    ends = {index for ends in board.ends_by_value for index in ends}
    if board.pending is not None:
        ends.add(board.pending)
    return {
        "rules": _rules_dict(view.rules),
        "players": view.players,
        "round_index": view.round_index,
        "board": [{"tile": str(node.tile), "parent": node.parent} for node in board.nodes],
        "pending": board.pending,
        "ends": [[index, board.node(index).exposed] for index in sorted(ends)],
        "hand_sizes": list(view.hand_sizes),
        "yard_size": view.yard_size,
        "reserve": view.reserve,
        "current_player": view.current_player,
        "history": [[player, str(move)] for player, move in view.history],
        "totals": list(view.totals),
        "round_doubles": list(view.round_doubles),
        "round_scores": [list(scores) for scores in view.round_scores],
        "round_went_out": list(view.round_went_out),
        "round_outcomes": [_outcome_dict(outcome) for outcome in view.round_outcomes],
        "winners": list(view.winners),
        "outcome": _outcome_dict(view.outcome),
        "is_over": view.is_over,
    }


def _view_dict(view: PlayerView) -> dict[str, Any]:
    # A seat's view is the spectator's public fields and the four that are the seat's own.
    return {
        "player": view.player,
        **_spectator_dict(view),
        "hand": _tiles(view.hand),
        "drawn": None if view.drawn is None else str(view.drawn),
        "legal_moves": [str(move) for move in view.legal_moves],
    }


def to_json(
    obj: GameState | RoundState | GameRecord | Rules | Move | PlayerView | SpectatorView, *, indent: int | None = None
) -> str:
    """Writes a game, round, record, rules, move, player's view or spectator's view as a JSON document.

    A view's ``"ends"`` lists every node with room for a tile as ``[node, value offered]``
    (while a node is ``"pending"``, only it takes a tile); its other fields are the
    :class:`PlayerView`'s, tiles and moves in the notation. A :class:`SpectatorView` is a
    ``"spectator"`` document: the same fields but the seat's own four (``player``, ``hand``,
    ``drawn``, ``legal_moves``). See the module docs for the others. An outcome (a round's, a result's, a
    game's, a view's) is ``{"termination": "blocked", "winners": []}``, or ``null`` while in play.

    >>> import chickenfoot as cf
    >>> cf.to_json(cf.Play(cf.Tile(9, 5), onto=3))
    '{"type": "move", "version": 3, "move": "9-5@3"}'
    >>> import json
    >>> view = json.loads(cf.to_json(cf.observe(cf.new_game(cf.Rules.trains(), players=4, seed=7), 3)))
    >>> view["type"], view["hand_sizes"], view["ends"], view["legal_moves"]
    ('view', [11, 11, 11, 11], [[0, 9]], ['9-3@0'])
    """
    body: dict[str, Any]
    if type(obj) is PlayerView:
        kind, body = "view", _view_dict(obj)
    elif type(obj) is SpectatorView:
        kind, body = "spectator", _spectator_dict(obj)
    elif type(obj) is GameState:
        kind, body = "game", _game_dict(obj)
    elif type(obj) is RoundState:
        kind, body = "round", _round_dict(obj, with_rules=True)
    elif type(obj) is GameRecord:
        kind = "record"
        body = {
            "rules": _rules_dict(obj.rules),
            "players": obj.players,
            "seed": obj.seed,
            "moves": [str(move) for move in obj.moves],
        }
        if obj.names:
            body["names"] = list(obj.names)
        body.update({key: value for key, value in _headers(obj).items() if value is not None})
        # JSON keys are text: a move's or round's number is written "6", counted from 1.
        for key, numbered in (("comments", obj.comments), ("round_comments", obj.round_comments)):
            if numbered:
                body[key] = {str(number): text for number, text in numbered.items()}
        if obj.tags:
            body["tags"] = dict(obj.tags)
    elif type(obj) is Rules:
        kind, body = "rules", {"rules": _rules_dict(obj)}
    elif type(obj) in (Play, Draw, Pass):
        kind, body = "move", {"move": str(obj)}
    else:
        raise TypeError(
            f"to_json writes a GameState, RoundState, GameRecord, Rules, move, PlayerView or SpectatorView, "
            f"got {type(obj).__name__}"
        )
    version = obj.version if type(obj) is GameRecord else FORMAT_VERSION
    return json.dumps({"type": kind, "version": version, **body}, indent=indent)


def _headers(record: GameRecord) -> dict[str, str | None]:
    return {"event": record.event, "date": record.date, "result": record.result}
