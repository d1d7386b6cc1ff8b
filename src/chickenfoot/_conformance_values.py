"""The public states read as the reference's values, and compared with them field by field.

:mod:`chickenfoot.conformance` checks every statement of the rules through these, and shows
them as its own.
"""

from __future__ import annotations

from . import GameState, RoundState, Tile, reference as ref

__all__ = ["game_differences", "reference_game", "reference_round", "round_differences"]


def _tile(tile: Tile) -> ref.Tile:
    return (tile.high, tile.low)


def reference_round(state: RoundState) -> ref.Round:
    """Reads a public round into the reference's values, through its public attributes only."""
    nodes = tuple(ref.Node(_tile(node.tile), node.parent, node.exposed) for node in state.board.nodes)
    return ref.Round(
        rules=state.rules,
        hands=tuple(tuple(map(_tile, hand)) for hand in state.hands),
        yard=tuple(map(_tile, state.yard)),
        nodes=nodes,
        current_player=state.current_player,
        reserve=state.reserve,
        drawn=None if state.drawn is None else _tile(state.drawn),
        is_over=state.is_over,
        went_out=state.went_out,
        history=tuple((player, str(move)) for player, move in state.history),
    )


def reference_game(game: GameState) -> ref.Game:
    """Reads a public game into the reference's values, through its public attributes only."""
    results = tuple(
        ref.Result(result.double, result.scores, result.went_out, reference_round(result.final))
        for result in game.results
    )
    return ref.Game(
        game.rules,
        game.players,
        game.seed,
        reference_round(game.round),
        game.round_index,
        game.totals,
        results,
        game.winners,
    )


def round_differences(
    state: RoundState, expected: ref.Round, where: str = "round", *, full: bool = True, history: bool = True
) -> list[str]:
    """Lists every public attribute of ``state`` that differs from the reference's ``expected``, by name.

    Without ``full``, the history is compared by its length and last turn only (a quick check
    for the steps between two full ones); without ``history``, not at all.
    """
    turns = state.history if full else state.history[-1:]
    seen = {
        "rules": state.rules,
        "hands": tuple(tuple(map(_tile, hand)) for hand in state.hands),
        "yard": tuple(map(_tile, state.yard)),
        "board.nodes": tuple(ref.Node(_tile(node.tile), node.parent, node.exposed) for node in state.board.nodes),
        "current_player": state.current_player,
        "reserve": state.reserve,
        "drawn": None if state.drawn is None else _tile(state.drawn),
        "is_over": state.is_over,
        "went_out": state.went_out,
        "len(history)": len(state.history),
        "history": tuple((player, str(move)) for player, move in turns),
    }
    wanted = {
        **{name: getattr(expected, name) for name in seen if name.isidentifier()},
        "board.nodes": expected.nodes,
        "len(history)": len(expected.history),
        "history": expected.history if full else expected.history[-1:],
    }
    if not history:
        del seen["len(history)"], seen["history"]
    differences = [
        f"{where}.{name}: {seen[name]!r} != {wanted[name]!r} (the reference's)"
        for name in seen
        if seen[name] != wanted[name]
    ]
    if not differences and tuple(state.board.open_ends) != tuple(ref.open_nodes(expected)):
        differences.append(
            f"{where}.board.open_ends: {state.board.open_ends} != {ref.open_nodes(expected)} (the reference's)"
        )
    return differences


def game_differences(game: GameState, expected: ref.Game, *, full: bool = True, history: bool = True) -> list[str]:
    """Lists every public attribute of ``game`` that differs from the reference's ``expected``, by name.

    Without ``full``, the finished rounds are compared by their double, scores and who went
    out, not their final states, and the round in play as :func:`round_differences` does then.
    """
    differences = [
        f"{name}: {getattr(game, name)!r} != {getattr(expected, name)!r} (the reference's)"
        for name in ("rules", "players", "seed", "round_index", "totals", "winners", "is_over")
        if getattr(game, name) != getattr(expected, name)
    ]
    current = None if expected.is_over else expected.round.current_player
    if game.current_player != current:
        differences.append(f"current_player: {game.current_player} != {current} (the reference's)")
    differences += round_differences(game.round, expected.round, full=full, history=history)
    if len(game.results) != len(expected.results):
        differences.append(f"results: {len(game.results)} rounds != {len(expected.results)} (the reference's)")
    for number, (result, wanted) in enumerate(zip(game.results, expected.results, strict=False)):
        where = f"results[{number}]"
        differences += [
            f"{where}.{name}: {getattr(result, name)!r} != {getattr(wanted, name)!r} (the reference's)"
            for name in ("double", "scores", "went_out")
            if getattr(result, name) != getattr(wanted, name)
        ]
        if full:
            differences += round_differences(result.final, wanted.final, f"{where}.final", history=history)
    return differences
