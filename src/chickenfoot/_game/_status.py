"""Whether a well-formed position could come from a deal and legal play: :meth:`RoundState.status`'s checks.

A :class:`~chickenfoot.RoundState` may be any well-formed position (a puzzle, a test of a bot);
these are the checks that tell such a position from one the rules reach, as python-chess's
``Board.status()`` tells a set-up position from a legal one. Strict readers
(``parse_position(text, strict=True)``, ``from_json(text, strict=True)``) refuse a position with
any of them, with the message.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from ._errors import RulesError
from ._moves import Draw, Pass, Play

if TYPE_CHECKING:  # the states call these checks (RoundState.status): a type, never an import at run time
    from ._state import RoundState

__all__ = ["Problem", "problems"]


class Problem(enum.Enum):
    """Names one reason a position could not come from a deal and legal play (see :meth:`RoundState.status`).

    >>> import chickenfoot as cf
    >>> cf.Problem.HAND_SIZES.value
    'hand_sizes'
    """

    PLAYERS = "players"
    """DEAL-1: the rules cannot deal this many players."""
    ARMS = "arms"
    """OPEN-1: the center takes another number of arms than the rules give it for these players."""
    RESERVE = "reserve"
    """YARD-1: the reserve is not the one the rules keep for these players."""
    YARD_SIZE = "yard_size"
    """DEAL-A2, DEAL-B1, YARD-1: the yard is longer than a deal leaves it, or (*trains*) shorter than the reserve."""
    HAND_SIZES = "hand_sizes"
    """DEAL-A3, DEAL-B1, DRAW-1: the hands hold more tiles beyond the deal than have left the yard."""
    EMPTY_HANDS = "empty_hands"
    """END-1: more than one hand is empty (the round ends when the first player goes out)."""
    DRAWN = "drawn"
    """DRAW-4: the player who drew holds another tile that plays (a draw is only for want of a play)."""
    TURN = "turn"
    """END-1, TURN-1: the player who went out is not the player to move, or the history's last move hands the turn
    to another player."""
    HISTORY = "history"
    """TURN-1, DRAW-1, DRAW-4: the history does not build the board in order, or has a turn out of order, a draw from
    a yard at its reserve, or a pass while a draw was owed."""


def problems(state: RoundState) -> list[tuple[Problem, str]]:
    """Lists every :class:`Problem` of ``state``, each with a message saying what is wrong, in the enum's order."""
    found: list[tuple[Problem, str]] = []
    rules, hands, _yard, board, reserve = state.rules, state.hands, state.yard, state.board, state.reserve
    players = len(hands)
    try:
        rules.check_players(players)
    except RulesError as error:
        found.append((Problem.PLAYERS, f"{players} hands: {error}"))
    dealt = not found
    arms = rules.arms_for(players)
    if board.arms != arms:
        found.append((Problem.ARMS, f"the center takes {board.arms} arms, but these rules give it {arms} (OPEN-1)"))
    if reserve != rules.reserve_for(players):
        found.append(
            (Problem.RESERVE, f"the reserve is {reserve}, but these rules keep {rules.reserve_for(players)} (YARD-1)")
        )
    if dealt:  # these players can be dealt: check the yard and hands a deal leaves them
        found += _size_problems(state)
    empty = [seat for seat, hand in enumerate(hands) if not hand]
    if len(empty) > 1:
        found.append((Problem.EMPTY_HANDS, f"players {empty} hold no tiles: only the player who went out can (END-1)"))
    current = state.current_player
    if state.drawn is not None and not state.is_over:
        mask = board.playable_mask
        fits = [str(tile) for tile in hands[current] if tile is not state.drawn and tile.mask & mask]
        if fits:
            found.append(
                (
                    Problem.DRAWN,
                    f"player {current} drew {state.drawn} while holding {fits[0]}, which plays: "
                    "a draw is only for want of a play (DRAW-4)",
                )
            )
    if state.went_out is not None and current != state.went_out:
        found.append(
            (
                Problem.TURN,
                f"player {state.went_out} went out, so the player to move must be {state.went_out}, not {current}",
            )
        )
    history = state.history
    if history and not state.is_over:
        player, move = history[-1]
        expected = player if type(move) is Draw else (player + 1) % players  # TURN-1
        if current != expected:
            found.append((Problem.TURN, f"the history's last move hands the turn to player {expected}, not {current}"))
    if history:
        wrong = _history_problem(state)
        if wrong is not None:
            found.append((Problem.HISTORY, wrong))
    return found


def _size_problems(state: RoundState) -> list[tuple[Problem, str]]:
    """Checks the yard and hand sizes against a deal and the draws since (DEAL-A2, DEAL-A3, DEAL-B1, YARD-1)."""
    found: list[tuple[Problem, str]] = []
    rules, hands, yard, reserve = state.rules, state.hands, state.yard, state.reserve
    players = len(hands)
    dealt = rules.hand_size_for(players)
    # The yard as dealt; a cross deal may then lose tiles to setup draws (DEAL-B2), a trains deal
    # sets the center aside first (DEAL-A2), and play only ever draws the yard down.
    dealt_yard = rules.set_size - players * dealt - (1 if rules.deal == "trains" else 0)
    drawn = dealt_yard - len(yard)
    if drawn < 0:
        found.append(
            (Problem.YARD_SIZE, f"the yard has {len(yard)} tiles, more than the {dealt_yard} these rules deal")
        )
    elif rules.deal == "trains" and len(yard) < reserve:
        found.append(
            (Problem.YARD_SIZE, f"the yard has {len(yard)} tiles, fewer than the reserve of {reserve} (YARD-1)")
        )
    gained = sum(max(0, len(hand) - dealt) for hand in hands)
    if gained > max(drawn, 0):
        found.append(
            (
                Problem.HAND_SIZES,
                f"hands of {[len(hand) for hand in hands]} tiles need {gained} or more draws beyond a deal of {dealt} "
                f"each, but only {max(drawn, 0)} tiles have left the yard",
            )
        )
    return found


def _history_problem(state: RoundState) -> str | None:
    """Checks a round's whole history: its plays built the board; each turn, draw and pass was allowed (DRAW-*)."""
    turns = state.history
    players, reserve = state.players, state.reserve
    plays = [(move.tile, move.onto) for _, move in turns if type(move) is Play]
    if plays != [(node.tile, node.parent) for node in state.board.nodes[1:]]:
        return "the history's plays are not the board's tiles in placement order"
    left = len(state.yard) + sum(type(move) is Draw for _, move in turns)  # the yard when play began
    previous: tuple[int, object] | None = None
    for number, (player, move) in enumerate(turns, start=1):
        if previous is not None:
            last_player, last_move = previous
            expected = last_player if type(last_move) is Draw else (last_player + 1) % players  # TURN-1
            if player != expected:
                return f"history entry {number}: player {player} moved, but it was player {expected}'s turn"
        if type(move) is Draw:
            if left <= reserve:
                return f"history entry {number}: player {player} drew from a yard at its reserve (DRAW-1)"
            left -= 1
        elif type(move) is Pass and left > reserve and not (previous and type(previous[1]) is Draw):
            return f"history entry {number}: player {player} passed while a draw was owed (DRAW-4)"
        previous = (player, move)
    return None
